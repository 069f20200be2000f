"""The poll task: one `poll_once` per run, then itself again after `next_delay`, or `on_done`.

`install(app)` registers it and `waitable.done` (see `delivery`) on a Celery app
(call it in the module that defines the app, so both the worker and the
producers have them). Each poll message carries the wait's id, its poll number
`seq`, the waiter's and client factory's names, the saved wait as JSON and the
`on_done` signature. Both tasks are `acks_late`: a worker that dies mid-task
leaves the message to be delivered again.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import math
import os
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

from ..actions import START_TOLERANCE
from ..errors import WaiterConfigurationError, WaiterError
from ..import_names import name_problem
from ..steps import PollStep, SavedWait
from ..waiter import AsyncWaiter, Waiter
from . import loop
from .delivery import (
    DONE_TASK,
    DeliveryNotRecorded,
    call_on_done,
    deliver,
    done_options,
)
from .guard import REDIS_OUTAGES, WaitGuard, backoff, retry_redis
from .lease import holding
from .names import (
    Trusted,
    resolve_client_factory,
    resolve_waiter,
    unknown_here,
    unpolled_waiter,
)
from .outcome import error_outcome, result_outcome

__all__ = ["DONE_TASK", "POLL_TASK", "WaitTasks", "install", "installed"]

#: The Celery task name of the poll task.
POLL_TASK = "waitable.poll"

logger = logging.getLogger("waitable.celery")


@dataclass
class WaitTasks:
    """What `install` set up on one app: settings, and the per-process Redis guard.

    `lease` (seconds) is the lease on one poll and on the on_done call, renewed
    every third of it while the poll's call (or on_done) runs (`lease.holding`): a
    second copy of a message waits while it is held, and takes over `lease`
    seconds after a worker died. `keep` (seconds) is how long a finished wait's
    record stays, so late copies of its polls and of `waitable.done` still find
    it ended. A poll (or a
    `waitable.done`) that has not begun `recover_after` seconds after it was due
    is published again by the sweep each worker runs every `sweep_every` seconds.
    `import_from`: the packages waiter and client names may be imported from
    (None: any; see `waitable.celery.names`).
    """

    app: Any
    redis_url: str
    lease: float
    keep: float
    key_prefix: str
    recover_after: float = 3600.0
    sweep_every: float = 10.0
    import_from: Trusted = None
    task: Any = None
    done_task: Any = None
    _guard: WaitGuard | None = None
    _guard_pid: int = 0

    def guard(self) -> WaitGuard:
        """This process's `WaitGuard` (a new Redis connection after a fork)."""
        if self._guard is None or self._guard_pid != os.getpid():
            import redis

            self._guard = WaitGuard(
                redis.Redis.from_url(self.redis_url), self.key_prefix
            )
            self._guard_pid = os.getpid()
        return self._guard


