"""Seed 001's retry policy: one try's outcome in, a `RetryDirective` out.

`StandardRetryPolicy` succeeds on any returned value and sorts a raised error
through tiers, the first that answers winning (seed 001's `StandardRetryPolicy`,
with the AWS lists of botocore's standard retry mode):

1. Retry information the error carries (smithy-python's `ErrorRetryInfo` and
   `HasFault`): `is_retry_safe is False` → fail, first (smithy-python: such an
   error MUST NOT be retried, whatever else it says); `is_throttling_error` →
   Throttling, `is_timeout_error` → Timeout, `is_retry_safe` with `fault`
   "server"/"client" → ServerSide/ClientSide.
   These play seed 001's `SdkBaseException`/`ServiceException` metadata tiers.
2. The error code (`waitable.error_codes.error_code`: botocore's
   `response["Error"]["Code"]`, a `code` attribute, else the class name):
   botocore's throttling codes → Throttling; its transient timeout codes → Timeout.
3. The HTTP status (`waitable.error_codes.response_status`: botocore's
   `response["ResponseMetadata"]["HTTPStatusCode"]`, or the status of urllib's,
   requests', httpx's or aiohttp's error for a response): 429 → Throttling; botocore's transient statuses 500, 502, 503, 504 → ServerSide.
4. Transport failures, recognised by class name and package along the class's
   MRO (nothing is imported): timeouts → Timeout, broken or refused connections →
   ServerSide; see `TRANSPORT_ERROR_TYPES`. awscrt's one class, `AwsCrtError`, is
   read by its `name` instead (`waitable.crt_errors`; its lasting failures, such
   as a certificate that does not verify, are not retried). An error with none of
   these is looked at again through its explicit cause (`raise ... from err`), as
   smithy-python clients wrap transport errors that way.
5. `evaluate_other_exceptions(error)`, the extension hook (seed 001's
   `evaluateOtherExceptions`): override it, or pass `other=` to the constructor.
6. Anything else → `TerminateAndFail`.

A request cut off at its time limit (`CutOff`) is a Timeout retry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar

from ..class_names import class_package
from ..crt_errors import crt_network_failure
from ..error_codes import error_code, response_status
from ..actions import CutOff, Raised, Returned
from .directives import (
    TERMINATE_AND_FAIL,
    TERMINATE_AND_SUCCEED,
    RetryDirective,
    RetryError,
    RetryErrorType,
)

__all__ = [
    "SERVER_STATUS_CODES",
    "THROTTLING_ERROR_CODES",
    "THROTTLING_STATUS_CODES",
    "TIMEOUT_ERROR_CODES",
    "TRANSPORT_ERROR_TYPES",
    "RetryPolicy",
    "StandardRetryPolicy",
]

# The output type a policy is meant for. Nominal only: `Returned.output` is `Any`,
# so mypy treats the parameter as unused, which it accepts only as covariant.
T = TypeVar("T", covariant=True)

#: botocore standard retry mode, `ThrottledRetryableChecker` (the union of the
#: codes AWS services use for throttling); aws-sdk-kotlin's `AwsDefaultRetryPolicy`
#: maps the same codes to Throttling. `PriorRequestNotComplete` is also on
#: botocore's transient list: as throttling it costs the higher retry cost.
THROTTLING_ERROR_CODES: frozenset[str] = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
    }
)

#: botocore standard retry mode, `TransientRetryableChecker` (`RequestTimeout`,
#: `RequestTimeoutException`), and `IDPCommunicationError` (botocore's
#: `special.RetryIDPCommunicationError`); aws-sdk-kotlin maps all three to Timeout.
TIMEOUT_ERROR_CODES: frozenset[str] = frozenset(
    {"RequestTimeout", "RequestTimeoutException", "IDPCommunicationError"}
)

#: HTTP 429 Too Many Requests (RFC 6585): the service asks the caller to slow down.
THROTTLING_STATUS_CODES: frozenset[int] = frozenset({429})

#: botocore standard retry mode, `TransientRetryableChecker._TRANSIENT_STATUS_CODES`.
#: (aws-sdk-kotlin calls these Timeout; here they are the server's fault, ServerSide.)
SERVER_STATUS_CODES: frozenset[int] = frozenset({500, 502, 503, 504})

_TIMEOUT = RetryErrorType.TIMEOUT
_SERVER = RetryErrorType.SERVER_SIDE

#: Transport failures by (top-level package, class name). The MRO is walked from
#: the error's own class up, so a specific entry beats its base class's entry.
#: botocore: its standard mode retries `ConnectionError` and `HTTPClientError`
#: (transient) and charges `ConnectTimeoutError`/`ReadTimeoutError` the timeout
#: cost. aiohttp: `ServerTimeoutError` (and its connect/socket timeout subclasses)
#: is a timeout; the other `ClientConnectionError`s and `ClientPayloadError` (a
#: body cut short) are transient. urllib3: `NewConnectionError` is a refused
#: connection although it subclasses `ConnectTimeoutError`; its `TimeoutError`s
#: are timeouts, `ProtocolError` (connection aborted) is transient. requests:
#: `ConnectTimeout` and `Timeout` are timeouts, `ConnectionError` is transient.
#: httpx: `TimeoutException`s are timeouts; `NetworkError`s and
#: `RemoteProtocolError` (the server broke the exchange off) are transient.
#: builtins: `TimeoutError` (also `asyncio.TimeoutError`, `socket.timeout`) and
#: `ConnectionError` (reset, refused, aborted, broken pipe).
TRANSPORT_ERROR_TYPES: Mapping[tuple[str, str], RetryErrorType] = {
    ("botocore", "ConnectTimeoutError"): _TIMEOUT,
    ("botocore", "ReadTimeoutError"): _TIMEOUT,
    ("botocore", "ConnectionError"): _SERVER,
    ("botocore", "HTTPClientError"): _SERVER,
    ("aiohttp", "ServerTimeoutError"): _TIMEOUT,
    ("aiohttp", "ClientConnectionError"): _SERVER,
    ("aiohttp", "ClientPayloadError"): _SERVER,
    ("urllib3", "NewConnectionError"): _SERVER,
    ("urllib3", "TimeoutError"): _TIMEOUT,
    ("urllib3", "ProtocolError"): _SERVER,
    ("requests", "ConnectTimeout"): _TIMEOUT,
    ("requests", "Timeout"): _TIMEOUT,
    ("requests", "ConnectionError"): _SERVER,
    ("httpx", "TimeoutException"): _TIMEOUT,
    ("httpx", "NetworkError"): _SERVER,
    ("httpx", "RemoteProtocolError"): _SERVER,
    ("builtins", "TimeoutError"): _TIMEOUT,
    ("builtins", "ConnectionError"): _SERVER,
}

# awscrt's network failures (`crt_network_failure`), as their kind in Python; a
# lasting one (a certificate that does not verify) is not retried, as Python's
# `ssl.SSLCertVerificationError` is not.
_CRT_TYPES: Mapping[str | None, RetryErrorType] = {
    "timeout": _TIMEOUT,
    "connection": _SERVER,
}

# How many explicit causes (`raise ... from err`) the transport tier looks through.
_MAX_CAUSES = 8

_DIRECTIVES = {reason: RetryError(reason) for reason in RetryErrorType}


class RetryPolicy(Protocol[T]):
    """Seed 001's `RetryPolicy<R>`: decides what the retry loop does after one try."""

    def evaluate(self, outcome: Returned | Raised | CutOff) -> RetryDirective:
        """The directive for one try's outcome."""
        ...


