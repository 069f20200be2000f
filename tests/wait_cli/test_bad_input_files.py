"""Input the command cannot use is bad usage (exit 2, one line naming the option or the
file), never a Python traceback with exit 1, which means "a failure state was reached":
JSON nested deeper than Python's parser follows (`--input`, `--input-file`, an input
option's JSON value) and malformed `--model` files (a value of the wrong JSON type at
any place the command reads, drawn by hypothesis)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable.wait_cli import ExitCode

from .conftest import run_wait

#: Deeper than any recursion limit the parser could meet (Python's default is 1000).
DEPTH = 100_000


def _nested(depth: int = DEPTH) -> str:
    return "[" * depth + "]" * depth


def _error_line(stderr: str) -> str:
    """The one `Error:` line of a usage error, with no traceback anywhere."""
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, stderr
    return errors[0]


def test_deep_input_json_is_bad_usage() -> None:
    text = '{"Bucket": "b", "X": ' + _nested() + "}"
    result = run_wait(None, "s3", "bucket-exists", "--input", text)
    assert result.exit_code == ExitCode.USAGE, result.output
    line = _error_line(result.stderr)
    assert line.startswith("Error: --input: not valid JSON (nested too deeply")


def test_deep_input_file_is_bad_usage(tmp_path: Path) -> None:
    path = tmp_path / "input.json"
    path.write_text('{"Bucket": "b", "X": ' + _nested() + "}", encoding="utf-8")
    result = run_wait(None, "s3", "bucket-exists", "--input-file", str(path))
    assert result.exit_code == ExitCode.USAGE, result.output
    line = _error_line(result.stderr)
    assert line.startswith(f"Error: --input-file {path}: not valid JSON (nested")


@pytest.mark.parametrize(
    ("option", "text"),
    [
        ("--instance-ids", _nested()),  # a list option given as one JSON array
        ("--filters", "[" + _nested() + "]"),  # a list of structures
        ("--filters", '{"Name": ' + _nested() + "}"),  # one structure as JSON
    ],
)
def test_deep_json_option_value_is_bad_usage(option: str, text: str) -> None:
    result = run_wait(None, "ec2", "instance-running", option, text)
    assert result.exit_code == ExitCode.USAGE, result.output
    line = _error_line(result.stderr)
    assert f"{option} wants JSON here (nested too deeply" in line


def test_deep_model_file_is_bad_usage(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text('{"shapes": {"a#B": ' + _nested() + "}}", encoding="utf-8")
    result = run_wait(None, "--model", str(path), "--list")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{path}: cannot read a Smithy" in _error_line(result.stderr)


SERVICE = "ex#ThingService"
OPERATION = "ex#GetThing"

#: A well-formed model: one service, one operation with one waiter.
MODEL: dict[str, Any] = {
    "smithy": "2.0",
    "shapes": {
        SERVICE: {
            "type": "service",
            "version": "2024-01-01",
            "operations": [{"target": OPERATION}],
            "traits": {"aws.api#service": {"sdkId": "Thing Service"}},
        },
        OPERATION: {
            "type": "operation",
            "traits": {
                "smithy.waiters#waitable": {
                    "ThingReady": {
                        "minDelay": 2,
                        "maxDelay": 10,
                        "acceptors": [
                            {
                                "state": "success",
                                "matcher": {
                                    "output": {
                                        "path": "Status",
                                        "expected": "ready",
                                        "comparator": "stringEquals",
                                    }
                                },
                            }
                        ],
                    }
                }
            },
        },
    },
}

_WAITER = ("shapes", OPERATION, "traits", "smithy.waiters#waitable", "ThingReady")
_ACCEPTOR = (*_WAITER, "acceptors", 0)

#: Each place the command reads, and whether any other JSON type there is malformed
#: (False: some other types are allowed, e.g. a null sdkId means "use the shape name").
PLACES: list[tuple[tuple[Any, ...], bool]] = [
    ((), True),
    (("shapes",), True),
    (("shapes", SERVICE), True),
    (("shapes", SERVICE, "type"), False),
    (("shapes", SERVICE, "traits"), True),
    (("shapes", SERVICE, "traits", "aws.api#service"), True),
    (("shapes", SERVICE, "traits", "aws.api#service", "sdkId"), False),
    (("shapes", OPERATION), True),
    (("shapes", OPERATION, "traits"), True),
    (("shapes", OPERATION, "traits", "smithy.waiters#waitable"), True),
    (_WAITER, True),
    ((*_WAITER, "minDelay"), True),
    ((*_WAITER, "maxDelay"), True),
    ((*_WAITER, "acceptors"), True),
    (_ACCEPTOR, True),
    ((*_ACCEPTOR, "state"), True),
    ((*_ACCEPTOR, "matcher"), True),
    ((*_ACCEPTOR, "matcher", "output"), True),
    ((*_ACCEPTOR, "matcher", "output", "path"), True),
    ((*_ACCEPTOR, "matcher", "output", "expected"), True),
    ((*_ACCEPTOR, "matcher", "output", "comparator"), True),
]

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def _replaced(path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    model = copy.deepcopy(MODEL)
    parent = model
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return model


def _unbroken_model_works(path: Path) -> None:
    """The well-formed model lists its service and waiter (so a refusal means something)."""
    path.write_text(json.dumps(MODEL), encoding="utf-8")
    listed = run_wait(None, "--model", str(path), "--list")
    assert listed.stdout.split() == ["thing-service"]
    waiters = run_wait(None, "--model", str(path), "--list", "thing-service")
    assert waiters.exit_code == ExitCode.SUCCESS, waiters.output
    assert waiters.stdout.split()[:2] == ["thing-ready", "GetThing"]


@settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(place=st.sampled_from(PLACES), value=_JSON, data=st.data())
def test_a_malformed_model_is_bad_usage_naming_file_and_shape(
    tmp_path: Path, place: tuple[tuple[Any, ...], bool], value: Any, data: Any
) -> None:
    _unbroken_model_works(tmp_path / "unbroken.json")
    path_in_model, every_other_type_is_wrong = place
    original: Any = MODEL
    for key in path_in_model:
        original = original[key]
    if _kind(value) == _kind(original):
        value = data.draw(
            _JSON.filter(lambda v: _kind(v) != _kind(original)), label="value"
        )
    model = tmp_path / "model.json"
    model.write_text(json.dumps(_replaced(path_in_model, value)), encoding="utf-8")
    for args in (["--list"], ["--list", "thing-service"]):
        # catch_exceptions=False: a Python error in the command fails the test
        result = run_wait(None, "--model", str(model), *args)
        assert result.exit_code in (ExitCode.SUCCESS, ExitCode.USAGE), result.output
        if result.exit_code == ExitCode.USAGE:
            line = _error_line(result.stderr)
            assert str(model) in line
            if len(path_in_model) >= 2:
                assert path_in_model[1] in line  # the shape's id
        elif every_other_type_is_wrong and args[1:]:
            pytest.fail(f"{path_in_model} = {value!r} was accepted: {result.output}")


def test_a_model_operation_the_service_lacks_is_bad_usage(tmp_path: Path) -> None:
    """botocore's `OperationNotFoundError` is no `BotoCoreError`: a model waiter on
    an operation the named service does not have ended in a traceback with exit 1,
    the "failure state" status (found by review, 2026-11-27)."""
    path = tmp_path / "model.json"
    waiter = {"acceptors": [{"state": "success", "matcher": {"success": True}}]}
    model = {
        "smithy": "2.0",
        "shapes": {
            "ex#Svc": {"type": "service"},
            "ex#GetThing": {
                "type": "operation",
                "traits": {"smithy.waiters#waitable": {"ThingReady": waiter}},
            },
        },
    }
    path.write_text(json.dumps(model), encoding="utf-8")
    result = run_wait(
        None, "--model", str(path), "s3", "thing-ready", "--max-wait", "5"
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "needs a client with a `get_thing` method" in _error_line(result.stderr)


@pytest.mark.parametrize("package", ["", ".my_waiters", "a..b", "my-waiters"])
def test_a_package_name_that_is_no_module_path_is_bad_usage(package: str) -> None:
    """`--package ''` and a relative name raised ValueError/TypeError (traceback,
    exit 1) where `--package nosuchpkg` is bad usage (found by review)."""
    result = run_wait(None, "--package", package, "--list")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "--package" in _error_line(result.stderr) or "package" in result.stderr
