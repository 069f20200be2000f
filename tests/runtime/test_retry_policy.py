"""StandardRetryPolicy: seed 001's tiers with botocore's standard retry mode lists."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import requests.exceptions
import urllib3.exceptions
from botocore.exceptions import (  # type: ignore[import-untyped]
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
    SSLError,
)
from hypothesis import given
from hypothesis import strategies as st

from waitable.flow import CutOff, Raised, Returned
from waitable.retry.directives import (
    TERMINATE_AND_FAIL,
    TERMINATE_AND_SUCCEED,
    RetryDirective,
    RetryError,
    RetryErrorType,
)
from waitable.retry.policy import (
    SERVER_STATUS_CODES,
    THROTTLING_ERROR_CODES,
    TIMEOUT_ERROR_CODES,
    RetryPolicy,
    StandardRetryPolicy,
)

SERVER = RetryError(RetryErrorType.SERVER_SIDE)
CLIENT = RetryError(RetryErrorType.CLIENT_SIDE)
THROTTLING = RetryError(RetryErrorType.THROTTLING)
TIMEOUT = RetryError(RetryErrorType.TIMEOUT)

POLICY = StandardRetryPolicy()


def client_error(code: str, status: int = 400) -> ClientError:
    return ClientError(
        {
            "Error": {"Code": code, "Message": "m"},
            "ResponseMetadata": {"HTTPStatusCode": status},
        },
        "Op",
    )


def evaluate(error: Exception, policy: StandardRetryPolicy = POLICY) -> RetryDirective:
    return policy.evaluate(Raised(error))


def test_a_returned_value_succeeds_whatever_it_is() -> None:
    for output in (None, {}, {"Error": {"Code": "Throttling"}}, ClientError({}, "Op")):
        assert POLICY.evaluate(Returned(output)) == TERMINATE_AND_SUCCEED


def test_a_cut_off_request_is_a_timeout_retry() -> None:
    assert POLICY.evaluate(CutOff()) == TIMEOUT


def test_anything_else_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Returned, Raised or CutOff"):
        POLICY.evaluate("oops")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "code",
    [
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
    ],
)
def test_botocore_throttling_codes_are_throttling(code: str) -> None:
    assert evaluate(client_error(code)) == THROTTLING
    # The code wins over a transient status.
    assert evaluate(client_error(code, 503)) == THROTTLING


def test_the_code_lists_are_botocores_standard_mode_lists() -> None:
    from botocore.retries import standard  # type: ignore[import-untyped]

    throttled = standard.ThrottledRetryableChecker._THROTTLED_ERROR_CODES
    transient = standard.TransientRetryableChecker._TRANSIENT_ERROR_CODES
    statuses = standard.TransientRetryableChecker._TRANSIENT_STATUS_CODES
    assert THROTTLING_ERROR_CODES == frozenset(throttled)
    # PriorRequestNotComplete is on both botocore lists; as throttling it costs more.
    assert frozenset(transient) - THROTTLING_ERROR_CODES <= TIMEOUT_ERROR_CODES
    assert SERVER_STATUS_CODES == frozenset(statuses)


@pytest.mark.parametrize(
    "code", ["RequestTimeout", "RequestTimeoutException", "IDPCommunicationError"]
)
def test_timeout_codes_are_timeouts(code: str) -> None:
    assert evaluate(client_error(code, 400)) == TIMEOUT


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_transient_statuses_are_server_side(status: int) -> None:
    assert evaluate(client_error("InternalError", status)) == SERVER
    assert evaluate(client_error("ServiceUnavailable", status)) == SERVER


def test_status_429_is_throttling() -> None:
    assert evaluate(client_error("SomethingNew", 429)) == THROTTLING


@pytest.mark.parametrize("status", [400, 403, 404, 409, 501, 505])
def test_other_client_errors_fail(status: int) -> None:
    assert evaluate(client_error("ValidationException", status)) == TERMINATE_AND_FAIL


def test_a_client_error_without_metadata_fails_unless_its_code_is_listed() -> None:
    assert (
        evaluate(ClientError({"Error": {"Code": "Nope"}}, "Op")) == TERMINATE_AND_FAIL
    )
    assert evaluate(ClientError({"Error": {"Code": "SlowDown"}}, "Op")) == THROTTLING
    assert evaluate(ClientError({}, "Op")) == TERMINATE_AND_FAIL


def test_a_shape_id_code_counts_by_its_name() -> None:
    """The project's error-code extraction (`waitable.error_codes`) is the one used."""
    assert (
        evaluate(client_error("com.amazonaws.dynamodb#ThrottlingException"))
        == THROTTLING
    )


