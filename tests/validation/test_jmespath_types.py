"""The static analysis of JMESPath expressions over sample values (Smithy's linter)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from shared_corpora import shared_path
from hypothesis import given
from hypothesis import strategies as st

from waitable_codegen.validation.events import Severity
from waitable_codegen.validation.jmespath_syntax import (
    ExpressionSyntaxError,
    Node,
    parse,
)
from waitable_codegen.validation.jmespath_types import lint
from waitable_codegen.validation.jmespath_values import ANY, EXPREF, same_value

from .builders import SHARED

SAMPLE = {
    "name": "aa",
    "count": 8.0,
    "flag": True,
    "items": [{"s": "aa", "z": 8.0}, {"s": "aa", "z": 8.0}],
    "tags": {"aa1": "aa", "aa0": "aa"},
    "nested": [[1, 2], [3], None, 4],
    "doc": ANY,
}


def problems(expression: str, current: Any = SAMPLE) -> list[str]:
    """`[SEVERITY] message (line:column)` for each problem found."""
    return [f"[{p.severity.name}] {p}" for p in lint(expression, current).problems]


def value(expression: str, current: Any = SAMPLE) -> Any:
    return lint(expression, current).value


# Fields, indexes, slices.


def test_a_field_that_exists_gives_its_sample() -> None:
    assert value("items[0].s") == "aa"
    assert problems("items[0].s") == []


def test_a_missing_field_is_a_danger_listing_the_properties_and_gives_null() -> None:
    result = lint("items[0].missing", SAMPLE)
    assert result.value is None and result.return_type == "null"
    assert problems("items[0].missing") == [
        "[DANGER] Object field 'missing' does not exist in object with properties "
        "[s, z] (1:10)"
    ]


def test_a_field_of_a_non_object_is_a_danger_and_gives_any() -> None:
    assert value("name.x") is ANY
    assert problems("name.x") == [
        "[DANGER] Object field 'x' extraction performed on string (1:6)"
    ]


def test_nothing_is_reported_below_any() -> None:
    assert problems("doc.a.b[0].c[1:2].d[*].e.*.f[].g[?h].i") == []
    assert value("doc.a") is ANY


def test_indexes_allow_negatives_and_give_null_out_of_range_silently() -> None:
    assert value("nested[-1]") == 4
    assert value("nested[9]") is None
    assert problems("nested[9]") == []
    assert problems("name[0]") == [
        "[DANGER] Array index '0' extraction performed on string (1:6)"
    ]


def test_a_slice_returns_the_array_and_is_a_danger_on_anything_else() -> None:
    # Not sliced, only projected: the type is what matters.
    assert value("nested[1:2]") == [[1, 2], [3], None, 4]
    assert problems("count[1:]") == ["[DANGER] Slice performed on number (1:7)"]
    assert value("count[1:]") == []


# Projections and filters.


def test_an_array_projection_runs_per_element_and_keeps_nulls() -> None:
    assert value("items[*].s") == ["aa", "aa"]
    assert value("nested[*][0]") == [1, 3, ANY, ANY]
    assert problems("nested[*][0]") == [
        "[DANGER] Array index '0' extraction performed on null (1:11)",
        "[DANGER] Array index '0' extraction performed on number (1:11)",
    ]
    # The same problem from each element is reported once.
    assert problems("items[*].q") == [
        "[DANGER] Object field 'q' does not exist in object with properties [s, z] (1:10)"
    ]


def test_an_array_projection_on_a_non_array_is_a_danger_and_checks_on_any() -> None:
    assert problems("tags[*].x.y") == [
        "[DANGER] Array projection performed on object (1:6)"
    ]
    assert value("tags[*].x") == []


def test_an_empty_array_projects_silently() -> None:
    assert problems("e[*].x", {"e": []}) == []
    assert problems("e[?x].y", {"e": []}) == []


def test_flatten_splices_arrays_and_drops_nulls() -> None:
    assert value("nested[]") == [1, 2, 3, 4]
    assert problems("name[]") == ["[DANGER] Array flatten performed on string (1:1)"]


def test_an_object_projection_gives_the_array_of_values() -> None:
    assert value("tags.*") == ["aa", "aa"]
    assert problems("items.*.x") == [
        "[DANGER] Object projection performed on array (1:7)"
    ]
    assert value("items.*") == {}


def test_a_filter_evaluates_the_right_side_only_where_the_condition_holds() -> None:
    # With "aa" samples `s == 'X'` never holds: `q` is never read, the result is [].
    assert value("items[?s == 'X'].q") == []
    assert problems("items[?s == 'X'].q") == []
    assert value("items[?s == 'aa'].z") == [8.0, 8.0]
    assert problems("items[?s == 'aa'].q") == [
        "[DANGER] Object field 'q' does not exist in object with properties [s, z] "
        "(1:19)"
    ]
    assert problems("name[?a]") == [
        "[DANGER] Filter projection performed on string (1:7)"
    ]


# Comparisons and logic.


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        ("doc == 'x'", True),  # ANY on the left: assumed to hold
        ("'x' == doc", False),  # types differ
        ("count != name", False),  # types differ: false even for !=
        ("count < name", False),
        ("name == 'aa'", True),
        ("name != 'aa'", False),
        ("count >= `8`", True),
        ("count < `8`", False),
        ("items == items", True),
        ("`null` == missing", True),
    ],
)
def test_comparisons(expression: str, result: bool) -> None:
    assert value(expression) is result


def test_ordering_non_numbers_is_a_warning_and_gives_null() -> None:
    assert value("name < 'b'") is None
    assert problems("name < 'b'") == [
        "[WARNING] Invalid comparator '<' for string (1:8)"
    ]
    assert problems("`true` < `false`") == [
        "[WARNING] Invalid comparator '<' for boolean (1:10)"
    ]


def test_and_or_not_follow_jmespath_truthiness() -> None:
    assert value("flag && name") == "aa"
    assert value("`false` && name") is False
    assert value("`[]` || count") == 8.0
    assert value("!`{}`") is True
    assert value("!doc") is False  # ANY counts as truthy
    # Both sides are checked whatever the left side gives.
    assert problems("`false` && nope") != []


def test_literals_and_multi_selects() -> None:
    assert value('`[1, "a"]`') == [1, "a"]
    assert value("{a: name, b: count}") == {"a": "aa", "b": 8.0}
    assert value("[name, flag]") == ["aa", True]


def test_object_literals_list_their_keys_in_java_hash_order() -> None:
    assert problems('`{"b": 1, "a": 2}`.c') == [
        "[DANGER] Object field 'c' does not exist in object with properties [a, b] "
        "(1:20)"
    ]


# Functions.


def test_function_results_are_type_samples() -> None:
    assert value("length(name)") == 0
    assert value("sort(items)[0]") is None  # an empty sample array
    assert value("not_null(name)") is ANY
    assert value("contains(name, 'a')") is False
    assert lint("ends_with(name, 'a')", SAMPLE).return_type == "boolean"


def test_function_problems_are_errors() -> None:
    assert problems("nope(name)") == ["[ERROR] Unknown function: nope (1:1)"]
    assert value("nope(name)") is ANY
    assert problems("length(name, name)") == [
        "[ERROR] length function expected 1 arguments, but was given 2 (1:1)"
    ]
    assert problems("length(`10`)") == [
        "[ERROR] length function argument 0 error: Expected one of [string, array, "
        "object], but found number (1:8)"
    ]
    assert problems("abs(name)") == [
        "[ERROR] abs function argument 0 error: Expected argument to be number, but "
        "found string (1:5)"
    ]
    assert problems("sum(name)") == [
        "[ERROR] sum function argument 0 error: Expected argument to be an array, but "
        "found string (1:5)"
    ]
    assert problems("sum(items[*].s)") == [
        "[ERROR] sum function argument 0 error: Expected an array of number, but found "
        "string at index 0 (1:11)"
    ]
    assert problems("merge(tags, name)") == [
        "[ERROR] merge function argument 1 error: Expected argument to be object, but "
        "found string (1:13)"
    ]


def test_any_passes_argument_checks_except_as_an_element_of_a_typed_list() -> None:
    assert problems("abs(doc)") == []
    assert problems("avg(doc)") == []
    assert problems("avg([doc])") == [
        "[ERROR] avg function argument 0 error: Expected an array of number, but found "
        "any at index 0 (1:5)"
    ]


def test_expression_references_are_checked_on_the_functions_current_value() -> None:
    # Smithy's quirk: `&name` is checked on the root, not on each item.
    assert problems("sort_by(items, &s)") == [
        "[DANGER] Object field 's' does not exist in object with properties [name, "
        "count, flag, items, tags, nested, doc] (1:17)"
    ]
    assert value("&name") is EXPREF
    assert problems("&name") == []  # outside a function: checked on ANY
    assert problems("map(&s, items)") != []


def test_comparing_expression_references_is_a_warning() -> None:
    assert problems("max_by(items, &z) == min_by(items, &z)") == [
        "[DANGER] Object field 'z' does not exist in object with properties [name, "
        "count, flag, items, tags, nested, doc] (1:16)",
        "[DANGER] Object field 'z' does not exist in object with properties [name, "
        "count, flag, items, tags, nested, doc] (1:37)",
    ]
    assert problems("(&a) == (&b)") == [
        "[WARNING] Invalid comparator '==' for expression (1:9)"
    ]
    # `&` binds loosely: `&a == &b` is `&(a == &b)`.
    assert problems("&a == &b") == []


def test_a_syntax_error_is_raised_not_linted() -> None:
    with pytest.raises(ExpressionSyntaxError):
        lint("a.[", SAMPLE)


def test_problems_come_worst_first() -> None:
    data = {"nope": 1, "name": "x"}
    found = lint("length(`1`) || name < 'b' || nope.x", data).problems
    assert [p.severity for p in found] == sorted(
        (p.severity for p in found), reverse=True
    )
    assert {p.severity for p in found} == {
        Severity.ERROR,
        Severity.DANGER,
        Severity.WARNING,
    }


# Properties.

_names = st.sampled_from(["a", "b", "c", "items", "x"])


@st.composite
def access_paths(draw: st.DrawFn) -> str:
    """Chains of field, index, slice, projection and flatten steps."""
    steps = draw(
        st.lists(
            st.one_of(
                _names.map(lambda n: f".{n}"),
                st.integers(-3, 3).map(lambda i: f"[{i}]"),
                st.just("[*]"),
                st.just("[]"),
                st.just("[1:]"),
            ),
            max_size=6,
        )
    )
    return draw(_names) + "".join(steps)


@given(access_paths())
def test_nothing_read_from_any_is_ever_a_problem(expression: str) -> None:
    result = lint(expression, ANY)
    assert result.problems == ()


def test_an_object_projection_of_any_gives_an_object_as_in_smithy() -> None:
    assert value("doc.*") == {}
    assert problems("doc.*.a") == []
    assert problems("doc.*[]") == ["[DANGER] Array flatten performed on object (1:5)"]


def test_an_object_projection_keeps_the_rest_of_the_path_inside_it() -> None:
    # jmespath 1.1 would read `(items[0].*.x).y`; the spec and Smithy do not.
    assert problems("items[0].*.x.y") == [
        "[DANGER] Object field 'x' extraction performed on number (1:12)",
        "[DANGER] Object field 'x' extraction performed on string (1:12)",
    ]
    assert value('`{"a": {"b": {"c": 1}}}`.*.b.c') == [1]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(_names, children, max_size=3),
    max_leaves=12,
)


@given(json_values, _names)
def test_a_field_read_matches_the_object_or_reports_its_keys(
    data: Any, name: str
) -> None:
    result = lint(name, data)
    if isinstance(data, dict) and name in data:
        assert same_value(result.value, data[name]) and result.problems == ()
    elif isinstance(data, dict):
        assert result.value is None
        (problem,) = result.problems
        assert problem.message.endswith(f"[{', '.join(data)}]")
    else:
        assert result.value is ANY
        assert [p.severity for p in result.problems] == [Severity.DANGER]


def _types(node: Node) -> set[str]:
    found = {node["type"]}
    if node["type"] == "comparator":
        found.add(node["value"])
    for child in node.get("children", ()):
        if isinstance(child, dict):
            found |= _types(child)
    return found


# Where Smithy's type-level rules knowingly differ from evaluating JMESPath: function
# results are type samples, projections keep nulls, slices are not applied, and
# comparisons between different types (other than ==) give false instead of null.
_NOT_EVALUATED_AS_JMESPATH = {
    "function_expression",
    "projection",
    "value_projection",
    "slice",
    "ne",
    "lt",
    "lte",
    "gt",
    "gte",
}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_on_concrete_data_without_problems_the_result_is_jmespaths() -> None:
    """Over the JMESPath compliance suite, where the analysis finds no problem on
    the suite's own data, it computes the very result JMESPath specifies."""
    shared_path("conformance", "jmespath")
    compared = 0
    for path in sorted((SHARED / "conformance" / "jmespath").glob("*.json")):
        if path.name == "benchmarks.json":
            continue
        for group in json.loads(path.read_text(encoding="utf-8")):
            for case in group["cases"]:
                if "result" not in case:
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        tree = parse(case["expression"])
                    except ExpressionSyntaxError:
                        continue
                if _types(tree) & _NOT_EVALUATED_AS_JMESPATH:
                    continue
                result = lint(case["expression"], group["given"])
                if result.problems:
                    continue
                assert same_value(result.value, case["result"]), case["expression"]
                compared += 1
    assert compared > 300


def test_a_literal_under_a_projection_is_converted_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each element of a projection evaluates the right side again, and converting
    an object literal hashes every key: a 10 KB path (a 300-item list projected onto
    two 300-key objects) took 0.8 s, and the cost grew with the product of the two
    (review of 2026-11-28). Literals are converted once per walk now."""
    from waitable_codegen.validation import jmespath_types

    converted: list[object] = []
    real = jmespath_types.from_literal

    def counting(value: Any) -> Any:
        converted.append(value)
        return real(value)

    monkeypatch.setattr(jmespath_types, "from_literal", counting)
    keys = ", ".join(f'"key{i}": {i}' for i in range(300))
    items = ", ".join(str(i) for i in range(300))
    jmespath_types.lint(f"`[{items}]`[*].{{a: `{{{keys}}}`, b: `{{{keys}}}`}}", {})
    assert len(converted) == 3  # the list, and each object once
