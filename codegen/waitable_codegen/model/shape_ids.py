"""Smithy's shape id grammar, checked where an id, a member name or a target enters.

From the Smithy IDL ABNF: `identifier = (1*"_" (ALPHA / DIGIT)) / ALPHA, then
*(ALPHA / DIGIT / "_")`; `namespace = identifier *("." identifier)`; an absolute
shape id is `namespace "#" identifier`, and a member's id adds `"$" identifier`.
ASCII only. The patterns run in linear time (no nested repetition).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

from ..errors import safe_text
from .errors import Location, ModelError, model_error

_IDENTIFIER = r"(?:[A-Za-z]|_+[A-Za-z0-9])[A-Za-z0-9_]*"
_NAMESPACE = rf"{_IDENTIFIER}(?:\.{_IDENTIFIER})*"
_IDENTIFIER_RE = re.compile(_IDENTIFIER, re.ASCII)
_SHAPE_ID_RE = re.compile(rf"{_NAMESPACE}#{_IDENTIFIER}", re.ASCII)
_MEMBER_ID_RE = re.compile(rf"{_NAMESPACE}#{_IDENTIFIER}(?:\${_IDENTIFIER})?", re.ASCII)

SHAPE_ID_RULE = (
    "a shape id is namespace#Name (letters, digits and _, not starting with a digit; "
    "the namespace may hold dots)"
)
IDENTIFIER_RULE = (
    "a name holds only letters, digits and _, and starts with a letter "
    "(or with _ followed by a letter or digit)"
)


#: Ids and names already found valid: a model names the same few ids
#: (`smithy.api#String`, its trait ids) tens of thousands of times. Exact `str`
#: only; bounded. The loader tests membership first and calls the checks below
#: only for what is not in them (which also adds what is valid).
KNOWN_SHAPE_IDS: set[str] = set()
KNOWN_MEMBER_IDS: set[str] = set()
KNOWN_IDENTIFIERS: set[str] = set()
_REMEMBERED = 200_000
_FEW = 8  # a batch this small is matched one by one: the bytes passes cost more
_ONLY_STR = frozenset({str})


def _matches(text: object, pattern: re.Pattern[str], valid: set[str]) -> bool:
    if type(text) is str:
        if text in valid:
            return True
        if pattern.fullmatch(text) is None:
            return False
        if len(valid) >= _REMEMBERED:
            valid.clear()
        valid.add(text)
        return True
    return isinstance(text, str) and pattern.fullmatch(text) is not None


def is_identifier(text: object) -> bool:
    """True for a Smithy identifier (a member name, a rename, a shape's name part)."""
    return _matches(text, _IDENTIFIER_RE, KNOWN_IDENTIFIERS)


def is_shape_id(text: object) -> bool:
    """True for an absolute shape id without a member part (`ns.sub#Name`)."""
    return _matches(text, _SHAPE_ID_RE, KNOWN_SHAPE_IDS)


def is_member_id(text: object) -> bool:
    """True for an absolute shape id, with or without a member part (`ns#Name$m`)."""
    return _matches(text, _MEMBER_ID_RE, KNOWN_MEMBER_IDS)


def are_shape_ids(texts: Iterable[str]) -> bool:
    """True when every one of `texts` is an absolute shape id without a member
    part (see `_all_match`: the thousands of shape ids a file defines cost one
    call instead of one each)."""
    return _all_match(texts, KNOWN_SHAPE_IDS, _SHAPE_ID_RE, namespaced=True)


def are_identifiers(texts: Iterable[str]) -> bool:
    """True when every one of `texts` is a Smithy identifier (see `_all_match`)."""
    return _all_match(texts, KNOWN_IDENTIFIERS, _IDENTIFIER_RE, namespaced=False)


def _all_match(
    texts: Iterable[str], valid: set[str], one: re.Pattern[str], *, namespaced: bool
) -> bool:
    """True when each of `texts` is in `valid` or is a shape id (`namespaced`) or
    an identifier (`one` matches it): those not known yet are checked together, a
    line each (a few, one match each), and remembered in `valid`."""
    unknown = set(texts) - valid
    if not unknown:
        return True
    if not _ONLY_STR.issuperset(map(type, unknown)):
        return False
    if len(unknown) <= _FEW:
        if not all(one.fullmatch(text) for text in unknown):
            return False
    elif not _lines_valid("\n".join(unknown), len(unknown), namespaced):
        return False
    if len(valid) + len(unknown) > _REMEMBERED:
        valid.clear()
    valid.update(unknown)
    return True


def _byte_classes() -> bytes:
    """A translation table giving each byte its class: `a` a letter, `0` a
    digit, `_` itself, `|` a separator (`.`, `#`, a line break), `!` any other."""
    classes = bytearray(b"!" * 256)
    for letter in string.ascii_letters.encode():
        classes[letter] = ord("a")
    for digit in string.digits.encode():
        classes[digit] = ord("0")
    classes[ord("_")] = ord("_")
    for separator in b".#\n":
        classes[separator] = ord("|")
    return bytes(classes)


_CLASSES = _byte_classes()
_NOT_SEPARATORS = bytes(byte for byte in range(256) if byte not in b".#\n")


def _lines_valid(joined: str, lines: int, namespaced: bool) -> bool:
    """Whether `joined` is `lines` lines, each a shape id (`namespaced`) or an
    identifier, as `_SHAPE_ID_RE` and `_IDENTIFIER_RE` would each match it, in
    bytes operations over the whole text instead of a match per line. (A text
    with a line break inside, joined with others, makes more lines than texts:
    the separators' check below refuses it, counting the line breaks.)

    Each byte becomes its class (letter `a`, digit `0`, `_`, separator `|`, else
    `!`): every segment between separators must be non-empty, hold a letter or
    digit besides its underscores, and not start with a digit. Then the
    separators alone: a line is dots (only where `namespaced`) and one `#` (only
    there), no dot after it."""
    try:
        data = joined.encode("ascii")
    except UnicodeEncodeError:
        return False
    classes = data.translate(_CLASSES)
    if b"!" in classes or classes.startswith(b"0") or b"|0" in classes:
        return False
    cores = classes.translate(None, b"_")  # a segment of underscores only: empty
    if not cores or cores.startswith(b"|") or cores.endswith(b"|"):
        return False
    if b"||" in cores:
        return False
    separators = data.translate(None, _NOT_SEPARATORS)
    if not namespaced:
        return separators == b"\n" * (lines - 1)
    if b"#." in separators:
        return False
    return separators.replace(b".", b"") == b"#\n" * (lines - 1) + b"#"


def check_shape_id(
    value: object, source: str, where: Location, *, member: bool = False
) -> str:
    """`value` when it is an absolute shape id (a member id too, with `member`);
    else a ModelError naming the file, the JSON location and the bad id."""
    if is_member_id(value) if member else is_shape_id(value):
        assert isinstance(value, str)
        return value
    raise model_error(source, where, bad_id_problem(value, "shape id", SHAPE_ID_RULE))


def check_identifier(value: object, source: str, where: Location, what: str) -> str:
    """`value` when it is a Smithy identifier; else a ModelError saying so."""
    if is_identifier(value):
        assert isinstance(value, str)
        return value
    raise model_error(source, where, bad_id_problem(value, what, IDENTIFIER_RULE))


def bad_id_problem(value: object, what: str, rule: str) -> str:
    """The sentence for a value that is not a valid `what`."""
    if not isinstance(value, str):
        return f"expected a {what} string, found {safe_text(value)}; {rule}"
    return (
        f"{what} {safe_text(repr(value))} is not valid Smithy; {rule}: "
        "fix it in the model (or in the source it was generated from)"
    )


__all__ = [
    "IDENTIFIER_RULE",
    "KNOWN_IDENTIFIERS",
    "KNOWN_MEMBER_IDS",
    "KNOWN_SHAPE_IDS",
    "ModelError",
    "SHAPE_ID_RULE",
    "are_identifiers",
    "are_shape_ids",
    "bad_id_problem",
    "check_identifier",
    "check_shape_id",
    "is_identifier",
    "is_member_id",
    "is_shape_id",
]
