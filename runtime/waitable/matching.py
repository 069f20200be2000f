"""Acceptor evaluation: which acceptor, if any, matches one poll's outcome.

Acceptors are tried in order and the first match decides. `output` and
`inputOutput` matchers only see successful responses, `errorType` only errors,
`success` both.

Evaluation is total: whatever a response holds, evaluating an acceptor ends in
exactly one of three ways.

1. **It matches**: the path's value, in the JMESPath data model, satisfies the
   comparator.
2. **It does not match**, and the next acceptor is tried, when the value cannot
   be compared (the spec's comparators match only a value of their type):

   - the path fails on this data as JMESPath defines it (`length(null)`, a
     function given the wrong type): `JMESPathEvaluationError` from a compiled
     path, `JMESPathError` from the `jmespath` package;
   - the response, or the part of it the path reads, lies outside what the data
     model can hold: nested deeper than Python's recursion limit lets us walk,
     holding itself (a cycle), or holding a number that cannot be turned into
     a double or printed (`10**5000` summed with a float, `ceil(inf)` in the
     interpreter). Python reports these as `RecursionError`, `ArithmeticError`
     (`OverflowError`, the `decimal` signals) and `ValueError` (the
     int-to-string digit limit, NaN to integer); all of them, from the
     conversion, the path or the comparator, mean "does not match".

   When the parts of the output the acceptors read cannot be put in the data
   model together, each path matcher converts only the parts its own path reads:
   a matcher whose parts cannot be converted does not match, the others are
   judged as usual (their `message` then sees only those parts). A failure
   acceptor's `message` that cannot be evaluated gives no reason.
3. **`WaiterEvaluationError`** (a `WaiterError`) for any other exception raised
   while evaluating: an exception from a client's own objects (a mapping
   subclass whose `get` raises) or a bug. It names the waiter, the acceptor
   index and the matcher, and chains the original as `__cause__`.

`MemoryError` and exceptions that are not `Exception`s (`KeyboardInterrupt`,
`asyncio.CancelledError`) pass through untouched: they are not about the
response. A comparator given a value of the wrong type, a non-JSON Python
object included, returns False without raising.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from jmespath.exceptions import JMESPathError

from .comparators import Comparison, string_equals
from .datamodel import to_jmespath
from .definition import (
    Acceptor,
    AcceptorState,
    BotocoreErrorMatcher,
    BotocorePathMatcher,
    BotocorePathMode,
    ErrorTypeMatcher,
    Matcher,
    PathMatcher,
    Search,
    StatusMatcher,
    SuccessMatcher,
    WaiterDefinition,
)
from .error_codes import modeled_class_name
from .errors import WaiterConfigurationError, WaiterEvaluationError
from .printable import shortened
from .seconds import describe_value
from .jmespath_runtime import JMESPathEvaluationError
from .outputs import OutputConverter

__all__ = [
    "NO_MATCH_ERRORS",
    "Verdict",
    "input_to_jmespath",
    "match_error",
    "match_output",
]

logger = logging.getLogger("waitable")
_UNSET: Any = object()
_UNREADABLE: Any = object()  # the output could not be put in the data model


@dataclass(frozen=True, slots=True)
class Verdict:
    """The decision for one poll: the state, the acceptor that chose it, its message."""

    state: AcceptorState
    acceptor_index: int | None
    reason: str | None = None


NO_MATCH_ERRORS: tuple[type[Exception], ...] = (
    JMESPathError,
    JMESPathEvaluationError,
    RecursionError,
    ArithmeticError,
    ValueError,
)
"""What evaluating a matcher may raise when the value cannot be compared: no match."""


_RETRY = Verdict(AcceptorState.RETRY, None)


def _why(exc: BaseException) -> str:
    """The error's text for a log line; its class name when the text cannot be built."""
    try:
        return f"{type(exc).__name__}: {exc}"[:300]
    except Exception:  # a message holding a huge int or a deep value
        return type(exc).__name__


def _no_match(
    definition: WaiterDefinition, index: int, what: str, exc: BaseException
) -> None:
    if not logger.isEnabledFor(logging.DEBUG):
        return
    logger.debug(
        "%s: acceptor %d's %s could not be evaluated, so it does not match: %s",
        definition.name,
        index,
        what,
        _why(exc),
    )


def _unexpected(
    definition: WaiterDefinition, index: int, matcher: Matcher, exc: Exception
) -> WaiterEvaluationError:
    error = WaiterEvaluationError(
        definition.name,
        acceptor_index=index,
        matcher=matcher.describe(),
        cause_type=type(exc).__name__,
    )
    error.__cause__ = exc
    return error


