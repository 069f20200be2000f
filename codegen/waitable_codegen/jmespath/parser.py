"""The project's one JMESPath parser: spec-shaped trees with source positions.

The `jmespath` package's Pratt parser reads the text; `_PositionedParser` wraps
its parse steps and stores, on every node, the offset Smithy's own parser gives
that node (the table in ../shared/notes/smithy-waiter-validation.md, section 3),
so the validator can report a problem at a line and column.

The trees are `jmespath`'s dict trees but for two shapes where jmespath 1.1
departs from the JMESPath spec (and from Smithy), rebuilt as the spec reads them:
`a.*.b.c` (the projection takes `.b.c`, not only `.b`) and `a[0][1:2].c` (the
slice projects). Both the compiler (`waitable_codegen.jmespath.syntax`) and the
validator (`waitable_codegen.validation`) read their trees from here, so the two
always agree on what an expression means.
"""

from __future__ import annotations

import re
import sys
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from jmespath import exceptions as jmespath_exceptions
from jmespath.parser import Parser

Node = dict[str, Any]
"""A `jmespath` AST node (`type`, `children`, `value`) plus our `pos` offset."""


@dataclass(frozen=True)
class ExpressionSyntaxError(Exception):
    """An expression that does not parse, with Smithy's 1-based line and column."""

    line: int
    column: int
    detail: str

    def __str__(self) -> str:
        return f"Syntax error at line {self.line} column {self.column}: {self.detail}"


class ExpressionTooDeepError(ExpressionSyntaxError):
    """An expression nested beyond what Python's recursion limit lets us parse."""


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of `offset`, counted in UTF-16 units as Java does."""
    before = text[:offset]
    line_start = before.rfind("\n") + 1
    column = sum(2 if ord(ch) > 0xFFFF else 1 for ch in before[line_start:])
    return before.count("\n") + 1, column + 1


def parse(expression: str) -> Node:
    """The AST of `expression` with a `pos` on every node, or ExpressionSyntaxError.

    Trees are cached per expression and shared: read them, never change them.
    """
    try:
        if "`" in expression:
            with warnings.catch_warnings():
                # The lexer warns about the legacy `foo` literal form; it parses.
                warnings.simplefilter("ignore")
                tree = cast(Node, _PositionedParser().parse(expression).parsed)
        else:  # no literal, no warning: the filters are left alone (faster)
            tree = cast(Node, _PositionedParser().parse(expression).parsed)
        _inherit_positions(tree, 0)
    except jmespath_exceptions.EmptyExpressionError:
        raise ExpressionSyntaxError(1, 1, "the expression is empty") from None
    except jmespath_exceptions.LexerError as exc:
        line, column = line_column(expression, exc.lexer_position)
        raise ExpressionSyntaxError(line, column, exc.message) from None
    except jmespath_exceptions.IncompleteExpressionError:
        line, column = line_column(expression, len(expression))
        raise ExpressionSyntaxError(
            line, column, "Unexpected end of expression"
        ) from None
    except jmespath_exceptions.ParseError as exc:
        line, column = line_column(expression, exc.lex_position)
        raise ExpressionSyntaxError(line, column, _parse_detail(exc)) from None
    except RecursionError:
        raise ExpressionTooDeepError(
            1, 1, "the expression nests too deeply to parse"
        ) from None
    except ValueError:  # the lexer's int() of a number past Python's digit limit
        found = re.search(r"\d{%d,}" % (sys.get_int_max_str_digits() + 1), expression)
        line, column = line_column(expression, found.start() if found else 0)
        raise ExpressionSyntaxError(
            line,
            column,
            f"a number of more than {sys.get_int_max_str_digits()} digits, more than "
            "Python converts",
        ) from None
    return tree


def _parse_detail(exc: jmespath_exceptions.ParseError) -> str:
    if exc.token_type == "EOF":
        found = "found the end of the expression"
    else:
        found = f"found '{exc.token_value}'"
    reason = exc.msg.rstrip(".")
    if reason.startswith("Expecting: "):
        expected = reason[len("Expecting: ") :].rsplit(", got:", 1)[0]
        return f"Expected {_expected_tokens(expected)}, but {found}"
    if reason in ("syntax error", "invalid token") or reason.startswith("Unexpected"):
        reason = "Unexpected token"
    return f"{reason[:1].upper()}{reason[1:]}, {found}"


# How Smithy's parser names the tokens that `jmespath` names by type.
_TOKEN_TEXT = {
    "lbracket": "[",
    "rbracket": "]",
    "lbrace": "{",
    "rbrace": "}",
    "lparen": "(",
    "rparen": ")",
    "colon": ":",
    "comma": ",",
    "star": "*",
    "unquoted_identifier": "A-Z|a-z|_",
    "quoted_identifier": '"',
}
# After a `.`, `jmespath` lists what it accepts without `*` (handled apart);
# Smithy's parser says `['[', '{', '*', 'A-Z|a-z|_']`.
_DOT_RHS = "['quoted_identifier', 'unquoted_identifier', 'lbracket', 'lbrace']"


def _expected_tokens(expected: str) -> str:
    """`jmespath`'s expected token types, written as Smithy writes them."""
    if expected == _DOT_RHS:
        return "['[', '{', '*', 'A-Z|a-z|_']"
    names = [name.strip(" '") for name in expected.strip("[]").split(",")]
    texts = [_TOKEN_TEXT.get(name, name) for name in names]
    return "[" + ", ".join(f"'{text}'" for text in texts) + "]"


