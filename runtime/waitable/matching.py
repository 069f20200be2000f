"""Acceptor evaluation: which acceptor, if any, matches one poll's outcome.

Acceptors are tried in order and the first match decides. `output` and
`inputOutput` matchers only see successful responses, `errorType` only errors,
`success` both. A path whose evaluation fails at run time (a JMESPath function
given a value of the wrong type, such as `length(null)`) does not match; the
waiter goes on to the next acceptor instead of crashing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jmespath.exceptions import JMESPathError

from .datamodel import to_jmespath
from .jmespath_runtime import JMESPathEvaluationError
from .definition import (
    Acceptor,
    AcceptorState,
    ErrorTypeMatcher,
    InputOutputMatcher,
    OutputMatcher,
    Search,
    SuccessMatcher,
    WaiterDefinition,
)

__all__ = ["Verdict", "match_error", "match_output"]

logger = logging.getLogger("waitable")
_UNSET: Any = object()


@dataclass(frozen=True, slots=True)
class Verdict:
    """The decision for one poll: the state, the acceptor that chose it, its message."""

    state: AcceptorState
    acceptor_index: int | None
    reason: str | None = None


#: JMESPath's own error and the compiled runtime's, both meaning "no match".
_EVALUATION_ERRORS = (JMESPathError, JMESPathEvaluationError)


_RETRY = Verdict(AcceptorState.RETRY, None)


def _search(search: Search, data: Any, definition: WaiterDefinition, index: int) -> Any:
    """Run a compiled path; a run-time evaluation error yields a value nothing matches."""
    try:
        return search(data)
    except _EVALUATION_ERRORS as exc:
        logger.debug(
            "%s: acceptor %d's path failed to evaluate, so it does not match: %s",
            definition.name,
            index,
            exc,
        )
        return _UNSET


def _message(
    acceptor: Acceptor, data: Any, definition: WaiterDefinition, index: int
) -> str | None:
    """The acceptor's `message` evaluated on `data`: a string, or a list joined with "; "."""
    if acceptor.compiled_message is None or data is _UNSET:
        return None
    value = _search(acceptor.compiled_message, data, definition, index)
    if isinstance(value, str):
        return value or None
    if isinstance(value, list):
        parts = [item for item in value if isinstance(item, str) and item]
        return "; ".join(parts) or None
    return None


def match_output(definition: WaiterDefinition, output: Any, input_data: Any) -> Verdict:
    """Judge a successful response; no match is the implicit retry.

    `input_data` is the operation input already in the JMESPath data model. The
    output is put in the data model at most once, and only if some acceptor reads it.
    """
    data = _UNSET
    values: dict[tuple[bool, str], Any] = {}  # a path shared by acceptors runs once
    for index, acceptor in enumerate(definition.acceptors):
        matcher = acceptor.matcher
        seen: Any = _UNSET
        if isinstance(matcher, (OutputMatcher, InputOutputMatcher)):
            if data is _UNSET:
                data = definition.output_converter(output)
            both = isinstance(matcher, InputOutputMatcher)
            seen = {"input": input_data, "output": data} if both else data
            key = (both, matcher.path)
            value = values.get(key, _UNSET)
            if value is _UNSET:
                value = values[key] = _search(matcher.compiled, seen, definition, index)
            hit = matcher.comparison(value, matcher.expected)
        elif isinstance(matcher, SuccessMatcher):
            hit = matcher.success
        else:
            hit = False
        if hit:
            if seen is _UNSET and acceptor.compiled_message is not None:
                if data is _UNSET:
                    data = definition.output_converter(output)
                seen = data
            return Verdict(
                acceptor.state, index, _message(acceptor, seen, definition, index)
            )
    return _RETRY


def match_error(
    definition: WaiterDefinition, error: Exception, code: str
) -> Verdict | None:
    """Judge an error with code `code`; None means no acceptor matched (the implicit failure).

    A failure acceptor's `message` is evaluated on the error's botocore-style
    `response` mapping when it has one.
    """
    for index, acceptor in enumerate(definition.acceptors):
        matcher = acceptor.matcher
        if isinstance(matcher, SuccessMatcher):
            hit = not matcher.success
        elif isinstance(matcher, ErrorTypeMatcher):
            hit = matcher.name == code
        else:
            hit = False
        if hit:
            response = getattr(error, "response", None)
            seen = to_jmespath(response) if isinstance(response, Mapping) else _UNSET
            return Verdict(
                acceptor.state, index, _message(acceptor, seen, definition, index)
            )
    return None