def _search(search: Search, data: Any, definition: WaiterDefinition, index: int) -> Any:
    """Run a compiled path; a value that cannot be evaluated yields `_UNSET`."""
    try:
        return search(data)
    except NO_MATCH_ERRORS as exc:
        _no_match(definition, index, "path", exc)
        return _UNSET


def _convert(
    definition: WaiterDefinition,
    output: Any,
    index: int,
    converter: OutputConverter | None = None,
) -> Any:
    """The output in the data model, or `_UNREADABLE` when it cannot be put there.

    `converter` is the definition's (every part any path reads) unless given.
    """
    try:
        return (converter or definition.output_converter)(output)
    except NO_MATCH_ERRORS as exc:
        _no_match(definition, index, "output (in the JMESPath data model)", exc)
        return _UNREADABLE


def _message(
    acceptor: Acceptor, data: Any, definition: WaiterDefinition, index: int
) -> str | None:
    """The acceptor's `message` evaluated on `data`: a string, or a list joined with "; "."""
    if acceptor.compiled_message is None or data is _UNSET or data is _UNREADABLE:
        return None
    return reason_text(_search(acceptor.compiled_message, data, definition, index))


#: The longest failure reason kept from a response (the rest is cut, with "...").
REASON_LIMIT = 1000


def reason_text(value: Any) -> str | None:
    """A failure acceptor's `message` value as the reason: a string, or the strings
    of a list joined with "; " (exactly their text, whatever their class), at most
    `REASON_LIMIT` characters; None when there is no text."""
    if isinstance(value, str):
        text = str.__str__(value)
    elif isinstance(value, list):
        parts = [str.__str__(item) for item in value if isinstance(item, str)]
        text = "; ".join(part for part in parts if part)
    else:
        return None
    return _clipped(text, REASON_LIMIT) if text else None


#: One `output` matcher as `match_output`'s plain path runs it: the slot of its
#: path's value (acceptors with the same path share one), the compiled path, the
#: comparison, the expected value, and the verdict of a match.
OutputCheck = tuple[int, Search, Comparison, str, Verdict]


class OutputChecks(NamedTuple):
    """A definition's plain `output` acceptors, in order, and how many distinct paths
    they read (`paths == len(checks)`: no path is shared, none needs remembering)."""

    checks: tuple[OutputCheck, ...]
    paths: int


def output_checks(definition: WaiterDefinition) -> OutputChecks | None:
    """The acceptors a response can match, as plain checks; None when some acceptor
    needs the general path (inputOutput, a message, `success`, botocore's matchers).

    Error-type acceptors never match a response, so they are left out. Made once
    per definition (kept on it): every verdict is made here, not per poll.
    """
    made = definition.output_checks
    if made is not None:
        return made or None
    checks: list[OutputCheck] = []
    slots: dict[str, int] = {}
    for index, acceptor in enumerate(definition.acceptors):
        matcher = acceptor.matcher
        if isinstance(matcher, ErrorTypeMatcher):
            continue
        if (
            not isinstance(matcher, PathMatcher)
            or matcher.input_output
            or acceptor.compiled_message is not None
        ):
            checks = []
            break
        slot = slots.setdefault(matcher.path, len(slots))
        verdict = Verdict(acceptor.state, index)
        checks.append(
            (slot, matcher.compiled, matcher.comparison, matcher.expected, verdict)
        )
    made = OutputChecks(tuple(checks), len(slots)) if checks else ()
    object.__setattr__(definition, "output_checks", made)
    return made or None