def _inherit_positions(node: Node, parent_pos: int) -> None:
    """Give nodes the parser did not place (implicit `@`s) their parent's position."""
    pos = node.setdefault("pos", parent_pos)
    for child in node.get("children", ()):
        if isinstance(child, dict):
            _inherit_positions(child, pos)


def _node(kind: str, *children: Node) -> Node:
    """A node shaped as `jmespath.ast` shapes them."""
    return {"type": kind, "children": list(children)}


def _at(node: Node, pos: int) -> Node:
    node["pos"] = pos
    return node


class _PositionedParser(Parser):
    """`jmespath`'s Pratt parser, recording where each node starts as Smithy does.

    Each override calls the parser's own step and adds `pos`; the grammar stays the
    `jmespath` package's, but for the two shapes rebuilt as the spec reads them
    (`_token_led_dot`, `_token_led_lbracket`). `_CACHE` is our own, so the package's
    cache of its trees and ours never mix.
    """

    _CACHE: ClassVar[dict[str, Any]] = {}

    def _base(self) -> Any:
        return super()

    def _token(self, offset: int) -> dict[str, Any]:
        """The token `offset` places after the current one (the last is `eof`)."""
        tokens = cast(list[dict[str, Any]], getattr(self, "_tokens"))
        index = cast(int, getattr(self, "_index"))
        return tokens[min(index + offset, len(tokens) - 1)]

    def _token_type(self, offset: int) -> str:
        return cast(str, self._token(offset)["type"])

    def _start(self, offset: int) -> int:
        return cast(int, self._token(offset)["start"])

    # Tokens that begin an expression.

    def _token_nud_literal(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_literal(token), token["start"])

    def _token_nud_unquoted_identifier(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_unquoted_identifier(token), token["start"])

    def _token_nud_quoted_identifier(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_quoted_identifier(token), token["start"])

    def _token_nud_current(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_current(token), token["start"])

    def _token_nud_not(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_not(token), token["start"])

    def _token_nud_expref(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_expref(token), token["start"])

    def _token_nud_lbrace(self, token: dict[str, Any]) -> Node:
        return _at(self._base()._token_nud_lbrace(token), token["start"])

    def _token_nud_star(self, token: dict[str, Any]) -> Node:
        # An object projection sits one column before the token that follows `*`.
        after_star = self._start(0) - 1
        node = self._base()._token_nud_star(token)
        _at(node["children"][0], token["start"])
        return _at(node, after_star)

    def _token_nud_flatten(self, token: dict[str, Any]) -> Node:
        node = self._base()._token_nud_flatten(token)
        flatten = node["children"][0]
        _at(flatten["children"][0], token["start"])
        _at(flatten, token["start"])
        return _at(node, token["start"])

    def _token_nud_filter(self, token: dict[str, Any]) -> Node:
        node: Node = self._base()._token_nud_filter(token)
        _at(node["children"][0], token["start"])
        return node

    def _token_nud_lbracket(self, token: dict[str, Any]) -> Node:
        star = self._start(0)
        node: Node = self._base()._token_nud_lbracket(token)
        if node["type"] == "multi_select_list":
            return node
        return self._place_bracket(node, star, token["start"])

    # Tokens that continue an expression; the operator token is already consumed.

    def _token_led_dot(self, left: Node) -> Node:
        if self._token_type(0) != "star":
            dot = self._start(-1)
            return _at(self._base()._token_led_dot(left), dot)
        # `a.*.b.c`: jmespath 1.1 ends the projection's right side at the next `.`,
        # reading `(a.*.b).c` (jmespath.py issue #182); the spec and Smithy keep
        # `.b.c` inside the projection, as a leading `*` already does.
        after_star = self._start(1) - 1
        self._base()._advance()
        right = self._base()._parse_projection_rhs(self.BINDING_POWER["star"])
        return _at(_node("value_projection", left, right), after_star)

    def _token_led_pipe(self, left: Node) -> Node:
        operator = self._start(-1)
        return _at(self._base()._token_led_pipe(left), operator)

    def _token_led_or(self, left: Node) -> Node:
        operator = self._start(-1)
        return _at(self._base()._token_led_or(left), operator)

    def _token_led_and(self, left: Node) -> Node:
        operator = self._start(-1)
        return _at(self._base()._token_led_and(left), operator)

    def _token_led_lparen(self, left: Node) -> Node:
        return _at(self._base()._token_led_lparen(left), left["pos"])

    def _token_led_filter(self, left: Node) -> Node:
        node = self._base()._token_led_filter(left)
        return _at(node, node["children"][2]["pos"])

    def _token_led_flatten(self, left: Node) -> Node:
        node = self._base()._token_led_flatten(left)
        _at(node["children"][0], left["pos"])
        return _at(node, left["pos"])

    def _token_led_lbracket(self, left: Node) -> Node:
        star = self._start(0)
        left_pos = left["pos"]
        node = self._place_bracket(
            self._base()._token_led_lbracket(left), star, left_pos
        )
        children = node["children"]
        if node is left and node["type"] == "index_expression":
            if children[-1]["type"] == "slice":
                # `a[0][1:2]`: jmespath 1.1 appends the slice to the index without the
                # projection every other slice starts; build it as the spec does.
                slice_node = children.pop()
                _at(node, children[-1]["pos"] if len(children) > 1 else left_pos)
                sliced = _at(
                    _node("index_expression", node, slice_node), slice_node["pos"]
                )
                right = self._base()._parse_projection_rhs(self.BINDING_POWER["star"])
                return _at(_node("projection", sliced, right), slice_node["pos"])
        return node

    def _parse_comparator(self, left: Node, comparator: str) -> Node:
        right_start = self._start(0)
        return _at(self._base()._parse_comparator(left, comparator), right_start)

    # Shared steps.

    def _parse_index_expression(self) -> Node:
        after_bracket = self._start(0)
        return _at(self._base()._parse_index_expression(), after_bracket)

    def _parse_multi_select_list(self) -> Node:
        bracket = self._start(-1)
        return _at(self._base()._parse_multi_select_list(), bracket)

    def _parse_multi_select_hash(self) -> Node:
        brace = self._start(-1)
        return _at(self._base()._parse_multi_select_hash(), brace)

    def _place_bracket(self, node: Node, star: int, left_pos: int) -> Node:
        """Place an index, a slice projection or a `[*]` projection."""
        if node["type"] == "index_expression":
            first = node["children"][0]
            first.setdefault("pos", left_pos)
            return _at(node, node["children"][-1]["pos"])
        index_expression = node["children"][0]
        if index_expression["type"] == "index_expression":  # a slice: a[1:2]
            index_expression["children"][0].setdefault("pos", left_pos)
            slice_pos = index_expression["children"][-1]["pos"]
            _at(index_expression, slice_pos)
            return _at(node, slice_pos)
        index_expression.setdefault("pos", left_pos)  # `[*]`
        return _at(node, star)
