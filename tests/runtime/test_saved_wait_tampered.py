"""A tampered saved wait is refused by `SavedWait.from_json()`, naming the field,
before `poll_once` sends a request (the review's bugs 3 to 6).

Each field must have the type `to_json()` writes (a count a real integer, a time a
finite JSON number, never text; `final` a JSON boolean), counts and times stay in
the range a real wait reaches, the deadline is the `started_at + max_wait_time`
that `start()` computed, and the input is JSON data `to_json()` would save. Every
record the code writes still loads back equal. Everything runs on virtual time.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    IncrementalDelay,
    SavedWait,
    WaiterConfigurationError,
    WaiterError,
)
from waitable.custom import custom_waiter, error_type, path, retry, success
from waitable.retry import StandardRetryStrategy
from waitable.seconds import MAX_SECONDS
from waitable import steps
from waitable.steps import MAX_NEXT_DELAY, MAX_POLLS, MAX_TIME, rng_state
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, ServiceError, waiter_class

WALL_START = 1_700_000_000.0

ACCEPTORS = [
    success(path("status") == "ok"),
    retry(path("status") == "busy"),
    retry(error_type(LookupError)),
]
Thing = custom_waiter("Thing", acceptors=ACCEPTORS, min_delay=2, max_delay=120)
LateThing = custom_waiter(
    "Thing",
    acceptors=ACCEPTORS,
    min_delay=2,
    max_delay=120,
    delay_before_first_attempt=True,
)


class Throttled(Exception):
    """A throttling error the standard retry policy retries."""

    code = "ThrottlingException"


class Answers:
    """An operation answering scripted steps in order (the last repeats), counting
    calls: a status, "lookup" (raises KeyError, which an acceptor retries) or
    "throttled" (raises `Throttled`, which `retry=` retries); each takes `latency`."""

    def __init__(self, clock: VirtualClock, *steps: str, latency: float = 0.0) -> None:
        self.clock = clock
        self.steps = list(steps) or ["pending"]
        self.latency = latency
        self.calls = 0

    def __call__(self, request: Any) -> dict[str, Any]:
        self.calls += 1
        step = self.steps[min(self.calls, len(self.steps)) - 1]
        if self.latency:
            self.clock.advance(self.latency)
        if step == "lookup":
            raise KeyError("not yet")
        if step == "throttled":
            raise Throttled("slow down")
        return {"status": step}


def make_waiter(
    *steps: str,
    wall_start: float = WALL_START,
    first_delay: bool = False,
    latency: float = 0.0,
    **kwargs: Any,
) -> tuple[Any, VirtualClock, Answers]:
    clock = VirtualClock(0.0, wall_start=wall_start)
    answers = Answers(clock, *steps, latency=latency)
    strategy = StandardRetryStrategy(clock=clock, rng=random.Random(1))
    waiter = (LateThing if first_delay else Thing)(
        answers, clock=clock, retry=strategy, **kwargs
    )
    return waiter, clock, answers


def polled(*steps: str, **options: Any) -> tuple[Any, Answers, dict[str, Any]]:
    """A waiter, its operation, and its record (as data) after one poll."""
    waiter, _, answers = make_waiter(*steps)
    options.setdefault("max_wait_time", 600)
    options.setdefault("seed", 1)
    step = waiter.poll_once(waiter.start({"id": 7}, **options))
    assert not step.done
    return waiter, answers, json.loads(step.state.to_json())


def refused(data: Any, *named: str) -> str:
    """The message of `from_json`'s refusal of `data` (NaN written as JSON's NaN),
    which names each of `named`."""
    text = json.dumps(data)
    with pytest.raises(WaiterConfigurationError) as caught:
        SavedWait.from_json(text)
    message = str(caught.value)
    for name in named:
        assert name in message, message
    assert "saved wait" in message and "SavedWait.to_json()" in message, message
    return message


def nested(levels: int) -> Any:
    deep: Any = "leaf"
    for _ in range(levels):
        deep = {"a": deep}
    return deep


# --- bug 3: a history entry's fields, the random state's gauss, final ----------------

ENTRY_CASES = [
    ("acceptor_index", "x"),
    ("acceptor_index", 1.5),
    ("acceptor_index", [0]),
    ("acceptor_index", True),
    ("acceptor_index", -1),
    ("started_at", "nan"),
    ("started_at", None),
    ("started_at", math.nan),
    ("started_at", 1e300),
    ("delay", "1e999"),
    ("delay", -1),
    ("delay", math.inf),
    ("duration", "inf"),
    ("duration", False),
    ("number", "1"),
    ("number", True),
    ("number", 1.0),
    ("number", 0),
    ("number", 2),  # after one poll: more than the record's attempts
    ("state", "done"),
    ("state", 0),
    ("error_type", 5),
    ("error_type", ["KeyError"]),
    ("output", {"n": 10**400}),
    ("output", {"n": math.nan}),
    ("output", nested(250)),
    ("retries", {}),
    ("retries", [5]),
]


@pytest.mark.parametrize(("field", "value"), ENTRY_CASES)
def test_a_wrong_history_entry_is_refused_at_load_naming_it(
    field: str, value: Any
) -> None:
    _, answers, data = polled("pending")
    data["history"][0][field] = value
    refused(data, f"history[0].{field}")
    assert answers.calls == 1  # the poll that wrote the record; none since


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("delay", "nan"),
        ("delay", -0.5),
        ("delay", 2 * MAX_NEXT_DELAY),
        ("number", "1"),
        ("number", 0),
        ("number", 1.0),
        ("reason", 3),
        ("reason", None),
        ("error_type", []),
    ],
)
def test_a_wrong_retry_of_a_poll_is_refused_at_load_naming_it(
    field: str, value: Any
) -> None:
    _, answers, data = polled("throttled", "pending")
    assert data["history"][0]["retries"], "the first poll's call was retried"
    data["history"][0]["retries"][0][field] = value
    refused(data, f"history[0].retries[0].{field}")
    assert answers.calls == 2


def test_a_history_entry_missing_a_field_is_refused_naming_it() -> None:
    _, _, data = polled("pending")
    del data["history"][0]["duration"]
    refused(data, "history[0].duration")


@pytest.mark.parametrize("value", ["nan", "0.5", True, 1e999, math.nan, 1])
def test_a_wrong_random_gauss_is_refused_at_load(value: Any) -> None:
    _, _, data = polled("pending")
    data["rng_state"][2] = value
    refused(data, "rng_state gauss")


@pytest.mark.parametrize(
    "value",
    [["3", None, None], [3, 12, None], [3, "AAAA", None], [3, [1.5] * 625, None]],
)
def test_a_wrong_random_state_is_refused_at_load(value: Any) -> None:
    _, _, data = polled("pending")
    if value[1] is None:
        value[1] = data["rng_state"][1]
    data["rng_state"] = value
    refused(data, "rng_state")


def test_a_random_gauss_the_generator_wrote_loads() -> None:
    waiter, _, answers = make_waiter("pending")
    saved = waiter.start({}, max_wait_time=600, seed=3)
    rng = saved.rng()
    rng.gauss(0.0, 1.0)  # leaves the second normal variate in the state
    saved.rng_state = json.loads(json.dumps(rng_state(rng)))
    assert isinstance(saved.rng_state[2], float)
    loaded = SavedWait.from_json(saved.to_json())
    assert loaded.rng().getstate() == rng.getstate()


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, []])
def test_final_must_be_a_json_boolean(value: Any) -> None:
    _, answers, data = polled("pending")
    data["final"] = value
    refused(data, "saved wait's final", "true or false")
    assert answers.calls == 1


def test_final_false_polled_when_due_goes_on_as_an_uninterrupted_wait() -> None:
    """The review's case: `"final": "false"` had loaded as True and ended the wait
    at its next poll with 598 s left. Written as to_json writes it, it polls on."""
    waiter, clock, _ = make_waiter("pending")
    step = waiter.poll_once(waiter.start({}, max_wait_time=600, seed=1))
    data = json.loads(step.state.to_json())
    assert data["final"] is False
    clock.advance(data["next_delay"])
    step = waiter.poll_once(SavedWait.from_json(json.dumps(data)))
    assert not step.done and step.next_delay is not None


# --- bug 4: an input to_json() would refuse ---------------------------------------------


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (nested(250), "nests deeper"),
        ({"n": 10**400}, "integer too long"),
        ({"n": math.nan}, "nan"),
        ({"n": [math.inf]}, "inf"),
    ],
)
def test_an_input_to_json_would_refuse_is_refused_before_any_call(
    value: Any, said: str
) -> None:
    waiter, _, answers = make_waiter("pending")
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    data["input"] = value
    message = refused(data, "saved wait's input", said)
    assert "JSON data" in message
    assert answers.calls == 0


def test_a_last_output_to_json_would_not_write_is_refused() -> None:
    _, _, data = polled("pending")
    data["last_output"] = {"n": 10**400}
    refused(data, "last_output", "integer too long")


# --- bug 5: counts a real wait cannot reach ----------------------------------------------


@pytest.mark.parametrize(
    "value", [10**400, MAX_POLLS + 1, -1, "1", True, 1.0, None, math.nan]
)
def test_an_impossible_poll_count_is_refused(value: Any) -> None:
    _, answers, data = polled("pending")
    data["attempts"] = value
    refused(data, "saved wait's attempts", "an integer from 0 to")
    assert answers.calls == 1


def test_the_poll_count_is_at_most_max_attempts() -> None:
    _, _, data = polled("pending", max_attempts=3)
    data["attempts"] = 4
    refused(data, "saved wait's attempts", "from 0 to 3")
    data["attempts"] = 3
    assert SavedWait.from_json(json.dumps(data)).attempts == 3


def test_the_highest_poll_count_loaded_does_not_overflow_a_backoff() -> None:
    """The review's case: 10**400 polls made IncrementalDelay overflow after the
    call. The cap, 2**53, is exact as a float: the backoff's arithmetic holds."""
    waiter, _, answers = make_waiter(
        "pending", backoff=IncrementalDelay(initial=1.5, step=0.5)
    )
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    data["attempts"] = MAX_POLLS - 1
    step = waiter.poll_once(SavedWait.from_json(json.dumps(data)))
    assert answers.calls == 1 and step.next_delay is not None
    assert step.state.attempts == MAX_POLLS
    # ... the record it writes (at the cap) loads back, and is not polled again
    # (test_saved_wait_end_s20: a record the code writes always reloads).
    again = SavedWait.from_json(step.state.to_json())
    with pytest.raises(WaiterConfigurationError, match="attempts are used up"):
        waiter.poll_once(again)
    assert answers.calls == 1


