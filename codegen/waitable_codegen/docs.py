"""Model documentation as readable docstring text.

Smithy documentation is CommonMark, and AWS models carry HTML inside it. CommonMark
is kept as written (it reads well as plain text); HTML is turned into paragraphs,
`- ` list items and backticked code. Either way the result is normalised the way
`inspect.cleandoc` would, with no trailing spaces, so that a docstring holding it
survives black and reads back identically.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from html.parser import HTMLParser

WRAP_WIDTH = 79

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(\s[^<>]*)?/?>")
_BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "para",
        "pre",
        "dl",
        "dt",
        "dd",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "fullname",
        "note",
        "important",
        "table",
        "tr",
        "blockquote",
        "section",
    }
)
_CALLOUTS = {"note": "Note:", "important": "Important:"}


def normalize(text: str) -> str:
    """`text` with line endings unified, tabs expanded, common indentation and
    trailing spaces removed, and leading/trailing blank lines dropped. Lone
    surrogates (which JSON allows) become U+FFFD: CPython cannot create a class
    whose docstring holds one."""
    result = _LONE_SURROGATE.sub("\ufffd", text)
    result = result.replace("\r\n", "\n").replace("\r", "\n")
    while True:  # a blank first line can hide indentation from one cleandoc pass
        lines = inspect.cleandoc(result).split("\n")
        cleaned = "\n".join(line.rstrip() for line in lines).strip("\n")
        if cleaned == result:
            return result
        result = cleaned


def looks_like_html(text: str) -> bool:
    """True when the text holds HTML tags (AWS models' documentation does)."""
    return _TAG.search(text) is not None


def to_docstring_text(documentation: str) -> str:
    """Readable plain text for a docstring from Smithy `documentation`."""
    if looks_like_html(documentation):
        return normalize(_HtmlToText.convert(documentation))
    return normalize(documentation)


class _HtmlToText(HTMLParser):
    """Collects paragraphs and list items from HTML, wrapping each paragraph."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, bool]] = []  # (text, is a list item)
        self.current: list[str] = []
        self.callout = ""
        self.lists: list[list[int]] = []  # one [ordered?, counter] per open list
        self.item_prefix = ""
        self.preformatted = 0
        self.href: list[str | None] = []

    @classmethod
    def convert(cls, source: str) -> str:
        parser = cls()
        parser.feed(source)
        parser.close()
        parser._flush()
        out: list[str] = []
        previous_item = False
        for text, item in parser.blocks:
            if out:
                out.append("\n" if item and previous_item else "\n\n")
            out.append(text)
            previous_item = item
        return "".join(out)

    def _flush(self) -> None:
        text = "".join(self.current)
        self.current = []
        if self.preformatted:
            if text.strip("\n"):
                self.blocks.append((text.strip("\n"), False))
            return
        words = " ".join(f"{self.callout} {text}".split())
        if not words or words == self.callout:
            return
        self.callout = ""
        depth = max(len(self.lists) - 1, 0)
        indent = "  " * depth
        prefix = self.item_prefix
        self.item_prefix = ""
        wrapped = textwrap.fill(
            words,
            width=WRAP_WIDTH,
            initial_indent=indent + prefix,
            subsequent_indent=indent + " " * len(prefix),
            break_long_words=False,
            break_on_hyphens=False,
        )
        self.blocks.append((wrapped, bool(prefix)))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS or tag in ("ul", "ol", "li", "br"):
            self._flush()
        if tag == "pre":
            self.preformatted += 1
        elif tag in ("ul", "ol"):
            self.lists.append([1 if tag == "ol" else 0, 0])
        elif tag == "li":
            if self.lists and self.lists[-1][0]:
                self.lists[-1][1] += 1
                self.item_prefix = f"{self.lists[-1][1]}. "
            else:
                self.item_prefix = "- "
        elif tag in _CALLOUTS:
            self.callout = _CALLOUTS[tag]
        elif tag == "code" and not self.preformatted:
            self.current.append("`")
        elif tag == "a":
            self.href.append(dict(attrs).get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "code" and not self.preformatted:
            self.current.append("`")
        elif tag == "a":
            href = self.href.pop() if self.href else None
            shown = "".join(self.current)
            if href and href.strip() and href.strip() not in shown:
                self.current.append(f" ({href.strip()})")
        if tag in _BLOCK_TAGS or tag in ("ul", "ol", "li"):
            self._flush()
        if tag == "pre" and self.preformatted:
            self.preformatted -= 1
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()

    def handle_data(self, data: str) -> None:
        self.current.append(data)
