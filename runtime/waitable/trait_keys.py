"""Keys of a waiter trait value that the Smithy waiter trait does not define.

The trait's structures (waiters.smithy: Waiter, Acceptor, Matcher, PathMatcher)
and their members, which the generator's trait validation reads too; and, for a
definition written by hand (`custom_waiter_from_trait`), the error naming each
unknown key, where it is and what was likely meant: a typo (`minDealy`) or
another format's field (`maxAttempts`) would otherwise change the wait without a
word.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from .seconds import describe_value

__all__ = [
    "WAITER_NAME_PATTERN",
    "ACCEPTOR_MEMBERS",
    "MATCHER_MEMBERS",
    "PATH_MATCHER_MEMBERS",
    "WAITER_MEMBERS",
    "is_waiter_name",
    "unknown_keys",
]

#: The waiter names Smithy allows (its ABNF: `upper-alpha *(ALPHA / DIGIT)`).
WAITER_NAME_PATTERN = "^[A-Z]+[A-Za-z0-9]*$"
# Unlike `re.match` with the pattern above (and Java's `$`), `fullmatch` refuses a
# trailing newline, as the ABNF does.
_WAITER_NAME = re.compile(r"[A-Z][A-Za-z0-9]*", re.ASCII)


def is_waiter_name(name: str) -> bool:
    """True when `name` is a valid waiter name (UpperCamelCase, letters and digits):
    it names a class, so a NUL, a surrogate or an escape there would break it."""
    return _WAITER_NAME.fullmatch(name) is not None


#: The members of the waiter trait's structures (waiters.smithy): Matcher, Waiter,
#: Acceptor, PathMatcher; also what the generator's trait validation reads.
MATCHER_MEMBERS = ("output", "inputOutput", "success", "errorType")
WAITER_MEMBERS = (
    "documentation",
    "acceptors",
    "minDelay",
    "maxDelay",
    "deprecated",
    "tags",
)
ACCEPTOR_MEMBERS = ("state", "matcher", "message")
PATH_MATCHER_MEMBERS = ("path", "expected", "comparator")
#: Unknown waiter keys that are options of the caller, not of the trait (by their
#: folded spelling): seed 003's Go fields, botocore's `maxAttempts`, the builder's names.
_CALLER_OPTIONS = {
    "maxattempts": "max_attempts",
    "maxwaittime": "max_wait_time",
    "timeout": "max_wait_time",
    "delaybeforefirstattempt": "delay_before_first_attempt",
    "executeafterfirstdelay": "delay_before_first_attempt",
    "backoff": "backoff",
    "retryon": "retry_on",
    "operationmethod": "operation_method",
}
#: Options a value in the document can be passed on to as it is.
_PLAIN_OPTIONS = ("max_attempts", "max_wait_time", "delay_before_first_attempt")
#: Unknown keys another format uses for a member of the trait's: key -> member.
_OTHER_SPELLINGS = {"description": "documentation", "argument": "path"}
#: Each structure's members, as the error lists them.
_MEMBERS = {
    "waiter": WAITER_MEMBERS,
    "acceptor": ACCEPTOR_MEMBERS,
    "matcher": MATCHER_MEMBERS,
    "path matcher": PATH_MATCHER_MEMBERS,
}
_MOST_UNKNOWN_KEYS = 10  # named in one error; the rest are counted


def _fold(key: str) -> str:
    """`key` without case, `_`, `-` or spaces: `min_delay` and `MinDelay` are `mindelay`."""
    return "".join(c for c in key.lower() if c not in "_- ")


def _article(kind: str) -> str:
    return "an" if kind[0] in "aeiou" else "a"


def _key_text(key: object) -> str:
    return key if isinstance(key, str) and len(key) <= 60 else describe_value(key)


def _meant(key: str, members: tuple[str, ...]) -> str | None:
    """The member `key` is obviously a misspelling of, if one is."""
    if key in _OTHER_SPELLINGS and _OTHER_SPELLINGS[key] in members:
        return _OTHER_SPELLINGS[key]
    folded = {_fold(member): member for member in members}
    close = difflib.get_close_matches(_fold(key), list(folded), n=1, cutoff=0.75)
    return folded[close[0]] if close else None


def _unknown_key(key: object, value: Any, kind: str) -> str | None:
    """What to do about `key`, which is not a member of a `kind`: None when the
    only advice is to remove it (the error then lists the members)."""
    if not isinstance(key, str):
        return None
    option = _CALLER_OPTIONS.get(_fold(key)) if kind == "waiter" else None
    if option is not None:
        plain = option in _PLAIN_OPTIONS and isinstance(value, (int, float, str))
        given = describe_value(value) if plain else "..."
        per_wait = (
            f" or per wait with wait({option}={given})"
            if option in ("max_attempts", "max_wait_time")
            else ""
        )
        what = "attempts cap" if option == "max_attempts" else f"`{option}`"
        return (
            f"the waiter trait has no {what}: remove it and pass "
            f"custom_waiter_from_trait(..., {option}={given}){per_wait}"
        )
    if kind == "waiter" and _fold(key) == "delay":  # botocore's fixed delay
        return (
            "the waiter trait has minDelay and maxDelay: for a fixed delay set "
            "both, and pass backoff=waitable.FixedDelay()"
        )
    meant = _meant(key, _MEMBERS[kind])
    if meant is not None:
        return f"did you mean `{meant}`?"
    if kind in ("acceptor", "matcher") and key in PATH_MATCHER_MEMBERS:
        inside = "matcher." if kind == "acceptor" else ""
        return (
            f"a path matcher's member: put it in `{inside}output` "
            f"or `{inside}inputOutput`"
        )
    if kind == "acceptor" and key in MATCHER_MEMBERS:
        return "a matcher's member: put it in `matcher`"
    return None


def _unknown_keys(value: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each key of a waiter's trait value that the trait does not define, with where it
    is and what to do, and the kinds of structure holding one to be removed. Parts
    that are not objects are left to the reader's checks."""
    found: list[str] = []
    kinds: list[str] = []

    def check(place: str, structure: Mapping[str, Any], kind: str) -> None:
        for key in structure:
            if key in _MEMBERS[kind]:
                continue
            advice = _unknown_key(key, structure[key], kind)
            if advice is None:
                advice = f"not {_article(kind)} {kind} member"
                if kind not in kinds:
                    kinds.append(kind)
            found.append(f"{place}unknown key `{_key_text(key)}` ({advice})")

    check("", value, "waiter")
    acceptors = value.get("acceptors")
    for index, acceptor in enumerate(acceptors if isinstance(acceptors, list) else []):
        if not isinstance(acceptor, Mapping):
            continue
        check(f"acceptor {index}: ", acceptor, "acceptor")
        matcher = acceptor.get("matcher")
        if not isinstance(matcher, Mapping):
            continue
        check(f"acceptor {index} matcher: ", matcher, "matcher")
        for kind in ("output", "inputOutput"):
            member = matcher.get(kind)
            if isinstance(member, Mapping):
                check(f"acceptor {index} matcher.{kind}: ", member, "path matcher")
    return found, kinds


def unknown_keys(value: Mapping[str, Any]) -> tuple[str, str] | None:
    """None when every key of a waiter's trait value is one the trait defines;
    else the error's detail (each unknown key, where it is and what to do, at
    most `_MOST_UNKNOWN_KEYS` of them) and its advice."""
    unknown, kinds = _unknown_keys(value)
    if not unknown:
        return None
    more = len(unknown) - _MOST_UNKNOWN_KEYS
    named = unknown[:_MOST_UNKNOWN_KEYS] + (
        [f"and {more} more unknown keys"] if more > 0 else []
    )
    members = "".join(
        f"; {_article(kind)} {kind}'s members are " + ", ".join(_MEMBERS[kind])
        for kind in kinds
    )
    return "; ".join(named), (
        "the Smithy waiter trait defines no other keys, and an unknown "
        f"one would be ignored: fix or remove each{members}"
    )