# --- bug 6: the deadline is held to the record's own settings ----------------------------


def test_a_deadline_past_started_at_plus_max_wait_time_is_refused() -> None:
    """The review's case: a record saying max_wait_time=600 with deadline=1e308
    polled on past 7,200 s and never timed out."""
    waiter, _, answers = make_waiter("pending")
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    expected = data["started_at"] + data["max_wait_time"]
    assert data["deadline"] == expected
    for value in [
        1e308,
        expected + 1,
        expected - 1,
        math.nextafter(expected, math.inf),
        str(expected),
        True,
    ]:
        data["deadline"] = value
        refused(data, "saved wait's deadline", "started_at + max_wait_time")
    assert answers.calls == 0


def test_a_moved_start_is_refused_with_its_deadline() -> None:
    waiter, _, _ = make_waiter("pending")
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    data["started_at"] = data["started_at"] + 10**6  # the deadline stays: refused
    refused(data, "saved wait's deadline")
    for value in [1e308, -1e300, "1700000000", None, math.inf]:
        data["started_at"] = value
        refused(data, "saved wait's started_at")


@pytest.mark.parametrize("value", [1e308, "1700000000.0", True, math.nan])
def test_an_impossible_next_poll_time_is_refused(value: Any) -> None:
    _, _, data = polled("pending")
    data["next_poll_at"] = value
    refused(data, "saved wait's next_poll_at")


