"""`start_wait`: save a new wait and enqueue its first poll on a Celery app.

The first poll is due at once, or after the waiter's first delay when it has one
(`delay_before_first_attempt`: the message's countdown).

No request is made here: the waiter's `start()` only computes the deadline and
the delays. The wait then lives in Celery messages until `on_done` is called.
"""

from __future__ import annotations

import json
import math
import time
import uuid
from typing import Any

from ..backoff import Backoff, longest_delay
from ..errors import WaiterConfigurationError
from ..jsondata import first_loss
from ..seconds import MAX_SECONDS, describe_value
from ..steps import SavedWait
from .names import resolve_client_factory, unpolled_waiter
from .tasks import installed_for, message, visibility_timeout

__all__ = ["WaitIdInUseError", "start_wait"]


class WaitIdInUseError(WaiterConfigurationError):
    """`start_wait(wait_id=...)` named a wait that exists: it was left as it is.

    Catch it to start a wait at most once per id (`wait_id` as an idempotency key).
    """

    def __init__(self, message: str, wait_id: str = "") -> None:
        super().__init__(message)
        self.wait_id = wait_id


def start_wait(
    app: Any,
    waiter: str,
    input: Any,
    *,
    client: str,
    max_wait_time: float,
    on_done: Any = None,
    min_delay: float | None = None,
    max_delay: float | None = None,
    max_attempts: int | None = None,
    seed: int | None = None,
    wait_id: str | None = None,
    queue: str | None = None,
) -> str:
    """Start a wait on `app` and return its id; `on_done(outcome)` is called once when it ends.

    `waiter` and `client` are names (`"module:Name"` or registered); `input` must
    be JSON data; `on_done` is a Celery signature (or None) whose arguments are
    JSON data. `max_wait_time` is a wall-clock deadline that travels with the
    wait; it must be finite (the wait's Redis record expires `keep` seconds
    after it). `wait_id` (non-empty text; default: a new uuid) must not be in
    use: a wait started with it that runs, or ended less than `keep` seconds
    ago, makes this raise `WaitIdInUseError` and is left untouched (of two
    producers starting one id at once, exactly one succeeds). A waiter built with
    `delay_before_first_attempt` makes its first call after its first delay, as
    under `wait()`. Malformed names and on_done arguments are refused with
    `WaiterConfigurationError` before anything is written to Redis.
    """
    tasks = installed_for(
        app, "start_wait(app, ...), so the worker has the poll task too"
    )
    resolve_client_factory(client, tasks.import_from)
    unpolled = unpolled_waiter(waiter, tasks.import_from)
    saved = unpolled.start(
        input,
        max_wait_time=max_wait_time,
        min_delay=min_delay,
        max_delay=max_delay,
        max_attempts=max_attempts,
        seed=seed,
    )
    if not math.isfinite(saved.deadline):
        raise WaiterConfigurationError(
            f"waiter {waiter!r}: a wait on Celery needs a finite max_wait_time, got "
            f"{max_wait_time!r}: its Redis record and messages must expire, so a wait "
            "ended only by max_attempts cannot run here; pass max_wait_time= as well "
            "(e.g. max_attempts x max_delay)"
        )
    visibility = visibility_timeout(app) if _redis_broker(app) else None
    longest = longest_retry_delay(saved, unpolled.backoff)
    if visibility is not None and longest >= visibility:
        bound = longest_delay(unpolled.backoff, saved.min_delay, saved.max_delay)
        if bound is None:
            why = (
                f"its backoff {unpolled.backoff!r} is not one of waitable.backoff's "
                "strategies, so its delays have no known bound and only the deadline, "
                f"max_wait_time {saved.max_wait_time:g}s, bounds a poll's countdown"
            )
        elif longest == saved.max_wait_time:
            why = f"the deadline, max_wait_time {saved.max_wait_time:g}s"
        else:
            why = (
                f"its backoff's longest delay {bound:g}s plus min_delay "
                f"{saved.min_delay:g}s, which the last-attempt rule adds to it"
            )
        raise WaiterConfigurationError(
            f"waiter {waiter!r}: a poll's countdown may be {longest:g}s ({why}), not "
            f"below the Redis broker's visibility_timeout {visibility:g}s, so a poll "
            "waiting for its countdown would be delivered twice; lower max_delay, "
            "min_delay or max_wait_time, or raise "
            "broker_transport_options['visibility_timeout']"
        )
    signature = None
    if on_done is not None:
        if isinstance(on_done, dict):  # a Signature: checked before Celery's
            _check_json(on_done)  # clone deep-copies (recursively) its options
        signature = dict(app.signature(on_done))
        _check_json(signature)
        composite = signature.get("subtask_type")
        if composite:
            raise WaiterConfigurationError(
                f"waiter {waiter!r}: on_done must be one task's signature, got a "
                f"{composite} ({signature.get('task')}): waitable runs on_done's body "
                "in its own task, where a chain, group or chord cannot run; pass a "
                "task of yours that starts it"
            )
        _check_countdown(signature)
        _check_not_main(signature)
    wait = uuid.uuid4().hex if wait_id is None else _checked_wait_id(wait_id)
    args = (wait, 0, waiter, client, saved.to_json(), signature, queue)
    guard = tasks.guard()
    if not guard.is_record(wait):
        raise WaiterConfigurationError(
            f"wait_id {wait!r} names the Redis key of waitable's index of pending "
            f"waits ({guard.due_key!r}); pass another wait_id"
        )
    now = time.time()
    countdown = first_countdown(saved)
    options: dict[str, Any] = {"countdown": countdown} if countdown > 0 else {}
    if queue is not None:
        options["queue"] = queue
    # The record outlives the deadline (and a first poll due at it) by `keep`.
    ttl = max(saved.deadline - now, countdown) + tasks.keep
    overdue_at = now + countdown + tasks.recover_after
    if not guard.started(wait, message(args, queue), overdue_at, ttl, uuid.uuid4().hex):
        raise WaitIdInUseError(
            f"wait_id {wait!r} is in use: a wait started with it runs, or ended less "
            f"than keep={tasks.keep:g}s ago (its record {guard.key(wait)!r} is in "
            "Redis); it was left as it is and no new wait was started. Pass a "
            "wait_id no other wait has used, or none for a new one",
            wait,
        )
    try:
        tasks.task.apply_async(args=args, **options)
    except BaseException:
        # The record is this call's own (`started` made it): take it back.
        guard.client.delete(guard.key(wait))
        guard.client.zrem(guard.due_key, wait)
        raise
    return wait


