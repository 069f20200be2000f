"""A model's text reaches the terminal only escaped, and a waiter name that is no
identifier is bad usage: a NUL or a lone surrogate in a waiter name crashed `type()`
(traceback, exit 1, the "failure state" status), and terminal escapes, newlines and
bidi overrides in waiter, operation and service names were printed raw by `--list`
and the error messages (found by review)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.conftest import MotoServer
from waitable.wait_cli import ExitCode

from .conftest import process_env, run_wait

#: Characters that must never reach the terminal raw (a newline only inside a line).
RAW = ("\x1b", "\x07", "\x00", "\u202e", "\x9b")
OSC_CSI = "\x1b]0;pwned\x07\x1b[31m"

#: Waiter names that are no identifier, as the error shows them (`repr`, escaped).
BAD_NAMES = [
    ("Thing\x00Exists", "'Thing\\x00Exists'"),
    ("Thing\ud800Exists", "'Thing\\ud800Exists'"),
    (f"Thing{OSC_CSI}Exists", "'Thing\\x1b]0;pwned\\x07\\x1b[31mExists'"),
    ("Thing\nExists\u202e", "'Thing\\nExists\\u202e'"),
]
SUCCESS = [{"state": "success", "matcher": {"success": True}}]


def _model(path: Path, shapes: dict[str, Any]) -> str:
    """`shapes` written as a Smithy JSON AST model at `path` (lone surrogates as
    JSON escapes, as a model file can hold them)."""
    path.write_text(json.dumps({"smithy": "2.0", "shapes": shapes}), encoding="utf-8")
    return str(path)


def _operation(name: str, operation: str = "ex#GetThing", **waiter: Any) -> Any:
    trait = {"smithy.waiters#waitable": {name: {"acceptors": SUCCESS, **waiter}}}
    return {operation: {"type": "operation", "traits": trait}}


def _clean(text: str) -> None:
    """No traceback and no raw control character, escape or bidi override in `text`."""
    assert "Traceback" not in text
    for char in RAW:
        assert char not in text, ascii(text)


def _error_line(stderr: str) -> str:
    """The one `Error:` line of a usage error (no line was broken by the model's text)."""
    _clean(stderr)
    errors = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, ascii(stderr)
    return errors[0]


def _refused(line: str, model: str, shown: str) -> None:
    """`line` refuses the waiter name `shown`, naming the file and the shape."""
    assert line == (
        f"Error: {model}: shape ex#GetThing: waiter {shown}: a waiter name must be "
        "UpperCamelCase letters and digits (^[A-Z]+[A-Za-z0-9]*$), as Smithy "
        "requires; fix the model (generate-waiters --check reports all problems)"
    ), ascii(line)


@pytest.mark.parametrize(("name", "shown"), BAD_NAMES)
@pytest.mark.parametrize(
    "args",
    [
        ["--list", "x"],  # the waiters listed
        ["x", "nope", "--max-wait", "5"],  # the error listing the waiters
        ["x", "thing-exists", "--max-wait", "5"],  # a wait
    ],
)
def test_a_waiter_name_that_is_no_identifier_is_bad_usage(
    tmp_path: Path, name: str, shown: str, args: list[str]
) -> None:
    model = _model(tmp_path / "m.json", _operation(name))
    result = run_wait(None, "--model", model, *args)
    assert result.exit_code == ExitCode.USAGE, ascii(result.output)
    _clean(result.stdout)
    _refused(_error_line(result.stderr), model, shown)


@pytest.mark.parametrize(("name", "shown"), BAD_NAMES[:2])
def test_a_wait_with_a_nul_or_surrogate_in_a_name_has_no_traceback(
    tmp_path: Path, name: str, shown: str
) -> None:
    """As a real process: exit 2 with one line, not a traceback with exit 1."""
    model = _model(tmp_path / "m.json", _operation(name))
    for args in (["--list", "x"], ["x", "thing-exists", "--max-wait", "5"]):
        argv = [sys.executable, "-m", "waitable.simulate", "wait", "--model", model]
        done = subprocess.run(
            [*argv, *args, "--region", "us-east-1"],
            capture_output=True,
            text=True,
            errors="backslashreplace",
            env=process_env(),
            timeout=120,
        )
        assert done.returncode == ExitCode.USAGE, done.stderr
        _refused(_error_line(done.stderr), model, shown)


HOSTILE = f"Get{OSC_CSI}Thing\n\u202e"
#: An operation, a service and its SDK id carrying escapes, a newline and a bidi
#: override (Smithy refuses such shape ids; the command reads them as they are).
HOSTILE_SHAPES = {
    f"ex#Svc{OSC_CSI}": {
        "type": "service",
        "traits": {"aws.api#service": {"sdkId": f"Thing{OSC_CSI} Service\n\u202e"}},
    },
    **_operation("ThingExists", f"ex#{HOSTILE}", documentation=f"doc{OSC_CSI}\n"),
}
ESCAPED = "Get\\x1b]0;pwned\\x07\\x1b[31mThing\\n\\u202e"


def test_list_escapes_service_and_operation_names(tmp_path: Path) -> None:
    model = _model(tmp_path / "m.json", HOSTILE_SHAPES)
    services = run_wait(None, "--model", model, "--list")
    assert services.exit_code == ExitCode.SUCCESS, ascii(services.output)
    _clean(services.output)
    assert services.stdout == "thing\\x1b]0;pwned\\x07\\x1b[31m-service\\n\\u202e\n"
    waiters = run_wait(None, "--model", model, "--list", "x")
    assert waiters.exit_code == ExitCode.SUCCESS, ascii(waiters.output)
    _clean(waiters.output)
    (line,) = waiters.stdout.splitlines()
    assert line.split() == [
        "thing-exists",
        ESCAPED,
        *"delays 2-120 s (from m.json)".split(),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--input", "[1]"],
            f"--input: the input must be a JSON object of {ESCAPED}'s",
        ),
        (["--bogus", "1"], f"s3 thing-exists ({ESCAPED}): unknown option --bogus"),
        ([], f"needs a client with a `get\\x1b]0;pwned\\x07\\x1b[31m_thing\\n\\u202e`"),
    ],
)
def test_a_wait_escapes_the_operation_name_in_its_errors(
    tmp_path: Path, args: list[str], message: str
) -> None:
    model = _model(tmp_path / "m.json", HOSTILE_SHAPES)
    result = run_wait(
        None, "--model", model, "s3", "thing-exists", "--max-wait", "5", *args
    )
    assert result.exit_code == ExitCode.USAGE, ascii(result.output)
    _clean(result.stdout)
    assert message in _error_line(result.stderr)


