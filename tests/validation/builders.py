"""Small in-memory Smithy models for the validation tests, built as JSON AST."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from waitable_codegen.model import Model, load_text
from waitable_codegen.validation import Severity, ValidationEvent

SHARED = Path(__file__).resolve().parents[3] / "shared"
NS = "smithy.example"


def model(shapes: dict[str, Any], metadata: dict[str, Any] | None = None) -> Model:
    """A model of these shapes (ids without a namespace get `smithy.example#`)."""
    document = {
        "smithy": "2.0",
        "metadata": metadata or {},
        "shapes": {_absolute(k): v for k, v in shapes.items()},
    }
    return load_text(json.dumps(document), "<test>")


def _absolute(shape_id: str) -> str:
    return shape_id if "#" in shape_id else f"{NS}#{shape_id}"


def ref(shape_id: str) -> dict[str, str]:
    """A `{"target": ...}` reference."""
    return {"target": _absolute(shape_id)}


def structure(members: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    """A structure whose members target the given shape ids."""
    return {
        "type": "structure",
        "members": {name: ref(target) for name, target in (members or {}).items()},
        **extra,
    }


def path_acceptor(
    path: Any,
    expected: str = "true",
    comparator: str = "booleanEquals",
    state: str = "success",
    kind: str = "output",
    **extra: Any,
) -> dict[str, Any]:
    """An acceptor with an `output` (or `inputOutput`) path matcher."""
    return {
        "state": state,
        "matcher": {
            kind: {"path": path, "expected": expected, "comparator": comparator}
        },
        **extra,
    }


def success_acceptor(state: str = "success") -> dict[str, Any]:
    """An acceptor with a `success: true` matcher."""
    return {"state": state, "matcher": {"success": True}}


def waitable_operation(
    waiters: Any,
    output: dict[str, str] | None = None,
    input: dict[str, str] | None = None,
    errors: list[str] | None = None,
    extra_shapes: dict[str, Any] | None = None,
    traits: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
) -> Model:
    """A model holding operation `Op` with this `smithy.waiters#waitable` value."""
    shapes: dict[str, Any] = {
        "Op": {
            "type": "operation",
            "input": ref("OpInput"),
            "output": ref("OpOutput"),
            "errors": [ref(e) for e in errors or []],
            "traits": {"smithy.waiters#waitable": waiters, **(traits or {})},
        },
        "OpInput": structure(input, traits={"smithy.api#input": {}}),
        "OpOutput": structure(output, traits={"smithy.api#output": {}}),
    }
    for error in errors or []:
        shapes.setdefault(error, structure(traits={"smithy.api#error": "client"}))
    shapes.update(extra_shapes or {})
    return model(shapes, metadata)


def one_waiter(acceptors: Any, **waiter: Any) -> dict[str, Any]:
    """A trait value with one waiter, `Ready`."""
    return {"Ready": {"acceptors": acceptors, **waiter}}


def triples(events: list[ValidationEvent]) -> set[tuple[str, str, str]]:
    """The (severity, shape id, event id) of each event."""
    return {(e.severity.name, e.shape_id, e.event_id) for e in events}


def of_severity(events: list[ValidationEvent], severity: Severity) -> list[str]:
    """The string form of every event of one severity."""
    return [str(e) for e in events if e.severity is severity]
