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
from .results import Attempt, WaiterResult
from .waiter import AsyncWaiter, Waiter

__all__ = [
    "Acceptor",
    "AcceptorState",
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
    "InputOutputMatcher",
    "Matcher",
    "ModeledError",
    "OutputMatcher",
    "RetryContext",
    "RetryImmediately",
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
]
