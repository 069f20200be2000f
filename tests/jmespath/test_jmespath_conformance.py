"""The official JMESPath compliance suite, run through the compiled functions.

Every result case must give the expected value and every error case the
expected error kind, raised either when compiling (syntax, unknown-function,
invalid-arity, invalid-value) or when the function runs (invalid-type).
"""

from __future__ import annotations

from typing import Any

import jmespath
import pytest
from shared_corpora import needs_shared, shared_path

from waitable.jmespath_runtime import JMESPathEvaluationError
from waitable_codegen.jmespath import JMESPathCompileError, compile

from jmespath_cases import conformance_cases, same_json

CASES = conformance_cases()
CHECKED = [(i, g, c) for i, g, c in CASES if "result" in c or "error" in c]
BENCHMARKS = [(i, g, c) for i, g, c in CASES if "bench" in c]


def test_the_suite_is_all_here() -> None:
    shared_path("conformance", "jmespath")
    assert len(CHECKED) == 892
    assert len(BENCHMARKS) == 16
    assert len(CHECKED) + len(BENCHMARKS) == len(CASES)


@needs_shared("conformance", "jmespath")
@pytest.mark.parametrize(
    ("given", "case"), [c[1:] for c in CHECKED], ids=[c[0] for c in CHECKED]
)
def test_compliance_case(given: Any, case: dict[str, Any]) -> None:
    expression = case["expression"]
    if "error" in case:
        with pytest.raises((JMESPathCompileError, JMESPathEvaluationError)) as caught:
            compile(expression)(given)
        assert caught.value.kind == case["error"], str(caught.value)
        if isinstance(caught.value, JMESPathCompileError):
            assert caught.value.expression == expression
            assert repr(expression) in str(caught.value)
    else:
        result = compile(expression)(given)
        assert same_json(result, case["result"]), (result, case["result"])


@needs_shared("conformance", "jmespath")
@pytest.mark.parametrize(
    ("given", "case"), [c[1:] for c in BENCHMARKS], ids=[c[0] for c in BENCHMARKS]
)
def test_benchmark_expressions_agree_with_the_interpreter(
    given: Any, case: dict[str, Any]
) -> None:
    """benchmarks.json carries no results: the ``jmespath`` package is the oracle."""
    expression = case["expression"]
    expected = jmespath.search(expression, given)
    assert same_json(compile(expression)(given), expected)
