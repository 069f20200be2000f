"""Network failures of the AWS Common Runtime, read from awscrt's one exception class.

awscrt (behind smithy-python's `AWSCRTHTTPClient` and other AWS tools) raises
`awscrt.exceptions.AwsCrtError` for every failure and says which in its `name`
(`AWS_IO_SOCKET_CONNECTION_REFUSED`). The names below are the failures to reach
or hear from the peer (socket, DNS, TLS and HTTP connection level): what an
`OSError` is for Python's own sockets, and so a transport failure here too, in
three kinds: timeouts, connection failures that may pass, and lasting ones (a
certificate that does not verify), which the retry policy does not retry. The
rest (a bad header, a closed client) are not; the few awscrt maps to Python's
own exceptions (a broken pipe is `BrokenPipeError`, out of memory `MemoryError`)
are judged as those. awscrt is never imported: the class is recognised by its
package and name along the MRO.
"""

from __future__ import annotations

from typing import Literal

from .class_names import class_package

__all__ = [
    "CRT_CONNECTION_FAILURES",
    "CRT_LASTING_FAILURES",
    "CRT_TIMEOUTS",
    "CrtFailure",
    "crt_network_failure",
]

#: Failures to answer in time: a socket, TLS negotiation, first response byte or
#: pooled-connection wait that timed out.
CRT_TIMEOUTS: frozenset[str] = frozenset(
    {
        "AWS_IO_SOCKET_TIMEOUT",
        "AWS_IO_TLS_NEGOTIATION_TIMEOUT",
        "AWS_ERROR_HTTP_RESPONSE_FIRST_BYTE_TIMEOUT",
        "AWS_ERROR_HTTP_CONNECTION_MANAGER_ACQUISITION_TIMEOUT",
    }
)

#: Failures to connect, or a connection lost, that may pass by themselves: refused,
#: reset, unreachable, a name server that did not answer, a TLS handshake cut
#: short, a connection the server closed or reset.
CRT_CONNECTION_FAILURES: frozenset[str] = frozenset(
    {
        "AWS_IO_SOCKET_CONNECTION_REFUSED",
        "AWS_IO_SOCKET_CONNECT_ABORTED",
        "AWS_IO_SOCKET_CLOSED",
        "AWS_IO_SOCKET_NETWORK_DOWN",
        "AWS_IO_SOCKET_NO_ROUTE_TO_HOST",
        "AWS_IO_SOCKET_NOT_CONNECTED",
        "AWS_IO_DNS_QUERY_FAILED",
        "AWS_IO_DNS_QUERY_AGAIN",
        "AWS_IO_DNS_NO_ADDRESS_FOR_HOST",
        "AWS_IO_DNS_HOST_REMOVED_FROM_CACHE",
        "AWS_IO_TLS_ERROR_NEGOTIATION_FAILURE",
        "AWS_IO_TLS_ERROR_NOT_NEGOTIATED",
        "AWS_IO_TLS_ERROR_ALERT_RECEIVED",
        "AWS_IO_TLS_ALERT_NOT_GRACEFUL",
        "AWS_IO_TLS_CLOSED_ABORT",
        "AWS_IO_TLS_CLOSED_GRACEFUL",
        "AWS_IO_TLS_ERROR_READ_FAILURE",
        "AWS_IO_TLS_ERROR_WRITE_FAILURE",
        "AWS_ERROR_HTTP_CONNECTION_CLOSED",
        "AWS_ERROR_HTTP_SERVER_CLOSED",
        "AWS_ERROR_HTTP_GOAWAY_RECEIVED",
        "AWS_ERROR_HTTP_RST_STREAM_RECEIVED",
        "AWS_ERROR_HTTP_PROXY_CONNECT_FAILED_RETRYABLE",
        "AWS_ERROR_HTTP_STREAM_MANAGER_CONNECTION_ACQUIRE_FAILURE",
    }
)

#: Failures to reach the peer that do not pass by themselves: a certificate that
#: does not verify (Python's `ssl.SSLCertVerificationError`), a host name that is
#: not a valid name (its `socket.gaierror`), a proxy that refused the tunnel.
#: Transport failures all the same, but not worth retrying.
CRT_LASTING_FAILURES: frozenset[str] = frozenset(
    {
        "AWS_IO_TLS_BAD_CERTIFICATE",
        "AWS_IO_TLS_BAD_PEER_CERTIFICATE",
        "AWS_IO_TLS_CERTIFICATE_EXPIRED",
        "AWS_IO_TLS_CERTIFICATE_NOT_YET_VALID",
        "AWS_IO_TLS_HOST_NAME_MISMATCH",
        "AWS_IO_TLS_INVALID_CERTIFICATE_CHAIN",
        "AWS_IO_TLS_NO_ROOT_CERTIFICATE_FOUND",
        "AWS_IO_TLS_PEER_CERTIFICATE_EXPIRED",
        "AWS_IO_TLS_PEER_CERTIFICATE_REVOKED",
        "AWS_IO_TLS_PEER_CERTIFICATE_UNKNOWN",
        "AWS_IO_TLS_UNKNOWN_ROOT_CERTIFICATE",
        "AWS_IO_DNS_INVALID_NAME",
        "AWS_ERROR_HTTP_PROXY_CONNECT_FAILED",
    }
)

CrtFailure = Literal["timeout", "connection", "lasting"]
_KINDS: dict[str, CrtFailure] = {
    **dict.fromkeys(CRT_TIMEOUTS, "timeout"),
    **dict.fromkeys(CRT_CONNECTION_FAILURES, "connection"),
    **dict.fromkeys(CRT_LASTING_FAILURES, "lasting"),
}


def crt_network_failure(error: BaseException) -> CrtFailure | None:
    """The kind of network failure an awscrt `AwsCrtError` names ("timeout",
    "connection" or "lasting"); None for any other error, awscrt's others included.

    The error comes from a client and is not trusted: whatever its class or its
    `name` does, the answer is None rather than an exception."""
    try:
        if not any(map(_is_crt_class, type(error).__mro__)):
            return None
        name = error.name  # type: ignore[attr-defined]
    except Exception:
        return None
    return _KINDS.get(name) if type(name) is str else None


def _is_crt_class(klass: type) -> bool:
    return klass.__name__ == "AwsCrtError" and class_package(klass) == "awscrt"
