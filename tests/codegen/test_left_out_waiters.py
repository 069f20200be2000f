"""Operations with waiters that no service binds, in a model whose services bind
waiters, are left out (the services' closures are generated, as Smithy's own code
generators do); generation says so with a WARNING instead of dropping them silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from waitable_codegen import generate

from .helpers import status_waiter, thing_shapes, waiter_operation, write_model


def _model(tmp_path: Path) -> Path:
    shapes: dict[str, Any] = thing_shapes()
    shapes["smithy.example#Things"] = {
        "type": "service",
        "version": "1",
        "operations": [{"target": "smithy.example#GetThing"}],
    }
    shapes["smithy.example#GetOrphan"] = waiter_operation(
        {"OrphanDone": status_waiter()}
    )
    return write_model(tmp_path / "things.json", shapes)


def _warnings(events: Any) -> list[Any]:
    return [event for event in events if event.severity == "WARNING"]


def test_an_unbound_operation_with_waiters_is_reported_and_left_out(
    tmp_path: Path,
) -> None:
    result = generate(_model(tmp_path), tmp_path / "pkg")
    (event,) = _warnings(result.events)
    assert event.shape_id == "smithy.example#GetOrphan"
    assert event.event_id == "WaitableOperationNotGenerated"
    assert event.source.endswith("things.json")
    assert "left out" in event.message and "Bind the operation" in event.message
    assert result.waiters == 1
    text = (tmp_path / "pkg" / "waiters.py").read_text()
    assert "ThingDoneWaiter" in text and "OrphanDone" not in text
    again = generate(_model(tmp_path), tmp_path / "pkg")  # a no-op run replays it
    assert not again.written and _warnings(again.events) == [event]


def test_a_chosen_service_leaves_the_rest_out_without_a_warning(
    tmp_path: Path,
) -> None:
    result = generate(
        _model(tmp_path), tmp_path / "pkg", service="smithy.example#Things"
    )
    assert _warnings(result.events) == [] and result.waiters == 1


def test_a_model_without_services_generates_every_waiter(tmp_path: Path) -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetOrphan"] = waiter_operation(
        {"OrphanDone": status_waiter()}
    )
    result = generate(write_model(tmp_path / "m.json", shapes), tmp_path / "pkg")
    assert _warnings(result.events) == [] and result.waiters == 2


def test_the_cli_prints_the_warning_and_succeeds(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from waitable_codegen.cli import main

    done = CliRunner().invoke(main, [str(_model(tmp_path)), "-o", str(tmp_path / "p")])
    assert done.exit_code == 0, done.output
    assert "things.json: [WARNING] smithy.example#GetOrphan: " in done.output
