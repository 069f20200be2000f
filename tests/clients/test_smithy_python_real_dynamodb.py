"""Generated DynamoDB waiters driving AWS's own smithy-python client (aws-sdk-dynamodb) over moto.

The client is the published `AsyncDynamoDBClient`, configured in code (moto's
endpoint URI, a region, a static credentials identity resolver, one attempt per
call); inputs become its dataclasses, its outputs are read by the model's
member names, and its errors are matched as it raises them: modeled errors as
their own classes, unmodeled ones and transport failures as the adapter re-raises
them (`waitable.adapters.smithy_errors`).
"""

from __future__ import annotations

import sys

import pytest

if sys.version_info < (3, 12):
    pytest.skip(
        "aws-sdk-dynamodb/aws-sdk-lambda need Python 3.12 or newer",
        allow_module_level=True,
    )

import asyncio
import socket
import threading
from types import ModuleType
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from awscrt.exceptions import AwsCrtError
from aws_sdk_dynamodb.models import DescribeTableInput, ResourceNotFoundException
from smithy_core.exceptions import CallError, ClientTimeoutError, SmithyError
from smithy_http.aio.aiohttp import AIOHTTPClient
from smithy_http.aio.crt import AWSCRTHTTPClient

from waitable import (
    AsyncWaiter,
    WaiterConfigurationError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from waitable.adapters import (
    SmithyPythonConnectionError,
    SmithyPythonTimeoutError,
    SmithyPythonUnmodeledError,
    smithy_python_waiter,
)
from waitable.definition import WaiterDefinition
from waitable.error_codes import error_code, is_transport_error

from .conftest import closed_port
from .real_smithy import (  # noqa: F401  (fixtures)
    TIMING_OUT,
    run_scenario,
    polls_made,
    dynamodb_client,
    no_aws_environment,
    real_generated,
    real_world,
    run,
    waiter_class,
)
from .scenarios import (
    FAST,
    RETRY,
    SCENARIOS,
    SUCCESS,
    Scenario,
    World,
    existing_table,
    history_of,
    missing_table,
)

NOT_FOUND = "ResourceNotFoundException"

DYNAMODB_SCENARIOS = [s for s in SCENARIOS if s.service == "dynamodb"] + [
    Scenario(
        "dynamodb-table-exists-at-once",
        "dynamodb",
        "TableExists",
        existing_table,
        [(SUCCESS, None)],
    ),
    Scenario(
        "dynamodb-table-exists-after-two-misses",
        "dynamodb",
        "TableExists",
        missing_table,
        [(RETRY, NOT_FOUND), (RETRY, NOT_FOUND), (SUCCESS, None)],
        {2: World.create_table},
    ),
    Scenario(
        "dynamodb-table-not-exists-at-once",
        "dynamodb",
        "TableNotExists",
        missing_table,
        [(SUCCESS, NOT_FOUND)],
    ),
]


@pytest.mark.parametrize(
    "scenario", DYNAMODB_SCENARIOS, ids=[s.id for s in DYNAMODB_SCENARIOS]
)
def test_scenario(
    scenario: Scenario, real_world: World, real_generated: ModuleType
) -> None:
    result = run_scenario(scenario, real_world, real_generated, "dynamodb")
    assert history_of(result) == scenario.history


def test_the_client_raises_its_modeled_class_with_no_code_attribute(
    real_world: World,
) -> None:
    async def describe(client: Any) -> BaseException:
        with pytest.raises(ResourceNotFoundException) as raised:
            await client.describe_table(DescribeTableInput(table_name=real_world.name))
        return raised.value

    error = run(real_world, "dynamodb", describe)
    # The class name is the code: there is no `code` attribute to read instead.
    assert not hasattr(error, "code") and not hasattr(error, "error_code")
    assert error_code(error) == NOT_FOUND
    assert not is_transport_error(error)


def _table_wait(
    world: World, generated: ModuleType, waiter: str, timing: dict[str, float]
) -> Callable[[Any], Awaitable[Any]]:
    """What `run` calls with a real client: the generated `waiter` on the world's table."""
    cls = waiter_class(generated, "dynamodb", waiter)

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            {"TableName": world.name}, **timing
        )

    return wait


def test_an_error_type_acceptor_matches_the_real_modeled_exception(
    real_world: World, real_generated: ModuleType
) -> None:
    wait = _table_wait(real_world, real_generated, "TableNotExists", FAST)

    result = run(real_world, "dynamodb", wait)
    [attempt] = result.history
    assert (attempt.state.value, attempt.error_type) == (SUCCESS, NOT_FOUND)
    # The model's only acceptor, `errorType: ResourceNotFoundException`.
    assert attempt.acceptor_index == 0