@pytest.mark.parametrize(
    "wall_start", [WALL_START, 0.0, -123.456, 1_000, 2.0**40 + 0.1, 0.1]
)
@pytest.mark.parametrize("max_wait_time", [600, 0.1, 1e-7, 7 / 3, MAX_SECONDS])
def test_the_deadline_start_computes_loads(
    wall_start: float, max_wait_time: float
) -> None:
    """Whatever float `start()` computed for `started_at + max_wait_time` (the wall
    clock's reading, not the monotonic one) is the deadline that loads."""
    clock = VirtualClock(5.0, wall_start=wall_start)  # wall != monotonic
    waiter = Thing(Answers(clock, "pending"), clock=clock)
    saved = waiter.start({}, max_wait_time=max_wait_time)
    assert math.isclose(saved.started_at, wall_start, rel_tol=1e-12, abs_tol=1e-9)
    loaded = SavedWait.from_json(saved.to_json())
    assert loaded == saved
    try:
        step = waiter.poll_once(loaded)
    except WaiterError:
        return  # a deadline too close for a second poll: the wait's own timeout
    assert SavedWait.from_json(step.state.to_json()) == step.state


def generated_waiter() -> tuple[Any, list[Any]]:
    clock = VirtualClock(0.0, wall_start=WALL_START)
    calls: list[Any] = []

    def operation(request: Any) -> dict[str, Any]:
        calls.append(request)
        return {"status": "pending"}

    return waiter_class(THING_EXISTS)(operation, clock=clock), calls


