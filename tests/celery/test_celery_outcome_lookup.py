"""`wait_outcome` against a real Redis and worker: how a wait on Celery ended, read
back by its id (None while it goes on), the same outcome its `on_done` receives."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from conftest import FAST, THING_CLIENT, THING_WAITER, wait_for_outcomes
from conftest import start_thing_wait as _start
from waitable import WaiterConfigurationError
from waitable.celery import (
    OutcomeNotKeptError,
    WaitGuard,
    WaitNotFoundError,
    installed,
    start_wait,
    wait_outcome,
)


def _outcome_when_ended(app: Any, wait_id: str, limit: float = 30) -> dict[str, Any]:
    """`wait_outcome` once it is not None (bounded by `limit` s of a real worker)."""
    end = time.monotonic() + limit
    while (outcome := wait_outcome(app, wait_id)) is None:
        assert time.monotonic() < end, f"wait {wait_id} did not end in {limit}s"
        time.sleep(0.05)
    return outcome


def test_the_record_says_running_then_keeps_the_outcome_after_on_done_is_sent(
    redis_server: Any,
) -> None:
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    assert guard.outcome("w").verdict == "unknown"
    first = json.dumps({"args": ["w", 0], "queue": None})
    assert guard.started("w", first, overdue_at=1e12, ttl=60, token="s")
    assert guard.outcome("w").verdict == "running"
    assert guard.cancel("w").verdict == "cancelled"
    assert guard.outcome("w").verdict == "running", "asked to end, not ended"
    assert guard.begin("w", 0, "a", lease=30, ttl=60).verdict == "cancel"
    assert guard.finish("w", "a", '{"ok":false}', ttl=60).verdict == "send"
    ended = guard.outcome("w")
    assert (ended.verdict, ended.detail) == ("ended", '{"ok":false}')
    guard.sent("w", ttl=60, done_message='{"args":[]}', overdue_at=1e12)
    assert guard.outcome("w").detail == '{"ok":false}', "kept once on_done is sent"
    assert guard.begin("w", 1, "b", lease=30, ttl=60).verdict == "ended"
    # A record an older release ended, which dropped the outcome once it was sent.
    redis_server.client.hdel(guard.key("w"), "outcome")
    assert (guard.outcome("w").verdict, guard.outcome("w").detail) == ("ended", "")


def test_a_wait_an_older_release_ended_says_its_outcome_was_not_kept(
    redis_server: Any, wait_app: Any
) -> None:
    """Not "no record" (the record is there), and not "its on_done received it" for
    a wait that had none (review s23-diff, finding 4)."""
    wait_id = start_wait(
        wait_app.app,
        THING_WAITER,
        {"Name": "x"},
        client=THING_CLIENT,
        max_wait_time=30.0,
        **FAST,
    )
    tasks = installed(wait_app.app)
    assert tasks is not None
    # What an older release's `_SENT` leaves: done, no outcome.
    redis_server.client.hset(tasks.guard().key(wait_id), "done", "sent")
    with pytest.raises(OutcomeNotKeptError) as raised:
        wait_outcome(wait_app.app, wait_id)
    assert not isinstance(raised.value, WaitNotFoundError)
    assert raised.value.wait_id == wait_id
    assert "has ended, but its record holds no outcome" in str(raised.value)
    assert "(its on_done, if it had one, received the outcome)" in str(raised.value)


def test_a_wait_without_on_done_is_running_until_a_worker_ends_it(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from fake_service import ThingService

    name = f"lookup-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 2)
    wait_id = start_wait(
        wait_app.app,
        THING_WAITER,
        {"Name": name},
        client=THING_CLIENT,
        max_wait_time=30.0,
        **FAST,
    )
    assert wait_outcome(wait_app.app, wait_id) is None, "no worker has polled yet"
    start_worker()
    outcome = _outcome_when_ended(wait_app.app, wait_id)
    assert outcome["ok"] is True and outcome["error"] is None
    assert outcome["wait_id"] == wait_id and outcome["waiter"] == THING_WAITER
    assert outcome["result"]["attempts"] == 2
    assert outcome["result"]["state"] == "success"
    assert wait_outcome(wait_app.app, wait_id) == outcome, "read again: the same"


def test_the_outcome_read_back_is_the_one_on_done_received(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from fake_service import ThingService

    service = ThingService(redis_server.url)
    good, bad = f"good-{uuid.uuid4().hex}", f"bad-{uuid.uuid4().hex}"
    service.plan(good, "ready", 1)
    service.plan(bad, "broken", 2)
    start_worker()
    waits = [_start(wait_app, good), _start(wait_app, bad)]
    received = wait_for_outcomes(redis_server, waits, limit=30)
    for wait_id in waits:
        assert _outcome_when_ended(wait_app.app, wait_id) == received[wait_id]
    assert received[waits[1]]["error"]["type"] == "WaiterFailureStateError"


def test_wait_outcome_refuses_an_unknown_id_and_an_app_without_install(
    redis_server: Any, wait_app: Any
) -> None:
    from celery import Celery

    with pytest.raises(WaitNotFoundError, match="no wait 'nope': its record") as raised:
        wait_outcome(wait_app.app, "nope")
    assert raised.value.wait_id == "nope"
    with pytest.raises(WaitNotFoundError, match="no wait 'due'"):
        wait_outcome(wait_app.app, "due")  # the index's key, never a wait's
    with pytest.raises(WaiterConfigurationError, match="install.*wait_outcome"):
        wait_outcome(Celery(broker=redis_server.url), "x")


@pytest.mark.parametrize("kept", ["not JSON", "[1, 2]"])
def test_an_outcome_changed_in_the_record_is_refused_naming_the_wait(
    redis_server: Any, wait_app: Any, kept: str
) -> None:
    """It raised a bare JSONDecodeError, or returned a list typed as a dict."""
    guard = installed(wait_app.app).guard()  # type: ignore[union-attr]
    wait_id = f"changed-{uuid.uuid4().hex}"
    redis_server.client.hset(
        guard.key(wait_id), mapping={"done": "sent", "outcome": kept}
    )
    redis_server.client.expire(guard.key(wait_id), 600)
    with pytest.raises(WaiterConfigurationError) as raised:
        wait_outcome(wait_app.app, wait_id)
    assert str(raised.value).startswith(f"wait {wait_id!r} has ended, but the outcome")
