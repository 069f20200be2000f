"""Compiled functions against the ``jmespath`` interpreter, on generated data.

For every expression of the compliance suite and every acceptor path of the
shared AWS models, hypothesis builds JSON documents from the expression's own
field names and string literals (so lookups, filters and comparisons hit),
and the compiled function must give what the interpreter gives, or fail
where it fails.

The oracle is the interpreter with the specification's rules restored where
``jmespath`` 1.1 departs from them (deliberate differences of the compiled
form, documented in `waitable_codegen.jmespath.compiler`): ordering only on
numbers, typed deep equality (``[1] == [true]`` is false), ``contains`` by
that equality, ``to_number`` only on JSON numbers, ``min_by``/``max_by`` keys
of one type; and it walks the spec-shaped tree of the project's parser
(`waitable_codegen.jmespath.parser`: ``a.*.b.c``, ``a[0][1:2].c``), which
test_jmespath_spec_shapes.py pins against the spec on its own.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from shared_corpora import needs_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jmespath import exceptions as jmespath_exceptions
from jmespath import functions as jmespath_functions
from jmespath import visitor
from jmespath_cases import conformance_cases, same_json, waiter_paths

from waitable.jmespath_runtime import JMESPathEvaluationError
from waitable_codegen.jmespath import JMESPathCompileError, compile
from waitable_codegen.jmespath import nodes
from waitable_codegen.jmespath.parser import parse as parse_tree
from waitable_codegen.jmespath.syntax import parse

# --- the oracle ---------------------------------------------------------------


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _SpecFunctions(jmespath_functions.Functions):
    @jmespath_functions.signature({"types": ["array", "string"]}, {"types": []})
    def _func_contains(self, subject: Any, search: Any) -> bool:
        if isinstance(subject, str):
            return isinstance(search, str) and search in subject
        return any(same_json(element, search) for element in subject)

    @jmespath_functions.signature({"types": []})
    def _func_to_number(self, arg: Any) -> Any:
        if _number(arg):
            return arg
        if isinstance(arg, str) and re.fullmatch(
            r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?", arg
        ):
            return float(arg) if re.search(r"[.eE]", arg) else int(arg)
        return None

    def _by(self, array: Any, expref: Any, name: str) -> list[Any]:
        keys = [expref.visit(expref.expression, element) for element in array]
        if keys and not (
            all(isinstance(k, str) for k in keys) or all(_number(k) for k in keys)
        ):
            raise jmespath_exceptions.JMESPathTypeError(name, keys, "mixed", [])
        return keys

    @jmespath_functions.signature({"types": ["array"]}, {"types": ["expref"]})
    def _func_max_by(self, array: Any, expref: Any) -> Any:
        keys = self._by(array, expref, "max_by")
        return array[max(range(len(array)), key=keys.__getitem__)] if array else None

    @jmespath_functions.signature({"types": ["array"]}, {"types": ["expref"]})
    def _func_min_by(self, array: Any, expref: Any) -> Any:
        keys = self._by(array, expref, "min_by")
        return array[min(range(len(array)), key=keys.__getitem__)] if array else None


class _SpecInterpreter(visitor.TreeInterpreter):
    def visit_comparator(self, node: Any, value: Any) -> Any:
        left = self.visit(node["children"][0], value)
        right = self.visit(node["children"][1], value)
        op = node["value"]
        if op == "eq":
            return same_json(left, right)
        if op == "ne":
            return not same_json(left, right)
        if not (_number(left) and _number(right)):
            return None
        return {"lt": left < right, "lte": left <= right, "gt": left > right}.get(
            op, left >= right
        )


def oracle(expression: str, data: Any) -> Any:
    """What the specification says ``expression`` gives on ``data``."""
    options = visitor.Options(custom_functions=_SpecFunctions())
    return _SpecInterpreter(options).visit(parse_tree(expression), data)


# --- the expressions and their data ------------------------------------------

PROBES = [
    "!@",
    "@ || 'other'",
    "@ && 'other'",
    "[@, @][?@]",
    "a == b",
    "a != b",
    "a < b",
    "a >= b",
    "[a, b] == [b, a]",
    "sort(@)",
    "max(@)",
    "contains(@, a)",
    "to_number(@)",
    "to_string(@)",
    "length(@)",
    "type(@)",
    "@[::-1]",
    "@[-2:]",
    "@[1::2]",
    "@[5:-5:-1]",
    "@[*][]",
    "@[][]",
    "*.*",
    "@.*[*]",
    "a[?b == `1`].c | [0]",
    "a || b && !c",
    "{x: a, y: b}.*",
    "[a, b][]",
    "sort_by(@, &a)",
    "map(&a, @)",
    "max_by(@, &a)",
    "not_null(a, b, `null`)",
    "a.*.b.c",
    "*.a.b[0]",
    "a[0][1:3].b",
    "@[-1][::-1][0]",
    # found by review (2026-11-27): `!!x` returned x, `.*` on a whole-number
    # literal was no Python, a literal compared with `null` made `"x" is None`
    "!!@",
    "!!a",
    "!!a[*]",
    "!!keys(@)",
    "!![a]",
    "!!{x: a}",
    "!!(a || b)",
    "!!(a && b)",
    "!!!a",
    "!(!a == b)",
    "`1`.*",
    "`0`.*",
    "`-1`.*",
    "`1.5`.*",
    '`"x"`.*',
    "`[1]`.*",
    '`{"a": 1}`.*',
    "`1`[*]",
    "a || `0`.*",
    "'x' == `null`",
    "`null` == `null`",
    "`null` != 'x'",
    "!(`null` == 'x')",
    "`1` == `null`",
]


def _usable(expressions: set[str]) -> list[str]:
    usable = []
    for expression in sorted(expressions):
        try:
            compile(expression)
        except JMESPathCompileError:
            continue
        usable.append(expression)
    return usable


SUITE_EXPRESSIONS = _usable(
    {case["expression"] for _, _, case in conformance_cases() if "error" not in case}
    | set(PROBES)
)


def _vocabulary(node: Any, names: set[str], strings: set[str]) -> None:
    """The field names and string literals that appear in a tree."""
    if isinstance(node, nodes.Field):
        names.add(node.name)
    elif isinstance(node, nodes.Literal):
        if isinstance(node.value, str):
            strings.add(node.value)
    elif isinstance(node, nodes.MultiSelectHash):
        for _, item in node.pairs:
            _vocabulary(item, names, strings)
    else:
        for child in vars(node).values():
            for each in child if isinstance(child, tuple) else (child,):
                if not isinstance(each, (str, int, type(None))):
                    _vocabulary(each, names, strings)


def documents(expressions: list[str]) -> st.SearchStrategy[Any]:
    """JSON documents built from the words ``expressions`` use."""
    names: set[str] = set()
    strings: set[str] = set()
    for expression in expressions:
        _vocabulary(parse(expression), names, strings)
    keys = sorted(names | {"a", "b", "other"})
    words = sorted(strings | names | {"", "x"})
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-2, 3)
        | st.floats(-3, 3, allow_nan=False, width=16)
        | st.sampled_from(words)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(keys), inner, max_size=5),
        max_leaves=24,
    )


def _check(expression: str, data: Any) -> None:
    try:
        expected = oracle(expression, data)
    except (jmespath_exceptions.JMESPathError, TypeError, ValueError, OverflowError):
        with pytest.raises(JMESPathEvaluationError):
            compile(expression)(data)
        return
    actual = compile(expression)(data)
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(actual, float) and math.isnan(actual)
        return
    assert same_json(actual, expected), (expression, data, actual, expected)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(documents(SUITE_EXPRESSIONS))
def test_suite_expressions_agree_with_the_interpreter(document: Any) -> None:
    """Each document goes through every expression of the suite (and the probes)."""
    for expression in SUITE_EXPRESSIONS:
        _check(expression, document)


@needs_shared("models")
def test_the_waiter_paths_are_all_here() -> None:
    """The shared models' 278 waiters hold 111 distinct acceptor paths: all are
    checked below (a corpus listing that found none would skip them silently)."""
    assert len(waiter_paths()) == 111


@needs_shared("models")
@pytest.mark.parametrize("expression", waiter_paths())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_waiter_path_agrees_with_the_interpreter(
    expression: str, data: st.DataObject
) -> None:
    """Documents made of the path's own field names and literals."""
    _check(expression, data.draw(documents([expression]), label="document"))


@pytest.mark.parametrize("expression", PROBES)
def test_compiled_probes_are_python_without_warnings(expression: str) -> None:
    """Each probe's function compiles with every warning an error (a SyntaxWarning,
    such as `"x" is None`'s, would fail a user's `python -W error`)."""
    import builtins
    import warnings

    from waitable_codegen.jmespath import compile_to_source

    source = compile_to_source(expression, "probe")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        builtins.compile(source, "<probe>", "exec")
