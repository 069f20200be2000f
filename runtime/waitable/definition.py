"""Immutable waiter definitions: the `smithy.waiters#waitable` trait as Python data.

A generated waiter class holds one `WaiterDefinition`; the engine only reads it.
Paths are compiled once, when a matcher is built: by the generator (the `search`
function it emits) or, when `search` is absent, with the `jmespath` package.
Everything else a poll needs and a definition fixes is worked out here too, once:
each matcher's comparator function, the definition's `OutputConverter`, and each
path matcher's own (used when the definition's cannot convert an output).

`plain_reads` is what the generator knows from the model's output shape: the read
positions that can only hold plain data, which the data-model check then skips
for dict outputs (`waitable.outputs`). Without it everything read is checked.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import jmespath
from jmespath.exceptions import JMESPathError

from .comparators import COMPARATORS, Comparison
from .interpreter_nesting import MAX_INTERPRETED_NESTING, interpreted_nesting
from .jmespath_runtime import JMESPathEvaluationError
from .legacy_literals import legacy_literals_allowed
from .outputs import OutputConverter
from .reads import Position, Reads, output_reads_of
from .seconds import SecondsError, describe_value, parse_seconds
from .trait_keys import MATCHER_MEMBERS, unknown_keys

__all__ = [
    "Acceptor",
    "AcceptorState",
    "BotocoreErrorMatcher",
    "BotocorePathMatcher",
    "BotocorePathMode",
    "Comparator",
    "ErrorTypeMatcher",
    "InputOutputMatcher",
    "Matcher",
    "ModeledError",
    "OutputMatcher",
    "PathMatcher",
    "StatusMatcher",
    "SuccessMatcher",
    "WaiterDefinition",
    "WaiterDefinitionError",
]

Search: TypeAlias = Callable[[Any], Any]


class WaiterDefinitionError(ValueError):
    """A waiter definition (or the trait value it came from) breaks the Smithy waiters spec."""

    #: For an error that closes with advice: the error without it, and the advice's
    #: action ("fix the expression"), so that a reader of a definition written by
    #: hand (`custom_waiter_from_trait`) can say where in it to follow it.
    detail: str | None = None
    action: str | None = None


def _advised(message: str, detail: str, action: str) -> WaiterDefinitionError:
    """A `WaiterDefinitionError` saying `message`, which is `detail` and `action`."""
    error = WaiterDefinitionError(message)
    error.detail, error.action = detail, action
    return error


class AcceptorState(str, enum.Enum):
    """The state an acceptor moves the waiter to when its matcher matches."""

    SUCCESS = "success"
    FAILURE = "failure"
    RETRY = "retry"


class Comparator(str, enum.Enum):
    """How a PathMatcher compares the result of its path with `expected`."""

    STRING_EQUALS = "stringEquals"
    BOOLEAN_EQUALS = "booleanEquals"
    ALL_STRING_EQUALS = "allStringEquals"
    ANY_STRING_EQUALS = "anyStringEquals"


def _compile(path: str, what: str) -> Search:
    """Compile a JMESPath expression once, or say which expression is malformed."""
    try:
        parsed = legacy_literals_allowed(jmespath.compile, path)
    except JMESPathError as exc:
        detail = f"invalid JMESPath expression in {what} {path!r}: {exc}"
        raise _advised(
            f"{detail}; fix the expression in the waiter's trait",
            detail,
            "fix the expression",
        ) from exc
    except RecursionError:
        detail = (
            f"the JMESPath expression in {what} {path[:60]!r}... nests too deeply "
            "to parse"
        )
        raise _advised(
            f"{detail}; simplify the expression in the waiter's trait",
            detail,
            "simplify the expression",
        ) from None
    except ValueError:  # the lexer's int() of a number past Python's digit limit
        detail = (
            f"the JMESPath expression in {what} {path[:60]!r}... holds a number of "
            f"more than {sys.get_int_max_str_digits()} digits, more than Python "
            "converts"
        )
        raise _advised(
            f"{detail}; fix the expression in the waiter's trait",
            detail,
            "fix the expression",
        ) from None
    nesting = interpreted_nesting(parsed.parsed)
    if nesting > MAX_INTERPRETED_NESTING:
        detail = (
            f"the JMESPath expression in {what} {path[:60]!r}... nests {nesting} "
            f"levels deep, past the {MAX_INTERPRETED_NESTING} the jmespath "
            "interpreter evaluates"
        )
        raise _advised(
            f"{detail}; simplify the expression in the waiter's trait "
            "(a generated waiter may use --jmespath compiled, which has no such limit)",
            detail,
            "simplify the expression",
        )

    def search(value: Any) -> Any:
        """The interpreter's search. What it raises on values outside its own checks
        (a zero slice step, `contains` of a number in a string, `ceil(inf)`, a sum
        beyond a double) are evaluation errors: the acceptor does not match."""
        try:
            return parsed.search(value)
        except JMESPathError:
            raise
        except (TypeError, ValueError, ArithmeticError) as exc:
            kind = "invalid-type" if isinstance(exc, TypeError) else "invalid-value"
            raise JMESPathEvaluationError(kind, type(exc).__name__) from exc

    return search


@dataclass(frozen=True, slots=True)
class PathMatcher:
    """Shared fields of the `output` and `inputOutput` matchers (the spec's PathMatcher).

    `input_output` is True for an `inputOutput` matcher, whose path sees
    `{"input": ..., "output": ...}`.
    """

    path: str
    expected: str
    comparator: Comparator
    search: Search | None = field(default=None, compare=False, repr=False)
    compiled: Search = field(init=False, compare=False, repr=False)
    comparison: Comparison = field(init=False, compare=False, repr=False)
    output_converter: OutputConverter = field(init=False, compare=False, repr=False)
    input_output: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "input_output", isinstance(self, InputOutputMatcher))
        for member, value, what in (
            ("path", self.path, "a JMESPath expression"),
            ("expected", self.expected, "the text the result is compared with"),
        ):
            if not isinstance(value, str):  # else a TypeError from the parser
                raise WaiterDefinitionError(
                    f"a path matcher's `{member}` must be a string ({what}), "
                    f"got {describe_value(value)}"
                )
        if not isinstance(self.comparator, Comparator):
            raise WaiterDefinitionError(
                f"comparator {self.comparator!r} of path {self.path!r} is not one of "
                f"{', '.join(c.value for c in Comparator)}"
            )
        if self.comparator is Comparator.BOOLEAN_EQUALS and self.expected not in (
            "true",
            "false",
        ):
            raise WaiterDefinitionError(
                f"booleanEquals on path {self.path!r} expects 'true' or 'false', "
                f"not {self.expected!r}"
            )
        compiled = self.search or _compile(self.path, "path")
        object.__setattr__(self, "compiled", compiled)
        object.__setattr__(self, "comparison", COMPARATORS[self.comparator])
        reads = output_reads_of(self.path, self.input_output)
        object.__setattr__(self, "output_converter", OutputConverter(reads))

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        kind = "output" if isinstance(self, OutputMatcher) else "inputOutput"
        return f"{kind} path {self.path!r} {self.comparator.value} {self.expected!r}"


@dataclass(frozen=True, slots=True)
class OutputMatcher(PathMatcher):
    """Matches the successful output of the operation with a JMESPath expression."""


@dataclass(frozen=True, slots=True)
class InputOutputMatcher(PathMatcher):
    """Matches `{"input": ..., "output": ...}` of a successful call with a JMESPath expression."""


@dataclass(frozen=True, slots=True)
class SuccessMatcher:
    """`success: true` matches any successful response; `success: false` any (service) error."""

    success: bool

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        return f"success {str(self.success).lower()}"


@dataclass(frozen=True, slots=True)
class ErrorTypeMatcher:
    """Matches an error whose code equals the name part of `error_type` (`ns#Name` → `Name`)."""

    error_type: str

    @property
    def name(self) -> str:
        """The name part of the shape id, which is what error codes are compared with."""
        return self.error_type.rpartition("#")[2]

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        return f"errorType {self.error_type!r}"


class BotocorePathMode(str, enum.Enum):
    """How a `BotocorePathMatcher` compares: botocore's `path`, `pathAll` and `pathAny`."""

    PATH = "path"
    PATH_ALL = "pathAll"
    PATH_ANY = "pathAny"


@dataclass(frozen=True, slots=True)
class BotocorePathMatcher:
    """botocore's `path`/`pathAll`/`pathAny` matcher; only botocore input makes one.

    `expected` is any JSON value (botocore's may be a string, a number or a
    boolean) and is compared with Python's `==` on the JMESPath result of the
    raw response, as botocore does: `pathAll` needs a non-empty list whose every
    item equals it, `pathAny` a non-empty list with one item equal to it.
    """

    path: str
    expected: Any
    mode: BotocorePathMode
    compiled: Search = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.mode, BotocorePathMode):
            raise WaiterDefinitionError(
                f"botocore path mode {self.mode!r} of path {self.path!r} is not one of "
                f"{', '.join(m.value for m in BotocorePathMode)}"
            )
        object.__setattr__(self, "compiled", _compile(self.path, "path"))

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        return f"botocore {self.mode.value} {self.path!r} == {self.expected!r}"


