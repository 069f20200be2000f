"""The error raised when a JMESPath expression cannot be compiled."""

from __future__ import annotations


class JMESPathCompileError(ValueError):
    """An expression that is rejected before any code is generated.

    ``kind`` is the JMESPath specification's error name: ``syntax``,
    ``unknown-function``, ``invalid-arity`` or ``invalid-value``;
    ``expression`` is the text that was compiled.
    """

    def __init__(self, kind: str, expression: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.expression = expression
