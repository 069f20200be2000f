"""Smithy's per-waiter checks: delays, a success acceptor, each matcher's JMESPath and
return type, `booleanEquals` values, `errorType` names and acceptor messages.

Events target the operation. Matcher-level messages start with
``Waiter `<name>`, acceptor <i>: `` so the waiter and acceptor are always named.
"""

from __future__ import annotations

from functools import cached_property

from waitable.reads import Reads, reads_of

from ..model import WAITABLE_TRAIT, Model, Shape, shape_name
from .events import Severity, ValidationEvent
from .jmespath_syntax import ExpressionSyntaxError
from .jmespath_types import LintResult, lint
from .jmespath_values import Value
from .samples import operation_sample
from .trait_value import Acceptor, PathMatcher, Waiter

WAITABLE_TRAIT_EVENT = "WaitableTrait"
JMESPATH_PROBLEM = "WaitableTraitJmespathProblem"
INVALID_ERROR_TYPE = "WaitableTraitInvalidErrorType"

_RETURN_TYPES = {"booleanEquals": "boolean", "stringEquals": "string"}
_PROBLEM_IDS = {
    Severity.DANGER: "JmespathEventDanger",
    Severity.WARNING: "JmespathEventWarning",
}


def check_waiters(
    model: Model, operation: Shape, waiters: list[Waiter]
) -> list[ValidationEvent]:
    """Every event Smithy's waiter validator gives for these waiters of `operation`."""
    samples = _Samples(model, operation, waiters)
    events: list[ValidationEvent] = []
    for waiter in waiters:
        if waiter.min_delay > waiter.max_delay:
            events.append(
                _event(
                    operation,
                    Severity.ERROR,
                    WAITABLE_TRAIT_EVENT,
                    f"`{WAITABLE_TRAIT}` trait waiter named `{waiter.name}` has a "
                    f"`minDelay` value of {waiter.min_delay} that is greater than its "
                    f"`maxDelay` value of {waiter.max_delay}",
                )
            )
        for index, acceptor in enumerate(waiter.acceptors):
            check = _AcceptorCheck(operation, samples, waiter.name, index)
            events.extend(check.run(acceptor))
        if not any(acceptor.state == "success" for acceptor in waiter.acceptors):
            events.append(
                _event(
                    operation,
                    Severity.ERROR,
                    WAITABLE_TRAIT_EVENT,
                    f"No success state matcher found for `{WAITABLE_TRAIT}` trait "
                    f"waiter named `{waiter.name}`",
                )
            )
    return events


def _event(
    operation: Shape, severity: Severity, event_id: str, message: str
) -> ValidationEvent:
    return ValidationEvent(severity, operation.id, event_id, message)


class _Samples:
    """The sample data an operation's paths are checked against, built on first use,
    as far as its waiters' paths and messages read (`samples.py`)."""

    def __init__(self, model: Model, operation: Shape, waiters: list[Waiter]) -> None:
        self.model = model
        self.operation = operation
        self._output_reads, self._input_output_reads = _path_reads(waiters)

    @cached_property
    def output(self) -> Value:
        """What `output` matchers and every `message` see: the output structure."""
        return operation_sample(
            self.model, self.operation, "output", self._output_reads
        )

    @cached_property
    def input_output(self) -> Value:
        """What `inputOutput` matchers see: `{"input": ..., "output": ...}`."""
        reads = self._input_output_reads
        parts: dict[str, Reads | None] = {"input": None, "output": None}
        if reads is not None and not reads.whole:  # a part no path reads: nothing
            parts = {name: reads.children.get(name, Reads()) for name in parts}
        return {
            name: operation_sample(self.model, self.operation, name, part)
            for name, part in parts.items()
        }


def _path_reads(waiters: list[Waiter]) -> tuple[Reads | None, Reads | None]:
    """What the paths and messages read of the output, and what the `inputOutput`
    paths read of `{"input", "output"}`; None (read everything) when some
    expression is beyond the read analysis (the lint then reports it, if bad)."""
    output, input_output = Reads(), Reads()
    try:
        for waiter in waiters:
            for acceptor in waiter.acceptors:
                matcher = acceptor.matcher
                if isinstance(matcher.value, PathMatcher):
                    read = reads_of(matcher.value.path)
                    (output if matcher.kind == "output" else input_output).merge(read)
                if acceptor.message is not None:  # also read as `<message>[0]`
                    output.merge(reads_of(acceptor.message))
                    output.merge(reads_of(f"{acceptor.message}[0]"))
    except Exception:  # any failure of the analysis: sample everything, as before
        return None, None
    return output, input_output


