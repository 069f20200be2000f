"""Seed 001's retry directives: what a retry policy tells the retry loop to do.

A policy maps one try's outcome to a directive: stop with the result
(`TerminateAndSucceed`), stop with the error (`TerminateAndFail`), or try again
(`RetryError`, carrying the `RetryErrorType` that decides how much the retry costs).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

__all__ = [
    "TERMINATE_AND_FAIL",
    "TERMINATE_AND_SUCCEED",
    "RetryDirective",
    "RetryError",
    "RetryErrorType",
    "TerminateAndFail",
    "TerminateAndSucceed",
]


class RetryErrorType(str, Enum):
    """The class of a retryable error (seed 001's `RetryErrorType`), valued by its spec name."""

    SERVER_SIDE = "ServerSide"
    CLIENT_SIDE = "ClientSide"
    THROTTLING = "Throttling"
    TIMEOUT = "Timeout"


@dataclass(frozen=True, slots=True)
class TerminateAndSucceed:
    """Stop retrying and hand the try's result to the caller."""


@dataclass(frozen=True, slots=True)
class TerminateAndFail:
    """Stop retrying and raise the try's error."""


@dataclass(frozen=True, slots=True)
class RetryError:
    """Try again; `reason` says what kind of error this was (and so what the retry costs)."""

    reason: RetryErrorType


RetryDirective: TypeAlias = TerminateAndSucceed | TerminateAndFail | RetryError

#: The one `TerminateAndSucceed` a policy needs (all instances are equal).
TERMINATE_AND_SUCCEED = TerminateAndSucceed()
#: The one `TerminateAndFail` a policy needs (all instances are equal).
TERMINATE_AND_FAIL = TerminateAndFail()