def test_check_waiter_refuses_a_wait_without_deadline_for_a_waiter_that_needs_one() -> (
    None
):
    waiter, _ = generated_waiter()
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    data.update(max_wait_time=None, deadline=None, max_attempts=10**9)
    saved = SavedWait.from_json(json.dumps(data))  # a custom waiter may write this
    with pytest.raises(WaiterConfigurationError) as caught:
        saved.check_waiter(len(THING_EXISTS.acceptors), allows_no_deadline=False)
    message = str(caught.value)
    assert "saved wait's max_wait_time" in message and "ThingExists" in message
    saved.check_waiter(len(THING_EXISTS.acceptors), allows_no_deadline=True)


def test_a_generated_waiter_refuses_a_saved_wait_without_deadline() -> None:
    waiter, calls = generated_waiter()
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    data.update(max_wait_time=None, deadline=None, max_attempts=10**9)
    with pytest.raises(WaiterConfigurationError, match="saved wait's max_wait_time"):
        waiter.poll_once(SavedWait.from_json(json.dumps(data)))
    assert calls == []


def test_check_waiter_holds_acceptor_indexes_to_the_waiters_acceptors() -> None:
    _, _, data = polled("busy")
    assert data["history"][0]["acceptor_index"] == 1
    saved = SavedWait.from_json(json.dumps(data))
    saved.check_waiter(len(ACCEPTORS))
    data["history"][0]["acceptor_index"] = len(ACCEPTORS)
    saved = SavedWait.from_json(json.dumps(data))
    with pytest.raises(WaiterConfigurationError) as caught:
        saved.check_waiter(len(ACCEPTORS))
    assert "history[0].acceptor_index" in str(caught.value)
    assert "0 to 2" in str(caught.value)


# --- properties: what to_json writes loads back equal; one wrong field is refused ------

