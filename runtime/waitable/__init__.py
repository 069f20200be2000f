"""waitable: the runtime that generated Smithy waiters delegate to.

The spec's waiter workflow and retry delay, written once (`waitable.flow`) and
driven synchronously or with asyncio; immutable waiter definitions; results,
errors, backoff strategies and a virtual clock for tests (`waitable.testing`).
The same engine runs retries (`waitable.retry`), rate limits (`limit_rate`,
`RateLimiter`), waits saved between polls (`start`/`poll_once`, `SavedWait`),
custom waiters without a model (`custom_waiter`) and seed 002's `Poller`.
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
    BotocoreErrorMatcher,
    BotocorePathMatcher,
    BotocorePathMode,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    Matcher,
    ModeledError,
    OutputMatcher,
    StatusMatcher,
    SuccessMatcher,
    WaiterDefinition,
    WaiterDefinitionError,
)
from .errors import (
    WaiterCancelledError,
    WaiterConfigurationError,
    WaiterError,
    WaiterEvaluationError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from .botocore_waiters import (
    AsyncBotocoreDefaultsWaiter,
    BotocoreDefaultsWaiter,
    BotocoreWaiter,
)
from .config import NamedStrategy, WaiterConfig, named_strategy
from .custom import (
    AsyncCustomWaiter,
    CustomWaiter,
    custom_waiter,
    custom_waiter_from_trait,
)
from .invoke import AsyncClientError
from .poller import (
    NotReady,
    PollAttempt,
    Poller,
    PollerState,
    PollStatus,
    Ready,
    RetriesExhaustedError,
)
from .receive import ReceiveTimeoutError, receive_next
from .rate_limit import Limiter, RateLimiter, limit_rate
from .results import Attempt, Retry, WaiterResult
from .steps import PollDone, PollPending, PollStep, SavedWait
from .version import __version__ as __version__
from .version import require
from .waiter import AsyncWaiter, Waiter

__all__ = [
    "Acceptor",
    "AcceptorState",
    "AsyncBotocoreDefaultsWaiter",
    "AsyncClientError",
    "AsyncCustomWaiter",
    "AsyncWaiter",
    "Attempt",
    "Backoff",
    "BotocoreDefaultsWaiter",
    "BotocoreErrorMatcher",
    "BotocorePathMatcher",
    "BotocorePathMode",
    "BotocoreWaiter",
    "Clock",
    "Comparator",
    "CustomWaiter",
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
    "Limiter",
    "Matcher",
    "ModeledError",
    "NamedStrategy",
    "NotReady",
    "OutputMatcher",
    "PollAttempt",
    "PollDone",
    "PollPending",
    "PollStatus",
    "PollStep",
    "Poller",
    "PollerState",
    "RateLimiter",
    "Ready",
    "ReceiveTimeoutError",
    "RetriesExhaustedError",
    "Retry",
    "RetryContext",
    "RetryImmediately",
    "SavedWait",
    "SmithyBackoff",
    "StatusMatcher",
    "SuccessMatcher",
    "SystemClock",
    "Waiter",
    "WaiterConfig",
    "WaiterCancelledError",
    "WaiterConfigurationError",
    "WaiterDefinition",
    "WaiterDefinitionError",
    "WaiterError",
    "WaiterEvaluationError",
    "WaiterFailureStateError",
    "WaiterMaxAttemptsError",
    "WaiterOperationError",
    "WaiterResult",
    "WaiterTimeoutError",
    "custom_waiter",
    "custom_waiter_from_trait",
    "limit_rate",
    "named_strategy",
    "receive_next",
    "require",
]
