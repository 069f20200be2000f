"""waitable.celery against a real Redis and worker: outcomes, duplicates, lost messages, bad calls."""

from __future__ import annotations

import functools
import json
import logging
import math
import time
import types
import uuid
from typing import Any

import pytest

from conftest import THING_CLIENT as CLIENT
from conftest import (
    start_thing_wait as _start,
    wait_for_outcomes,
    wait_for_redis_time_past,
)
from waitable import WaiterConfigurationError
from waitable.celery import WaitGuard, installed, start_wait
from waitable.celery import lease as leases


def test_outcomes_of_sync_and_async_waiters(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from fake_service import ThingService

    service = ThingService(redis_server.url)
    tag = uuid.uuid4().hex
    service.plan(f"ok-{tag}", "ready", 3)
    service.plan(f"bad-{tag}", "broken", 2)
    service.plan(f"async-{tag}", "ready", 2)
    start_worker()
    ids = {
        "ok": _start(wait_app, f"ok-{tag}"),
        "bad": _start(wait_app, f"bad-{tag}"),
        "late": _start(wait_app, f"late-{tag}", max_wait_time=1.0),
        "async": _start(
            wait_app,
            f"async-{tag}",
            "fake_service:AsyncThingReadyWaiter",
            client="fake_service:make_async_client",
        ),
    }
    got = wait_for_outcomes(redis_server, list(ids.values()), limit=60)
    ok, bad, late, asynchronous = (got[ids[k]] for k in ("ok", "bad", "late", "async"))
    assert (
        ok["ok"]
        and ok["result"]["state"] == "success"
        and ok["result"]["attempts"] == 3
    )
    assert ok["result"]["output"] == {"Status": "READY", "Name": f"ok-{tag}"}
    assert ok["waiter"] == "fake_service:ThingReadyWaiter" and ok["error"] is None
    assert not bad["ok"] and bad["error"]["type"] == "WaiterFailureStateError"
    assert bad["error"]["result"]["attempts"] == 2
    assert not late["ok"] and late["error"]["type"] == "WaiterTimeoutError"
    assert late["deadline"] - late["started_at"] == 1.0
    assert asynchronous["ok"] and asynchronous["result"]["attempts"] == 2
    # One poll per attempt: nothing was polled twice here.
    assert int(redis_server.client.hget(f"thing:ok-{tag}", "polls")) == 3


def test_a_duplicated_poll_message_changes_nothing(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """A second copy of a poll (a redelivery) is dropped: one chain, one on_done message and run."""
    from fake_service import ThingService

    name = f"dup-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 4)
    wait_id = _start(wait_app, name)
    queued = redis_server.client.lrange("celery", 0, -1)
    (first,) = [m for m in queued if wait_id.encode() in m]
    redis_server.client.rpush("celery", first)  # the same message, delivered twice
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["ok"] and outcome["result"]["attempts"] == 4
    assert int(redis_server.client.hget(f"thing:{name}", "polls")) == 4
    assert int(redis_server.client.hget("done:messages", wait_id)) == 1
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_a_poll_that_outlasts_its_lease_is_not_run_again_by_a_copy(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The poll's lease is renewed while its call runs: a copy another worker takes
    meanwhile waits for it (it would run the poll again once the lease ran out),
    then finds the poll done and is dropped."""
    from fake_service import ThingService

    name = f"slow-{uuid.uuid4().hex}"
    tasks = installed(wait_app.app)
    assert tasks is not None
    lease = tasks.lease
    ThingService(redis_server.url).plan(name, "ready", 2, slow_first=3 * lease)
    wait_id = _start(wait_app, name)
    queued = redis_server.client.lrange("celery", 0, -1)
    (first,) = [m for m in queued if wait_id.encode() in m]
    redis_server.client.rpush("celery", first)  # a copy, for the second worker
    start_worker()
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=60)[wait_id]
    assert outcome["ok"] and outcome["result"]["attempts"] == 2
    assert int(redis_server.client.hget(f"thing:{name}", "polls")) == 2
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_a_lost_poll_message_is_published_again(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The message vanishes from the broker (as when a worker dies right after BRPOP)."""
    from fake_service import ThingService

    name = f"lost-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 2)
    wait_id = _start(wait_app, name)
    queued = redis_server.client.lrange("celery", 0, -1)
    (first,) = [m for m in queued if wait_id.encode() in m]
    assert redis_server.client.lrem("celery", 0, first) == 1
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["ok"] and outcome["result"]["attempts"] == 2


def test_start_wait_refuses_what_a_worker_could_not_run(
    redis_server: Any, wait_app: Any
) -> None:
    from celery import Celery

    with pytest.raises(WaiterConfigurationError, match="install"):
        start_wait(
            Celery(broker=redis_server.url),
            "fake_service:ThingReadyWaiter",
            {},
            client=CLIENT,
            max_wait_time=5,
        )
    with pytest.raises(WaiterConfigurationError, match="cannot be imported"):
        _start(wait_app, "x", "fake_service:NoSuchWaiter")
    with pytest.raises(WaiterConfigurationError, match="neither registered"):
        _start(wait_app, "x", client="make_client")
    with pytest.raises(WaiterConfigurationError, match="subclass of waitable.Waiter"):
        _start(wait_app, "x", "fake_service:ThingService")
    with pytest.raises(WaiterConfigurationError, match="visibility_timeout 3s"):
        _start(wait_app, "x", max_delay=3.0)


def test_the_wait_record_decides_between_copies(redis_server: Any) -> None:
    """The Lua checks: one lease holder, stale copies dropped, the first outcome kept."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    wait = "w"
    assert guard.begin(wait, 0, "a", lease=30, ttl=60).verdict == "run"
    busy = guard.begin(wait, 0, "b", lease=30, ttl=60)
    assert busy.verdict == "busy" and 0 < int(busy.detail) <= 30_000
    guard.advance(
        wait, 0, "a", json.dumps({"args": [], "queue": None}), overdue_at=1e12
    )
    assert guard.begin(wait, 0, "b", lease=30, ttl=60).verdict == "stale"
    assert guard.begin(wait, 1, "c", lease=30, ttl=60).verdict == "run"
    assert guard.finish(wait, "c", '{"ok":true}', ttl=60).detail == '{"ok":true}'
    assert guard.finish(wait, "d", '{"ok":false}', ttl=60).verdict == "ended"
    # The finisher died before publishing on_done: once its lease ends, a copy resends.
    guard.client.hset(guard.key(wait), "until", 0)
    resend = guard.begin(wait, 1, "e", lease=30, ttl=60)
    assert (resend.verdict, resend.detail) == ("resend", '{"ok":true}')
    guard.sent(wait, ttl=60)
    assert guard.begin(wait, 2, "f", lease=30, ttl=60).verdict == "ended"
    assert guard.sweep(now=2e12, retry_at=3e12) == []


def test_the_poll_lease_is_kept_while_its_call_runs_and_ends_after(
    redis_server: Any,
) -> None:
    """Renewed every third of its length while held (a copy is `busy` four lengths
    on); once the block ends it runs out, and a copy takes the poll over."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    lease = 0.2
    assert guard.begin("w", 0, "a", lease, ttl=60).verdict == "run"
    renew = functools.partial(guard.renew_poll, "w", "a", lease)
    with leases.holding(renew, lease, "poll"):
        wait_for_redis_time_past(guard, int(lease * 4 * 1000))
        assert guard.begin("w", 0, "b", lease, ttl=60).verdict == "busy"
    wait_for_redis_time_past(guard, int(lease * 1000) + 5)
    assert guard.begin("w", 0, "b", lease, ttl=60).verdict == "run"
    assert not guard.renew_poll("w", "a", lease), "a's lease is b's now"
    assert guard.renew_poll("w", "b", lease)
    guard.advance("w", 0, "b", "{}", overdue_at=0)
    assert not guard.renew_poll("w", "b", lease), "an advanced poll holds no lease"


def test_a_lost_lease_is_no_longer_renewed_and_a_failed_renewal_is_retried(
    caplog: pytest.LogCaptureFixture,
) -> None:
    keeper = leases._Keeper()
    calls: list[str] = []

    def away() -> bool:
        calls.append("away")
        raise ConnectionError("Redis is away")

    def lost_it() -> bool:
        calls.append("lost")
        return False

    lost = leases._Lease(lost_it, 1.0, "wait x", math.inf)
    failing = leases._Lease(away, 1.0, "wait y", math.inf)
    ended = leases._Lease(lost_it, 1.0, "wait z", math.inf)  # its block is over
    keeper._held.update((lost, failing))
    with caplog.at_level(logging.WARNING, logger="waitable.celery"):
        keeper._renew(lost)
        keeper._renew(failing)
        keeper._renew(ended)
    assert calls == ["lost", "away", "lost"]
    assert keeper._held == {failing}, "kept for the next round"
    messages = [record.getMessage() for record in caplog.records]
    assert "wait x: the lease was lost" in messages
    assert "wait y: renewing its lease" in messages
    assert not any(message.startswith("wait z") for message in messages)


def test_a_poll_lease_is_not_renewed_past_the_deadline(redis_server: Any) -> None:
    """Past the wait's deadline a copy may take the poll over (and end the wait),
    however long the first copy's call hangs."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    lease = 0.2
    assert guard.begin("w", 0, "a", lease, ttl=60).verdict == "run"
    renew = functools.partial(guard.renew_poll, "w", "a", lease)
    with leases.holding(renew, lease, "poll", until=time.time()):
        wait_for_redis_time_past(guard, int(lease * 2 * 1000))
        assert guard.begin("w", 0, "b", lease, ttl=60).verdict == "run"


def test_a_poll_whose_call_hangs_past_the_deadline_ends_in_a_timeout(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """A copy takes the poll over once its lease runs out after the deadline, and
    ends the wait without calling the service, while the first call still hangs."""
    from fake_service import ThingService

    name = f"hung-{uuid.uuid4().hex}"
    tasks = installed(wait_app.app)
    assert tasks is not None
    service = ThingService(redis_server.url)
    service.plan(name, "ready", 2, slow_first=60)
    hung, other = start_worker(), start_worker()  # first: the deadline runs from start
    wait_id = _start(wait_app, name, max_wait_time=3.0)
    record = redis_server.client.hget(f"waitable:{wait_id}", "next")
    copy = json.loads(record)  # published again, as the sweep would
    tasks.task.apply_async(args=tuple(copy["args"]))
    limit = 3.0 + tasks.lease * 5  # the deadline, the lease, the copy's countdowns
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=limit)[wait_id]
    assert not outcome["ok"] and outcome["error"]["type"] == "WaiterTimeoutError"
    polls = redis_server.client.hget(f"thing:{name}", "polls")
    assert polls == b"1", "the first call hangs; the copy made none"
    hung.kill()
    other.kill()


def test_a_lease_ends_its_renewals_by_the_monotonic_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`until` is given in wall-clock seconds and kept on the monotonic clock, so a
    step of the worker's clock neither ends the renewals early nor prolongs them."""
    clocks = types.SimpleNamespace(time=lambda: 1_000_000.0, monotonic=lambda: 50.0)
    monkeypatch.setattr(leases, "time", clocks)
    keeper = leases._Keeper()
    lease = leases._Lease(lambda: True, 30.0, "wait m", 1_000_000.0 + 3600)
    keeper.add(lease)
    try:
        assert lease.until == 50.0 + 3600
    finally:
        keeper.remove(lease)
