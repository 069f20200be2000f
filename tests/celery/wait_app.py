"""The Celery app the test worker runs: the waitable poll task and an `on_done` that records.

Configured for quick redelivery: `acks_late`, a 3 s Redis visibility timeout and
a restore sweep every second, so a poll left by a killed worker runs again soon.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import redis
from celery import Celery

from waitable.celery import install

URL = os.environ["WAIT_TEST_REDIS_URL"]
VISIBILITY_TIMEOUT = 3

app = Celery("wait_app", broker=URL)
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    broker_transport_options={
        "visibility_timeout": VISIBILITY_TIMEOUT,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    },
    worker_hijack_root_logger=False,
)
install(app, lease=2.0, keep=600.0, sweep_every=1.0)

_records = redis.Redis.from_url(URL)


@app.task(name="wait_app.record_outcome", bind=True, acks_late=True, ignore_result=True)
def record_outcome(self: Any, outcome: dict[str, Any], tag: str = "") -> None:
    """`on_done`: count the runs per wait and the messages (publishes) they came from.

    A message redelivered after a kill keeps its delivery tag, so `done:sent:<id>`
    counts the times `on_done` was published, `done:calls` the times it ran.
    """
    wait_id = outcome["wait_id"]
    delivery_tag = (self.request.properties or {}).get("delivery_tag")
    pipe = _records.pipeline()
    pipe.hincrby("done:calls", wait_id, 1)
    pipe.sadd(f"done:sent:{wait_id}", str(delivery_tag))
    pipe.hsetnx("done:outcome", wait_id, json.dumps(outcome))
    pipe.hsetnx("done:at", wait_id, repr(time.time()))
    pipe.hsetnx("done:tag", wait_id, tag)
    pipe.execute()
