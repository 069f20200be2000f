"""A wait resumed from JSON at every poll decides as the same wait run through.

Over any replies (outputs, service errors the retry policy retries or not,
requests that take time), any delay bounds, seeds and deadlines, with no retries,
retries without a bucket, and retries under a shared token bucket and `max_time`:
`start()` and `poll_once()` by a fresh waiter per poll, the record through JSON,
give the same polls (number, start, delay, state, acceptor, error, retries and
why they stopped), the same ending and the same calls as one `wait()`. The
scenario table of `test_steps.py` checks this for the spec's examples; this
checks it where the random state, the retry backoff and the bucket meet. On
the virtual clock.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable import SavedWait, WaiterError
from waitable.results import Attempt
from waitable.retry import StandardRetryStrategy, StandardRetryTokenBucket
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, ServiceError, Step, waiter_class

WALL = 1_700_000_000.0
Row = tuple[Any, ...]

REPLIES = st.one_of(
    st.sampled_from(["pending", "success", "failed"]).map(
        lambda status: Step(output={"status": status})
    ),
    st.builds(
        lambda code, latency: Step(error=ServiceError(code), latency=latency),
        st.sampled_from(["ThrottlingException", "InternalError", "NoSuchThing"]),
        st.floats(0, 5),
    ),
    st.floats(0, 30).map(lambda latency: Step({"status": "pending"}, latency=latency)),
)


def retrying(kind: str) -> StandardRetryStrategy | None:
    """The `retry=` of a run: none, no bucket, or a small bucket and a max_time."""
    if kind == "none":
        return None
    if kind == "no bucket":
        return StandardRetryStrategy(token_bucket=None)
    bucket = StandardRetryTokenBucket(capacity=30, refill_units_per_second=1)
    return StandardRetryStrategy(token_bucket=bucket, max_time=60)


def rows(history: Any) -> list[Row]:
    attempts: list[Attempt[Any]] = list(history)
    return [
        (
            a.number,
            a.started_at,
            a.delay,
            a.state.value,
            a.acceptor_index,
            a.error_type,
            tuple((r.number, r.error_type, r.reason, r.delay) for r in a.retries),
            a.retry_stopped,
        )
        for a in attempts
    ]


def through(steps: list[Step], options: dict[str, Any], seed: int, kind: str) -> Any:
    clock = VirtualClock(wall_start=WALL)
    script = Script(clock, steps)
    waiter = waiter_class(THING_EXISTS)(
        script, clock=clock, rng=random.Random(seed), retry=retrying(kind)
    )
    try:
        result = waiter.wait({"id": "x"}, **options)
    except WaiterError as error:
        return rows(error.result.history), type(error).__name__, len(script.calls)
    return rows(result.history), "success", len(script.calls)


def resumed(steps: list[Step], options: dict[str, Any], seed: int, kind: str) -> Any:
    clock = VirtualClock(wall_start=WALL)
    script = Script(clock, steps)
    retry = retrying(kind)  # one strategy (and bucket) for every poll, as in a process
    cls = waiter_class(THING_EXISTS)
    text = cls(script, clock=clock).start({"id": "x"}, seed=seed, **options).to_json()
    while True:
        waiter = cls(script, clock=clock, retry=retry)
        try:
            step = waiter.poll_once(SavedWait.from_json(text))
        except WaiterError as error:
            return rows(error.result.history), type(error).__name__, len(script.calls)
        if step.done:
            return rows(step.result.history), "success", len(script.calls)
        text = step.state.to_json()
        clock.sleep(step.next_delay)


def same_rows(left: list[Row], right: list[Row]) -> bool:
    """Equal, but for the float rounding of wall-clock against monotonic times."""
    return len(left) == len(right) and all(
        a[0] == b[0]
        and abs(a[1] - b[1]) < 1e-3
        and abs(a[2] - b[2]) < 1e-3
        and a[3:6] == b[3:6]
        and a[7] == b[7]
        and [r[:3] for r in a[6]] == [r[:3] for r in b[6]]
        and all(abs(r[3] - s[3]) < 1e-3 for r, s in zip(a[6], b[6]))
        for a, b in zip(left, right)
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(REPLIES, min_size=1, max_size=10),
    max_wait_time=st.integers(10, 400),
    min_delay=st.integers(1, 5),
    max_delay=st.integers(5, 60),
    seed=st.integers(0, 3),
    kind=st.sampled_from(["none", "no bucket", "bucket"]),
)
def test_a_resumed_wait_decides_as_an_uninterrupted_one(
    steps: list[Step],
    max_wait_time: int,
    min_delay: int,
    max_delay: int,
    seed: int,
    kind: str,
) -> None:
    options = {
        "max_wait_time": max_wait_time,
        "min_delay": min_delay,
        "max_delay": max_delay,
    }
    whole_rows, whole_end, whole_calls = through(steps, options, seed, kind)
    step_rows, step_end, step_calls = resumed(steps, options, seed, kind)
    assert (step_end, step_calls) == (whole_end, whole_calls)
    # A saved wait keeps its newest 50 polls (the count goes on).
    assert same_rows(step_rows, whole_rows[-50:]), (step_rows, whole_rows)
