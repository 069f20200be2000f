"""awscrt's network failures: transport errors by the name `AwsCrtError` carries.

The errors are awscrt's own: one from a real connection attempt to a local port
nothing listens on, and one for every error code the installed awscrt knows
(`awscrt.exceptions.from_code`), so every name the lists hold is checked to exist.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest
from awscrt import http as crt_http
from awscrt.exceptions import AwsCrtError, from_code

from waitable import WaiterOperationError
from waitable.crt_errors import (
    CRT_CONNECTION_FAILURES,
    CRT_TIMEOUTS,
    crt_network_failure,
)
from waitable.error_codes import is_transport_error
from waitable.retry import RetryError, RetryErrorType, StandardRetryPolicy
from waitable.retry.directives import TERMINATE_AND_FAIL

from .harness import BUCKET_EXISTS, DRIVERS, FAILURE, RETRY, SUCCESS

SERVER = RetryError(RetryErrorType.SERVER_SIDE)
TIMEOUT = RetryError(RetryErrorType.TIMEOUT)
# awscrt numbers its errors by library, 1024 codes each (aws-c-common, -io, -http, ...).
_CODES = range(0, 1024 * 16)


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
        if isinstance(error, AwsCrtError) and "UNKNOWN" not in error.name:
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
    assert (CRT_TIMEOUTS | CRT_CONNECTION_FAILURES) <= EVERY_CRT_ERROR.keys()
    assert not CRT_TIMEOUTS & CRT_CONNECTION_FAILURES


@pytest.mark.parametrize("name", sorted(EVERY_CRT_ERROR))
def test_each_awscrt_error_by_its_name(name: str) -> None:
    error = EVERY_CRT_ERROR[name]
    policy = StandardRetryPolicy()
    if name in CRT_TIMEOUTS:
        assert crt_network_failure(error) == "timeout"
        assert policy.evaluate_error(error) == TIMEOUT
    elif name in CRT_CONNECTION_FAILURES:
        assert crt_network_failure(error) == "connection"
        assert policy.evaluate_error(error) == SERVER
    else:  # a bad header, a closed client, out of memory: not the network
        assert crt_network_failure(error) is None
        assert not is_transport_error(error)
        assert policy.evaluate_error(error) == TERMINATE_AND_FAIL
        return
    assert is_transport_error(error)


def test_the_network_failures_awscrt_retries_itself_are_listed() -> None:
    """aws-c-http's and aws-c-io's own retryable errors are among the network ones."""
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


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_waiter_fails_on_a_crt_network_failure_unless_retry_on_lists_it(
    driver: str,
) -> None:
    """Like an `OSError`: never shown to acceptors, retried only when asked."""
    refused = _refused()
    run = DRIVERS[driver](BUCKET_EXISTS, [refused, {}], max_wait_time=60)
    assert isinstance(run.error, WaiterOperationError)
    assert run.error.__cause__ is refused
    assert "AwsCrtError is a transport error" in str(run.error)
    assert [a.state for a in run.outcome.history] == [FAILURE]

    run = DRIVERS[driver](
        BUCKET_EXISTS,
        [refused, {}],
        max_wait_time=60,
        waiter_kwargs={"retry_on": (AwsCrtError,)},
    )
    assert run.error is None
    assert [a.state for a in run.outcome.history] == [RETRY, SUCCESS]
