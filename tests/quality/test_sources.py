"""The project's own sources meet the bar CI holds them to: `mypy --strict` on
both packages, black's layout (the pinned version) on everything Python we write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["runtime/waitable", "codegen/waitable_codegen"]
FORMATTED = ["runtime", "codegen", "tests", "benchmarks", "examples"]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    """`python -m <command>` in the project root (where pyproject.toml configures it)."""
    return subprocess.run(
        [sys.executable, "-m", *command],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
    )


def test_both_packages_pass_mypy_strict() -> None:
    done = _run("mypy", "--strict", "--no-incremental", *PACKAGES)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_python_source_is_in_blacks_layout() -> None:
    present = [path for path in FORMATTED if (PROJECT_ROOT / path).is_dir()]
    done = _run("black", "--check", "--quiet", *present)
    assert (
        done.returncode == 0
    ), f"black would reformat (run `black {' '.join(present)}`):\n{done.stderr}"
