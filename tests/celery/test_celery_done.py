"""`on_done` once per wait: `waitable.done` copies, expired and renewed leases, failures, routing.

The first tests run `waitable.done` in this process (Celery's `apply()`) and the
lease protocol directly against the real redis-server; the others run workers.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from conftest import wait_for_outcomes, wait_for_redis_time_past
from waitable.celery import DONE_TASK, WaitGuard, start_wait
from waitable.celery.delivery import deliver
from waitable.celery.guard import Decision

CLIENT = "fake_service:make_client"
WAITER = "fake_service:ThingReadyWaiter"


def _runs(server: Any, wait_id: str) -> int:
    return int(server.client.hget("done:runs", wait_id) or 0)


def _apply_done(wait_app: Any, wait_id: str, on_done: Any) -> None:
    """One `waitable.done` message for `wait_id`, run here as a worker would run it."""
    outcome = {"wait_id": wait_id, "ok": True, "result": None, "error": None}
    wait_app.app.tasks[DONE_TASK].apply(
        args=(wait_id, outcome, dict(on_done)), throw=True
    )


def test_the_same_waitable_done_twice_runs_on_done_once(
    redis_server: Any, wait_app: Any
) -> None:
    wait_id = f"twice-{uuid.uuid4().hex}"
    on_done = wait_app.record_outcome.s(tag="twice")
    _apply_done(wait_app, wait_id, on_done)
    _apply_done(wait_app, wait_id, on_done)
    assert int(redis_server.client.hget("done:messages", wait_id)) == 2
    assert _runs(redis_server, wait_id) == 1
    record = redis_server.client.hgetall(f"waitable:{wait_id}")
    assert record[b"delivered"] == b"ran" and b"runner" not in record


def test_an_expired_lease_runs_on_done_again(redis_server: Any, wait_app: Any) -> None:
    """A runner that died mid-call (after its side effect) leaves a lease that runs out."""
    wait_id = f"expired-{uuid.uuid4().hex}"
    guard = _guard(wait_app)
    assert guard.claim(wait_id, "dead-runner", lease=0.001, ttl=60).verdict == "run"
    wait_app.record_outcome({"wait_id": wait_id})  # the dead runner's body ran...
    wait_for_redis_time_past(guard, 5)  # ...and it never renewed nor recorded it
    on_done = wait_app.record_outcome.s(tag="expired")
    _apply_done(wait_app, wait_id, on_done)
    _apply_done(wait_app, wait_id, on_done)
    assert _runs(redis_server, wait_id) == 2


def test_a_live_lease_makes_a_copy_wait_and_run_nothing(redis_server: Any) -> None:
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    calls: list[str] = []
    assert guard.claim("w", "runner", lease=30, ttl=60).verdict == "run"
    busy = deliver(guard, "w", "copy", 30, 60, lambda: calls.append("copy"))
    assert busy.verdict == "busy" and 0 < int(busy.detail) <= 30_000
    assert guard.delivered("w", "runner", ttl=60)
    late = deliver(guard, "w", "late", 30, 60, lambda: calls.append("late"))
    assert late == Decision("delivered", "ran")
    assert calls == []


def test_the_lease_is_renewed_while_on_done_runs(redis_server: Any) -> None:
    """A call that lasts several leases keeps its lease: a copy meanwhile is `busy`."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    lease = 0.2
    seen: list[str] = []

    def slow_call() -> None:
        wait_for_redis_time_past(guard, int(lease * 4 * 1000))
        seen.append(guard.claim("w", "copy", lease, ttl=60).verdict)

    assert deliver(guard, "w", "runner", lease, 60, slow_call).verdict == "run"
    assert seen == ["busy"]
    assert guard.claim("w", "after", lease, ttl=60).verdict == "delivered"


def test_a_call_that_raises_frees_the_lease_and_delivers_nothing(
    redis_server: Any,
) -> None:
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")

    def failing() -> None:
        raise ValueError("the user's on_done failed")

    with pytest.raises(ValueError, match="on_done failed"):
        deliver(guard, "w", "runner", 30, 60, failing)
    assert guard.claim("w", "retry", 30, ttl=60).verdict == "run"