STEPS = st.sampled_from(["pending", "busy", "ok", "lookup", "throttled"])


@st.composite
def waits(draw: st.DrawFn) -> dict[str, Any]:
    """A wait's settings, script and clock: any wait `start()` accepts."""
    low = draw(st.one_of(st.integers(1, 60), st.floats(0.001, 60.0)))
    high = draw(st.one_of(st.just(low), st.floats(low, 600.0), st.just(MAX_SECONDS)))
    max_attempts = draw(st.none() | st.integers(1, 6))
    max_wait_time = draw(
        st.one_of(
            st.integers(1, 10_000),
            st.floats(0.01, 10_000.0),
            st.just(MAX_SECONDS),
            st.none() if max_attempts is not None else st.nothing(),
        )
    )
    return {
        "options": {
            "min_delay": low,
            "max_delay": high,
            "max_attempts": max_attempts,
            "max_wait_time": max_wait_time,
            "seed": draw(st.integers(0, 2**32)),
            "history_limit": draw(st.none() | st.integers(1, 4)),
        },
        "steps": draw(st.lists(STEPS, min_size=1, max_size=6)),
        "first_delay": draw(st.booleans()),
        "latency": draw(st.sampled_from([0.0, 0.5, 3.0])),
        "wall_start": draw(
            st.one_of(
                st.just(WALL_START),
                st.floats(-1e12, 1e12),
                st.integers(-(10**12), 10**12),
            )
        ),
        "early": draw(st.booleans()),  # poll before the record says it is due
    }


def records(wait: dict[str, Any]) -> list[SavedWait]:
    """Every record `wait` writes, from `start()` to its end."""
    waiter, clock, _ = make_waiter(
        *wait["steps"],
        wall_start=wait["wall_start"],
        first_delay=wait["first_delay"],
        latency=wait["latency"],
    )
    saved = waiter.start({"id": 7}, **wait["options"])
    written = [saved]
    for _ in range(8):
        if not wait["early"]:
            clock.advance(saved.next_delay)
        try:
            step = waiter.poll_once(saved)
        except WaiterError:
            break  # the wait's own end: timed out, out of attempts, an error
        written.append(step.state)
        if step.done:
            break
        saved = step.state
    return written


@settings(max_examples=150, deadline=None)
@given(waits())
def test_every_record_to_json_writes_loads_back_equal(wait: dict[str, Any]) -> None:
    for saved in records(wait):
        text = saved.to_json()
        loaded = SavedWait.from_json(text)
        assert loaded == saved
        assert loaded.to_json() == text
        loaded.check_waiter(len(ACCEPTORS))
        assert list(loaded.wait_state().history) == list(saved.wait_state().history)


# For each field: values that are never valid there, whatever the record.
TEXT = st.text(max_size=4)
NOT_FINITE = st.sampled_from([math.nan, math.inf, -math.inf])
HUGE = st.one_of(
    st.floats(MAX_TIME, exclude_min=True, allow_infinity=False),
    st.integers(MAX_TIME + 1, 10**30),
).flatmap(lambda x: st.sampled_from([x, -x]))
NOT_A_NUMBER = st.one_of(TEXT, st.booleans(), st.just([]), st.just({}))
NOT_A_COUNT = st.one_of(
    NOT_A_NUMBER, st.floats(allow_nan=True), st.integers(max_value=-1), st.none()
)
NOT_JSON_DATA = st.sampled_from(
    [{"n": 10**400}, [math.nan], {"a": math.inf}, nested(201)]
)
NOT_SECONDS = st.one_of(
    NOT_A_NUMBER,
    NOT_FINITE,
    st.none(),
    st.floats(max_value=0.0),
    st.integers(max_value=0),
    st.floats(MAX_SECONDS, exclude_min=True),
    st.integers(MAX_SECONDS + 1, 10**20),
)
NOT_A_DELAY = st.one_of(
    NOT_A_NUMBER,
    NOT_FINITE,
    st.none(),
    st.floats(max_value=0.0, exclude_max=True),
    st.integers(max_value=-1),
)
NOT_A_TIME = st.one_of(NOT_A_NUMBER, NOT_FINITE, HUGE)

