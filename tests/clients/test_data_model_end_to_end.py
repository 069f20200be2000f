"""What acceptors see of real boto3 outputs: the spec's JMESPath data model.

Datetimes become epoch seconds, bytes base64 strings, and botocore's
`ResponseMetadata` is not there at all. Each probe is a waiter written by hand
(a definition with one success acceptor, as someone without a model would
write it) allowed a single attempt: if the path does not see what the spec
says, the wait ends in `WaiterMaxAttemptsError` instead of success.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from waitable import Waiter, WaiterDefinition, WaiterMaxAttemptsError

from .scenarios import World


def probe(
    operation: str, method: str, path: str, expected: str, comparator: str
) -> Any:
    """A one-acceptor waiter class: success when `path` compares equal to `expected`."""
    definition = WaiterDefinition.from_trait(
        "Probe",
        operation,
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": path,
                            "expected": expected,
                            "comparator": comparator,
                        }
                    },
                }
            ]
        },
    )
    return type(
        "ProbeWaiter", (Waiter,), {"definition": definition, "operation_method": method}
    )


def sees(waiter_class: Any, client: Any, input: dict[str, Any]) -> bool:
    """True if the probe's acceptor matched on the first and only attempt."""
    try:
        waiter_class(client).wait(input, max_wait_time=30, max_attempts=1)
    except WaiterMaxAttemptsError:
        return False
    return True


@pytest.fixture
def object_input(world: World) -> dict[str, Any]:
    world.clients["s3"].create_bucket(Bucket=world.name)
    world.clients["s3"].put_object(Bucket=world.name, Key="k", Body=b"hello")
    return {"Bucket": world.name, "Key": "k"}


def test_a_datetime_is_seen_as_epoch_seconds(world: World, object_input: Any) -> None:
    s3 = world.clients["s3"]
    last_modified = s3.head_object(**object_input)["LastModified"].timestamp()
    assert sees(
        probe(
            "HeadObject", "head_object", "type(LastModified)", "number", "stringEquals"
        ),
        s3,
        object_input,
    )
    assert sees(
        probe(
            "HeadObject",
            "head_object",
            f"LastModified == `{last_modified!r}`",
            "true",
            "booleanEquals",
        ),
        s3,
        object_input,
    )


def test_response_metadata_plays_no_part(world: World, object_input: Any) -> None:
    s3 = world.clients["s3"]
    assert "ResponseMetadata" in s3.head_object(**object_input)
    assert sees(
        probe(
            "HeadObject",
            "head_object",
            "type(ResponseMetadata)",
            "null",
            "stringEquals",
        ),
        s3,
        object_input,
    )
    assert not sees(
        probe(
            "HeadObject",
            "head_object",
            "ResponseMetadata.HTTPStatusCode == `200`",
            "true",
            "booleanEquals",
        ),
        s3,
        object_input,
    )


def test_bytes_are_seen_as_base64(world: World) -> None:
    dynamodb = world.clients["dynamodb"]
    world.create_table()
    payload = b"\x00\xffwaitable"
    dynamodb.put_item(
        TableName=world.name, Item={"id": {"S": "1"}, "data": {"B": payload}}
    )
    key = {"TableName": world.name, "Key": {"id": {"S": "1"}}}
    assert dynamodb.get_item(**key)["Item"]["data"]["B"] == payload
    assert sees(
        probe(
            "GetItem",
            "get_item",
            "Item.data.B",
            base64.b64encode(payload).decode(),
            "stringEquals",
        ),
        dynamodb,
        key,
    )