def match_output(definition: WaiterDefinition, output: Any, input_data: Any) -> Verdict:
    """Judge a successful response; no match is the implicit retry, except for
    botocore's data, where a response holding `Error.Code` that no acceptor
    matched is the implicit failure, as botocore's `Waiter.wait` has it.

    `input_data` is the operation input already in the JMESPath data model. The
    output is put in the data model at most once, and only if some acceptor reads
    it; a path shared by acceptors runs once. Raises only `WaiterEvaluationError`
    (see the module docstring).

    Plain `output` acceptors run as `output_checks`; anything they raise sends the
    response down the general path, which runs the same pure functions again and
    says exactly what failed.
    """
    plain: OutputChecks | None = definition.output_checks
    if plain is None:
        plain = output_checks(definition)
    if plain:
        try:
            converter = definition.output_converter
            if type(output) is dict and converter.passes_dicts:
                data = output
            else:
                data = converter(output)
            checks = plain.checks
            if plain.paths == len(checks):
                for _, search, comparison, expected, verdict in checks:
                    value = search(data)
                    # `string_equals` of a string, without the call
                    if (
                        value == expected
                        if type(value) is str and comparison is string_equals
                        else comparison(value, expected)
                    ):
                        return verdict
                return _RETRY
            ran = [_UNSET] * plain.paths  # each path's value, once it has run
            for slot, search, comparison, expected, verdict in checks:
                value = ran[slot]
                if value is _UNSET:
                    value = ran[slot] = search(data)
                if comparison(value, expected):
                    return verdict
            return _RETRY
        except Exception:
            pass
    data = _UNSET
    values: dict[tuple[bool, str], Any] = {}  # a path shared by acceptors runs once
    for index, acceptor in enumerate(definition.acceptors):
        matcher = acceptor.matcher
        try:
            seen: Any = _UNSET
            both = False
            if isinstance(matcher, PathMatcher):
                if data is _UNSET:
                    data = _convert(definition, output, index)
                own = data
                if data is _UNREADABLE:  # convert only what this path reads
                    own = _convert(definition, output, index, matcher.output_converter)
                    if own is _UNREADABLE:
                        continue
                both = matcher.input_output
                seen = {"input": input_data, "output": own} if both else own
                key = (both, matcher.path)
                value = values.get(key, _UNSET) if own is data else _UNSET
                if value is _UNSET:
                    try:
                        value = matcher.compiled(seen)
                    except NO_MATCH_ERRORS as exc:
                        _no_match(definition, index, "path", exc)
                        continue
                    values[key] = value
                try:
                    hit = matcher.comparison(value, matcher.expected)
                except NO_MATCH_ERRORS as exc:
                    _no_match(definition, index, "comparator", exc)
                    continue
            elif isinstance(matcher, SuccessMatcher):
                hit = matcher.success
            elif isinstance(
                matcher, (BotocorePathMatcher, BotocoreErrorMatcher, StatusMatcher)
            ):
                hit = _botocore_hit(matcher, output, definition, index)
            else:
                continue
            if hit:
                if acceptor.compiled_message is None:
                    return Verdict(acceptor.state, index, None)
                # The message reads the output (the spec), also for `inputOutput`.
                if seen is _UNSET or both:
                    if data is _UNSET:
                        data = _convert(definition, output, index)
                    seen = data if seen is _UNSET else seen["output"]
                return Verdict(
                    acceptor.state, index, _message(acceptor, seen, definition, index)
                )
        except MemoryError:
            raise
        except Exception as exc:
            raise _unexpected(definition, index, matcher, exc) from exc
    if _is_error_response(output) and _from_botocore(definition):
        return _error_response_failure(output)
    return _RETRY


def _error_response_failure(output: Mapping[str, Any]) -> Verdict:
    """botocore's implicit failure for a response holding `Error.Code` that no
    acceptor matched, with its reason as botocore words it."""
    error = output["Error"]
    code, message = error.get("Code"), error.get("Message", "Unknown")
    return Verdict(
        AcceptorState.FAILURE,
        None,
        f"the response holds an error no acceptor matches: ({_clipped(code, 80)}) "
        f"{_clipped(message, 200)}",
    )


def _clipped(value: Any, limit: int) -> str:
    """A response's text for a message, at most `limit` characters (any value)."""
    if isinstance(value, str):
        return shortened(value, limit)
    return describe_value(value)


def _from_botocore(definition: WaiterDefinition) -> bool:
    """Whether `definition` came from botocore's waiter data (its matchers do)."""
    return any(
        isinstance(
            acceptor.matcher,
            (BotocorePathMatcher, BotocoreErrorMatcher, StatusMatcher),
        )
        for acceptor in definition.acceptors
    )


