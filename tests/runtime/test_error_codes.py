"""Error codes for `errorType`, and the transport-error policy."""

from __future__ import annotations

import asyncio

import pytest
from botocore.exceptions import (  # type: ignore[import-untyped]
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    NoCredentialsError,
    ParamValidationError,
    ProxyConnectionError,
    ReadTimeoutError,
    SSLError,
    UnknownServiceError,
)

from waitable import (
    Acceptor,
    AcceptorState,
    ErrorTypeMatcher,
    ModeledError,
    SuccessMatcher,
    WaiterDefinition,
    WaiterOperationError,
)
from waitable.error_codes import error_code, is_transport_error

from .harness import BUCKET_EXISTS, DRIVERS, FAILURE, RETRY, SUCCESS, ServiceError


def client_error(code: str, operation: str = "HeadBucket") -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "m"}}, operation)


class CodedError(Exception):
    code = "ResourceNotFoundException"


class SnakeCodedError(Exception):
    error_code = "Throttling"


class NotFound(Exception):
    pass


@pytest.mark.parametrize(
    ("error", "modeled", "code"),
    [
        (client_error("NoSuchBucket"), (), "NoSuchBucket"),
        (client_error("InvalidInstanceID.NotFound"), (), "InvalidInstanceID.NotFound"),
        (client_error("404"), (), "NotFound"),  # S3 HeadBucket on a missing bucket
        (client_error("404"), (ModeledError("NoSuchKey", 404),), "NoSuchKey"),
        (client_error("403"), (), "403"),
        (client_error("409"), (ModeledError("Conflict", 409),), "Conflict"),
        # Several errors with the status: the response cannot tell which; none is
        # picked by its place in the model (a 404 still reads as NotFound).
        (
            client_error("400"),
            (ModeledError("ValidationException", 400), ModeledError("Invalid", 400)),
            "400",
        ),
        (
            client_error("400"),
            (ModeledError("Invalid", 400), ModeledError("ValidationException", 400)),
            "400",
        ),
        (
            client_error("404"),
            (ModeledError("NoSuchKey", 404), ModeledError("NoSuchUpload", 404)),
            "NotFound",
        ),
        (  # the same error listed twice is still one
            client_error("409"),
            (ModeledError("Conflict", 409), ModeledError("x#Conflict", 409)),
            "Conflict",
        ),
        (
            client_error("com.amazonaws.dynamodb#ResourceNotFoundException"),
            (),
            "ResourceNotFoundException",
        ),
        (CodedError(), (), "ResourceNotFoundException"),
        (SnakeCodedError(), (), "Throttling"),
        (NotFound(), (), "NotFound"),
        (ValueError("x"), (), "ValueError"),
    ],
)
def test_error_code(
    error: Exception, modeled: tuple[ModeledError, ...], code: str
) -> None:
    assert error_code(error, modeled) == code


@pytest.mark.parametrize(
    ("error", "transport"),
    [
        (ConnectionError(), True),
        (TimeoutError(), True),
        (asyncio.TimeoutError(), True),
        (OSError(), True),
        (EndpointConnectionError(endpoint_url="https://x"), True),
        (ReadTimeoutError(endpoint_url="https://x"), True),
        (client_error("500"), False),
        (ServiceError("NotFound"), False),
        (NotFound(), False),
        (ValueError(), False),
    ],
)
def test_transport_errors(error: Exception, transport: bool) -> None:
    assert is_transport_error(error) is transport


def test_errortype_compares_the_name_part_of_an_absolute_shape_id() -> None:
    definition = WaiterDefinition(
        "Gone",
        "ns#Describe",
        (
            Acceptor(
                AcceptorState.SUCCESS, ErrorTypeMatcher("com.example#ResourceNotFound")
            ),
            Acceptor(AcceptorState.RETRY, SuccessMatcher(True)),
        ),
    )
    for driver in DRIVERS.values():
        run = driver(
            definition, [{}, client_error("ResourceNotFound")], max_wait_time=60
        )
        assert [a.state for a in run.outcome.history] == [RETRY, SUCCESS]
        assert run.outcome.history[1].error_type == "ResourceNotFound"


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_transport_errors_fail_the_wait_unless_retry_on_says_otherwise(
    driver: str,
) -> None:
    run = DRIVERS[driver](
        BUCKET_EXISTS, [ConnectionResetError("reset"), {}], max_wait_time=60
    )
    assert isinstance(run.error, WaiterOperationError)
    assert isinstance(run.error.__cause__, ConnectionResetError)
    assert "retry_on=(ConnectionResetError,)" in str(run.error)
    assert [a.state for a in run.outcome.history] == [FAILURE]

    run = DRIVERS[driver](
        BUCKET_EXISTS,
        [ConnectionResetError("reset"), {}],
        max_wait_time=60,
        waiter_kwargs={"retry_on": (ConnectionError,)},
    )
    assert run.error is None
    assert [a.state for a in run.outcome.history] == [RETRY, SUCCESS]
    assert run.outcome.history[0].acceptor_index is None


