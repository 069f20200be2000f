"""AWS's generated smithy-python clients (aws-sdk-dynamodb, aws-sdk-lambda) pointed at moto.

Only the `test_smithy_python_real_*` modules import this, after skipping on a
Python older than 3.12 (the clients need it). A client is configured entirely
in code: moto's endpoint URI, a region, a static credentials identity
resolver, one attempt per call (the waiter decides about retries, not the
SDK's own retry strategy), and empty config files (os.devnull) with the AWS_*
environment variables hidden, so nothing is read from the developer's AWS
configuration.
"""

from __future__ import annotations

import types

import asyncio
import contextlib
import importlib
import io
import json
import os
import sys
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from types import ModuleType
from typing import Any, TypeVar

import pytest

from aws_sdk_dynamodb.client import AsyncDynamoDBClient
from aws_sdk_dynamodb.config import AsyncDynamoDBConfig
from aws_sdk_lambda.client import AsyncLambdaClient
from aws_sdk_lambda.config import AsyncLambdaConfig
from smithy_aws_core.identity import AWSCredentialsIdentity
from smithy_aws_core.identity.static import StaticCredentialsResolver

from shared_corpora import shared_path
from waitable.adapters import smithy_python_waiter

from .conftest import (
    FAKE_CREDENTIALS,
    REGION,
    MotoServer,
    boto3_client,
)
from .scenarios import FAST, Scenario, World

T = TypeVar("T")

REAL_MODELS = ("dynamodb-2012-08-10.json", "lambda-2015-03-31.json")
REAL_PACKAGE = "real_smithy_waiters"
# The generated package's module for each service (`lambda` is a keyword).
SERVICE_MODULES = {"dynamodb": "dynamodb", "lambda": "lambda_"}

STATIC_IDENTITY = AWSCredentialsIdentity(
    access_key_id=FAKE_CREDENTIALS["aws_access_key_id"],
    secret_access_key=FAKE_CREDENTIALS["aws_secret_access_key"],
    session_token=FAKE_CREDENTIALS["aws_session_token"],
)

# What config resolution would otherwise read, for the fields not set in code.
_NO_FILE = os.devnull


def _settings(endpoint_url: str) -> dict[str, Any]:
    return {
        "config_file_path": _NO_FILE,
        "credentials_file_path": _NO_FILE,
        "endpoint_uri": endpoint_url,
        "region": REGION,
        "aws_credentials_identity_resolver": StaticCredentialsResolver(STATIC_IDENTITY),
        "retry_mode": "standard",
        "max_attempts": 1,
    }


async def _close_transport(config: Any) -> None:
    """Close the config's HTTP transport, which `client.close()` leaves open when no call ran."""
    if config.transport is not None:
        await config.transport.close()


@contextlib.asynccontextmanager
async def dynamodb_client(
    endpoint_url: str, **overrides: Any
) -> AsyncIterator[AsyncDynamoDBClient]:
    """A real `AsyncDynamoDBClient` on `endpoint_url`, closed on exit."""
    config = await AsyncDynamoDBConfig.resolve(**(_settings(endpoint_url) | overrides))
    try:
        async with AsyncDynamoDBClient(config) as client:
            yield client
    finally:
        await _close_transport(config)


@contextlib.asynccontextmanager
async def lambda_client(
    endpoint_url: str, **overrides: Any
) -> AsyncIterator[AsyncLambdaClient]:
    """A real `AsyncLambdaClient` on `endpoint_url`, closed on exit."""
    config = await AsyncLambdaConfig.resolve(**(_settings(endpoint_url) | overrides))
    try:
        async with AsyncLambdaClient(config) as client:
            yield client
    finally:
        await _close_transport(config)


REAL_CLIENTS: dict[str, Callable[..., contextlib.AbstractAsyncContextManager[Any]]] = {
    "dynamodb": dynamodb_client,
    "lambda": lambda_client,
}


@pytest.fixture(autouse=True)
def no_aws_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide the developer's AWS_* variables (profile, region...) from config resolution."""
    for name in [n for n in os.environ if n.startswith("AWS_")]:
        monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def real_generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """Waiters generated from the real DynamoDB and Lambda models, imported."""
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("real_generated")
    models = [shared_path("models", "api-models-aws", name) for name in REAL_MODELS]
    generate(models, root / REAL_PACKAGE)
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(REAL_PACKAGE)
        for module in SERVICE_MODULES.values():
            importlib.import_module(f"{REAL_PACKAGE}.{module}")
        yield package
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] == REAL_PACKAGE]:
            del sys.modules[name]


def function_zip() -> bytes:
    """A deployment package moto accepts (it never runs it here)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "handler.py", "def handler(event, context):\n    return event\n"
        )
    return buffer.getvalue()


def lambda_role(world: World) -> str:
    """The ARN of an IAM role moto lets Lambda assume (created once per name)."""
    iam = world.clients["iam"]
    name = f"{world.name}-role"
    try:
        return str(iam.get_role(RoleName=name)["Role"]["Arn"])
    except iam.exceptions.NoSuchEntityException:
        policy = {"Version": "2012-10-17", "Statement": []}
        role = iam.create_role(
            RoleName=name, AssumeRolePolicyDocument=json.dumps(policy)
        )
        return str(role["Role"]["Arn"])


def create_function(world: World) -> None:
    """Create the test's Lambda function (moto makes it Active at once)."""
    world.clients["lambda"].create_function(
        FunctionName=world.name,
        Runtime="python3.12",
        Role=lambda_role(world),
        Handler="handler.handler",
        Code={"ZipFile": function_zip()},
    )


