"""Converting only what the paths can read never changes what they evaluate to."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import jmespath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.datamodel import output_to_jmespath, prune, to_jmespath
from waitable.reads import Reads, reads_of

from .harness import GROUP_EXISTS
from .test_definition import corpus_waiters

SHARED = Path(__file__).resolve().parents[3] / "shared"


def compliance_cases() -> list[tuple[str, Any, str, Any]]:
    cases = []
    for path in sorted((SHARED / "conformance" / "jmespath").glob("*.json")):
        for group in json.loads(path.read_text()):
            for case in group["cases"]:
                if "result" in case:
                    cases.append(
                        (path.name, group["given"], case["expression"], case["result"])
                    )
    return cases


CASES = compliance_cases()


def test_the_compliance_suite_is_all_there() -> None:
    assert len(CASES) == 742


@pytest.mark.parametrize("source", sorted({c[0] for c in CASES}))
def test_pruned_data_gives_the_same_result_on_the_compliance_suite(source: str) -> None:
    checked = 0
    for name, data, expression, expected in CASES:
        if name != source:
            continue
        full = jmespath.search(expression, data)
        assert full == expected
        assert (
            jmespath.search(expression, prune(data, reads_of(expression))) == full
        ), expression
        checked += 1
    assert checked > 0


def corpus_paths() -> list[str]:
    paths = set()
    for _, _, value, _ in corpus_waiters():
        for acceptor in value["acceptors"]:
            for member in acceptor["matcher"].values():
                if isinstance(member, dict):
                    paths.add(member["path"])
    return sorted(paths)


PATHS = corpus_paths()


def test_most_real_paths_read_only_part_of_the_output() -> None:
    partial = [path for path in PATHS if not reads_of(path).whole]
    assert len(PATHS) > 100 and len(partial) / len(PATHS) > 0.9


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["running", "ACTIVE", "failed", "", "x"])
    | st.datetimes(timezones=st.just(datetime.timezone.utc))
    | st.binary(max_size=3)
)
anything = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from("abc"), inner, max_size=2),
    max_leaves=6,
)


def shaped_like(reads: Reads, depth: int = 0) -> st.SearchStrategy[Any]:
    """Data that follows the tree's keys (so the path finds something), with noise around it."""
    if reads.whole or not reads.children or depth > 6:
        return anything
    keys = {key: shaped_like(node, depth + 1) for key, node in reads.children.items()}
    objects = st.fixed_dictionaries({}, optional=keys).flatmap(
        lambda d: st.dictionaries(
            st.sampled_from(["noise", "Other"]), anything, max_size=1
        ).map(lambda noise: {**noise, **d})
    )
    return st.one_of(objects, st.lists(objects, max_size=3), scalars)


@st.composite
def path_and_data(draw: st.DrawFn) -> tuple[str, Any]:
    path = draw(st.sampled_from(PATHS))
    return path, draw(shaped_like(reads_of(path)))


@settings(max_examples=400, deadline=None)
@given(path_and_data())
def test_pruned_data_gives_the_same_result_for_every_real_waiter_path(
    case: tuple[str, Any],
) -> None:
    path, data = case
    expression = jmespath.compile(path)
    try:
        full = expression.search(to_jmespath(data))
    except jmespath.exceptions.JMESPathError:
        with pytest.raises(jmespath.exceptions.JMESPathError):
            expression.search(prune(data, reads_of(path)))
        return
    assert expression.search(prune(data, reads_of(path))) == full


def test_a_definition_reads_only_what_its_paths_need() -> None:
    output = {"groups": ["a"], "big": list(range(1000)), "ResponseMetadata": {"x": 1}}
    assert output_to_jmespath(output, GROUP_EXISTS.output_reads) == {"groups": ["a"]}
    assert output_to_jmespath(output) == {"groups": ["a"], "big": list(range(1000))}


@pytest.mark.parametrize(
    ("expression", "whole"),
    [
        ("@", True),
        ("length(@) > `0`", True),
        ("*.a", True),
        ("a.b", False),
        ("a[?b].c", False),
    ],
)
def test_reads_of(expression: str, whole: bool) -> None:
    assert reads_of(expression).whole is whole