@dataclass(frozen=True, slots=True)
class BotocoreErrorMatcher:
    """botocore's `error` matcher: the raw `Error.Code` equals `expected`.

    `expected` True means "any error", False "no error" (a successful response
    matches), as in botocore's `_create_error_matcher`. The code is compared as
    botocore receives it: no shape-id stripping, no `404` → `NotFound`.
    """

    expected: str | bool

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        return f"botocore error {self.expected!r}"


@dataclass(frozen=True, slots=True)
class StatusMatcher:
    """botocore's `status` matcher: the response's HTTP status code equals `status`.

    The Smithy waiters spec has no such matcher; only botocore input makes one.
    The code is `ResponseMetadata.HTTPStatusCode` of the output or of the
    error's `response`, as botocore reads it.
    """

    status: int

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        return f"status {self.status!r}"


Matcher: TypeAlias = (
    OutputMatcher
    | InputOutputMatcher
    | SuccessMatcher
    | ErrorTypeMatcher
    | BotocorePathMatcher
    | BotocoreErrorMatcher
    | StatusMatcher
)


@dataclass(frozen=True, slots=True)
class Acceptor:
    """One ordered rule of a waiter: when `matcher` matches, move to `state`.

    `message` (failure acceptors only) is a JMESPath expression whose string, or
    list of strings, explains the failure in the error the waiter raises.
    """

    state: AcceptorState
    matcher: Matcher
    message: str | None = None
    message_search: Search | None = field(default=None, compare=False, repr=False)
    compiled_message: Search | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.state, AcceptorState):
            raise WaiterDefinitionError(
                f"acceptor state {self.state!r} is not one of success, failure, retry"
            )
        compiled: Search | None = None
        if self.message is not None:
            if not isinstance(self.message, str):  # else a TypeError from the parser
                raise WaiterDefinitionError(
                    "an acceptor `message` must be a JMESPath expression string, "
                    f"got {describe_value(self.message)}"
                )
            if self.state is not AcceptorState.FAILURE:
                detail = (
                    "an acceptor `message` is only valid on failure acceptors, "
                    f"but this acceptor's state is {self.state.value}"
                )
                raise _advised(
                    f"{detail}; remove the message", detail, "remove the message"
                )
            compiled = self.message_search or _compile(self.message, "message")
        object.__setattr__(self, "compiled_message", compiled)


