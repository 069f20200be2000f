"""`wait_outcome`: how a wait on Celery ended, read back by its id.

For a producer that started a wait without `on_done`, or for any other process
that holds its id: the wait's record in Redis keeps the outcome `on_done`
receives (see `waitable.celery.outcome`) for `keep` seconds after the wait ends.
"""

from __future__ import annotations

import json
from typing import Any

from .cancel import WaitNotFoundError, ask_record
from .guard import WaitGuard
from .tasks import installed_for

__all__ = ["wait_outcome"]


def wait_outcome(app: Any, wait_id: str) -> dict[str, Any] | None:
    """The outcome of the wait `wait_id` once it has ended, None while it goes on.

    The outcome is the dict its `on_done` receives (`ok`, `result` or `error`,
    `started_at`, `deadline`), the same whether or not the wait has an `on_done`
    and whether or not that has run yet. Raises `WaitNotFoundError` for an id
    with no record (never started, or ended more than `keep` ago), and the Redis
    client's error when the records' Redis is away.
    """
    tasks = installed_for(app, "wait_outcome(app, ...)")
    decision = ask_record(tasks, wait_id, WaitGuard.outcome)
    if decision.verdict == "running":
        return None
    if not decision.detail:
        raise WaitNotFoundError(
            f"wait {wait_id!r} has ended, but its record was written by a release "
            "of waitable that did not keep outcomes; its on_done received it",
            wait_id,
        )
    outcome: dict[str, Any] = json.loads(decision.detail)
    return outcome
