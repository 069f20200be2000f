"""Shared helpers for the JMESPath compiler tests: the corpus, JSON equality."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = PROJECT_ROOT.parent / "shared" / "conformance" / "jmespath"
MODELS = PROJECT_ROOT.parent / "shared" / "models"


def conformance_cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """Every case of the compliance suite: (id, given, case), in file order."""
    cases = []
    for path in sorted(CONFORMANCE.glob("*.json")):
        for group_number, group in enumerate(json.loads(path.read_text("utf-8"))):
            for case_number, case in enumerate(group["cases"]):
                case_id = f"{path.stem}-{group_number}-{case_number}"
                cases.append((case_id, group["given"], case))
    return cases


def same_json(left: Any, right: Any) -> bool:
    """JSON equality: numbers by value, booleans never equal to numbers."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    numbers = (int, float)
    if isinstance(left, numbers) and isinstance(right, numbers):
        return left == right
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(same_json, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(
            same_json(left[key], right[key]) for key in left
        )
    return type(left) is type(right) and left == right


def waiter_paths() -> list[str]:
    """Every acceptor ``path`` in the shared AWS models, sorted, no repeats."""
    paths: set[str] = set()
    for model in sorted(MODELS.glob("*/*.json")):
        shapes = json.loads(model.read_text("utf-8")).get("shapes", {})
        for shape in shapes.values():
            waiters = shape.get("traits", {}).get("smithy.waiters#waitable", {})
            for waiter in waiters.values():
                for acceptor in waiter["acceptors"]:
                    matcher = acceptor["matcher"]
                    for kind in ("output", "inputOutput"):
                        if kind in matcher:
                            paths.add(matcher[kind]["path"])
    return sorted(paths)