def install(
    app: Any,
    *,
    redis_url: str | None = None,
    lease: float = 120.0,
    keep: float = 86400.0,
    key_prefix: str = "waitable:",
    recover_after: float | None = None,
    sweep_every: float = 10.0,
    import_from: Iterable[str] | None = None,
) -> WaitTasks:
    """Register the poll and `waitable.done` tasks on the Celery `app`, and the worker's sweep.

    Idempotent per app: a second call returns the first's `WaitTasks`, with a
    warning when it asks other settings. The sweep starts in the workers of
    `app` only, however many apps are installed in the process.

    `redis_url` is where the per-wait records live; by default the app's broker
    when that is Redis. `recover_after` defaults to the broker's visibility
    timeout. `import_from` (package names, e.g. `("myapp", "s3_waiters")`) limits
    the modules that waiter and client names in messages are imported from, each
    package with its submodules (registered names are always known): a message
    forged by someone who can write to the broker or the records' Redis then
    cannot import other modules nor call other functions. Call this where the app
    is defined.
    """
    trusted = _trusted_packages(import_from)
    existing = installed(app)
    if existing is not None:
        _same_install(
            existing, redis_url, lease, keep, key_prefix, recover_after, trusted
        )
        return existing
    url = redis_url or _redis_broker(app)
    if url is None:
        raise WaiterConfigurationError(
            "waitable.celery.install(app) needs a Redis URL for its per-wait records: "
            f"the app's broker is {app.conf.broker_url!r}; pass redis_url='redis://...'"
        )
    recover = visibility_timeout(app) if recover_after is None else recover_after
    settings = (lease, keep, recover, sweep_every)
    if not all(_positive_seconds(value) for value in settings):
        raise WaiterConfigurationError(
            f"waitable.celery.install: lease, keep, recover_after and sweep_every must "
            f"be finite positive seconds, got lease={lease!r}, keep={keep!r}, "
            f"recover_after={recover!r}, sweep_every={sweep_every!r}"
        )
    if _redis_broker(app) is not None and keep <= visibility_timeout(app):
        raise WaiterConfigurationError(
            f"waitable.celery.install: keep {keep:g}s is not above the Redis broker's "
            f"visibility_timeout {visibility_timeout(app):g}s: a copy of a poll the "
            "broker delivers again that late would find the wait's record gone and "
            "run the wait anew; pass a larger keep= (the default is a day)"
        )
    if _redis_broker(app) is not None and lease >= visibility_timeout(app):
        raise WaiterConfigurationError(
            f"waitable.celery.install: lease {lease:g}s is not below the Redis "
            f"broker's visibility_timeout {visibility_timeout(app):g}s: a copy of a "
            "poll or on_done that finds another worker's lease comes back when it "
            "ends, and the broker would deliver a countdown that long twice; pass a "
            "smaller lease= or raise broker_transport_options['visibility_timeout']"
        )
    tasks = WaitTasks(
        app,
        url,
        float(lease),
        float(keep),
        key_prefix,
        float(recover),
        sweep_every,
        trusted,
    )

    def poll(
        self: Any,
        wait_id: str,
        seq: int,
        waiter: str,
        client: str,
        state: str,
        on_done: dict[str, Any] | None,
        queue: str | None = None,
    ) -> None:
        _poll(tasks, self, wait_id, seq, waiter, client, state, on_done, queue)

    tasks.task = app.task(
        name=POLL_TASK,
        bind=True,
        shared=False,  # this app's: a shared task would go to every app in the process
        acks_late=True,
        reject_on_worker_lost=True,
        ignore_result=True,
        serializer="json",
        max_retries=None,  # retried while the records' Redis is away (see _poll)
    )(poll)

    def done(
        self: Any,
        wait_id: str,
        outcome: Any,
        on_done: dict[str, Any],
        failures: int = 0,
    ) -> None:
        _done(tasks, self, wait_id, outcome, on_done, failures)

    tasks.done_task = app.task(
        name=DONE_TASK,
        bind=True,
        shared=False,  # this app's: a shared task would go to every app in the process
        acks_late=True,
        reject_on_worker_lost=True,
        ignore_result=True,
        serializer="json",
        max_retries=None,  # a copy that finds a live lease comes back until it ends
    )(done)
    _INSTALLED[id(app)] = tasks
    from celery import signals  # type: ignore[import-untyped]

    def ready(sender: Any = None, **_: Any) -> None:
        # One signal for every app in the process: its sender is the ready
        # worker's consumer, which runs this app only if its `app` is this one.
        if getattr(sender, "app", None) is app:
            _start_sweeper(tasks)

    signals.worker_ready.connect(ready, weak=False)
    return tasks


def _same_install(
    tasks: WaitTasks,
    redis_url: str | None,
    lease: float,
    keep: float,
    key_prefix: str,
    recover_after: float | None,
    import_from: Trusted,
) -> None:
    """Warn when a second `install` of one app asks other settings than the first,
    which stays in force (`install` is idempotent): ignored without a word, the
    caller would think its `lease`, `keep` or records' Redis apply. (`sweep_every`
    is not compared: the sweep already runs, or not.) Another `import_from` is
    refused instead: a trust limit ignored with only a log line would leave the
    workers importing what the caller meant to forbid."""
    if import_from is not None and import_from != tasks.import_from:
        raise WaiterConfigurationError(
            f"waitable.celery.install(app, import_from={import_from!r}): this app "
            f"was installed already with import_from={tasks.import_from!r}, which "
            "stays in force; call install once, where the app is defined, with the "
            "import_from you want"
        )
    asked: dict[str, object] = {"lease": lease, "keep": keep, "key_prefix": key_prefix}
    if redis_url is not None:
        asked["redis_url"] = redis_url
    if recover_after is not None:
        asked["recover_after"] = recover_after
    differ = {k: v for k, v in asked.items() if getattr(tasks, k) != v}
    if differ:
        logger.warning(
            "waitable.celery.install(app) was called for this app already, with %s; "
            "this call's %s is ignored: call install once, where the app is "
            "defined, with the settings you want",
            ", ".join(f"{k}={getattr(tasks, k)!r}" for k in differ),
            ", ".join(f"{k}={v!r}" for k, v in differ.items()),
        )


