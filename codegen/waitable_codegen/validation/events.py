"""Validation events in Smithy's form: `[SEVERITY] shape-id: message | EventId`."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.IntEnum):
    """How bad an event is, ordered as Smithy orders them.

    ERROR and DANGER stop generation (DANGER unless allowed); WARNING and NOTE are
    printed; SUPPRESSED marks a WARNING, DANGER or NOTE that a suppression
    silenced: kept so a verbose listing can show it, never a reason to stop.
    """

    SUPPRESSED = 0
    NOTE = 1
    WARNING = 2
    DANGER = 3
    ERROR = 4


@dataclass(frozen=True)
class ValidationEvent:
    """One problem found in a model, on one shape, under a dotted event id."""

    severity: Severity
    shape_id: str
    event_id: str
    message: str

    def __str__(self) -> str:
        return (
            f"[{self.severity.name}] {self.shape_id}: {self.message} | {self.event_id}"
        )

    def matches(self, event_id: str) -> bool:
        """True when `event_id` is this event's id or a dotted prefix of it."""
        return id_matches(event_id, self.event_id)

    def sort_key(self) -> tuple[str, int, str, str]:
        """The order `validate` returns events in: by shape, worst first, then id."""
        return (self.shape_id, -self.severity, self.event_id, self.message)


def id_matches(prefix: str, event_id: str) -> bool:
    """True when `prefix` is `event_id` or ends where one of its dotted parts ends.

    `WaitableTraitJmespathProblem` matches `WaitableTraitJmespathProblem.ReturnTypeMismatch.A.0`;
    `WaitableTrait` does not match `WaitableTraitJmespathProblem`.
    """
    return event_id == prefix or event_id.startswith(prefix + ".")
