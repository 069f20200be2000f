"""What every renderer draws: for each candidate, its first run's timeline and its summary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .resource import ResourceModel
from .simulation import Candidate, Limits, Run, simulate_all, wait_limits
from .summary import Summary, summarize

__all__ = [
    "HEADERS",
    "Lane",
    "Report",
    "build_report",
    "seconds_text",
    "summary_cells",
]

HEADERS = (
    "strategy",
    "calls mean",
    "p50",
    "p95",
    "max",
    "lag p50",
    "p95",
    "max",
    "failed",
)
"""The summary table's columns, as every renderer heads them."""


def seconds_text(value: float | None) -> str:
    """Seconds for people: one decimal, no trailing `.0`; `-` for None."""
    if value is None:
        return "-"
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _exactly(value: float) -> str:
    """A setting as given (`0.04`, not the one decimal of `seconds_text`), with no
    trailing `.0`: the settings are what was asked for, not a measurement."""
    return str(int(value)) if value.is_integer() else repr(value)


@dataclass(frozen=True, slots=True)
class Lane:
    """One candidate: the timeline of its first run, its summary, the limits it ran under."""

    candidate: Candidate
    timeline: Run
    summary: Summary
    limits: Limits


def summary_cells(lane: Lane) -> tuple[str, ...]:
    """A lane's row of the summary table as text, in the order of `HEADERS`."""
    s = lane.summary
    return (
        lane.candidate.label,
        f"{s.calls_mean:.1f}",
        seconds_text(s.calls_p50),
        seconds_text(s.calls_p95),
        seconds_text(s.calls_max),
        seconds_text(s.lag_p50),
        seconds_text(s.lag_p95),
        seconds_text(s.lag_max),
        f"{s.failures} ({100 * s.failure_share:.1f}%)",
    )


@dataclass(frozen=True, slots=True)
class Report:
    """A simulation: the resource, how many runs, the seed, and one lane per candidate."""

    resource: ResourceModel
    runs: int
    seed: int
    lanes: tuple[Lane, ...]

    @property
    def horizon(self) -> float:
        """The time axis' end: the latest end, ready time or configured deadline."""
        ends = [0.0]
        for lane in self.lanes:
            ends += [lane.timeline.ended_at, lane.timeline.ready_at]
            if lane.limits.wait_timeout is not None:
                ends.append(float(lane.limits.wait_timeout))
        return max(ends) or 1.0

    def settings(self, lane: Lane) -> dict[str, Any]:
        """The lane's configuration as JSON data, with the limits that applied.

        `wait_timeout` and `max_attempts` are the engine's, so a waiter's own
        (a builder's `max_attempts=120`) shows; a waiter run with its own backoff
        shows the delay bounds it used.
        """
        limits = lane.limits
        data: dict[str, Any] = dict(lane.candidate.settings)
        data.setdefault("waiter", lane.candidate.waiter_class.__qualname__)
        if "strategy" not in data:
            data.setdefault("min_delay", limits.min_delay)
            data.setdefault("max_delay", limits.max_delay)
        data["wait_timeout"] = limits.wait_timeout
        data["max_attempts"] = limits.max_attempts
        data["call_duration"] = lane.candidate.call_duration
        return data

    def settings_line(self, lane: Lane) -> str:
        """`settings` as `key=value` pairs for a person, unset ones left out: the
        delays a strategy ran with show even when they were its defaults."""
        data = self.settings(lane)
        if "strategy" in data:
            data.pop("waiter", None)  # the simulated resource's own class
        for key in ("strategy", "waiter"):
            if data.get(key) == lane.candidate.label:
                del data[key]  # the row's name says it
        return ", ".join(
            f"{key}={_exactly(value) if isinstance(value, float) else value}"
            for key, value in data.items()
            if value is not None
        )


def build_report(
    candidates: Sequence[Candidate], resource: ResourceModel, *, runs: int, seed: int
) -> Report:
    """Simulate every candidate over the same ready times and summarize each."""
    results = simulate_all(candidates, resource, runs=runs, seed=seed)
    lanes = tuple(
        Lane(
            candidate,
            runs_of[0],
            summarize(candidate.label, runs_of),
            wait_limits(candidate),
        )
        for candidate, runs_of in zip(candidates, results)
    )
    return Report(resource, runs, seed, lanes)
