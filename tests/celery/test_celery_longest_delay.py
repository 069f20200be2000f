"""The longest countdown a wait's poll can get, held below the broker's visibility timeout.

The engine's delay is the backoff's, then the spec's last-attempt rule
(`remainingTime - delay <= minDelay` → `delay = remainingTime`), so a final
poll can come up to `min_delay` after the backoff's longest delay: `start_wait`
checks that sum, not `max_delay` alone. Retry backoffs and rate-limit waits are
slept inside the poll task, never a message's countdown.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from conftest import FAST
from conftest import THING_CLIENT as CLIENT
from conftest import THING_WAITER as WAITER
from waitable import (
    DecorrelatedJitter,
    ExponentialFullJitter,
    FixedDelay,
    IncrementalDelay,
    RetryImmediately,
    SmithyBackoff,
    WaiterConfigurationError,
    WaiterTimeoutError,
)
from waitable.celery import register_waiter, start_wait
from waitable.custom import custom_waiter, path, success
from waitable.testing import VirtualClock


def _pending(*_: Any, **__: Any) -> dict[str, Any]:
    return {"Status": "PENDING"}


def _own_backoff(retry: Any) -> float:
    """A backoff of one's own: nothing says how long its delays may be."""
    return 1.0


OwnBackoff = custom_waiter(
    "OwnBackoff",
    acceptors=[success(path("Status") == "READY")],
    backoff=_own_backoff,
    operation_method="describe_thing",
)
register_waiter("tests.celery.OwnBackoff", OwnBackoff)


def test_the_final_poll_can_be_due_min_delay_after_max_delay() -> None:
    """No Redis: the engine itself schedules a delay past `max_delay` (the last-attempt rule)."""
    from fake_service import ThingReadyWaiter

    waiter = ThingReadyWaiter(_pending, clock=VirtualClock(wall_start=1e9))
    saved = waiter.start({}, max_wait_time=3.0, min_delay=1.5, max_delay=1.5, seed=1)
    step = waiter.poll_once(saved)
    assert step.result is None and step.next_delay == 3.0 > saved.max_delay


def test_start_wait_refuses_a_final_delay_at_the_visibility_timeout(
    redis_server: Any, wait_app: Any
) -> None:
    """max_delay 2 s is below wait_app's 3 s visibility timeout, but 1 s + 2 s is not."""
    wait_id = f"longest-{uuid.uuid4().hex}"
    with pytest.raises(WaiterConfigurationError, match="visibility_timeout 3s") as e:
        start_wait(
            wait_app.app,
            WAITER,
            {"Name": "x"},
            client=CLIENT,
            max_wait_time=30,
            min_delay=1,
            max_delay=2,
            wait_id=wait_id,
        )
    assert "3s" in str(e.value) and "min_delay" in str(e.value)
    assert not redis_server.client.exists(f"waitable:{wait_id}")


def test_start_wait_says_a_backoff_of_ones_own_is_unbounded(
    redis_server: Any, wait_app: Any
) -> None:
    """Only the deadline bounds a backoff that is not one of waitable's: the check says so."""
    wait_id = f"longest-{uuid.uuid4().hex}"
    with pytest.raises(WaiterConfigurationError, match="no known bound") as e:
        start_wait(
            wait_app.app,
            "tests.celery.OwnBackoff",
            {"Name": "x"},
            client=CLIENT,
            max_wait_time=30,
            wait_id=wait_id,
            **FAST,
        )
    message = str(e.value)
    assert "max_wait_time 30s" in message and "visibility_timeout 3s" in message
    assert not redis_server.client.exists(f"waitable:{wait_id}")


@pytest.mark.parametrize(
    "backoff, longest",
    [
        (SmithyBackoff(), 2 + 5),
        (DecorrelatedJitter(), 2 + 5),
        (IncrementalDelay(step=100), 2 + 5),
        (ExponentialFullJitter(base=100), 2 + 5),
        (FixedDelay(), 2 + 2),
        (FixedDelay(4.5), 2 + 4.5),
        (FixedDelay(50), 30),  # past the deadline: the deadline
        (RetryImmediately(), 2),
        (_own_backoff, 30),  # unbounded but for the deadline
    ],
)
def test_longest_retry_delay(backoff: Any, longest: float) -> None:
    from fake_service import ThingReadyWaiter
    from waitable.celery.start import longest_retry_delay

    saved = ThingReadyWaiter(_pending).start(
        {}, max_wait_time=30, min_delay=2, max_delay=5
    )
    assert longest_retry_delay(saved, backoff) == longest


@pytest.mark.parametrize(
    "backoff",
    [SmithyBackoff(), DecorrelatedJitter(), FixedDelay(), FixedDelay(2.5)],
    ids=repr,
)
def test_no_delay_of_a_wait_passes_its_longest_retry_delay(backoff: Any) -> None:
    """Every countdown a wait gets (the first delay included) is within the bound."""
    from fake_service import ThingReadyWaiter
    from waitable.celery.start import first_countdown, longest_retry_delay

    first = custom_waiter(
        "First",
        acceptors=[success(path("Status") == "READY")],
        backoff=backoff,
        delay_before_first_attempt=True,
    )
    for seed in range(20):
        clock = VirtualClock(wall_start=1e9)
        waiter = ThingReadyWaiter(_pending, clock=clock, backoff=backoff)
        saved = waiter.start(
            {}, max_wait_time=11.0, min_delay=1, max_delay=3, seed=seed
        )
        longest = longest_retry_delay(saved, waiter.backoff)
        delays = []
        while True:
            try:
                step = waiter.poll_once(saved)
            except WaiterTimeoutError:
                break
            assert step.next_delay is not None
            delays.append(step.next_delay)
            clock.sleep(step.next_delay)
            saved = step.state
        assert delays and max(delays) <= longest
        opened = first(_pending).start(
            {}, max_wait_time=3.5, min_delay=1, max_delay=3, seed=seed
        )
        assert 0 < first_countdown(opened) <= longest_retry_delay(opened, backoff)
