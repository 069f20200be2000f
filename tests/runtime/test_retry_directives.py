"""Seed 001's retry directives: values, equality, immutability."""

from __future__ import annotations

import dataclasses

import pytest

from waitable.retry.directives import (
    TERMINATE_AND_FAIL,
    TERMINATE_AND_SUCCEED,
    RetryError,
    RetryErrorType,
    TerminateAndFail,
    TerminateAndSucceed,
)


def test_error_types_carry_the_seed_names() -> None:
    assert [t.value for t in RetryErrorType] == [
        "ServerSide",
        "ClientSide",
        "Throttling",
        "Timeout",
    ]
    assert RetryErrorType("Throttling") is RetryErrorType.THROTTLING
    assert RetryErrorType.TIMEOUT == "Timeout"  # type: ignore[comparison-overlap]


def test_directives_compare_by_value() -> None:
    assert TerminateAndSucceed() == TERMINATE_AND_SUCCEED
    assert TerminateAndFail() == TERMINATE_AND_FAIL
    assert TERMINATE_AND_SUCCEED != TERMINATE_AND_FAIL  # type: ignore[comparison-overlap]
    assert RetryError(RetryErrorType.TIMEOUT) == RetryError(RetryErrorType.TIMEOUT)
    assert RetryError(RetryErrorType.TIMEOUT) != RetryError(RetryErrorType.THROTTLING)
    assert len({RetryError(r) for r in RetryErrorType}) == 4


def test_directives_are_frozen_and_slotted() -> None:
    directive = RetryError(RetryErrorType.SERVER_SIDE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        directive.reason = RetryErrorType.CLIENT_SIDE  # type: ignore[misc]
    for value in (directive, TERMINATE_AND_SUCCEED, TERMINATE_AND_FAIL):
        assert not hasattr(value, "__dict__")


def test_directives_match_structurally() -> None:
    def reason_of(directive: object) -> str:
        match directive:
            case TerminateAndSucceed():
                return "succeed"
            case TerminateAndFail():
                return "fail"
            case RetryError(reason=reason):
                return reason.value
        return "?"

    assert reason_of(TERMINATE_AND_SUCCEED) == "succeed"
    assert reason_of(TERMINATE_AND_FAIL) == "fail"
    assert reason_of(RetryError(RetryErrorType.CLIENT_SIDE)) == "ClientSide"
