"""Generated waiters over plain callables `input -> output`, sync and async.

No SDK at all: the waiter calls the function with the input mapping and reads
what it returns; an exception's error code is its `code` attribute or, failing
that, its class name. Time is virtual, so nothing sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any

import pytest

from waitable import WaiterConfigurationError, WaiterOperationError
from waitable.testing import VirtualClock

from .scenarios import history_of


class ResourceNotFoundException(Exception):
    """Named like the model's error shape, so `errorType` matches it by class name."""


class Throttled(Exception):
    """An error with an explicit code, as hand-written clients often carry."""

    code = "ThrottlingException"


def statuses(*answers: Any) -> Iterator[Any]:
    """Each call's answer: a table status, or an exception to raise."""
    yield from answers


def describe_table_from(answers: Iterator[Any], calls: list[Mapping[str, Any]]) -> Any:
    def describe_table(input: Mapping[str, Any]) -> dict[str, Any]:
        calls.append(input)
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return {"Table": {"TableName": input["TableName"], "TableStatus": answer}}

    return describe_table


def test_a_sync_function_is_polled_until_the_model_says_success(
    generated: ModuleType,
) -> None:
    calls: list[Mapping[str, Any]] = []
    describe_table = describe_table_from(
        statuses(ResourceNotFoundException(), "CREATING", "ACTIVE"), calls
    )
    clock = VirtualClock()
    waiter = generated.dynamodb.TableExistsWaiter(describe_table, clock=clock)
    result = waiter.wait({"TableName": "orders"}, max_wait_time=600)
    assert history_of(result) == [
        ("retry", "ResourceNotFoundException"),
        ("retry", None),
        ("success", None),
    ]
    assert calls == [{"TableName": "orders"}] * 3
    assert result.output == {"Table": {"TableName": "orders", "TableStatus": "ACTIVE"}}
    # The model's minDelay for TableExists is 20 seconds: two delays of at least that.
    assert clock.now() >= 40


def test_an_async_function_is_awaited(generated: ModuleType) -> None:
    answers = statuses("CREATING", "ACTIVE")

    async def describe_table(input: Mapping[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"Table": {"TableStatus": next(answers)}}

    waiter = generated.dynamodb.AsyncTableExistsWaiter(
        describe_table, clock=VirtualClock()
    )
    result = asyncio.run(waiter.wait({"TableName": "orders"}, max_wait_time=600))
    assert history_of(result) == [("retry", None), ("success", None)]


def test_an_error_with_a_code_attribute_fails_the_waiter_under_that_code(
    generated: ModuleType,
) -> None:
    describe_table = describe_table_from(statuses(Throttled()), [])
    waiter = generated.dynamodb.TableExistsWaiter(describe_table, clock=VirtualClock())
    with pytest.raises(WaiterOperationError) as raised:
        waiter.wait({"TableName": "orders"}, max_wait_time=600)
    assert raised.value.error_code == "ThrottlingException"
    assert isinstance(raised.value.__cause__, Throttled)


def test_a_sync_function_handed_to_an_async_waiter_is_a_clear_error(
    generated: ModuleType,
) -> None:
    describe_table = describe_table_from(statuses("ACTIVE"), [])
    waiter = generated.dynamodb.AsyncTableExistsWaiter(
        describe_table, clock=VirtualClock()
    )
    with pytest.raises(
        WaiterConfigurationError, match="use TableExistsWaiter for a synchronous client"
    ):
        asyncio.run(waiter.wait({"TableName": "orders"}, max_wait_time=600))
