"""A Celery app whose worker runs waits that outlive any one process (waitable.celery).

Worker: `PYTHONPATH=build:examples .venv/bin/celery -A celery_worker worker -P solo -l INFO`
(after the quick start's `generate-waiters examples/spec_examples.json -o build/demo_waiters`,
with a Redis at WAITABLE_REDIS_URL, default redis://127.0.0.1:6379/0). The "service"
is a counter in Redis: a thing exists from its third GetThing on.
"""

from __future__ import annotations

import os
from typing import Any

import redis
from celery import Celery

from waitable.celery import install

URL = os.environ.get("WAITABLE_REDIS_URL", "redis://127.0.0.1:6379/0")

app = Celery("celery_worker", broker=URL)
app.conf.update(
    task_acks_late=True,  # a poll is acknowledged after it ran: a killed worker loses none
    task_reject_on_worker_lost=True,
    # Longer than any poll's countdown (max_delay) plus the poll itself.
    broker_transport_options={"visibility_timeout": 3600},
)
# Registers waitable.poll, waitable.done and the sweep for lost messages; names in
# messages are imported only from these packages (a forged message cannot make the
# worker import other modules or call other functions).
install(app, import_from=("demo_waiters", "celery_worker"))


def thing_client() -> Any:
    """The client factory the worker calls by name: GetThing on the simulated service."""
    store = redis.Redis.from_url(URL)

    def get_thing(request: Any) -> dict[str, Any]:
        polls = store.incr(f"example:thing:{request['name']}")
        return {"status": "success" if polls >= 3 else "pending"}

    return get_thing


@app.task(name="example.report", ignore_result=True)
def report(outcome: dict[str, Any], label: str) -> None:
    """`on_done`: run once per wait with its outcome as JSON data.

    It runs inside `waitable.done` in a worker that consumes its queue (routing
    as for the task itself), so that worker must import this module. Run twice
    only if that worker dies while it runs: keep its effect idempotent if that
    matters (an upsert keyed by `outcome["wait_id"]`).
    """
    if outcome["ok"]:
        result = outcome["result"]
        print(f"{label}: {result['state']} after {result['attempts']} polls")
    else:
        print(f"{label}: {outcome['error']['type']}: {outcome['error']['message']}")
