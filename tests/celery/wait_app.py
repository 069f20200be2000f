"""The Celery app the test workers run: the waitable tasks and `on_done` bodies that count in Redis.

Configured for quick redelivery: `acks_late`, a 3 s Redis visibility timeout and
a restore sweep every second, so a message left by a killed worker runs again soon.
Every `on_done` body counts its runs per wait in `done:runs` (the side effect
the tests check is exactly one per wait), and each `waitable.done` message run
is counted in `done:messages`.
"""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import redis
from celery import Celery, signals

from waitable.celery import DONE_TASK, install

URL = os.environ["WAIT_TEST_REDIS_URL"]
VISIBILITY_TIMEOUT = 3

#: The Celery settings of the test apps (`trusted_app` shares them).
SETTINGS: dict[str, Any] = {
    "task_acks_late": True,
    "task_reject_on_worker_lost": True,
    "worker_prefetch_multiplier": 1,
    "broker_connection_retry_on_startup": True,
    "broker_transport_options": {
        "visibility_timeout": VISIBILITY_TIMEOUT,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    },
    "worker_hijack_root_logger": False,
}
#: `install`'s settings for the test apps.
INSTALL: dict[str, Any] = {"lease": 2.0, "keep": 600.0, "sweep_every": 1.0}

app = Celery("wait_app", broker=URL)
app.conf.update(
    SETTINGS,
    # No worker consumes "routed" until a test starts one (see the lost message test).
    task_routes={"wait_app.routed_outcome": {"queue": "routed"}},
)
install(app, **INSTALL)

_records = redis.Redis.from_url(URL)


def _record(outcome: dict[str, Any], tag: str) -> None:
    """The side effect of every on_done body: one run counted, the first outcome kept."""
    wait_id = outcome["wait_id"]
    pipe = _records.pipeline()
    pipe.hincrby("done:runs", wait_id, 1)
    pipe.hsetnx("done:outcome", wait_id, json.dumps(outcome))
    pipe.hsetnx("done:at", wait_id, repr(time.time()))
    pipe.hsetnx("done:tag", wait_id, tag)
    pipe.hset("done:pid", wait_id, os.getpid())
    pipe.execute()


@app.task(name="wait_app.record_outcome", ignore_result=True)
def record_outcome(outcome: dict[str, Any], tag: str = "") -> None:
    """`on_done`: count the run and keep the outcome."""
    _record(outcome, tag)


@app.task(name="wait_app.routed_outcome", ignore_result=True)
def routed_outcome(outcome: dict[str, Any]) -> None:
    """`on_done` routed by `task_routes` to the "routed" queue."""
    _record(outcome, "routed")


@app.task(
    name="wait_app.flaky_outcome",
    ignore_result=True,
    max_retries=3,
    default_retry_delay=0.1,
)
def flaky_outcome(outcome: dict[str, Any], fail: int) -> None:
    """`on_done` that raises on its first `fail` calls (counted in `done:tries`)."""
    tries = _records.hincrby("done:tries", outcome["wait_id"], 1)
    if tries <= fail:
        raise RuntimeError(f"flaky on_done: call {tries} of {fail} failing")
    _record(outcome, "flaky")


@app.task(name="wait_app.dying_outcome", ignore_result=True)
def dying_outcome(outcome: dict[str, Any]) -> None:
    """`on_done` whose first run, after its side effect, SIGKILLs its own worker."""
    _record(outcome, "dying")
    if _records.delete(f"die:{outcome['wait_id']}"):
        os.kill(os.getpid(), signal.SIGKILL)


@app.task(name="wait_app.doomed_outcome", ignore_result=True, max_retries=1)
def doomed_outcome(outcome: dict[str, Any]) -> None:
    """`on_done` that SIGKILLs its worker on every run, after counting it (as a
    body the OOM killer ends each time)."""
    _record(outcome, "doomed")
    os.kill(os.getpid(), signal.SIGKILL)


@signals.task_prerun.connect
def _count_done_messages(sender: Any = None, args: Any = (), **_: Any) -> None:
    if getattr(sender, "name", None) == DONE_TASK and args:
        _records.hincrby("done:messages", args[0], 1)


@signals.worker_ready.connect
def _ready(sender: Any = None, **_: Any) -> None:
    _records.set(f"worker:ready:{sender.hostname}", os.getpid(), ex=600)
