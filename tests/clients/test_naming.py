"""smithy-python's naming rule and its inverse over a set of model member names."""

from __future__ import annotations

import json
import keyword
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.adapters.naming import (
    NameClash,
    member_names_by_python_name,
    python_member_name,
    snake_case,
)

MODELS = Path(__file__).resolve().parents[3] / "shared" / "models" / "api-models-aws"


@pytest.mark.parametrize(
    ("member", "python"),
    [
        ("TableStatus", "table_status"),
        ("SSEKMSKeyId", "ssekms_key_id"),
        ("ETag", "e_tag"),
        ("HTTPStatusCode", "http_status_code"),
        ("S3Key", "s3_key"),
        ("identifier", "identifier"),
        ("ID", "id"),
        ("kmsKeyArn", "kms_key_arn"),
        ("DescribeTable", "describe_table"),
        ("class", "class_"),
        ("Type", "type"),
        ("List", "list_"),
        ("Bytes", "bytes_"),
        ("with-dash", "with_dash"),
    ],
)
def test_python_member_name_follows_smithy_python(member: str, python: str) -> None:
    assert python_member_name(member) == python


member_names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,20}", fullmatch=True)


@given(member_names)
def test_python_names_are_lowercase_identifiers_and_never_keywords(name: str) -> None:
    python = python_member_name(name)
    assert python.isidentifier()
    assert python == python.lower()
    assert not keyword.iskeyword(python)


@given(member_names)
def test_snake_case_is_idempotent(name: str) -> None:
    assert snake_case(snake_case(name)) == snake_case(name)


@given(st.sets(member_names, max_size=30))
def test_names_map_back_to_the_model_names_they_came_from(names: set[str]) -> None:
    by_python: dict[str, set[str]] = {}
    for name in names:
        by_python.setdefault(python_member_name(name), set()).add(name)
    if any(len(group) > 1 for group in by_python.values()):
        with pytest.raises(NameClash):
            member_names_by_python_name(names)
        return
    table = member_names_by_python_name(names)
    assert {table[python_member_name(name)] for name in names} == names
    assert len(table) == len(names)


def test_a_clash_names_both_members_and_the_python_name() -> None:
    with pytest.raises(NameClash, match=r"'Id'.*'ID'.*'id'"):
        member_names_by_python_name(["Id", "ID"])


def structure_member_names() -> Iterator[tuple[str, list[str]]]:
    """Each structure's member names, for the real models the end-to-end tests use."""
    for model in (
        "s3-2006-03-01.json",
        "dynamodb-2012-08-10.json",
        "dsql-2018-05-10.json",
    ):
        shapes = json.loads((MODELS / model).read_text())["shapes"]
        for shape_id, shape in shapes.items():
            if shape.get("type") in ("structure", "union"):
                yield shape_id, list(shape.get("members", {}))


def test_every_structure_of_the_real_models_names_back_without_a_clash() -> None:
    for shape_id, names in structure_member_names():
        table = member_names_by_python_name(names)
        assert sorted(table.values()) == sorted(names), shape_id


def test_without_strict_clashing_names_are_left_out() -> None:
    assert member_names_by_python_name(["Id", "ID", "Name"], strict=False) == {
        "name": "Name"
    }