class StandardRetryPolicy:
    """The universal policy of seed 001: success on a value, tiers for an error.

    The tiers are listed in this module's docstring. Subclass and override
    `evaluate_other_exceptions`, or pass `other=`, for errors they do not know.
    """

    def __init__(
        self, other: Callable[[BaseException], RetryDirective | None] | None = None
    ) -> None:
        self._other = other

    def evaluate(self, outcome: Returned | Raised | CutOff) -> RetryDirective:
        """`TerminateAndSucceed` for a value, Timeout for a cut-off, the tiers for an error."""
        if isinstance(outcome, Returned):
            return TERMINATE_AND_SUCCEED
        if isinstance(outcome, CutOff):
            return _DIRECTIVES[RetryErrorType.TIMEOUT]
        if isinstance(outcome, Raised):
            return self.evaluate_error(outcome.error)
        raise TypeError(
            f"a retry policy evaluates Returned, Raised or CutOff, not {outcome!r}"
        )

    def evaluate_error(self, error: BaseException) -> RetryDirective:
        """The directive for a raised error: the first tier that answers, else fail."""
        directive = _evaluate_retry_info(error)
        if directive is not None:
            return directive
        reason = _code_or_status_type(error) or _transport_type(error)
        if reason is not None:
            return _DIRECTIVES[reason]
        other = self.evaluate_other_exceptions(error)
        return TERMINATE_AND_FAIL if other is None else other

    def evaluate_other_exceptions(self, error: BaseException) -> RetryDirective | None:
        """The hook for errors no built-in tier knows; None means "fail" (seed 001)."""
        return None if self._other is None else self._other(error)


