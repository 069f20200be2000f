"""Generated Lambda waiters driving AWS's own smithy-python client (aws-sdk-lambda) over moto.

Lambda speaks restJson1 (DynamoDB awsJson1_0), so its errors reach the client
differently: a modeled error by the `x-amzn-errortype` header, an error response
with neither header nor body by its HTTP status alone. moto makes a function
Active, with LastUpdateStatus Successful, at once, so the state waiters are
seen succeeding on their first poll; FunctionExists also retries.
"""

from __future__ import annotations

import sys

import pytest

if sys.version_info < (3, 12):
    pytest.skip(
        "aws-sdk-dynamodb/aws-sdk-lambda need Python 3.12 or newer",
        allow_module_level=True,
    )

from types import ModuleType
from typing import Any

from aws_sdk_lambda.models import GetFunctionInput, ResourceNotFoundException
from smithy_core.exceptions import CallError

from waitable import WaiterOperationError, WaiterTimeoutError
from waitable.adapters import SmithyPythonUnmodeledError, smithy_python_waiter
from waitable.error_codes import error_code

from .real_smithy import (  # noqa: F401  (fixtures)
    TIMING_OUT,
    run_scenario,
    polls_made,
    LAMBDA_SCENARIOS,
    create_function,
    no_aws_environment,
    real_generated,
    real_world,
    run,
    waiter_class,
)
from .scenarios import FAST, RETRY, Scenario, World, history_of

NOT_FOUND = "ResourceNotFoundException"


@pytest.mark.parametrize(
    "scenario", LAMBDA_SCENARIOS, ids=[s.id for s in LAMBDA_SCENARIOS]
)
def test_scenario(
    scenario: Scenario, real_world: World, real_generated: ModuleType
) -> None:
    result = run_scenario(scenario, real_world, real_generated, "lambda")
    assert history_of(result) == scenario.history


def test_the_client_raises_its_modeled_class_for_a_missing_function(
    real_world: World,
) -> None:
    async def get(client: Any) -> BaseException:
        with pytest.raises(ResourceNotFoundException) as raised:
            await client.get_function(GetFunctionInput(function_name=real_world.name))
        return raised.value

    error = run(real_world, "lambda", get)
    assert not hasattr(error, "code") and not hasattr(error, "error_code")
    assert error_code(error) == NOT_FOUND


def test_function_exists_retries_on_the_error_type_acceptor(
    real_world: World, real_generated: ModuleType
) -> None:
    cls = waiter_class(real_generated, "lambda", "FunctionExists")

    def create_after_the_first(attempt: Any) -> None:
        if attempt.number == 1:
            create_function(real_world)

    async def wait(client: Any) -> Any:
        waiter = smithy_python_waiter(cls, client, on_attempt=create_after_the_first)
        return await waiter.wait({"FunctionName": real_world.name}, **FAST)

    first, second = run(real_world, "lambda", wait).history
    # Acceptor 1 is the model's `retry` on `errorType: ResourceNotFoundException`.
    assert (first.error_type, first.acceptor_index) == (NOT_FOUND, 1)
    assert (second.error_type, second.acceptor_index) == (None, 0)


def test_a_modeled_error_no_acceptor_matches_fails_the_waiter(
    real_world: World, real_generated: ModuleType
) -> None:
    cls = waiter_class(real_generated, "lambda", "FunctionActiveV2")

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            {"FunctionName": real_world.name}, **FAST
        )

    with pytest.raises(WaiterOperationError) as raised:
        run(real_world, "lambda", wait)
    assert raised.value.error_code == NOT_FOUND
    assert "FunctionActiveV2" in str(raised.value) and NOT_FOUND in str(raised.value)
    # The client's own exception is chained, not a translation of it.
    assert type(raised.value.__cause__) is ResourceNotFoundException
    assert history_of(raised.value.result) == [("failure", NOT_FOUND)]


def test_the_output_is_keyed_by_the_models_member_names(
    real_world: World, real_generated: ModuleType
) -> None:
    create_function(real_world)
    cls = waiter_class(real_generated, "lambda", "FunctionActiveV2")

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            {"FunctionName": real_world.name}, **FAST
        )

    output = run(real_world, "lambda", wait).output
    configuration = output["Configuration"]
    assert configuration["FunctionName"] == real_world.name
    assert configuration["State"] == "Active"
    assert configuration["LastUpdateStatus"] == "Successful"
    assert configuration["Handler"] == "handler.handler"
    # A second top-level structure, named back from its own TypedDict.
    assert output["Code"]["RepositoryType"] == "S3"
    assert "function_name" not in configuration


def test_a_missing_function_times_out_function_exists(
    real_world: World, real_generated: ModuleType
) -> None:
    cls = waiter_class(real_generated, "lambda", "FunctionExists")

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            {"FunctionName": real_world.name}, **TIMING_OUT
        )

    with pytest.raises(WaiterTimeoutError) as raised:
        run(real_world, "lambda", wait)
    # Every poll (however many the clock allowed) was a retry on the missing function.
    assert set(history_of(polls_made(raised.value.result))) == {(RETRY, NOT_FOUND)}


def test_a_status_only_error_resolves_through_the_modeled_http_status(
    real_world: World, real_generated: ModuleType
) -> None:
    # moto answers a function name its routes do not match with a bare 404 (no
    # error type header, no body): the client raises a plain CallError, whose
    # code is the status; GetFunction models ResourceNotFoundException as 404.
    cls = waiter_class(real_generated, "lambda", "FunctionActiveV2")

    async def wait(client: Any) -> Any:
        return await smithy_python_waiter(cls, client).wait(
            {"FunctionName": "no such/function"}, **FAST
        )

    with pytest.raises(WaiterOperationError) as raised:
        run(real_world, "lambda", wait)
    assert raised.value.error_code == NOT_FOUND
    cause = raised.value.__cause__
    assert isinstance(cause, SmithyPythonUnmodeledError) and cause.code == "404"
    assert type(cause.__cause__) is CallError
