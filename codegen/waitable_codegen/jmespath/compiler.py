"""Compile a JMESPath tree to the source of one plain Python function.

The function is ``def NAME(value: Any) -> Any:``, its docstring the original
expression; it calls helpers only through ``_jp`` (`waitable.jmespath_runtime`)
and builds no interpreter objects, so a waiter polling it runs straight-line
Python: ``isinstance`` checks, ``dict.get``, loops that append.

How each node is compiled
-------------------------

- ``field`` (``a``): ``src.get("a") if isinstance(src, dict) else None``,
  bound to a local named after the field (``a``) when it is used again.
  The same lookup on the same local in the same block is made once.
- ``a.b``, ``a[0]``, ``a | b`` (one `Chain`): each step's result becomes a
  local that the next step reads; there are no nested calls.
- ``[i]``: ``src[i] if isinstance(src, list) and len(src) > i else None``
  (``len(src) >= -i`` for a negative ``i``).
- ``[start:stop:step]``: Python's slice on a list, which is JMESPath's slice
  (negative steps too); a step of 0 is a compile-time ``invalid-value``.
- projections ``a[*].b``, ``a.*.b``, ``a[?c].b``: a guard that the base is an
  array (an object for ``.*``), then a ``for`` loop that appends each non-null
  result of the right-hand side to a list; a filter is an ``if ...: continue``
  at the top of the loop.
- ``a[]`` (flatten): ``_jp.flatten(a)``; when the base is itself a projection
  (``a[].b[]``), its loop extends the list with array results instead, so no
  intermediate list is built.
- ``[a, b]`` and ``{k: a}``: a guard that the current value is not null, then a
  list or dict display.
- ``||`` and ``&&``: a Python ``or``/``and`` when the left side cannot be a
  number (Python and JMESPath agree on the truthiness of everything else),
  ``x if _jp.truthy(x) else y`` when it can; when the right side could raise
  (it calls a function) it is only evaluated inside an ``if``.
- ``!a``: ``not`` of the truthiness test of ``a``.
- comparisons: Python's ``==`` when one side is a string literal, ``is None``
  for a null literal, Python's ``<`` when both sides are numbers for certain;
  otherwise ``_jp.equal`` / ``_jp.lt`` and friends.
- functions: ``_jp.fn_NAME(args)``; an unknown name or a wrong argument count
  is a compile-time error, argument types are checked at run time.
- ``&expr``: a nested ``def`` (``def by_age(value: Any) -> Any``) defined at
  the top of the function and passed as a plain function object.
- literals: the Python literal of the JSON value.

When a failing guard's result would only flow on through steps that keep
null null (fields, indexes, projections ...), the guard jumps straight to the
end: ``return None`` in the function, ``continue`` in a loop. Sub-trees that
would nest more than a few blocks deep move into nested ``def``s, so any
expression compiles within Python's block-nesting limits.

Where JMESPath is not Python
----------------------------

- Truthiness: ``null``, ``false``, ``""``, ``[]`` and ``{}`` are false; every
  number, ``0`` included, is true (``_jp.truthy``).
- Equality is deep and typed: ``1 == true`` is false, ``[0] == [false]`` is
  false, ``1 == 1.0`` is true (``_jp.equal``).
- Ordering (``< <= > >=``) is defined on numbers only; any other operand
  (strings too) gives ``null``. ``sort``, ``min`` and ``max`` order numbers
  or strings (by code point), never a mix.
- A field of anything but an object, an index or slice of anything but an
  array, and a projection over the wrong type are ``null``, never an error;
  projections drop null results, ``map`` keeps them.
- ``bool`` is not a number: ``abs(`true`)`` is an ``invalid-type`` error.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from .functions import (
    ANY,
    ARRAY,
    BOOLEAN,
    EXPREF,
    NULL,
    NUMBER,
    OBJECT,
    SIGNATURES,
    STRING,
    TYPED_RESULTS,
    Kind,
)
from .nodes import (
    And,
    Chain,
    Comparison,
    Current,
    ExpRef,
    Field,
    FilterProjection,
    Flatten,
    FunctionCall,
    Index,
    Literal,
    MultiSelectHash,
    MultiSelectList,
    Node,
    Not,
    Or,
    Projection,
    Slice,
    ValueProjection,
)
from .emitter import Emitter
from ..literals import string_literal
from .layout import layout_lines
from .source import Names, docstring, literal, singular, snake_name

_MAX_LEVEL = 10
"""Block depth at which a sub-tree moves into a nested function."""

_MAX_DEPTH = 6
"""Operator nesting at which operands are first bound to locals."""

# Python operator precedence, lowest first: what needs parentheses where.
_TERNARY, _OR, _AND, _NOT, _COMPARE, _ATOM = 1, 2, 3, 4, 5, 9

_PROJECTIONS = (Projection, ValueProjection, FilterProjection)
_LEAVES = (Current, Literal, Field, Index, Slice)
_INVERSE = {"==": "!=", "!=": "=="}
_HELPERS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


@dataclass(frozen=True)
class Value:
    """A Python expression and what is known about its value.

    ``reusable`` means the text may be evaluated again at no cost (a local
    name or a scalar literal); ``typed`` that mypy sees a type narrower than
    ``Any`` (so Python's ``==`` on it could be flagged as non-overlapping);
    ``negated``, for tests, is the text of the opposite test; ``depth`` counts
    the calls and operators nested in the text.
    """

    expr: str
    kind: Kind = ANY
    prec: int = _ATOM
    reusable: bool = False
    typed: bool = False
    literal: bool = False
    negated: str | None = None
    hint: str = ""
    memo_key: tuple[str, str] | None = None
    depth: int = 0


def _paren(value: Value, minimum: int) -> str:
    return value.expr if value.prec >= minimum else f"({value.expr})"


# --- where a result goes ----------------------------------------------------


@dataclass
class _Exit:
    """What a failed guard does: ``return None``, ``continue``, or nest."""

    kind: str
    owner: _AssignSink | None = None


_RETURN = _Exit("return")
_CONTINUE = _Exit("continue")


class _Sink(Protocol):
    exit: _Exit

    def deliver(self, compiler: _FunctionCompiler, value: Value) -> None: ...


class _ReturnSink:
    """The function's result: ``return ...``."""

    exit = _RETURN

    def deliver(self, compiler: _FunctionCompiler, value: Value) -> None:
        compiler.em.line(f"return {value.expr}")


@dataclass
class _AssignSink:
    """A local variable; without an inherited exit, failed guards nest."""

    var: str
    inherited: _Exit | None
    nested: bool = False
    kinds: Kind = frozenset()
    deliveries: int = 0
    typed: bool = False
    exit: _Exit = field(init=False)

    def __post_init__(self) -> None:
        self.exit = self.inherited or _Exit("nest", self)

    def deliver(self, compiler: _FunctionCompiler, value: Value) -> None:
        compiler.em.assign(self.var, value.expr)
        self.kinds |= value.kind
        self.deliveries += 1
        self.typed = value.typed


@dataclass
class _AppendSink:
    """One element of a projection's list (``flatten``: arrays are spliced)."""

    acc: str
    flatten: bool
    exit: _Exit = field(default_factory=lambda: _CONTINUE)

    def deliver(self, compiler: _FunctionCompiler, value: Value) -> None:
        em = compiler.em
        level = em.level
        if self.flatten and value.kind <= ARRAY:
            em.line(f"{self.acc}.extend({value.expr})")
            return
        if "null" not in value.kind and not (self.flatten and "array" in value.kind):
            em.line(f"{self.acc}.append({value.expr})")
            return
        name = compiler.atom(value).expr
        if self.flatten and "array" in value.kind:
            em.open(f"if isinstance({name}, list)")
            em.line(f"{self.acc}.extend({name})")
            em.close_to(level)
            if "null" not in value.kind:
                em.open("else")
            else:
                em.open(f"elif {name} is not None")
        else:
            em.open(f"if {name} is not None")
        em.line(f"{self.acc}.append({name})")
        em.close_to(level)


# --- static facts about nodes ------------------------------------------------


def null_strict(node: Node) -> bool:
    """Whether ``node`` evaluated on null is always null."""
    if isinstance(node, (Field, Index, Slice, Current, MultiSelectList)):
        return True
    if isinstance(node, MultiSelectHash):
        return True
    if isinstance(node, Chain):
        return all(null_strict(step) for step in node.steps)
    if isinstance(node, _PROJECTIONS):
        return null_strict(node.base)
    if isinstance(node, Flatten):
        return null_strict(node.base)
    return False


def cheap_and_safe(node: Node) -> bool:
    """Whether ``node`` can be evaluated eagerly: it cannot raise, has no loop."""
    if isinstance(node, (Field, Index, Slice, Current, Literal)):
        return True
    if isinstance(node, Chain):
        return all(cheap_and_safe(step) for step in node.steps)
    if isinstance(node, Comparison):
        return cheap_and_safe(node.left) and cheap_and_safe(node.right)
    if isinstance(node, (Or, And)):
        return cheap_and_safe(node.left) and cheap_and_safe(node.right)
    if isinstance(node, Not):
        return cheap_and_safe(node.operand)
    return False


def hint(node: Node) -> str:
    """A readable local name for ``node``'s result (``instances``, ``state``)."""
    if isinstance(node, Field):
        return snake_name(node.name) or "field"
    if isinstance(node, Chain):
        for step in reversed(node.steps):
            found = hint(step)
            if found:
                return found
        return ""
    if isinstance(node, _PROJECTIONS):
        body = hint(node.body)
        if body:
            return body if body.endswith("s") else body + "s"
        if isinstance(node, FilterProjection):
            return "_".join(filter(None, ("matching", hint(node.base))))
        return hint(node.base)
    if isinstance(node, Flatten):
        return hint(node.base)
    if isinstance(node, ExpRef):
        return hint(node.body)
    if isinstance(node, FunctionCall):
        return node.name
    if isinstance(node, (MultiSelectList, MultiSelectHash)):
        return "selected"
    if isinstance(node, Comparison):
        return "matches"
    if isinstance(node, Literal):
        return "literal"
    if isinstance(node, Index):
        return _index_name(node.index)
    if isinstance(node, Slice):
        return "sliced"
    return ""


def _index_name(index: int) -> str:
    return {0: "first", -1: "last"}.get(index, "element")


def _kind_of(value: object) -> Kind:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return STRING
    if isinstance(value, list):
        return ARRAY
    return OBJECT


# --- the compiler -------------------------------------------------------------


class _FunctionCompiler:
    """Writes the body of one function (the top one or a nested ``def``)."""

    def __init__(self, names: Names, prelude: list[str], level: int) -> None:
        self.names = names
        self.prelude = prelude
        self.em = Emitter(level)

    def body(self, node: Node, parameter: str) -> list[str]:
        """The body lines computing ``node`` of ``parameter`` and returning it."""
        self.emit(node, Value(parameter, reusable=True), _ReturnSink())
        return self.em.render()

    # --- helpers ----------------------------------------------------------

    def atom(self, value: Value, name_hint: str = "") -> Value:
        """``value`` as a local name (or itself, if already reusable)."""
        if value.reusable:
            return value
        name = self.names.new(value.hint or name_hint or "result")
        annotation = "Any" if value.typed or value.literal else None
        self.em.assign(name, value.expr, annotation)
        if value.memo_key is not None:
            self.em.remember(value.memo_key, name)
        return Value(name, value.kind, reusable=True)

    def _bound(self, value: Value) -> Value:
        """A conditional expression bound to a local, for readable operands."""
        return self.atom(value) if value.prec <= _TERNARY else value

    def _shallow(self, values: list[Value]) -> tuple[list[Value], int]:
        """``values`` as operands of one more operator, and the new depth.

        Operands nested too deeply are bound to locals first, all of them in
        order, so they are still evaluated left to right.
        """
        deepest = max((value.depth for value in values), default=0)
        if deepest >= _MAX_DEPTH:
            values = [self.atom(value) for value in values]
            deepest = 0
        return values, deepest + 1

    def guard(self, test: str, negated: str, exit: _Exit) -> None:
        """Go on only where ``test`` holds; elsewhere the result is null."""
        em = self.em
        if exit.kind == "nest":
            em.open(f"if {test}")
            assert exit.owner is not None
            exit.owner.nested = True
            return
        level = em.level
        em.open(f"if {negated}")
        em.line("return None" if exit.kind == "return" else "continue")
        em.close_to(level)

    def hoist(self, node: Node, name_hint: str) -> str:
        """Compile ``node`` as a nested function at the top; its name."""
        name = self.names.new(name_hint)
        nested = _FunctionCompiler(self.names, self.prelude, level=2)
        lines = nested.body(node, "value")
        self.prelude.append(f"    def {name}(value: Any) -> Any:")
        self.prelude.extend(lines)
        return name

    # --- statements ---------------------------------------------------------

    def _too_deep(self, node: Node) -> str | None:
        """At the depth limit, ``node`` compiled as a nested function's name."""
        if self.em.level < _MAX_LEVEL or isinstance(node, _LEAVES):
            return None
        return self.hoist(node, "compute_" + (hint(node) or "part"))

    def emit(self, node: Node, src: Value, sink: _Sink) -> None:
        """Write the statements that hand ``node`` of ``src`` to ``sink``."""
        nested = self._too_deep(node)
        if nested is not None:
            sink.deliver(self, Value(f"{nested}({src.expr})"))
        elif isinstance(node, _PROJECTIONS):
            self._projection(node, src, sink, flatten=False)
        elif isinstance(node, Flatten) and isinstance(node.base, _PROJECTIONS):
            self._projection(node.base, src, sink, flatten=True)
        elif isinstance(node, Chain):
            cur = self._chain_prefix(node, src, sink.exit)
            self.emit(node.steps[-1], cur, sink)
        elif isinstance(node, (MultiSelectList, MultiSelectHash)):
            self._multi_select(node, src, sink)
        elif isinstance(node, (Or, And)) and not cheap_and_safe(node.right):
            self._lazy_logic(node, src, sink)
        else:
            sink.deliver(self, self.value(node, src, sink.exit))

    def _materialize(
        self, node: Node, src: Value, exit: _Exit | None, target: str | None = None
    ) -> Value:
        """Compute ``node`` into a local (``target`` or a new one)."""
        em = self.em
        var = target or self.names.new(hint(node) or "result")
        sink = _AssignSink(var, exit)
        level, mark = em.level, em.mark()
        self.emit(node, src, sink)
        kinds = sink.kinds
        if sink.inherited is None:
            if sink.nested:
                em.insert_assign(mark, level, var, "None")
                kinds |= NULL
            em.close_to(level)
        typed = sink.typed and sink.deliveries == 1 and not sink.nested
        return Value(var, kinds or ANY, reusable=True, typed=typed)

    def _chain_prefix(self, node: Chain, src: Value, exit: _Exit | None) -> Value:
        """All but the last step of ``node``, each into a local; the last local."""
        cur = src
        steps = node.steps
        # keeps_null[i]: every step after step i keeps a null null (one pass from
        # the end, not one per step: a chain may have thousands of steps)
        keeps_null = [True] * len(steps)
        for position in range(len(steps) - 2, -1, -1):
            later = steps[position + 1]
            keeps_null[position] = keeps_null[position + 1] and null_strict(later)
        for position, step in enumerate(steps[:-1]):
            step_exit = exit if keeps_null[position] else None
            cur = self.atom(self.value(step, cur, step_exit), hint(step))
        return cur

    def _projection(
        self,
        node: Projection | ValueProjection | FilterProjection,
        src: Value,
        sink: _Sink,
        flatten: bool,
    ) -> None:
        em = self.em
        exit = sink.exit
        base = self.value(node.base, src, exit)
        base_hint = hint(node.base)
        over_object = isinstance(node, ValueProjection)
        kind, python_type = (OBJECT, "dict") if over_object else (ARRAY, "list")
        if base.kind != kind:
            # A literal is named too (`1.values()` is no Python; a name is typed Any).
            base = self.atom(
                replace(base, reusable=False) if base.literal else base, base_hint
            )
            self.guard(
                f"isinstance({base.expr}, {python_type})",
                f"not isinstance({base.expr}, {python_type})",
                exit,
            )
        iterable = f"{_paren(base, _ATOM)}.values()" if over_object else base.expr
        item = self.names.new(singular(base_hint) if base_hint else "item")
        simple = (
            isinstance(node, Projection)
            and isinstance(node.body, Current)
            and not flatten
        )
        if simple:
            comprehension = f"[{item} for {item} in {iterable} if {item} is not None]"
            sink.deliver(self, Value(comprehension, ARRAY, typed=True))
            return
        if isinstance(sink, _AssignSink):
            acc = sink.var
            sink.deliver(self, Value("[]", ARRAY, typed=True))
        else:
            acc = self.names.new(hint(node) or "projected")
            em.assign(acc, "[]")
        loop_level = em.level
        em.open(f"for {item} in {iterable}")
        element = Value(item, reusable=True)
        body_sink = _AppendSink(acc, flatten)
        if isinstance(node, FilterProjection):
            test = self.test(node.condition, element)
            self.guard(
                test.expr, test.negated or f"not {_paren(test, _NOT)}", _CONTINUE
            )
        self.emit(node.body, element, body_sink)
        em.close_to(loop_level)
        if not isinstance(sink, _AssignSink):
            sink.deliver(self, Value(acc, ARRAY, reusable=True, typed=True))

    def _multi_select(
        self, node: MultiSelectList | MultiSelectHash, src: Value, sink: _Sink
    ) -> None:
        if "null" in src.kind:
            self.guard(f"{src.expr} is not None", f"{src.expr} is None", sink.exit)
            src = replace(src, kind=src.kind - NULL)
        if isinstance(node, MultiSelectList):
            items, depth = self._shallow(
                [self._bound(self.value(item, src, None)) for item in node.items]
            )
            display = "[" + ", ".join(item.expr for item in items) + "]"
            sink.deliver(self, Value(display, ARRAY, typed=True, depth=depth))
            return
        values, depth = self._shallow(
            [self._bound(self.value(item, src, None)) for _, item in node.pairs]
        )
        pairs = [
            f"{string_literal(key)}: {item.expr}"
            for (key, _), item in zip(node.pairs, values)
        ]
        display = "{" + ", ".join(pairs) + "}"
        sink.deliver(self, Value(display, OBJECT, typed=True, depth=depth))

    def _lazy_logic(self, node: Or | And, src: Value, sink: _Sink) -> None:
        """``||``/``&&`` whose right side may raise: evaluated only if needed."""
        em = self.em
        var = self.names.new(hint(node.left) or "either")
        left = self.value(node.left, src, None)
        em.assign(var, left.expr)
        test = self._truth(Value(var, left.kind, reusable=True))
        level = em.level
        if isinstance(node, Or):
            em.open(f"if {test.negated}")
        else:
            em.open(f"if {test.expr}")
        right = self._materialize(node.right, src, None, target=var)
        em.close_to(level)
        sink.deliver(self, Value(var, left.kind | right.kind, reusable=True))

    # --- expressions --------------------------------------------------------

    def value(self, node: Node, src: Value, exit: _Exit | None) -> Value:
        """An expression for ``node`` of ``src`` (statements written first)."""
        nested = self._too_deep(node)
        if nested is not None:
            return Value(f"{nested}({src.expr})")
        if isinstance(node, Current):
            return src
        if isinstance(node, Literal):
            return self._literal(node.value)
        if isinstance(node, Field):
            return self._field(node.name, src)
        if isinstance(node, Index):
            return self._index(node.index, src)
        if isinstance(node, Slice):
            return self._slice(node, src)
        if isinstance(node, Comparison):
            return self._comparison(node, src)
        if isinstance(node, Not):
            test = self.test(node.operand, src)
            negated = test.negated or f"not {_paren(test, _NOT)}"
            if isinstance(node.operand, Not):
                # `!!x`: the test's negation is `x`'s own test, which need not be
                # a boolean (a list stands for its truth); the value must be one.
                negated = f"not {_paren(test, _NOT)}"
            return Value(
                negated,
                BOOLEAN,
                _NOT,
                typed=True,
                negated=test.expr,
                depth=test.depth + 1,
            )
        if isinstance(node, FunctionCall):
            return self._call(node, src)
        if isinstance(node, ExpRef):
            name = self.hoist(node.body, "by_" + (hint(node.body) or "expression"))
            return Value(name, EXPREF, reusable=True, typed=True)
        if isinstance(node, (Or, And)) and cheap_and_safe(node.right):
            return self._eager_logic(node, src)
        if isinstance(node, Flatten) and not isinstance(node.base, _PROJECTIONS):
            base = self.value(node.base, src, exit)
            if base.kind == ARRAY:
                return Value(f"_jp.flatten({base.expr})", ARRAY, hint=base.hint)
            base = self.atom(base, hint(node.base))
            if exit is None:
                text = f"_jp.flatten({base.expr}) if isinstance({base.expr}, list) else None"
                return Value(text, ARRAY | NULL, _TERNARY)
            self.guard(
                f"isinstance({base.expr}, list)",
                f"not isinstance({base.expr}, list)",
                exit,
            )
            return Value(f"_jp.flatten({base.expr})", ARRAY)
        if isinstance(node, Chain):
            cur = self._chain_prefix(node, src, exit)
            return self.value(node.steps[-1], cur, exit)
        return self._materialize(node, src, exit)

    def _literal(self, value: object) -> Value:
        kind = _kind_of(value)
        scalar = kind <= (NULL | BOOLEAN | NUMBER | STRING)
        text = literal(value)
        prec = _ATOM if not text.startswith("-") else _NOT
        return Value(text, kind, prec, reusable=scalar, typed=True, literal=True)

    def _field(self, name: str, src: Value) -> Value:
        key = (src.expr, name)
        known = self.em.recall(key)
        if known is not None:
            return Value(known, reusable=True)
        lookup = f"{src.expr}.get({string_literal(name)})"
        local = snake_name(name) or "field"
        if src.kind == OBJECT:
            return Value(lookup, hint=local, memo_key=key)
        if "object" not in src.kind:
            return Value("None", NULL, reusable=True, literal=True)
        text = f"{lookup} if isinstance({src.expr}, dict) else None"
        return Value(text, ANY, _TERNARY, hint=local, memo_key=key)

    def _index(self, index: int, src: Value) -> Value:
        if "array" not in src.kind:
            return Value("None", NULL, reusable=True, literal=True)
        s = src.expr
        size = f"len({s}) > {index}" if index >= 0 else f"len({s}) >= {-index}"
        test = size if src.kind == ARRAY else f"isinstance({s}, list) and {size}"
        text = f"{s}[{index}] if {test} else None"
        return Value(text, ANY, _TERNARY, hint=_index_name(index))

    def _slice(self, node: Slice, src: Value) -> Value:
        if "array" not in src.kind:
            return Value("None", NULL, reusable=True, literal=True)
        parts = ["" if part is None else str(part) for part in (node.start, node.stop)]
        text = ":".join(parts) + ("" if node.step is None else f":{node.step}")
        sliced = f"{src.expr}[{text}]"
        if src.kind == ARRAY:
            return Value(sliced, ARRAY, typed=True, hint="sliced")
        text = f"{sliced} if isinstance({src.expr}, list) else None"
        return Value(text, ARRAY | NULL, _TERNARY, hint="sliced")

    def _call(self, node: FunctionCall, src: Value) -> Value:
        args, depth = self._shallow(
            [self._bound(self.value(arg, src, None)) for arg in node.args]
        )
        signature = SIGNATURES[node.name]
        text = f"_jp.fn_{node.name}({', '.join(arg.expr for arg in args)})"
        typed = node.name in TYPED_RESULTS
        return Value(text, signature.returns, typed=typed, hint=node.name, depth=depth)

    def _comparison(self, node: Comparison, src: Value) -> Value:
        (left, right), depth = self._shallow(
            [
                self._bound(self.value(node.left, src, None)),
                self._bound(self.value(node.right, src, None)),
            ]
        )
        op = node.op
        if op in _INVERSE:
            return self._equality(op, left, right, depth)
        numbers = left.kind <= NUMBER and right.kind <= NUMBER
        if numbers:
            text = f"{_paren(left, _ATOM)} {op} {_paren(right, _ATOM)}"
            return Value(text, BOOLEAN, _COMPARE, typed=True, depth=depth)
        text = f"_jp.{_HELPERS[op]}({left.expr}, {right.expr})"
        return Value(text, BOOLEAN | NULL, typed=True, depth=depth)

    def _equality(self, op: str, left: Value, right: Value, depth: int) -> Value:
        negated_op = _INVERSE[op]
        for one, other in ((left, right), (right, left)):
            # `is None` but for a literal on the other side (`"x" is None` warns)
            if one.literal and one.kind == NULL and not other.literal:
                word = "is" if op == "==" else "is not"
                other_word = "is not" if op == "==" else "is"
                operand = _paren(other, _ATOM)
                return Value(
                    f"{operand} {word} None",
                    BOOLEAN,
                    _COMPARE,
                    typed=True,
                    negated=f"{operand} {other_word} None",
                    depth=depth,
                )
        plain = any(
            one.literal
            and one.kind == STRING
            and not other.literal
            and (not other.typed or other.kind == STRING)
            for one, other in ((left, right), (right, left))
        )
        numbers = (
            left.kind <= NUMBER
            and right.kind <= NUMBER
            and not (left.literal and right.literal)
        )
        if plain or numbers:
            lhs, rhs = _paren(left, _ATOM), _paren(right, _ATOM)
            return Value(
                f"{lhs} {op} {rhs}",
                BOOLEAN,
                _COMPARE,
                typed=True,
                negated=f"{lhs} {negated_op} {rhs}",
                depth=depth,
            )
        call = f"_jp.equal({left.expr}, {right.expr})"
        if op == "==":
            return Value(call, BOOLEAN, typed=True, negated=f"not {call}", depth=depth)
        return Value(
            f"not {call}", BOOLEAN, _NOT, typed=True, negated=call, depth=depth
        )

    def _eager_logic(self, node: Or | And, src: Value) -> Value:
        """``||``/``&&`` whose right side is cheap and cannot raise."""
        (left, right), depth = self._shallow(
            [
                self._bound(self.value(node.left, src, None)),
                self._bound(self.value(node.right, src, None)),
            ]
        )
        kind = left.kind | right.kind
        if "number" not in left.kind:
            word, prec = ("or", _OR) if isinstance(node, Or) else ("and", _AND)
            text = f"{_paren(left, prec + 1)} {word} {_paren(right, prec + 1)}"
            typed = left.typed or right.typed
            return Value(text, kind, prec, typed=typed, depth=depth)
        left = self.atom(left)
        if isinstance(node, Or):
            text = f"{left.expr} if _jp.truthy({left.expr}) else {_paren(right, _OR)}"
        else:
            text = f"{_paren(right, _OR)} if _jp.truthy({left.expr}) else {left.expr}"
        return Value(text, kind, _TERNARY, depth=depth)

    # --- truthiness -----------------------------------------------------------

    def test(self, node: Node, src: Value) -> Value:
        """A Python test that is true exactly when ``node`` of ``src`` is truthy."""
        if isinstance(node, (And, Or)) and cheap_and_safe(node.right):
            (left, right), depth = self._shallow(
                [self.test(node.left, src), self.test(node.right, src)]
            )
            word, prec = ("and", _AND) if isinstance(node, And) else ("or", _OR)
            text = f"{_paren(left, prec + 1)} {word} {_paren(right, prec + 1)}"
            return Value(text, BOOLEAN, prec, negated=f"not ({text})", depth=depth)
        if isinstance(node, Not):
            inner = self.test(node.operand, src)
            negated = inner.negated or f"not {_paren(inner, _NOT)}"
            return Value(
                negated, BOOLEAN, _NOT, negated=inner.expr, depth=inner.depth + 1
            )
        return self._truth(self._bound(self.value(node, src, None)))

    def _truth(self, value: Value) -> Value:
        if value.negated is not None:
            return value
        if "number" not in value.kind:
            negated = f"not {_paren(value, _NOT)}"
            return replace(value, negated=negated, depth=value.depth + 1)
        call = f"_jp.truthy({value.expr})"
        return Value(call, BOOLEAN, negated=f"not {call}", depth=value.depth + 1)


def generate(tree: Node, expression: str, function_name: str) -> str:
    """The source of ``def function_name(value: Any) -> Any`` computing ``tree``."""
    names = Names(function_name)
    prelude: list[str] = []
    body = _FunctionCompiler(names, prelude, level=1).body(tree, "value")
    lines = [
        f"def {function_name}(value: Any) -> Any:",
        "    " + docstring(expression),
        *_spaced(layout_lines(prelude)),
        *layout_lines(body),
    ]
    return "\n".join(lines) + "\n"


def _spaced(prelude: list[str]) -> list[str]:
    """The nested functions as black spaces them: one blank line before each, and
    one after the last, before the body's first statement."""
    out: list[str] = []
    for line in prelude:
        if line.startswith("    def "):
            out.append("")
        out.append(line)
    if out:
        out.append("")
    return out