def _evaluate_retry_info(error: BaseException) -> RetryDirective | None:
    """Tier 1: the retry information a smithy-python style error carries itself.
    `is_retry_safe=False` comes first: smithy-python retries no such error, however
    else it is flagged (its strategies retry only when `is_retry_safe` is true)."""
    safe = _attribute(error, "is_retry_safe")
    if safe is False:
        return TERMINATE_AND_FAIL
    if _attribute(error, "is_throttling_error") is True:
        return _DIRECTIVES[RetryErrorType.THROTTLING]
    if _attribute(error, "is_timeout_error") is True:
        return _DIRECTIVES[RetryErrorType.TIMEOUT]
    if safe is True:
        fault = _attribute(error, "fault")
        if isinstance(fault, str) and str.__eq__(fault, "server"):
            return _DIRECTIVES[RetryErrorType.SERVER_SIDE]
        if isinstance(fault, str) and str.__eq__(fault, "client"):
            return _DIRECTIVES[RetryErrorType.CLIENT_SIDE]
    return None


def _attribute(error: BaseException, name: str) -> object:
    """`error.name`, or None when it is missing or reading it raises (the error
    is the client's: it is not trusted to behave)."""
    try:
        return getattr(error, name, None)
    except Exception:
        return None


def _code_or_status_type(error: BaseException) -> RetryErrorType | None:
    """Tiers 2 and 3: botocore's code lists, then the HTTP status."""
    code = error_code(error)
    if code in THROTTLING_ERROR_CODES:
        return RetryErrorType.THROTTLING
    if code in TIMEOUT_ERROR_CODES:
        return RetryErrorType.TIMEOUT
    status = response_status(error)
    if status in THROTTLING_STATUS_CODES:
        return RetryErrorType.THROTTLING
    if status in SERVER_STATUS_CODES:
        return RetryErrorType.SERVER_SIDE
    return None


def _class_transport_type(cls: type[BaseException]) -> RetryErrorType | None:
    """The first class along `cls`'s MRO that `TRANSPORT_ERROR_TYPES` names."""
    for klass in cls.__mro__:
        package = class_package(klass)
        reason = TRANSPORT_ERROR_TYPES.get((package or "", klass.__name__))
        if reason is not None:
            return reason
    return None


def _cause(error: BaseException) -> BaseException | None:
    """`error.__cause__`, or None when it is not an exception or reading it raises."""
    cause = _attribute(error, "__cause__")
    return cause if isinstance(cause, BaseException) else None


#: Errors that carry the transport failure in `reason`, not as `__cause__`:
#: urllib3's `MaxRetryError`, and urllib's `URLError` (`urlopen` of a port nobody
#: listens on raises `URLError(ConnectionRefusedError(...))`).
_REASON_WRAPPERS = frozenset({"MaxRetryError", "URLError"})


def _transport_type(error: BaseException) -> RetryErrorType | None:
    """Tier 4: a transport failure by class, through `_REASON_WRAPPERS`' `reason`
    and explicit causes."""
    current: BaseException | None = error
    for _ in range(_MAX_CAUSES + 1):
        if current is None:
            return None
        reason = _class_transport_type(type(current)) or _CRT_TYPES.get(
            crt_network_failure(current)
        )
        if reason is not None:
            return reason
        wrapped = _attribute(current, "reason")
        if type(current).__name__ in _REASON_WRAPPERS and isinstance(
            wrapped, BaseException
        ):
            current = wrapped
        else:
            current = _cause(current)
    return None