def test_the_output_is_keyed_by_the_models_member_names(
    real_world: World, real_generated: ModuleType
) -> None:
    real_world.create_table()
    wait = _table_wait(real_world, real_generated, "TableExists", FAST)

    table = run(real_world, "dynamodb", wait).output["Table"]
    assert table["TableName"] == real_world.name
    assert table["TableStatus"] == "ACTIVE"
    assert table["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert "CreationDateTime" in table and "table_status" not in table


def test_a_missing_table_times_out_table_exists(
    real_world: World, real_generated: ModuleType
) -> None:
    wait = _table_wait(real_world, real_generated, "TableExists", TIMING_OUT)

    with pytest.raises(WaiterTimeoutError) as raised:
        run(real_world, "dynamodb", wait)
    # Every poll (however many the clock allowed) was a retry on the missing table.
    assert set(history_of(polls_made(raised.value.result))) == {(RETRY, NOT_FOUND)}


def _create_table_waiter(
    acceptors: list[dict[str, Any]],
) -> type[AsyncWaiter[Any, Any]]:
    """A waiter on CreateTable, whose bad input moto answers with an unmodeled error."""

    class AsyncCreateTableWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
        definition = WaiterDefinition.from_trait(
            "TableCreated",
            "com.amazonaws.dynamodb#CreateTable",
            {"acceptors": acceptors},
        )

    return AsyncCreateTableWaiter


def _empty_key_schema(name: str) -> dict[str, Any]:
    # DynamoDB answers ValidationException, which CreateTable does not model.
    return {"TableName": name, "KeySchema": [], "AttributeDefinitions": []}


#: A success acceptor the invalid request never reaches (a waiter must have one).
_CREATED = {
    "state": "success",
    "matcher": {
        "output": {
            "path": "TableDescription.TableStatus",
            "expected": "ACTIVE",
            "comparator": "stringEquals",
        }
    },
}


def _wait_on_an_empty_key_schema(world: World, acceptor: dict[str, Any]) -> Any:
    """A CreateTable waiter with `acceptor` (then one for success on the output),
    polled with an invalid key schema."""
    cls = _create_table_waiter([acceptor, _CREATED])

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            _empty_key_schema(world.name), **FAST
        )

    return run(world, "dynamodb", wait)


def test_an_error_type_acceptor_matches_an_unmodeled_error_by_its_code(
    real_world: World,
) -> None:
    result = _wait_on_an_empty_key_schema(
        real_world,
        {"state": "success", "matcher": {"errorType": "ValidationException"}},
    )
    assert history_of(result) == [(SUCCESS, "ValidationException")]


def test_an_unmodeled_error_no_acceptor_matches_fails_with_its_code(
    real_world: World,
) -> None:
    with pytest.raises(WaiterOperationError) as raised:
        _wait_on_an_empty_key_schema(
            real_world,
            {"state": "retry", "matcher": {"errorType": "ResourceInUseException"}},
        )
    assert raised.value.error_code == "ValidationException"
    cause = raised.value.__cause__
    assert isinstance(cause, SmithyPythonUnmodeledError)
    assert cause.code == "ValidationException"
    # The client's own exception, chained: smithy-core's bare CallError.
    assert type(cause.__cause__) is CallError


def test_a_refused_connection_is_a_transport_error(
    real_world: World, real_generated: ModuleType
) -> None:
    wait = _table_wait(real_world, real_generated, "TableNotExists", FAST)

    endpoint = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(WaiterOperationError) as raised:
        run(real_world, "dynamodb", wait, endpoint_url=endpoint)
    cause = raised.value.__cause__
    assert isinstance(cause, SmithyPythonConnectionError)
    assert isinstance(cause, ConnectionError) and is_transport_error(cause)
    # smithy-core wraps the transport's exception: SmithyError(e) from e.
    assert type(cause.__cause__) is SmithyError
    assert isinstance(cause.__cause__.__cause__, OSError)
    assert "is a transport error" in str(raised.value)
    assert len(raised.value.result.history) == 1


@pytest.mark.parametrize("transport", ["aiohttp", "crt"])
def test_retry_on_connection_error_retries_a_refused_connection(
    real_world: World, real_generated: ModuleType, transport: str
) -> None:
    cls = waiter_class(real_generated, "dynamodb", "TableNotExists")

    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(cls, client, retry_on=(ConnectionError,))
        return await waiter.wait({"TableName": real_world.name}, **TIMING_OUT)

    endpoint = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(WaiterTimeoutError) as raised:
        if transport == "crt":
            _over_crt(real_world, endpoint, wait)
        else:
            run(real_world, "dynamodb", wait, endpoint_url=endpoint)
    states = {attempt.state.value for attempt in raised.value.result.history}
    assert states == {RETRY}


def _over_crt(
    world: World, endpoint: str, wait: Callable[[Any], Awaitable[Any]]
) -> Any:
    """`wait` with a real client whose transport is the CRT's HTTP client."""

    async def main() -> Any:
        async with dynamodb_client(endpoint, transport=AWSCRTHTTPClient()) as client:
            return await wait(client)

    return asyncio.run(main())


def test_the_crt_client_waits_like_the_default_one(
    real_world: World, real_generated: ModuleType
) -> None:
    real_world.create_table()
    wait = _table_wait(real_world, real_generated, "TableExists", FAST)
    result = _over_crt(real_world, real_world.moto.endpoint_url, wait)
    assert [attempt.state.value for attempt in result.history] == [SUCCESS]