def _trusted_packages(import_from: Iterable[str] | None) -> Trusted:
    """`install`'s `import_from` as a tuple of package names, each checked: a
    dotted module path (`myapp`, `myapp.waiters`). A single text is refused (it
    would be read letter by letter); none at all (`()`) leaves only the
    registered names."""
    if import_from is None:
        return None
    if isinstance(import_from, (str, bytes)):
        raise WaiterConfigurationError(
            f"waitable.celery.install: import_from takes package names, got the text "
            f"{import_from!r}; pass a tuple: import_from=({import_from!r},)"
        )
    packages = tuple(import_from)
    for package in packages:
        problem = (
            name_problem(package, with_object=False)
            if isinstance(package, str)
            else f"a {type(package).__name__}, not text"
        )
        if problem is not None:
            raise WaiterConfigurationError(
                f"waitable.celery.install: import_from entry {package!r} is not a "
                f"package name ({problem}); pass names such as 'myapp' or "
                "'myapp.waiters'"
            )
    return packages


def _positive_seconds(value: object) -> bool:
    """A setting in seconds: a finite number above 0 (not a bool, NaN or inf)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value > 0
    )


def installed(app: Any) -> WaitTasks | None:
    """The `WaitTasks` that `install` made for `app`, if it was called."""
    tasks = _INSTALLED.get(id(app))
    return tasks if tasks is not None and tasks.app is app else None


_INSTALLED: dict[int, WaitTasks] = {}


def installed_for(app: Any, call: str) -> WaitTasks:
    """The `WaitTasks` of `app` for `call` (how the caller is called, e.g.
    "cancel_wait(app, ...)"); refused, saying what to do, without `install(app)`."""
    tasks = installed(app)
    if tasks is None:
        raise WaiterConfigurationError(
            "call waitable.celery.install(app) where the Celery app is defined "
            f"before {call}"
        )
    return tasks


def _redis_broker(app: Any) -> str | None:
    url = app.conf.broker_url
    if isinstance(url, str) and url.split("://", 1)[0] in ("redis", "rediss"):
        return url
    return None


def visibility_timeout(app: Any) -> float:
    """The Redis broker's visibility timeout in seconds (kombu's default: one hour)."""
    options = app.conf.broker_transport_options or {}
    return float(options.get("visibility_timeout", 3600))


def message(args: tuple[Any, ...], queue: str | None) -> str:
    """A poll message's arguments as JSON, kept so that the sweep can publish it again."""
    return json.dumps({"args": list(args), "queue": queue}, separators=(",", ":"))


def sweep_once(tasks: WaitTasks) -> int:
    """Publish again every overdue poll and undelivered `waitable.done`; how many.

    A record whose message is not one waitable wrote, or one Celery refuses to
    publish (options changed to values it does not take), is logged with its
    wait's id and skipped (looked at again `recover_after` later), so that it
    does not keep the other overdue waits from being published. When publishing
    fails because the broker is away, the waits not yet published are due again
    at once, for the next round, not `recover_after` later as the sweep had
    marked them."""
    now = time.time()
    published = 0
    found = tasks.guard().sweep(now, now + tasks.recover_after)
    for index, (wait_id, text) in enumerate(found):
        try:
            data = read_message(wait_id, text)
        except WaiterConfigurationError as error:
            logger.error("%s; the sweep skips it", error)
            continue
        try:
            publish_message(tasks, data)
        except Exception as error:
            if not _broker_outage(error):  # this record's message, not the broker
                logger.error(
                    "wait %s: its Redis record's next message could not be "
                    "published again (%s: %.200s); the sweep skips it",
                    wait_id,
                    type(error).__name__,
                    error,
                )
                continue
            tasks.guard().due_again([found_id for found_id, _ in found[index:]], now)
            raise
        published += 1
    if published:
        logger.warning("waitable: published %d overdue poll(s) again", published)
    return published


def _broker_outage(error: BaseException) -> bool:
    """Whether publishing failed because the broker is away (kombu's
    `OperationalError`, raised once Celery's publish retries are spent; a
    socket's or Redis's connection error), as opposed to an error of the one
    message (a record changed by hand with values Celery refuses): only an
    outage stops the round and leaves the rest due again."""
    from kombu.exceptions import OperationalError

    return isinstance(error, (OperationalError, OSError, *REDIS_OUTAGES))


