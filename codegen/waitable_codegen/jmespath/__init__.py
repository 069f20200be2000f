"""Compile JMESPath expressions to plain Python functions.

`compile_to_source` gives the source of one module-level function,
``def NAME(value: Any) -> Any:``, whose docstring is the expression; the
generator writes it into generated modules, which start with
``from typing import Any`` and, where a function calls a runtime helper
(``_jp.NAME``), ``from waitable import jmespath_runtime as _jp``.
`compile` executes that same source and returns the function. How each
construct is compiled, and where JMESPath's rules differ from Python's, is
described in `waitable_codegen.jmespath.compiler`.

Expressions that are wrong whatever the data raise `JMESPathCompileError`
here; failures that depend on the data raise
`waitable.jmespath_runtime.JMESPathEvaluationError` when the function runs.
"""

from __future__ import annotations

import builtins
import functools
import keyword
import linecache
from collections.abc import Callable
from typing import Any

from waitable import jmespath_runtime

from .compiler import generate
from .errors import JMESPathCompileError
from .syntax import parse, too_deep

__all__ = ["JMESPathCompileError", "compile", "compile_to_source"]

_FUNCTION_NAME = "search"


def compile_to_source(expression: str, function_name: str) -> str:
    """The Python source of ``def function_name(value: Any) -> Any``.

    The function evaluates ``expression`` on ``value`` with JMESPath's rules.
    Raises `JMESPathCompileError` for an invalid expression.
    """
    if not function_name.isidentifier() or keyword.iskeyword(function_name):
        raise ValueError(
            f"function name {function_name!r} is not a Python identifier; "
            "pass a name such as 'path_1'"
        )
    if function_name.startswith("_jp") or function_name in ("Any", "value"):
        raise ValueError(
            f"function name {function_name!r} would shadow a name the compiled "
            "function uses; pick another"
        )
    tree = parse(expression)
    try:
        return generate(tree, expression, function_name)
    except RecursionError:
        raise too_deep(expression) from None


@functools.lru_cache(maxsize=1024)
def compile(expression: str) -> Callable[[Any], Any]:
    """The compiled function for ``expression`` (cached per expression).

    Built by executing exactly the source `compile_to_source` returns.
    """
    source = compile_to_source(expression, _FUNCTION_NAME)
    filename = f"<jmespath {expression[:60]!r}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"Any": Any, "_jp": jmespath_runtime}
    exec(builtins.compile(source, filename, "exec"), namespace)
    function: Callable[[Any], Any] = namespace[_FUNCTION_NAME]
    return function