def test_on_done_that_raises_is_retried_by_its_own_policy(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """Raises twice then runs: one run. Raises always: max_retries + 1 tries, then `failed`."""
    from fake_service import ThingService

    service = ThingService(redis_server.url)
    start_worker()
    ids = {}
    for fail in (2, 99):
        name = f"flaky-{fail}-{uuid.uuid4().hex}"
        service.plan(name, "ready", 1)
        ids[fail] = start_wait(
            wait_app.app,
            WAITER,
            {"Name": name},
            client=CLIENT,
            max_wait_time=30,
            min_delay=0.05,
            max_delay=0.2,
            on_done=wait_app.flaky_outcome.s(fail=fail),
        )
    wait_for_outcomes(redis_server, [ids[2]], limit=30)
    assert int(redis_server.client.hget("done:tries", ids[2])) == 3
    assert _runs(redis_server, ids[2]) == 1
    record = f"waitable:{ids[99]}"
    end = time.monotonic() + 30
    while redis_server.client.hget(record, "delivered") is None:
        assert time.monotonic() < end, redis_server.client.hgetall(record)
        time.sleep(0.1)
    assert redis_server.client.hget(record, "delivered") == b"failed"
    assert int(redis_server.client.hget("done:tries", ids[99])) == 4  # max_retries=3
    assert _runs(redis_server, ids[99]) == 0


def test_a_lost_done_message_is_published_again_to_its_route(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """`waitable.done` goes where `task_routes` sends the on_done task; lost, it comes back."""
    from fake_service import ThingService

    name = f"lostdone-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    start_worker()  # the "celery" queue only: the polls
    wait_id = start_wait(
        wait_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=30,
        min_delay=0.05,
        max_delay=0.2,
        on_done=wait_app.routed_outcome.s(),
    )
    end = time.monotonic() + 30
    while redis_server.client.hget(f"waitable:{wait_id}", "done") != b"sent":
        assert time.monotonic() < end, "the wait did not end"
        time.sleep(0.05)
    queued = redis_server.client.lrange("routed", 0, -1)
    (message,) = [m for m in queued if wait_id.encode() in m]
    assert DONE_TASK.encode() in message
    assert redis_server.client.lrem("routed", 0, message) == 1  # lost, as after BRPOP
    start_worker(queues=("routed",))
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["ok"] and outcome["result"]["attempts"] == 1
    assert _runs(redis_server, wait_id) == 1


def test_a_worker_killed_inside_on_done_runs_it_again_once(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The one duplicate left: the body's worker dies before it is recorded delivered."""
    from fake_service import ThingService

    name = f"dying-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    start_worker(queues=("celery", "mortal"))
    wait_id = f"dying-{uuid.uuid4().hex}"
    redis_server.client.set(f"die:{wait_id}", 1)
    start_wait(
        wait_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=30,
        min_delay=0.05,
        max_delay=0.2,
        on_done=wait_app.dying_outcome.s().set(queue="mortal"),
        wait_id=wait_id,
    )
    end = time.monotonic() + 30
    while redis_server.client.exists(f"die:{wait_id}"):
        assert time.monotonic() < end, "on_done never ran"
        time.sleep(0.05)
    start_worker(queues=("mortal",))
    record = f"waitable:{wait_id}"
    while redis_server.client.hget(record, "delivered") is None:
        assert time.monotonic() < end + 30, redis_server.client.hgetall(record)
        time.sleep(0.1)
    assert _runs(redis_server, wait_id) == 2


def test_on_done_that_kills_its_worker_each_time_is_given_up_after_max_retries(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """Each death left the lease to run out and the next copy ran the body again,
    without end (a body the OOM killer ends every time ran every lease, or every
    `recover_after` once Celery had acknowledged it). A rerun after a death
    counts as one of the body's failures: past its task's `max_retries` (1 here)
    the wait is recorded failed and the body not run again."""
    from fake_service import ThingService

    name = f"doomed-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    worker = start_worker(queues=("celery", "doomed"))
    wait_id = start_wait(
        wait_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=30,
        min_delay=0.05,
        max_delay=0.2,
        on_done=wait_app.doomed_outcome.s().set(queue="doomed"),
    )
    record = f"waitable:{wait_id}"
    end = time.monotonic() + 90
    while redis_server.client.hget(record, "delivered") is None:
        assert _runs(redis_server, wait_id) <= 3, "the body ran again and again"
        assert time.monotonic() < end, redis_server.client.hgetall(record)
        if worker.process.poll() is not None:  # the body killed it: the next one
            worker = start_worker(queues=("doomed",))
        time.sleep(0.1)
    assert redis_server.client.hget(record, "delivered") == b"failed"
    assert _runs(redis_server, wait_id) == 2  # the first run and one rerun


def _guard(wait_app: Any) -> WaitGuard:
    from waitable.celery import installed

    tasks = installed(wait_app.app)
    assert tasks is not None
    guard: WaitGuard = tasks.guard()
    return guard


@pytest.mark.filterwarnings("ignore::celery.exceptions.CDeprecationWarning")
def test_waitable_done_is_routed_as_the_on_done_signature() -> None:
    """The task's own options (Celery 5's deprecated `queue=`), then the signature's.

    `task_routes` entries for the on_done task apply through `route_name` (see the
    lost message test).
    """
    from celery import Celery

    from waitable.celery.delivery import done_options

    app = Celery("routing", broker="memory://")

    @app.task(name="routing.on_done", queue="from-task", time_limit=30)
    def on_done(outcome: Any) -> None:
        """An on_done with its own queue and time limit."""

    signature = on_done.s().set(queue="from-signature", countdown=5, expires=10)
    assert done_options(app, signature, "w") == {
        "queue": "from-signature",
        "time_limit": 30,
        "countdown": 5,
        "task_id": "waitable-done-w",
        "route_name": "routing.on_done",
    }
    assert done_options(app, on_done.s(), "w")["queue"] == "from-task"
    unknown = app.signature("elsewhere.on_done", options={"task_id": "mine"})
    assert done_options(app, unknown, "w") == {
        "task_id": "mine",
        "route_name": "elsewhere.on_done",
    }


def test_the_record_counts_the_runners_that_died(redis_server: Any) -> None:
    """`WaitGuard.reruns` reads what `claim` counts: the failures of an on_done
    body that a raise, counted by `waitable.done` itself, adds to."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    assert guard.reruns("w") == 0  # no record yet
    assert guard.claim("w", "first", lease=0.001, ttl=60).verdict == "run"
    wait_for_redis_time_past(guard, 5)  # it died: its lease ran out
    assert guard.claim("w", "second", lease=0.001, ttl=60) == Decision("rerun", "1")
    assert guard.reruns("w") == 1
