"""Custom waiters without a Smithy model: acceptors in the spec's words, or Python predicates.

`custom_waiter(name, acceptors=[...], ...)` returns a `Waiter` subclass (its
asyncio twin is its `.Async` attribute) whose operation is any callable: wait on
a CI build, a migration, anything. Acceptors are the spec's (`success`,
`failure`, `retry` with `output`/`inputOutput` path matchers, `success`,
`errorType`) plus two that only Python can say: a predicate on the output
(`success(lambda output: output["result"] == "SUCCESS")`) and `errorType` by
exception class (`retry(error_type(ConnectionResetError))`).
`custom_waiter_from_trait` reads the same definition from the trait's JSON shape
(a dict, JSON text or a file), so definitions can live in config files.

Nothing here loops: the classes are `Waiter`/`AsyncWaiter` with a judge
(`judge_acceptors`) that evaluates predicate and class acceptors and delegates
the spec's matchers to `waitable.matching`, all run by `waitable.flow`.
Paths are compiled with `waitable_codegen.jmespath.compile` when the generator is
installed (`jmespath="compiled"`, the default), else interpreted with the
`jmespath` package; the answers are the same.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import random
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeAlias, cast

from .backoff import Backoff, new_context
from .calls import refused_unless_valid
from .clock import CancelEvent
from .datamodel import to_jmespath
from .definition import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    Matcher,
    ModeledError,
    OutputMatcher,
    Search,
    SuccessMatcher,
    WaiterDefinition,
    WaiterDefinitionError,
)
from .error_codes import is_transport_error
from .errors import WaiterConfigurationError, WaiterEvaluationError
from .files import UnreadableFile, read_text
from .flow import Judge, Raised, Returned, WaitPlan
from .invoke import OperationCall, bind_operation
from .matching import (
    NO_MATCH_ERRORS,
    Verdict,
    input_to_jmespath,
    match_error,
    match_output,
    reason_text,
)
from .options import (
    WaitOptions,
    exception_types,
    validate_backoff,
    validate_max_attempts,
    validate_seconds,
)
from .results import WaiterResult
from .seconds import describe_value, is_plain_delay
from .steps import SavedWait
from .waiter import AsyncWaiter, Waiter, _WaiterBase

__all__ = [
    "AsyncCustomWaiter",
    "CustomWaiter",
    "ErrorClassMatcher",
    "JMESPathMode",
    "PathExpression",
    "PredicateMatcher",
    "compile_path",
    "custom_waiter",
    "custom_waiter_from_trait",
    "error_type",
    "failure",
    "input_output_path",
    "judge_acceptors",
    "path",
    "retry",
    "success",
]

JMESPathMode: TypeAlias = Literal["compiled", "interpreted"]
_RETRY = Verdict(AcceptorState.RETRY, None)


@dataclass(frozen=True, slots=True)
class PredicateMatcher:
    """Matches a successful output for which `check(output)` is truthy (a Python predicate).

    The predicate sees the output as the client returned it. An exception it
    raises is a `WaiterEvaluationError` naming the waiter and acceptor.
    """

    check: Callable[[Any], object]
    label: str = ""

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        name = self.label or getattr(self.check, "__qualname__", repr(self.check))
        return f"predicate {name}"


@dataclass(frozen=True, slots=True)
class ErrorClassMatcher:
    """Matches an error that is an instance of `error_class` (`errorType` by class).

    Unlike `errorType` by code, it also sees transport errors (`OSError`): naming
    the class is asking for them.
    """

    error_class: type[BaseException] | tuple[type[BaseException], ...]

    def describe(self) -> str:
        """The matcher as a person reads it in an error or a log line."""
        classes = (
            self.error_class
            if isinstance(self.error_class, tuple)
            else (self.error_class,)
        )
        return f"errorType {' | '.join(c.__name__ for c in classes)} (class)"


MatcherLike: TypeAlias = (
    Matcher
    | PredicateMatcher
    | ErrorClassMatcher
    | bool
    | type[BaseException]
    | Callable[[Any], object]
)


def compile_path(expression: str, mode: JMESPathMode = "compiled") -> Search | None:
    """The compiled search for `expression`, or None to have it interpreted.

    `"compiled"` uses `waitable_codegen.jmespath.compile` when the generator is
    installed and falls back to the interpreter otherwise.
    """
    if mode not in ("compiled", "interpreted"):
        raise WaiterConfigurationError(
            f"jmespath mode must be 'compiled' or 'interpreted', got {mode!r}"
        )
    if mode == "interpreted":
        return None
    try:
        from waitable_codegen.jmespath import compile as compile_jmespath
    except ImportError:
        return None
    try:
        return compile_jmespath(expression)
    except ValueError as exc:  # JMESPathCompileError
        raise WaiterDefinitionError(
            f"invalid JMESPath expression {expression!r}: {exc}; fix the path"
        ) from None


@dataclass(frozen=True, slots=True, eq=False)
class PathExpression:
    """A JMESPath expression awaiting a comparator: `path("result") == "SUCCESS"`.

    `==` with a string is `stringEquals`, with a bool `booleanEquals`; the four
    comparators are also methods named as the spec names them.
    """

    expression: str
    input_output: bool = False

    def _matcher(
        self, expected: str, comparator: Comparator
    ) -> OutputMatcher | InputOutputMatcher:
        kind = InputOutputMatcher if self.input_output else OutputMatcher
        return kind(self.expression, expected, comparator)

    def string_equals(self, expected: str) -> OutputMatcher | InputOutputMatcher:
        """`stringEquals`: the value is a string equal to `expected`."""
        return self._matcher(_text(expected), Comparator.STRING_EQUALS)

    def boolean_equals(self, expected: bool) -> OutputMatcher | InputOutputMatcher:
        """`booleanEquals`: the value is a boolean equal to `expected`."""
        if not isinstance(expected, bool):
            raise WaiterDefinitionError(
                f"booleanEquals on path {self.expression!r} takes True or False, "
                f"got {expected!r}"
            )
        return self._matcher(str(expected).lower(), Comparator.BOOLEAN_EQUALS)

    def all_string_equals(self, expected: str) -> OutputMatcher | InputOutputMatcher:
        """`allStringEquals`: a non-empty list whose every item equals `expected`."""
        return self._matcher(_text(expected), Comparator.ALL_STRING_EQUALS)

    def any_string_equals(self, expected: str) -> OutputMatcher | InputOutputMatcher:
        """`anyStringEquals`: a list with at least one item equal to `expected`."""
        return self._matcher(_text(expected), Comparator.ANY_STRING_EQUALS)

    def __eq__(self, expected: object) -> OutputMatcher | InputOutputMatcher:  # type: ignore[override]
        if isinstance(expected, bool):
            return self.boolean_equals(expected)
        if isinstance(expected, str):
            return self.string_equals(expected)
        raise WaiterDefinitionError(
            f"path {self.expression!r} can be compared with a string (stringEquals) "
            f"or a bool (booleanEquals), not {type(expected).__name__}; use "
            ".all_string_equals() or .any_string_equals() for lists"
        )

    __hash__ = None  # type: ignore[assignment]


def _text(expected: object) -> str:
    if not isinstance(expected, str):
        raise WaiterDefinitionError(
            f"expected must be a string, got {type(expected).__name__}"
        )
    return expected


def path(expression: str) -> PathExpression:
    """An `output` path matcher in the making: `path("result") == "SUCCESS"`."""
    return PathExpression(expression)


def input_output_path(expression: str) -> PathExpression:
    """An `inputOutput` path matcher in the making: the path reads `input` and `output`."""
    return PathExpression(expression, input_output=True)


def error_type(kind: str | type[BaseException]) -> ErrorTypeMatcher | ErrorClassMatcher:
    """`errorType`: by error code (a string, `ns#Name` or `Name`) or by exception class."""
    if isinstance(kind, str):
        if not kind:
            raise WaiterDefinitionError("errorType must be a non-empty error code")
        return ErrorTypeMatcher(kind)
    if isinstance(kind, type) and issubclass(kind, BaseException):
        return ErrorClassMatcher(kind)
    raise WaiterDefinitionError(
        f"errorType takes an error code (str) or an exception class, got {kind!r}"
    )


def _matcher(value: MatcherLike) -> Matcher:
    """Any accepted matcher form as the object the definition holds."""
    if isinstance(
        value,
        (
            OutputMatcher,
            InputOutputMatcher,
            SuccessMatcher,
            ErrorTypeMatcher,
        ),
    ):
        return value
    if isinstance(value, (PredicateMatcher, ErrorClassMatcher)):
        # The definition's Matcher union has no Python-only matchers; the judge
        # below is what evaluates them, and `describe()` is all the engine reads.
        return cast(Matcher, value)
    if isinstance(value, bool):
        return SuccessMatcher(value)
    if isinstance(value, type) and issubclass(value, BaseException):
        return cast(Matcher, ErrorClassMatcher(value))
    if isinstance(value, PathExpression):
        raise WaiterDefinitionError(
            f"path {value.expression!r} needs a comparison, e.g. "
            f"path({value.expression!r}) == 'DONE'"
        )
    if callable(value):
        return cast(Matcher, PredicateMatcher(value))
    raise WaiterDefinitionError(
        f"a matcher must be a path comparison, True/False (the success matcher), "
        f"error_type(...), an exception class or a predicate; got {value!r}"
    )


def success(matcher: MatcherLike) -> Acceptor:
    """A `success` acceptor: when `matcher` matches, the wait succeeds."""
    return Acceptor(AcceptorState.SUCCESS, _matcher(matcher))


def failure(matcher: MatcherLike, *, message: str | None = None) -> Acceptor:
    """A `failure` acceptor; `message` is a JMESPath expression giving the reason."""
    return Acceptor(AcceptorState.FAILURE, _matcher(matcher), message)


def retry(matcher: MatcherLike) -> Acceptor:
    """A `retry` acceptor: when `matcher` matches, poll again."""
    return Acceptor(AcceptorState.RETRY, _matcher(matcher))


def judge_acceptors(
    plan: WaitPlan, outcome: Returned | Raised, input_data: Any, code: str | None
) -> Verdict | None:
    """The engine's judge for custom acceptors: first match in order decides.

    Predicate and class acceptors are evaluated here; the spec's matchers by
    `waitable.matching` (which skips the Python-only ones). Without a match, an
    output is a retry; an error fails the wait unless its type is in `retry_on`.
    """
    definition = plan.definition
    acceptors = definition.acceptors
    if isinstance(outcome, Returned):
        data_in = (
            input_to_jmespath(definition, input_data)
            if definition.reads_input
            else None
        )
        standard: Verdict | None = match_output(definition, outcome.output, data_in)
    else:
        error = outcome.error
        standard = (
            None
            if is_transport_error(error)
            else match_error(definition, error, code or type(error).__name__)
        )
    end = len(acceptors)
    if standard is not None and standard.acceptor_index is not None:
        end = standard.acceptor_index
    for index in range(end):
        acceptor = acceptors[index]
        matcher: Any = acceptor.matcher
        if isinstance(outcome, Returned) and isinstance(matcher, PredicateMatcher):
            if _holds(definition, index, matcher, outcome.output):
                reason = _reason(acceptor, outcome.output)
                return Verdict(acceptor.state, index, reason)
        elif isinstance(outcome, Raised) and isinstance(matcher, ErrorClassMatcher):
            if isinstance(outcome.error, matcher.error_class):
                return Verdict(acceptor.state, index)
    if standard is not None:
        return standard
    assert isinstance(outcome, Raised)
    return _RETRY if issubclass(type(outcome.error), plan.retry_on) else None


def _holds(
    definition: WaiterDefinition, index: int, matcher: PredicateMatcher, output: Any
) -> bool:
    """The predicate's answer; what it raises becomes a `WaiterEvaluationError`."""
    try:
        return bool(matcher.check(output))
    except MemoryError:
        raise
    except Exception as exc:
        raise WaiterEvaluationError(
            definition.name,
            acceptor_index=index,
            matcher=matcher.describe(),
            cause_type=type(exc).__name__,
            advice=(
                f"the predicate itself raised {describe_value(exc)}: fix it to "
                "answer True or False for every output the operation can return "
                "(it sees the output as returned, e.g. use output.get(key) for a "
                "key that may be missing)"
            ),
        ) from exc


