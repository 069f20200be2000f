"""Generated waiters from the real models driving boto3 clients against moto's server."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from waitable import (
    WaiterConfigurationError,
    WaiterOperationError,
    WaiterTimeoutError,
)

from .conftest import MotoServer, boto3_client, client_config, closed_port
from .scenarios import FAST, SCENARIOS, Scenario, World, history_of


def waiter_class(generated: ModuleType, service: str, name: str) -> Any:
    return getattr(getattr(generated, service), f"{name}Waiter")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario: Scenario, world: World, generated: ModuleType) -> None:
    waiter = waiter_class(generated, scenario.service, scenario.waiter)(
        world.clients[scenario.service], on_attempt=scenario.hook(world)
    )
    with scenario.arrange(world) as input:
        result = waiter.wait(input, **FAST)
    assert history_of(result) == scenario.history
    assert result.state.value == "success"


def test_the_result_output_is_what_boto3_returned(
    world: World, generated: ModuleType
) -> None:
    world.clients["s3"].create_bucket(Bucket=world.name)
    world.clients["s3"].put_object(Bucket=world.name, Key="k", Body=b"12345")
    waiter = waiter_class(generated, "s3", "ObjectExists")(world.clients["s3"])
    result = waiter.wait({"Bucket": world.name, "Key": "k"}, **FAST)
    assert result.output["ContentLength"] == 5
    assert result.output["ResponseMetadata"]["HTTPStatusCode"] == 200


def test_an_error_no_acceptor_matches_fails_with_the_client_error_chained(
    world: World, generated: ModuleType
) -> None:
    waiter = waiter_class(generated, "dsql", "ClusterActive")(world.clients["dsql"])
    with pytest.raises(WaiterOperationError) as raised:
        waiter.wait({"identifier": "0123456789abcdefghijklmnop"}, **FAST)
    assert raised.value.error_code == "ResourceNotFoundException"
    assert isinstance(raised.value.__cause__, ClientError)
    assert history_of(raised.value.result) == [("failure", "ResourceNotFoundException")]


def test_a_bucket_that_never_appears_times_out_after_retrying(
    world: World, generated: ModuleType
) -> None:
    waiter = waiter_class(generated, "s3", "BucketExists")(world.clients["s3"])
    with pytest.raises(WaiterTimeoutError) as raised:
        waiter.wait(
            {"Bucket": world.name}, max_wait_time=1.0, min_delay=0.05, max_delay=0.1
        )
    history = history_of(raised.value.result)
    assert len(history) >= 2
    assert all(error == "NotFound" for _, error in history)


def unreachable(boto3_session: boto3.Session, service: str) -> Any:
    return boto3_client(boto3_session, service, f"http://127.0.0.1:{closed_port()}")


def test_a_connection_error_fails_the_waiter_with_the_cause_chained(
    boto3_session: boto3.Session, generated: ModuleType
) -> None:
    waiter = waiter_class(generated, "s3", "BucketExists")(
        unreachable(boto3_session, "s3")
    )
    with pytest.raises(WaiterOperationError) as raised:
        waiter.wait({"Bucket": "waitable-unreachable"}, **FAST)
    assert isinstance(raised.value.__cause__, EndpointConnectionError)
    assert raised.value.result.attempts == 1


def test_a_connection_error_the_caller_opts_into_is_retried(
    boto3_session: boto3.Session, generated: ModuleType
) -> None:
    waiter = waiter_class(generated, "s3", "BucketExists")(
        unreachable(boto3_session, "s3"), retry_on=(EndpointConnectionError,)
    )
    with pytest.raises(WaiterTimeoutError) as raised:
        waiter.wait(
            {"Bucket": "waitable-unreachable"},
            max_wait_time=1.0,
            min_delay=0.05,
            max_delay=0.1,
        )
    assert raised.value.result.attempts >= 2
    assert {state for state, _ in history_of(raised.value.result)[:-1]} == {"retry"}


def test_a_read_timeout_fails_the_waiter_with_the_cause_chained(
    boto3_session: boto3.Session, silent_endpoint: str, generated: ModuleType
) -> None:
    s3 = boto3_session.client(
        "s3", endpoint_url=silent_endpoint, config=client_config(read_timeout=0.2)
    )
    waiter = waiter_class(generated, "s3", "BucketExists")(s3)
    with pytest.raises(WaiterOperationError) as raised:
        waiter.wait({"Bucket": "waitable-silent"}, **FAST)
    assert isinstance(raised.value.__cause__, ReadTimeoutError)
    assert raised.value.result.attempts == 1


def test_a_client_method_given_in_place_of_the_client_is_refused_at_construction(
    world: World, generated: ModuleType
) -> None:
    s3 = world.clients["s3"]
    with pytest.raises(WaiterConfigurationError) as refused:
        waiter_class(generated, "s3", "BucketExists")(s3.head_bucket)
    assert "got the client's method head_bucket()" in str(refused.value)
    assert "pass the client itself" in str(refused.value)
    s3.create_bucket(Bucket=world.name)  # what the message says to do works
    waiter = waiter_class(generated, "s3", "BucketExists")(s3)
    assert waiter.wait({"Bucket": world.name}, **FAST).attempts == 1


def test_a_boto3_resource_given_in_place_of_the_client_is_told_to_pass_its_client(
    boto3_session: boto3.Session,
    moto_server: MotoServer,
    world: World,
    generated: ModuleType,
) -> None:
    resource = boto3_session.resource(
        "dynamodb", endpoint_url=moto_server.endpoint_url, config=client_config()
    )
    for given in (resource, resource.Table(world.name)):
        with pytest.raises(WaiterConfigurationError) as refused:
            waiter_class(generated, "dynamodb", "TableExists")(given)
        assert "a boto3 resource: pass its client, `resource.meta.client`" in str(
            refused.value
        )
    world.create_table()  # what the message says to do works
    waiter = waiter_class(generated, "dynamodb", "TableExists")(resource.meta.client)
    assert waiter.wait({"TableName": world.name}, **FAST).attempts == 1


def test_a_stubbed_error_without_a_code_is_read_by_its_http_status(
    world: World, generated: ModuleType
) -> None:
    """botocore's `Stubber`, as users' tests stub a missing bucket, leaves
    `Error.Code` empty; the status is what botocore itself would report."""
    from botocore.stub import Stubber

    s3 = world.clients["s3"]
    stubber = Stubber(s3)
    stubber.add_client_error("head_bucket", http_status_code=404)
    stubber.activate()

    def after_the_stubbed_poll(attempt: Any) -> None:
        if attempt.number == 1:  # the next poll reaches moto, where the bucket is
            stubber.deactivate()
            s3.create_bucket(Bucket=world.name)

    waiter = waiter_class(generated, "s3", "BucketExists")(
        s3, on_attempt=after_the_stubbed_poll
    )
    result = waiter.wait({"Bucket": world.name}, **FAST)
    assert history_of(result) == [("retry", "NotFound"), ("success", None)]