def _checked_wait_id(wait_id: Any) -> str:
    """`wait_id` when it is non-empty text. An empty one used to be replaced by a
    new uuid without a word, so a caller using it as an idempotency key started a
    new wait at each call; a number went into the messages as a number."""
    if isinstance(wait_id, str) and wait_id:
        return wait_id
    raise WaiterConfigurationError(
        f"wait_id must be non-empty text (an idempotency key such as 'job-1'), got "
        f"{wait_id!r}; pass wait_id=None (the default) for a new id"
    )


def first_countdown(saved: SavedWait) -> float:
    """Seconds until the first poll is due: 0, unless the waiter pauses before it
    (`delay_before_first_attempt`), when `start()` has just recorded the pause
    as `next_delay` (and `next_poll_at`). `poll_once` skips a saved pause (its
    caller chose when to poll), so on Celery the pause is the first message's
    countdown, as each later poll's `next_delay` is its message's."""
    if saved.next_poll_at is None:
        return 0.0
    return max(0.0, saved.next_delay)


def longest_retry_delay(saved: SavedWait, backoff: Backoff) -> float:
    """The longest delay before any poll of `saved` under `backoff`, so the longest
    countdown its poll messages get (the first delay included): the backoff's
    longest delay plus `min_delay`, since the last-attempt rule (`remainingTime -
    delay <= minDelay` → `delay = remainingTime`) can stretch it by that much, and
    never past the deadline (`max_wait_time`), which alone bounds a backoff of
    unknown bound. Retry backoffs and rate-limit waits are slept within a poll."""
    bound = longest_delay(backoff, saved.min_delay, saved.max_delay)
    if bound is None:
        return saved.max_wait_time
    return min(saved.max_wait_time, bound + saved.min_delay)


def _redis_broker(app: Any) -> bool:
    url = app.conf.broker_url
    return isinstance(url, str) and url.split("://", 1)[0] in ("redis", "rediss")


def _check_not_main(signature: dict[str, Any]) -> None:
    """Refuse an on_done task of the running script (`__main__.report`: a task
    defined in it, on a `Celery()` without a main name), as names in `__main__`
    are refused: no worker registers it, so the wait would run to its end and
    then fail on_done by its retries (minutes), saying to import a module that
    cannot be imported."""
    name = signature.get("task")
    if isinstance(name, str) and name.startswith("__main__."):
        raise WaiterConfigurationError(
            f"on_done task {name!r} is defined in the script this process runs "
            "(__main__), which no Celery worker registers; define it in a module "
            "the workers import, or name the app (Celery('myapp', ...)) so that "
            "its tasks are named after it"
        )


def _check_countdown(signature: dict[str, Any]) -> None:
    """Refuse an on_done countdown that is not a number of seconds from 0 to
    `MAX_SECONDS` (`.set(countdown="60")`, `countdown=1e12`): `waitable.done` is
    published with it only when the wait ends, where Celery would fail the last
    poll instead (a `TypeError`; an `OverflowError` for an ETA past year 9999, a
    `ValueError` below -2**31 s). `_check_json` has refused NaN, inf and ints
    too long for JSON already."""
    value = (signature.get("options") or {}).get("countdown")
    if value is None or (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and 0 <= value <= MAX_SECONDS  # NaN fails both comparisons
    ):
        return
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    raise WaiterConfigurationError(
        f"on_done {signature.get('task')!r}: its option countdown="
        f"{describe_value(value)} is "
        + (
            f"not a number of seconds from 0 to {MAX_SECONDS} (100 years)"
            if number
            else "not a number"
        )
        + "; waitable publishes on_done with it when the wait ends, and Celery "
        "takes a countdown only as a number of seconds: pass countdown=60, not '60'"
    )


def _check_json(signature: Any) -> None:
    """Refuse an on_done signature that the poll messages could not carry as JSON,
    naming the argument (the messages and the wait's record are plain JSON).

    `first_loss` walks each argument without recursion (so an argument nested
    thousands deep is refused, not a `RecursionError`) and names the very
    value; `json.dumps` then catches what it still refuses (a mapping that is
    not a dict)."""
    name = signature.get("task")
    items = [(f"args[{i}]", v) for i, v in enumerate(signature.get("args") or ())]
    items += [(f"kwargs[{k!r}]", v) for k, v in (signature.get("kwargs") or {}).items()]
    items.append(("its options", signature.get("options") or {}))
    for where, value in items:
        loss = first_loss(value, where)
        if loss is None:
            try:
                json.dumps(value, allow_nan=False)
            except (TypeError, ValueError, RecursionError) as error:
                loss = str(error)
        if loss is not None:
            raise WaiterConfigurationError(
                f"on_done {name!r}: {where} is not JSON data ({loss}); the wait "
                "carries on_done in JSON messages: pass JSON values (e.g. a "
                "datetime as .isoformat(), a Decimal as str)"
            )
