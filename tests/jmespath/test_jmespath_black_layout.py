"""Compiled path functions are in black's layout whenever the layout check says so.

`render.certainly_stable` vouches for a function the compiler wrote, and then black
never sees it: a function it vouches for that black would change ships unformatted.
Nested functions (`&expr` arguments, paths nested past the compiler's depth limit)
once came without the blank lines black puts around them (review of 2026-11-28).
"""

from __future__ import annotations

import json
import math

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jmespath_cases import conformance_cases
from shared_corpora import needs_shared

from waitable_codegen import render
from waitable_codegen.jmespath import JMESPathCompileError, compile, compile_to_source

NESTED = [
    "contains(sort_by(items, &@), 'ok')",
    "max_by(items, &size).name",
    "min_by(items, &to_number(size)).name",
    "map(&length(@), items)",
    "sort_by(items, &name)[*].name",
    "map(&map(&a, b), c)",
    "sort_by(a, &b) == sort_by(c, &d)",
    "a[?b[?c[?d[?e[?f[?g]]]]]]",
    "a[*].b[*].c[*].d[*].e[*].f[*].g[*].h[*].i[*].j[*].k[*].l",
    "length(a[?b[?c[?d[?e[?f[?g[?h == 'x']]]]]]]) > `0`",
]


def in_black_layout(source: str) -> bool:
    return black.format_str(source, mode=render.black_mode()) == source


def vouched_means_stable(expression: str) -> bool:
    """False only when the check vouches for a function black would change;
    True when the function is vouched for and stable (None-like cases: the
    expression does not compile, or the check sends it to black)."""
    try:
        source = compile_to_source(expression, "_search_thing_0")
    except JMESPathCompileError:
        return True
    return not render.certainly_stable(source) or in_black_layout(source)


@pytest.mark.parametrize("expression", NESTED)
def test_nested_functions_are_spaced_as_black_spaces_them(expression: str) -> None:
    source = compile_to_source(expression, "_search_thing_0")
    assert "\n    def " in source
    assert vouched_means_stable(expression)
    assert in_black_layout(render.settled(source, "a compiled function"))


@pytest.mark.parametrize(
    "expression",
    [
        "[z, y, x, w, v, u, t, s, r, q, p, o, n, m, l, k, j, i, h, g, f, e, d, c, b, a]",
        "sum([z, y, x, w, v, u, t, s, r, q, p, o, n, m, l, k, j, i, h, g, f, e, d, c, b, a])",
        "{state: reservations[0].instanceState, healthy: instanceHealthStatus, "
        "count: length(reservations), zz: z, yy: y, xx: x}",
    ],
)
def test_a_display_black_has_to_split_is_one_item_a_line(expression: str) -> None:
    """Its items fit on one line, but black splits a collection one item a line
    (the layout wrote a list's on one line, and the check vouched for it; a dict
    display was always left to black)."""
    source = compile_to_source(expression, "_search_thing_0")
    assert (
        "        z,\n        y,\n" in source
        or "            z,\n" in source
        or ('        "xx": x,\n' in source)
    )
    assert render.certainly_stable(source) and in_black_layout(source)


@needs_shared("conformance", "jmespath")
def test_every_compliance_expression_the_check_vouches_for_is_stable() -> None:
    expressions = sorted(
        {
            case["expression"]
            for _, _, case in conformance_cases()
            if "error" not in case
        }
    )
    assert len(expressions) > 500
    unstable = [e for e in expressions if not vouched_means_stable(e)]
    assert unstable == []


_FIELD = st.sampled_from(["a", "b", "items", "name", "state", '"quoted key"'])
_LITERAL = st.sampled_from(
    [
        "'ok'",
        "`1`",
        "`null`",
        "`true`",
        "`[1, 2]`",
        '\'"""\'',
        "'完完完完完完'",
        "'ｘ😀'",
    ]
)


def _grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, _FIELD).map(lambda t: f"{t[0]}.{t[1]}"),
        inner.map(lambda e: f"{e}[*].name"),
        inner.map(lambda e: f"{e}[]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[?{t[1]}]"),
        st.tuples(inner, _LITERAL).map(lambda t: f"{t[0]} == {t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]} || {t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]} && {t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"sort_by({t[0]}, &{t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"max_by({t[0]}, &{t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"map(&{t[1]}, {t[0]})"),
        inner.map(lambda e: f"length({e})"),
        st.tuples(inner, inner).map(lambda t: f"{{x: {t[0]}, y: {t[1]}}}"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]} | {t[1]}"),
        inner.map(lambda e: f"!{e}"),
    )


EXPRESSIONS = st.recursive(_FIELD | _LITERAL, _grow, max_leaves=30)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(EXPRESSIONS)
def test_random_paths_the_check_vouches_for_are_stable(expression: str) -> None:
    assert vouched_means_stable(expression)


@pytest.mark.parametrize(
    "expression",
    ["size > `1e16`", "`[-1.5e300, 2e+20]`", "contains(`[1e100]`, size)"],
)
def test_a_float_with_a_positive_exponent_is_written_as_black_writes_it(
    expression: str,
) -> None:
    """`repr(1e16)` is `1e+16`, and black drops the `+`: a path holding such a
    float (any float of 1e16 or more) shipped unformatted, as the check vouched
    for its short lines (review of 2026-11-28, s24)."""
    source = compile_to_source(expression, "_search_thing_0")
    assert "e+" not in source.split('"""')[-1]
    assert render.certainly_stable(source) and in_black_layout(source)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_float_literal_is_in_black_layout_and_keeps_its_value(
    number: float,
) -> None:
    expression = f"`{json.dumps(number)}`"
    source = compile_to_source(expression, "_search_thing_0")
    assert vouched_means_stable(expression)
    assert math.copysign(1, compile(expression)(None)) == math.copysign(1, number)
    assert compile(expression)(None) == number
