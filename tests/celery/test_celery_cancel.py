"""`cancel_wait` against a real Redis and worker: a wait on Celery ended early,
its `on_done` told `WaiterCancelledError` with the attempts made, and no poll after."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from conftest import THING_CLIENT as CLIENT
from conftest import queued, wait_for_outcomes
from conftest import start_thing_wait as _start
from waitable import WaiterConfigurationError
from waitable.celery import (
    WaitGuard,
    WaitNotFoundError,
    cancel_wait,
    installed,
)
from waitable.celery import tasks as tasks_module


def _polls(redis_server: Any, name: str) -> int:
    return int(redis_server.client.hget(f"thing:{name}", "polls") or 0)


def test_the_record_takes_a_cancel_until_the_wait_ends(redis_server: Any) -> None:
    """The Lua checks: unknown id; the pending message handed back; the next poll
    to begin takes the lease and is told to end the wait; once ended, too late."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    assert guard.cancel("w").verdict == "unknown"
    first = json.dumps({"args": ["w", 0], "queue": None})
    assert guard.started("w", first, overdue_at=1e12, ttl=60, token="s")
    asked = guard.cancel("w")
    assert (asked.verdict, asked.detail) == ("cancelled", first)
    assert guard.cancel("w").verdict == "cancelled", "asking again changes nothing"
    assert guard.begin("w", 0, "a", lease=30, ttl=60).verdict == "cancel"
    assert guard.begin("w", 0, "b", lease=30, ttl=60).verdict == "busy"
    assert guard.finish("w", "a", '{"ok":false}', ttl=60).verdict == "send"
    guard.sent("w", ttl=60)
    assert guard.cancel("w").verdict == "ended"
    assert guard.begin("w", 1, "c", lease=30, ttl=60).verdict == "ended"


