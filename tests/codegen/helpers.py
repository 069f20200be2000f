"""Paths of the shared corpora and small model builders for the generator's tests."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED = PROJECT_ROOT.parent / "shared"
MODELS = SHARED / "models"
AWS_MODELS = MODELS / "api-models-aws"
ERRORFILES = SHARED / "conformance" / "smithy-waiters-errorfiles"
SPEC_EXAMPLES = PROJECT_ROOT / "examples" / "spec_examples.json"


def benchmark_module(name: str) -> ModuleType:
    """A script of `benchmarks/`, imported as it imports its own helpers when run."""
    benchmarks = str(PROJECT_ROOT / "benchmarks")
    if benchmarks not in sys.path:
        sys.path.insert(0, benchmarks)
    return importlib.import_module(name)


def corpus_files() -> list[Path]:
    """Every model file of the shared corpus, sorted."""
    return sorted(MODELS.glob("*/*.json"))


def smithy_model(shapes: dict[str, Any], version: str = "2.0") -> dict[str, Any]:
    """A JSON AST document holding `shapes`."""
    return {"smithy": version, "shapes": shapes}


def write_model(path: Path, shapes: dict[str, Any], version: str = "2.0") -> Path:
    """Write a JSON AST model file and return its path."""
    path.write_text(json.dumps(smithy_model(shapes, version), indent=1))
    return path


def waiter_operation(
    waiters: dict[str, Any],
    *,
    input: str | None = "smithy.example#GetThingInput",
    output: str | None = "smithy.example#GetThingOutput",
    errors: tuple[str, ...] = (),
) -> dict[str, Any]:
    """An operation shape carrying `@waitable(waiters)`."""
    body: dict[str, Any] = {
        "type": "operation",
        "traits": {"smithy.waiters#waitable": waiters},
    }
    if input:
        body["input"] = {"target": input}
    if output:
        body["output"] = {"target": output}
    if errors:
        body["errors"] = [{"target": e} for e in errors]
    return body


def status_waiter(expected: str = "done", **extra: Any) -> dict[str, Any]:
    """A waiter that succeeds when the output's `status` equals `expected`."""
    return {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "status",
                        "expected": expected,
                        "comparator": "stringEquals",
                    }
                },
            }
        ],
        **extra,
    }


def thing_shapes(**waiters: Any) -> dict[str, Any]:
    """A small service-less model: GetThing with `waiters`, its input and output."""
    return {
        "smithy.example#GetThing": waiter_operation(
            waiters or {"ThingDone": status_waiter()}
        ),
        "smithy.example#GetThingInput": {
            "type": "structure",
            "members": {
                "name": {
                    "target": "smithy.api#String",
                    "traits": {"smithy.api#required": {}},
                }
            },
        },
        "smithy.example#GetThingOutput": {
            "type": "structure",
            "members": {"status": {"target": "smithy.api#String"}},
        },
    }