def read_message(wait_id: str, text: str) -> dict[str, Any]:
    """The message a wait's record keeps (`message`, or the `waitable.done` one),
    read back; `WaiterConfigurationError` naming the wait when it is not one
    waitable wrote. Redis is shared, so the record is input to check: one changed
    by hand or by another program must not stop the sweep or `cancel_wait`."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        data = error
    done = isinstance(data, dict) and data.get("task") == DONE_TASK
    if (
        isinstance(data, dict)
        and isinstance(data.get("args"), list)
        and data["args"][:1] == [wait_id]
        and (
            isinstance(data.get("options"), dict) and _done_args(data["args"])
            if done
            else "queue" in data
            and _queue_name(data["queue"])
            and poll_args(data["args"])
        )
    ):
        return data
    raise WaiterConfigurationError(
        f"wait {wait_id}: its Redis record's next message is not one waitable "
        f"wrote ({str(data)[:200]!r}), so it cannot be published again; if the "
        "record was changed by hand or by another program, delete it (the wait "
        "is lost) or start the wait again"
    )


def _queue_name(queue: Any) -> bool:
    """Whether `queue` is what `message` writes for the queue: None or text."""
    return queue is None or isinstance(queue, str)


def poll_args(args: Any) -> bool:
    """Whether `args` are a poll message's, as `message` writes them: (wait id,
    seq, waiter, client, saved wait, on_done or None[, queue or None]). The
    saved wait is checked by the poll itself, which ends the wait if it is bad;
    without these, the poll cannot even look the wait up."""
    if not isinstance(args, (list, tuple)) or len(args) not in (6, 7):
        return False
    wait_id, seq, waiter, client, _, on_done, *queue = args
    return (
        all(isinstance(name, str) for name in (wait_id, waiter, client))
        and type(seq) is int
        and seq >= 0
        and (on_done is None or isinstance(on_done, dict))
        and all(name is None or isinstance(name, str) for name in queue)
    )


def _done_args(args: list[Any]) -> bool:
    """Whether `args` are a `waitable.done` message's: (wait id, outcome, on_done)."""
    return len(args) in (3, 4) and isinstance(args[2], dict)


def publish_message(tasks: WaitTasks, data: dict[str, Any]) -> None:
    """Publish again, due now, a message a wait's record keeps (`message`, or the
    `waitable.done` one): a copy is harmless, the record drops all but one."""
    if data.get("task") == DONE_TASK:
        options = {k: v for k, v in data["options"].items() if k != "countdown"}
        tasks.done_task.apply_async(args=tuple(data["args"]), **options)
    else:
        _publish(tasks.task, tuple(data["args"]), 0.0, data["queue"])


def _start_sweeper(tasks: WaitTasks) -> None:
    """A daemon thread in the worker's main process: `sweep_once` every `sweep_every` s."""

    def run() -> None:
        while True:
            time.sleep(tasks.sweep_every)
            try:
                sweep_once(tasks)
            except Exception:  # the broker or Redis is away: try again next round
                logger.exception("waitable: the sweep for overdue polls failed")

    threading.Thread(target=run, name="waitable-sweep", daemon=True).start()


