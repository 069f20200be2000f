"""How the adapter reads smithy-core's own exception classes (`client_error`).

The wire tests see these errors come from moto; here the real classes are
built directly, so that every shape of message smithy-http and smithy-aws-core
write for an unmodeled error (JSON's shape id, XML's code, status only), and
every way smithy-core wraps a transport failure, is covered, including what a
service's own message must not be able to change.
"""

from __future__ import annotations

import sys

import pytest

if sys.version_info < (3, 12):
    pytest.skip(
        "aws-sdk-dynamodb/aws-sdk-lambda need Python 3.12 or newer",
        allow_module_level=True,
    )

import aiohttp
from awscrt.exceptions import AwsCrtError, from_code
from aws_sdk_dynamodb.models import ResourceNotFoundException
from hypothesis import given
from hypothesis import strategies as st
from smithy_core.exceptions import CallError, ClientTimeoutError, SmithyError

from waitable.adapters.smithy_errors import (
    SmithyPythonConnectionError,
    SmithyPythonTimeoutError,
    SmithyPythonUnmodeledError,
    client_error,
)
from waitable.error_codes import error_code, is_transport_error

names = st.from_regex(r"[A-Za-z][A-Za-z0-9_.]{0,40}", fullmatch=True)
namespaces = st.from_regex(
    r"[a-z][a-z0-9]{0,10}(\.[a-z][a-z0-9]{0,10}){0,3}", fullmatch=True
)
statuses = st.integers(min_value=400, max_value=599)
# What a service may write into its own message, which follows the fields read.
service_messages = st.text(max_size=60).map(lambda text: f" - message: {text}")


def crt_error(name: str) -> AwsCrtError:
    """awscrt's own error for `name` (awscrt numbers its errors by library, 1024 each)."""
    for code in range(1024 * 16):
        error = from_code(code)
        if isinstance(error, AwsCrtError) and error.name == name:
            return error
    raise LookupError(name)


def caused(error: BaseException, cause: BaseException) -> BaseException:
    """`error` as smithy-core raises it: `raise error from cause`."""
    error.__cause__ = cause
    return error


def unmodeled(message: str) -> SmithyPythonUnmodeledError:
    replacement = client_error(CallError(message=message))
    assert isinstance(replacement, SmithyPythonUnmodeledError)
    return replacement


@given(namespace=namespaces, name=names, status=statuses)
def test_a_json_error_is_named_by_the_shape_id_in_its_message(
    namespace: str, name: str, status: int
) -> None:
    message = (
        f"Unknown error for operation {namespace}#GetThing - status: {status}"
        f" - id: {namespace}#{name} - reason: Bad Request"
    )
    replacement = unmodeled(message)
    assert replacement.code == name
    assert error_code(replacement) == name


@given(name=names, status=statuses, service_message=service_messages)
def test_an_xml_error_is_named_by_the_code_in_its_message(
    name: str, status: int, service_message: str
) -> None:
    message = (
        f"Unknown error for operation com.amazonaws.s3#HeadBucket - status: {status}"
        f" - code: {name}{service_message} - reason: Not Found"
    )
    assert unmodeled(message).code == name


@given(status=statuses, service_message=service_messages)
def test_an_error_that_names_nothing_is_its_status(
    status: int, service_message: str
) -> None:
    # Even when the service's own message says ` - id: ...` or ` - code: ...`.
    message = (
        f"Unknown error for operation com.amazonaws.lambda#GetFunction - status: "
        f"{status}{service_message} - id: Injected - code: Injected - reason: x"
    )
    assert unmodeled(message).code == str(status)


@pytest.mark.parametrize(
    ("named", "code"),
    [
        ("aws.protocoltests#FooError:http://internal.amazon.com/coral/", "FooError"),
        ("InvalidInstanceID.NotFound", "InvalidInstanceID.NotFound"),
        ("Evil\x1b[31mCode", "400"),  # not a code's characters: the status
        ("", "400"),
    ],
)
def test_only_a_well_formed_name_is_read_as_the_code(named: str, code: str) -> None:
    message = (
        f"Unknown error for operation a.b#Op - status: 400 - id: {named} - reason: x"
    )
    assert unmodeled(message).code == code


def test_an_http_408_is_a_service_answer_not_a_transport_timeout() -> None:
    error = CallError(
        message="Unknown error for operation a.b#Op - status: 408 - reason: 408",
        is_timeout_error=True,
    )
    assert unmodeled(error.message).code == "408"
    assert not isinstance(client_error(error), TimeoutError)


@pytest.mark.parametrize(
    "error",
    [
        CallError(message="something smithy-core did not write"),
        SmithyError("Invalid host: x"),
        caused(SmithyError(ValueError("bad")), ValueError("bad")),
        ValueError("not smithy's"),
        ConnectionResetError("already a transport error"),
        caused(
            SmithyError(crt_error("AWS_ERROR_HTTP_INVALID_HEADER_VALUE")),
            crt_error("AWS_ERROR_HTTP_INVALID_HEADER_VALUE"),
        ),
    ],
    ids=[
        "other-call-error",
        "smithy-error",
        "wrapped-non-transport",
        "value",
        "os",
        "crt-not-network",
    ],
)
def test_other_errors_are_raised_as_they_are(error: BaseException) -> None:
    assert client_error(error) is None


def test_a_modeled_error_is_raised_as_it_is_whatever_caused_it() -> None:
    error = caused(ResourceNotFoundException(message="gone"), ConnectionResetError())
    assert client_error(error) is None


@pytest.mark.parametrize(
    "cause",
    [
        ConnectionRefusedError(111, "Connect call failed"),
        aiohttp.ServerDisconnectedError(),  # aiohttp's, and not an OSError
        crt_error("AWS_ERROR_HTTP_SERVER_CLOSED"),  # the CRT client's, by its name
        crt_error("AWS_IO_DNS_QUERY_FAILED"),
        crt_error("AWS_IO_TLS_HOST_NAME_MISMATCH"),  # lasting, a transport error still
    ],
    ids=[
        "refused",
        "server-disconnected",
        "crt-server-closed",
        "crt-dns",
        "crt-certificate",
    ],
)
def test_a_wrapped_transport_failure_is_a_connection_error(
    cause: BaseException,
) -> None:
    replacement = client_error(caused(SmithyError(cause), cause))
    assert isinstance(replacement, SmithyPythonConnectionError)
    assert isinstance(replacement, ConnectionError) and is_transport_error(replacement)


@pytest.mark.parametrize(
    "error",
    [
        caused(ClientTimeoutError(message="A timeout error occurred."), TimeoutError()),
        ClientTimeoutError(message="A timeout error occurred."),
        caused(SmithyError(TimeoutError()), TimeoutError()),
        caused(
            SmithyError(crt_error("AWS_ERROR_HTTP_RESPONSE_FIRST_BYTE_TIMEOUT")),
            crt_error("AWS_ERROR_HTTP_RESPONSE_FIRST_BYTE_TIMEOUT"),
        ),
    ],
    ids=[
        "client-timeout",
        "client-timeout-uncaused",
        "wrapped-timeout",
        "crt-first-byte-timeout",
    ],
)
def test_a_transport_timeout_is_a_timeout_error(error: BaseException) -> None:
    replacement = client_error(error)
    assert isinstance(replacement, SmithyPythonTimeoutError)
    assert isinstance(replacement, TimeoutError) and is_transport_error(replacement)
