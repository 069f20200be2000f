"""Generated asyncio waiters driving a smithy-python-shaped client, over moto's server.

The client (`smithy_shaped`) takes and returns snake_case dataclasses and raises
modeled errors as exception classes; the waiters' paths stay in the model's
member names (`Table.TableStatus`). The adapter bridges the two.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any, TypeVar

import pytest

from waitable import WaiterOperationError
from waitable.adapters import SmithyPythonAdapterError, smithy_python_waiter

from . import smithy_shaped
from .scenarios import FAST, SCENARIOS, Scenario, World, history_of
from .test_aiobotocore_end_to_end import aio_client

T = TypeVar("T")

SHAPED = {"dynamodb": smithy_shaped.DynamoDB, "dsql": smithy_shaped.DSQL}


def run(world: World, service: str, use: Callable[[Any], Awaitable[T]]) -> T:
    """Run `use(client)` with the smithy-python-shaped client for `service`."""

    async def main() -> T:
        async with aio_client(service, world.moto.endpoint_url) as wire:
            return await use(SHAPED[service](wire))

    return asyncio.run(main())


SMITHY_SCENARIOS = [s for s in SCENARIOS if s.service in SHAPED]


@pytest.mark.parametrize(
    "scenario", SMITHY_SCENARIOS, ids=[s.id for s in SMITHY_SCENARIOS]
)
def test_scenario(scenario: Scenario, world: World, generated: ModuleType) -> None:
    cls = getattr(getattr(generated, scenario.service), f"Async{scenario.waiter}Waiter")

    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(cls, client, on_attempt=scenario.hook(world))
        return await waiter.wait(input, **FAST)

    with scenario.arrange(world) as input:
        result = run(world, scenario.service, wait)
    assert history_of(result) == scenario.history


def test_the_output_is_keyed_by_the_models_member_names(
    world: World, generated: ModuleType
) -> None:
    world.create_table()

    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(generated.dynamodb.AsyncTableExistsWaiter, client)
        return await waiter.wait({"TableName": world.name}, **FAST)

    output = run(world, "dynamodb", wait).output
    # Every structure named back from the generated TypedDicts, nested lists too.
    assert output["Table"]["TableName"] == world.name
    assert output["Table"]["TableStatus"] == "ACTIVE"
    assert output["Table"]["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    assert "CreationDateTime" in output["Table"]


def test_a_modeled_error_no_acceptor_matches_fails_the_waiter(
    world: World, generated: ModuleType
) -> None:
    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(generated.dsql.AsyncClusterActiveWaiter, client)
        return await waiter.wait({"identifier": "0123456789abcdefghijklmnop"}, **FAST)

    with pytest.raises(WaiterOperationError) as raised:
        run(world, "dsql", wait)
    assert raised.value.error_code == "ResourceNotFoundException"
    assert isinstance(raised.value.__cause__, smithy_shaped.ResourceNotFoundException)


def test_a_sync_waiter_class_is_refused(generated: ModuleType) -> None:
    with pytest.raises(
        SmithyPythonAdapterError, match="pass a generated Async...Waiter"
    ):
        smithy_python_waiter(generated.dsql.ClusterActiveWaiter, object())
