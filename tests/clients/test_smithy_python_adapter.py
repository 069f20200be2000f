"""The smithy-python adapter on its own: names, input dataclasses, output dicts, errors."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, TypedDict

import pytest

from waitable import AsyncWaiter, WaiterConfigurationError
from waitable.adapters.smithy_python import (
    SmithyPythonAdapterError,
    SmithyPythonOperation,
    path_member_names,
    smithy_python_waiter,
)
from waitable.adapters.schema_names import serialized_member_name
from waitable.adapters.shapes import to_dataclass, to_member_dict
from waitable.definition import WaiterDefinition
from waitable.testing import VirtualClock

TABLE_EXISTS = WaiterDefinition.from_trait(
    "TableExists",
    "com.amazonaws.dynamodb#DescribeTable",
    {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "Table.TableStatus",
                        "expected": "ACTIVE",
                        "comparator": "stringEquals",
                    }
                },
            },
            {
                "state": "failure",
                "matcher": {
                    "output": {
                        "path": "length(Table.Replicas[?ReplicaStatus == 'FAILED']) > `0`",
                        "expected": "true",
                        "comparator": "booleanEquals",
                    }
                },
                "message": "Table.FailureReason",
            },
            {"state": "retry", "matcher": {"errorType": "ResourceNotFoundException"}},
        ]
    },
)


@dataclass(kw_only=True)
class DescribeTableInput:
    table_name: str | None = None


@dataclass(kw_only=True)
class Replica:
    region_name: str | None = None
    replica_status: str | None = None


@dataclass(kw_only=True)
class TableDescription:
    table_status: str | None = None
    failure_reason: str | None = None
    replicas: list[Replica] | None = None
    item_count: int | None = None


@dataclass(kw_only=True)
class DescribeTableOutput:
    table: TableDescription | None = None


class FakeDynamoDB:
    """Answers describe_table from a fixed output, recording each input it gets."""

    def __init__(self, output: DescribeTableOutput) -> None:
        self.output = output
        self.inputs: list[DescribeTableInput] = []

    async def describe_table(
        self, input: DescribeTableInput, plugins: list[Any] | None = None
    ) -> DescribeTableOutput:
        self.inputs.append(input)
        return self.output


def test_the_names_a_waiter_selects_come_from_its_paths_and_messages() -> None:
    assert path_member_names(TABLE_EXISTS) == {
        "Table",
        "TableStatus",
        "Replicas",
        "ReplicaStatus",
        "FailureReason",
    }


def test_the_operation_builds_the_input_and_names_the_output_back() -> None:
    client = FakeDynamoDB(
        DescribeTableOutput(
            table=TableDescription(
                table_status="ACTIVE",
                replicas=[Replica(region_name="eu-west-1", replica_status="FAILED")],
                item_count=2,
            )
        )
    )
    operation = SmithyPythonOperation(client, TABLE_EXISTS, member_names=["RegionName"])
    output = asyncio.run(operation({"TableName": "t"}))
    assert client.inputs == [DescribeTableInput(table_name="t")]
    assert output == {
        "Table": {
            "TableStatus": "ACTIVE",
            "Replicas": [{"RegionName": "eu-west-1", "ReplicaStatus": "FAILED"}],
            # Not selected by any path and not named by the caller: Python name kept.
            "item_count": 2,
        }
    }


def test_the_input_class_comes_from_the_method_annotations() -> None:
    operation = SmithyPythonOperation(FakeDynamoDB(DescribeTableOutput()), TABLE_EXISTS)
    assert operation.method_name == "describe_table"
    assert operation.input_type is DescribeTableInput


def test_a_client_without_the_operation_is_refused_by_name() -> None:
    with pytest.raises(
        SmithyPythonAdapterError,
        match=r"waiter TableExists: object has no method 'describe_table' for operation DescribeTable",
    ):
        SmithyPythonOperation(object(), TABLE_EXISTS)


def test_an_unannotated_method_asks_for_input_type() -> None:
    class Unannotated:
        async def describe_table(self, input):  # type: ignore[no-untyped-def]
            return DescribeTableOutput()

    with pytest.raises(SmithyPythonAdapterError, match="pass input_type="):
        SmithyPythonOperation(Unannotated(), TABLE_EXISTS)
    operation = SmithyPythonOperation(
        Unannotated(), TABLE_EXISTS, input_type=DescribeTableInput
    )
    assert asyncio.run(operation({"TableName": "t"})) == {}


class AsyncTableExistsWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
    """A hand-written asyncio waiter class of the generated kind."""

    definition = TABLE_EXISTS
    operation_method = "describe_table"


def test_a_hand_written_waiter_class_is_driven_through_the_adapter() -> None:
    client = FakeDynamoDB(
        DescribeTableOutput(table=TableDescription(table_status="ACTIVE"))
    )
    waiter = smithy_python_waiter(AsyncTableExistsWaiter, client, clock=VirtualClock())
    result = asyncio.run(waiter.wait({"TableName": "t"}, max_wait_time=60))
    assert result.output == {"Table": {"TableStatus": "ACTIVE"}}
    assert client.inputs == [DescribeTableInput(table_name="t")]


def test_an_input_that_does_not_fit_ends_the_wait_before_any_request() -> None:
    client = FakeDynamoDB(DescribeTableOutput())
    waiter = smithy_python_waiter(AsyncTableExistsWaiter, client, clock=VirtualClock())
    with pytest.raises(
        WaiterConfigurationError,
        match=r"waiter TableExists: DescribeTableInput has no member 'TableNme'",
    ):
        asyncio.run(waiter.wait({"TableNme": "t"}, max_wait_time=60))
    assert client.inputs == []


@dataclass(kw_only=True)
class KeySchemaElement:
    attribute_name: str
    key_type: str


@dataclass(kw_only=True)
class KeyedDescribeTableInput:
    table_name: str | None = None
    key_schema: list[KeySchemaElement] | None = None


def test_a_nested_structure_missing_a_required_member_ends_the_wait() -> None:
    # smithy-python keeps nested structures' required members required.
    client = FakeDynamoDB(DescribeTableOutput())
    waiter = smithy_python_waiter(
        AsyncTableExistsWaiter,
        client,
        input_type=KeyedDescribeTableInput,
        clock=VirtualClock(),
    )
    with pytest.raises(
        WaiterConfigurationError,
        match=r"waiter TableExists: KeySchemaElement needs its required member\(s\) "
        r"for the attribute\(s\) 'key_type'",
    ):
        asyncio.run(
            waiter.wait(
                {"TableName": "t", "KeySchema": [{"AttributeName": "id"}]},
                max_wait_time=60,
            )
        )
    assert client.inputs == []


CLASHING = WaiterDefinition.from_trait(
    "Clashing",
    "DescribeTable",
    {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "Table.Id == Table.Owner.ID",
                        "expected": "true",
                        "comparator": "booleanEquals",
                    }
                },
            }
        ]
    },
)


def test_paths_whose_names_clash_need_the_generated_output_types() -> None:
    client = FakeDynamoDB(DescribeTableOutput())
    with pytest.raises(
        SmithyPythonAdapterError, match=r"waiter Clashing: model members 'ID' and 'Id'"
    ):
        SmithyPythonOperation(client, CLASHING)

    class Owner(TypedDict):
        ID: str

    class Table(TypedDict):
        Id: str
        Owner: Owner

    class Output(TypedDict):
        Table: Table

    operation = SmithyPythonOperation(client, CLASHING, output_shape=Output)
    assert "id" not in operation.member_names


@dataclass
class ValueS:
    value: str


@dataclass
class ValueNS:
    value: list[str]


@dataclass(kw_only=True)
class PutInput:
    # The longer member's class first: `S` must still pick ValueS.
    item: dict[str, ValueNS | ValueS] | None = None


def test_a_union_member_input_is_the_shortest_class_ending_in_its_name() -> None:
    built = to_dataclass(PutInput, {"Item": {"a": {"S": "x"}, "b": {"NS": ["1"]}}})
    assert built.item == {"a": ValueS(value="x"), "b": ValueNS(value=["1"])}


@dataclass(frozen=True)
class MemberSchema:
    member_name: str


@dataclass
class WeirdlyNamedArm:
    """A union member whose class name does not say its member (only its schema does)."""

    value: str

    def serialize_members(self, serializer: Any) -> None:
        serializer.write_string(MemberSchema("nULL"), self.value)


def test_a_union_member_output_is_named_by_the_member_its_schema_writes() -> None:
    assert serialized_member_name(WeirdlyNamedArm("x")) == "nULL"
    assert to_member_dict({"k": WeirdlyNamedArm("x")}) == {"k": {"nULL": "x"}}
    # Anything else has no such name.
    assert serialized_member_name(ValueS("x")) is None
    assert serialized_member_name(object()) is None
