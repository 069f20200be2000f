"""Validation builds only the parts of a sample its paths read (`waitable.reads`),
ANY elsewhere: every event is the one the whole sample gives, on every shared
model, every Smithy errorfile and generated paths over a model with lists, maps,
unions, recursion and constraints."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable_codegen.model import load_model, load_text
from waitable_codegen.validation import validate, waiter_rules

from .helpers import ERRORFILES, corpus_files, smithy_model

NS = "smithy.example"


@contextmanager
def whole_samples() -> Iterator[None]:
    """Validation as it was: every sample built whole."""
    analysis = waiter_rules._path_reads
    waiter_rules._path_reads = lambda waiters: (None, None)
    try:
        yield
    finally:
        waiter_rules._path_reads = analysis


def both_ways(model: Any) -> tuple[list[str], list[str]]:
    guided = [str(event) for event in validate(model)]
    with whole_samples():
        whole = [str(event) for event in validate(model)]
    return guided, whole


def test_the_analysis_is_replaced_by_the_context_manager() -> None:
    with whole_samples():
        assert waiter_rules._path_reads([]) == (None, None)
    assert waiter_rules._path_reads([]) != (None, None)


@pytest.mark.parametrize(
    "path",
    corpus_files() + sorted(ERRORFILES.glob("*.json")),
    ids=lambda path: path.name,
)
def test_every_shared_model_and_errorfile_gives_the_same_events(path: Path) -> None:
    guided, whole = both_ways(load_model([path]))
    assert guided == whole


def shapes() -> dict[str, Any]:
    """An output with structures, lists, maps, a union, recursion and constraints."""

    def target(name: str) -> dict[str, str]:
        return {"target": name if "#" in name else f"{NS}#{name}"}

    return {
        f"{NS}#Get": {
            "type": "operation",
            "input": target("In"),
            "output": target("Out"),
            "traits": {"smithy.waiters#waitable": "WAITERS"},
        },
        f"{NS}#In": {"type": "structure", "members": {"id": target("Str")}},
        f"{NS}#Out": {
            "type": "structure",
            "members": {
                "status": target("Str"),
                "count": target("Num"),
                "flag": target("smithy.api#Boolean"),
                "items": target("Items"),
                "tags": target("Tags"),
                "node": target("Node"),
                "choice": target("Choice"),
                "doc": target("smithy.api#Document"),
            },
        },
        f"{NS}#Str": {
            "type": "string",
            "traits": {"smithy.api#length": {"min": 3, "max": 5}},
        },
        f"{NS}#Num": {"type": "integer", "traits": {"smithy.api#range": {"min": 10}}},
        f"{NS}#Items": {"type": "list", "member": target("Item")},
        f"{NS}#Item": {
            "type": "structure",
            "members": {
                "state": target("Str"),
                "count": target("Num"),
                "items": target("Items"),
                "tags": target("Tags"),
            },
        },
        f"{NS}#Tags": {"type": "map", "key": target("Str"), "value": target("Item")},
        f"{NS}#Node": {
            "type": "structure",
            "members": {"next": target("Node"), "items": target("Items")},
        },
        f"{NS}#Choice": {
            "type": "union",
            "members": {"a": target("Str"), "b": target("Items")},
        },
    }


FIELDS = ["status", "count", "flag", "items", "tags", "node", "choice", "doc"]
FIELDS += ["state", "next", "a", "b", "aaa0", "aaa1", "missing", "input", "output"]
SIMPLE = st.sampled_from(FIELDS)


def steps(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds("{}.{}".format, inner, SIMPLE),
        st.builds("{}[]".format, inner),
        st.builds("{}[*]".format, inner),
        st.builds("{}.*".format, inner),
        st.builds("{}[0]".format, inner),
        st.builds("{}[1:]".format, inner),
        st.builds("{}[?{} == 'aaa']".format, inner, SIMPLE),
        st.builds("length({})".format, inner),
        st.builds("keys({})".format, inner),
        st.builds("values({})".format, inner),
        st.builds("contains({}, 'aaa')".format, inner),
        st.builds("{} | [0]".format, inner),
        st.builds("{} == {}".format, inner, SIMPLE),
        st.builds("{} > `3`".format, inner),
        st.builds("{} && {}".format, inner, SIMPLE),
        st.builds("!{}".format, inner),
        st.builds("[{}, {}]".format, inner, SIMPLE),
        st.builds("{{x: {}, y: {}}}".format, inner, SIMPLE),
        st.builds("sort_by({}, &state)".format, inner),
        st.builds("max_by({}, &count)".format, inner),
        st.builds("to_string({})".format, inner),
        st.builds("@.{}".format, inner),
    )


PATHS = st.recursive(SIMPLE | st.just("@"), steps, max_leaves=6)
ACCEPTORS = st.lists(
    st.tuples(
        st.sampled_from(["output", "inputOutput"]),
        PATHS,
        st.sampled_from(["stringEquals", "booleanEquals", "allStringEquals"]),
        st.none() | PATHS,
    ),
    min_size=1,
    max_size=3,
)


def events_both_ways(acceptors: list[Any]) -> tuple[list[str], list[str]]:
    """The events of a model whose one waiter has these (kind, path, comparator,
    message) acceptors, with read-guided samples and with whole ones."""
    waiter = {
        "acceptors": [
            {
                "state": "failure" if message is not None else "success",
                "matcher": {
                    kind: {"path": path, "expected": "true", "comparator": comparator}
                },
                **({"message": message} if message is not None else {}),
            }
            for kind, path, comparator, message in acceptors
        ]
        + [{"state": "success", "matcher": {"success": True}}]
    }
    text = json.dumps(smithy_model(shapes())).replace(
        '"WAITERS"', json.dumps({"Done": waiter})
    )
    return both_ways(load_text(text, "m.json"))


@pytest.mark.parametrize(
    "path",
    [
        "tags.aaa0.state",
        "tags.aaa1.items[0].count",
        "tags.missing",
        "items[].tags.aaa0.count",
        "choice.b[0].state",
        "node.next.next.items[1].tags.aaa0.state",
        "node.next.items[*].state",
        "length(tags.aaa0.items)",
        "status",
        "doc.anything",
        "input.id",
        "output.tags.aaa0.state",
        # where jmespath 1.1's tree differs from the spec's (the read analysis
        # uses jmespath's, the lint the spec's)
        "items[0][1:2].state",
        "tags.*.state",
        "node.*.items[0].state",
        "items[*].tags.*.count",
        "tags.aaa0.items[1:][0].tags.*.state",
    ],
)
@pytest.mark.parametrize("comparator", ["stringEquals", "booleanEquals"])
@pytest.mark.parametrize("kind", ["output", "inputOutput"])
def test_paths_through_maps_lists_unions_and_recursion_give_the_same_events(
    path: str, comparator: str, kind: str
) -> None:
    guided, whole = events_both_ways([(kind, path, comparator, path)])
    assert guided == whole


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(ACCEPTORS)
def test_generated_paths_give_the_same_events(acceptors: list[Any]) -> None:
    guided, whole = events_both_ways(acceptors)
    assert guided == whole
