"""A buffer of indented Python lines for one generated function.

The compiler writes statements here in order; blocks open with `open` and
close by going back to an earlier `level`. Assignments are kept apart from
other lines so that, when the text is rendered, each local name gets the one
annotation ``mypy --strict`` needs (on its first assignment) and no other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass
class _Line:
    level: int
    text: str
    target: str | None = None
    annotation: str | None = None


class Emitter:
    """Lines of one function body, with the open blocks and a lookup memo.

    The memo remembers which local already holds a value (``item.get("a")``
    computed once is reused by later steps) for as long as the block where it
    was assigned is still open.
    """

    def __init__(self, level: int) -> None:
        self.level = level
        self._lines: list[_Line] = []
        self._blocks: list[int] = [0]
        self._next_block = 1
        self._memo: dict[tuple[str, str], tuple[str, int]] = {}

    # --- writing ---------------------------------------------------------

    def line(self, text: str) -> None:
        """Append one statement at the current level."""
        self._lines.append(_Line(self.level, text))

    def assign(
        self, target: str, expression: str, annotation: str | None = None
    ) -> None:
        """Append ``target = expression`` (annotated when rendered, if needed)."""
        self._lines.append(_Line(self.level, expression, target, annotation))

    def open(self, header: str) -> None:
        """Append ``header:`` and write what follows inside that block."""
        self.line(header + ":")
        self.level += 1
        self._blocks.append(self._next_block)
        self._next_block += 1

    def close_to(self, level: int) -> None:
        """Close every block opened since the emitter was at ``level``."""
        while self.level > level:
            self.level -= 1
            self._blocks.pop()

    def mark(self) -> int:
        """A position to `insert_assign` at later."""
        return len(self._lines)

    def insert_assign(
        self, mark: int, level: int, target: str, expression: str
    ) -> None:
        """Insert ``target = expression`` at an earlier `mark`."""
        self._lines.insert(mark, _Line(level, expression, target))

    def lines_since(self, mark: int) -> int:
        """How many lines were written since `mark`."""
        return len(self._lines) - mark

    # --- the memo --------------------------------------------------------

    def remember(self, key: tuple[str, str], name: str) -> None:
        """Record that local ``name`` holds the value ``key`` names."""
        self._memo[key] = (name, self._blocks[-1])

    def recall(self, key: tuple[str, str]) -> str | None:
        """The local holding ``key``'s value, if its block is still open."""
        found = self._memo.get(key)
        if found is None or found[1] not in self._blocks:
            return None
        return found[0]

    # --- rendering -------------------------------------------------------

    def render(self) -> list[str]:
        """The lines as text, four spaces per level.

        A name assigned more than once is annotated ``Any`` where it is first
        assigned; a lone empty list or dict gets its element types.
        """
        counts = Counter(line.target for line in self._lines if line.target)
        declared: set[str] = set()
        out = []
        for line in self._lines:
            indent = "    " * line.level
            if line.target is None:
                out.append(indent + line.text)
                continue
            annotation = line.annotation
            if line.target in declared:
                annotation = None
            elif counts[line.target] > 1:
                annotation = "Any"
            elif annotation is None and line.text == "[]":
                annotation = "list[Any]"
            elif annotation is None and line.text == "{}":
                annotation = "dict[str, Any]"
            declared.add(line.target)
            if annotation:
                out.append(f"{indent}{line.target}: {annotation} = {line.text}")
            else:
                out.append(f"{indent}{line.target} = {line.text}")
        return out