TOP: dict[str, st.SearchStrategy[Any]] = {
    "version": st.one_of(st.just(True), st.just(1.0), st.just("1"), st.just(2)),
    "waiter": st.one_of(st.none(), st.integers(), st.booleans(), st.just(["Thing"])),
    "input": NOT_JSON_DATA,
    "max_wait_time": NOT_SECONDS.filter(lambda v: v is not None),
    "min_delay": NOT_SECONDS,
    "max_delay": NOT_SECONDS,
    "max_attempts": st.one_of(
        NOT_A_NUMBER, st.integers(max_value=0), st.floats(allow_nan=True)
    ),
    "started_at": st.one_of(NOT_A_TIME, st.none()),
    "rng_state": st.one_of(
        NOT_A_NUMBER, st.none(), st.just([3, "AAAA", None]), st.just([3])
    ),
    "attempts": st.one_of(NOT_A_COUNT, st.integers(MAX_POLLS + 1, 10**30)),
    "next_delay": st.one_of(
        NOT_A_DELAY, st.floats(MAX_NEXT_DELAY, exclude_min=True, allow_infinity=False)
    ),
    "next_poll_at": NOT_A_TIME,
    "final": st.one_of(
        st.integers(), st.none(), TEXT, st.just([]), st.floats(allow_nan=True)
    ),
    "total_delay": NOT_A_DELAY,
    "last_output": NOT_JSON_DATA,
    "history": st.one_of(
        st.none(), TEXT, st.integers(), st.just({}), st.just([5]), st.just([None])
    ),
    "history_limit": st.one_of(
        NOT_A_NUMBER, st.none(), st.integers(max_value=0), st.floats(allow_nan=True)
    ),
}
ENTRY: dict[str, st.SearchStrategy[Any]] = {
    "number": st.one_of(NOT_A_COUNT, st.just(0)),
    "started_at": NOT_A_TIME,
    "delay": st.one_of(
        NOT_A_DELAY, st.floats(MAX_NEXT_DELAY, exclude_min=True, allow_infinity=False)
    ),
    "duration": NOT_A_TIME,
    "state": st.one_of(
        st.sampled_from(["SUCCESS", "done", ""]), st.integers(), st.none()
    ),
    "acceptor_index": st.one_of(
        TEXT,
        st.booleans(),
        st.integers(max_value=-1),
        st.floats(allow_nan=True),
        st.just([0]),
    ),
    "output": NOT_JSON_DATA,
    "error_type": st.one_of(st.integers(), st.booleans(), st.just(["KeyError"])),
    "retries": st.one_of(st.none(), TEXT, st.just({}), st.just([1])),
}
RETRY = {
    "number": st.one_of(NOT_A_COUNT, st.just(0)),
    "error_type": st.one_of(st.integers(), st.booleans(), st.just([])),
    "reason": st.one_of(st.none(), st.integers(), st.booleans()),
    "delay": NOT_A_DELAY,
}


def _key(where: str) -> str:
    return where.rsplit(".", 1)[-1]


