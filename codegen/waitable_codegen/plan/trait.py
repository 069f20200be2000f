"""Read a `smithy.waiters#waitable` trait value into checked records.

Validation reports what Smithy reports; this reader is the generator's own guard:
whatever reaches the plan has the shape `waiters.smithy` defines, or generation
stops with a message naming the file, the operation, the waiter and the acceptor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from waitable.trait_keys import MATCHER_MEMBERS, is_waiter_name

from ..errors import GenerationError
from ..model import WAITABLE_TRAIT, Shape

STATES = ("success", "failure", "retry")
COMPARATORS = {
    "stringEquals": "STRING_EQUALS",
    "booleanEquals": "BOOLEAN_EQUALS",
    "allStringEquals": "ALL_STRING_EQUALS",
    "anyStringEquals": "ANY_STRING_EQUALS",
}
MATCHER_KINDS = MATCHER_MEMBERS
BOTOCORE_KIND = "botocore"  # only in documents `waitable_codegen.botocore_model` makes
BOTOCORE_MATCHERS = ("path", "pathAll", "pathAny", "error", "status")


@dataclass(frozen=True)
class PathMatcherSpec:
    """An `output` or `inputOutput` matcher's path, expected value and comparator."""

    path: str
    expected: str
    comparator: str


@dataclass(frozen=True)
class AcceptorSpec:
    """One acceptor as the trait states it."""

    state: str
    kind: str
    path_matcher: PathMatcherSpec | None
    success: bool | None
    error_type: str | None
    message: str | None
    botocore: dict[str, Any] | None = None  # botocore's acceptor, as botocore states it


@dataclass(frozen=True)
class WaiterSpec:
    """One waiter as the trait states it, defaults filled in."""

    name: str
    operation: Shape
    documentation: str | None
    acceptors: tuple[AcceptorSpec, ...]
    min_delay: int
    max_delay: int
    deprecated: bool
    tags: tuple[str, ...]
    max_attempts: int | None = None  # botocore's maxAttempts (botocore input only)


class _Where:
    """Builds the "file: operation X, waiter Y, acceptor i" prefix of messages."""

    def __init__(self, shape: Shape, waiter: str | None = None) -> None:
        self.shape = shape
        self.waiter = waiter

    def error(self, detail: str, acceptor: int | None = None) -> GenerationError:
        where = f"{self.shape.source}: {self.shape.id}"
        if self.waiter is not None:
            where += f", waiter {self.waiter}"
        if acceptor is not None:
            where += f", acceptor {acceptor}"
        return GenerationError(
            f"{where}: {detail}; fix the {WAITABLE_TRAIT} trait in the model"
        )


def read_waiters(shape: Shape) -> list[WaiterSpec]:
    """The waiters a `@waitable` shape declares, in the order the trait lists them."""
    where = _Where(shape)
    if shape.type != "operation":
        raise GenerationError(
            f"{shape.source}: {shape.id} is a {shape.type}, but {WAITABLE_TRAIT} "
            "applies only to operations; move the trait to the operation it polls"
        )
    value = shape.traits[WAITABLE_TRAIT]
    if not isinstance(value, dict):
        raise where.error("the trait value must be an object of waiter name to waiter")
    return [_read_waiter(shape, name, body) for name, body in value.items()]


def _read_waiter(shape: Shape, name: str, body: Any) -> WaiterSpec:
    valid = is_waiter_name(name)
    where = _Where(shape, name if valid else repr(name))
    if not valid:
        raise where.error(
            "a waiter name must be UpperCamelCase letters and digits "
            "(^[A-Z]+[A-Za-z0-9]*$)"
        )
    if not isinstance(body, dict):
        raise where.error("a waiter must be an object")
    documentation = _optional(body, "documentation", str, where)
    acceptors = body.get("acceptors")
    if not isinstance(acceptors, list) or not acceptors:
        raise where.error('"acceptors" must be a non-empty list')
    min_delay = _optional(body, "minDelay", int, where)
    max_delay = _optional(body, "maxDelay", int, where)
    for key, delay in (("minDelay", min_delay), ("maxDelay", max_delay)):
        if delay is not None and delay < 1:
            raise where.error(f'"{key}" must be at least 1, not {delay}')
    deprecated = _optional(body, "deprecated", bool, where)
    max_attempts = _optional(body, "botocoreMaxAttempts", int, where)
    if max_attempts is not None and max_attempts < 1:
        raise where.error(
            f'"botocoreMaxAttempts" must be at least 1, not {max_attempts}'
        )
    tags = body.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise where.error('"tags" must be a list of strings')
    return WaiterSpec(
        name=name,
        operation=shape,
        documentation=documentation,
        acceptors=tuple(_read_acceptor(a, i, where) for i, a in enumerate(acceptors)),
        min_delay=2 if min_delay is None else min_delay,
        max_delay=120 if max_delay is None else max_delay,
        deprecated=bool(deprecated),
        tags=tuple(tags),
        max_attempts=max_attempts,
    )