def match_error(
    definition: WaiterDefinition, error: Exception, code: str
) -> Verdict | None:
    """Judge an error with code `code`; None means no acceptor matched (the implicit failure).

    A failure acceptor's `message` is evaluated on the error's botocore-style
    `response` mapping when it has one. Raises only `WaiterEvaluationError`.

    With botocore's data, only a `ClientError` (an error with a `response`
    mapping) is judged, and one whose response holds no `Error.Code` is judged as
    a response, as botocore's `Waiter.wait` judges both.
    """
    botocore = _from_botocore(definition)
    response = _response_of(error) if botocore else None
    if botocore and response is not None and not _is_error_response(response):
        return match_output(definition, response, None)
    for index, acceptor in enumerate(definition.acceptors):
        matcher = acceptor.matcher
        if isinstance(matcher, SuccessMatcher):
            hit = not matcher.success
        elif isinstance(matcher, ErrorTypeMatcher):
            # the code, or the shape's name when the wire code differs (awsQuery)
            hit = matcher.name == code or matcher.name == modeled_class_name(error)
        elif isinstance(matcher, (BotocoreErrorMatcher, StatusMatcher)):
            if response is None:
                # No `ClientError`: botocore's waiter never judges it (it leaves
                # `wait()`), so no botocore acceptor matches: the wait fails on it.
                continue
            try:
                hit = _botocore_hit(matcher, response, definition, index)
            except MemoryError:
                raise
            except Exception as exc:
                raise _unexpected(definition, index, matcher, exc) from exc
        else:
            hit = False
        if hit:
            try:
                seen = _error_response(acceptor, error, definition, index)
                reason = _message(acceptor, seen, definition, index)
            except MemoryError:
                raise
            except Exception as exc:
                raise _unexpected(definition, index, matcher, exc) from exc
            return Verdict(acceptor.state, index, reason)
    return None


def _error_response(
    acceptor: Acceptor, error: Exception, definition: WaiterDefinition, index: int
) -> Any:
    """The error's `response` mapping in the data model, when a message will read it."""
    if acceptor.compiled_message is None:
        return _UNSET
    response = getattr(error, "response", None)
    if not isinstance(response, Mapping):
        return _UNSET
    try:
        return to_jmespath(response)
    except NO_MATCH_ERRORS as exc:
        _no_match(definition, index, "error response (in the JMESPath data model)", exc)
        return _UNREADABLE


def _response_of(error: Exception) -> Mapping[str, Any] | None:
    """The error's botocore `response` mapping; None when it has none, or reading
    it raises (a client's object, not trusted)."""
    try:
        response = getattr(error, "response", None)
        return response if isinstance(response, Mapping) else None
    except Exception:
        return None


def _is_error_response(response: Any) -> bool:
    """botocore's `is_valid_waiter_error`: an `Error` mapping that holds a `Code`."""
    if not isinstance(response, Mapping):
        return False
    error = response.get("Error")
    return isinstance(error, dict) and "Code" in error


def _botocore_hit(
    matcher: BotocorePathMatcher | BotocoreErrorMatcher | StatusMatcher,
    response: Any,
    definition: WaiterDefinition,
    index: int,
) -> bool:
    """A botocore matcher on a parsed response (an output, or an error's `response`).

    The same decisions as botocore's `AcceptorConfig` matchers, with `==` on the
    raw values; a path that cannot be evaluated, or a value whose `==` raises,
    does not match (botocore would raise instead).
    """
    mapping: Mapping[str, Any] = response if isinstance(response, Mapping) else {}
    if isinstance(matcher, StatusMatcher):
        metadata = mapping.get("ResponseMetadata", {})
        status = (
            metadata.get("HTTPStatusCode") if isinstance(metadata, Mapping) else None
        )
        return bool(status == matcher.status)
    if isinstance(matcher, BotocoreErrorMatcher):
        expected = matcher.expected
        if expected is True:
            error = mapping.get("Error")
            return error is not None and "Code" in error
        if expected is False:
            return "Error" not in mapping
        error = mapping.get("Error", {})
        return bool(isinstance(error, Mapping) and error.get("Code", "") == expected)
    if _is_error_response(response):
        return False
    value = _search(matcher.compiled, response, definition, index)
    if value is _UNSET:
        return False
    expected = matcher.expected
    try:
        if matcher.mode is BotocorePathMode.PATH:
            return bool(value == expected)
        if not isinstance(value, list) or not value:
            return False
        if matcher.mode is BotocorePathMode.PATH_ALL:
            return all(item == expected for item in value)
        return any(item == expected for item in value)
    except NO_MATCH_ERRORS as exc:
        _no_match(definition, index, "comparison", exc)
        return False


def input_to_jmespath(definition: WaiterDefinition, input: Any) -> Any:
    """The operation input in the JMESPath data model, converted once per wait.

    The input is the caller's, so one that cannot be put in the data model (it
    holds itself, or nests deeper than Python's recursion limit) is a
    `WaiterConfigurationError` raised before any request.
    """
    try:
        return to_jmespath(input)
    except NO_MATCH_ERRORS as exc:
        raise WaiterConfigurationError(
            f"waiter {definition.name}: the input cannot be put in the JMESPath data "
            f"model ({type(exc).__name__}: it holds itself, nests too deeply or holds "
            "an unconvertible value); pass plain data: dicts, lists, strings, numbers"
        ) from None
