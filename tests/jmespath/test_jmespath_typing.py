"""Generated functions pass ``mypy --strict`` (one run over a whole module)."""

from __future__ import annotations

from shared_corpora import shared_path

import subprocess
import sys
from pathlib import Path

import black
from jmespath_cases import conformance_cases, waiter_paths

from waitable_codegen.jmespath import JMESPathCompileError, compile_to_source


def _sample() -> list[str]:
    """Every waiter path, and every third expression of the compliance suite."""
    suite = [case["expression"] for _, _, case in conformance_cases()][::3]
    return waiter_paths() + suite


def test_a_module_of_compiled_functions_passes_mypy_strict(tmp_path: Path) -> None:
    shared_path("models")
    parts = ["from typing import Any\n\nfrom waitable import jmespath_runtime as _jp\n"]
    for number, expression in enumerate(_sample()):
        try:
            parts.append(compile_to_source(expression, f"path_{number}"))
        except JMESPathCompileError:
            continue
    assert len(parts) > 350
    module = tmp_path / "compiled_paths.py"
    module.write_text(black.format_str("\n\n".join(parts), mode=black.Mode()), "utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--config-file=",
            str(module),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
