"""The terminal report names the delays and limits each strategy ran with, its
defaults included: `--strategy fixedDelay` alone used to say nothing of the 5 s
delay it waited."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from waitable.custom import custom_waiter, path, success
from waitable.simulate import simulation
from waitable.simulate.commands import waitable


def _report(*args: str) -> str:
    result = CliRunner().invoke(waitable, ["simulate", "--runs", "20", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_strategy_without_its_delay_option_shows_the_default_it_used() -> None:
    out = _report("--strategy", "fixedDelay", "--wait-timeout", "60")
    assert "settings (seconds):\n  fixedDelay: delay=5, wait_timeout=60," in out


def test_given_delays_and_labels_show_per_strategy() -> None:
    out = _report(
        "--compare",
        "smithy,exponentialDelay:base_delay=2.5,fixedDelay:delay=3:label=fx",
        "--wait-timeout",
        "60",
    )
    assert "  smithy: min_delay=2, max_delay=120, wait_timeout=60," in out
    assert "  exponentialDelay:base_delay=2.5: strategy=exponentialDelay, " in out
    assert "base_delay=2.5, max_delay=20," in out
    assert "  fx: strategy=fixedDelay, delay=3, wait_timeout=60," in out


def test_a_waiter_class_shows_its_own_bounds() -> None:
    out = _report(
        "--waiter",
        "waitable.simulate.simulation:SimulatedResource",
        "--max-attempts",
        "4",
    )
    assert (
        "  waitable.simulate.simulation:SimulatedResource: min_delay=2, "
        "max_delay=120, max_attempts=4, call_duration=0\n" in out
    )


def test_a_waiter_class_with_a_strategy_shows_the_strategys_default_delay() -> None:
    """`--waiter X --strategy fixedDelay` waited the strategy's default 5 s and
    the report (text and JSON) left it out."""
    out = _report(
        "--waiter",
        "waitable.simulate.simulation:SimulatedResource",
        "--strategy",
        "fixedDelay",
        "--wait-timeout",
        "30",
    )
    assert "strategy=fixedDelay, delay=5, wait_timeout=30," in out
    data = json.loads(
        CliRunner()
        .invoke(
            waitable,
            [
                "simulate",
                "--runs",
                "5",
                "--waiter",
                "waitable.simulate.simulation:SimulatedResource",
                "--strategy",
                "exponentialDelay",
                "--base-delay",
                "3",
                "--wait-timeout",
                "30",
                "--json",
            ],
        )
        .output
    )
    (row,) = data["strategies"]
    assert row["settings"]["base_delay"] == 3 and row["settings"]["max_delay"] == 20


def test_settings_show_the_delays_as_given_not_rounded() -> None:
    """The text report rounded settings to one decimal (`delay=0` for 0.04),
    disagreeing with the JSON and the command line."""
    out = _report(
        "--strategy",
        "fixedDelayWithoutJitter",
        "--delay",
        "0.04",
        "--wait-timeout",
        "0.3",
        "--ready-after",
        "0.1",
    )
    assert "  fixedDelayWithoutJitter: delay=0.04, wait_timeout=0.3," in out


def test_retry_immediately_runs_on_a_waiter_that_caps_its_own_attempts() -> None:
    """Refused before ("never lets the virtual clock move"), though the waiter's
    own `max_attempts` ends every run."""
    out = _report(
        "--waiter",
        "tests.simulate.test_simulate_settings:Capped",
        "--strategy",
        "retryImmediately",
    )
    assert "strategy=retryImmediately, max_attempts=5," in out


Capped = custom_waiter(
    "Capped", acceptors=[success(path("status") == "ready")], max_attempts=5
)


def test_too_many_checks_says_how_far_the_run_got_and_what_to_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It blamed a configuration that "barely lets time move" even when time moved
    fine and the run was simply long."""
    monkeypatch.setattr(simulation, "MAX_CHECKS", 50)
    result = CliRunner().invoke(
        waitable,
        [
            "simulate",
            "--runs",
            "1",
            "--strategy",
            "fixedDelayWithoutJitter",
            "--delay",
            "1",
            "--wait-timeout",
            "200",
            "--ready-after",
            "150",
        ],
    )
    assert result.exit_code != 0
    assert "more than 50 checks in one run (at 50s of simulated time)" in result.output
    assert "barely" not in result.output


def test_a_check_at_the_ready_time_by_a_sum_of_delays_sees_it_ready() -> None:
    """Ten delays of 0.1 s add up to 0.9999999999999999: the check shown "at 1"
    saw the resource pending, with a lag of 0.1 s."""
    out = _report(
        "--strategy",
        "fixedDelayWithoutJitter",
        "--delay",
        "0.1",
        "--wait-timeout",
        "3",
        "--ready-after",
        "1",
    )
    assert "0.9 ○ 1 ● (ready at 1) → success at 1 s, lag 0 s" in out


def test_checks_all_at_one_instant_are_explained() -> None:
    """Seed 004's `retryImmediately` example (10 attempts, ready after 1 s) with
    calls that take no time failed every run at 0 s, with no word on why (review
    s23, finding 4): the report now says what to pass."""
    out = _report(
        "--strategy", "retryImmediately", "--max-attempts", "10", "--ready-after", "1"
    )
    assert out.endswith(
        "\nnote:\n  retryImmediately: all 10 checks were made at 0 s (no delay "
        "between checks, and calls that take no time), so the change at 1 s cannot "
        "be seen; give the calls a duration (--call-duration 0.2, or "
        "call_duration=0.2 in a --compare entry: seed 004's simulator gives each "
        "call time)\n"
    )
    timed = _report(
        "--strategy",
        "retryImmediately",
        "--max-attempts",
        "10",
        "--ready-after",
        "1",
        "--call-duration",
        "0.2",
    )
    assert "note:" not in timed
    assert "→ success at 1.2 s" in timed


def test_only_the_lane_whose_clock_stood_still_gets_the_note() -> None:
    out = _report(
        "--compare",
        "retryImmediately:max_attempts=3:label=still,"
        "retryImmediately:max_attempts=3:call_duration=1:label=moving,"
        "fixedDelay:delay=2:max_attempts=5",
        "--ready-after",
        "4",
    )
    notes = out.split("\nnote:\n", 1)[1].splitlines()
    assert notes == [
        "  still: all 3 checks were made at 0 s (no delay between checks, and calls "
        "that take no time), so the change at 4 s cannot be seen; give the calls a "
        "duration (--call-duration 0.2, or call_duration=0.2 in a --compare entry: "
        "seed 004's simulator gives each call time)"
    ]


def test_a_resource_ready_from_the_start_needs_no_note() -> None:
    out = _report(
        "--strategy", "retryImmediately", "--max-attempts", "3", "--ready-after", "0"
    )
    assert "note:" not in out
