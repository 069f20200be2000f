"""End-to-end scenarios, each run once with boto3 and once with aiobotocore.

A scenario arranges resources on moto's server (with boto3, synchronously),
names the generated waiter and its input, may change the world after a given
attempt (through the waiter's `on_attempt` hook, so the retry path runs against
the real wire without threads or timing), and says which history the waiter
must record: one (state, error code) pair per attempt.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .conftest import MotoServer

History = list[tuple[str, str | None]]

# Delays small enough to keep the suite fast; the clock is real here.
FAST = {"max_wait_time": 30.0, "min_delay": 0.05, "max_delay": 0.1}


@dataclass
class World:
    """The moto server, boto3 clients to arrange it, and a name unique to the test."""

    moto: MotoServer
    clients: Mapping[str, Any]
    name: str

    def create_table(self) -> None:
        """Create the test's DynamoDB table (moto makes it ACTIVE at once)."""
        self.clients["dynamodb"].create_table(
            TableName=self.name,
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )


Arrange = Callable[[World], contextlib.AbstractContextManager[dict[str, Any]]]


@dataclass(frozen=True)
class Scenario:
    """One waiter run: what to arrange, what to change after which attempt, what to see."""

    id: str
    service: str
    waiter: str
    arrange: Arrange
    history: History
    after_attempt: Mapping[int, Callable[[World], None]] = field(default_factory=dict)

    def hook(self, world: World) -> Callable[[Any], None]:
        """The `on_attempt` hook that runs this scenario's changes."""

        def on_attempt(attempt: Any) -> None:
            action = self.after_attempt.get(attempt.number)
            if action is not None:
                action(world)

        return on_attempt


@contextlib.contextmanager
def missing_bucket(world: World) -> Iterator[dict[str, Any]]:
    yield {"Bucket": world.name}


@contextlib.contextmanager
def existing_bucket(world: World) -> Iterator[dict[str, Any]]:
    world.clients["s3"].create_bucket(Bucket=world.name)
    yield {"Bucket": world.name}


@contextlib.contextmanager
def missing_object(world: World) -> Iterator[dict[str, Any]]:
    world.clients["s3"].create_bucket(Bucket=world.name)
    yield {"Bucket": world.name, "Key": "report.csv"}


@contextlib.contextmanager
def missing_table(world: World) -> Iterator[dict[str, Any]]:
    yield {"TableName": world.name}


@contextlib.contextmanager
def existing_table(world: World) -> Iterator[dict[str, Any]]:
    world.create_table()
    yield {"TableName": world.name}


@contextlib.contextmanager
def cluster_held_in_creating(world: World) -> Iterator[dict[str, Any]]:
    world.moto.hold_state("dsql::cluster", times=3)
    try:
        cluster = world.clients["dsql"].create_cluster(deletionProtectionEnabled=False)
        yield {"identifier": cluster["identifier"]}
    finally:
        world.moto.release_state("dsql::cluster")


@contextlib.contextmanager
def missing_cluster(world: World) -> Iterator[dict[str, Any]]:
    yield {"identifier": "0123456789abcdefghijklmnop"}


def create_bucket(world: World) -> None:
    world.clients["s3"].create_bucket(Bucket=world.name)


def delete_bucket(world: World) -> None:
    world.clients["s3"].delete_bucket(Bucket=world.name)


def put_object(world: World) -> None:
    world.clients["s3"].put_object(Bucket=world.name, Key="report.csv", Body=b"a,b\n")


def delete_table(world: World) -> None:
    world.clients["dynamodb"].delete_table(TableName=world.name)


SUCCESS = "success"
RETRY = "retry"

SCENARIOS = [
    Scenario(
        "s3-bucket-exists-after-two-misses",
        "s3",
        "BucketExists",
        missing_bucket,
        [(RETRY, "NotFound"), (RETRY, "NotFound"), (SUCCESS, None)],
        {2: create_bucket},
    ),
    Scenario(
        "s3-bucket-exists-at-once",
        "s3",
        "BucketExists",
        existing_bucket,
        [(SUCCESS, None)],
    ),
    Scenario(
        "s3-bucket-not-exists-at-once",
        "s3",
        "BucketNotExists",
        missing_bucket,
        [(SUCCESS, "NotFound")],
    ),
    Scenario(
        "s3-bucket-not-exists-after-delete",
        "s3",
        "BucketNotExists",
        existing_bucket,
        [(RETRY, None), (SUCCESS, "NotFound")],
        {1: delete_bucket},
    ),
    Scenario(
        "s3-object-exists-after-put",
        "s3",
        "ObjectExists",
        missing_object,
        [(RETRY, "NotFound"), (SUCCESS, None)],
        {1: put_object},
    ),
    Scenario(
        "dynamodb-table-exists-after-create",
        "dynamodb",
        "TableExists",
        missing_table,
        [(RETRY, "ResourceNotFoundException"), (SUCCESS, None)],
        {1: World.create_table},
    ),
    Scenario(
        "dynamodb-table-not-exists-after-delete",
        "dynamodb",
        "TableNotExists",
        existing_table,
        [(RETRY, None), (SUCCESS, "ResourceNotFoundException")],
        {1: delete_table},
    ),
    Scenario(
        "dsql-cluster-active-after-creating",
        "dsql",
        "ClusterActive",
        cluster_held_in_creating,
        [(RETRY, None), (RETRY, None), (SUCCESS, None)],
    ),
]


def history_of(result: Any) -> History:
    """(state, error code) of each attempt of a `WaiterResult`."""
    return [(attempt.state.value, attempt.error_type) for attempt in result.history]
