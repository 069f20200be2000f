"""The AWS CLI's shorthand syntax for structures: `Name=tag:env,Values=ci,prod`.

Users of `aws ec2 wait instance-running --filters Name=...,Values=...` type this
rather than JSON, so `waitable wait` reads it too. The grammar, as the AWS CLI
documents it:

    parameter     = keyval *("," keyval)
    keyval        = key "=" [values]
    values        = csv-value / explicit-list / hash-literal
    csv-value     = value *("," value)     ; a "," followed by `key=` starts a keyval
    explicit-list = "[" [item *("," item)] "]"
    hash-literal  = "{" keyval *("," keyval) "}"
    value         = 'single quoted' / "double quoted" / unquoted text

Unquoted text ends at an unescaped "," (or the "]" / "}" that closes it) and loses
the spaces around it; `\\,` is a literal comma. In quotes, a backslash escapes the
quote or another backslash. A csv-value of one value is a string, of several a list;
what the string means (a number, a one-element list) is up to the input shape.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ShorthandError", "parse_shorthand"]

_KEY = re.compile(r"[A-Za-z0-9_.#/:@-]+")
_STARTS_KEYVAL = re.compile(r"\s*[A-Za-z0-9_.#/:@-]+\s*=")
MAX_DEPTH = 32  # nested [ and { (a command line is no place for deeper data)


class ShorthandError(ValueError):
    """The text is not shorthand; says what was expected where."""


class _Parser:
    """A recursive-descent reader over one string, depth-bounded."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, expected: str) -> ShorthandError:
        shown = self.text[self.at : self.at + 12] or "the end"
        return ShorthandError(
            f"expected {expected} at character {self.at + 1} (found {shown!r})"
        )

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t"):
            self.at += 1

    def keyvals(self, closer: str, depth: int) -> dict[str, Any]:
        """`keyval *("," keyval)`, up to `closer` ("" for the end of the text)."""
        result: dict[str, Any] = {}
        while True:
            self.skip_spaces()
            match = _KEY.match(self.text, self.at)
            if match is None:
                raise self.fail("a key (letters, digits, _ . # / : @ -)")
            key = match.group()
            self.at = match.end()
            self.skip_spaces()
            if self.peek() != "=":
                raise self.fail(f"'=' after the key {key!r}")
            self.at += 1
            if key in result:
                raise ShorthandError(f"the key {key!r} is given twice")
            result[key] = self.values(closer, depth)
            self.skip_spaces()
            if self.peek() != ",":
                return result
            self.at += 1

    def values(self, closer: str, depth: int) -> Any:
        """What follows `key=`: a list, a nested structure, or csv values."""
        self.skip_spaces()
        if self.peek() == "[":
            return self.explicit_list(depth + 1)
        if self.peek() == "{":
            return self.hash_literal(depth + 1)
        first = self.value(closer)
        found = [first]
        while self.peek() == "," and not _STARTS_KEYVAL.match(self.text, self.at + 1):
            self.at += 1
            found.append(self.value(closer))
        return first if len(found) == 1 else found

    def explicit_list(self, depth: int) -> list[Any]:
        self.check_depth(depth)
        self.at += 1  # "["
        items: list[Any] = []
        self.skip_spaces()
        if self.peek() == "]":
            self.at += 1
            return items
        while True:
            self.skip_spaces()
            if self.peek() == "{":
                items.append(self.hash_literal(depth + 1))
            elif self.peek() == "[":
                items.append(self.explicit_list(depth + 1))
            else:
                items.append(self.value("]"))
            self.skip_spaces()
            if self.peek() == "]":
                self.at += 1
                return items
            if self.peek() != ",":
                raise self.fail("',' or ']'")
            self.at += 1

    def hash_literal(self, depth: int) -> dict[str, Any]:
        self.check_depth(depth)
        self.at += 1  # "{"
        result = self.keyvals("}", depth)
        self.skip_spaces()
        if self.peek() != "}":
            raise self.fail("',' or '}'")
        self.at += 1
        return result

    def check_depth(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ShorthandError(f"nested deeper than {MAX_DEPTH} levels")

    def value(self, closer: str) -> str:
        """One value: quoted, or unquoted up to "," or `closer`."""
        self.skip_spaces()
        quote = self.peek()
        if quote in ("'", '"'):
            return self.quoted(quote)
        chars: list[str] = []
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\" and self.text.startswith(",", self.at + 1):
                chars.append(",")
                self.at += 2
                continue
            if char == "," or (closer and char == closer):
                break
            chars.append(char)
            self.at += 1
        return "".join(chars).strip(" \t")

    def quoted(self, quote: str) -> str:
        start = self.at
        self.at += 1
        chars: list[str] = []
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\" and self.text[self.at + 1 : self.at + 2] in (quote, "\\"):
                chars.append(self.text[self.at + 1])
                self.at += 2
                continue
            if char == quote:
                self.at += 1
                self.skip_spaces()
                return "".join(chars)
            chars.append(char)
            self.at += 1
        self.at = start
        raise self.fail(f"a closing {quote} for the value that starts here")


def parse_shorthand(text: str) -> dict[str, Any]:
    """The structure `text` spells in shorthand: values are strings, lists and dicts."""
    parser = _Parser(text)
    result = parser.keyvals("", 0)
    parser.skip_spaces()
    if parser.at != len(text):
        raise parser.fail("',' and another key=value")
    return result