def test_a_poll_that_advances_after_a_cancel_says_so(redis_server: Any) -> None:
    """The poll running when the cancel came learns of it as it records its
    successor, so the successor need not wait out its delay."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    for wait, cancelled in (("plain", False), ("asked", True)):
        assert guard.begin(wait, 0, "a", lease=30, ttl=60).verdict == "run"
        if cancelled:
            assert guard.cancel(wait).verdict == "cancelled"
        assert guard.advance(wait, 0, "a", "{}", overdue_at=1e12) is cancelled
        expected = "cancel" if cancelled else "run"
        assert guard.begin(wait, 1, "b", lease=30, ttl=60).verdict == expected
    # A slow copy of poll 0 that another worker advanced first: not its successor
    # to publish again.
    assert guard.advance("asked", 0, "late", "{}", overdue_at=1e12) is False


def test_a_wait_cancelled_before_its_first_poll_polls_nothing(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The copy `cancel_wait` publishes ends the wait; the first poll's own message
    then finds it ended. on_done runs once, with no attempt in the result."""
    from fake_service import ThingService

    name = f"early-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    wait_id = _start(wait_app, name)
    assert len(queued(redis_server, wait_id)) == 1
    assert cancel_wait(wait_app.app, wait_id) is True
    assert (
        len(queued(redis_server, wait_id)) == 2
    ), "a copy of the pending poll, due now"
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert not outcome["ok"] and outcome["result"] is None
    assert outcome["error"]["type"] == "WaiterCancelledError"
    assert "was cancelled" in outcome["error"]["message"]
    assert outcome["error"]["result"]["attempts"] == 0
    assert _polls(redis_server, name) == 0
    assert cancel_wait(wait_app.app, wait_id) is False, "it has ended"
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_a_running_wait_ends_with_the_attempts_it_made(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """Cancelled between polls of a thing that never gets ready: the outcome holds
    every poll made, and the service sees none after it."""
    from fake_service import ThingService

    name = f"mid-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "never", 1)
    start_worker()
    wait_id = _start(wait_app, name)
    end = time.monotonic() + 30  # a guard against hanging, not a measurement
    while _polls(redis_server, name) < 2 and time.monotonic() < end:
        time.sleep(0.02)
    assert _polls(redis_server, name) >= 2, "the wait did not poll"
    assert cancel_wait(wait_app.app, wait_id) is True
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["error"]["type"] == "WaiterCancelledError"
    made = outcome["error"]["result"]["attempts"]
    assert made >= 2
    history = outcome["error"]["result"]["history"]
    assert [attempt["number"] for attempt in history] == list(range(1, made + 1))
    assert _polls(redis_server, name) == made, "no poll after the outcome"
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_cancel_wait_refuses_an_unknown_id_and_an_app_without_install(
    redis_server: Any, wait_app: Any
) -> None:
    from celery import Celery

    with pytest.raises(WaitNotFoundError, match="no wait 'nope' to cancel") as raised:
        cancel_wait(wait_app.app, "nope")
    assert raised.value.wait_id == "nope"
    assert isinstance(raised.value, WaiterConfigurationError)
    with pytest.raises(WaiterConfigurationError, match="install"):
        cancel_wait(Celery(broker=redis_server.url), "x")


class _Published:
    """Stands in for the poll task: keeps what `apply_async` was given."""

    def __init__(self) -> None:
        self.sent: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def apply_async(self, args: tuple[Any, ...], **options: Any) -> None:
        self.sent.append((args, options))


def test_a_cancel_during_a_poll_has_its_successor_published_due_now(
    redis_server: Any, wait_app: Any
) -> None:
    """The poll that was running when the cancel came publishes its successor with
    its delay, then once more due now (the copy that ends the wait); without a
    cancel, only the delayed one."""
    from fake_service import ThingReadyWaiter

    tasks = installed(wait_app.app)
    assert tasks is not None
    guard = tasks.guard()
    saved = ThingReadyWaiter(_refuse).start({"Name": "x"}, max_wait_time=60, seed=1)
    for cancelled in (False, True):
        wait_id, token = f"advance-{uuid.uuid4().hex}", uuid.uuid4().hex
        assert guard.begin(wait_id, 0, token, lease=30, ttl=60).verdict == "run"
        if cancelled:
            assert cancel_wait(wait_app.app, wait_id) is True
        task = _Published()
        args = (wait_id, 0, "fake_service:ThingReadyWaiter", CLIENT, "{}", None, None)
        tasks_module._advance(tasks, task, args, token, 2.5, saved.to_json())
        countdowns = [options["countdown"] for _, options in task.sent]
        assert countdowns == ([2.5, 0.0] if cancelled else [2.5])
        assert all(sent[0][:2] == (wait_id, 1) for sent in task.sent)


def test_a_cancelled_wait_an_old_worker_puts_back_is_not_hurried(
    redis_server: Any, wait_app: Any
) -> None:
    """A worker that cannot import the waiter cannot end a cancelled wait either:
    it hands the poll on with the put-back's backoff, not due now again and again
    (a copy due now would only come back to a worker of the same release)."""
    from fake_service import ThingReadyWaiter

    tasks = installed(wait_app.app)
    assert tasks is not None
    guard = tasks.guard()
    saved = ThingReadyWaiter(_refuse).start({"Name": "x"}, max_wait_time=60, seed=1)
    wait_id, token = f"old-{uuid.uuid4().hex}", uuid.uuid4().hex
    assert guard.begin(wait_id, 0, token, lease=30, ttl=60).verdict == "run"
    assert cancel_wait(wait_app.app, wait_id) is True
    task = _Published()
    unknown = "waitable_next_release_only:ThingReadyWaiter"
    args = (wait_id, 0, unknown, CLIENT, saved.to_json(), None, None)
    assert tasks_module._put_back(tasks, task, args, token, saved, 0) is True
    assert [options["countdown"] for _, options in task.sent] == [1.0]
    assert task.sent[0][0][:2] == (wait_id, 1)
    assert guard.begin(wait_id, 1, "next", lease=30, ttl=60).verdict == "cancel"


def _refuse(input: Any) -> Any:
    raise AssertionError("start() makes no request")


def test_a_cancel_during_a_slow_poll_ends_the_wait_after_it(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The poll in flight when the cancel comes is answered (not ready) and
    counted; the wait then ends as cancelled without another call. The copy of
    that poll which `cancel_wait` published finds it running and is dropped."""
    from fake_service import ThingService

    name = f"slow-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "never", 1, slow_first=3.0)
    start_worker()
    wait_id = _start(wait_app, name)
    end = time.monotonic() + 30  # a guard against hanging, not a measurement
    while _polls(redis_server, name) < 1 and time.monotonic() < end:
        time.sleep(0.01)
    assert _polls(redis_server, name) == 1, "the first poll did not begin"
    assert cancel_wait(wait_app.app, wait_id) is True
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["error"]["type"] == "WaiterCancelledError"
    assert outcome["error"]["result"]["attempts"] == 1
    assert outcome["error"]["result"]["output"]["Status"] == "PENDING"
    assert _polls(redis_server, name) == 1
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1
