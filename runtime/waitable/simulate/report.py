"""What every renderer draws: for each candidate, its first run's timeline and its summary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .resource import ResourceModel
from .simulation import Candidate, Run, simulate_all
from .summary import Summary, summarize

__all__ = ["Lane", "Report", "build_report", "seconds_text"]


def seconds_text(value: float | None) -> str:
    """Seconds for people: one decimal, no trailing `.0`; `-` for None."""
    if value is None:
        return "-"
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class Lane:
    """One candidate: its label, settings, the timeline of its first run, its summary."""

    candidate: Candidate
    timeline: Run
    summary: Summary


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
            deadline = (
                lane.candidate.max_wait_time or lane.candidate.config.wait_timeout
            )
            if deadline is not None:
                ends.append(float(deadline))
        return max(ends) or 1.0

    def settings(self, lane: Lane) -> dict[str, Any]:
        """The lane's configuration as JSON data."""
        config = lane.candidate.config
        data: dict[str, Any] = dict(lane.candidate.settings)
        data.setdefault("waiter", lane.candidate.waiter_class.__qualname__)
        wait_timeout = lane.candidate.max_wait_time or config.wait_timeout
        data["wait_timeout"] = wait_timeout
        data["max_attempts"] = config.max_attempts
        data["call_duration"] = lane.candidate.call_duration
        return data


def build_report(
    candidates: Sequence[Candidate], resource: ResourceModel, *, runs: int, seed: int
) -> Report:
    """Simulate every candidate over the same ready times and summarize each."""
    results = simulate_all(candidates, resource, runs=runs, seed=seed)
    lanes = tuple(
        Lane(candidate, runs_of[0], summarize(candidate.label, runs_of))
        for candidate, runs_of in zip(candidates, results)
    )
    return Report(resource, runs, seed, lanes)
