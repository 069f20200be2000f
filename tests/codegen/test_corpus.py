"""The whole shared corpus generates, imports and passes `mypy --strict`.

One class pair per waiter of the 64 model files (278 waiters), every package
imported, then one mypy run over all of them (plus the spec examples and the
conformance models that validate cleanly).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from shared_corpora import shared_path

from waitable_codegen import generate

from .helpers import ERRORFILES, PROJECT_ROOT, SPEC_EXAMPLES, corpus_files

CLASS = re.compile(r"^class (Async)?(\w+)Waiter\(", re.MULTILINE)


def package_name(model: Path) -> str:
    return re.sub(r"\W", "_", f"{model.parent.name}_{model.stem}")


def waiters_in(model: Path) -> int:
    shapes = json.loads(model.read_text())["shapes"]
    return sum(
        len(body.get("traits", {}).get("smithy.waiters#waitable", {}))
        for body in shapes.values()
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """Every corpus model generated into its own package; name → waiter count."""
    root = tmp_path_factory.mktemp("corpus")
    counts: dict[str, int] = {}
    for model in corpus_files():
        name = package_name(model)
        result = generate(model, root / name)
        assert result.waiters == waiters_in(model), model
        counts[name] = result.waiters
    generate(SPEC_EXAMPLES, root / "spec_examples")
    for model in valid_conformance_models():
        generate(model, root / f"conformance_{package_name(model)}")
    return root, counts


def valid_conformance_models() -> list[Path]:
    """Smithy's waiter test models that validate cleanly (an empty .errors file)."""
    return [
        model
        for model in sorted(ERRORFILES.glob("*.json"))
        if not model.with_suffix(".errors").read_text().strip()
    ]


def test_every_waiter_of_the_corpus_becomes_a_sync_and_an_async_class(
    corpus: tuple[Path, dict[str, int]],
) -> None:
    shared_path("models")
    root, counts = corpus
    assert len(counts) == len(corpus_files()) == 64
    sync = asynchronous = 0
    for name in counts:
        source = (root / name / "waiters.py").read_text()
        found = CLASS.findall(source)
        sync += sum(1 for prefix, _ in found if not prefix)
        asynchronous += sum(1 for prefix, _ in found if prefix)
    assert sync == asynchronous == sum(counts.values()) == 278


def test_every_generated_package_imports_and_passes_mypy_strict(
    corpus: tuple[Path, dict[str, int]],
) -> None:
    shared_path("models")
    root, counts = corpus
    extra = [f"conformance_{package_name(m)}" for m in valid_conformance_models()]
    assert len(extra) == 4
    packages = [*sorted(counts), "spec_examples", *extra]
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib, sys\n"
            "for name in sys.argv[1:]:\n"
            "    assert importlib.import_module(name).__all__\n",
            *packages,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert imported.returncode == 0, imported.stderr
    arguments = [flag for name in packages for flag in ("-p", name)]
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--config-file",
            str(PROJECT_ROOT / "pyproject.toml"),
            *arguments,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout[-5000:]
    assert f"in {3 * len(packages)} source files" in checked.stdout