def _reason(acceptor: Acceptor, output: Any) -> str | None:
    """A failure predicate's `message` (JMESPath) on the output, if it can be read."""
    if acceptor.compiled_message is None:
        return None
    try:
        value = acceptor.compiled_message(to_jmespath(output))
    except NO_MATCH_ERRORS:
        return None
    return reason_text(value)


def _bind(client: object, operation_method: str, waiter: str) -> OperationCall:
    """`bind_operation`, plus zero-argument callables (seed 003's `NewRequest`)."""
    if not (operation_method and callable(getattr(client, operation_method, None))):
        if callable(client) and _takes_no_input(client):
            return lambda input: client()
    return bind_operation(client, operation_method, waiter)


def _takes_no_input(function: Callable[..., Any]) -> bool:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return False
    try:
        signature.bind(None)
    except TypeError:
        try:
            signature.bind()
        except TypeError:
            return False
        return True
    return False


class _CustomBase(_WaiterBase[Any, Any]):
    """What both custom waiter kinds add: the judge, builder defaults, the first delay."""

    judge: ClassVar[Judge | None] = judge_acceptors
    attempts_bound_alone: ClassVar[bool] = True
    delay_before_first_attempt: ClassVar[bool] = False
    default_max_wait_time: ClassVar[float | None] = None
    default_max_attempts: ClassVar[int | None] = None
    default_backoff: ClassVar[Backoff | None] = None
    default_retry_on: ClassVar[tuple[type[BaseException], ...]] = ()

    def __init__(self, operation: object, **options: Any) -> None:
        """Bind `operation`: a callable taking the input (or nothing), or a client.

        `options` are those of `waitable.Waiter` (`clock=`, `rng=`, `on_attempt=`,
        `backoff=`, `retry_on=`, `retry=`, `rate_limit=`, `history_limit=`).
        """
        cls = type(self)
        options.setdefault("invoker", _bind)
        config = options.get("config")
        if cls.default_backoff is not None and getattr(config, "backoff", None) is None:
            if options.get("backoff") is None:  # None is "not given", as everywhere
                options["backoff"] = cls.default_backoff
        options.setdefault("retry_on", cls.default_retry_on)
        super().__init__(operation, **options)

    def _options(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitOptions:
        """The wait's options, the builder's defaults under the config's; with
        `max_attempts` and no `max_wait_time`, no deadline (`attempts_bound_alone`)."""
        cls = type(self)
        max_wait_time, min_delay, max_delay, max_attempts = self.config.fill(
            max_wait_time, min_delay, max_delay, max_attempts
        )
        if max_wait_time is None:
            max_wait_time = cls.default_max_wait_time
        if max_attempts is None:
            max_attempts = cls.default_max_attempts
        return super()._options(
            max_wait_time, min_delay, max_delay, max_attempts, backoff
        )

    def _plan_with(self, options: WaitOptions, rng: random.Random) -> WaitPlan:
        """The base plan; with `delay_before_first_attempt`, one whose delays go on
        from retry 2 (`WaitPlan.delayed_start`), made once per base plan."""
        plan = super()._plan_with(options, rng)
        if not type(self).delay_before_first_attempt:
            return plan
        last = self.__dict__.get("_delayed_plan")
        if last is not None and last[0] is plan:
            delayed: WaitPlan = last[1]
            return delayed
        delayed = dataclasses.replace(plan, delayed_start=True)
        self.__dict__["_delayed_plan"] = (plan, delayed)
        return delayed

    def _first_delay(
        self, options: WaitOptions, rng: random.Random
    ) -> tuple[float, bool]:
        """Seed 003's `ExecuteAfterFirstDelay`: the backoff's delay for retry 1, under
        the last-attempt rule; the delay after poll n is then retry n + 1's (seed
        002's delayed attempts: one delay per attempt, in order, none drawn twice)."""
        if not type(self).delay_before_first_attempt:
            return 0.0, False
        total = options.max_wait_time
        backoff = options.backoff
        context = new_context(1, total, options.min_delay, options.max_delay, None, rng)
        delay = backoff(context)
        if not is_plain_delay(delay):
            delay = refused_unless_valid(
                f"waiter {self.definition.name}", backoff, context, delay
            )
        if total - delay <= options.min_delay:
            return total, True
        return delay, False

    def start(
        self,
        input: Any = None,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        seed: int | None = None,
        history_limit: int | None = None,
    ) -> SavedWait:
        """A new wait saved before its first poll (JSON-ready); no request is made.

        With `delay_before_first_attempt`, the record's `next_delay` and
        `next_poll_at` say when the first poll is due: schedule `poll_once` then.
        """
        return self._start(
            input,
            max_wait_time,
            min_delay,
            max_delay,
            max_attempts,
            seed,
            history_limit,
        )


class CustomWaiter(_CustomBase, Waiter[Any, Any]):
    """A synchronous waiter built by `custom_waiter`: `JenkinsBuild(get_build).wait(input)`.

    The operation is a callable taking the input (or no argument), or a client
    with the builder's `operation_method`. `wait()`, `start()` and `poll_once()`
    are those of `waitable.Waiter`; `max_wait_time` may be omitted when the
    builder set one, or set `max_attempts` (then the attempts cap ends the wait).
    """

    Async: ClassVar[type[AsyncCustomWaiter]]

    @classmethod
    def _async_twin(cls) -> str | None:
        """A custom waiter's asyncio twin is `.Async` (there is no `Async{name}`)."""
        return f"{cls.__name__}.Async"

    def wait(
        self,
        input: Any = None,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
        cancel: CancelEvent | None = None,
    ) -> WaiterResult[Any]:
        """Poll until a success acceptor matches; raise a `WaiterError` otherwise
        (`WaiterCancelledError` once `cancel`, a `threading.Event`, is set)."""
        return self._wait(
            input, max_wait_time, min_delay, max_delay, max_attempts, backoff, cancel
        )


class AsyncCustomWaiter(_CustomBase, AsyncWaiter[Any, Any]):
    """The asyncio twin of a `CustomWaiter`: `await JenkinsBuild.Async(get_build).wait(input)`."""

    @classmethod
    def _sync_twin(cls) -> str | None:
        """A custom waiter's synchronous twin is the class whose `.Async` this is."""
        owner, dot, attribute = cls.__qualname__.rpartition(".")
        return owner if dot and attribute == "Async" else None

    async def wait(
        self,
        input: Any = None,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
    ) -> WaiterResult[Any]:
        """Poll until a success acceptor matches; raise a `WaiterError` otherwise."""
        return await self._wait(
            input, max_wait_time, min_delay, max_delay, max_attempts, backoff
        )


@dataclass(frozen=True, slots=True)
class _Settings:
    """The builder's arguments that are not acceptors."""

    min_delay: float
    max_delay: float
    max_attempts: int | None
    max_wait_time: float | None
    delay_before_first_attempt: bool
    backoff: Backoff | None
    retry_on: tuple[type[BaseException], ...]
    operation_method: str
    jmespath: JMESPathMode
    module: str | None
    documentation: str | None
    errors: tuple[ModeledError, ...]


def _checked_name(name: object) -> str:
    """`name` when it is a non-empty string: errors, logs and saved waits carry it."""
    if not isinstance(name, str) or not name:
        raise WaiterDefinitionError(
            "a custom waiter's name must be a non-empty string, got "
            f"{describe_value(name)}; "
            'pass e.g. "JenkinsBuildDone"'
        )
    return name


def custom_waiter(
    name: str,
    *,
    acceptors: Iterable[Acceptor],
    min_delay: float = 2,
    max_delay: float = 120,
    max_attempts: int | None = None,
    max_wait_time: float | None = None,
    delay_before_first_attempt: bool = False,
    backoff: Backoff | None = None,
    retry_on: tuple[type[BaseException], ...] = (),
    operation_method: str = "",
    jmespath: JMESPathMode = "compiled",
    documentation: str | None = None,
    errors: Iterable[ModeledError] = (),
    module: str | None = None,
) -> type[CustomWaiter]:
    """A waiter class for anything: `JenkinsBuild = custom_waiter("JenkinsBuild", acceptors=[...])`.

    Acceptors come from `success`/`failure`/`retry` (or are `Acceptor` objects);
    `max_attempts` and `max_wait_time` become defaults of every `wait()`;
    `delay_before_first_attempt` makes the first poll wait the backoff's first
    delay (retry 1's; seed 003's `ExecuteAfterFirstDelay`; with the fixed delay seed
    003 uses, that delay itself), and each later poll the next one (retry 2's before
    the second poll, and so on), so no delay is drawn twice. The asyncio class is
    the result's `.Async`.
    """
    name = _checked_name(name)
    listed = _checked_acceptors(name, acceptors)
    if documentation is not None and not isinstance(documentation, str):
        raise WaiterDefinitionError(
            f"custom waiter {name!r}: documentation must be a string (the class's "
            f"docstring) or None, got {_given(documentation)}"
        )
    settings = _Settings(
        min_delay,
        max_delay,
        max_attempts,
        max_wait_time,
        delay_before_first_attempt,
        _checked_backoff(name, backoff),
        exception_types(f"custom waiter {name!r}", retry_on),
        _checked_operation_method(name, operation_method),
        jmespath,
        module,
        documentation,
        _checked_errors(name, errors),
    )
    for index, acceptor in enumerate(listed):
        if not isinstance(acceptor, Acceptor):
            raise WaiterDefinitionError(
                f"custom waiter {name!r}, acceptor {index}: expected an acceptor built "
                f"with success(...), failure(...) or retry(...), got {acceptor!r}"
            )
    if listed and all(
        acceptor.state is not AcceptorState.SUCCESS for acceptor in listed
    ):
        raise WaiterDefinitionError(
            f"custom waiter {name!r}: no acceptor has the success state, so every "
            "wait could only fail or time out; add one built with success(...)"
        )
    try:
        definition = WaiterDefinition(
            name=name,
            operation=operation_method or "custom",
            acceptors=tuple(listed),
            min_delay=min_delay,
            max_delay=max_delay,
            documentation=documentation,
            errors=settings.errors,
        )
    except WaiterDefinitionError as exc:
        raise WaiterDefinitionError(f"custom waiter {name!r}: {exc}") from None
    return _classes(definition, settings, sys._getframe(1).f_globals.get("__name__"))


def custom_waiter_from_trait(
    name: str,
    document: Mapping[str, Any] | str | bytes | os.PathLike[str],
    **options: Any,
) -> type[CustomWaiter]:
    """`custom_waiter` from the trait's JSON shape: `{"acceptors": [...], "minDelay": 15, ...}`.

    `document` is the waiter's object (or the trait's map holding `name`), as a
    dict, JSON text, or a path to a JSON file (a `Path`, or a string that does not
    start with `{` or `[`, as in `custom_waiter_from_trait(name, "waiters.json")`;
    an empty or blank string is refused, not read as the directory `.`).
    `options` are `custom_waiter`'s (not `acceptors`, `min_delay`, `max_delay`,
    `documentation`). A key the trait does not define (a typo such as `minDealy`,
    or `maxAttempts`, which is the `max_attempts` option here) is refused, naming
    it: unlike in a Smithy model, where it is only warned of, it would be ignored.
    """
    name = _checked_name(name)
    source, place = "the trait document", "the document"
    if isinstance(document, (str, bytes)) and not document.strip():
        # Not a file name: `Path("")` is the directory `.`.
        raise WaiterDefinitionError(
            f"the trait document is empty ({describe_value(document)}); pass the "
            f"definition of waiter {name!r} as a dict, JSON text such as "
            '{"acceptors": [...]}, or the path of a JSON file'
        )
    if isinstance(document, str) and not document.lstrip().startswith(("{", "[")):
        document = Path(document)  # a file name: JSON text starts with `{` or `[`
    if isinstance(document, os.PathLike):
        source, place = os.fspath(document), "the file"
        try:
            document = read_text(source)
        except UnreadableFile as exc:
            raise WaiterDefinitionError(
                f"{source}: cannot read the waiter definition ({exc}); check the path"
            ) from None
    if isinstance(document, (str, bytes)):
        try:
            document = json.loads(document)
        except (ValueError, RecursionError) as exc:
            raise WaiterDefinitionError(
                f"{source}: waiter {name!r} is not valid JSON ({exc}); write the "
                'trait\'s shape, e.g. {"acceptors": [...], "minDelay": 15}'
            ) from None
    if (
        isinstance(document, Mapping)
        and "acceptors" not in document
        and isinstance(document.get(name), Mapping)
    ):
        document = document[name]
    elif (
        isinstance(document, Mapping)
        and "acceptors" not in document
        and document
        and all(isinstance(v, Mapping) for v in document.values())
    ):  # a trait map of other waiters: say so, not "`acceptors` must be a list"
        held = ", ".join(sorted(str(key) for key in document))
        raise WaiterDefinitionError(
            f"{source}: no waiter {name!r} in this document, which defines {held:.500}; "
            "pass one of those names, or add the waiter"
        )
    if not isinstance(document, Mapping):
        raise WaiterDefinitionError(
            f"{source}: waiter {name!r} must be a JSON object with `acceptors`, "
            f"got {type(document).__name__}"
        )
    for taken in ("acceptors", "min_delay", "max_delay", "documentation"):
        if taken in options:
            raise WaiterConfigurationError(
                f"custom waiter {name!r}: {taken} comes from the trait document; "
                "set it there"
            )
    operation_method = _checked_operation_method(
        name, options.pop("operation_method", "")
    )
    errors = _checked_errors(name, options.pop("errors", ()))
    try:
        definition = WaiterDefinition.from_trait(
            name,
            operation_method or "custom",
            document,
            errors=errors,
            strict=True,
            document=place,
        )
    except WaiterDefinitionError as exc:
        raise WaiterDefinitionError(f"{source}: {exc}") from None
    settings = _Settings(
        definition.min_delay,
        definition.max_delay,
        options.pop("max_attempts", None),
        options.pop("max_wait_time", None),
        options.pop("delay_before_first_attempt", False),
        _checked_backoff(name, options.pop("backoff", None)),
        exception_types(f"custom waiter {name!r}", options.pop("retry_on", ())),
        operation_method,
        options.pop("jmespath", "compiled"),
        options.pop("module", None),
        definition.documentation,
        definition.errors,
    )
    if options:
        raise WaiterConfigurationError(
            f"custom waiter {name!r}: unknown option(s) {', '.join(sorted(options))}"
        )
    return _classes(definition, settings, sys._getframe(1).f_globals.get("__name__"))


def _given(value: object) -> str:
    """What a caller passed, for an error message: its short repr and its type."""
    return f"{describe_value(value)} ({type(value).__name__})"


def _iterable(value: object) -> bool:
    """Whether `value` is a collection of items (a string or a mapping is not)."""
    if isinstance(value, (str, bytes, Mapping)):
        return False
    try:
        iter(cast(Any, value))
    except TypeError:
        return False
    return True


def _checked_acceptors(name: str, acceptors: object) -> list[Any]:
    """`acceptors` as a list, when it is a collection (its items are checked after)."""
    if isinstance(acceptors, Acceptor):
        raise WaiterDefinitionError(
            f"custom waiter {name!r}: acceptors must be a list of acceptors, got one "
            f"acceptor ({acceptors.state.value}); pass "
            f"acceptors=[{acceptors.state.value}(...)]"
        )
    if isinstance(acceptors, Mapping):
        raise WaiterDefinitionError(
            f"custom waiter {name!r}: acceptors must be a list of acceptors built with "
            f"success(...), failure(...) or retry(...), got a {type(acceptors).__name__}; "
            "a definition in the trait's JSON shape goes to custom_waiter_from_trait"
        )
    if not _iterable(acceptors):
        raise WaiterDefinitionError(
            f"custom waiter {name!r}: acceptors must be a list of acceptors built with "
            f"success(...), failure(...) or retry(...), got {_given(acceptors)}"
        )
    return list(cast(Iterable[Any], acceptors))


def _checked_operation_method(name: str, operation_method: object) -> str:
    """`operation_method` when it is a string (a method name, or "" for a callable)."""
    if not isinstance(operation_method, str):
        raise WaiterConfigurationError(
            f"custom waiter {name!r}: operation_method must be the name of the "
            f'client\'s method (a string, e.g. "get_build"), or "" when the '
            f"operation is a callable; got {_given(operation_method)}"
        )
    return operation_method


def _checked_errors(name: str, errors: object) -> tuple[ModeledError, ...]:
    """`errors` as a tuple of well-formed `ModeledError`s (the operation's errors, which
    give a bare HTTP status code its name for `errorType`)."""
    usage = (
        f"custom waiter {name!r}: errors must be a list of "
        "waitable.ModeledError(name, http_status=...), the operation's errors"
    )
    example = 'errors=[ModeledError("ServiceUnavailable", http_status=503)]'
    if isinstance(errors, ModeledError):
        raise WaiterDefinitionError(
            f"{usage}, got one ModeledError; pass errors=[{errors!r:.80}]"
        )
    if not _iterable(errors):
        raise WaiterDefinitionError(f"{usage}, got {_given(errors)}; pass {example}")
    checked = tuple(cast(Iterable[Any], errors))
    for index, error in enumerate(checked):
        if isinstance(error, str):
            raise WaiterDefinitionError(
                f"{usage}, got the string {describe_value(error)} at index {index}; "
                f"pass ModeledError({describe_value(error)}, http_status=...) with the "
                "HTTP status the service answers that error with"
            )
        if not isinstance(error, ModeledError):
            raise WaiterDefinitionError(
                f"{usage}, got {_given(error)} at index {index}; pass {example}"
            )
    return checked


def _checked_backoff(name: str, backoff: Any) -> Backoff | None:
    """The builder's `backoff`, checked when the class is built (not when first used)."""
    return None if backoff is None else validate_backoff(name, backoff)


def _with_mode(definition: WaiterDefinition, mode: JMESPathMode) -> WaiterDefinition:
    """The definition with every path and message compiled as `mode` says."""
    acceptors = []
    for acceptor in definition.acceptors:
        matcher = acceptor.matcher
        if isinstance(matcher, (OutputMatcher, InputOutputMatcher)):
            matcher = dataclasses.replace(
                matcher, search=compile_path(matcher.path, mode)
            )
        message_search = (
            None if acceptor.message is None else compile_path(acceptor.message, mode)
        )
        acceptors.append(
            Acceptor(acceptor.state, matcher, acceptor.message, message_search)
        )
    return dataclasses.replace(definition, acceptors=tuple(acceptors))


def _classes(
    definition: WaiterDefinition, settings: _Settings, caller: Any
) -> type[CustomWaiter]:
    """The sync class and its `.Async` twin for one custom definition."""
    name = definition.name
    if settings.max_attempts is not None:
        validate_max_attempts(name, settings.max_attempts)
    if settings.max_wait_time is not None:
        validate_seconds(name, "max_wait_time", settings.max_wait_time)
    if not isinstance(settings.delay_before_first_attempt, bool):
        raise WaiterConfigurationError(
            f"custom waiter {name!r}: delay_before_first_attempt must be True or False"
        )
    if settings.module is not None and not isinstance(settings.module, str):
        raise WaiterConfigurationError(
            f"custom waiter {name!r}: module must be a module name (a string, e.g. "
            f"__name__) for the classes' __module__, or None; got {_given(settings.module)}"
        )
    if settings.jmespath not in ("compiled", "interpreted"):
        raise WaiterConfigurationError(
            f"custom waiter {name!r}: jmespath mode must be 'compiled' or 'interpreted', "
            f"got {_given(settings.jmespath)}"
        )
    definition = _with_mode(definition, settings.jmespath)
    class_name = name if name.isidentifier() else "CustomWaiter"
    attributes: dict[str, Any] = {
        "definition": definition,
        "operation_method": settings.operation_method,
        "tags": definition.tags,
        "delay_before_first_attempt": settings.delay_before_first_attempt,
        "default_max_wait_time": settings.max_wait_time,
        "default_max_attempts": settings.max_attempts,
        "default_backoff": settings.backoff,
        "default_retry_on": settings.retry_on,
        "__doc__": _docstring(
            definition.documentation
            or f"Waits until {name} reaches a success state (a custom waiter)."
        ),
        "__module__": settings.module or caller or __name__,
    }
    async_class = type(f"Async{class_name}", (AsyncCustomWaiter,), dict(attributes))
    attributes["Async"] = async_class
    sync_class = type(class_name, (CustomWaiter,), attributes)
    async_class.__qualname__ = f"{class_name}.Async"
    return cast(type[CustomWaiter], sync_class)


def _docstring(text: str) -> str:
    """`text` as a class's `__doc__`, which Python stores as UTF-8: a lone surrogate
    (JSON may carry one, `"\\ud800"`) becomes U+FFFD, as in generated docstrings."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(
            "\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text
        )
    return text
