"""The workers' sweep against a real Redis and worker: waits whose next step went
missing are taken up again, whatever state the poll that lost them left.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from conftest import queued, wait_for_outcomes, wait_for_redis_time_past
from conftest import start_thing_wait as _start
from fake_service import ThingService
from waitable.celery import cancel_wait, installed


def test_a_wait_whose_last_poll_failed_after_recording_its_outcome_gets_on_done(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The poll that ended the wait recorded its outcome (`finish`), then raised
    before it published `waitable.done` (the broker away longer than Celery's
    publish retries): Celery acknowledged the failed task, so its message is gone,
    and the record says `sending`. The sweep must publish the poll again, so that
    the copy finds the outcome and sends it on."""
    name = f"sending-{uuid.uuid4().hex}"
    wait_id = _start(wait_app, name)
    (first,) = queued(redis_server, wait_id)
    assert redis_server.client.lrem("celery", 0, first) == 1  # acknowledged, failed
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    assert guard.begin(wait_id, 0, "failed-poll", lease=0.001, ttl=60).verdict == "run"
    outcome = {"wait_id": wait_id, "ok": True, "result": None, "error": None}
    text = json.dumps(outcome)
    assert guard.finish(wait_id, "failed-poll", text, ttl=600).verdict == "send"
    wait_for_redis_time_past(guard, 5)  # its lease ran out: it renews no more
    redis_server.client.zadd(guard.due_key, {wait_id: 0})  # overdue now
    start_worker()
    assert wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id] == outcome
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_a_record_whose_message_is_not_waitables_stops_no_other_wait(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """Redis is shared: a record changed by hand or by another program, due first,
    must not keep the sweep from publishing the other overdue waits (each round
    found it, raised, and put them all off `recover_after`), and is logged with
    its wait's id."""
    name = f"swept-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    wait_id = _start(wait_app, name)
    (first,) = queued(redis_server, wait_id)
    assert redis_server.client.lrem("celery", 0, first) == 1  # the message is lost
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    bad = f"!corrupt-{uuid.uuid4().hex}"  # before wait_id in the index's order
    redis_server.client.hset(guard.key(bad), "next", "not JSON")
    redis_server.client.expire(guard.key(bad), 600)
    redis_server.client.zadd(guard.due_key, {bad: 0, wait_id: 0})  # both overdue
    worker = start_worker()
    assert wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]["ok"]
    assert f"wait {bad}: its Redis record's next message" in worker.log.read_text()


def test_cancel_wait_of_a_record_whose_message_is_not_waitables_is_recorded(
    redis_server: Any, wait_app: Any
) -> None:
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    bad = f"corrupt-{uuid.uuid4().hex}"
    redis_server.client.hset(guard.key(bad), "next", '{"args": 3}')
    redis_server.client.expire(guard.key(bad), 600)
    assert cancel_wait(wait_app.app, bad) is True
    assert redis_server.client.hget(guard.key(bad), "cancel") == b"1"


def test_waits_the_sweep_could_not_publish_are_due_again_at_once(
    redis_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The broker is away during a round (the records on a Redis of their own):
    the sweep had already marked every wait it found as looked at, so those it
    could not publish waited `recover_after` (an hour here) for the next try."""
    from celery import Celery

    from waitable.celery import install, sweep_once
    from waitable.celery import tasks as celery_tasks

    app = Celery("sweep_broker_away", broker=redis_server.url)
    tasks = install(app, key_prefix=f"t{uuid.uuid4().hex}:", recover_after=3600.0)
    guard = tasks.guard()
    waits = [f"away-{n}" for n in range(2)]
    for wait_id in waits:
        args = [wait_id, 0, "pkg.waiters:W", "pkg.clients:c", "{}", None, None]
        message = json.dumps({"args": args, "queue": None})
        redis_server.client.hset(guard.key(wait_id), "next", message)
        redis_server.client.expire(guard.key(wait_id), 600)
        redis_server.client.zadd(guard.due_key, {wait_id: 0})

    def broker_away(tasks: Any, data: Any) -> None:
        raise ConnectionError("the broker is away (the test's)")

    monkeypatch.setattr(celery_tasks, "publish_message", broker_away)
    before = time.time()
    with pytest.raises(ConnectionError):
        sweep_once(tasks)
    for wait_id in waits:
        assert redis_server.client.zscore(guard.due_key, wait_id) < before + 60


@pytest.mark.parametrize(
    "bad",
    [
        # a poll message whose queue is no queue name
        {
            "args": ["{id}", 0, "pkg.waiters:W", "pkg.clients:c", "{}", None, None],
            "queue": {"name": "q"},
        },
        # a waitable.done message whose options Celery refuses
        {
            "task": "waitable.done",
            "args": ["{id}", {"ok": True}, {"task": "t"}],
            "options": {"queue": {"name": "q"}},
        },
    ],
)
def test_a_record_celery_refuses_to_publish_stops_no_other_wait(
    redis_server: Any, bad: dict[str, Any]
) -> None:
    """A record whose message passes the checks of its arguments but holds a
    value Celery refuses (a queue that is no name) raised in `publish_message`,
    which the sweep took for the broker away: every round it put the waits after
    it due again at once and raised, so they were never published."""
    from celery import Celery

    from waitable.celery import install, sweep_once

    app = Celery("sweep_refused", broker=redis_server.url)
    tasks = install(app, key_prefix=f"r{uuid.uuid4().hex}:", recover_after=3600.0)
    guard = tasks.guard()
    queue = f"unconsumed-{uuid.uuid4().hex}"  # no worker takes from it
    good = ["good", 0, "pkg.waiters:W", "pkg.clients:c", "{}", None, queue]
    messages = {
        "bad": json.loads(json.dumps(bad).replace("{id}", "bad")),
        "good": {"args": good, "queue": queue},
    }
    for wait_id, message in messages.items():
        redis_server.client.hset(guard.key(wait_id), "next", json.dumps(message))
        redis_server.client.expire(guard.key(wait_id), 600)
        redis_server.client.zadd(guard.due_key, {wait_id: 0})
    before = time.time()
    assert sweep_once(tasks) == 1  # "good" published, "bad" skipped
    assert len(queued(redis_server, "good", queue)) == 1
    assert redis_server.client.zscore(guard.due_key, "bad") > before + 3000
