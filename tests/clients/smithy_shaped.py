"""A small client of smithy-python's shape, for DynamoDB and Aurora DSQL, over moto.

What makes it smithy-python-shaped: async methods named in snake_case that take
one input dataclass and return an output dataclass (snake_case fields, nested
structures as nested dataclasses, timestamps as datetimes), and modeled errors
raised as exception classes named after the model's error shapes. Underneath,
each call goes to moto's server through aiobotocore, so the waiters driven
through it see a real wire. The conversions here are written out by hand, one
member at a time, so they do not lean on the adapter under test.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, NoReturn

from botocore.exceptions import ClientError


class ServiceError(Exception):
    """Base of the modeled errors, as smithy-python's generated `ServiceError`."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = message


class ResourceNotFoundException(ServiceError):
    """The model's ResourceNotFoundException (DynamoDB and DSQL alike)."""


class UnknownServiceError(ServiceError):
    """An error code the model does not declare for the operation."""


def raise_modeled(error: ClientError) -> NoReturn:
    """Raise the modeled exception class for a botocore error, by its code."""
    code = error.response.get("Error", {}).get("Code", "")
    message = error.response.get("Error", {}).get("Message", "")
    if code == "ResourceNotFoundException":
        raise ResourceNotFoundException(message) from error
    raise UnknownServiceError(f"{code}: {message}") from error


@dataclass(kw_only=True)
class DescribeTableInput:
    table_name: str | None = None


@dataclass(kw_only=True)
class KeySchemaElement:
    attribute_name: str
    key_type: str


@dataclass(kw_only=True)
class TableDescription:
    table_name: str | None = None
    table_status: str | None = None
    creation_date_time: datetime.datetime | None = None
    item_count: int | None = None
    key_schema: list[KeySchemaElement] | None = None


@dataclass(kw_only=True)
class DescribeTableOutput:
    table: TableDescription | None = None


@dataclass(kw_only=True)
class GetClusterInput:
    identifier: str | None = None


@dataclass(kw_only=True)
class EncryptionDetails:
    encryption_type: str
    encryption_status: str
    kms_key_arn: str | None = None


@dataclass(kw_only=True)
class GetClusterOutput:
    identifier: str
    arn: str
    status: str
    creation_time: datetime.datetime
    deletion_protection_enabled: bool
    encryption_details: EncryptionDetails | None = None


class DynamoDB:
    """DynamoDB as smithy-python would generate it (one operation)."""

    def __init__(self, aiobotocore_client: Any) -> None:
        self._client = aiobotocore_client

    async def describe_table(
        self, input: DescribeTableInput, plugins: list[Any] | None = None
    ) -> DescribeTableOutput:
        """Describe one table."""
        try:
            response = await self._client.describe_table(TableName=input.table_name)
        except ClientError as error:
            raise_modeled(error)
        table = response["Table"]
        return DescribeTableOutput(
            table=TableDescription(
                table_name=table.get("TableName"),
                table_status=table.get("TableStatus"),
                creation_date_time=table.get("CreationDateTime"),
                item_count=table.get("ItemCount"),
                key_schema=[
                    KeySchemaElement(
                        attribute_name=element["AttributeName"],
                        key_type=element["KeyType"],
                    )
                    for element in table.get("KeySchema", [])
                ],
            )
        )


class DSQL:
    """Aurora DSQL as smithy-python would generate it (one operation)."""

    def __init__(self, aiobotocore_client: Any) -> None:
        self._client = aiobotocore_client

    async def get_cluster(
        self, input: GetClusterInput, plugins: list[Any] | None = None
    ) -> GetClusterOutput:
        """Get one cluster."""
        try:
            response = await self._client.get_cluster(identifier=input.identifier)
        except ClientError as error:
            raise_modeled(error)
        encryption = response.get("encryptionDetails")
        return GetClusterOutput(
            identifier=response["identifier"],
            arn=response["arn"],
            status=response["status"],
            creation_time=response["creationTime"],
            deletion_protection_enabled=response["deletionProtectionEnabled"],
            encryption_details=(
                EncryptionDetails(
                    encryption_type=encryption["encryptionType"],
                    encryption_status=encryption["encryptionStatus"],
                    kms_key_arn=encryption.get("kmsKeyArn"),
                )
                if encryption
                else None
            ),
        )
