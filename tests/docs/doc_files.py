"""Which Markdown files are checked, their code blocks, and how each block is checked."""

from __future__ import annotations

import enum
import functools
import sys
from pathlib import Path

from .markdown_blocks import CodeBlock, read_blocks

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PYTHON = frozenset({"python", "py"})
SHELL = frozenset({"bash", "sh", "shell"})
JSON = frozenset({"json"})
TEXT = frozenset({"", "text"})


class Check(enum.Enum):
    """What the suite does with a block."""

    RUN_PYTHON = "python, run"
    PARSE_PYTHON = "python, skipped: parsed and imports checked"
    SHELL = "bash: syntax checked, generate-waiters commands run"
    QUICKSTART = "bash quick start: syntax checked only (CI runs it)"
    JSON = "json: parsed, smithy-build run commands run"
    LISTING = "text: listed files checked against a generated package"
    OUTPUT = "text: output checked against the command that prints it"
    TEXT = "text: not code"
    UNKNOWN = "unknown language"


def doc_paths() -> list[Path]:
    """README.md and every docs/*.md, in a stable order."""
    return [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]


@functools.cache
def doc_blocks() -> tuple[CodeBlock, ...]:
    """Every fenced code block of the checked files (raises MarkerError on a bad marker)."""
    return tuple(
        block
        for path in doc_paths()
        for block in read_blocks(path, path.relative_to(PROJECT_ROOT).as_posix())
    )


def check_of(block: CodeBlock) -> Check:
    """How `block` is checked, from its language and markers."""
    if block.language in PYTHON:
        return Check.PARSE_PYTHON if block.directives.skip else Check.RUN_PYTHON
    if block.language in SHELL:
        return Check.QUICKSTART if block.directives.quickstart else Check.SHELL
    if block.language in JSON:
        return Check.JSON
    if block.language in TEXT:
        if block.directives.output_of:
            return Check.OUTPUT
        return Check.LISTING if block.directives.lists else Check.TEXT
    return Check.UNKNOWN


def blocks_checked_by(*checks: Check) -> list[CodeBlock]:
    """The blocks checked in one of the ways `checks`, or [] when a marker is bad."""
    try:
        blocks = doc_blocks()
    except ValueError:  # reported by test_markers_are_well_formed
        return []
    return [block for block in blocks if check_of(block) in checks]


def needs_newer_python(block: CodeBlock) -> str | None:
    """Why `block` cannot run on this interpreter (its `doctest: python` marker names a
    newer one), or None when it can."""
    needed = block.directives.python
    if needed is None or sys.version_info >= needed:
        return None
    return (
        f"{block.where}: needs Python {needed[0]}.{needed[1]} or newer "
        "(its libraries install on no older one)"
    )
