"""JMESPath's legacy literal form (`` `ok` `` for `` `"ok"` ``), parsed quietly.

The jmespath package parses it with a `PendingDeprecationWarning`. A waiter whose
model uses it (Smithy's validation and the generator accept it) would warn at
every import of its module, and fail to import under `python -W error`; the
warning says nothing its users can act on, so parsing here silences it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def legacy_literals_allowed(parse: Callable[[str], T], expression: str) -> T:
    """`parse(expression)`, without the legacy-literal warning (only an expression
    with a backquote can raise it: the others are parsed as they are)."""
    if "`" not in expression:
        return parse(expression)
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", "deprecated string literal syntax", PendingDeprecationWarning
        )
        return parse(expression)
