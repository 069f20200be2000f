"""`wait_outcome`: how a wait on Celery ended, read back by its id.

For a producer that started a wait without `on_done`, or for any other process
that holds its id: the wait's record in Redis keeps the outcome `on_done`
receives (see `waitable.celery.outcome`) for `keep` seconds after the wait ends.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import WaiterConfigurationError
from .cancel import ask_record
from .guard import WaitGuard
from .tasks import installed_for

__all__ = ["OutcomeNotKeptError", "wait_outcome"]


class OutcomeNotKeptError(WaiterConfigurationError):
    """`wait_outcome` asked of a wait that a worker of an older release of waitable
    ended: its record is there but does not keep the outcome."""

    def __init__(self, message: str, wait_id: str = "") -> None:
        super().__init__(message)
        self.wait_id = wait_id


def wait_outcome(app: Any, wait_id: str) -> dict[str, Any] | None:
    """The outcome of the wait `wait_id` once it has ended, None while it goes on.

    The outcome is the dict its `on_done` receives (`ok`, `result` or `error`,
    `started_at`, `deadline`), the same whether or not the wait has an `on_done`
    and whether or not that has run yet. Raises `WaitNotFoundError` for an id
    with no record (never started, or ended more than `keep` ago),
    `OutcomeNotKeptError` for a wait a worker of an older release ended,
    `WaiterConfigurationError` naming the wait when the kept outcome was changed
    in Redis into something that is not a JSON object, and the Redis client's
    error when the records' Redis is away.
    """
    tasks = installed_for(app, "wait_outcome(app, ...)")
    decision = ask_record(tasks, wait_id, WaitGuard.outcome)
    if decision.verdict == "running":
        return None
    if not decision.detail:
        raise OutcomeNotKeptError(
            f"wait {wait_id!r} has ended, but its record holds no outcome: a worker "
            "of an older release of waitable, which did not keep outcomes, ended it "
            "(its on_done, if it had one, received the outcome)",
            wait_id,
        )
    return _read_outcome(wait_id, decision.detail)


def _read_outcome(wait_id: str, text: str) -> dict[str, Any]:
    """The outcome the record keeps, read back; a `WaiterConfigurationError`
    naming the wait when it is not a JSON object (a record changed by hand or
    by another program: Redis is shared, so the record is input to check)."""
    try:
        outcome = json.loads(text)
    except (ValueError, RecursionError):
        outcome = None
    if not isinstance(outcome, dict):
        raise WaiterConfigurationError(
            f"wait {wait_id!r} has ended, but the outcome its Redis record keeps is "
            f"not one waitable wrote ({text[:200]!r}); the record was changed after "
            "the wait ended: its on_done, if it had one, received the outcome"
        )
    return outcome