def test_a_refused_connection_through_the_crt_client_is_a_transport_error(
    real_world: World, real_generated: ModuleType
) -> None:
    """The CRT client's failure is awscrt's one class, a network failure by its name."""
    wait = _table_wait(real_world, real_generated, "TableNotExists", FAST)

    endpoint = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(WaiterOperationError) as raised:
        _over_crt(real_world, endpoint, wait)
    cause = raised.value.__cause__
    assert isinstance(cause, SmithyPythonConnectionError)
    assert isinstance(cause, ConnectionError) and is_transport_error(cause)
    # smithy-core wraps the transport's exception: SmithyError(e) from e.
    assert type(cause.__cause__) is SmithyError
    crt_error = cause.__cause__.__cause__
    assert isinstance(crt_error, AwsCrtError)
    assert crt_error.name == "AWS_IO_SOCKET_CONNECTION_REFUSED"
    assert "is a transport error" in str(raised.value)


def test_a_crt_request_the_server_drops_ends_at_the_deadline(
    real_world: World, real_generated: ModuleType
) -> None:
    """smithy-http 0.6's CRT client never answers when the server reads the request
    and closes the connection; the wait still ends at its deadline, with the request
    it cut off in its history."""
    wait = _table_wait(real_world, real_generated, "TableNotExists", TIMING_OUT)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        dropping = threading.Thread(target=_drop_connections, args=(listener,))
        dropping.start()
        try:
            with pytest.raises(WaiterTimeoutError) as raised:
                _over_crt(
                    real_world, f"http://127.0.0.1:{listener.getsockname()[1]}", wait
                )
        finally:
            listener.shutdown(socket.SHUT_RDWR)
            dropping.join()
    history = raised.value.result.history
    assert history and history[-1].output is None and history[-1].error_type is None


def _drop_connections(listener: socket.socket) -> None:
    """Accept each connection, read the request, close it without an answer."""
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:  # the listener was shut down
            return
        with connection:
            connection.settimeout(30)  # a client that never sends cannot hang the suite
            try:
                connection.recv(65536)
            except OSError:
                pass


def test_a_request_timeout_is_a_transport_timeout(
    real_world: World, real_generated: ModuleType, silent_endpoint: str
) -> None:
    wait = _table_wait(real_world, real_generated, "TableNotExists", FAST)

    async def main() -> Any:
        # AIOHTTPClient 0.6 ignores http_request_config's read_timeout; the
        # session's own timeout is what makes the request time out.
        session = aiohttp.ClientSession(
            auto_decompress=False, timeout=aiohttp.ClientTimeout(total=0.3)
        )
        transport = AIOHTTPClient(_session=session)
        async with dynamodb_client(silent_endpoint, transport=transport) as client:
            return await wait(client)

    with pytest.raises(WaiterOperationError) as raised:
        asyncio.run(main())
    cause = raised.value.__cause__
    assert isinstance(cause, SmithyPythonTimeoutError)
    assert isinstance(cause, TimeoutError) and is_transport_error(cause)
    assert isinstance(cause.__cause__, ClientTimeoutError)


def test_a_nested_required_member_missing_from_the_input_ends_the_wait(
    real_world: World,
) -> None:
    cls = _create_table_waiter([{"state": "success", "matcher": {"success": True}}])
    input = {"TableName": real_world.name, "KeySchema": [{"AttributeName": "id"}]}

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(input, **FAST)

    with pytest.raises(WaiterConfigurationError, match="KeySchemaElement needs"):
        run(real_world, "dynamodb", wait)
    # No request was made: the table was never created.
    with pytest.raises(
        real_world.clients["dynamodb"].exceptions.ResourceNotFoundException
    ):
        real_world.clients["dynamodb"].describe_table(TableName=real_world.name)


class AsyncItemWrittenWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
    """A waiter on GetItem: its key and its output are maps of AttributeValue unions."""

    definition = WaiterDefinition.from_trait(
        "ItemWritten",
        "com.amazonaws.dynamodb#GetItem",
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "Item.state.S",
                            "expected": "done",
                            "comparator": "stringEquals",
                        }
                    },
                },
                {
                    "state": "retry",
                    "matcher": {
                        "output": {
                            "path": "Item == null",
                            "expected": "true",
                            "comparator": "booleanEquals",
                        }
                    },
                },
            ]
        },
    )


def test_union_members_go_in_and_come_out_by_the_models_member_names(
    real_world: World,
) -> None:
    real_world.create_table()
    table = real_world.clients["dynamodb"]

    def put_item(attempt: Any) -> None:
        if attempt.number == 1:
            table.put_item(
                TableName=real_world.name,
                Item={"id": {"S": "job-1"}, "state": {"S": "done"}, "n": {"N": "3"}},
            )

    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(
            AsyncItemWrittenWaiter, client, on_attempt=put_item
        )
        key = {"id": {"S": "job-1"}}
        return await waiter.wait({"TableName": real_world.name, "Key": key}, **FAST)

    result = run(real_world, "dynamodb", wait)
    assert history_of(result) == [(RETRY, None), (SUCCESS, None)]
    assert result.output["Item"] == {
        "id": {"S": "job-1"},
        "state": {"S": "done"},
        "n": {"N": "3"},
    }