@contextlib.contextmanager
def missing_function(world: World) -> Iterator[dict[str, Any]]:
    yield {"FunctionName": world.name}


@contextlib.contextmanager
def existing_function(world: World) -> Iterator[dict[str, Any]]:
    create_function(world)
    yield {"FunctionName": world.name}


def waiter_class(generated: ModuleType, service: str, waiter: str) -> Any:
    """The generated asyncio waiter class `Async<waiter>Waiter` of `service`."""
    module = getattr(generated, SERVICE_MODULES[service])
    return getattr(module, f"Async{waiter}Waiter")


@contextlib.contextmanager
def published_version(world: World) -> Iterator[dict[str, Any]]:
    create_function(world)
    version = world.clients["lambda"].publish_version(FunctionName=world.name)
    yield {"FunctionName": world.name, "Qualifier": version["Version"]}


@contextlib.contextmanager
def updated_function(world: World) -> Iterator[dict[str, Any]]:
    create_function(world)
    world.clients["lambda"].update_function_configuration(
        FunctionName=world.name, Description="updated"
    )
    yield {"FunctionName": world.name}


SUCCESS = "success"
RETRY = "retry"
NOT_FOUND = "ResourceNotFoundException"

LAMBDA_SCENARIOS = [
    Scenario(
        "lambda-function-exists-after-create",
        "lambda",
        "FunctionExists",
        missing_function,
        [(RETRY, NOT_FOUND), (SUCCESS, None)],
        {1: create_function},
    ),
    Scenario(
        "lambda-function-exists-after-two-misses",
        "lambda",
        "FunctionExists",
        missing_function,
        [(RETRY, NOT_FOUND), (RETRY, NOT_FOUND), (SUCCESS, None)],
        {2: create_function},
    ),
    Scenario(
        "lambda-function-exists-at-once",
        "lambda",
        "FunctionExists",
        existing_function,
        [(SUCCESS, None)],
    ),
    Scenario(
        "lambda-function-active-v2-at-once",
        "lambda",
        "FunctionActiveV2",
        existing_function,
        [(SUCCESS, None)],
    ),
    Scenario(
        "lambda-function-updated-v2-after-update",
        "lambda",
        "FunctionUpdatedV2",
        updated_function,
        [(SUCCESS, None)],
    ),
    Scenario(
        "lambda-function-active-at-once",
        "lambda",
        "FunctionActive",
        existing_function,
        [(SUCCESS, None)],
    ),
    Scenario(
        "lambda-function-updated-after-update",
        "lambda",
        "FunctionUpdated",
        updated_function,
        [(SUCCESS, None)],
    ),
    Scenario(
        "lambda-published-version-active",
        "lambda",
        "PublishedVersionActive",
        published_version,
        [(SUCCESS, None)],
    ),
]


@pytest.fixture
def real_world(boto3_session: Any, moto_server: MotoServer, unique_name: str) -> World:
    """What a scenario arranges with: moto, boto3 DynamoDB/Lambda/IAM clients, a name."""
    clients = {
        service: boto3_client(boto3_session, service, moto_server.endpoint_url)
        for service in ("dynamodb", "lambda", "iam")
    }
    return World(moto_server, clients, unique_name)


def run(
    world: World,
    service: str,
    use: Callable[[Any], Awaitable[T]],
    *,
    endpoint_url: str | None = None,
    **overrides: Any,
) -> T:
    """Run `use(client)` with a real smithy-python client for `service` (moto's endpoint)."""

    async def main() -> T:
        url = endpoint_url or world.moto.endpoint_url
        async with REAL_CLIENTS[service](url, **overrides) as client:
            return await use(client)

    return asyncio.run(main())


def polls_made(result: Any) -> Any:
    """`result` without a final attempt the deadline cut off (a request still in flight
    at the deadline, as on a loaded machine): it saw nothing, so it decided nothing."""
    history = list(result.history)
    last = history[-1] if history else None
    if last is not None and last.output is None and last.error_type is None:
        if last.acceptor_index is None:
            history.pop()
    return types.SimpleNamespace(history=history)


# Short enough to time out quickly against a real server.
TIMING_OUT = {"max_wait_time": 0.6, "min_delay": 0.05, "max_delay": 0.1}


def run_scenario(
    scenario: Scenario, world: World, generated: ModuleType, service: str
) -> Any:
    """Arrange `scenario`, wait with its generated waiter on the real client, and
    return the result (each attempt also goes to the scenario's hook)."""
    cls = waiter_class(generated, service, scenario.waiter)
    with scenario.arrange(world) as input:

        async def wait(client: Any) -> Any:
            waiter = smithy_python_waiter(cls, client, on_attempt=scenario.hook(world))
            return await waiter.wait(input, **FAST)

        return run(world, service, wait)