@dataclass(frozen=True, slots=True)
class ModeledError:
    """An error the operation declares: its shape name and, if modeled, its HTTP status."""

    name: str
    http_status: int | None = None

    def __post_init__(self) -> None:
        status = self.http_status
        if (
            not isinstance(self.name, str)
            or not self.name
            or not (
                status is None
                or (isinstance(status, int) and not isinstance(status, bool))
            )
        ):
            raise WaiterDefinitionError(
                f"ModeledError({describe_value(self.name)}, http_status="
                f"{describe_value(status)}): the name must be the error shape's name "
                "(a non-empty string) and http_status an int or None, e.g. "
                'ModeledError("ServiceUnavailable", http_status=503)'
            )


@dataclass(frozen=True, slots=True)
class WaiterDefinition:
    """One named waiter of an operation: ordered acceptors and the retry delays (seconds).

    `plain_reads` (written by the generator from the output shape) lists positions
    some path reads, as object keys from the output's root with lists crossed,
    where the model allows no timestamp, blob, big number or document: a dict
    output is not checked for values to convert there. Leave it empty unless the
    model says so; a wrong entry lets such a value reach a path unconverted.
    """

    name: str
    operation: str
    acceptors: tuple[Acceptor, ...]
    min_delay: float = 2
    max_delay: float = 120
    documentation: str | None = None
    deprecated: bool = False
    tags: tuple[str, ...] = ()
    errors: tuple[ModeledError, ...] = ()
    plain_reads: tuple[Position, ...] = field(default=(), compare=False, repr=False)
    output_reads: Reads = field(init=False, compare=False, repr=False)
    output_converter: OutputConverter = field(init=False, compare=False, repr=False)
    #: How `waitable.matching` judges an output for this definition, made there on
    #: first use (None until then).
    output_checks: Any = field(init=False, compare=False, repr=False)
    #: Whether some acceptor reads the operation input (an `inputOutput` matcher):
    #: only then is the input put in the JMESPath data model.
    reads_input: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        where = f"waiter {self.name!r} of operation {self.operation!r}"
        _check_positions(self.plain_reads, where)
        object.__setattr__(self, "output_checks", None)
        object.__setattr__(
            self,
            "reads_input",
            any(isinstance(a.matcher, InputOutputMatcher) for a in self.acceptors),
        )
        reads = _output_reads(self.acceptors)
        object.__setattr__(self, "output_reads", reads)
        object.__setattr__(
            self, "output_converter", OutputConverter(reads, self.plain_reads)
        )
        if not self.acceptors:
            raise WaiterDefinitionError(
                f"{where} has no acceptors; it needs at least one"
            )
        for label, value in (
            ("min_delay", self.min_delay),
            ("max_delay", self.max_delay),
        ):
            try:
                object.__setattr__(self, label, parse_seconds(value))
            except SecondsError as exc:
                raise WaiterDefinitionError(f"{where}: {label} {exc}") from None
        if self.min_delay > self.max_delay:
            detail = (
                f"minDelay {self.min_delay} is greater than maxDelay {self.max_delay}"
            )
            action = "make minDelay <= maxDelay"
            raise _advised(f"{where}: {detail}; {action}", detail, action)

    @classmethod
    def from_trait(
        cls,
        name: str,
        operation: str,
        value: Mapping[str, Any],
        *,
        errors: Iterable[ModeledError] = (),
        strict: bool = False,
        document: str | None = None,
    ) -> WaiterDefinition:
        """Build a definition from one waiter of the trait's JSON value (the map entry's value).

        Members the trait does not define are ignored, as Smithy only warns of
        them in a model; `strict` refuses them, naming each and where it is (a
        definition written by hand, for `custom_waiter_from_trait`).
        `document` is where such a definition was written, as its errors' advice
        names it ("the file"): they then speak of no model or operation, which
        it does not have, and name the waiter once.
        """
        reader = _TraitReader(name, operation, strict, document)
        return reader.waiter(value, tuple(errors))