def test_transport_errors_are_never_shown_to_acceptors() -> None:
    """`success: false` matches any service error, but not a dropped connection."""
    definition = WaiterDefinition(
        "Deleted", "ns#Get", (Acceptor(AcceptorState.SUCCESS, SuccessMatcher(False)),)
    )
    run = DRIVERS["sync"](
        definition,
        [EndpointConnectionError(endpoint_url="https://x")],
        max_wait_time=60,
    )
    assert isinstance(run.error, WaiterOperationError)
    run = DRIVERS["sync"](definition, [client_error("NoSuchThing")], max_wait_time=60)
    assert run.error is None and run.outcome.state is SUCCESS


def test_retry_on_also_covers_service_errors_no_acceptor_matched() -> None:
    run = DRIVERS["sync"](
        BUCKET_EXISTS,
        [ServiceError("SlowDown"), {}],
        max_wait_time=60,
        waiter_kwargs={"retry_on": (ServiceError,)},
    )
    assert [a.state for a in run.outcome.history] == [RETRY, SUCCESS]
    assert run.outcome.history[0].error_type == "SlowDown"


def _smithy_core_modeled_error() -> type[Exception]:
    """smithy-core's `ModeledError` when installed (Python 3.12+), else a stand-in
    with its name and module, which is all the runtime looks at."""
    try:
        from smithy_core.exceptions import ModeledError  # type: ignore[import-not-found]
    except ImportError:
        return type(
            "ModeledError", (Exception,), {"__module__": "smithy_core.exceptions"}
        )
    return ModeledError  # type: ignore[no-any-return]


def test_a_smithy_python_modeled_error_is_its_class_even_with_a_code_member() -> None:
    # Glacier's ResourceNotFoundException has members `type`, `code`, `message`: the
    # generated class's `code` attribute holds data, the class name is the code.
    modeled = _smithy_core_modeled_error()
    error_class = type("ResourceNotFoundException", (modeled,), {})
    error = error_class("vault is gone")
    error.code = "404 vault"  # type: ignore[attr-defined]
    assert error_code(error) == "ResourceNotFoundException"


def test_a_code_attribute_still_counts_outside_smithy_core() -> None:
    look_alike = type("ModeledError", (Exception,), {"__module__": "mine.errors"})
    error = type("Oops", (look_alike,), {})("x")
    error.code = "Throttled"  # type: ignore[attr-defined]
    assert error_code(error) == "Throttled"


@pytest.mark.parametrize(
    "error",
    [
        ParamValidationError(report="Missing required parameter Bucket"),
        NoCredentialsError(),
        UnknownServiceError(service_name="nope", known_service_names="s3"),
    ],
)
def test_a_botocore_error_that_is_not_about_the_connection_is_no_transport_error(
    error: Exception,
) -> None:
    """A bad parameter or missing credentials were 'transport errors' with advice
    to retry them; the acceptors see them (none matches) and the wait says to
    check the input."""
    assert not is_transport_error(error)
    run = DRIVERS["sync"](BUCKET_EXISTS, [error], max_wait_time=60)
    assert isinstance(run.error, WaiterOperationError)
    message = str(run.error)
    assert "which no acceptor matches" in message and "check the input" in message
    assert "transport error" not in message


@pytest.mark.parametrize(
    "error",
    [
        ConnectionClosedError(endpoint_url="https://x"),
        ConnectTimeoutError(endpoint_url="https://x"),
        ProxyConnectionError(proxy_url="https://p"),
        SSLError(endpoint_url="https://x", error="bad"),
    ],
)
def test_botocore_connection_failures_are_transport_errors(error: Exception) -> None:
    assert is_transport_error(error)
