"""What botocore reports from moto's server for the cases the end-to-end tests rely on.

These pin the wire facts the waiters' error resolution and data-model conversion
are built on: when one of them changes (a new moto or botocore), the end-to-end
failures that follow are explained here first.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from botocore.exceptions import ClientError

from .conftest import MotoServer


def error_of(call: Any, **kwargs: Any) -> ClientError:
    """Call and return the ClientError it raises."""
    with pytest.raises(ClientError) as raised:
        call(**kwargs)
    return raised.value


def test_head_bucket_on_a_missing_bucket_reports_the_bare_status_as_code(
    s3: Any, unique_name: str
) -> None:
    error = error_of(s3.head_bucket, Bucket=unique_name)
    assert error.response["Error"]["Code"] == "404"
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 404


def test_head_object_on_a_missing_key_reports_the_bare_status_as_code(
    s3: Any, unique_name: str
) -> None:
    s3.create_bucket(Bucket=unique_name)
    error = error_of(s3.head_object, Bucket=unique_name, Key="missing")
    assert error.response["Error"]["Code"] == "404"


def test_head_object_output_carries_a_datetime_and_response_metadata(
    s3: Any, unique_name: str
) -> None:
    s3.create_bucket(Bucket=unique_name)
    s3.put_object(Bucket=unique_name, Key="k", Body=b"x")
    output = s3.head_object(Bucket=unique_name, Key="k")
    assert isinstance(output["LastModified"], datetime.datetime)
    assert "ResponseMetadata" in output


def test_describe_table_on_a_missing_table_reports_the_modeled_code(
    dynamodb: Any, unique_name: str
) -> None:
    error = error_of(dynamodb.describe_table, TableName=unique_name)
    assert error.response["Error"]["Code"] == "ResourceNotFoundException"


def test_dsql_cluster_is_held_in_creating_by_the_state_manager(
    dsql: Any, moto_server: MotoServer
) -> None:
    moto_server.hold_state("dsql::cluster", times=3)
    try:
        identifier = dsql.create_cluster(deletionProtectionEnabled=False)["identifier"]
        statuses = [dsql.get_cluster(identifier=identifier)["status"] for _ in range(3)]
    finally:
        moto_server.release_state("dsql::cluster")
    assert statuses == ["CREATING", "CREATING", "ACTIVE"]


def test_dsql_get_cluster_on_a_missing_cluster_reports_the_modeled_code(
    dsql: Any,
) -> None:
    error = error_of(dsql.get_cluster, identifier="doesnotexist0000000000000a")
    assert error.response["Error"]["Code"] == "ResourceNotFoundException"
