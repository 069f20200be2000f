"""End to end: 500 waits on real Celery workers and Redis, the polling worker SIGKILLed twice.

Every wait must end once: its `on_done` body runs exactly once (counted in
Redis) with the outcome its service plan says, and no poll may reach the
service after the wait's deadline, although polls that sat in a dead worker
come back only after the broker's visibility timeout. The kills land among the
polls: `on_done` is routed (`.set(queue="done")`) to a second worker that is
never killed, so no kill lands inside an `on_done` body, the one window in
which a body can run twice (test_celery_done.py shows that case). Copies of
`waitable.done` that a kill leaves (published, not yet recorded) do reach that
worker and must run nothing.
"""

from __future__ import annotations

import random
import time
from typing import Any

from conftest import wait_for_outcomes
from waitable.celery import start_wait
from waitable.flow import START_TOLERANCE

WAITER = "fake_service:ThingReadyWaiter"
CLIENT = "fake_service:make_client"
# (plan, count, max_wait_time): ready/broken after 1-4 polls, or never (a timeout).
PLANS = [("ready", 300, 60.0), ("broken", 100, 60.0), ("never", 100, 6.0)]
EXPECTED_ERROR = {"broken": "WaiterFailureStateError", "never": "WaiterTimeoutError"}
# The spec's final poll is due at the deadline itself, and the engine lets it
# start up to START_TOLERANCE late (a real sleep's slack), never later; it
# checks right before each call, and the fake stamps the call's time a few
# microseconds after: STAMP_GAP covers only that gap.
STAMP_GAP = 0.05
# The worker is SIGKILLed once this many waits have ended, then again.
KILL_AFTER = (50, 150)


def test_500_waits_survive_two_sigkills(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from fake_service import ThingService

    service = ThingService(redis_server.url)
    rng = random.Random(10)
    waits: dict[str, tuple[str, str]] = {}
    latest_deadline: dict[str, float] = {}
    done_worker = start_worker(queues=("done",))
    polls = start_worker()
    for plan, count, max_wait_time in PLANS:
        for _ in range(count):
            name = f"thing-{plan}-{len(waits)}-{rng.randrange(10**9)}"
            if plan != "never":
                service.plan(name, plan, rng.randint(1, 4))
            wait_id = start_wait(
                wait_app.app,
                WAITER,
                {"Name": name},
                client=CLIENT,
                max_wait_time=max_wait_time,
                min_delay=0.05,
                max_delay=0.2,
                on_done=wait_app.record_outcome.s(tag=name).set(queue="done"),
            )
            waits[wait_id] = (name, plan)
            # start() read the clock before this line: its deadline is no later.
            latest_deadline[wait_id] = time.time() + max_wait_time

    orphaned = []
    worker = polls
    for ended_before_kill in KILL_AFTER:
        orphaned.append(
            _kill_mid_run(redis_server, worker, ended_before_kill, len(waits))
        )
        worker = start_worker()

    outcomes = wait_for_outcomes(redis_server, list(waits), limit=120)

    # Each kill left polls the dead worker had taken (unacknowledged) to redeliver.
    assert all(orphaned), orphaned
    runs = _by_wait(redis_server.client.hgetall("done:runs"), waits)
    assert set(runs) == set(waits)
    assert {w: n for w, n in runs.items() if n != 1} == {}
    # Every body ran in the done worker, so waitable.done was routed as on_done.
    pids = _by_wait(redis_server.client.hgetall("done:pid"), waits)
    assert set(pids.values()) == {done_worker.process.pid}
    messages = _by_wait(redis_server.client.hgetall("done:messages"), waits)
    print(
        "waitable.done messages:",
        sum(messages.values()),
        "for",
        len(waits),
        "waits; on_done runs:",
        sum(runs.values()),
    )
    for wait_id, (name, plan) in waits.items():
        outcome = outcomes[wait_id]
        assert outcome["wait_id"] == wait_id
        if plan == "ready":
            assert outcome["ok"], outcome
            assert outcome["result"]["output"]["Name"] == name
            result = outcome["result"]
        else:
            assert not outcome["ok"]
            assert outcome["error"]["type"] == EXPECTED_ERROR[plan], outcome["error"]
            result = outcome["error"]["result"]
        # A "never" wait on a loaded machine may get its first poll delivered only
        # after its 6 s deadline: the engine then makes no call and ends it as a
        # timeout with no attempt (it never polls late). The others end on a poll.
        assert result["attempts"] >= (0 if plan == "never" else 1), (plan, outcome)
        deadline = outcome["deadline"]
        assert deadline <= latest_deadline[wait_id]
        assert deadline - outcome["started_at"] == _max_wait_time(plan)
        stamps = [float(t) for t in redis_server.client.lrange(f"calls:{name}", 0, -1)]
        assert len(stamps) >= min(result["attempts"], 1)
        assert (
            max(stamps, default=deadline) <= deadline + START_TOLERANCE + STAMP_GAP
        ), (
            name,
            stamps,
            deadline,
        )
        limit = _max_wait_time(plan) + START_TOLERANCE
        polls = result["history"]
        if (
            plan == "never"
            and polls
            and polls[-1]["output"] is None
            and not polls[-1]["duration"]
        ):
            polls = polls[:-1]  # the engine's record of the final poll it did not make
        late = [a for a in polls if a["started_at"] > limit]
        assert not late, (name, late)


def _kill_mid_run(server: Any, worker: Any, ended: int, total: int) -> int:
    """SIGKILL `worker` once `ended` waits ended, while it holds polls; the polls it
    held right before the kill (a timeout says what it saw instead of killing blind)."""
    limit = time.monotonic() + 120
    done_runs = held = 0
    while time.monotonic() < limit:
        done_runs, held = server.client.hlen("done:runs"), _held_polls(server)
        if ended <= done_runs and held:
            break
        time.sleep(0.01)
    else:
        raise AssertionError(
            f"no moment with {ended} waits ended and polls held within 120 s: "
            f"last seen {done_runs} ended, {held} held, worker alive: "
            f"{worker.process.poll() is None}"
        )
    assert done_runs < total, "the run ended before the kill"
    worker.kill()
    return held


def _held_polls(server: Any) -> int:
    """Unacknowledged poll messages (only the polling worker takes polls)."""
    held = server.client.hvals("unacked")
    return sum(b"waitable.poll" in message for message in held)


def _by_wait(counts: dict[bytes, bytes], waits: dict[str, Any]) -> dict[str, int]:
    return {k.decode(): int(v) for k, v in counts.items() if k.decode() in waits}


def _max_wait_time(plan: str) -> float:
    return next(m for p, _, m in PLANS if p == plan)
