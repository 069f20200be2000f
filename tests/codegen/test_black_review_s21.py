"""Models a review (2026-11-28) found whose packages black would have changed: a
path with `&expr` (a nested function), `expected` of three double quotes before a
long line, and a functional-form TypedDict first in `shapes.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import black
import pytest

from waitable_codegen import generate, render

from .helpers import write_model

OPERATION = "ex#GetThing"


def thing_model(
    path: str,
    comparator: str,
    expected: str,
    input_members: dict[str, Any] | None = None,
    operation: str = OPERATION,
) -> dict[str, Any]:
    return {
        operation: {
            "type": "operation",
            "input": {"target": "ex#GetThingInput"},
            "output": {"target": "ex#GetThingOutput"},
            "traits": {
                "smithy.waiters#waitable": {
                    "ThingExists": {
                        "documentation": "Doc.",
                        "acceptors": [
                            {
                                "state": "success",
                                "matcher": {
                                    "output": {
                                        "path": path,
                                        "comparator": comparator,
                                        "expected": expected,
                                    }
                                },
                            }
                        ],
                    }
                }
            },
        },
        "ex#GetThingInput": {"type": "structure", "members": input_members or {}},
        "ex#GetThingOutput": {
            "type": "structure",
            "members": {
                "status": {"target": "smithy.api#String"},
                "items": {"target": "ex#Items"},
            },
        },
        "ex#Items": {"type": "list", "member": {"target": "smithy.api#String"}},
    }


CASES = {
    "nested function": thing_model(
        "contains(sort_by(items, &@), 'ok')", "booleanEquals", "true"
    ),
    "three quotes, then a long line": thing_model(
        "status",
        "stringEquals",
        '"""',
        operation="ex#GetThingAbcdefghAbcdefghAbcdefghAbcdefghAbcdefghAbcdefgh",
    ),
    "functional TypedDict first": thing_model(
        "status",
        "stringEquals",
        "ok",
        input_members={"from": {"target": "smithy.api#String"}},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_package_is_in_black_layout(tmp_path: Path, case: str) -> None:
    model = write_model(tmp_path / "model.json", CASES[case])
    result = generate(model, tmp_path / "out")
    assert result.waiters == 1 and not [
        e for e in result.events if e.severity in ("ERROR", "DANGER")
    ]
    mode = render.black_mode()
    for path in result.files:
        if path.suffix == ".py":
            text = path.read_text()
            assert black.format_str(text, mode=mode) == text, path.name
