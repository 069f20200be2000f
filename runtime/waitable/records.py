"""Fast construction of the frozen records the engine makes on every poll.

A frozen dataclass's constructor sets each slot through a descriptor call,
because its own `__setattr__` refuses. The engine builds a `Poll`, a
`RetryContext` and a `Returned` per poll, so it builds them as an instance of an
unfrozen twin class with the same slots (plain attribute stores), then assigns
the frozen class (Python allows `__class__` assignment between classes of the same
layout). The result is the very object the public constructor makes, at less
than half the cost; it is frozen from then on.
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["draft_class"]


def draft_class(frozen: type) -> type:
    """An unfrozen class with the slots of the slotted frozen dataclass `frozen`.

    Fill an instance of it with attribute stores, then set its `__class__` to
    `frozen`; every slot must be set first (a frozen record has no unset field).
    """
    slots: Any = frozen.__dict__["__slots__"]
    # The same bases (`Generic[T]`, say): Python compares them before the slots.
    bases = getattr(frozen, "__orig_bases__", frozen.__bases__)
    return types.new_class(
        f"_{frozen.__name__}Draft",
        bases,
        exec_body=lambda namespace: namespace.update(__slots__=tuple(slots)),
    )
