"""botocore waiters' limits under a `config=WaiterConfig(...)`, as boto3's
`WaiterConfig` sets them: `max_attempts` are all made, and a fixed delay given
spaces botocore's attempts (before, both stayed capped by botocore's own delay ×
maxAttempts: 5 s × 20 for s3's BucketExists)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from botocore.exceptions import ClientError

from waitable import WaiterConfig, WaiterMaxAttemptsError, WaiterTimeoutError
from waitable.backoff import ExponentialDelay, FixedDelay
from waitable.botocore_waiters import waiter_class
from waitable.testing import VirtualClock


class _MissingBucket:
    """An s3 client whose every HeadBucket answers 404, counting the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def head_bucket(self, **kwargs: Any) -> Any:
        self.calls += 1
        raise ClientError(
            {"Error": {"Code": "404"}, "ResponseMetadata": {"HTTPStatusCode": 404}},
            "HeadBucket",
        )


def _wait(config: WaiterConfig | None) -> tuple[_MissingBucket, VirtualClock, Any]:
    cls: Any = waiter_class("s3", "BucketExists")
    client, clock = _MissingBucket(), VirtualClock()
    with pytest.raises((WaiterTimeoutError, WaiterMaxAttemptsError)) as caught:
        cls(client, clock=clock, config=config).wait({"Bucket": "b"})
    return client, clock, caught.value


def test_botocores_own_limits() -> None:
    client, clock, error = _wait(None)
    assert client.calls == 20 and isinstance(error, WaiterTimeoutError)


def test_max_attempts_given_are_all_made() -> None:
    client, clock, error = _wait(WaiterConfig(max_attempts=50))
    assert client.calls == 50 and isinstance(error, WaiterMaxAttemptsError)
    assert clock.now() == pytest.approx(49 * 5)


def test_a_delay_given_spaces_botocores_attempts() -> None:
    client, clock, error = _wait(WaiterConfig(min_delay=60, max_delay=60))
    assert client.calls == 20 and isinstance(error, WaiterTimeoutError)
    assert clock.now() == pytest.approx(20 * 60)


def test_another_strategy_keeps_botocores_deadline() -> None:
    config = WaiterConfig(backoff=ExponentialDelay(), min_delay=1, max_delay=8)
    client, clock, error = _wait(config)
    assert isinstance(error, WaiterTimeoutError) and clock.now() == pytest.approx(100)


@pytest.mark.parametrize(
    "config, delay",
    [
        (WaiterConfig(min_delay=60), 60),  # boto3's Delay=60: max_delay follows
        (WaiterConfig(max_delay=2), 2),  # min_delay follows it down
        (WaiterConfig(min_delay=1), 1),  # the fixed delay is min_delay
    ],
)
def test_one_bound_given_moves_the_other_past_botocores_delay(
    config: WaiterConfig, delay: float
) -> None:
    """Refused before ("min_delay 60 is greater than max_delay 5", a max_delay
    the user never gave): a bound given alone takes the other along with it."""
    client, clock, error = _wait(config)
    starts = [attempt.started_at for attempt in error.result.history]
    assert starts[1] == pytest.approx(delay)


def test_max_attempts_alone_is_no_deadline_not_a_hundred_years() -> None:
    """The attempts are the limit: the wait has no max_wait_time (before, a
    100-year stand-in showed up in the error and in `waitable simulate`)."""
    cls: Any = waiter_class("s3", "BucketExists")
    waiter = cls(
        _MissingBucket(), clock=VirtualClock(), config=WaiterConfig(max_attempts=4)
    )
    assert waiter.config.wait_timeout is None
    client, clock, error = _wait(WaiterConfig(max_attempts=4))
    assert isinstance(error, WaiterMaxAttemptsError) and client.calls == 4
    assert error.max_wait_time == float("inf")
    assert str(error).endswith(
        "with no max_wait_time; raise max_attempts to keep waiting"
    )
    # a saved wait of it resumes (no deadline is allowed for this class)
    saved = waiter.start({"Bucket": "b"})
    step = waiter.poll_once(type(saved).from_json(saved.to_json()))
    assert not step.done


def _wait_with(
    make: Callable[[_MissingBucket, VirtualClock], Any], **limits: Any
) -> tuple[_MissingBucket, VirtualClock, Any]:
    """Wait on a waiter `make` builds, with `limits` given to `wait()`."""
    client, clock = _MissingBucket(), VirtualClock()
    with pytest.raises((WaiterTimeoutError, WaiterMaxAttemptsError)) as caught:
        make(client, clock).wait({"Bucket": "b"}, **limits)
    return client, clock, caught.value