def _poll(
    tasks: WaitTasks,
    task: Any,
    wait_id: str,
    seq: int,
    waiter: str,
    client: str,
    state: str,
    on_done: dict[str, Any] | None,
    queue: str | None,
) -> None:
    """One run of the poll task (see the module docstring).

    The records' Redis away (a restart, a failover, a blip) before the poll is
    made: the task is retried (`task.retry`, 0.2 s, 0.4 s, ... at most
    `_REDIS_RETRY_CAP`), nothing having happened yet. Away once the call was
    made: its record (`advance`, `finish`, `sent`) is retried in place for up to
    a lease (`retry_redis`), never the poll, which would call the service twice.
    """
    args = (wait_id, seq, waiter, client, state, on_done, queue)
    if not poll_args(args):
        logger.error(
            "wait %r: a poll message whose arguments are not ones waitable writes "
            "was dropped (%.200r); if its record was changed by hand or by another "
            "program, start the wait again",
            wait_id,
            args,
        )
        return
    guard = tasks.guard()
    token = uuid.uuid4().hex
    saved, unreadable = _saved(state)
    ttl = tasks.keep + max(
        0.0, (saved.deadline if saved else time.time()) - time.time()
    )
    retries = int(task.request.retries or 0)
    try:
        decision = guard.begin(wait_id, seq, token, tasks.lease, ttl)
    except REDIS_OUTAGES as error:
        countdown = backoff(retries, 0.2, _redis_retry_cap(tasks))
        logger.warning(
            "wait %s: poll %d: the records' Redis is away (%s); trying again in %gs",
            wait_id,
            seq,
            error,
            countdown,
        )
        raise task.retry(exc=error, countdown=countdown) from error
    if decision.verdict in ("stale", "ended"):
        logger.debug(
            "wait %s: poll %d already done (%s)", wait_id, seq, decision.verdict
        )
        return
    if decision.verdict == "busy":
        # Another copy of this poll holds the lease: look again when it expires.
        countdown = int(decision.detail) / 1000 + 0.01
        _publish(task, args, countdown, queue)
        return
    if decision.verdict == "successor":
        # The predecessor published this message and is about to free its lease
        # (see `_advance`): look again soon, backing off up to the lease's end
        # (reached only if the predecessor died between publishing and recording).
        countdown = min(int(decision.detail) / 1000 + 0.01, backoff(retries, 0.02, 1.0))
        _publish(task, args, countdown, queue, retries=retries + 1)
        return
    if decision.verdict == "resend":
        _send_on_done(tasks, wait_id, on_done, decision.detail)
        return
    if saved is not None and _put_back(tasks, task, args, token, saved, retries):
        return
    failure: Exception | None = None
    try:
        if saved is None:
            raise WaiterConfigurationError(
                f"wait {wait_id}: poll {seq} cannot run, its saved wait is unreadable "
                f"({unreadable}); the poll message or the wait's Redis record was "
                "changed after waitable wrote it: start the wait again"
            )
        if decision.verdict == "cancel":  # `cancel_wait`: end it, polling nothing
            raise unpolled_waiter(waiter, tasks.import_from).cancel_saved(saved)
        renew = functools.partial(guard.renew_poll, wait_id, token, tasks.lease)
        what = f"wait {wait_id}: poll {seq}"
        # Renewed while the call may run: the final poll, made at the deadline,
        # may take up to min_delay (then the driver cuts it off).
        until = saved.deadline + saved.min_delay + START_TOLERANCE
        with holding(renew, tasks.lease, what, until=until):
            step = _poll_once(waiter, client, saved, tasks.import_from)
    except Exception as error:  # the wait ends; on_done hears why, as data
        outcome = error_outcome(wait_id, waiter, saved, error)
        failure = error
    else:
        if step.result is None:
            delay = 0.0 if step.next_delay is None else step.next_delay
            _advance(tasks, task, args, token, delay, step.state.to_json())
            return
        outcome = result_outcome(wait_id, waiter, saved, step.result)
    text = json.dumps(outcome, separators=(",", ":"), allow_nan=False)
    finish = retry_redis(
        lambda: guard.finish(wait_id, token, text, tasks.keep),
        f"wait {wait_id}: recording its outcome",
        tasks.lease,
    )
    if finish.verdict == "send":
        _log_end(wait_id, outcome, on_done, failure)
        _send_on_done(tasks, wait_id, on_done, finish.detail)


def _put_back(
    tasks: WaitTasks,
    task: Any,
    args: tuple[Any, ...],
    token: str,
    saved: SavedWait,
    retries: int,
) -> bool:
    """Hand the poll, unmade, to the next message when this worker does not know
    its waiter or client factory (`unknown_here`: a worker of an older release,
    mid-deploy), so that a worker that knows them makes it; True when it did.
    The saved wait goes on unchanged as poll `seq + 1` (so copies of this one
    become stale, as after a poll), due after 1 s, doubling up to the cap of a
    poll retried while Redis is away, the last at the deadline: the poll made
    then, past the deadline, ends the wait saying what did not import."""
    wait_id, seq, waiter, client, state, _, _ = args
    unknown = unknown_here(waiter, client, tasks.import_from)
    left = saved.deadline - time.time()
    if not unknown or left <= 0:
        return False
    countdown = min(backoff(retries, 1.0, _redis_retry_cap(tasks)), left)
    # Not hurried by a cancel: this worker could not end the wait either.
    _advance(tasks, task, args, token, countdown, state, retries + 1, hurry=False)
    logger.warning(
        "wait %s: poll %d: this worker cannot import %s (a worker of an older "
        "release, mid-deploy?); put back for a worker that can, again in %gs; "
        "the wait ends at its deadline if none can",
        wait_id,
        seq,
        " or ".join(repr(name) for name in unknown),
        countdown,
    )
    return True


