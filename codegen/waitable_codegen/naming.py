"""Python names for Smithy names: boto3 method names, snake_case, safe identifiers.

Every name the generator writes into code is an `Identifier`, and `identifier()`
is the only function that makes one: it admits only a plain ASCII, non-keyword
Python name, so no model text can become anything else. Every conversion here runs
in time linear in the length of the name.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Collection

from .errors import GenerationError, safe_text

# botocore's xform_name, re-derived: a trailing run of two or more capitals and an
# "s" (ARNs, ACLs) becomes its own lower-case word (found by `_plural_acronym`, a
# backwards scan: the regex `[A-Z]{2,}s$` that states it backtracks quadratically
# over a long run of capitals), then words are split before each capitalised word
# and between a lower-case letter or digit and a capital.
_CAPITALISED_WORD = re.compile(r"(.)([A-Z][a-z]+)")
_LOWER_THEN_UPPER = re.compile(r"([a-z0-9])([A-Z])")
# Fix-ups botocore applies after splitting, in this order.
_PARTIAL_RENAMES = (
    ("ipv-6", "ipv6"),
    ("ipv_6", "ipv6"),
    ("s_3_resources", "s3_resources"),
    ("s-3-resources", "s3-resources"),
)

_BUILTINS = """
ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup
BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception
ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError
FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError
IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError
MemoryError ModuleNotFoundError NameError None NotADirectoryError NotImplemented
NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError
ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError
RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning
SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError
UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
UnicodeWarning UserWarning ValueError Warning ZeroDivisionError __build_class__
__debug__ __doc__ __import__ __loader__ __name__ __package__ __spec__ abs aiter all
anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile
complex copyright credits delattr dict dir divmod enumerate eval exec exit filter
float format frozenset getattr globals hasattr hash help hex id input int isinstance
issubclass iter len license list locals map max memoryview min next object oct open
ord pow print property quit range repr reversed round set setattr slice sorted
staticmethod str sum super tuple type vars zip
""".split()
"""Python 3.11's built-in names (`dir(builtins)` with `site` loaded), written out
so that the names the generator picks change neither with the Python version it
runs on (3.13 adds `PythonFinalizationError`) nor with `python -S` (no `exit`,
`help`, ...): the same model gives the same package everywhere."""

_SOFT_KEYWORDS = frozenset({"_", "case", "match"})
"""Python 3.11's soft keywords, written out for the same reason (3.12 adds
`type`, which stays a valid module name on every version)."""

# Names a generated module uses for itself, which no model name may take.
RESERVED_NAMES = frozenset(_BUILTINS) | frozenset(
    {"annotations", "Any", "ClassVar", "TypedDict", "NotRequired"}
)


_KEY = object()


class Identifier(str):
    """A plain ASCII, non-keyword Python name: made only by `identifier()`."""

    __slots__ = ()

    def __new__(cls, text: str, key: object = None) -> Identifier:
        if key is not _KEY:
            raise TypeError(
                "Identifier is built only by waitable_codegen.naming.identifier()"
            )
        return super().__new__(cls, text)


def identifier(text: str) -> Identifier:
    """`text` as an `Identifier`: the one gate every generated name passes.

    Only text that is already a plain ASCII, non-keyword Python name is admitted
    (the naming functions below make such text from model names); anything else is
    a generator bug, stopped here before it could become code.
    """
    if not is_identifier(text):
        raise GenerationError(
            f"internal error: {safe_text(text)} is not a safe Python name; please "
            "report this with the model"
        )
    return str.__new__(Identifier, text)  # the checked constructor refuses others


def _plural_acronym(name: str) -> tuple[int, int] | None:
    """Where `[A-Z]{2,}s$` would match in `name` (start, end), in one backwards scan."""
    end = len(name) - 1 if name.endswith("\n") else len(name)  # `$` allows one "\n"
    if end < 3 or name[end - 1] != "s":
        return None
    start = end - 1
    while start > 0 and "A" <= name[start - 1] <= "Z":
        start -= 1
    return (start, end) if end - 1 - start >= 2 else None


def xform_name(name: str, sep: str = "_") -> str:
    """boto3's method name for an operation: `HeadBucket` → `head_bucket`.

    The same transformation as botocore's `xform_name`, so that a generated waiter
    calls exactly the client method boto3 exposes.
    """
    if sep in name:
        return name
    plural = _plural_acronym(name)
    if plural is not None:
        start, end = plural
        # botocore cuts the match's length off the end, newline included.
        name = f"{name[: len(name) - (end - start)]}{sep}{name[start:end].lower()}"
    spaced = _CAPITALISED_WORD.sub(rf"\1{sep}\2", name)
    result = _LOWER_THEN_UPPER.sub(rf"\1{sep}\2", spaced).lower()
    for old, new in _PARTIAL_RENAMES:
        result = result.replace(old, new)
    return result


def is_identifier(name: str) -> bool:
    """True when `name` can be written as a plain Python name (not a keyword)."""
    return name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


def snake_case(text: str) -> Identifier:
    """A lower-case identifier made of the words of `text` (`BucketExists` → `bucket_exists`)."""
    return _lower_identifier(xform_name(re.sub(r"[\s\-]+", "_", text)))


def module_name(text: str) -> Identifier:
    """A module name from an sdkId, as boto3 spells services (`"Route 53"` → `route_53`)."""
    return _lower_identifier(text.lower())


def _lower_identifier(text: str) -> Identifier:
    words = re.split(r"[^0-9a-z]+", text.lower())
    result = "_".join(word for word in words if word) or "unnamed"
    if result[0].isdigit():
        result = f"_{result}"
    if keyword.iskeyword(result) or result in _SOFT_KEYWORDS:
        result = f"{result}_"
    return identifier(result)


def pascal_identifier(text: str) -> Identifier:
    """An identifier for a class name: `text` itself when safe, else its safe words."""
    if is_identifier(text) and text not in RESERVED_NAMES:
        return identifier(text)
    words = re.split(r"[^0-9A-Za-z]+", text)
    result = "".join(word[:1].upper() + word[1:] for word in words if word)
    if not result or result[0].isdigit():
        result = f"Shape{result}"
    if keyword.iskeyword(result) or result in RESERVED_NAMES:
        result = f"{result}Shape"
    return identifier(result)


def unique_name(base: Identifier, taken: Collection[str]) -> Identifier:
    """`base`, or `base2`, `base3`, ... : the first not in `taken`."""
    if base not in taken:
        return base
    counter = 2
    while f"{base}{counter}" in taken:
        counter += 1
    return identifier(f"{base}{counter}")
