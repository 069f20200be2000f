"""generated_examples/ is what the generator makes today, byte for byte.

Regenerate it with `python generated_examples/regenerate.py` after changing the
generator, and review the diff.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .helpers import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "generated_examples"


def regenerate_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "regenerate_examples", GOLDEN / "regenerate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generated_files(root: Path, packages: list[str]) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for package in packages
        for path in sorted((root / package).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    script = regenerate_script()
    root = tmp_path_factory.mktemp("golden")
    script.regenerate(root)
    return root, list(script.EXAMPLES)


def test_generated_examples_are_up_to_date(fresh: tuple[Path, list[str]]) -> None:
    root, packages = fresh
    expected = generated_files(root, packages)
    checked_in = generated_files(GOLDEN, packages)
    assert sorted(checked_in) == sorted(expected), "missing or extra files"
    stale = [name for name in expected if checked_in[name] != expected[name]]
    assert stale == [], "run `python generated_examples/regenerate.py`"


def test_generated_examples_import_with_only_the_runtime() -> None:
    """Import every example in a fresh interpreter where jinja2, black, click and
    msgspec cannot be imported, and check none of the generator's tools were loaded."""
    code = """
import importlib, importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("jinja2", "black", "click", "msgspec", "waitable_codegen"):
            raise ImportError(f"{name} is not installed here")
        return None
sys.meta_path.insert(0, Refuse())
for package in sys.argv[1:]:
    module = importlib.import_module(package)
    assert module.__all__, package
print(len(sys.argv[1:]))
"""
    packages = list(regenerate_script().EXAMPLES)
    done = subprocess.run(
        [sys.executable, "-c", code, *packages],
        cwd=GOLDEN,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(packages))


def test_the_generator_reads_the_repository_templates_or_a_copy_of_them() -> None:
    """An editable install reads `templates/`; a wheel ships the same files."""
    from waitable_codegen.locations import PACKAGE_DIR, templates_dir

    found = templates_dir()
    repository = PROJECT_ROOT / "templates"
    if PACKAGE_DIR.is_relative_to(PROJECT_ROOT / "codegen"):
        assert found == repository
    else:
        assert found == PACKAGE_DIR / "templates"
        shipped = {p.name: p.read_bytes() for p in found.glob("*.jinja")}
        assert shipped == {p.name: p.read_bytes() for p in repository.glob("*.jinja")}
    assert (found / "waiters.py.jinja").is_file()
