"""Check a `smithy.waiters#waitable` trait value against the trait's shapes (TraitValue)
and read it into typed records.

The value is the raw JSON of the model, so anything can be there. Each problem is an
ERROR event naming the path into the trait, in Smithy's form
(`` Error validating trait `smithy.waiters#waitable`.Name.acceptors.0.matcher: ... ``),
which names the waiter and the acceptor index. Unknown structure members are
WARNINGs, as in Smithy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from waitable.trait_keys import (
    ACCEPTOR_MEMBERS,
    MATCHER_MEMBERS,
    PATH_MATCHER_MEMBERS,
    WAITER_MEMBERS,
    WAITER_NAME_PATTERN,
    is_waiter_name,
)

from ..model import WAITABLE_TRAIT, Shape
from .events import Severity, ValidationEvent

TRAIT_VALUE = "TraitValue"

STATES = ("success", "failure", "retry")
COMPARATORS = ("stringEquals", "booleanEquals", "allStringEquals", "anyStringEquals")
MATCHER_KINDS = MATCHER_MEMBERS
DEFAULT_MIN_DELAY = 2
DEFAULT_MAX_DELAY = 120
_INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class PathMatcher:
    """An `output` or `inputOutput` matcher: a JMESPath, a comparator, an expected value."""

    path: str
    expected: str
    comparator: str


@dataclass(frozen=True)
class Matcher:
    """One matcher: its kind (`output`, `inputOutput`, `errorType`, `success`) and value."""

    kind: str
    value: PathMatcher | str | bool


@dataclass(frozen=True)
class Acceptor:
    """One acceptor of a waiter: the state it leads to, its matcher, its message."""

    state: str
    matcher: Matcher
    message: str | None = None


@dataclass(frozen=True)
class Waiter:
    """A well-formed waiter read from the trait."""

    name: str
    acceptors: tuple[Acceptor, ...]
    min_delay: int = DEFAULT_MIN_DELAY
    max_delay: int = DEFAULT_MAX_DELAY


def read_waiters(shape: Shape) -> tuple[list[Waiter], list[ValidationEvent]]:
    """The well-formed waiters of a shape's trait, and a TraitValue event per problem."""
    reader = _Reader(shape.id)
    waiters = reader.waitable(shape.traits[WAITABLE_TRAIT])
    return waiters, reader.events


def _node_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


