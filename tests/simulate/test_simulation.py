"""The simulator's runs, statistics and pictures, checked against the engine's own history."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import Attempt, WaiterConfigurationError
from waitable.config import STRATEGY_NAMES
from waitable.simulate import (
    ResourceModel,
    percentile,
    simulate,
    simulate_run,
    strategy_candidate,
    summarize,
)
from waitable.simulate.data import render_json
from waitable.simulate.report import build_report
from waitable.simulate.simulation import Check, Run, SimulatedResource, plan_runs
from waitable.simulate.svg import render_svg, x_of
from waitable.simulate.text import render_text, timeline_line
from waitable.testing import VirtualClock

SVG = "{http://www.w3.org/2000/svg}"
STRATEGIES = [name for name in STRATEGY_NAMES if name != "retryImmediately"]


def candidate(name: str, **options: Any) -> Any:
    options.setdefault("wait_timeout", 300)
    return strategy_candidate(name, **options)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(STRATEGIES),
    st.floats(min_value=0, max_value=400, allow_nan=False),
    st.integers(min_value=0, max_value=2**32),
)
def test_a_run_sees_ready_only_after_the_ready_time_and_its_lag_is_under_the_last_delay(
    name: str, ready_at: float, seed: int
) -> None:
    run = simulate_run(candidate(name), ready_at, seed)
    times = [check.time for check in run.checks]
    assert times == sorted(times) and times[0] == 0
    for check in run.checks:  # ready from ready_at on, to the nanosecond
        assert (check.outcome == "ready") == (check.time >= ready_at - 1e-9)
    if run.end == "success":
        assert run.lag is not None and run.checks[-1].outcome == "ready"
        # The check before saw pending, so the resource turned ready during the last delay.
        assert 0 <= run.lag <= (run.checks[-1].delay if len(run.checks) > 1 else 0)
    else:
        assert run.lag is None and run.end == "timed out"
        assert all(check.outcome == "pending" for check in run.checks)
        assert ready_at - 1e-9 > run.checks[-1].time


def test_attempts_exhausted_and_timeouts_are_failures() -> None:
    capped = strategy_candidate(
        "fixedDelayWithoutJitter", delay=15, max_attempts=40, wait_timeout=900
    )
    late = simulate_run(capped, 590, 0)
    assert late.end == "attempts exhausted" and late.failed
    assert [c.time for c in late.checks] == [15 * i for i in range(40)]
    in_time = simulate_run(capped, 580, 0)
    assert in_time.end == "success" and in_time.lag == 5
    timed_out = simulate_run(candidate("smithy", wait_timeout=60), 100, 3)
    assert timed_out.end == "timed out" and timed_out.failed
    # The Smithy last-attempt rule: the final check is at the deadline.
    assert timed_out.checks[-1].time == 60


def test_runs_are_the_engines_history() -> None:
    """The timeline is what `on_attempt` reports for the same wait."""
    seen: list[Attempt[Any]] = []
    clock = VirtualClock()

    def operation(input: Any) -> dict[str, str]:
        return {"status": "ready" if clock.now() >= 123 else "pending"}

    waiter = SimulatedResource(
        operation,
        clock=clock,
        rng=random.Random(7),
        on_attempt=seen.append,
        config=candidate("exponentialDelay").config,
    )
    waiter.wait()
    run = simulate_run(candidate("exponentialDelay"), 123, 7)
    assert [(c.number, c.time, c.delay) for c in run.checks] == [
        (a.number, a.started_at, a.delay) for a in seen
    ]


def test_call_duration_moves_the_clock_for_retry_immediately() -> None:
    run = simulate_run(
        strategy_candidate("retryImmediately", wait_timeout=10, call_duration=0.5),
        3,
        0,
    )
    assert [c.time for c in run.checks] == [0.5 * i for i in range(7)]
    with pytest.raises(WaiterConfigurationError, match="never lets the virtual clock"):
        strategy_candidate("retryImmediately", wait_timeout=10)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]
    assert percentile(values, 50) == 10
    assert percentile(values, 95) == 19
    assert percentile(values, 100) == 20
    assert percentile([4.0], 95) == 4


def test_summary_counts_calls_lags_and_failures() -> None:
    def run(checks: int, lag: float | None) -> Run:
        return Run(
            0,
            tuple(Check(i + 1, i, 1, "pending") for i in range(checks)),
            "success" if lag is not None else "timed out",
            checks,
            lag,
        )

    summary = summarize("x", [run(2, 1), run(4, 3), run(6, None), run(8, 5)])
    assert (summary.calls_mean, summary.calls_p50, summary.calls_max) == (5, 4, 8)
    assert (summary.lag_p50, summary.lag_max) == (3, 5)
    assert summary.failures == 1 and summary.failure_share == 0.25


def test_every_candidate_sees_the_same_ready_times() -> None:
    resource = ResourceModel(0, 600)
    plan = plan_runs(resource, 20, 5)
    for name in ("smithy", "fixedDelay"):
        runs = simulate(candidate(name, wait_timeout=900), resource, runs=20, seed=5)
        assert [r.ready_at for r in runs] == [ready for ready, _ in plan]
    assert len({ready for ready, _ in plan}) == 20


def report(seed: int = 1, runs: int = 30) -> Any:
    candidates = [
        candidate("smithy", wait_timeout=900),
        candidate(
            "fixedDelayWithoutJitter", delay=15, max_attempts=40, wait_timeout=900
        ),
        candidate("exponentialDelayHalfJitter", wait_timeout=900),
    ]
    return build_report(candidates, ResourceModel(0, 600), runs=runs, seed=seed)


def test_same_seed_gives_identical_json_and_svg_and_another_seed_does_not() -> None:
    first, again, other = report(1), report(1), report(2)
    assert render_json(first) == render_json(again)
    assert render_svg(first) == render_svg(again)
    assert render_json(first) != render_json(other)
    assert render_svg(first) != render_svg(other)


def test_svg_has_a_mark_per_check_where_the_history_puts_it() -> None:
    built = report()
    root = ET.fromstring(render_svg(built))
    lanes = root.findall(f"{SVG}g[@class='lane']")
    assert [lane.get("data-label") for lane in lanes] == [
        lane.candidate.label for lane in built.lanes
    ]
    horizon = built.horizon
    for element, lane in zip(lanes, built.lanes):
        marks = [
            c for c in element.iter(f"{SVG}circle") if "check" in c.get("class", "")
        ]
        assert len(marks) == len(lane.timeline.checks)
        for mark, check in zip(marks, lane.timeline.checks):
            assert float(mark.get("cx", "nan")) == pytest.approx(
                x_of(check.time, horizon), abs=0.01
            )
            assert mark.get("class") == f"check {check.outcome}"
        (ready,) = [e for e in element.iter(f"{SVG}line") if e.get("class") == "ready"]
        assert float(ready.get("x1", "nan")) == pytest.approx(
            x_of(lane.timeline.ready_at, horizon), abs=0.01
        )
        (end,) = [e for e in element.iter(f"{SVG}line") if e.get("class") == "end"]
        assert float(end.get("data-time", "nan")) == pytest.approx(
            lane.timeline.ended_at, abs=0.01
        )


def test_text_report_has_a_row_per_strategy_and_a_timeline_each() -> None:
    text = render_text(report())
    assert "30 runs, seed 1" in text
    for label in ("smithy", "fixedDelayWithoutJitter", "exponentialDelayHalfJitter"):
        assert sum(line.startswith(label) for line in text.splitlines()) == 1
        assert f"  {label}: 0 ○" in text


def test_timeline_line_counts_the_hidden_middle() -> None:
    run = Run(
        50.5,
        tuple(
            Check(i + 1, i * 5, 5 if i else 0, "pending" if i * 5 < 50.5 else "ready")
            for i in range(12)
        ),
        "success",
        55,
        4.5,
    )
    line = timeline_line(run)
    assert line.startswith("0 ○ 5 ○ 10 ○ 15 ○ 20 ○ … 3 more checks … 40 ○")
    assert line.endswith("▼ready 50.5 55 ● → success at 55 s, lag 4.5 s")
