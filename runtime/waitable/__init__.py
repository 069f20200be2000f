"""waitable: the runtime that generated Smithy waiters delegate to.

The spec's waiter workflow and retry delay, written once (`waitable.flow`) and
driven synchronously or with asyncio; immutable waiter definitions; results,
errors, backoff strategies and a virtual clock for tests (`waitable.testing`).
"""

from .backoff import (
    Backoff,
    DecorrelatedJitter,
    ExponentialDelay,
    ExponentialEqualJitter,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    FixedDelay,
    FixedDelayWithJitter,
    IncrementalDelay,
    RetryContext,
    RetryImmediately,
    SmithyBackoff,
)
from .clock import Clock, SystemClock
from .definition import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    Matcher,
    ModeledError,
    OutputMatcher,
    SuccessMatcher,
    WaiterDefinition,
    WaiterDefinitionError,
)
from .errors import (
    WaiterConfigurationError,
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from .invoke import AsyncClientError
from .rate_limit import Limiter, RateLimiter, limit_rate
from .results import Attempt, Retry, WaiterResult
from .steps import PollStep, SavedWait
from .waiter import AsyncWaiter, Waiter

__all__ = [
    "Acceptor",
    "AcceptorState",
    "AsyncClientError",
    "AsyncWaiter",
    "Attempt",
    "Backoff",
    "Clock",
    "Comparator",
    "DecorrelatedJitter",
    "ErrorTypeMatcher",
    "ExponentialDelay",
    "ExponentialEqualJitter",
    "ExponentialFullJitter",
    "ExponentialHalfJitter",
    "FixedDelay",
    "FixedDelayWithJitter",
    "IncrementalDelay",
    "Limiter",
    "InputOutputMatcher",
    "Matcher",
    "ModeledError",
    "OutputMatcher",
    "PollStep",
    "RateLimiter",
    "Retry",
    "RetryContext",
    "RetryImmediately",
    "SavedWait",
    "SmithyBackoff",
    "SuccessMatcher",
    "SystemClock",
    "Waiter",
    "WaiterConfigurationError",
    "WaiterDefinition",
    "WaiterDefinitionError",
    "WaiterError",
    "WaiterFailureStateError",
    "WaiterMaxAttemptsError",
    "WaiterOperationError",
    "WaiterResult",
    "WaiterTimeoutError",
    "limit_rate",
]
