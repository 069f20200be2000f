"""A saved wait changed in Redis (untrusted input) against a real Redis and worker:
the wait ends with a `WaiterConfigurationError` naming it and saying why, and does
not fail the task (which would leave the record to the sweep, round after round)."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from conftest import queued, wait_for_outcomes
from conftest import start_thing_wait as _start
from waitable.celery import installed


@pytest.mark.parametrize(
    ("state", "why"),
    [
        (123, "a JSON int, not the text SavedWait.to_json() writes"),
        ('{"version": 1, "waiter": 5}', "waiter"),
    ],
)
def test_a_saved_wait_changed_in_the_record_ends_the_wait_saying_why(
    redis_server: Any, wait_app: Any, start_worker: Any, state: Any, why: str
) -> None:
    wait_id = _start(wait_app, f"changed-{uuid.uuid4().hex}")
    (first,) = queued(redis_server, wait_id)
    assert redis_server.client.lrem("celery", 0, first) == 1  # the sweep's to send
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    message = json.loads(redis_server.client.hget(guard.key(wait_id), "next"))
    message["args"][4] = state  # the saved wait, as the record keeps it
    redis_server.client.hset(guard.key(wait_id), "next", json.dumps(message))
    redis_server.client.zadd(guard.due_key, {wait_id: 0})  # overdue now
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    error = outcome["error"]
    assert error["type"] == "WaiterConfigurationError"
    assert f"wait {wait_id}: poll 0 cannot run" in error["message"]
    assert why in error["message"]
    assert "start the wait again" in error["message"]


def test_a_saved_wait_changed_to_have_no_deadline_ends_the_wait_saying_why(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """A saved wait with no deadline reads (a custom waiter's, capped by
    max_attempts), but `start_wait` never writes one on Celery: its record's
    TTL came out infinite and the task failed with OverflowError, every time the
    sweep published it again."""
    wait_id = _start(wait_app, f"endless-{uuid.uuid4().hex}")
    (first,) = queued(redis_server, wait_id)
    assert redis_server.client.lrem("celery", 0, first) == 1
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    message = json.loads(redis_server.client.hget(guard.key(wait_id), "next"))
    state = json.loads(message["args"][4])
    state.update(max_wait_time=None, deadline=None, max_attempts=5)
    message["args"][4] = json.dumps(state)
    redis_server.client.hset(guard.key(wait_id), "next", json.dumps(message))
    redis_server.client.zadd(guard.due_key, {wait_id: 0})
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["error"]["type"] == "WaiterConfigurationError"
    assert f"wait {wait_id}: poll 0 cannot run" in outcome["error"]["message"]
    assert "no deadline" in outcome["error"]["message"]


def test_a_poll_message_changed_beyond_its_saved_wait_is_refused_naming_the_wait(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """A poll number that is not a number made the record's Lua script raise a
    ResponseError in the worker, each time the sweep published the message
    again; the sweep now refuses the message, naming the wait, and a worker
    drops such a poll with an error naming it."""
    wait_id = _start(wait_app, f"envelope-{uuid.uuid4().hex}")
    (first,) = queued(redis_server, wait_id)
    assert redis_server.client.lrem("celery", 0, first) == 1
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    message = json.loads(redis_server.client.hget(guard.key(wait_id), "next"))
    message["args"][1] = "x"  # the poll number
    redis_server.client.hset(guard.key(wait_id), "next", json.dumps(message))
    redis_server.client.zadd(guard.due_key, {wait_id: 0})
    installed(wait_app.app).task.apply_async(  # type: ignore[union-attr]
        args=message["args"]
    )
    worker = start_worker()
    end = time.monotonic() + 30
    refused = f"wait {wait_id}: its Redis record's next message is not one"
    dropped = f"wait {wait_id!r}: a poll message whose arguments are not"
    while not (refused in (log := worker.log.read_text()) and dropped in log):
        assert time.monotonic() < end, log[-3000:]
        time.sleep(0.1)
    assert "ResponseError" not in worker.log.read_text()