class _AcceptorCheck:
    """The checks of one acceptor, in Smithy's order: the path's problems, `expected`,
    the return type, the `errorType`, then the message."""

    def __init__(
        self, operation: Shape, samples: _Samples, waiter: str, index: int
    ) -> None:
        self.operation = operation
        self.samples = samples
        self.waiter = waiter
        self.index = index
        self.events: list[ValidationEvent] = []

    def run(self, acceptor: Acceptor) -> list[ValidationEvent]:
        matcher = acceptor.matcher
        if isinstance(matcher.value, PathMatcher):
            sample = (
                self.samples.output
                if matcher.kind == "output"
                else self.samples.input_output
            )
            self.path_matcher(matcher.value, sample)
        elif matcher.kind == "errorType":
            self.error_type(str(matcher.value))
        if acceptor.message is not None:
            self.message(acceptor.message, acceptor.state)
        return self.events

    def add(self, severity: Severity, message: str, *id_parts: str) -> None:
        self.events.append(
            _event(
                self.operation,
                severity,
                ".".join(id_parts),
                f"Waiter `{self.waiter}`, acceptor {self.index}: {message}",
            )
        )

    def scoped_id(self, *parts: str) -> tuple[str, ...]:
        """An event id ending in the waiter name and acceptor index."""
        return (*parts, self.waiter, str(self.index))

    def path_matcher(self, matcher: PathMatcher, sample: Value) -> None:
        return_type = "any"
        try:
            result = lint(matcher.path, sample)
        except ExpressionSyntaxError as exc:
            self.add(
                Severity.ERROR,
                f"Invalid JMESPath expression ({matcher.path}): {exc}",
                WAITABLE_TRAIT_EVENT,
            )
        else:
            self.problems(matcher.path, result)
            return_type = result.return_type
        comparator = matcher.comparator
        if comparator == "booleanEquals" and matcher.expected not in ("true", "false"):
            self.add(
                Severity.ERROR,
                "Waiter acceptors with a booleanEquals comparator must set their "
                "`expected` value to 'true' or 'false', but found "
                f"'{matcher.expected}'.",
                WAITABLE_TRAIT_EVENT,
            )
        wanted = _RETURN_TYPES.get(comparator, "array")
        if return_type not in ("any", wanted):
            self.add(
                Severity.DANGER,
                f"Waiter acceptors with a {comparator} comparator must return a "
                f"`{wanted}` type, but this acceptor was statically determined to "
                f"return a `{return_type}` type.",
                *self.scoped_id(JMESPATH_PROBLEM, "ReturnTypeMismatch"),
            )

    def problems(self, path: str, result: LintResult) -> None:
        for problem in result.problems:
            if problem.severity is Severity.ERROR:
                event_id: tuple[str, ...] = (WAITABLE_TRAIT_EVENT,)
            else:
                kind = _PROBLEM_IDS[problem.severity]
                event_id = self.scoped_id(JMESPATH_PROBLEM, kind)
            self.add(
                problem.severity,
                f"Problem found in JMESPath expression ({path}): {problem}",
                *event_id,
            )

    def error_type(self, error_type: str) -> None:
        errors = self.operation.errors
        if any(error_type in (error, shape_name(error)) for error in errors):
            return
        self.add(
            Severity.WARNING,
            f"errorType '{error_type}' not found on operation. This operation defines "
            f"the following errors: [{', '.join(errors)}]",
            *self.scoped_id(INVALID_ERROR_TYPE),
        )

    def message(self, message: str, state: str) -> None:
        if state != "failure":
            self.add(
                Severity.ERROR,
                "The `message` property is only valid on acceptors with a `failure` "
                f"state, but found state `{state}`.",
                WAITABLE_TRAIT_EVENT,
            )
            return
        try:
            message_type = lint(message, self.samples.output).return_type
        except ExpressionSyntaxError as exc:
            self.add(
                Severity.ERROR,
                f"Invalid JMESPath expression in `message` ({message}): {exc}",
                WAITABLE_TRAIT_EVENT,
            )
            return
        start = (
            "The `message` JMESPath expression must resolve to a string or an array "
        )
        if message_type == "array":
            element_type = self.element_type(message)
            if element_type != "string":
                self.add(
                    Severity.ERROR,
                    f"{start}of strings, but this expression resolves to an array of "
                    f"`{element_type}`.",
                    WAITABLE_TRAIT_EVENT,
                )
        elif message_type != "string":
            self.add(
                Severity.ERROR,
                f"{start}of strings, but this expression was statically determined to "
                f"return a `{message_type}` type.",
                WAITABLE_TRAIT_EVENT,
            )

    def element_type(self, message: str) -> str:
        """The element type of an array message, as Smithy finds it: the type of the
        text `<message>[0]` (so `items[*].name` gives `array`, the projection applying
        `[0]` to each name)."""
        try:
            return lint(f"{message}[0]", self.samples.output).return_type
        except ExpressionSyntaxError:
            return "any"
