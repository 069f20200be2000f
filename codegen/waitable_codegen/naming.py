"""Python names for Smithy names: boto3 method names, snake_case, safe identifiers.

Every name the generator writes into code passes through here, so that no model
text can become anything but a plain, unique, non-keyword identifier.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Collection

# botocore's xform_name, re-derived: a trailing run of two or more capitals and an
# "s" (ARNs, ACLs) becomes its own lower-case word, then words are split before
# each capitalised word and between a lower-case letter or digit and a capital.
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s$")
_CAPITALISED_WORD = re.compile(r"(.)([A-Z][a-z]+)")
_LOWER_THEN_UPPER = re.compile(r"([a-z0-9])([A-Z])")
# Fix-ups botocore applies after splitting, in this order.
_PARTIAL_RENAMES = (
    ("ipv-6", "ipv6"),
    ("ipv_6", "ipv6"),
    ("s_3_resources", "s3_resources"),
    ("s-3-resources", "s3-resources"),
)

# Names a generated module uses for itself, which no model name may take.
RESERVED_NAMES = frozenset(dir(builtins)) | frozenset(
    {"annotations", "Any", "ClassVar", "TypedDict", "NotRequired"}
)


def xform_name(name: str, sep: str = "_") -> str:
    """boto3's method name for an operation: `HeadBucket` → `head_bucket`.

    The same transformation as botocore's `xform_name`, so that a generated waiter
    calls exactly the client method boto3 exposes.
    """
    if sep in name:
        return name
    plural = _PLURAL_ACRONYM.search(name)
    if plural is not None:
        name = f"{name[: plural.start()]}{sep}{plural.group().lower()}"
    spaced = _CAPITALISED_WORD.sub(rf"\1{sep}\2", name)
    result = _LOWER_THEN_UPPER.sub(rf"\1{sep}\2", spaced).lower()
    for old, new in _PARTIAL_RENAMES:
        result = result.replace(old, new)
    return result


def is_identifier(name: str) -> bool:
    """True when `name` can be written as a plain Python name (not a keyword)."""
    return name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


def snake_case(text: str) -> str:
    """A lower-case identifier made of the words of `text` (`BucketExists` → `bucket_exists`)."""
    return _lower_identifier(xform_name(re.sub(r"[\s\-]+", "_", text)))


def module_name(text: str) -> str:
    """A module name from an sdkId, as boto3 spells services (`"Route 53"` → `route_53`)."""
    return _lower_identifier(text.lower())


def _lower_identifier(text: str) -> str:
    words = re.split(r"[^0-9a-z]+", text.lower())
    result = "_".join(word for word in words if word) or "unnamed"
    if result[0].isdigit():
        result = f"_{result}"
    if keyword.iskeyword(result) or keyword.issoftkeyword(result):
        result = f"{result}_"
    return result


def pascal_identifier(text: str) -> str:
    """An identifier for a class name: `text` itself when safe, else its safe words."""
    if is_identifier(text) and text not in RESERVED_NAMES:
        return text
    words = re.split(r"[^0-9A-Za-z]+", text)
    result = "".join(word[:1].upper() + word[1:] for word in words if word)
    if not result or result[0].isdigit():
        result = f"Shape{result}"
    if keyword.iskeyword(result) or result in RESERVED_NAMES:
        result = f"{result}Shape"
    return result


def unique_name(base: str, taken: Collection[str]) -> str:
    """`base`, or `base2`, `base3`, ... : the first not in `taken`."""
    if base not in taken:
        return base
    counter = 2
    while f"{base}{counter}" in taken:
        counter += 1
    return f"{base}{counter}"