def _optional(body: dict[str, Any], key: str, kind: type, where: _Where) -> Any:
    value = body.get(key)
    if value is None:
        return None
    is_bool = isinstance(value, bool)
    if not isinstance(value, kind) or (kind is int and is_bool):
        raise where.error(f'"{key}" must be a {kind.__name__}, not {value!r}')
    return value


def _read_acceptor(body: Any, index: int, where: _Where) -> AcceptorSpec:
    if not isinstance(body, dict):
        raise where.error("an acceptor must be an object", index)
    state = body.get("state")
    if state not in STATES:
        raise where.error(
            f'"state" must be one of {", ".join(STATES)}, not {state!r}', index
        )
    message = body.get("message")
    if message is not None and not isinstance(message, str):
        raise where.error('"message" must be a JMESPath expression string', index)
    matcher = body.get("matcher")
    if not isinstance(matcher, dict) or len(matcher) != 1:
        raise where.error(
            '"matcher" must be an object with exactly one of '
            + ", ".join(MATCHER_KINDS),
            index,
        )
    ((kind, value),) = matcher.items()
    path_matcher = success = error_type = None
    if kind == BOTOCORE_KIND:
        botocore = _read_botocore(value, index, where)
        return AcceptorSpec(str(state), kind, None, None, None, message, botocore)
    if kind in ("output", "inputOutput"):
        path_matcher = _read_path_matcher(value, kind, index, where)
    elif kind == "success":
        if not isinstance(value, bool):
            raise where.error('the "success" matcher must be true or false', index)
        success = value
    elif kind == "errorType":
        if not isinstance(value, str) or not value:
            raise where.error('the "errorType" matcher must be an error name', index)
        error_type = value
    else:
        raise where.error(
            f"unknown matcher {kind!r}; expected one of {', '.join(MATCHER_KINDS)}",
            index,
        )
    return AcceptorSpec(str(state), kind, path_matcher, success, error_type, message)


def _read_path_matcher(
    value: Any, kind: str, index: int, where: _Where
) -> PathMatcherSpec:
    if not isinstance(value, dict):
        raise where.error(f'the "{kind}" matcher must be an object', index)
    for key in ("path", "expected", "comparator"):
        if not isinstance(value.get(key), str):
            raise where.error(f'the "{kind}" matcher needs a string "{key}"', index)
    if value["comparator"] not in COMPARATORS:
        raise where.error(
            f"unknown comparator {value['comparator']!r}; expected one of "
            + ", ".join(COMPARATORS),
            index,
        )
    return PathMatcherSpec(value["path"], value["expected"], value["comparator"])


def _read_botocore(value: Any, index: int, where: _Where) -> dict[str, Any]:
    """A botocore acceptor (`matcher`, `argument`, `expected`), checked as botocore needs."""
    if not isinstance(value, dict) or value.get("matcher") not in BOTOCORE_MATCHERS:
        raise where.error(
            f"a botocore matcher must be one of {', '.join(BOTOCORE_MATCHERS)}", index
        )
    kind, expected = value["matcher"], value.get("expected")
    if kind.startswith("path") and not isinstance(value.get("argument"), str):
        raise where.error(f'the botocore "{kind}" matcher needs an "argument"', index)
    if kind == "status" and (
        isinstance(expected, bool) or not isinstance(expected, int)
    ):
        raise where.error('the botocore "status" matcher expects an integer', index)
    if kind == "error" and not isinstance(expected, (str, bool)):
        raise where.error(
            'the botocore "error" matcher expects a string or a boolean', index
        )
    if kind.startswith("path") and "expected" not in value:
        raise where.error(f'the botocore "{kind}" matcher needs an "expected"', index)
    return dict(value)