class _Reader:
    """Walks one trait value, collecting events; each step returns None when broken."""

    def __init__(self, shape_id: str) -> None:
        self.shape_id = shape_id
        self.events: list[ValidationEvent] = []

    def report(
        self, path: tuple[str, ...], message: str, severity: Severity = Severity.ERROR
    ) -> None:
        where = "".join(f".{part}" for part in path)
        self.events.append(
            ValidationEvent(
                severity,
                self.shape_id,
                TRAIT_VALUE,
                f"Error validating trait `{WAITABLE_TRAIT}`{where}: {message}",
            )
        )

    def expect(
        self, path: tuple[str, ...], value: Any, node: str, shape: str, target: str
    ) -> bool:
        """True when `value` has JSON type `node`; else report it."""
        if _node_type(value) == node:
            return True
        found = _node_type(value)
        shown = f", `{value}`" if found in ("string", "number", "boolean") else ""
        self.report(
            path,
            f"Expected {node} value for {shape} shape, `{target}`; "
            f"found {found} value{shown}",
        )
        return False

    def structure(
        self,
        path: tuple[str, ...],
        value: Any,
        target: str,
        members: tuple[str, ...],
        required: tuple[str, ...],
    ) -> bool:
        """True when `value` is an object; reports unknown and missing members."""
        if not self.expect(path, value, "object", "structure", target):
            return False
        for key in value:
            if key not in members:
                self.report(
                    path,
                    f"Invalid structure member `{key}` found for `{target}`",
                    Severity.WARNING,
                )
        for key in required:
            if key not in value:
                self.report(
                    path, f"Missing required structure member `{key}` for `{target}`"
                )
        return True

    def waitable(self, value: Any) -> list[Waiter]:
        if not self.expect((), value, "object", "map", WAITABLE_TRAIT):
            return []
        if not value:
            self.report(
                (),
                f"Value provided for `{WAITABLE_TRAIT}` must have at least 1 entries, "
                "but the provided value only has 0 entries; define at least one waiter",
            )
        waiters = []
        for name, body in value.items():
            valid_name = is_waiter_name(name)
            if not valid_name:
                self.report(
                    (f"{name} (map-key)",),
                    "String value provided for `smithy.waiters#WaiterName` must match "
                    f"regular expression: {WAITER_NAME_PATTERN}",
                )
            waiter = self.waiter(name, body)
            if waiter is not None and valid_name:
                waiters.append(waiter)
        return waiters

    def waiter(self, name: str, value: Any) -> Waiter | None:
        path = (name,)
        target = "smithy.waiters#Waiter"
        if not self.structure(path, value, target, WAITER_MEMBERS, ("acceptors",)):
            return None
        before = len(self.events)
        if "documentation" in value:
            self.expect(
                (name, "documentation"),
                value["documentation"],
                "string",
                "string",
                "smithy.api#String",
            )
        if "deprecated" in value:
            self.expect(
                (name, "deprecated"),
                value["deprecated"],
                "boolean",
                "boolean",
                "smithy.api#Boolean",
            )
        if "tags" in value:
            self.tags((name, "tags"), value["tags"])
        min_delay = self.delay((name, "minDelay"), value.get("minDelay"))
        max_delay = self.delay((name, "maxDelay"), value.get("maxDelay"))
        acceptors = None
        if "acceptors" in value:
            acceptors = self.acceptors((name, "acceptors"), value["acceptors"])
        if self._errors_since(before) or acceptors is None:
            return None
        return Waiter(
            name,
            acceptors,
            DEFAULT_MIN_DELAY if min_delay is None else min_delay,
            DEFAULT_MAX_DELAY if max_delay is None else max_delay,
        )

    def _errors_since(self, start: int) -> bool:
        return any(e.severity is Severity.ERROR for e in self.events[start:])

    def tags(self, path: tuple[str, ...], value: Any) -> None:
        target = "smithy.waiters#NonEmptyStringList"
        if not self.expect(path, value, "array", "list", target):
            return
        for index, tag in enumerate(value):
            tag_path = (*path, str(index))
            target = "smithy.waiters#NonEmptyString"
            if self.expect(tag_path, tag, "string", "string", target) and not tag:
                self.report(
                    tag_path,
                    f"String value provided for `{target}` must be at least 1 "
                    "characters long, but was 0",
                )

    def delay(self, path: tuple[str, ...], value: Any) -> int | None:
        """A `minDelay` / `maxDelay` value; None when absent or broken."""
        target = "smithy.waiters#WaiterDelay"
        if value is None or not self.expect(path, value, "number", "integer", target):
            return None
        if not isinstance(value, int):
            self.report(
                path,
                f"Expected an integer value for integer shape, `{target}`; "
                f"found `{value}`",
            )
            return None
        if value < 1:
            self.report(
                path,
                f"Value provided for `{target}` must be greater than or equal to 1, "
                f"but found {value}",
            )
            return None
        if value > _INT_MAX:
            self.report(
                path,
                f"Value provided for `{target}` must be at most {_INT_MAX} "
                "(a 32-bit integer), "
                f"but found {value}",
            )
            return None
        return value

    def acceptors(
        self, path: tuple[str, ...], value: Any
    ) -> tuple[Acceptor, ...] | None:
        if not self.expect(path, value, "array", "list", "smithy.waiters#Acceptors"):
            return None
        if not value:
            self.report(
                path,
                "Value provided for `smithy.waiters#Acceptors` must have at least 1 "
                "elements, but the provided value only has 0 elements",
            )
            return None
        read = [self.acceptor((*path, str(i)), item) for i, item in enumerate(value)]
        accepted = [acceptor for acceptor in read if acceptor is not None]
        return tuple(accepted) if len(accepted) == len(read) else None

    def acceptor(self, path: tuple[str, ...], value: Any) -> Acceptor | None:
        target = "smithy.waiters#Acceptor"
        if not self.structure(
            path, value, target, ACCEPTOR_MEMBERS, ("state", "matcher")
        ):
            return None
        state = matcher = None
        if "state" in value:
            state = self.enum(
                (*path, "state"), value["state"], "smithy.waiters#AcceptorState", STATES
            )
        if "matcher" in value:
            matcher = self.matcher((*path, "matcher"), value["matcher"])
        message = value.get("message")
        message_ok = message is None or self.expect(
            (*path, "message"), message, "string", "string", "smithy.api#String"
        )
        if state is None or matcher is None or not message_ok:
            return None
        return Acceptor(state, matcher, message)

    def enum(
        self, path: tuple[str, ...], value: Any, target: str, allowed: tuple[str, ...]
    ) -> str | None:
        if not self.expect(path, value, "string", "enum", target):
            return None
        if value not in allowed:
            choices = ", ".join(f"`{choice}`" for choice in allowed)
            self.report(
                path,
                f"String value provided for `{target}` must be one of the following "
                f"values: {choices}; found `{value}`",
            )
            return None
        return str(value)

    def matcher(self, path: tuple[str, ...], value: Any) -> Matcher | None:
        target = "smithy.waiters#Matcher"
        if not self.expect(path, value, "object", "union", target):
            return None
        kinds = ", ".join(f"`{kind}`" for kind in MATCHER_KINDS)
        if not value:
            self.report(path, f"A matcher must set exactly one of {kinds}; found none")
            return None
        if len(value) > 1:
            found = ", ".join(f"`{key}`" for key in value)
            self.report(
                path,
                "union values can contain a value for only a single member; a matcher "
                f"sets exactly one of {kinds}, found {found}",
            )
            return None
        ((kind, body),) = value.items()
        member_path = (*path, kind)
        if kind in ("output", "inputOutput"):
            path_matcher = self.path_matcher(member_path, body)
            return None if path_matcher is None else Matcher(kind, path_matcher)
        if kind == "errorType":
            ok = self.expect(member_path, body, "string", "string", "smithy.api#String")
            return Matcher(kind, str(body)) if ok else None
        if kind == "success":
            ok = self.expect(
                member_path, body, "boolean", "boolean", "smithy.api#Boolean"
            )
            return Matcher(kind, bool(body)) if ok else None
        # Smithy only warns about an unknown union member; a generator cannot build a
        # matcher it does not know, so here it is an ERROR.
        self.report(
            path,
            f"Invalid union member `{kind}` found for `{target}`; a matcher sets "
            f"exactly one of {kinds}",
        )
        return None

    def path_matcher(self, path: tuple[str, ...], value: Any) -> PathMatcher | None:
        target = "smithy.waiters#PathMatcher"
        required = PATH_MATCHER_MEMBERS
        if not self.structure(path, value, target, required, required):
            return None
        fields = [
            key in value
            and self.expect(
                (*path, key), value[key], "string", "string", "smithy.api#String"
            )
            for key in ("path", "expected")
        ]
        comparator = None
        if "comparator" in value:
            comparator = self.enum(
                (*path, "comparator"),
                value["comparator"],
                "smithy.waiters#PathComparator",
                COMPARATORS,
            )
        if not all(fields) or comparator is None:
            return None
        return PathMatcher(value["path"], value["expected"], comparator)
