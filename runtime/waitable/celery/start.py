"""`start_wait`: save a new wait and enqueue its first poll on a Celery app.

No request is made here: the waiter's `start()` only computes the deadline and
the delays. The wait then lives in Celery messages until `on_done` is called.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from ..errors import WaiterConfigurationError
from .names import resolve_client_factory, resolve_waiter
from .tasks import installed, message, visibility_timeout

__all__ = ["start_wait"]


def _no_calls(input: Any) -> Any:
    raise AssertionError("start() makes no request")


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
    be JSON data; `on_done` is a Celery signature (or None). `max_wait_time` is a
    wall-clock deadline that travels with the wait.
    """
    tasks = installed(app)
    if tasks is None:
        raise WaiterConfigurationError(
            "call waitable.celery.install(app) where the Celery app is defined "
            "before start_wait(app, ...), so the worker has the poll task too"
        )
    cls = resolve_waiter(waiter)
    resolve_client_factory(client)
    saved = cls(_no_calls).start(
        input,
        max_wait_time=max_wait_time,
        min_delay=min_delay,
        max_delay=max_delay,
        max_attempts=max_attempts,
        seed=seed,
    )
    visibility = visibility_timeout(app) if _redis_broker(app) else None
    if visibility is not None and saved.max_delay >= visibility:
        raise WaiterConfigurationError(
            f"waiter {waiter!r}: max_delay {saved.max_delay:g}s is not below the Redis "
            f"broker's visibility_timeout {visibility:g}s, so a poll waiting for its "
            "countdown would be delivered twice; lower max_delay or raise "
            "broker_transport_options['visibility_timeout']"
        )
    signature = None if on_done is None else dict(app.signature(on_done))
    wait = wait_id or uuid.uuid4().hex
    options: dict[str, Any] = {} if queue is None else {"queue": queue}
    args = (wait, 0, waiter, client, saved.to_json(), signature, queue)
    guard = tasks.guard()
    ttl = saved.max_wait_time + tasks.keep
    guard.started(wait, message(args, queue), time.time() + tasks.recover_after, ttl)
    try:
        tasks.task.apply_async(args=args, **options)
    except BaseException:
        guard.client.delete(guard.key(wait))
        guard.client.zrem(guard.due_key, wait)
        raise
    return wait


def _redis_broker(app: Any) -> bool:
    url = app.conf.broker_url
    return isinstance(url, str) and url.split("://", 1)[0] in ("redis", "rediss")