def test_a_code_attribute_or_the_class_name_counts_as_the_code() -> None:
    class Coded(Exception):
        code = "RequestLimitExceeded"

    class ThrottlingException(Exception):
        pass

    assert evaluate(Coded()) == THROTTLING
    assert evaluate(ThrottlingException()) == THROTTLING


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (ReadTimeoutError(endpoint_url="https://x"), TIMEOUT),
        (ConnectTimeoutError(endpoint_url="https://x"), TIMEOUT),
        (EndpointConnectionError(endpoint_url="https://x"), SERVER),
        (ConnectionClosedError(endpoint_url="https://x"), SERVER),
        (SSLError(endpoint_url="https://x", error="bad"), SERVER),
        (aiohttp.ServerTimeoutError("slow"), TIMEOUT),
        (aiohttp.ConnectionTimeoutError("slow"), TIMEOUT),
        (aiohttp.SocketTimeoutError("slow"), TIMEOUT),
        (aiohttp.ServerDisconnectedError(), SERVER),
        (aiohttp.ClientConnectionError("x"), SERVER),
        (aiohttp.ClientOSError(104, "reset"), SERVER),
        (aiohttp.ClientPayloadError("cut short"), SERVER),
        (urllib3.exceptions.ReadTimeoutError(None, "/", "slow"), TIMEOUT),  # type: ignore[arg-type]
        (urllib3.exceptions.ConnectTimeoutError("slow"), TIMEOUT),
        (urllib3.exceptions.NewConnectionError(None, "refused"), SERVER),  # type: ignore[arg-type]
        (urllib3.exceptions.ProtocolError("aborted"), SERVER),
        (requests.exceptions.ConnectTimeout(), TIMEOUT),
        (requests.exceptions.ReadTimeout(), TIMEOUT),
        (requests.exceptions.ConnectionError(), SERVER),
        (TimeoutError(), TIMEOUT),
        (asyncio.TimeoutError(), TIMEOUT),
        (socket.timeout(), TIMEOUT),
        (ConnectionResetError(), SERVER),
        (ConnectionRefusedError(), SERVER),
        (BrokenPipeError(), SERVER),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else "",
)
def test_transport_errors(error: Exception, expected: RetryDirective) -> None:
    assert evaluate(error) == expected


def test_urllib3_max_retry_error_is_judged_by_its_reason() -> None:
    pool: Any = None
    refused = urllib3.exceptions.MaxRetryError(
        pool, "/", urllib3.exceptions.NewConnectionError(pool, "refused")
    )
    slow = urllib3.exceptions.MaxRetryError(
        pool, "/", urllib3.exceptions.ReadTimeoutError(pool, "/", "slow")
    )
    assert evaluate(refused) == SERVER
    assert evaluate(slow) == TIMEOUT
    assert evaluate(urllib3.exceptions.MaxRetryError(pool, "/")) == TERMINATE_AND_FAIL


def test_a_wrapped_transport_error_is_found_through_its_cause() -> None:
    class WrappedError(Exception):
        pass

    try:
        try:
            raise ConnectionResetError("reset")
        except ConnectionResetError as inner:
            raise WrappedError("call failed") from inner
    except WrappedError as outer:
        assert evaluate(outer) == SERVER
    # Implicit context (an error raised while handling another) does not count.
    try:
        try:
            raise TimeoutError
        except TimeoutError:
            raise WrappedError("handler bug")
    except WrappedError as outer:
        assert evaluate(outer) == TERMINATE_AND_FAIL


def test_a_cycle_of_causes_ends() -> None:
    first, second = ValueError("a"), ValueError("b")
    first.__cause__, second.__cause__ = second, first
    assert evaluate(first) == TERMINATE_AND_FAIL


def test_same_names_from_other_packages_do_not_count() -> None:
    class ReadTimeoutError(Exception):  # this module, not botocore or urllib3
        pass

    class ClientConnectionError(Exception):
        pass

    assert evaluate(ReadTimeoutError()) == TERMINATE_AND_FAIL
    assert evaluate(ClientConnectionError()) == TERMINATE_AND_FAIL


