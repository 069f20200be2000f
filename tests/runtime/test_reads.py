"""Converting only what the paths can read never changes what they evaluate to.

Two routes are checked against converting everything: `convert_read_parts` (the
copy-on-write conversion of the read parts) and `OutputConverter` (a definition's
per-poll converter, which first checks whether anything read needs converting).
"""

from __future__ import annotations

import copy
import datetime
import enum
import json
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import jmespath
import pytest
from shared_corpora import has_shared, missing_reason, needs_shared, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.datamodel import convert_read_parts, output_to_jmespath, to_jmespath
from waitable.outputs import OutputConverter, is_json_like
from waitable.reads import Reads, reads_of

from waitable_codegen.jmespath import compile as compile_path

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


def only_read_parts(value: Any, reads: Reads) -> Any:
    """JSON `value` without the object keys `reads` leaves out: the analysis's claim.

    If a path gives the same result on this as on `value`, it reads nothing the
    tree does not name, so checking and converting only those parts is enough.
    """
    if reads.whole:
        return value
    if isinstance(value, dict):
        return {
            k: only_read_parts(value[k], node)
            for k, node in reads.children.items()
            if k in value
        }
    if isinstance(value, list):
        return [only_read_parts(v, reads) for v in value]
    return value


def test_the_compliance_suite_is_all_there() -> None:
    shared_path("conformance", "jmespath")
    assert len(CASES) == 742


@needs_shared("conformance", "jmespath")
@pytest.mark.parametrize("source", sorted({c[0] for c in CASES}))
def test_converting_the_read_parts_gives_the_same_result_on_the_compliance_suite(
    source: str,
) -> None:
    checked = 0
    for name, data, expression, expected in CASES:
        if name != source:
            continue
        full = jmespath.search(expression, data)
        assert full == expected
        reads = reads_of(expression)
        assert jmespath.search(expression, only_read_parts(data, reads)) == full
        assert OutputConverter(reads)(data) is data, expression  # JSON already
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
needs_models = pytest.mark.skipif(
    not has_shared("models"), reason=missing_reason("models")
)


def test_most_real_paths_read_only_part_of_the_output() -> None:
    shared_path("models")
    partial = [path for path in PATHS if not reads_of(path).whole]
    assert len(PATHS) == 111  # every distinct acceptor path of the 278 waiters
    assert len(partial) / len(PATHS) > 0.9


class Colour(str, enum.Enum):
    RED = "running"  # an enum member equal to a value the paths look for


class ReadOnly(Mapping[str, Any]):
    """A mapping that is not a dict (as some clients return)."""

    def __init__(self, items: Mapping[str, Any]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class Box:
    a: Any = None
    b: Any = None


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["running", "ACTIVE", "failed", "", "x", Colour.RED])
    | st.datetimes(timezones=st.just(datetime.timezone.utc))
    | st.binary(max_size=3)
    | st.just(Decimal("1.5"))
)
anything = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.sampled_from("abc"), inner, max_size=2)
    | st.builds(Box, inner, inner),
    max_leaves=6,
)


def shaped_like(reads: Reads, depth: int = 0) -> st.SearchStrategy[Any]:
    """Data that follows the tree's keys (so the path finds something), with noise around it.

    Objects come as dicts, dict subclasses, other mappings or in tuples now and then, so both
    the fast route (nothing to convert) and each conversion are exercised.
    """
    if reads.whole or not reads.children or depth > 6:
        return anything
    keys = {key: shaped_like(node, depth + 1) for key, node in reads.children.items()}
    objects = st.fixed_dictionaries({}, optional=keys).flatmap(
        lambda d: st.dictionaries(
            st.sampled_from(["noise", "Other"]), anything, max_size=1
        ).map(lambda noise: {**noise, **d})
    )
    containers = objects | objects.map(ReadOnly) | objects.map(OrderedDict)
    return st.one_of(
        containers,
        st.lists(containers, max_size=3),
        st.lists(containers, max_size=2).map(tuple),
        scalars,
    )


@st.composite
def path_and_data(draw: st.DrawFn) -> tuple[str, Any]:
    path = draw(st.sampled_from(PATHS))
    return path, draw(shaped_like(reads_of(path)))


@needs_models
@settings(max_examples=400, deadline=None)
@given(path_and_data())
def test_converting_the_read_parts_gives_the_same_result_for_every_real_waiter_path(
    case: tuple[str, Any],
) -> None:
    path, data = case
    before = copy.deepcopy(data)
    expression = jmespath.compile(path)
    reads = reads_of(path)
    routes: dict[str, Callable[[], Any]] = {
        "convert_read_parts": lambda: convert_read_parts(data, reads),
        "OutputConverter": lambda: OutputConverter(reads)(data),
    }
    try:
        full = expression.search(to_jmespath(data))
    except jmespath.exceptions.JMESPathError:
        for route in routes.values():
            with pytest.raises(jmespath.exceptions.JMESPathError):
                expression.search(route())
        return
    assert expression.search(only_read_parts(to_jmespath(data), reads)) == full
    for name, route in routes.items():
        assert expression.search(route()) == full, name
    # What a generated waiter runs: the compiled path on the converter's output.
    assert compile_path(path)(OutputConverter(reads)(data)) == full
    assert data == before  # the client's output is never changed in place


