"""Generated modules import only what they use: linters (ruff's F401, pyright's
reportUnusedImport) run over generated packages found `jmespath_runtime as _jp`
unused in 36 of the 54 AWS `waiters.py` files, imported whenever a module had a
compiled function, whether or not one called a runtime helper."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from shared_corpora import shared_path

from waitable_codegen import generate

from .helpers import SPEC_EXAMPLES


def _unused_imports(source: str) -> list[str]:
    """The names a module imports at its top level and never reads (a name in
    `__all__` is read: a package's `__init__` re-exports)."""
    tree = ast.parse(source)
    imported: list[str] = []
    exported: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                continue
            imported += [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__"
            for target in node.targets
        ):
            exported = set(ast.literal_eval(node.value))
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return [name for name in imported if name not in read | exported]


@pytest.mark.parametrize("jmespath", ["compiled", "interpreted"])
def test_no_generated_module_imports_what_it_does_not_use(
    tmp_path: Path, jmespath: str
) -> None:
    aws = sorted(shared_path("models", "api-models-aws").glob("*.json"))
    generate(aws, tmp_path / "aws", jmespath=jmespath)
    generate(SPEC_EXAMPLES, tmp_path / "spec", jmespath=jmespath)
    found = {
        str(path.relative_to(tmp_path)): unused
        for path in sorted(tmp_path.rglob("*.py"))
        if (unused := _unused_imports(path.read_text()))
    }
    assert not found


def test_the_runtime_helpers_are_imported_where_a_function_calls_one(
    tmp_path: Path,
) -> None:
    """The other way round: a module whose compiled function calls `_jp.NAME`
    imports it (an unused-import check alone would pass with none)."""
    generate(SPEC_EXAMPLES, tmp_path / "p")  # GroupExists: length(...)
    source = next(tmp_path.rglob("waiters.py")).read_text()
    assert "_jp.fn_length(" in source
    assert "from waitable import jmespath_runtime as _jp\n" in source