def _log_end(
    wait_id: str,
    outcome: dict[str, Any],
    on_done: Any,
    failure: BaseException | None = None,
) -> None:
    """One log line for a wait this poll ended (INFO on success, WARNING otherwise):
    without `on_done`, the only place a failed wait is ever reported. With the
    traceback when `failure`, the error that ended it, is not one of waitable's
    (a client factory or waiter that raised): the outcome keeps only its type
    and message, which rarely say where it came from."""
    if outcome["ok"]:
        logger.info("wait %s ended in success", wait_id)
        return
    error = outcome["error"]
    logger.warning(
        "wait %s ended: %s: %s%s",
        wait_id,
        error["type"],
        str(error["message"])[:2000],
        "" if on_done is not None else " (no on_done was given)",
        exc_info=None if _waitables(failure) else failure,
    )


def _waitables(failure: BaseException | None) -> bool:
    """Whether `failure` is one of waitable's errors (or none): its message says
    what happened, no traceback needed."""
    return failure is None or isinstance(
        failure, (WaiterError, WaiterConfigurationError)
    )


def _advance(
    tasks: WaitTasks,
    task: Any,
    args: tuple[Any, ...],
    token: str,
    delay: float,
    state: str,
    retries: int = 0,
    *,
    hurry: bool = True,
) -> None:
    """Publish poll `seq + 1` (the saved wait `state`, due in `delay` seconds),
    then record it published (which frees the lease); with `hurry`, once more due
    now if the wait was cancelled meanwhile (that copy ends it).

    In this order, and not freeing the lease first, so that a worker dying in
    between leaves the successor on its way (and this poll to be delivered again)
    instead of a wait whose only next poll is the sweep's copy, `recover_after`
    (an hour by default) later. The cost is that a successor due at once may
    begin on another worker before the lease is freed: `WaitGuard.begin` then
    answers `successor` (the lease holder runs poll `seq`, the one that published
    it), not `busy`, and it looks again within milliseconds (20 ms, doubling up
    to 1 s, never past the lease's end) instead of waiting out the whole lease as
    a copy of a running poll must.
    """
    wait_id, seq, waiter, client, _, on_done, queue = args
    next_args = (wait_id, seq + 1, waiter, client, state, on_done, queue)
    _publish(task, next_args, delay, queue, retries)
    overdue_at = time.time() + delay + tasks.recover_after
    text = message(next_args, queue)
    guard = tasks.guard()
    cancelled = retry_redis(
        lambda: guard.advance(wait_id, seq, token, text, overdue_at),
        f"wait {wait_id}: recording poll {seq + 1} published",
        tasks.lease,
    )
    if cancelled and hurry and delay > 0:
        # `cancel_wait` came during this poll: a copy of the successor due now ends
        # the wait; the one published above is then dropped as ended.
        _publish(task, next_args, 0.0, queue)


#: The longest countdown of a poll retried while the records' Redis is away.
_REDIS_RETRY_CAP = 10.0


def _redis_retry_cap(tasks: WaitTasks) -> float:
    """`_REDIS_RETRY_CAP`, kept below half the Redis broker's visibility timeout (a
    countdown past it would have the broker deliver the retry a second time)."""
    if _redis_broker(tasks.app) is None:
        return _REDIS_RETRY_CAP
    return min(_REDIS_RETRY_CAP, visibility_timeout(tasks.app) / 2)


def _send_on_done(
    tasks: WaitTasks, wait_id: str, on_done: dict[str, Any] | None, outcome: str
) -> None:
    """Publish `waitable.done` (routed as `on_done` is), then mark the poll chain ended.

    A worker killed between the two leaves the last poll to publish it again:
    `waitable.done`'s consumer drops the second copy.
    """
    text, overdue_at = "", 0.0
    if on_done is not None:
        signature = tasks.app.signature(on_done)
        options = done_options(tasks.app, signature, wait_id)
        args = (wait_id, json.loads(outcome), on_done)
        tasks.done_task.apply_async(args=args, **options)
        text = json.dumps(
            {"task": DONE_TASK, "args": list(args), "options": options},
            separators=(",", ":"),
        )
        overdue_at = time.time() + options.get("countdown", 0) + tasks.recover_after
    guard = tasks.guard()
    retry_redis(
        lambda: guard.sent(wait_id, tasks.keep, text, overdue_at),
        f"wait {wait_id}: recording on_done published",
        tasks.lease,
    )


