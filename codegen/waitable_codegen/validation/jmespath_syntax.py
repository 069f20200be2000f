"""The validator's names for the project's one JMESPath parser.

Parsing lives in `waitable_codegen.jmespath.parser`, shared with the compiler, so
that a path the validator checks is the path the generated code evaluates (with
the spec's tree shapes, and Smithy's positions for the validator's messages).
"""

from __future__ import annotations

from ..jmespath.parser import ExpressionSyntaxError, Node, line_column, parse

__all__ = ["ExpressionSyntaxError", "Node", "line_column", "parse"]
