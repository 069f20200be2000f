"""Run a documentation example in this fresh interpreter, as a reader would paste it.

Reads a JSON list of `[markdown_file, first_line, source]` pieces from standard input
(setup code first, the block last) and executes them in order in one `__main__`
namespace. Top-level `await` is allowed (as in the asyncio REPL); when a piece uses
it, all pieces run in one event loop. Line numbers in tracebacks are the Markdown
file's own, so a failure points at the README line.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import json
import sys
from types import CodeType
from typing import Any


def compile_piece(markdown_file: str, first_line: int, source: str) -> CodeType:
    """Compile one piece so that its line numbers are the Markdown file's."""
    padded = "\n" * (first_line - 1) + source
    code: CodeType = compile(
        padded,
        markdown_file,
        "exec",
        flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
        dont_inherit=True,
    )
    return code


async def run_async(codes: list[CodeType], namespace: dict[str, Any]) -> None:
    """Run the pieces in one event loop, awaiting those that use top-level await."""
    for code in codes:
        outcome = eval(code, namespace)  # noqa: S307 - running the docs is the point
        if inspect.iscoroutine(outcome):
            await outcome


def main() -> None:
    """Compile every piece first (a syntax error fails before anything runs), then run."""
    pieces = json.load(sys.stdin)
    codes = [compile_piece(*piece) for piece in pieces]
    namespace: dict[str, Any] = {"__name__": "__main__"}
    if any(code.co_flags & inspect.CO_COROUTINE for code in codes):
        asyncio.run(run_async(codes, namespace))
    else:
        for code in codes:
            exec(code, namespace)  # noqa: S102 - running the docs is the point


if __name__ == "__main__":
    main()
