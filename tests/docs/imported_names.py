"""The names a documentation example imports, and whether the real modules have them.

`imported_names(source)` reads `import m` and `from m import a, b` statically; run as a
script, this module reads a JSON list of `[module, name]` pairs on standard input,
imports each module for real (the generated packages must be on `PYTHONPATH`) and
prints a JSON object mapping `"module:name"` to what is wrong, for the pairs that fail.
"""

from __future__ import annotations

import ast
import difflib
import importlib
import json
import re
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class ImportedName:
    """`name` imported from `module` (`name` is None for a plain `import module`)."""

    module: str
    name: str | None
    line: int

    @property
    def key(self) -> str:
        """`module:name`, how the checker reports it."""
        return f"{self.module}:{self.name or ''}"


def imported_names(source: str, first_line: int = 1) -> list[ImportedName]:
    """Every absolute import of `source`, with Markdown line numbers.

    Raises SyntaxError when `source` does not parse (top-level await is allowed).
    """
    tree = ast.parse(source)
    found: list[ImportedName] = []
    for node in ast.walk(tree):
        line = first_line + getattr(node, "lineno", 1) - 1
        if isinstance(node, ast.Import):
            found += [ImportedName(alias.name, None, line) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [
                ImportedName(node.module, alias.name, line)
                for alias in node.names
                if alias.name != "*"
            ]
    return found


def unbound_names(
    sources: list[tuple[int, str]], pattern: re.Pattern[str]
) -> list[tuple[str, int]]:
    """Names matching `pattern` that the code uses but neither imports nor assigns.

    `sources` are `(first_line, source)` pieces run in one namespace; the answer is
    `(name, markdown_line)` pairs, for example `TableExistsWaiter` used without its import.
    """
    bound: set[str] = set()
    used: list[tuple[str, int]] = []
    for first_line, source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                used.append((node.id, first_line + node.lineno - 1))
            elif isinstance(node, ast.Name):
                bound.add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            ):
                bound.add(node.name)
    return [
        (name, line) for name, line in used if name not in bound and pattern.match(name)
    ]


def problem(module_name: str, name: str | None) -> str | None:
    """What is wrong with importing `name` from `module_name`, or None when it works."""
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # any failure to import is what we report
        return f"cannot import module {module_name}: {type(error).__name__}: {error}"
    if name is None or hasattr(module, name):
        return None
    try:
        importlib.import_module(f"{module_name}.{name}")
    except ImportError:
        public = [n for n in dir(module) if not n.startswith("_")]
        close = difflib.get_close_matches(name, public, n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return f"{module_name} has no name {name!r}{hint}"
    return None


def main() -> None:
    """Check the `[module, name]` pairs on standard input; print the failures as JSON."""
    pairs = json.load(sys.stdin)
    failures = {
        f"{module}:{name or ''}": message
        for module, name in pairs
        if (message := problem(module, name)) is not None
    }
    json.dump(failures, sys.stdout)


if __name__ == "__main__":
    main()
