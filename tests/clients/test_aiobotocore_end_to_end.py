"""Generated asyncio waiters from the real models driving aiobotocore clients against moto."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any, TypeVar

import pytest
from aiobotocore.session import get_session
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from waitable import (
    WaiterConfigurationError,
    WaiterOperationError,
    WaiterTimeoutError,
)

from .conftest import FAKE_CREDENTIALS, REGION, MotoServer, client_config, closed_port
from .scenarios import FAST, SCENARIOS, Scenario, World, history_of

T = TypeVar("T")

# One session for the module: it caches the service models clients are built from.
SESSION = get_session()


@asynccontextmanager
async def aio_client(
    service: str, endpoint_url: str, **config: Any
) -> AsyncIterator[Any]:
    """An aiobotocore client for `service` on `endpoint_url`, closed on exit."""
    async with SESSION.create_client(
        service,
        endpoint_url=endpoint_url,
        region_name=REGION,
        config=client_config(**config),
        **FAKE_CREDENTIALS,
    ) as client:
        yield client


def run(service: str, endpoint_url: str, use: Callable[[Any], Awaitable[T]]) -> T:
    """Run `use(client)` in a fresh event loop with an aiobotocore client."""

    async def main() -> T:
        async with aio_client(service, endpoint_url) as client:
            return await use(client)

    return asyncio.run(main())


def waiter_class(generated: ModuleType, service: str, name: str) -> Any:
    return getattr(getattr(generated, service), f"Async{name}Waiter")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario: Scenario, world: World, generated: ModuleType) -> None:
    cls = waiter_class(generated, scenario.service, scenario.waiter)

    async def wait(client: Any) -> Any:
        waiter = cls(client, on_attempt=scenario.hook(world))
        return await waiter.wait(input, **FAST)

    with scenario.arrange(world) as input:
        result = run(scenario.service, world.moto.endpoint_url, wait)
    assert history_of(result) == scenario.history
    assert result.state.value == "success"


def test_an_error_no_acceptor_matches_fails_with_the_client_error_chained(
    moto_server: MotoServer, generated: ModuleType
) -> None:
    cls = waiter_class(generated, "dsql", "ClusterActive")

    async def wait(client: Any) -> Any:
        return await cls(client).wait(
            {"identifier": "0123456789abcdefghijklmnop"}, **FAST
        )

    with pytest.raises(WaiterOperationError) as raised:
        run("dsql", moto_server.endpoint_url, wait)
    assert raised.value.error_code == "ResourceNotFoundException"
    assert isinstance(raised.value.__cause__, ClientError)
    assert history_of(raised.value.result) == [("failure", "ResourceNotFoundException")]


def test_a_bucket_that_never_appears_times_out_after_retrying(
    world: World, generated: ModuleType
) -> None:
    cls = waiter_class(generated, "s3", "BucketExists")

    async def wait(client: Any) -> Any:
        return await cls(client).wait(
            {"Bucket": world.name}, max_wait_time=1.0, min_delay=0.05, max_delay=0.1
        )

    with pytest.raises(WaiterTimeoutError) as raised:
        run("s3", world.moto.endpoint_url, wait)
    history = history_of(raised.value.result)
    assert len(history) >= 2
    assert all(error == "NotFound" for _, error in history)


def test_a_connection_error_fails_the_waiter_with_the_cause_chained(
    generated: ModuleType,
) -> None:
    cls = waiter_class(generated, "s3", "BucketExists")

    async def wait(client: Any) -> Any:
        return await cls(client).wait({"Bucket": "waitable-unreachable"}, **FAST)

    with pytest.raises(WaiterOperationError) as raised:
        run("s3", f"http://127.0.0.1:{closed_port()}", wait)
    assert isinstance(raised.value.__cause__, EndpointConnectionError)
    assert raised.value.result.attempts == 1


def test_a_connection_error_the_caller_opts_into_is_retried(
    generated: ModuleType,
) -> None:
    cls = waiter_class(generated, "s3", "BucketExists")

    async def wait(client: Any) -> Any:
        waiter = cls(client, retry_on=(EndpointConnectionError,))
        return await waiter.wait(
            {"Bucket": "waitable-unreachable"},
            max_wait_time=1.0,
            min_delay=0.05,
            max_delay=0.1,
        )

    with pytest.raises(WaiterTimeoutError) as raised:
        run("s3", f"http://127.0.0.1:{closed_port()}", wait)
    assert raised.value.result.attempts >= 2
    assert {state for state, _ in history_of(raised.value.result)[:-1]} == {"retry"}


def test_a_read_timeout_fails_the_waiter_with_the_cause_chained(
    silent_endpoint: str, generated: ModuleType
) -> None:
    cls = waiter_class(generated, "s3", "BucketExists")

    async def main() -> Any:
        async with aio_client("s3", silent_endpoint, read_timeout=0.2) as client:
            return await cls(client).wait({"Bucket": "waitable-silent"}, **FAST)

    with pytest.raises(WaiterOperationError) as raised:
        asyncio.run(main())
    assert isinstance(raised.value.__cause__, ReadTimeoutError)
    assert raised.value.result.attempts == 1


def test_a_boto3_client_given_to_an_async_waiter_is_refused_naming_the_sync_class(
    world: World, generated: ModuleType
) -> None:
    s3 = world.clients["s3"]  # boto3's, whose calls would block the event loop
    with pytest.raises(WaiterConfigurationError) as refused:
        waiter_class(generated, "s3", "BucketExists")(s3)
    assert "use BucketExistsWaiter with it" in str(refused.value)
    s3.create_bucket(Bucket=world.name)  # and the class it names takes that client
    advised = getattr(generated.s3, "BucketExistsWaiter")(s3)
    assert advised.wait({"Bucket": world.name}, **FAST).attempts == 1


def test_an_unentered_create_client_is_refused_saying_to_enter_it(
    world: World, moto_server: MotoServer, generated: ModuleType
) -> None:
    world.clients["s3"].create_bucket(Bucket=world.name)

    async def main() -> Any:
        unentered = SESSION.create_client(
            "s3",
            endpoint_url=moto_server.endpoint_url,
            region_name=REGION,
            config=client_config(),
            **FAKE_CREDENTIALS,
        )
        cls = waiter_class(generated, "s3", "BucketExists")
        with pytest.raises(WaiterConfigurationError) as refused:
            cls(unentered)
        assert "an async context manager: pass the client it gives" in str(
            refused.value
        )
        async with unentered as client:  # what the message says to do works
            return await cls(client).wait({"Bucket": world.name}, **FAST)

    assert asyncio.run(main()).attempts == 1


def test_an_async_http_client_is_not_told_to_enter_a_create_client(
    generated: ModuleType,
) -> None:
    import httpx

    async def main() -> str:
        async with httpx.AsyncClient() as client:  # a client itself, not a factory
            with pytest.raises(WaiterConfigurationError) as refused:
                waiter_class(generated, "s3", "BucketExists")(client)
        return str(refused.value)

    message = asyncio.run(main())
    assert "got AsyncClient" in message and "create_client" not in message


def test_an_aiobotocore_client_of_another_service_is_not_told_to_enter_it(
    generated: ModuleType,
) -> None:
    """aiobotocore's client is an async context manager too: one of another
    service (no head_bucket) was told to pass what `async with` gives, which is
    what the caller had done. Made on a closed port: no request is sent."""

    async def main() -> str:
        async with SESSION.create_client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{closed_port()}",
            region_name=REGION,
            **FAKE_CREDENTIALS,
        ) as dynamodb:
            with pytest.raises(WaiterConfigurationError) as refused:
                waiter_class(generated, "s3", "BucketExists")(dynamodb)
        return str(refused.value)

    message = asyncio.run(main())
    assert "got DynamoDB" in message and "create_client" not in message


def test_an_aiobotocore_client_method_in_place_of_the_client_is_refused(
    moto_server: MotoServer, generated: ModuleType
) -> None:
    async def use(client: Any) -> str:
        with pytest.raises(WaiterConfigurationError) as refused:
            waiter_class(generated, "s3", "BucketExists")(client.head_bucket)
        return str(refused.value)

    message = run("s3", moto_server.endpoint_url, use)
    assert "got the client's method head_bucket()" in message
