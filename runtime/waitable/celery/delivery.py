"""`on_done` once per wait: the `waitable.done` task claims the call in Redis, then runs it inline.

The poll task that ends a wait publishes `waitable.done(wait_id, outcome,
on_done)` at least once (a worker killed between publishing and recording it
publishes it again), routed as the `on_done` signature would be. Whichever
worker consumes it takes a lease on the wait's call (`WaitGuard.claim`), runs
the `on_done` task's body in its own process with `signature.apply()` (the
outcome prepended to the signature's arguments; Celery's eager call: the task's
signals and `on_success`/`on_failure` run, its links are sent, its
`self.request.is_eager` is true, and a `self.retry()` inside it runs the body
again at once), renews the lease while it runs, and records the wait delivered. A copy
that finds it delivered does nothing; one that finds a live lease comes back
when the lease would end. One that finds an expired lease runs the call again:
that runner died (or could not reach Redis for a whole lease) between starting
the body and recording it delivered, the one window in which the body can run
twice. Copies are recognised for `keep` seconds after the wait is delivered.
If the body raises, the lease is freed and nothing recorded: `waitable.done`
is retried after the on_done task's `default_retry_delay`, up to its
`max_retries`, then recorded `failed` (see `tasks._done`). Redis away for a
moment does not count as the body raising: before the body, `waitable.done` is
retried soon; after it, only the record is retried (`deliver`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from ..errors import WaiterConfigurationError
from .guard import REDIS_OUTAGES, Decision, WaitGuard, retry_redis
from .lease import holding

__all__ = [
    "DONE_TASK",
    "PUBLISH_OPTIONS",
    "DeliveryNotRecorded",
    "call_on_done",
    "deliver",
    "done_options",
]

#: The Celery task name of the task that makes the `on_done` call.
DONE_TASK = "waitable.done"

#: The `on_done` signature's options that go on the `waitable.done` message
#: (routing, countdown, time limits); the rest (links, ...) apply to the inline
#: call. `expires` and `eta` are not carried: a wait's on_done does not expire.
PUBLISH_OPTIONS = (
    "queue",
    "exchange",
    "exchange_type",
    "routing_key",
    "priority",
    "countdown",
    "time_limit",
    "soft_time_limit",
)
_TASK_OPTIONS = (
    "queue",
    "exchange",
    "routing_key",
    "priority",
    "time_limit",
    "soft_time_limit",
)

logger = logging.getLogger("waitable.celery")


class DeliveryNotRecorded(RuntimeError):
    """The on_done body ran, but Redis stayed away for a whole lease after it, so
    the wait could not be recorded delivered: not the body's failure, and not to
    be retried by running it again (`tasks._done` gives up on the message)."""


def done_options(app: Any, signature: Any, wait_id: str) -> dict[str, Any]:
    """The `waitable.done` message's options: routed as `signature` itself would be.

    The task's own `queue=`, `exchange=`, `routing_key=`, `priority=` and time
    limits (when it is registered here), overridden by the signature's options; `route_name` makes
    `task_routes` entries for the `on_done` task's name apply as well.
    """
    options: dict[str, Any] = {}
    task = app.tasks.get(signature.task)
    for name in _TASK_OPTIONS if task is not None else ():
        value = getattr(task, name, None)
        if isinstance(value, (str, int, float)):
            options[name] = value
    for name in PUBLISH_OPTIONS:
        value = signature.options.get(name)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            options[name] = value
    options["task_id"] = signature.options.get("task_id") or f"waitable-done-{wait_id}"
    options["route_name"] = signature.task
    return options


def _too_many_reruns(decision: Decision, most: int | None) -> bool:
    """Whether the claim is a rerun past the `most` a wait's call may have (None:
    no bound), `decision.detail` counting the runners that died in it."""
    return (
        decision.verdict == "rerun"
        and most is not None
        and int(decision.detail or 0) > most
    )


def call_on_done(
    app: Any, on_done: dict[str, Any], outcome: Any, task_id: str, retries: int
) -> None:
    """Run the `on_done` task's body here: `signature.apply()` with the outcome first.

    Raises what the body raised (after the body's own eager retries, if any).
    """
    signature = app.signature(on_done)
    if signature.task not in app.tasks:
        raise WaiterConfigurationError(
            f"on_done task {signature.task!r} is not registered in this worker: import "
            "the module that defines it in every worker that consumes its queue"
        )
    result = signature.apply(
        args=(outcome,), task_id=task_id, retries=retries, throw=True
    )
    if result.failed():
        error = result.result
        if isinstance(error, BaseException):
            raise error
        raise RuntimeError(f"on_done task {signature.task!r} failed: {error!r}")


def deliver(
    guard: WaitGuard,
    wait_id: str,
    owner: str,
    lease: float,
    keep: float,
    call: Callable[[], None],
    most_reruns: int | None = None,
) -> Decision:
    """Make the wait's on_done `call` unless it is delivered or another runner holds it.

    Returns the claim: `run`/`rerun` (`call` ran and the wait is delivered),
    `busy` (detail: ms left on the other runner's lease) or `delivered`. If
    `call` raises, the lease is released, nothing is recorded, and it propagates.
    Once `call` returned, recording it is retried in place while Redis is away
    (up to a lease: `retry_redis`), so that a blip never runs the body again;
    `DeliveryNotRecorded` if Redis stayed away longer. `given_up` (detail: the
    runners lost) when more than `most_reruns` runners died in the call: it is
    recorded failed and not made again, so a body that kills its worker every
    time (out of memory, a hard time limit) does not run without end.
    """
    decision = guard.claim(wait_id, owner, lease, keep)
    if decision.verdict in ("busy", "delivered"):
        return decision
    if _too_many_reruns(decision, most_reruns):
        retry_redis(
            lambda: guard.delivered(wait_id, owner, keep, how="failed"),
            f"wait {wait_id}: recording on_done failed",
            lease,
        )
        return Decision("given_up", decision.detail)
    if decision.verdict == "rerun":
        logger.warning(
            "wait %s: on_done runs again: the worker that ran it last lost its lease "
            "(it died, or stalled past %gs) before recording it done",
            wait_id,
            lease,
        )
    renew = functools.partial(guard.renew, wait_id, owner, lease)
    with holding(renew, lease, f"wait {wait_id}: on_done"):
        try:
            call()
        except BaseException:
            try:
                guard.release(wait_id, owner)
            except REDIS_OUTAGES:
                # The lease runs out by itself; the body's error is the one raised.
                logger.exception("wait %s: freeing the on_done lease", wait_id)
            raise
    try:
        kept = retry_redis(
            lambda: guard.delivered(wait_id, owner, keep),
            f"wait {wait_id}: recording on_done delivered",
            lease,
        )
    except REDIS_OUTAGES as error:
        raise DeliveryNotRecorded(
            f"wait {wait_id}: on_done ran, but Redis was away for {lease:g}s after "
            "it, so it is not recorded delivered: a copy of waitable.done (the "
            "sweep's) will run it again"
        ) from error
    if not kept:
        logger.warning(
            "wait %s: on_done ran past its lease and another worker took it over",
            wait_id,
        )
    return decision