def _done(
    tasks: WaitTasks,
    task: Any,
    wait_id: str,
    outcome: Any,
    on_done: dict[str, Any],
    failures: int = 0,
) -> None:
    """One run of `waitable.done`: the on_done call, once per wait (see `delivery`).

    If the call raises, `waitable.done` is retried after the on_done task's
    `default_retry_delay`, up to its `max_retries` (Celery's defaults: 180 s, 3),
    then recorded as failed for good and the error raised. Redis away before
    the call (the claim) is retried soon (0.2 s, 0.4 s, ...), not counted as the
    call failing; after the call ran, `deliver` retries only the record, and a
    `DeliveryNotRecorded` is raised without a retry (a retry would run it again).
    `failures` counts the runs whose call raised (the body sees it as its
    `request.retries`); Celery's own count includes the retries for Redis and
    for a busy lease, which are not the body's.
    """
    request = task.request
    task_id = request.id or f"waitable-done-{wait_id}"
    retries = int(request.retries or 0)
    owner = uuid.uuid4().hex
    guard = tasks.guard()
    ran: list[bool] = []

    def call() -> None:
        ran.append(True)
        call_on_done(tasks.app, on_done, outcome, task_id, failures)

    limit = _on_done_max_retries(tasks, on_done)
    # A runner that died in the body counts as one of its failures.
    most_reruns = None if limit is None else max(0, limit - failures)
    try:
        decision = deliver(
            guard, wait_id, owner, tasks.lease, tasks.keep, call, most_reruns
        )
    except DeliveryNotRecorded:
        logger.exception("wait %s: on_done ran; recording it failed", wait_id)
        raise
    except REDIS_OUTAGES as error:
        if not ran:  # the claim: nothing ran yet
            countdown = backoff(retries, 0.2, _redis_retry_cap(tasks))
            logger.warning(
                "wait %s: on_done: the records' Redis is away (%s); trying again in %gs",
                wait_id,
                error,
                countdown,
            )
            raise task.retry(exc=error, countdown=countdown) from error
        _done_failed(tasks, task, wait_id, outcome, on_done, failures, owner, error)
    except Exception as error:
        _done_failed(tasks, task, wait_id, outcome, on_done, failures, owner, error)
    if decision.verdict == "given_up":
        logger.error(
            "wait %s: on_done was given up: its worker died running it %s time(s) "
            "(killed: out of memory, a hard time limit?), %d more time(s) it "
            "raised, past its max_retries %s; its outcome was %s",
            wait_id,
            decision.detail,
            failures,
            limit,
            json.dumps(outcome)[:2000],
        )
        return
    if decision.verdict == "busy":
        # Another worker is making the call: come back when its lease would end.
        raise task.retry(countdown=int(decision.detail) / 1000 + 0.01)


def _done_failed(
    tasks: WaitTasks,
    task: Any,
    wait_id: str,
    outcome: Any,
    on_done: dict[str, Any],
    failures: int,
    owner: str,
    error: Exception,
) -> NoReturn:
    """The on_done body raised `error` (its `failures`-th failure before this one):
    retry it by its task's policy, or record it failed. The runners that died in
    it count as failures too (`_deaths`), as they do when a rerun is claimed:
    else a body that killed its worker, then raised, ran up to twice its
    `max_retries`."""
    user = tasks.app.tasks.get(str(on_done.get("task")))
    limit = _on_done_max_retries(tasks, on_done)
    delay = _on_done_retry_delay(tasks, getattr(user, "default_retry_delay", 180))
    deaths = 0 if limit is None else _deaths(tasks, wait_id)
    if limit is not None and failures + deaths >= limit:
        guard = tasks.guard()
        retry_redis(
            lambda: guard.delivered(wait_id, owner, tasks.keep, how="failed"),
            f"wait {wait_id}: recording on_done failed",
            tasks.lease,
        )
        logger.error(
            "wait %s: on_done failed %d time(s) (%d of them its worker died), "
            "given up; its outcome was %s",
            wait_id,
            failures + 1 + deaths,
            deaths,
            json.dumps(outcome)[:2000],
        )
        raise error
    kwargs = {**(task.request.kwargs or {}), "failures": failures + 1}
    raise task.retry(exc=error, countdown=delay, kwargs=kwargs) from error