def test_a_malformed_shape_is_named_escaped(tmp_path: Path) -> None:
    shapes = {
        f"ex#{HOSTILE}": {
            "type": "operation",
            "traits": {
                "smithy.waiters#waitable": [],
            },
        }
    }
    model = _model(tmp_path / "m.json", shapes)
    result = run_wait(None, "--model", model, "--list", "x")
    assert result.exit_code == ExitCode.USAGE, ascii(result.output)
    line = _error_line(result.stderr)
    assert f"{model}: shape ex#{ESCAPED}: trait smithy.waiters#waitable is" in line


def test_a_wait_on_a_model_with_hostile_documentation(
    fresh: MotoServer, tmp_path: Path
) -> None:
    """A wait that polls (moto answers NotFound, the failure state): exit 1, and the
    documentation, service and SDK id with escapes are printed nowhere raw."""
    shapes = {
        **{k: v for k, v in HOSTILE_SHAPES.items() if v["type"] == "service"},
        **_operation(
            "BucketThere",
            "com.amazonaws.s3#HeadBucket",
            documentation=f"doc{OSC_CSI}\n\u202e",
            acceptors=[
                *SUCCESS,
                {"state": "failure", "matcher": {"errorType": "NotFound"}},
            ],
        ),
    }
    model = _model(tmp_path / "m.json", shapes)
    args = ["s3", "bucket-there", "--bucket", "nosuchbucket", "--max-wait", "30"]
    result = run_wait(fresh, "--model", model, *args)
    assert result.exit_code == ExitCode.FAILURE_STATE, ascii(result.output)
    _clean(result.output)


@pytest.fixture
def hostile_package(tmp_path: Path) -> Iterator[str]:
    """A hand-written package (no generator checked it) whose waiter's name and
    operation carry escapes, a newline and a bidi override, importable."""
    package = tmp_path / "wait_cli_hostile"
    package.mkdir()
    name, value = f"Thing{OSC_CSI}Exists", {"acceptors": SUCCESS}
    (package / "__init__.py").write_text(
        "from waitable.definition import WaiterDefinition\n"
        "from waitable.waiter import Waiter\n\n\n"
        "class ThingWaiter(Waiter):\n"
        f"    definition = WaiterDefinition.from_trait({name!r}, {HOSTILE!r}, "
        f"{value!r})\n"
        "    operation_method = 'get_thing'\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield "wait_cli_hostile"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("wait_cli_hostile", None)


def test_a_packages_names_are_listed_escaped(hostile_package: str) -> None:
    listed = run_wait(None, "--package", hostile_package, "--list", hostile_package)
    assert listed.exit_code == ExitCode.SUCCESS, ascii(listed.output)
    _clean(listed.output)
    (line,) = listed.stdout.splitlines()
    name, operation, *_ = line.split()
    assert "\\x1b]0;pwned\\x07" in name and operation == ESCAPED
    result = run_wait(None, "--package", hostile_package, hostile_package, "nope")
    assert result.exit_code == ExitCode.USAGE, ascii(result.output)
    line = _error_line(result.stderr)
    assert line.startswith(f"Error: {hostile_package} has no waiter 'nope'; its ")
    assert f"its waiters: {name} (waitable wait --list" in line
