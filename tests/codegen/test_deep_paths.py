"""Paths nested deeply: the interpreted mode refuses what its interpreter cannot
evaluate (before, such a waiter never matched), the compiled mode takes it, and a
path the validator cannot walk is an ERROR event, not an internal error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from waitable.interpreter_nesting import MAX_INTERPRETED_NESTING
from waitable.testing import VirtualClock
from waitable_codegen import generate
from waitable_codegen.errors import GenerationError, ValidationFailed

from .helpers import thing_shapes, write_model


def _model(tmp_path: Path, terms: int) -> Path:
    path = " && ".join(["status"] * terms)
    waiter = {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": path,
                        "expected": "done",
                        "comparator": "stringEquals",
                    }
                },
            }
        ]
    }
    return write_model(tmp_path / "deep.json", thing_shapes(DeepDone=waiter))


def _waits(package: Any) -> None:
    result = package.DeepDoneWaiter(
        lambda request: {"status": "done"}, clock=VirtualClock()
    ).wait({"name": "x"}, max_wait_time=60)
    assert result.state.value == "success" and result.attempts == 1


def test_interpreted_mode_refuses_a_path_its_interpreter_cannot_evaluate(
    tmp_path: Path,
) -> None:
    model = _model(tmp_path, MAX_INTERPRETED_NESTING + 50)
    with pytest.raises(GenerationError) as caught:
        generate(model, tmp_path / "pkg", jmespath="interpreted")
    message = str(caught.value)
    assert "deep.json" in message and "waiter DeepDone" in message
    assert "nests 150 levels deep" in message and "--jmespath compiled" in message
    assert not (tmp_path / "pkg").exists()


def test_compiled_mode_takes_the_same_path_and_matches(
    tmp_path: Path, import_package: Any
) -> None:
    generate(_model(tmp_path, MAX_INTERPRETED_NESTING + 50), tmp_path / "pkg")
    _waits(import_package(tmp_path / "pkg"))


def test_interpreted_mode_takes_a_path_at_the_limit_and_matches(
    tmp_path: Path, import_package: Any
) -> None:
    model = _model(tmp_path, MAX_INTERPRETED_NESTING)
    generate(model, tmp_path / "pkg", jmespath="interpreted")
    _waits(import_package(tmp_path / "pkg"))


def test_a_path_too_deep_to_validate_is_an_error_event(tmp_path: Path) -> None:
    with pytest.raises(ValidationFailed) as caught:
        generate(_model(tmp_path, 600), tmp_path / "pkg", allow_danger=True)
    (event,) = caught.value.events
    assert event.severity == "ERROR" and "nests too deeply to check" in event.message


def test_a_path_of_thousands_of_fields_gives_a_package_that_imports(
    tmp_path: Path, import_package: Any
) -> None:
    """Its plain read (`plain_reads`, 2,000 keys long, down a recursive output) made
    the runtime recurse past the limit when the module built its definition: the
    package the generator wrote failed to import (review of 2026-11-28, s24)."""
    path = ".".join(["next"] * 2000) + ".status == `null`"
    matcher = {"path": path, "expected": "true", "comparator": "booleanEquals"}
    shapes = thing_shapes(
        DeepDone={"acceptors": [{"state": "success", "matcher": {"output": matcher}}]}
    )
    output = shapes["smithy.example#GetThingOutput"]["members"]
    output["next"] = {"target": "smithy.example#GetThingOutput"}
    generate(write_model(tmp_path / "deep.json", shapes), tmp_path / "pkg")
    assert "plain_reads=" in (tmp_path / "pkg" / "waiters.py").read_text()
    _waits(import_package(tmp_path / "pkg"))
