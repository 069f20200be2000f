"""JMESPath paths as compiled functions, through `waitable_codegen.jmespath`.

`compiled` mode turns each distinct expression of a package into one module-level
function (`compile_to_source`); `interpreted` mode leaves `search=None`, so the
runtime compiles the path with the `jmespath` package.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

import jmespath
from jmespath.exceptions import JMESPathError

from waitable.interpreter_nesting import MAX_INTERPRETED_NESTING, interpreted_nesting

from ..errors import GenerationError, UsageError
from ..literals import compiled_function
from ..naming import Identifier, unique_name
from .records import SearchFunctionPlan

JMESPATH_MODES = ("compiled", "interpreted")

CompileToSource = Callable[[str, str], str]


def load_compiler(mode: str) -> CompileToSource | None:
    """The compiler for `mode`, or None when paths are left to the runtime.

    `compiled` falls back to None while `waitable_codegen.jmespath` is not installed
    (it is written separately); see `effective_mode`.
    """
    if mode not in JMESPATH_MODES:
        raise UsageError(
            f"unknown --jmespath mode {mode!r}; use one of {', '.join(JMESPATH_MODES)}"
        )
    if mode == "interpreted":
        return None
    if importlib.util.find_spec("waitable_codegen.jmespath") is None:
        return None
    module = importlib.import_module("waitable_codegen.jmespath")
    compiler: CompileToSource | None = getattr(module, "compile_to_source", None)
    return compiler


def effective_mode(mode: str) -> str:
    """The mode generation really uses: `compiled` only when the compiler exists
    (found without importing it, so that the no-op path stays light)."""
    if mode not in JMESPATH_MODES:
        raise UsageError(
            f"unknown --jmespath mode {mode!r}; use one of {', '.join(JMESPATH_MODES)}"
        )
    found = importlib.util.find_spec("waitable_codegen.jmespath") is not None
    return "compiled" if mode == "compiled" and found else "interpreted"


class SearchFunctions:
    """The compiled functions of one package, one per distinct expression."""

    def __init__(self, compiler: CompileToSource | None) -> None:
        self.compiler = compiler
        self.by_expression: dict[str, SearchFunctionPlan] = {}

    def function_for(
        self, expression: str, wanted_name: Identifier, where: str
    ) -> Identifier | None:
        """The name of the function computing `expression`, or None (interpreted)."""
        if self.compiler is None:
            _check_interpretable(expression, where)
            return None
        known = self.by_expression.get(expression)
        if known is not None:
            return known.name
        taken = {plan.name for plan in self.by_expression.values()}
        name = unique_name(wanted_name, taken)
        try:
            source = self.compiler(expression, name)
            function = compiled_function(source.strip("\n"), name)
        except Exception as exc:  # the check of what it wrote included
            raise _compile_failure(exc, expression, where) from None
        self.by_expression[expression] = SearchFunctionPlan(name, expression, function)
        return name

    def plans(self) -> tuple[SearchFunctionPlan, ...]:
        """The functions in the order they were first needed."""
        return tuple(self.by_expression.values())


def _check_interpretable(expression: str, where: str) -> None:
    """Refuse a path the runtime's interpreter would refuse when the generated
    module is imported (`waitable.interpreter_nesting`): nested too deeply."""
    try:
        tree = jmespath.compile(expression).parsed
    except (JMESPathError, RecursionError):
        return  # validation has reported it
    nesting = interpreted_nesting(tree)
    if nesting > MAX_INTERPRETED_NESTING:
        raise GenerationError(
            f"{where}: the JMESPath expression nests {nesting} levels deep, past the "
            f"{MAX_INTERPRETED_NESTING} that --jmespath interpreted evaluates (the "
            "jmespath package's interpreter recurses at every level); generate with "
            "--jmespath compiled, or simplify the expression in the model"
        )


def _compile_failure(exc: Exception, expression: str, where: str) -> GenerationError:
    """One line for a path that did not compile: the model's fault, or ours.

    A `JMESPathCompileError` is a problem in the model's expression (its message
    names the expression and the fix); anything else is a bug in the compiler.
    """
    from ..jmespath.errors import JMESPathCompileError  # loaded with the compiler

    if isinstance(exc, JMESPathCompileError):
        return GenerationError(
            f"{where}: cannot compile JMESPath: {exc}; fix the expression in the "
            "model (--jmespath interpreted would skip this check, but the "
            "expression would still fail when the waiter runs)"
        )
    return GenerationError(
        f"{where}: cannot compile JMESPath {expression!r} "
        f"({type(exc).__name__}: {exc}); generate with --jmespath interpreted and "
        "report this"
    )
