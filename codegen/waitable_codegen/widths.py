"""How wide black takes a line to be, bounded without black's width table.

Black counts a wide character (CJK, full-width forms, most emoji) as two columns
and a combining one as none. The layout is decided without black, so it works with
bounds: an ASCII character is one column, any other between none and two. A split
is made only where even the narrowest reading is too wide (black splits there too);
a line whose bounds straddle LINE_LENGTH is left whole, and `render` sends its file
to black, as for any line it cannot vouch for.
"""

from __future__ import annotations

LINE_LENGTH = 88


def _non_ascii(text: str) -> int:
    return sum(1 for char in text if char > "\x7f")


def least_width(text: str) -> int:
    """The fewest columns black may count for `text` (every non-ASCII character
    zero-width): above the limit, black splits the line for certain."""
    return len(text) if text.isascii() else len(text) - _non_ascii(text)


def most_width(text: str) -> int:
    """The most columns black may count for `text` (every non-ASCII character
    two wide): within the limit, black keeps the line for certain."""
    return len(text) if text.isascii() else len(text) + _non_ascii(text)


def may_fit(text: str, room: int = LINE_LENGTH) -> bool:
    """False only when `text` is wider than `room` columns however black counts."""
    if text.isascii():  # the usual case, without a second call (thousands a model)
        return len(text) <= room
    return len(text) - _non_ascii(text) <= room
