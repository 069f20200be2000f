"""Fenced code blocks of a Markdown file, each with the doctest markers written before it.

A marker is an HTML comment (invisible on GitHub) on the lines right before a fence;
only blank lines may come between. The markers are:

    <!-- doctest: skip REASON -->      do not run the block (it is still parsed and
                                       its imports are checked against the real modules)
    <!-- doctest: setup
    python code                        hidden code run before the block, in the same
    -->                                namespace (top-level await allowed)
    <!-- doctest: teardown
    python code                        hidden code run after the block (closing clients)
    -->
    <!-- doctest: exit N -->           the block's generate-waiters commands exit N
    <!-- doctest: lists PACKAGE -->    a text block listing the files of a generated package
    <!-- doctest: output-of COMMAND --> a text block whose every line COMMAND prints (run
                                       in the sandbox, exiting 0 or the `exit` marker's N)
    <!-- doctest: python 3.12 -->      a Python block that needs this Python or newer (its
                                       libraries install on no older one): on an older
                                       interpreter it is reported as skipped, saying so
    <!-- quickstart -->                the quick-start commands: syntax-checked here, run by CI
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
MARKER_PREFIX = "doctest:"
DIRECTIVES = ("skip", "setup", "teardown", "exit", "lists", "output-of", "python")
MARKER_BODY = re.compile(
    r"(?P<name>\S*)[ \t]*(?P<newline>\n?)(?P<argument>.*)", re.DOTALL
)


class MarkerError(ValueError):
    """A doctest marker that is malformed or not right before a code fence."""


@dataclass(frozen=True)
class Setup:
    """Hidden code of a `setup` or `teardown` marker and the Markdown line it starts on."""

    code: str
    line: int


@dataclass(frozen=True)
class Directives:
    """What the markers before one block ask for."""

    skip: str | None = None
    setups: tuple[Setup, ...] = ()
    teardowns: tuple[Setup, ...] = ()
    exit_status: int = 0
    lists: str | None = None
    output_of: str | None = None
    quickstart: bool = False
    python: tuple[int, int] | None = None


@dataclass(frozen=True)
class CodeBlock:
    """One fenced code block: where it is, its language, its text, its markers."""

    path: str
    line: int
    language: str
    code: str
    directives: Directives = field(default_factory=Directives)

    @property
    def where(self) -> str:
        """`README.md:123`, the file and the line of the opening fence."""
        return f"{self.path}:{self.line}"

    @property
    def first_code_line(self) -> int:
        """The Markdown line number of the block's first line of code."""
        return self.line + 1


def read_blocks(path: Path, display_path: str) -> list[CodeBlock]:
    """Every fenced code block of the Markdown file `path`, with its markers."""
    return parse_blocks(path.read_text(encoding="utf-8"), display_path)


def parse_blocks(text: str, display_path: str) -> list[CodeBlock]:
    """Every fenced code block of Markdown `text`; `display_path` names it in errors."""
    lines = text.splitlines()
    blocks: list[CodeBlock] = []
    pending: list[tuple[int, str]] = []  # (line number, comment body) of markers
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        opening = FENCE.match(line)
        if stripped.startswith("<!--"):
            start = index
            while "-->" not in lines[index]:
                index += 1
                if index == len(lines):
                    raise MarkerError(
                        f"{display_path}:{start + 1}: HTML comment never closed with -->"
                    )
            body = "\n".join(lines[start : index + 1]).strip()
            body = body.removeprefix("<!--").removesuffix("-->")
            if _is_marker(body):
                pending.append((start + 1, body))
        elif opening:
            fence = opening.group("fence")
            start = index
            index += 1
            while index < len(lines) and not _closes(lines[index], fence):
                index += 1
            code = "".join(f"{text}\n" for text in lines[start + 1 : index])
            language = (opening.group("info").split() or [""])[0].lower()
            directives = _directives(pending, display_path)
            blocks.append(
                CodeBlock(display_path, start + 1, language, code, directives)
            )
            pending = []
        elif stripped and pending:
            where = f"{display_path}:{pending[0][0]}"
            raise MarkerError(
                f"{where}: doctest marker is not right before a code fence "
                f"(line {index + 1} is prose); move it to the line above the fence"
            )
        index += 1
    if pending:
        raise MarkerError(
            f"{display_path}:{pending[0][0]}: doctest marker at the end of the file, "
            "with no code fence after it"
        )
    return blocks


def _is_marker(body: str) -> bool:
    """Whether an HTML comment's body is one of ours (doctest or quickstart)."""
    text = body.strip()
    return text.startswith(MARKER_PREFIX) or text == "quickstart"


def _closes(line: str, fence: str) -> bool:
    """Whether `line` closes a block opened by `fence` (same character, as long or longer)."""
    stripped = line.strip()
    return (
        len(line) - len(line.lstrip(" ")) <= 3
        and stripped.startswith(fence)
        and set(stripped) == {fence[0]}
    )


def _directives(markers: list[tuple[int, str]], display_path: str) -> Directives:
    """Fold the markers before one block into its `Directives`."""
    skip: str | None = None
    hidden: dict[str, list[Setup]] = {"setup": [], "teardown": []}
    exit_status = 0
    lists: str | None = None
    output_of: str | None = None
    quickstart = False
    python: tuple[int, int] | None = None
    for line, body in markers:
        text = body.strip()
        if text == "quickstart":
            quickstart = True
            continue
        where = f"{display_path}:{line}"
        parts = MARKER_BODY.match(text.removeprefix(MARKER_PREFIX).lstrip(" \t"))
        assert parts is not None  # the pattern matches any text
        name, argument = parts.group("name"), parts.group("argument")
        code_line = line + 1 if parts.group("newline") else line
        if name == "skip":
            if not argument.strip():
                raise MarkerError(f"{where}: `doctest: skip` needs a reason after it")
            skip = argument.strip()
        elif name in hidden:
            if not argument.strip():
                raise MarkerError(f"{where}: `doctest: {name}` holds no code")
            code = textwrap.dedent(argument).rstrip() + "\n"
            hidden[name].append(Setup(code, code_line))
        elif name == "exit":
            if not argument.strip().isdigit():
                raise MarkerError(
                    f"{where}: `doctest: exit` needs an exit status, e.g. `doctest: exit 1`"
                )
            exit_status = int(argument)
        elif name == "lists":
            if not argument.strip():
                raise MarkerError(
                    f"{where}: `doctest: lists` needs a generated package name"
                )
            lists = argument.strip()
        elif name == "output-of":
            if not argument.strip():
                raise MarkerError(f"{where}: `doctest: output-of` needs a command")
            output_of = argument.strip()
        elif name == "python":
            version = re.fullmatch(r"3\.(\d+)", argument.strip())
            if version is None:
                raise MarkerError(
                    f"{where}: `doctest: python` needs a version, e.g. `doctest: python 3.12`"
                )
            python = (3, int(version.group(1)))
        else:
            raise MarkerError(
                f"{where}: unknown doctest marker {name!r}; "
                f"use one of {', '.join(DIRECTIVES)} (see tests/docs/markdown_blocks.py)"
            )
    return Directives(
        skip,
        tuple(hidden["setup"]),
        tuple(hidden["teardown"]),
        exit_status,
        lists,
        output_of,
        quickstart,
        python,
    )
