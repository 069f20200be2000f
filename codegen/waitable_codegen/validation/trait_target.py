"""Where `smithy.waiters#waitable` may be applied (TraitTarget): operations only, and
not operations with an event stream in their input or output.

The trait's selector is
`operation :not(-[input, output]-> structure > member > union[trait|streaming])`:
an operation whose input or output structure has a member targeting a
`@streaming` union (an event stream) cannot be waited on.
"""

from __future__ import annotations

from ..model import WAITABLE_TRAIT, Model, Shape
from .events import Severity, ValidationEvent

TRAIT_TARGET = "TraitTarget"
SELECTOR = (
    "operation :not(-[input, output]-> structure > member > union[trait|streaming])"
)
_STREAMING = "smithy.api#streaming"


def check_trait_target(model: Model, shape: Shape) -> list[ValidationEvent]:
    """An ERROR when `shape` carries the trait but does not match its selector."""
    if shape.type == "operation" and not _has_event_stream(model, shape):
        return []
    return [
        ValidationEvent(
            Severity.ERROR,
            shape.id,
            TRAIT_TARGET,
            f"Trait `{WAITABLE_TRAIT}` cannot be applied to `{shape.id}`. This trait "
            f"may only be applied to shapes that match the following selector: "
            f"{SELECTOR}",
        )
    ]


def _has_event_stream(model: Model, operation: Shape) -> bool:
    for relationship in ("input", "output"):
        structure = model.get(operation.ref(relationship) or "")
        if structure is None or structure.type != "structure":
            continue
        for member in structure.members.values():
            target = model.get(member.target)
            if target is not None and target.type == "union":
                if _STREAMING in target.traits:
                    return True
    return False
