"""A path the validator lets through but the compiler rejects, through `generate-waiters`.

Smithy's validator does not look at a slice's step, so ``items[::0].state`` reaches
the compiler, which rejects it (``invalid-value``: it would fail on every poll).
That is a problem in the model: one line naming the file, the operation, the
waiter, the acceptor and the compiler's reason, exit status 1, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import waitable_codegen.jmespath
from waitable_codegen.cli import main

OPERATION = "smithy.example#GetThing"


def write_model(path: Path, acceptor: dict[str, Any]) -> Path:
    """A model whose waiter ThingReady succeeds on `status` and has `acceptor` second."""
    success = {
        "state": "success",
        "matcher": {
            "output": {
                "path": "status",
                "expected": "done",
                "comparator": "stringEquals",
            }
        },
    }
    shapes = {
        OPERATION: {
            "type": "operation",
            "input": {"target": "smithy.example#GetThingInput"},
            "output": {"target": "smithy.example#GetThingOutput"},
            "traits": {
                "smithy.waiters#waitable": {
                    "ThingReady": {"acceptors": [success, acceptor]}
                }
            },
        },
        "smithy.example#GetThingInput": {
            "type": "structure",
            "members": {"name": {"target": "smithy.api#String"}},
        },
        "smithy.example#GetThingOutput": {
            "type": "structure",
            "members": {
                "status": {"target": "smithy.api#String"},
                "items": {"target": "smithy.example#Items"},
            },
        },
        "smithy.example#Items": {
            "type": "list",
            "member": {"target": "smithy.example#Item"},
        },
        "smithy.example#Item": {
            "type": "structure",
            "members": {"state": {"target": "smithy.api#String"}},
        },
    }
    path.write_text(json.dumps({"smithy": "2.0", "shapes": shapes}))
    return path


def failure_on(path: str, message: str | None = None) -> dict[str, Any]:
    """A failure acceptor on `items[*].state`-like `path`, with an optional message."""
    acceptor: dict[str, Any] = {
        "state": "failure",
        "matcher": {
            "output": {
                "path": path,
                "expected": "failed",
                "comparator": "anyStringEquals",
            }
        },
    }
    if message is not None:
        acceptor["message"] = message
    return acceptor


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"SMITHY_PLUGIN_DIR": ""})


@pytest.mark.parametrize(
    ("acceptor", "expression"),
    [
        (failure_on("items[::0].state"), "items[::0].state"),
        (
            failure_on("items[*].state", message="join(', ', items[::0].state)"),
            "join(', ', items[::0].state)",
        ),
    ],
    ids=["matcher path", "acceptor message"],
)
def test_a_path_the_compiler_rejects_is_one_line_and_exit_1(
    tmp_path: Path, acceptor: dict[str, Any], expression: str
) -> None:
    model = write_model(tmp_path / "model.json", acceptor)
    out = tmp_path / "out"
    done = run(str(model), "-o", str(out))
    assert done.exit_code == 1, done.output
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    line = done.stderr.strip()
    assert line.startswith(
        f"generate-waiters: error: {model}: {OPERATION}, waiter ThingReady, "
        "acceptor 1: cannot compile JMESPath: slice step cannot be 0 in JMESPath "
        f"expression {expression!r}"
    )
    assert "fix the expression in the model" in line
    assert "--jmespath interpreted" in line
    assert "report this" not in line
    assert "Traceback" not in done.output
    assert not out.exists()


def test_an_earlier_generation_is_left_as_it_was(tmp_path: Path) -> None:
    model = write_model(tmp_path / "model.json", failure_on("items[*].state"))
    out = tmp_path / "out"
    assert run(str(model), "-o", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    write_model(model, failure_on("items[::0].state"))
    assert run(str(model), "-o", str(out)).exit_code == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_interpreted_mode_does_not_compile_so_does_not_stop(tmp_path: Path) -> None:
    model = write_model(tmp_path / "model.json", failure_on("items[::0].state"))
    done = run(str(model), "-o", str(tmp_path / "out"), "--jmespath", "interpreted")
    assert done.exit_code == 0, done.output


def test_an_unexpected_compiler_failure_asks_for_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(expression: str, function_name: str) -> str:
        raise RuntimeError("compiler bug")

    monkeypatch.setattr(waitable_codegen.jmespath, "compile_to_source", broken)
    model = write_model(tmp_path / "model.json", failure_on("items[*].state"))
    done = run(str(model), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1
    assert done.stderr == (
        f"generate-waiters: error: {model}: {OPERATION}, waiter ThingReady, "
        "acceptor 0: cannot compile JMESPath 'status' (RuntimeError: compiler bug); "
        "generate with --jmespath interpreted and report this\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_compiled_function_that_is_no_python_asks_for_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of what the compiler wrote is inside the report's net too (`.*` on
    a number literal once wrote `1.values()`, and generation died with a raw
    SyntaxError; found by review, 2026-11-27)."""

    def unparsable(expression: str, function_name: str) -> str:
        return f"def {function_name}(value: Any) -> Any:\n    return 1.values()\n"

    monkeypatch.setattr(waitable_codegen.jmespath, "compile_to_source", unparsable)
    model = write_model(tmp_path / "model.json", failure_on("items[*].state"))
    done = run(str(model), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1
    assert "cannot compile JMESPath 'status' (SyntaxError: " in done.stderr
    assert done.stderr.endswith(
        "generate with --jmespath interpreted and report this\n"
    )
    assert "Traceback" not in done.output
    assert not (tmp_path / "out").exists()