@dataclass
class SmithyStyleError(Exception):
    """The retry attributes smithy-python's `CallError` carries."""

    fault: str | None = None
    is_retry_safe: bool | None = None
    is_throttling_error: bool = False
    is_timeout_error: bool = False


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (SmithyStyleError(is_throttling_error=True), THROTTLING),
        (SmithyStyleError(is_timeout_error=True), TIMEOUT),
        (SmithyStyleError(fault="server", is_retry_safe=True), SERVER),
        (SmithyStyleError(fault="client", is_retry_safe=True), CLIENT),
        (SmithyStyleError(fault="server", is_retry_safe=False), TERMINATE_AND_FAIL),
        (SmithyStyleError(fault="server"), TERMINATE_AND_FAIL),
        (SmithyStyleError(is_retry_safe=True), TERMINATE_AND_FAIL),
    ],
)
def test_smithy_python_retry_information(
    error: Exception, expected: RetryDirective
) -> None:
    assert evaluate(error) == expected


def test_retry_safe_false_overrides_a_throttling_code() -> None:
    @dataclass
    class ThrottlingException(Exception):
        is_retry_safe: bool | None = False

    assert evaluate(ThrottlingException()) == TERMINATE_AND_FAIL


def test_plain_exceptions_fail() -> None:
    for error in (ValueError("x"), KeyError("k"), RuntimeError(), FileNotFoundError()):
        assert evaluate(error) == TERMINATE_AND_FAIL


class FlakyError(Exception):
    pass


def test_the_hook_by_subclassing() -> None:
    class MyPolicy(StandardRetryPolicy):
        def evaluate_other_exceptions(
            self, error: BaseException
        ) -> RetryDirective | None:
            return CLIENT if isinstance(error, FlakyError) else None

    policy = MyPolicy()
    assert evaluate(FlakyError(), policy) == CLIENT
    assert evaluate(ValueError(), policy) == TERMINATE_AND_FAIL
    # Built-in tiers come first, as in seed 001.
    assert evaluate(TimeoutError(), policy) == TIMEOUT


def test_the_hook_by_constructor_argument() -> None:
    seen: list[BaseException] = []

    def other(error: BaseException) -> RetryDirective | None:
        seen.append(error)
        return SERVER if isinstance(error, FlakyError) else None

    policy = StandardRetryPolicy(other=other)
    flaky, plain = FlakyError(), ValueError()
    assert evaluate(flaky, policy) == SERVER
    assert evaluate(plain, policy) == TERMINATE_AND_FAIL
    assert evaluate(client_error("Throttling"), policy) == THROTTLING
    assert seen == [flaky, plain]


def test_the_hook_may_also_decide_success() -> None:
    policy = StandardRetryPolicy(lambda error: TERMINATE_AND_SUCCEED)
    assert evaluate(KeyError("gone"), policy) == TERMINATE_AND_SUCCEED


def test_standard_policy_satisfies_the_protocol() -> None:
    policy: RetryPolicy[Any] = StandardRetryPolicy()
    assert policy.evaluate(Returned(1)) == TERMINATE_AND_SUCCEED


@given(
    code=st.text(max_size=30),
    status=st.one_of(st.none(), st.integers(100, 599)),
)
def test_every_client_error_gets_a_directive_by_the_rules(
    code: str, status: int | None
) -> None:
    response: dict[str, Any] = {"Error": {"Code": code}}
    if status is not None:
        response["ResponseMetadata"] = {"HTTPStatusCode": status}
    directive = evaluate(ClientError(response, "Op"))
    name = code.rpartition("#")[2]
    expected: RetryDirective
    if name in THROTTLING_ERROR_CODES:
        expected = THROTTLING
    elif name in TIMEOUT_ERROR_CODES:
        expected = TIMEOUT
    elif status == 429:
        expected = THROTTLING
    elif status in SERVER_STATUS_CODES:
        expected = SERVER
    else:
        expected = TERMINATE_AND_FAIL
    assert directive == expected


def test_importing_the_policy_imports_no_http_library() -> None:
    code = (
        "import sys\n"
        "import waitable.retry, waitable.rate_limit\n"
        "bad = [m for m in ('botocore', 'aiohttp', 'urllib3', 'requests') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_error_that_is_not_retry_safe_is_never_retried_even_if_throttling() -> None:
    """smithy-python's strategies retry an error only when `is_retry_safe` is true;
    one flagged throttling but not retry-safe was retried here (found by review,
    2026-11-27)."""
    from waitable.retry.policy import StandardRetryPolicy

    class NotSafe(Exception):
        is_retry_safe = False
        is_throttling_error = True
        is_timeout_error = True

    directive = StandardRetryPolicy().evaluate_error(NotSafe())
    assert getattr(directive, "reason", None) is None
