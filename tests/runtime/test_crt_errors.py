"""awscrt's network failures: transport errors by the name `AwsCrtError` carries.

The errors are awscrt's own: one from a real connection attempt to a local port
nothing listens on, and one for every error code the installed awscrt knows
(`awscrt.exceptions.from_code`), so every name the lists hold is checked to exist.
"""

from __future__ import annotations

import random
import socket
from typing import Any

import pytest
from awscrt import http as crt_http
from awscrt.exceptions import AwsCrtError, from_code

from waitable import WaiterOperationError
from waitable.crt_errors import (
    CRT_CONNECTION_FAILURES,
    CRT_LASTING_FAILURES,
    CRT_TIMEOUTS,
    crt_network_failure,
)
from waitable.error_codes import is_transport_error
from waitable.retry import (
    RetryError,
    RetryErrorType,
    StandardRetryPolicy,
    StandardRetryStrategy,
)
from waitable.retry.directives import TERMINATE_AND_FAIL
from waitable.testing import VirtualClock

from .harness import BUCKET_EXISTS, DRIVERS, FAILURE, RETRY, SUCCESS

SERVER = RetryError(RetryErrorType.SERVER_SIDE)
TIMEOUT = RetryError(RetryErrorType.TIMEOUT)
# awscrt numbers its errors by library, 1024 codes each (aws-c-common, -io, -http, ...).
_CODES = range(0, 1024 * 16)
_UNASSIGNED = "Unknown Error Code"  # awscrt's name for a code no library defines

#: The socket, DNS and TLS errors of aws-c-io that are not network failures: the
#: caller's own mistakes or its machine's setup. Written out here, apart from the
#: runtime's lists, so that a name awscrt adds to these families fails a test
#: until someone decides which it is.
NOT_NETWORK = {
    "AWS_IO_SOCKET_ADDRESS_IN_USE",
    "AWS_IO_SOCKET_ILLEGAL_OPERATION_FOR_STATE",
    "AWS_IO_SOCKET_INVALID_ADDRESS",
    "AWS_IO_SOCKET_INVALID_OPERATION_FOR_TYPE",
    "AWS_IO_SOCKET_INVALID_OPTIONS",
    "AWS_IO_SOCKET_MISSING_EVENT_LOOP",
    "AWS_IO_SOCKET_UNSUPPORTED_ADDRESS_FAMILY",
    "AWS_IO_TLS_CIPHER_PREF_UNSUPPORTED",
    "AWS_IO_TLS_CTX_ERROR",
    "AWS_IO_TLS_DIGEST_ALGORITHM_UNSUPPORTED",
    "AWS_IO_TLS_ERROR_DEFAULT_TRUST_STORE_NOT_FOUND",
    "AWS_IO_TLS_INTERNAL_ERROR",
    "AWS_IO_TLS_SIGNATURE_ALGORITHM_UNSUPPORTED",
    "AWS_IO_TLS_VERSION_UNSUPPORTED",
}
NETWORK_FAMILIES = ("AWS_IO_SOCKET_", "AWS_IO_DNS_", "AWS_IO_TLS_")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _refused() -> AwsCrtError:
    """The error awscrt's HTTP client gives for a port nothing listens on."""
    future = crt_http.HttpClientConnection.new(
        host_name="127.0.0.1", port=_closed_port()
    )
    error = future.exception(timeout=30)
    assert isinstance(error, AwsCrtError), error
    return error


def _every_crt_error() -> dict[str, AwsCrtError]:
    """One error for every name the installed awscrt has."""
    errors: dict[str, AwsCrtError] = {}
    for code in _CODES:
        error: Any = from_code(code)
        if isinstance(error, AwsCrtError) and error.name != _UNASSIGNED:
            errors.setdefault(error.name, error)
    return errors


EVERY_CRT_ERROR = _every_crt_error()


def test_a_refused_connection_is_a_connection_failure() -> None:
    error = _refused()
    assert error.name == "AWS_IO_SOCKET_CONNECTION_REFUSED"
    assert crt_network_failure(error) == "connection"
    assert is_transport_error(error)
    assert StandardRetryPolicy().evaluate_error(error) == SERVER


def test_a_refused_connection_is_found_through_the_cause_a_client_raised_from() -> None:
    class CallFailed(Exception):
        pass

    refused = _refused()
    try:
        raise CallFailed("request failed") from refused
    except CallFailed as wrapped:
        assert StandardRetryPolicy().evaluate_error(wrapped) == SERVER


def test_every_listed_name_is_one_awscrt_has() -> None:
    lists = (CRT_TIMEOUTS, CRT_CONNECTION_FAILURES, CRT_LASTING_FAILURES)
    listed = set().union(*lists)
    assert listed <= EVERY_CRT_ERROR.keys()
    assert sum(map(len, lists)) == len(listed), "a name is in two lists"
    assert not NOT_NETWORK & listed and NOT_NETWORK <= EVERY_CRT_ERROR.keys()


def test_every_socket_dns_and_tls_error_is_decided() -> None:
    """Each name of aws-c-io's network families is listed as a network failure or
    named above as not one."""
    family = {name for name in EVERY_CRT_ERROR if name.startswith(NETWORK_FAMILIES)}
    undecided = (
        family
        - NOT_NETWORK
        - {name for name in family if crt_network_failure(EVERY_CRT_ERROR[name])}
    )
    assert not undecided