def _check_positions(positions: Any, where: str) -> None:
    """`plain_reads` must be a tuple of tuples of strings."""
    if not isinstance(positions, tuple) or not all(
        isinstance(p, tuple) and all(isinstance(k, str) for k in p) for p in positions
    ):
        raise WaiterDefinitionError(
            f"{where}: plain_reads must be a tuple of positions, each a tuple of "
            f"object keys (strings), not {positions!r:.200}; regenerate the waiters"
        )


def _output_reads(acceptors: Iterable[Acceptor]) -> Reads:
    """The parts of an output that any path or message of these acceptors can read."""
    root = Reads()
    for acceptor in acceptors:
        matcher = acceptor.matcher
        if acceptor.message:  # a message reads the output, whatever the matcher
            root.merge(output_reads_of(acceptor.message))
        if isinstance(matcher, (OutputMatcher, InputOutputMatcher)):
            root.merge(
                output_reads_of(matcher.path, isinstance(matcher, InputOutputMatcher))
            )
    return root


@dataclass(frozen=True, slots=True)
class _TraitReader:
    """Reads a trait value, naming the waiter and acceptor index in every error.

    Members the spec does not define are ignored (some real models carry a
    `description`; Smithy's validator, not the runtime, reports them) unless
    `strict`: a definition written by hand (`custom_waiter_from_trait`), where
    a typo (`minDealy`) or another format's field (`maxAttempts`) would change
    the wait without a word, is refused naming each such key.
    """

    name: str
    operation: str
    strict: bool = False
    #: Where a definition written by hand is ("the file", "the document"), for
    #: its errors' advice; None for a model's trait value.
    document: str | None = None

    def fail(
        self, detail: str, index: int | None = None, advice: str | None = None
    ) -> WaiterDefinitionError:
        at = "" if index is None else f", acceptor {index}"
        if self.document is not None:
            advice = advice or f"fix it in {self.document}"
            return WaiterDefinitionError(
                f"waiter {self.name!r}{at}: {detail}; {advice}"
            )
        advice = advice or "fix the trait value in the model"
        return WaiterDefinitionError(
            f"smithy.waiters#waitable on {self.operation}: waiter {self.name!r}{at}: "
            f"{detail}; {advice}"
        )

    def failed(
        self, error: WaiterDefinitionError, index: int | None = None
    ) -> WaiterDefinitionError:
        """`error`, raised building a part of the definition, as this reader's own.

        A document written by hand gets the error's own advice, said of the
        document, in place of a second "fix" clause.
        """
        if self.document is not None and error.detail and error.action:
            return self.fail(error.detail, index, f"{error.action} in {self.document}")
        return self.fail(str(error), index)

    def waiter(
        self, value: Mapping[str, Any], errors: tuple[ModeledError, ...]
    ) -> WaiterDefinition:
        if not isinstance(value, Mapping):
            raise self.fail(f"expected an object, got {type(value).__name__}")
        if self.strict:
            self.refuse_unknown_keys(value)
        raw_acceptors = value.get("acceptors")
        if not isinstance(raw_acceptors, list) or not raw_acceptors:
            raise self.fail("`acceptors` must be a non-empty list")
        acceptors = tuple(self.acceptor(a, i) for i, a in enumerate(raw_acceptors))
        if all(acceptor.state is not AcceptorState.SUCCESS for acceptor in acceptors):
            raise self.fail(
                "`acceptors` must hold one with the `success` state (the spec's MUST: "
                "without it a wait can only fail or time out)"
            )
        tags = value.get("tags", [])
        if not isinstance(tags, list) or not all(
            isinstance(t, str) and t for t in tags
        ):
            raise self.fail("`tags` must be a list of non-empty strings")
        documentation = value.get("documentation")
        if documentation is not None and not isinstance(documentation, str):
            raise self.fail("`documentation` must be a string")
        deprecated = value.get("deprecated", False)
        if not isinstance(deprecated, bool):
            raise self.fail("`deprecated` must be a boolean")
        # Read outside the `try` below, whose handler would wrap their errors twice.
        min_delay = self.delay(value, "minDelay", 2)
        max_delay = self.delay(value, "maxDelay", 120)
        try:
            return WaiterDefinition(
                name=self.name,
                operation=self.operation,
                acceptors=acceptors,
                min_delay=min_delay,
                max_delay=max_delay,
                documentation=documentation,
                deprecated=deprecated,
                tags=tuple(tags),
                errors=errors,
            )
        except WaiterDefinitionError as exc:
            raise self.failed(exc) from None

    def refuse_unknown_keys(self, value: Mapping[str, Any]) -> None:
        """Refuse every key the trait does not define, each with where it is."""
        found = unknown_keys(value)
        if found is not None:
            detail, advice = found
            raise self.fail(detail, advice=advice)

    def delay(self, value: Mapping[str, Any], key: str, default: int) -> int:
        delay = value.get(key, default)
        if isinstance(delay, bool) or not isinstance(delay, int) or delay < 1:
            raise self.fail(f"`{key}` must be an integer >= 1, got {delay!r}")
        if self.document is not None:  # else the definition says it, as `min_delay`
            try:
                parse_seconds(delay)
            except SecondsError as exc:
                raise self.fail(f"`{key}` {exc}") from None
        return delay

    def acceptor(self, value: Any, index: int) -> Acceptor:
        if not isinstance(value, Mapping):
            raise self.fail("an acceptor must be an object", index)
        try:
            state = AcceptorState(value.get("state"))
        except ValueError:
            raise self.fail(
                f"`state` must be success, failure or retry, got {value.get('state')!r}",
                index,
            ) from None
        message = value.get("message")
        if message is not None and not isinstance(message, str):
            raise self.fail("`message` must be a JMESPath expression string", index)
        matcher = self.matcher(value.get("matcher"), index)  # its errors say it all
        try:
            return Acceptor(state, matcher, message)
        except WaiterDefinitionError as exc:
            raise self.failed(exc, index) from None

    def matcher(self, value: Any, index: int) -> Matcher:
        if not isinstance(value, Mapping):
            raise self.fail("`matcher` must be an object", index)
        members = [k for k in value if value[k] is not None]
        if len(members) != 1 or members[0] not in MATCHER_MEMBERS:
            raise self.fail(
                f"a matcher sets exactly one of {', '.join(MATCHER_MEMBERS)}; found {members}",
                index,
            )
        kind = members[0]
        member = value[kind]
        if kind == "success":
            if not isinstance(member, bool):
                raise self.fail("`success` must be true or false", index)
            return SuccessMatcher(member)
        if kind == "errorType":
            if not isinstance(member, str) or not member:
                raise self.fail("`errorType` must be a non-empty string", index)
            return ErrorTypeMatcher(member)
        if not isinstance(member, Mapping):
            raise self.fail(
                f"`{kind}` must be an object with path, expected, comparator", index
            )
        path, expected = member.get("path"), member.get("expected")
        if not isinstance(path, str) or not isinstance(expected, str):
            raise self.fail(f"`{kind}` needs string `path` and `expected`", index)
        try:
            comparator = Comparator(member.get("comparator"))
        except ValueError:
            raise self.fail(
                f"`comparator` must be one of {', '.join(c.value for c in Comparator)}, "
                f"got {member.get('comparator')!r}",
                index,
            ) from None
        kind_cls = OutputMatcher if kind == "output" else InputOutputMatcher
        try:
            return kind_cls(path, expected, comparator)
        except WaiterDefinitionError as exc:
            raise self.failed(exc, index) from None
