"""The two shapes jmespath 1.1 reads against the spec, compiled as the spec reads them.

JMESPath's grammar lets a projection's right-hand side run on until a token that
stops projections (``|``, ``||``, ``&&``, a comparator, ``]``, ``)``, ``,``, the
end): so ``a.*.b.c`` applies ``b.c`` to each value of ``a``, where jmespath 1.1
reads ``(a.*.b).c`` (jmespath.py issue #182), which is always null. A slice is
a projection wherever it stands: so in ``a[0][1:2].c`` the slice of ``a[0]``
projects ``.c``, where jmespath 1.1 appends the slice to the index and reads
``.c`` on the sliced array, again null.

The expected values below are worked out by hand from those rules; the
properties compare each shape with an equivalent expression that the
``jmespath`` package reads correctly (a pipe into a leading ``[*]`` or
slice), so neither side depends on the workaround being checked.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jmespath_cases import same_json

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    OutputMatcher,
    Waiter,
    WaiterDefinition,
)
from waitable.testing import VirtualClock
from waitable_codegen.jmespath import compile

THINGS = {
    "a": {
        "x": {"b": {"c": 1}},
        "y": {"b": {"c": 2}},
        "z": {"b": 3},
        "w": None,
        "v": {"b": {"d": 4}},
    }
}
ROWS = {"a": [[{"c": 1}, {"c": 2}, {"c": 3}], [{"c": 9}]]}


@pytest.mark.parametrize(
    ("expression", "data", "expected"),
    [
        # An object projection keeps the whole dotted path after `*`.
        ("a.*.b.c", {"a": {"x": {"b": {"c": 1}}}}, [1]),
        ("a.*.b.c", THINGS, [1, 2]),
        ("a.*.b.c.d", {"a": {"x": {"b": {"c": {"d": "deep"}}}, "y": {}}}, ["deep"]),
        ("a.*.b.c[0]", {"a": {"x": {"b": {"c": [7, 8]}}, "y": {"b": {"c": []}}}}, [7]),
        ("a.*.b.c | [0]", THINGS, 1),  # a pipe ends the projection
        ("a.*.b.c || `false`", {"a": {"x": {"b": {}}}}, False),  # so does `||`
        ("a.*.b.c", {"a": [{"b": {"c": 1}}]}, None),  # `.*` of an array
        ("*.b.c", {"x": {"b": {"c": 5}}}, [5]),  # what the leading form always did
        # A slice after an index projects the rest of the path.
        ("l[0][1:3].c", {"l": [[{"c": 1}, {"c": 2}, {"c": 3}]]}, [2, 3]),
        ("a[0][1:2].c", ROWS, [2]),
        ("a[0][::-1].c", ROWS, [3, 2, 1]),
        ("a[-1][:].c", ROWS, [9]),
        ("a[0][0:1][0]", {"a": [[[1, 2], [3, 4]]]}, [1]),  # `[0]` of each element
        ("a[0][1:3][0]", {"a": [[[1, 2], [3, 4], [5, 6]]]}, [3, 5]),
        ("a[0][0][1:2].c", {"a": [[[{"c": 1}, {"c": 2}]]]}, [2]),
        ("[0][1:3].c", [[{"c": 1}, {"c": 2}, {"c": 3}]], [2, 3]),
        ("a[0][1:3].c | [0]", ROWS, 2),
        ("a[0][1:].c.d", {"a": [[{"c": {"d": 1}}, {"c": {"d": 2}}, {"c": 5}]]}, [2]),
        ("a[0][1:2].c", {"a": [{"c": 1}]}, None),  # a slice of an object
    ],
)
def test_the_spec_reading(expression: str, data: Any, expected: Any) -> None:
    assert same_json(compile(expression)(data), expected)


_keys = st.sampled_from(["a", "b", "c", "d"])
json_data = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=30,
)
paths = st.lists(_keys, min_size=2, max_size=3).map(".".join)
bound = st.none() | st.integers(-4, 4)


@given(json_data, _keys, paths)
def test_an_object_projection_equals_projecting_its_values(
    data: Any, base: str, path: str
) -> None:
    """``x.*.p.q`` is ``x.*`` (the non-null values) piped into ``[*].p.q``."""
    spec = compile(f"{base}.*.{path}")(data)
    assert same_json(spec, compile(f"{base}.* | [*].{path}")(data))


@given(
    json_data,
    st.integers(-3, 3),
    bound,
    bound,
    st.sampled_from([None, 1, 2, -1]),
    paths,
)
def test_a_slice_after_an_index_equals_slicing_its_result(
    data: Any,
    index: int,
    start: int | None,
    stop: int | None,
    step: int | None,
    path: str,
) -> None:
    """``a[i][s].p`` is ``a[i]`` piped into ``[s].p``, a slice that starts the path."""
    text = ":".join("" if n is None else str(n) for n in (start, stop, step))
    spec = compile(f"a[{index}][{text}].{path}")(data)
    assert same_json(spec, compile(f"a[{index}] | [{text}].{path}")(data))


class _StatusWaiter(Waiter[dict[str, Any], dict[str, Any]]):
    """Succeeds when every instance's state is `running` (`Instances.*.State.Name`)."""

    definition = WaiterDefinition(
        name="AllRunning",
        operation="smithy.example#DescribeInstances",
        acceptors=(
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher(
                    "Instances.*.State.Name",
                    "running",
                    Comparator.ALL_STRING_EQUALS,
                    search=compile("Instances.*.State.Name"),
                ),
            ),
        ),
        min_delay=1,
        max_delay=1,
    )
    operation_method = "describe_instances"


def test_a_waiter_on_an_object_projection_path_matches() -> None:
    """Before the fix the compiled path gave null and the waiter retried until timeout."""
    pending = {"Instances": {"i-1": {"State": {"Name": "pending"}}}}
    running = {
        "Instances": {
            "i-1": {"State": {"Name": "running"}},
            "i-2": {"State": {"Name": "running"}},
        }
    }
    outputs = iter([pending])
    waiter = _StatusWaiter(lambda _input: next(outputs, running), clock=VirtualClock())
    result = waiter.wait({}, max_wait_time=60)
    assert result.state is AcceptorState.SUCCESS
    assert result.attempts == 2
