"""The exit statuses of `waitable wait`, one per way a wait can end, for scripts to test."""

from __future__ import annotations

from enum import IntEnum

from ..errors import (
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)

__all__ = ["ExitCode", "exit_code_of"]


class ExitCode(IntEnum):
    """How `waitable wait` ended; the AWS CLI's `wait` says 255 for all failures alike."""

    SUCCESS = 0
    FAILURE_STATE = 1
    USAGE = 2
    TIMEOUT = 3
    ATTEMPTS_EXHAUSTED = 4
    OPERATION_ERROR = 5
    UNEXPECTED_ERROR = 6
    INTERRUPTED = 130


def exit_code_of(error: WaiterError) -> ExitCode:
    """The exit status for a wait that ended with `error`."""
    if isinstance(error, WaiterFailureStateError):
        return ExitCode.FAILURE_STATE
    if isinstance(error, WaiterTimeoutError):
        return ExitCode.TIMEOUT
    if isinstance(error, WaiterMaxAttemptsError):
        return ExitCode.ATTEMPTS_EXHAUSTED
    if isinstance(error, WaiterOperationError):
        return ExitCode.OPERATION_ERROR
    return ExitCode.UNEXPECTED_ERROR
