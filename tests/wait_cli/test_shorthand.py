"""The AWS CLI's shorthand for structures, as `waitable wait` reads it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.wait_cli.input_options import (
    InputError,
    input_shape,
    parse_input_options,
)
from waitable.wait_cli.shorthand import MAX_DEPTH, ShorthandError, parse_shorthand


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("A=b", {"A": "b"}),
        ("A=b,C=d", {"A": "b", "C": "d"}),
        ("Name=tag:env,Values=ci,prod", {"Name": "tag:env", "Values": ["ci", "prod"]}),
        ("Values=a,b,Name=x", {"Values": ["a", "b"], "Name": "x"}),
        ("Values=[a,b]", {"Values": ["a", "b"]}),
        ("Values=[]", {"Values": []}),
        ("Values=[ a , 'b,c' ]", {"Values": ["a", "b,c"]}),
        ("K={A=1,B=[x,y]},L=z", {"K": {"A": "1", "B": ["x", "y"]}, "L": "z"}),
        ("L=[{A=1},{A=2,B=3}]", {"L": [{"A": "1"}, {"A": "2", "B": "3"}]}),
        ("K=", {"K": ""}),
        ("K= padded value ", {"K": "padded value"}),
        ("K='a,b'", {"K": "a,b"}),
        ('K="say \\"hi\\""', {"K": 'say "hi"'}),
        ("K='it\\'s'", {"K": "it's"}),
        ("K=a\\,b", {"K": "a,b"}),
        ("K=a=b", {"K": "a=b"}),
        ("K=x,y=z", {"K": "x", "y": "z"}),
        ("tag:Name=web,aws:x=1", {"tag:Name": "web", "aws:x": "1"}),
    ],
)
def test_the_grammar(text: str, parsed: dict[str, Any]) -> None:
    assert parse_shorthand(text) == parsed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a key"),
        ("=b", "expected a key"),
        ("A", "expected '=' after the key 'A'"),
        ("A='b", "a closing ' for the value"),
        ("A=[b", "',' or ']'"),
        ("A={B=c", "',' or '}'"),
        ("A='b'c", "',' and another key=value"),
        ("A=1,A=2", "the key 'A' is given twice"),
        ("A=" + "[" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
    ],
)
def test_errors_say_what_was_expected_where(text: str, message: str) -> None:
    with pytest.raises(ShorthandError) as caught:
        parse_shorthand(text)
    assert message in str(caught.value)


_KEYS = st.from_regex(r"[A-Za-z][A-Za-z0-9_:.-]{0,8}", fullmatch=True)
_STRINGS = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=10,
)


def _written(value: Any) -> str:
    """`value` in shorthand, every string quoted (so any text survives)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}={_written(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(v) for v in value) + "]"
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


_VALUES = st.recursive(
    _STRINGS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(_KEYS, inner, min_size=1, max_size=3),
    max_leaves=10,
)


@given(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=4))
def test_any_structure_written_in_shorthand_reads_back(data: dict[str, Any]) -> None:
    assert parse_shorthand(_written(data)[1:-1]) == data


@given(st.text(alphabet="ab=,[]{}'\"\\ :", max_size=40))
def test_any_text_is_read_or_refused_with_a_shorthand_error(text: str) -> None:
    try:
        parsed = parse_shorthand(text)
    except ShorthandError:
        return
    assert isinstance(parsed, dict) and parsed


DESCRIBE_INSTANCES = input_shape("ec2", "DescribeInstances")
UPDATE_TABLE = input_shape("dynamodb", "UpdateTable")
QUERY = input_shape("dynamodb", "Query")


def parse(shape: Any, *args: str) -> dict[str, Any]:
    return parse_input_options(list(args), shape, "ec2 instance-running")


def test_options_take_shorthand_typed_by_the_input_shape() -> None:
    assert parse(
        DESCRIBE_INSTANCES,
        "--filters",
        "Name=instance-state-name,Values=running,pending",
        "Name=tag:env,Values=ci",
    ) == {
        "Filters": [
            {"Name": "instance-state-name", "Values": ["running", "pending"]},
            {"Name": "tag:env", "Values": ["ci"]},  # one value where a list goes
        ]
    }
    throughput = parse(
        UPDATE_TABLE,
        "--table-name",
        "t",
        "--provisioned-throughput",
        "ReadCapacityUnits=15,WriteCapacityUnits=10",
    )["ProvisionedThroughput"]
    assert throughput == {"ReadCapacityUnits": 15, "WriteCapacityUnits": 10}
    conditions = parse(
        QUERY,
        "--table-name",
        "t",
        "--key-conditions",
        "id={AttributeValueList=[{S=a}],ComparisonOperator=EQ}",
    )["KeyConditions"]
    assert conditions == {
        "id": {"AttributeValueList": [{"S": "a"}], "ComparisonOperator": "EQ"}
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--filters", "Nme=x"],
            "no member 'Nme' in Filter; its members: Name, Values",
        ),
        (["--filters", "Name=[a,b]"], "Name takes one string value"),
        (["--filters", "Name='x"], "a closing ' for the value"),
        (["--filters", "Name"], "expected '=' after the key 'Name'"),
        (
            ["--filters", "Name=a,Values={X=1}"],
            "Values takes one string value, got {'X': '1'}",
        ),
    ],
)
def test_shorthand_errors_name_the_option_and_what_to_write(
    args: list[str], message: str
) -> None:
    with pytest.raises(InputError) as caught:
        parse(DESCRIBE_INSTANCES, *args)
    text = str(caught.value)
    assert text.startswith("ec2 instance-running: --filters")
    assert message in text
