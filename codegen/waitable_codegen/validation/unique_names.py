"""Waiter names must be case-insensitively unique across a service's operations
(UniqueWaiterNames)."""

from __future__ import annotations

from collections import defaultdict

from ..model import WAITABLE_TRAIT, Model
from .events import Severity, ValidationEvent

UNIQUE_WAITER_NAMES = "UniqueWaiterNames"


def check_unique_names(model: Model) -> list[ValidationEvent]:
    """An ERROR per operation and clashing name, for every service in the model.

    As in Smithy, only names shared by different operations clash: two waiters of
    one operation are already distinct keys of its trait.
    """
    events: list[ValidationEvent] = []
    for service in model.services():
        operations_by_name: dict[str, set[str]] = defaultdict(set)
        for operation_id in model.bound_operations(service.id):  # grouped: any order
            waiters = model[operation_id].traits.get(WAITABLE_TRAIT)
            if isinstance(waiters, dict):
                for name in waiters:
                    operations_by_name[name.lower()].add(operation_id)
        for name, operations in sorted(operations_by_name.items()):
            if len(operations) < 2:
                continue
            for operation_id in sorted(operations):
                others = ", ".join(sorted(operations - {operation_id}))
                events.append(
                    ValidationEvent(
                        Severity.ERROR,
                        operation_id,
                        UNIQUE_WAITER_NAMES,
                        f"`{WAITABLE_TRAIT}` trait waiter name `{name}` "
                        "case-insensitively conflicts with waiters on other operations "
                        f"in the closure of service, `{service.id}`: [{others}]",
                    )
                )
    return events
