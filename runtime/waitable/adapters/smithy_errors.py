"""Read the errors a real smithy-python client raises the way the runtime reads errors.

A modeled error needs nothing: it is raised as its own class, named after the
error shape, which is the code `errorType` compares with. Two other kinds do:

* a transport failure reaches the caller wrapped in smithy-core's `SmithyError`
  (`SmithyError(e) from e`) or, for a timeout, as its `ClientTimeoutError` (a
  `CallError` raised from the transport's `TimeoutError`). Neither is an
  `OSError`, so the runtime would show them to acceptors as service errors. With
  the CRT client the wrapped exception is awscrt's `AwsCrtError`, a network
  failure only by its name (`waitable.crt_errors`);
* an error the operation does not model is a bare `CallError` whose code is
  only written into its message (`... - id: <shape id>` for the JSON protocols,
  `... - code: <code>` for restXml, `..., code: <code>` for awsQuery, otherwise
  only `- status: <status>`).

`client_error` names the exception to raise instead (the client's exception as
its `__cause__`): a `SmithyPythonTransportError` (an `OSError`) for the first,
a `SmithyPythonUnmodeledError` carrying the code for the second. smithy-core is
never imported: classes are recognised by name, as the runtime does for botocore.
"""

from __future__ import annotations

import re

from ..crt_errors import crt_network_failure

__all__ = [
    "SmithyPythonConnectionError",
    "SmithyPythonTimeoutError",
    "SmithyPythonTransportError",
    "SmithyPythonUnmodeledError",
    "client_error",
]

# The start of the message smithy-http and smithy-aws-core give an error
# response no modeled error matches: the status, then the error shape id the
# response named (JSON protocols) or its code (restXml ` - code: `, awsQuery
# `, code: `), when it named one. Anchored
# at the start, so that the service's own message, which may follow, is never
# read as a code; a code is read only if it is made of the characters shape ids
# and AWS error codes use (`InvalidInstanceID.NotFound`), else the status is.
# A `:`-suffix (`Name:http://internal.amazon.com/...`, which awsJson allows) is
# dropped, as the protocols say.
_NAME = r"[A-Za-z0-9_.#$-]{1,256}(?::\S*)?(?=\s|$)"
_UNKNOWN_ERROR = re.compile(
    r"Unknown error for operation \S+ - status: (?P<status>\d{3})"
    rf"(?: - id: (?P<id>{_NAME}))?(?:(?:,| -) code: (?P<code>{_NAME}))?"
)
_CLIENT_TIMEOUT = "ClientTimeoutError"
_AIOHTTP_CONNECTION = "ClientConnectionError"


class SmithyPythonTransportError(OSError):
    """The service was not reached or did not answer; the client's exception is `__cause__`."""


class SmithyPythonConnectionError(SmithyPythonTransportError, ConnectionError):
    """A smithy-python client could not connect to (or lost) the service."""


class SmithyPythonTimeoutError(SmithyPythonTransportError, TimeoutError):
    """A smithy-python client's request timed out before the service answered."""


#: smithy-core's `ErrorRetryInfo` attributes (and `fault`), which retry policies read.
_RETRY_INFO = (
    "fault",
    "is_retry_safe",
    "retry_after",
    "is_throttling_error",
    "is_timeout_error",
)


class SmithyPythonUnmodeledError(Exception):
    """An error the operation does not model; `code` is the one its response named.

    `code` is the error shape's name when the response said it, else the HTTP
    status as digits (which the runtime resolves through the modeled errors).
    The retry information of the client's error (`is_throttling_error` for a 429,
    ...) is kept, so that a retry policy judges it as it would the client's own.
    """

    fault: object = None
    is_retry_safe: object = None
    retry_after: object = None
    is_throttling_error: object = False
    is_timeout_error: object = False

    def __init__(
        self, code: str, message: str, retry_info: BaseException | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        for name in _RETRY_INFO if retry_info is not None else ():
            try:
                value = getattr(retry_info, name)
            except Exception:  # missing, or the client's attribute raised
                continue
            if value is None or isinstance(value, (bool, str, int, float)):
                setattr(self, name, value)


def _class_names(error: BaseException) -> frozenset[str]:
    return frozenset(cls.__name__ for cls in type(error).__mro__)


def _transport_cause(error: BaseException) -> BaseException | None:
    """The transport failure a smithy-core error was raised from, if its cause chain has one.

    That is an `OSError` (`TimeoutError` included), aiohttp's
    `ClientConnectionError` family, some of which are not `OSError`s, or an awscrt
    error naming a network failure.
    """
    seen: set[int] = set()
    cause = error.__cause__
    while cause is not None and id(cause) not in seen:
        if (
            isinstance(cause, OSError)
            or _AIOHTTP_CONNECTION in _class_names(cause)
            or crt_network_failure(cause) is not None
        ):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__
    return None


def client_error(error: BaseException) -> Exception | None:
    """The exception to raise instead of `error`, or None to raise `error` as it is."""
    names = _class_names(error)
    if "SmithyError" not in names or "ModeledError" in names:
        return None
    transport = _transport_cause(error)
    if (
        isinstance(transport, TimeoutError)
        or _CLIENT_TIMEOUT in names
        or (transport is not None and crt_network_failure(transport) == "timeout")
    ):
        return SmithyPythonTimeoutError(f"the request timed out: {transport or error}")
    if transport is not None:
        return SmithyPythonConnectionError(f"could not reach the service: {transport}")
    if type(error).__name__ == "CallError":
        message = getattr(error, "message", None)
        if not isinstance(message, str):
            return None
        found = _UNKNOWN_ERROR.match(message)
        if found is not None:
            named = found.group("id") or found.group("code")
            if named:
                code = named.partition(":")[0].rpartition("#")[2]
            else:
                code = found.group("status")
            return SmithyPythonUnmodeledError(code, message, error)
    return None
