"""`cancel_wait`: end a wait on Celery early, its `on_done` told so with what it saw.

Seed 003's context cancel for waits that live in messages: the request is
recorded on the wait's Redis record, and the next poll to begin ends the wait
with `WaiterCancelledError` (its attempts so far) instead of calling the
service. A copy of the pending poll is published at once, so the wait ends
without waiting out its delay.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..errors import WaiterConfigurationError
from .guard import Decision, WaitGuard
from .tasks import WaitTasks, installed_for, publish_message, read_message

__all__ = ["WaitNotFoundError", "cancel_wait"]

logger = logging.getLogger("waitable.celery")


class WaitNotFoundError(WaiterConfigurationError):
    """`cancel_wait` named a wait with no record: never started, or ended more than `keep` ago."""

    def __init__(self, message: str, wait_id: str = "") -> None:
        super().__init__(message)
        self.wait_id = wait_id


def ask_record(
    tasks: WaitTasks,
    wait_id: str,
    ask: Callable[[WaitGuard, str], Decision],
    purpose: str = "",
) -> Decision:
    """`ask` the record of the wait `wait_id`; `WaitNotFoundError` (its text
    saying `purpose`, as " to cancel") when the wait has no record."""
    guard = tasks.guard()
    decision = ask(guard, wait_id) if guard.is_record(wait_id) else None
    if decision is None or decision.verdict == "unknown":
        raise WaitNotFoundError(
            f"no wait {wait_id!r}{purpose}: its record {guard.key(wait_id)!r} is not "
            f"in Redis (no wait was started with this id, or it ended more than "
            f"keep={tasks.keep:g}s ago); pass the id start_wait returned",
            wait_id,
        )
    return decision


def cancel_wait(app: Any, wait_id: str) -> bool:
    """Ask the wait `wait_id` to end as cancelled; True when asked in time.

    True: the request was recorded before the wait ended. Its `on_done` gets an
    outcome whose error is `WaiterCancelledError`, with the attempts made so far,
    unless a poll already running when it came ends the wait first (its answer
    is in, so that outcome stands, as with a sync wait's `cancel=`), or the poll
    that takes the request begins past the wait's deadline (a busy queue): that
    wait ends with `WaiterTimeoutError`, as it would have anyway. Asking again
    changes nothing. False: the wait had already ended (its `on_done` has
    its outcome). Raises `WaitNotFoundError` for an id with no record, and the
    Redis client's error when the records' Redis is away.
    """
    tasks = installed_for(app, "cancel_wait(app, ...)")
    decision = ask_record(tasks, wait_id, WaitGuard.cancel, " to cancel")
    if decision.verdict == "ended":
        return False
    if decision.detail:
        _hurry(tasks, wait_id, decision.detail)
    return True


def _hurry(tasks: WaitTasks, wait_id: str, text: str) -> None:
    """Publish a copy, due now, of the cancelled wait's pending poll (`text`, as its
    record keeps it). When the record's copy is not one waitable wrote, log that:
    the cancel is recorded all the same, and the wait's own next poll ends it."""
    try:
        data = read_message(wait_id, text)
    except WaiterConfigurationError as error:
        logger.warning("%s; it ends as cancelled at its own next poll", error)
        return
    publish_message(tasks, data)
