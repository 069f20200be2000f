"""Seeded responses and errors for botocore waiters, built from their own acceptors.

For each acceptor path the generator inverts the JMESPath AST (fields, projections,
flattens, indexes; functions and comparisons by their arguments) so the data it
builds reaches the path's leaves, and fills those leaves with the acceptors'
expected values, near misses, numbers, booleans, nulls and empty lists; keys go
missing at random. Errors carry each `error` code, others and status codes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import jmespath
from botocore.exceptions import ClientError

Leaf = Callable[[], Any]


def _merge(a: Any, b: Any) -> Any:
    """Deep-merge two generated values (dicts merge key by key, otherwise `a` wins)."""
    if isinstance(a, dict) and isinstance(b, dict):
        merged = dict(b)
        for key, value in a.items():
            merged[key] = _merge(value, b[key]) if key in b else value
        return merged
    return a if a is not None else b


class ResponseGenerator:
    """Builds outputs and errors for one botocore waiter (its `waiters-2.json` entry)."""

    def __init__(self, config: Mapping[str, Any], rng: random.Random) -> None:
        self.rng = rng
        self.acceptors = list(config["acceptors"])
        self.paths = [
            jmespath.compile(a["argument"]).parsed
            for a in self.acceptors
            if a["matcher"] in ("path", "pathAll", "pathAny")
        ]
        expected = [
            a["expected"]
            for a in self.acceptors
            if a["matcher"] in ("path", "pathAll", "pathAny")
        ]
        near = [e + "-x" for e in expected if isinstance(e, str)]
        self.values: list[Any] = expected + near + ["other", "", True, False, 0, 1]
        self.codes = [
            a["expected"]
            for a in self.acceptors
            if a["matcher"] == "error" and isinstance(a["expected"], str)
        ] + ["SomeOtherError", "404", "ThrottlingException"]
        self.statuses = [
            a["expected"] for a in self.acceptors if a["matcher"] == "status"
        ] + [200, 400, 404, 500]

    def leaf(self, theme: Any) -> Any:
        """One leaf value: mostly the response's theme (so `pathAll` can hold)."""
        roll = self.rng.random()
        if roll < 0.6:
            return theme
        if roll < 0.9:
            return self.rng.choice(self.values)
        return self.rng.choice([None, [], {}, 2.0])

    def make(self, node: Mapping[str, Any], leaf: Leaf) -> Any:
        """Data on which `node` evaluates to something built from `leaf()`."""
        rng, kind, children = self.rng, node["type"], node.get("children", [])
        if rng.random() < 0.04:
            return rng.choice([None, "oops", [], {}])  # missing or mistyped
        if kind == "field":
            return {node["value"]: leaf()}
        if kind == "subexpression":
            return self.make(children[0], lambda: self.make(children[1], leaf))
        if kind in ("projection", "filter_projection", "value_projection"):
            right = children[1]
            return self.make(
                children[0],
                lambda: [self.make(right, leaf) for _ in range(rng.randint(0, 3))],
            )
        if kind == "flatten":

            def chunks() -> Any:
                inner = leaf()
                if not isinstance(inner, list) or rng.random() < 0.3:
                    return [inner]
                cut = rng.randint(0, len(inner))
                return [inner[:cut], inner[cut:]]

            return self.make(children[0], chunks)
        if kind == "index_expression":
            return self.make(
                children[0], lambda: [leaf() for _ in range(rng.randint(0, 3))]
            )
        if kind in ("identity", "current"):
            return leaf()
        if kind == "literal":
            return None
        merged: Any = None
        for child in children:  # functions, comparisons, and/or/not, multi-selects
            merged = _merge(merged, self.make(child, leaf))
        return merged

    def output(self) -> dict[str, Any]:
        """A successful response: every acceptor path's data merged, with metadata."""
        theme = self.rng.choice(self.values)
        data: Any = {}
        for path in self.paths:
            part = self.make(path, lambda: self.leaf(theme))
            if isinstance(part, dict):
                data = _merge(data, part)
        if not isinstance(data, dict):
            data = {}
        if self.rng.random() < 0.9:
            data["ResponseMetadata"] = {
                "HTTPStatusCode": self.rng.choice(self.statuses)
            }
        return data

    def error(self) -> ClientError:
        """A service error with one of the acceptors' codes or another, and a status."""
        response = {
            "Error": {"Code": self.rng.choice(self.codes), "Message": "generated"},
            "ResponseMetadata": {"HTTPStatusCode": self.rng.choice(self.statuses)},
        }
        return ClientError(response, "Operation")  # type: ignore[arg-type]

    def outcomes(self, count: int) -> list[Any]:
        """`count` outcomes, each an output dict or a `ClientError` to raise."""
        return [
            self.error() if self.rng.random() < 0.3 else self.output()
            for _ in range(count)
        ]