def _deaths(tasks: WaitTasks, wait_id: str) -> int:
    """How many runners died in the wait's on_done body (0 when Redis is away:
    the retry then counts only the raises, as before)."""
    try:
        return tasks.guard().reruns(wait_id)
    except REDIS_OUTAGES:
        return 0


def _on_done_max_retries(tasks: WaitTasks, on_done: dict[str, Any]) -> int | None:
    """How many failures of the on_done body are retried: its task's
    `max_retries` (Celery's default 3 when it is not registered here; None:
    without end)."""
    user = tasks.app.tasks.get(str(on_done.get("task")))
    limit: int | None = getattr(user, "max_retries", 3)
    return limit


def _on_done_retry_delay(tasks: WaitTasks, delay: float | None) -> float:
    """The countdown of an on_done retry: its task's `default_retry_delay`, kept
    below half the Redis broker's visibility timeout (the broker would deliver
    a longer one twice), with a warning when that shortens it."""
    wanted = 180.0 if delay is None else float(delay)
    if _redis_broker(tasks.app) is None:
        return wanted
    cap = visibility_timeout(tasks.app) / 2
    if wanted <= cap:
        return wanted
    logger.warning(
        "on_done is retried after %gs, not its default_retry_delay %gs: the Redis "
        "broker's visibility_timeout %gs would deliver a longer countdown twice",
        cap,
        wanted,
        visibility_timeout(tasks.app),
    )
    return cap


def _publish(
    task: Any,
    args: tuple[Any, ...],
    countdown: float,
    queue: str | None,
    retries: int = 0,
) -> None:
    """Send a poll message; `retries` counts how often this poll was put back."""
    options: dict[str, Any] = {"countdown": max(0.0, countdown)}
    if retries:
        options["retries"] = retries
    if queue is not None:
        options["queue"] = queue
    task.apply_async(args=args, **options)


def _saved(state: Any) -> tuple[SavedWait | None, str]:
    """The message's saved wait, or None and why it is not one. The message (and
    the record's copy of it, which the sweep publishes) is input to check: text
    that is not a saved wait, or no text at all, ends the wait with that reason
    instead of failing the task, which would leave the wait to the sweep again."""
    if not isinstance(state, (str, bytes)):
        return (
            None,
            f"a JSON {type(state).__name__}, not the text SavedWait.to_json() writes",
        )
    try:
        saved = SavedWait.from_json(state)
    except WaiterConfigurationError as error:
        return None, str(error)
    if not math.isfinite(saved.deadline):
        # A custom waiter's wait capped by max_attempts reads, but `start_wait`
        # never writes one: its record could not expire.
        return None, "it has no deadline, which a wait on Celery always has"
    return saved, ""


def _poll_once(
    waiter: str, client: str, saved: SavedWait, trusted: Trusted
) -> PollStep[Any]:
    """`poll_once` on this process's waiter for (waiter, client), its names imported
    only from the `trusted` packages: sync, or on the loop."""
    instance = _waiter(waiter, client, trusted)
    if isinstance(instance, AsyncWaiter):
        step: PollStep[Any] = loop.run(instance.poll_once(saved))
        return step
    return instance.poll_once(saved)


_waiters: dict[
    tuple[str, str, Trusted, int], Waiter[Any, Any] | AsyncWaiter[Any, Any]
] = {}
_waiters_lock = threading.Lock()


def _waiter(
    waiter: str, client: str, trusted: Trusted
) -> Waiter[Any, Any] | AsyncWaiter[Any, Any]:
    """One waiter object per (waiter, client factory, trusted packages) per process,
    its client made once."""
    key = (waiter, client, trusted, os.getpid())
    with _waiters_lock:
        found = _waiters.get(key)
        if found is None:
            cls = resolve_waiter(waiter, trusted)
            factory = resolve_client_factory(client, trusted)
            if issubclass(cls, AsyncWaiter):
                found = cls(loop.run(_async_client(factory)))
            else:
                found = cls(factory())
            _waiters[key] = found
        return found


async def _async_client(factory: Any) -> Any:
    """The factory's client, made on the loop: awaited, and entered if a context manager."""
    made = factory()
    if inspect.isawaitable(made):
        made = await made
    enter = getattr(made, "__aenter__", None)
    if callable(enter):
        # Kept open for the life of the process (aiobotocore's create_client()).
        made = await enter()
    return made
