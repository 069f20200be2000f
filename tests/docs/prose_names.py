"""Names written in the prose's backticks that the code must have.

A name that looks like a generated class (`...Waiter`, `...Input`, `...Request`,
`...Output`, `...Response`) must exist in the generated package that the same
section's examples import; a command-line option (`--check`, or one inside
`generate-waiters ...`) must be one generate-waiters accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markdown_blocks import FENCE

HEADING = re.compile(r"^#{1,6}\s")
INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
OPTION = re.compile(r"^--?[A-Za-z][\w-]*$")
GENERATED_LOOKING = re.compile(
    r"^[A-Z][A-Za-z0-9]*(Waiter|Input|Request|Output|Response)$"
)


@dataclass(frozen=True)
class ProseName:
    """A generated-looking name in backticks, its line, and its section's line range."""

    name: str
    line: int
    section_start: int
    section_end: int


def inline_spans(text: str) -> tuple[list[tuple[str, int]], list[int]]:
    """Backticked spans outside code blocks as `(span, line)`, and the heading lines."""
    headings = [1]
    found: list[tuple[str, int]] = []
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group("fence")
            continue
        if fence is not None:
            if line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                fence = None
            continue
        if HEADING.match(line):
            headings.append(number)
        found += [(span, number) for span in INLINE_CODE.findall(line)]
    return found, headings


def prose_names(text: str) -> list[ProseName]:
    """Generated-looking names in the prose of Markdown `text` (code blocks excluded)."""
    end_of_text = len(text.splitlines()) + 1
    names = []
    spans, headings = inline_spans(text)
    for span, number in spans:
        if GENERATED_LOOKING.match(span):
            start = max(h for h in headings if h <= number)
            end = min([h for h in headings if h > number] + [end_of_text])
            names.append(ProseName(span, number, start, end))
    return names


def prose_options(text: str) -> list[tuple[str, int]]:
    """Command-line options in the prose: `(option, line)`, from spans like `--check`,
    `-o, --out-dir DIR` or `generate-waiters model.json -o out --check`."""
    options = []
    for span, number in inline_spans(text)[0]:
        words = span.replace(",", " ").split()
        if words and (OPTION.match(words[0]) or words[0] == "generate-waiters"):
            options += [(word, number) for word in words if OPTION.match(word)]
    return options