json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from("abc"), inner, max_size=2),
    max_leaves=8,
)


@needs_models
@settings(max_examples=200, deadline=None)
@given(path=st.sampled_from(PATHS), data=json_data)
def test_json_data_is_used_as_it_is(path: str, data: Any) -> None:
    """Nothing to convert: the converter hands back the very same object, no copy."""
    assert OutputConverter(reads_of(path))(data) is data


def test_only_values_on_a_read_path_are_converted() -> None:
    launched = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
    unread = {"LaunchTime": launched}
    output = {
        "Items": [{"State": {"Name": "running"}, "Other": unread}],
        "ResponseMetadata": {"RequestId": "x"},
    }
    names = OutputConverter(reads_of("Items[].State.Name"))
    assert names(output) is output  # no datetime, bytes or odd container is read
    times = OutputConverter(reads_of("Items[].Other.LaunchTime"))
    converted = times(output)
    assert converted["Items"][0]["Other"] == {"LaunchTime": launched.timestamp()}
    assert output["Items"][0]["Other"]["LaunchTime"] is launched  # a copy changed
    assert converted["Items"][0]["State"] is output["Items"][0]["State"]  # shared


def test_response_metadata_is_hidden_only_from_paths_that_could_see_it() -> None:
    output = {"groups": ["a"], "ResponseMetadata": {"x": 1}}
    assert OutputConverter(reads_of("keys(@)"))(output) == {"groups": ["a"]}
    assert OutputConverter(reads_of("ResponseMetadata.x"))(output) == {"groups": ["a"]}
    assert OutputConverter(reads_of("groups"))(output) is output
    assert output_to_jmespath(output) == {"groups": ["a"]}


@pytest.mark.parametrize(
    ("values", "path", "json_like"),
    [
        ([{"a": [{"b": "x"}, [{"b": 1}]]}], "a[].b", True),
        ([{"a": [{"b": b"x"}]}], "a[].b", False),
        ([{"a": ({"b": "x"},)}], "a[].b", False),  # a tuple must become a list
        ([{"a": [{"b": "x", "c": b"unread"}]}], "a[].b", True),
        ([{"a": {"b": {1: "x"}}}], "length(a.b)", False),  # keys must be strings
        ([{"a": {"b": {"k": [1, None, "x"]}}}], "length(a.b)", True),
        ([ReadOnly({"a": 1})], "a", False),
        ([{"a": OrderedDict(b="x")}], "a.b", True),  # walked through: read by .get
        ([{"a": OrderedDict(b="x")}], "length(a)", False),  # read whole: converted
        ([{"a": [{"b": "x"}, None, "s", {"c": 1}]}], "a[].b", True),
        ([{"a": [{"b": "x"}, None, ({"b": b"x"},)]}], "a[].b", False),
        ([{"a": [[{"b": "x"}], {"b": ["y", {"c": [1]}]}]}], "a[].b", True),
        ([{"a": [[{"b": "x"}], {"b": ["y", {"c": (1,)}]}]}], "a[].b", False),
        ([[[[{"a": "x"}]]]], "a", True),
    ],
)
def test_is_json_like(values: list[Any], path: str, json_like: bool) -> None:
    assert is_json_like(values, reads_of(path)) is json_like


def test_a_definition_reads_only_what_its_paths_need() -> None:
    when = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
    output = {"groups": ["a"], "big": [when] * 1000, "ResponseMetadata": {"x": 1}}
    assert GROUP_EXISTS.output_converter(output) is output  # `big` is never read
    assert output_to_jmespath(output, GROUP_EXISTS.output_reads) == {
        "groups": ["a"],
        "big": [when] * 1000,
    }
    assert output_to_jmespath(output) == {
        "groups": ["a"],
        "big": [when.timestamp()] * 1000,
    }


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


def test_a_path_of_thousands_of_segments_merges_without_recursion(
    tmp_path: Path,
) -> None:
    """A waiter definition file is untrusted: a dotted path of 3,000 segments once
    made `Reads.merge` recurse past the limit (found by review, 2026-11-27)."""
    from waitable.custom import custom_waiter_from_trait

    path = "a" + ".b" * 3000
    reads = Reads()
    reads.merge(reads_of(path))
    depth, node = 0, reads
    while node.children:
        [node] = node.children.values()
        depth += 1
    assert depth == 3001 and node.whole
    definition = tmp_path / "waiters.json"
    matcher = {"path": path, "expected": "x", "comparator": "stringEquals"}
    definition.write_text(
        json.dumps(
            {"acceptors": [{"state": "success", "matcher": {"output": matcher}}]}
        )
    )
    waiter = custom_waiter_from_trait("Deep", definition)
    assert waiter.definition.acceptors[0].matcher.path == path  # type: ignore[attr-defined]
