"""The waiter's input as AWS CLI-style options, read against botocore's real input shapes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.wait_cli.input_options import (
    InputError,
    input_shape,
    option_names,
    parse_input_options,
)

DESCRIBE_INSTANCES = input_shape("ec2", "DescribeInstances")
HEAD_OBJECT = input_shape("s3", "HeadObject")


def parse(shape: Any, *args: str) -> dict[str, Any]:
    return parse_input_options(list(args), shape, "ec2 instance-running")


def test_option_names_are_the_aws_clis() -> None:
    names = option_names(DESCRIBE_INSTANCES)
    assert names["--instance-ids"] == "InstanceIds"
    assert names["--dry-run"] == "DryRun"
    assert names["--max-results"] == "MaxResults"


def test_kinds_of_members() -> None:
    assert parse(DESCRIBE_INSTANCES, "--instance-ids", "i-1", "i-2") == {
        "InstanceIds": ["i-1", "i-2"]
    }
    assert parse(DESCRIBE_INSTANCES, "--instance-ids", '["i-1"]') == {
        "InstanceIds": ["i-1"]
    }
    assert parse(DESCRIBE_INSTANCES, "--max-results=5", "--dry-run") == {
        "MaxResults": 5,
        "DryRun": True,
    }
    assert parse(DESCRIBE_INSTANCES, "--no-dry-run") == {"DryRun": False}
    assert parse(DESCRIBE_INSTANCES, "--dry-run", "false") == {"DryRun": False}
    filters = '[{"Name": "tag:env", "Values": ["ci"]}]'
    assert parse(DESCRIBE_INSTANCES, "--filters", filters) == {
        "Filters": [{"Name": "tag:env", "Values": ["ci"]}]
    }
    assert parse(
        DESCRIBE_INSTANCES, "--filters", '{"Name": "a", "Values": []}', '{"Name": "b"}'
    ) == {"Filters": [{"Name": "a", "Values": []}, {"Name": "b"}]}
    assert (
        parse(HEAD_OBJECT, "--bucket", "b", "--key", "-dash", "--part-number", "3")[
            "PartNumber"
        ]
        == 3
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--nope", "x"], "unknown option --nope"),
        (["stray"], "unexpected argument 'stray'"),
        (["--max-results"], "needs a value"),
        (["--max-results", "1", "2"], "takes one value, got 2"),
        (["--max-results", "1.5"], "wants a number (integer)"),
        (["--no-max-results"], "is not a flag"),
        (["--no-dry-run", "x"], "takes no value"),
        (["--filters", "{"], "wants JSON"),
    ],
)
def test_errors_say_what_is_wrong(args: list[str], message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(DESCRIBE_INSTANCES, *args)
    assert message in str(caught.value)
    assert str(caught.value).startswith("ec2 instance-running: ")


def test_without_a_shape_only_json_input() -> None:
    with pytest.raises(InputError, match="its options: none here"):
        parse(None, "--bucket", "b")
    assert parse(None) == {}


ids = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1).filter(
        lambda s: not s.startswith("-") and not s.startswith("[")
    ),
    min_size=1,
    max_size=8,
)


@given(ids, st.integers(min_value=-(2**40), max_value=2**40))
def test_values_come_back_as_given(values: list[str], number: int) -> None:
    args = ["--instance-ids", *values, "--max-results", str(number)]
    assert parse(DESCRIBE_INSTANCES, *args) == {
        "InstanceIds": values,
        "MaxResults": number,
    }
