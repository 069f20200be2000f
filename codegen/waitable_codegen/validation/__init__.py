"""Smithy's waiter validation, run before the generator writes anything.

`validate(model)` returns the events Smithy's own validators give for the model's
`smithy.waiters#waitable` traits, sorted by shape id, worst first, then event id:

- TraitTarget (ERROR): the trait on a shape that is not an operation, or on an
  operation with an event stream; TraitValue (ERROR, or WARNING for an unknown
  member): a malformed trait value or a waiter name off the pattern. These are
  critical, as in Smithy: if any is an ERROR, the checks below do not run.
- WaitableTrait (ERROR): delays, a missing success acceptor, JMESPath syntax and
  function errors, `booleanEquals` values, `message` rules;
  WaitableTraitJmespathProblem (DANGER / WARNING): the static analysis of each path
  against the operation's input and output; WaitableTraitInvalidErrorType (WARNING);
  UniqueWaiterNames (ERROR).

Suppressions (`smithy.api#suppress`, `metadata.suppressions`) turn WARNING, DANGER
and NOTE events SUPPRESSED. Identical events are reported once (Smithy repeats a
failure acceptor's matcher events when it has a `message`; we do not).
"""

from __future__ import annotations

from ..model import Model
from .events import Severity, ValidationEvent
from .suppressions import apply_suppressions
from .trait_target import check_trait_target
from .trait_value import Waiter, read_waiters
from .unique_names import check_unique_names
from .waiter_rules import check_waiters

__all__ = ["Severity", "ValidationEvent", "validate"]


def validate(model: Model) -> list[ValidationEvent]:
    """Every waiter validation event for `model`, suppressions applied, sorted."""
    critical: list[ValidationEvent] = []
    waiters: list[tuple[str, list[Waiter]]] = []
    for shape in model.waitable_operations():
        critical.extend(check_trait_target(model, shape))
        shape_waiters, value_events = read_waiters(shape)
        critical.extend(value_events)
        waiters.append((shape.id, shape_waiters))
    events = critical
    if not any(event.severity is Severity.ERROR for event in critical):
        for shape_id, shape_waiters in waiters:
            events.extend(check_waiters(model, model[shape_id], shape_waiters))
        events.extend(check_unique_names(model))
    unique = set(apply_suppressions(model, events))
    return sorted(unique, key=ValidationEvent.sort_key)
