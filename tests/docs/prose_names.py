"""Generated type names written in the prose (`HeadBucketRequest` in backticks), by section.

A name in backticks that looks like a generated class (`...Waiter`, `...Input`,
`...Request`, `...Output`, `...Response`) must exist in the generated package that
the same section's examples import, so the prose cannot drift from the code either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markdown_blocks import FENCE

HEADING = re.compile(r"^#{1,6}\s")
INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
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


def prose_names(text: str) -> list[ProseName]:
    """Generated-looking names in the prose of Markdown `text` (code blocks excluded)."""
    lines = text.splitlines()
    headings = [1]
    found: list[tuple[str, int]] = []
    fence: str | None = None
    for number, line in enumerate(lines, start=1):
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
        found += [
            (span, number)
            for span in INLINE_CODE.findall(line)
            if GENERATED_LOOKING.match(span)
        ]
    names = []
    for name, number in found:
        start = max(h for h in headings if h <= number)
        end = min([h for h in headings if h > number] + [len(lines) + 1])
        names.append(ProseName(name, number, start, end))
    return names
