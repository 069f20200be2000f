"""Paths the `jmespath` interpreter evaluates: nested at most MAX_INTERPRETED_NESTING
levels, refused past it when the waiter is defined, and evaluated at the limit with
only part of Python's stack left (before, a 450-term `&&` never matched: every
evaluation hit the recursion limit and was read as "does not match")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import jmespath
import pytest

from waitable.definition import Comparator, OutputMatcher, WaiterDefinitionError
from waitable.interpreter_nesting import MAX_INTERPRETED_NESTING, interpreted_nesting

#: Each construct nested `n` times, the data that makes every level evaluate, and
#: what the whole expression then gives.
CONSTRUCTS: dict[str, tuple[Callable[[int], str], Any]] = {
    "and": (lambda n: " && ".join(["a"] * n), {"a": "x"}),
    "or": (lambda n: " || ".join(["b"] * n + ["a"]), {"a": "x"}),
    "not": (lambda n: "!" * (2 * (n // 2)) + "a", {"a": "x"}),
    "pipe": (lambda n: " | ".join(["@"] * n + ["a"]), {"a": "x"}),
    "projection": (lambda n: "a" + "[*]" * n, {"a": [[[["x"]]]]}),
    "flatten": (lambda n: "a" + "[]" * n, {"a": ["x"]}),
    "filter": (lambda n: "a" + "[?b]" * n, {"a": [{"b": "x"}]}),
    "function": (lambda n: "to_string(" * n + "a" + ")" * n, {"a": "x"}),
    "list": (lambda n: "[" * n + "a" + "]" * n, {"a": "x"}),
    "hash": (lambda n: "{k: " * n + "a" + "}" * n, {"a": "x"}),
    "map": (lambda n: "map(&" * n + "b" + ", a)" * n, None),  # data: _nested_lists
    "comparison": (lambda n: "a" + " == a" * n, {"a": "x"}),
}


def _at_most(make: Callable[[int], str], levels: int) -> tuple[str, int]:
    """The most deeply nested expression `make` builds within `levels`, and the
    count of nested constructs in it."""
    count = 1
    while interpreted_nesting(jmespath.compile(make(count + 1)).parsed) <= levels:
        count += 1
    return make(count), count


def _nested_lists(count: int) -> Any:
    """Data on which `map(&map(&...b, a), a)` (`count` maps) maps at every level."""
    data: Any = {"b": "x"}
    for _ in range(count):
        data = {"a": [data], "b": "x"}
    return data


def _with_stack_left(frames: int, run: Callable[[], Any]) -> Any:
    """`run()` called with only about `frames` frames left below the recursion limit."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back

    def descend(remaining: int) -> Any:
        return run() if remaining <= 0 else descend(remaining - 1)

    return descend(sys.getrecursionlimit() - depth - frames)


@pytest.mark.parametrize("construct", sorted(CONSTRUCTS))
def test_a_path_at_the_limit_evaluates_with_a_deep_caller(construct: str) -> None:
    make, data = CONSTRUCTS[construct]
    path, count = _at_most(make, MAX_INTERPRETED_NESTING)
    if data is None:
        data = _nested_lists(count)
    nesting = interpreted_nesting(jmespath.compile(path).parsed)
    assert MAX_INTERPRETED_NESTING - 3 <= nesting <= MAX_INTERPRETED_NESTING
    matcher = OutputMatcher(path, "x", Comparator.STRING_EQUALS)
    expected = jmespath.search(path, data)
    assert expected is not None  # every level was evaluated
    # 500 frames left: 400 for the interpreter, the rest for matching's own calls.
    assert _with_stack_left(500, lambda: matcher.compiled(data)) == expected


@pytest.mark.parametrize("construct", sorted(CONSTRUCTS))
def test_a_path_past_the_limit_is_refused_when_defined(construct: str) -> None:
    make, _ = CONSTRUCTS[construct]
    path = make(1)
    count = 1
    while interpreted_nesting(jmespath.compile(path).parsed) <= MAX_INTERPRETED_NESTING:
        count += 1
        path = make(count)
    with pytest.raises(WaiterDefinitionError, match="levels deep, past the 100"):
        OutputMatcher(path, "x", Comparator.STRING_EQUALS)


def test_a_compiled_search_is_not_limited() -> None:
    path = " && ".join(["a"] * 450)
    matcher = OutputMatcher(
        path, "x", Comparator.STRING_EQUALS, search=lambda value: value["a"]
    )
    assert matcher.compiled({"a": "x"}) == "x"


def test_nesting_counts_the_deepest_chain() -> None:
    assert interpreted_nesting(jmespath.compile("a").parsed) == 1
    assert interpreted_nesting(jmespath.compile("a.b.c.d").parsed) == 2  # flat chain
    assert interpreted_nesting(jmespath.compile("(a && b) || c").parsed) == 3
    # an expression reference counts three levels (the function evaluates it)
    assert interpreted_nesting(jmespath.compile("sort_by(a, &b)").parsed) == 5


def test_parentheses_add_no_nesting() -> None:
    """The parse tree keeps no node for parentheses: the interpreter never sees
    them (deep ones are refused by the parser, as before)."""
    assert (
        interpreted_nesting(jmespath.compile("(" * 400 + "a" + ")" * 400).parsed) == 1
    )
    with pytest.raises(WaiterDefinitionError, match="nests too deeply to parse"):
        OutputMatcher("(" * 5000 + "a" + ")" * 5000, "x", Comparator.STRING_EQUALS)


def test_a_chain_of_fields_is_flat() -> None:
    """`jmespath` keeps `a.b.c...` as one node with many children: a long chain is
    not nested, and stays accepted."""
    path = ".".join(["a"] * 5000)
    OutputMatcher(path, "x", Comparator.STRING_EQUALS)  # accepted


def test_the_real_waiters_are_far_below_the_limit() -> None:
    """The deepest path of botocore's waiters nests 8 levels (see the module)."""
    import botocore.session

    loader = botocore.session.get_session().get_component("data_loader")
    deepest = 0
    for service in loader.list_available_services("waiters-2"):
        data = loader.load_service_model(service, "waiters-2")
        for waiter in data["waiters"].values():
            for acceptor in waiter["acceptors"]:
                if "argument" in acceptor:
                    tree = jmespath.compile(acceptor["argument"]).parsed
                    deepest = max(deepest, interpreted_nesting(tree))
    assert 0 < deepest <= MAX_INTERPRETED_NESTING // 5