@settings(max_examples=300, deadline=None)
@given(waits(), st.data())
def test_one_wrong_field_of_a_written_record_is_refused_at_from_json(
    wait: dict[str, Any], draw: st.DataObject
) -> None:
    written = records(wait)
    saved = draw.draw(st.sampled_from(written), label="record")
    data = json.loads(saved.to_json())
    paths: list[tuple[str, dict[str, Any], str, st.SearchStrategy[Any]]] = [
        (key, data, key, values) for key, values in TOP.items()
    ]
    expected = data["started_at"] + (
        math.inf if data["max_wait_time"] is None else data["max_wait_time"]
    )
    paths.append(
        (
            "deadline",
            data,
            "deadline",
            st.one_of(
                NOT_A_NUMBER,
                NOT_FINITE,
                st.floats(allow_nan=False).filter(lambda v: v != expected),
                st.none() if math.isfinite(expected) else st.nothing(),
            ),
        )
    )
    paths.append(("rng_state gauss", data["rng_state"], 2, NOT_A_NUMBER | NOT_FINITE))
    if data["max_attempts"] is not None:
        paths.append(
            (
                "attempts",
                data,
                "attempts",
                st.integers(data["max_attempts"] + 1, data["max_attempts"] + 10),
            )
        )
    for index, entry in enumerate(data["history"]):
        name = f"history[{index}]"
        paths += [(f"{name}.{k}", entry, k, v) for k, v in ENTRY.items()]
        paths.append(
            (
                f"{name}.number",
                entry,
                "number",
                st.integers(data["attempts"] + 1, data["attempts"] + 10),
            )
        )
        for at, one in enumerate(entry["retries"]):
            where = f"{name}.retries[{at}]"
            paths += [(f"{where}.{k}", one, k, v) for k, v in RETRY.items()]
    name, holder, key, values = draw.draw(st.sampled_from(paths), label="field")
    if draw.draw(st.booleans(), label="drop") and isinstance(key, str):
        del holder[key]
        said = [f"has no {name}"]
    else:
        holder[key] = draw.draw(values, label="value")
        # The field named is the one changed, or the one it must agree with: a
        # start moved away from its deadline, a cap below the poll count.
        said = [name, RELATED.get(name, name)]
    if name == "version":
        with pytest.raises(WaiterConfigurationError, match=r"\(version 1\)"):
            SavedWait.from_json(json.dumps(data))
        return
    message = refused(data)
    assert any(field in message for field in said), (name, message)


RELATED = {
    "started_at": "deadline",
    "max_wait_time": "max_attempts is null",
    "max_attempts": "attempts",
}


def test_poll_once_holds_acceptor_indexes_to_the_waiters_acceptors() -> None:
    waiter, calls = generated_waiter()
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    step = waiter.poll_once(SavedWait.from_json(json.dumps(data)))
    if step.state is None:
        return
    data = json.loads(step.state.to_json())
    data["history"][0]["acceptor_index"] = 99
    with pytest.raises(WaiterConfigurationError, match="acceptor_index"):
        waiter.poll_once(SavedWait.from_json(json.dumps(data)))


def test_why_retries_stopped_survives_a_saved_wait() -> None:
    """`Attempt.retry_stopped` was left out of the record, so a resumed wait's
    history lost it (found by review, 2026-11-27)."""
    clock = VirtualClock(0.0, wall_start=WALL_START)

    def throttled(request: Any) -> Any:
        raise ServiceError("ThrottlingException")

    strategy = StandardRetryStrategy(max_attempts=2, token_bucket=None, clock=clock)
    waiter = Thing(throttled, clock=clock, retry=strategy)
    saved = waiter.start({}, max_wait_time=600, seed=1)
    try:
        step = waiter.poll_once(saved)
        assert step.state is not None
        attempts = SavedWait.from_json(step.state.to_json()).wait_state().history
        [attempt] = list(attempts)
    except WaiterError as error:
        [attempt] = error.result.history
    assert attempt.retry_stopped == "max_attempts"
    data = json.loads(waiter.start({}, max_wait_time=600, seed=1).to_json())
    entry = steps.attempt_to_data(attempt)
    assert entry["retry_stopped"] == "max_attempts"
    data.update(attempts=1, history=[{**entry, "retry_stopped": "bored"}])
    with pytest.raises(WaiterConfigurationError, match=r"history\[0\]\.retry_stopped"):
        SavedWait.from_json(json.dumps(data))