def _plain(client: _MissingBucket, clock: VirtualClock) -> Any:
    cls: Any = waiter_class("s3", "BucketExists")
    return cls(client, clock=clock)


def _gaps(error: Any) -> set[float]:
    """The delays between attempts but the last (which the spec's last-attempt
    rule may lengthen to the deadline)."""
    starts = [attempt.started_at for attempt in error.result.history][:-1]
    return {round(b - a, 6) for a, b in zip(starts, starts[1:])}


def test_a_delay_given_to_wait_spaces_botocores_attempts() -> None:
    """boto3's `wait(WaiterConfig={"Delay": 60})`: 20 attempts 60 s apart (was
    refused: "min_delay 60 is greater than max_delay 5")."""
    client, clock, error = _wait_with(_plain, min_delay=60)
    assert client.calls == 20 and isinstance(error, WaiterTimeoutError)
    assert clock.now() == pytest.approx(20 * 60) and _gaps(error) == {60}


def test_max_attempts_given_to_wait_are_all_made() -> None:
    """boto3's `MaxAttempts=50` per call (stopped at 20 by botocore's 100 s)."""
    client, clock, error = _wait_with(_plain, max_attempts=50)
    assert client.calls == 50 and isinstance(error, WaiterMaxAttemptsError)
    assert error.max_wait_time == float("inf") and _gaps(error) == {5}


def test_a_lower_max_delay_given_to_wait_takes_min_delay_down() -> None:
    """botocore's 20 attempts, 2 s apart."""
    client, clock, error = _wait_with(_plain, max_delay=2)
    assert client.calls == 20 and _gaps(error) == {2}
    assert clock.now() == pytest.approx(40)


def test_a_deadline_given_per_call_or_in_the_config_stands() -> None:
    client, clock, error = _wait_with(_plain, min_delay=60, max_wait_time=130)
    assert isinstance(error, WaiterTimeoutError) and clock.now() == pytest.approx(130)

    def configured(client: _MissingBucket, clock: VirtualClock) -> Any:
        cls: Any = waiter_class("s3", "BucketExists")
        return cls(client, clock=clock, config=WaiterConfig(wait_timeout=130))

    client, clock, error = _wait_with(configured, min_delay=60)
    assert isinstance(error, WaiterTimeoutError) and clock.now() == pytest.approx(130)


def test_per_call_limits_merge_with_the_callers_config() -> None:
    def configured(client: _MissingBucket, clock: VirtualClock) -> Any:
        cls: Any = waiter_class("s3", "BucketExists")
        return cls(client, clock=clock, config=WaiterConfig(max_attempts=6))

    client, clock, error = _wait_with(configured, min_delay=60)
    assert client.calls == 6 and isinstance(error, WaiterMaxAttemptsError)
    assert _gaps(error) == {60}


@pytest.mark.parametrize(
    "config, calls, gap",
    [(WaiterConfig(min_delay=60), 20, 60), (WaiterConfig(max_attempts=30), 30, 5)],
)
def test_a_config_set_later_gets_botocores_timing(
    config: WaiterConfig, calls: int, gap: float
) -> None:
    """As one given at construction (a min_delay set later was refused with
    "max_wait_time is required": botocore's deadline was dropped)."""

    def later(client: _MissingBucket, clock: VirtualClock) -> Any:
        waiter = _plain(client, clock)
        waiter.config = config
        return waiter

    client, clock, error = _wait_with(later)
    assert client.calls == calls and _gaps(error) == {gap}
    assert isinstance(later(_MissingBucket(), VirtualClock()).backoff, FixedDelay)


def test_the_async_class_takes_per_call_limits_alike() -> None:
    cls: Any = waiter_class("s3", "BucketExists", asynchronous=True)
    calls = 0

    class Client:
        async def head_bucket(self, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return {"ResponseMetadata": {"HTTPStatusCode": 404}}

    clock = VirtualClock()
    with pytest.raises(WaiterTimeoutError) as caught:
        asyncio.run(cls(Client(), clock=clock).wait({"Bucket": "b"}, min_delay=60))
    assert calls == 20 and _gaps(caught.value) == {60}
