"""The terminal report names the delays and limits each strategy ran with, its
defaults included: `--strategy fixedDelay` alone used to say nothing of the 5 s
delay it waited."""

from __future__ import annotations

from click.testing import CliRunner

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
