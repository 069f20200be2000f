"""Model-keyed mappings to smithy-python dataclasses and back."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.adapters.naming import member_names_by_python_name
from waitable.adapters.shapes import ShapeConversionError, to_dataclass, to_member_dict


@dataclass(kw_only=True)
class KeySchemaElement:
    attribute_name: str
    key_type: str


@dataclass(kw_only=True)
class TableDescription:
    table_name: str | None = None
    table_status: str | None = None
    item_count: int | None = None
    creation_date_time: datetime.datetime | None = None
    key_schema: list[KeySchemaElement] | None = None
    tags: dict[str, KeySchemaElement] | None = None


@dataclass(kw_only=True)
class DescribeTableInput:
    table_name: str | None = None
    table: TableDescription | None = None


@dataclass(kw_only=True)
class DescribeTableOutput:
    table: TableDescription | None = None
    sse_description: bytes | None = None
    extra: list[str] = field(default_factory=list)


@dataclass
class SourceS3Location:
    value: str


MEMBER_NAMES = member_names_by_python_name(
    [
        "TableName",
        "TableStatus",
        "ItemCount",
        "CreationDateTime",
        "KeySchema",
        "AttributeName",
        "KeyType",
        "Tags",
        "Table",
        "SSEDescription",
        "Extra",
        "S3Location",
    ]
)


def test_a_nested_input_becomes_nested_dataclasses() -> None:
    built = to_dataclass(
        DescribeTableInput,
        {
            "TableName": "t",
            "Table": {
                "TableStatus": "ACTIVE",
                "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
                "Tags": {"k": {"AttributeName": "a", "KeyType": "RANGE"}},
            },
        },
    )
    assert built == DescribeTableInput(
        table_name="t",
        table=TableDescription(
            table_status="ACTIVE",
            key_schema=[KeySchemaElement(attribute_name="id", key_type="HASH")],
            tags={"k": KeySchemaElement(attribute_name="a", key_type="RANGE")},
        ),
    )


def test_an_unknown_input_member_is_named_in_the_error() -> None:
    with pytest.raises(
        ShapeConversionError, match="DescribeTableInput has no member 'Nope'"
    ):
        to_dataclass(DescribeTableInput, {"Nope": 1})


def test_an_input_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(ShapeConversionError, match="needs a mapping"):
        to_dataclass(DescribeTableInput, ["TableName"])  # type: ignore[arg-type]


def test_an_output_becomes_dicts_keyed_by_model_names_leaving_unset_members_out() -> (
    None
):
    when = datetime.datetime(2024, 1, 2, tzinfo=datetime.timezone.utc)
    output = DescribeTableOutput(
        table=TableDescription(table_status="CREATING", creation_date_time=when),
        sse_description=b"\x00",
    )
    assert to_member_dict(output, MEMBER_NAMES) == {
        "Table": {"TableStatus": "CREATING", "CreationDateTime": when},
        "SSEDescription": b"\x00",
        "Extra": [],
    }


def test_attributes_without_a_known_model_name_keep_their_python_name() -> None:
    assert to_member_dict(TableDescription(item_count=3), {}) == {"item_count": 3}


def test_a_union_member_becomes_an_object_with_one_member() -> None:
    assert to_member_dict(SourceS3Location("s3://b/k"), MEMBER_NAMES) == {
        "S3Location": "s3://b/k"
    }


statuses = st.sampled_from(["CREATING", "ACTIVE", "DELETING"])
key_schema_elements = st.fixed_dictionaries(
    {
        "AttributeName": st.text(max_size=5),
        "KeyType": st.sampled_from(["HASH", "RANGE"]),
    }
)
tables = st.fixed_dictionaries(
    {},
    optional={
        "TableName": st.text(max_size=8),
        "TableStatus": statuses,
        "ItemCount": st.integers(),
        "KeySchema": st.lists(key_schema_elements, max_size=3),
        "Tags": st.dictionaries(st.text(max_size=3), key_schema_elements, max_size=3),
    },
)


@given(
    st.fixed_dictionaries(
        {}, optional={"TableName": st.text(max_size=8), "Table": tables}
    )
)
def test_model_keyed_input_round_trips_through_the_dataclass(
    value: dict[str, Any],
) -> None:
    built = to_dataclass(DescribeTableInput, value)
    assert to_member_dict(built, MEMBER_NAMES) == value


class IdOfA(TypedDict):
    Id: str


class IdOfB(TypedDict):
    ID: str
    Inner: NotRequired[list[IdOfA]]


class SourceUnion(TypedDict):
    S3Location: NotRequired[str]
    Value: NotRequired[str]


class Output(TypedDict):
    A: NotRequired[IdOfA]
    B: NotRequired[IdOfB]
    Source: NotRequired[SourceUnion]


@dataclass(kw_only=True)
class AData:
    id: str


@dataclass(kw_only=True)
class BData:
    id: str
    inner: list[AData] | None = None


@dataclass
class SourceUnionS3Location:
    value: str


@dataclass(kw_only=True)
class OutputData:
    a: AData | None = None
    b: BData | None = None
    source: SourceUnionS3Location | None = None


def test_with_the_output_typed_dict_each_structure_is_named_back_on_its_own() -> None:
    # `Id` and `ID` both become `id`: only the structure tells which one it was.
    output = OutputData(
        a=AData(id="a"),
        b=BData(id="b", inner=[AData(id="c")]),
        source=SourceUnionS3Location("s3://x"),
    )
    assert to_member_dict(output, shape=Output) == {
        "A": {"Id": "a"},
        "B": {"ID": "b", "Inner": [{"Id": "c"}]},
        "Source": {"S3Location": "s3://x"},
    }


@dataclass
class SourceUnionValue:
    value: str


@dataclass(kw_only=True)
class TagValue:
    value: str


@dataclass(kw_only=True)
class CopyInput:
    source: SourceUnionS3Location | SourceUnionValue | None = None
    tag: TagValue | None = None


def test_a_union_member_in_the_input_becomes_its_member_dataclass() -> None:
    assert to_dataclass(CopyInput, {"Source": {"S3Location": "s3://x"}}) == CopyInput(
        source=SourceUnionS3Location("s3://x")
    )
    assert to_dataclass(CopyInput, {"Source": {"Value": "v"}}) == CopyInput(
        source=SourceUnionValue("v")
    )
    # A structure whose one member is `Value` is built the same either way.
    assert to_dataclass(CopyInput, {"Tag": {"Value": "v"}}) == CopyInput(
        tag=TagValue(value="v")
    )
