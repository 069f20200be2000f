"""Seed 001's retry primitives: directives, the standard policy, the token bucket.

All I/O-free: a policy maps an outcome to a directive, and the bucket answers
"paid" or "wait this long" for a clock reading it is given. The retry loop that
uses them lives in the engine (`waitable.flow`); `StandardRetryStrategy` is its
front end for retrying any block, and a waiter's `retry=`.
"""

from .directives import (
    TERMINATE_AND_FAIL,
    TERMINATE_AND_SUCCEED,
    RetryDirective,
    RetryError,
    RetryErrorType,
    TerminateAndFail,
    TerminateAndSucceed,
)
from .policy import RetryPolicy, StandardRetryPolicy
from .strategy import (
    RetryAttemptsExceededError,
    RetryCancelledError,
    RetryFailedError,
    RetryStrategy,
    RetryStrategyError,
    RetryTimeoutError,
    StandardRetryStrategy,
)
from .token_bucket import (
    RetryCapacityExceededError,
    RetryToken,
    StandardRetryTokenBucket,
)

__all__ = [
    "TERMINATE_AND_FAIL",
    "TERMINATE_AND_SUCCEED",
    "RetryAttemptsExceededError",
    "RetryCancelledError",
    "RetryCapacityExceededError",
    "RetryDirective",
    "RetryError",
    "RetryErrorType",
    "RetryFailedError",
    "RetryPolicy",
    "RetryStrategy",
    "RetryStrategyError",
    "RetryTimeoutError",
    "RetryToken",
    "StandardRetryPolicy",
    "StandardRetryStrategy",
    "StandardRetryTokenBucket",
    "TerminateAndFail",
    "TerminateAndSucceed",
]
