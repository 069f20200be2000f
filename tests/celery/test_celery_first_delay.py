"""A custom waiter's `delay_before_first_attempt` on Celery: the first poll waits it out.

Seed 003's `ExecuteAfterFirstDelay` (the README's Jenkins waiter): `start()`
records `next_delay` and `next_poll_at`, and `start_wait` publishes the first
poll with that countdown, so the service is not called before the first delay
has passed, as under `wait()`. The waiters are defined here and imported by
name in the worker (this directory is on its PYTHONPATH).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from waitable import FixedDelay
from waitable.custom import custom_waiter, path, success

#: Short: twice it (min_delay = max_delay, which the last-attempt rule can add up
#: to) is below wait_app's 3 s visibility timeout (start_wait refuses more).
FIRST_DELAY = 1.25

ThingAfterFirstDelay = custom_waiter(
    "ThingAfterFirstDelay",
    acceptors=[success(path("Status") == "READY")],
    min_delay=FIRST_DELAY,
    max_delay=FIRST_DELAY,
    backoff=FixedDelay(),
    delay_before_first_attempt=True,
    operation_method="describe_thing",
)
AsyncThingAfterFirstDelay = ThingAfterFirstDelay.Async

WAITER = f"{__name__}:ThingAfterFirstDelay"
ASYNC_WAITER = f"{__name__}:AsyncThingAfterFirstDelay"


def _calls(redis_server: Any, name: str) -> list[float]:
    """The wall-clock times the fake service was called for thing `name`."""
    return [float(t) for t in redis_server.client.lrange(f"calls:{name}", 0, -1)]


def test_the_first_poll_comes_no_earlier_than_the_first_delay(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from conftest import THING_CLIENT, wait_for_outcomes
    from fake_service import ThingService
    from waitable.celery import installed, start_wait

    service = ThingService(redis_server.url)
    tag = uuid.uuid4().hex
    names = {"sync": f"first-{tag}", "async": f"first-async-{tag}"}
    for name in names.values():
        service.plan(name, "ready", 2)
    start_worker()  # ready before the waits start: its start-up is not the delay
    began = time.time()
    ids = {
        "sync": start_wait(
            wait_app.app,
            WAITER,
            {"Name": names["sync"]},
            client=THING_CLIENT,
            max_wait_time=30,
            on_done=wait_app.record_outcome.s(tag=names["sync"]),
        ),
        "async": start_wait(
            wait_app.app,
            ASYNC_WAITER,
            {"Name": names["async"]},
            client="fake_service:make_async_client",
            max_wait_time=30,
            on_done=wait_app.record_outcome.s(tag=names["async"]),
        ),
    }
    # The sweep counts the first poll overdue only after its delay and recover_after.
    recover_after = installed(wait_app.app).recover_after
    for wait_id in ids.values():
        overdue_at = redis_server.client.zscore("waitable:due", wait_id)
        assert overdue_at >= began + FIRST_DELAY + recover_after
    got = wait_for_outcomes(redis_server, list(ids.values()), limit=60)
    for kind, wait_id in ids.items():
        outcome = got[wait_id]
        assert outcome["ok"] and outcome["result"]["attempts"] == 2, outcome
        first, second = _calls(redis_server, names[kind])
        assert first >= began + FIRST_DELAY, f"{kind}: called before the first delay"
        assert first >= outcome["started_at"] + FIRST_DELAY
        assert second >= first + FIRST_DELAY


def test_a_wait_cancelled_during_its_first_delay_ends_without_a_call(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """The cancel's copy is due at once; the delayed first poll then finds it ended."""
    from conftest import THING_CLIENT, wait_for_outcomes
    from fake_service import ThingService
    from waitable.celery import cancel_wait, start_wait

    name = f"first-cancel-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    start_worker()
    began = time.time()
    wait_id = start_wait(
        wait_app.app,
        WAITER,
        {"Name": name},
        client=THING_CLIENT,
        max_wait_time=30,
        on_done=wait_app.record_outcome.s(tag=name),
    )
    assert cancel_wait(wait_app.app, wait_id) is True
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["error"]["type"] == "WaiterCancelledError"
    assert outcome["error"]["result"]["attempts"] == 0
    # Past the first delay (a real worker, a real countdown): still no call.
    while time.time() < began + FIRST_DELAY + 1.0:
        time.sleep(0.1)
    assert _calls(redis_server, name) == []
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_the_first_countdown_is_the_saved_first_delay() -> None:
    """No Redis: what `start_wait` gives the first message, from `start()`'s record."""
    from fake_service import ThingReadyWaiter
    from waitable.celery.start import first_countdown

    saved = ThingAfterFirstDelay(lambda **_: {}).start({}, max_wait_time=30)
    assert saved.next_delay == FIRST_DELAY and saved.next_poll_at is not None
    assert first_countdown(saved) == FIRST_DELAY
    at_once = ThingReadyWaiter(lambda **_: {}).start({}, max_wait_time=30)
    assert first_countdown(at_once) == 0.0
