"""A Celery app whose wait records live in a second Redis, which the tests stop and start.

The broker (and the tests' counters) stay on the session's redis-server
(`WAIT_TEST_REDIS_URL`); `install(app, redis_url=WAIT_TEST_RECORDS_URL)` puts
the per-wait records on the other one. `recover_after` is an hour, so the sweep
never stands in for a poll the tests expect the task itself to bring back.
Every retry and failure of the waitable tasks is counted per wait
(`blip:retries`, `blip:failures`), so a test sees the worker meet the outage.
"""

from __future__ import annotations

import os
from typing import Any

import redis
from celery import Celery, signals

from waitable.celery import DONE_TASK, POLL_TASK, install

URL = os.environ["WAIT_TEST_REDIS_URL"]
RECORDS_URL = os.environ["WAIT_TEST_RECORDS_URL"]

app = Celery("blip_app", broker=URL)
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    broker_transport_options={
        "visibility_timeout": 30,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    },
    worker_hijack_root_logger=False,
)
install(
    app,
    redis_url=RECORDS_URL,
    lease=20.0,
    keep=600.0,
    recover_after=3600.0,
    sweep_every=1.0,
)

_counters = redis.Redis.from_url(URL)


@app.task(name="blip_app.record_outcome", ignore_result=True)
def record_outcome(outcome: dict[str, Any]) -> None:
    """`on_done`: count the run."""
    _counters.hincrby("done:runs", outcome["wait_id"], 1)


@app.task(name="blip_app.outage_outcome", ignore_result=True, default_retry_delay=0.1)
def outage_outcome(outcome: dict[str, Any]) -> None:
    """`on_done` that counts its run, then, the first time, shuts the records' Redis
    down (the test starts it again): the body has run, its record is still to be written.
    """
    if _counters.hincrby("done:runs", outcome["wait_id"], 1) > 1:
        return
    try:
        redis.Redis.from_url(RECORDS_URL).shutdown(save=True)
    except redis.ConnectionError:
        pass  # it closed the connection on its way down


def _wait_id(sender: Any, request: Any) -> str | None:
    """The wait a waitable task run is about (its first argument)."""
    if getattr(sender, "name", None) not in (POLL_TASK, DONE_TASK):
        return None
    args = getattr(request, "args", None) or ()
    return str(args[0]) if args else None


@signals.task_retry.connect
def _count_retry(sender: Any = None, request: Any = None, **_: Any) -> None:
    wait_id = _wait_id(sender, request)
    if wait_id is not None:
        _counters.hincrby("blip:retries", wait_id, 1)


@signals.task_failure.connect
def _count_failure(sender: Any = None, args: Any = (), **_: Any) -> None:
    if getattr(sender, "name", None) in (POLL_TASK, DONE_TASK) and args:
        _counters.hincrby("blip:failures", str(args[0]), 1)


@signals.worker_ready.connect
def _ready(sender: Any = None, **_: Any) -> None:
    _counters.set(f"worker:ready:{sender.hostname}", os.getpid(), ex=600)