@pytest.mark.parametrize("name", sorted(EVERY_CRT_ERROR))
def test_each_awscrt_error_by_its_name(name: str) -> None:
    error = EVERY_CRT_ERROR[name]
    policy = StandardRetryPolicy()
    kind = crt_network_failure(error)
    if name in CRT_TIMEOUTS:
        assert kind == "timeout" and policy.evaluate_error(error) == TIMEOUT
    elif name in CRT_CONNECTION_FAILURES:
        assert kind == "connection" and policy.evaluate_error(error) == SERVER
    elif name in CRT_LASTING_FAILURES:  # a transport error, but not worth retrying
        assert kind == "lasting"
        assert policy.evaluate_error(error) == TERMINATE_AND_FAIL
    else:  # a bad header, a closed client, a missing trust store: not the network
        assert kind is None
        assert not is_transport_error(error)
        assert policy.evaluate_error(error) == TERMINATE_AND_FAIL
        return
    assert is_transport_error(error)


def test_a_certificate_that_does_not_verify_is_not_retried_as_pythons_is_not() -> None:
    import ssl

    policy = StandardRetryPolicy()
    python = ssl.SSLCertVerificationError("certificate verify failed")
    crt = EVERY_CRT_ERROR["AWS_IO_TLS_HOST_NAME_MISMATCH"]
    assert policy.evaluate_error(python) == policy.evaluate_error(crt)
    assert policy.evaluate_error(crt) == TERMINATE_AND_FAIL
    assert is_transport_error(python) and is_transport_error(crt)


def test_the_network_failures_awscrt_retries_itself_are_listed() -> None:
    """aws-c-http's and aws-c-io's own retryable errors are among the ones retried."""
    assert {
        "AWS_ERROR_HTTP_CONNECTION_CLOSED",
        "AWS_ERROR_HTTP_SERVER_CLOSED",
        "AWS_IO_SOCKET_TIMEOUT",
        "AWS_IO_SOCKET_CONNECTION_REFUSED",
        "AWS_IO_SOCKET_CLOSED",
        "AWS_IO_DNS_QUERY_FAILED",
        "AWS_IO_TLS_NEGOTIATION_TIMEOUT",
    } <= CRT_TIMEOUTS | CRT_CONNECTION_FAILURES


def test_names_that_are_not_strings_or_classes_from_elsewhere_do_not_count() -> None:
    class OddName(AwsCrtError):
        pass

    odd = OddName(code=0, name=["AWS_IO_SOCKET_TIMEOUT"], message="m")
    assert crt_network_failure(odd) is None

    class ElsewhereError(Exception):  # the name, but not awscrt's class
        name = "AWS_IO_SOCKET_TIMEOUT"

    ElsewhereError.__name__ = "AwsCrtError"
    assert crt_network_failure(ElsewhereError()) is None
    assert not is_transport_error(ElsewhereError())
    # A subclass of awscrt's class counts, as for any class along the MRO.
    subclass = OddName(code=0, name="AWS_IO_SOCKET_TIMEOUT", message="m")
    assert crt_network_failure(subclass) == "timeout"


class _RaisingName(AwsCrtError):
    """A client's exception whose `name` raises when read."""

    def __init__(self) -> None:
        Exception.__init__(self, "hostile")

    @property  # type: ignore[override]
    def name(self) -> str:
        raise RuntimeError("hostile name")


_NO_MODULE = type("AwsCrtError", (Exception,), {"__module__": None})


@pytest.mark.parametrize(
    "error", [_RaisingName(), _NO_MODULE()], ids=["raising-name", "module-none"]
)
def test_hostile_errors_are_not_network_failures_and_end_the_wait_as_before(
    error: Exception,
) -> None:
    assert crt_network_failure(error) is None
    assert not is_transport_error(error)
    assert StandardRetryPolicy().evaluate_error(error) == TERMINATE_AND_FAIL
    run = DRIVERS["sync"](BUCKET_EXISTS, [error, {}], max_wait_time=60)
    assert isinstance(run.error, WaiterOperationError)
    assert run.error.__cause__ is error


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_waiter_fails_on_a_crt_network_failure_and_says_how_to_retry_it(
    driver: str,
) -> None:
    """Like an `OSError`, never shown to acceptors; the advice is a retry strategy,
    which reads the name (retry_on=(AwsCrtError,) would retry awscrt's other
    errors too)."""
    refused = _refused()
    run = DRIVERS[driver](BUCKET_EXISTS, [refused, {}], max_wait_time=60)
    assert isinstance(run.error, WaiterOperationError)
    assert run.error.__cause__ is refused
    message = str(run.error)
    assert "AwsCrtError is a transport error (connection failure)" in message
    assert "StandardRetryStrategy" in message and "retry_on" not in message
    assert [a.state for a in run.outcome.history] == [FAILURE]

    clock = VirtualClock()
    retry = StandardRetryStrategy(clock=clock, rng=random.Random(1))
    run = DRIVERS[driver](
        BUCKET_EXISTS, [refused, {}], max_wait_time=60, waiter_kwargs={"retry": retry}
    )
    assert run.error is None
    (attempt,) = run.outcome.history
    assert attempt.state is SUCCESS
    assert [(r.error_type, r.reason) for r in attempt.retries] == [
        ("AwsCrtError", "ServerSide")
    ]


def test_a_lasting_crt_failure_is_not_advised_to_be_retried() -> None:
    mismatch = EVERY_CRT_ERROR["AWS_IO_TLS_HOST_NAME_MISMATCH"]
    run = DRIVERS["sync"](BUCKET_EXISTS, [mismatch, {}], max_wait_time=60)
    assert isinstance(run.error, WaiterOperationError)
    assert "(lasting failure)" in str(run.error)
    assert "does not pass by itself" in str(run.error)


def test_retry_on_awscrt_error_still_retries_it() -> None:
    run = DRIVERS["sync"](
        BUCKET_EXISTS,
        [_refused(), {}],
        max_wait_time=60,
        waiter_kwargs={"retry_on": (AwsCrtError,)},
    )
    assert run.error is None
    assert [a.state for a in run.outcome.history] == [RETRY, SUCCESS]
