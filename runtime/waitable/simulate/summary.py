"""Statistics over many runs: calls made, detection lag, the share that failed (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from .simulation import Run

__all__ = ["Summary", "percentile", "summarize"]


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank `p`th percentile (0 < p <= 100) of non-empty `values`."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Summary:
    """One candidate over many runs; lag figures are None when no run succeeded."""

    label: str
    runs: int
    calls_mean: float
    calls_p50: float
    calls_p95: float
    calls_max: float
    lag_p50: float | None
    lag_p95: float | None
    lag_max: float | None
    failures: int

    @property
    def failure_share(self) -> float:
        """The fraction of runs ending in a timeout or with the attempts exhausted."""
        return self.failures / self.runs

    def to_data(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "label": self.label,
            "runs": self.runs,
            "calls": {
                "mean": self.calls_mean,
                "p50": self.calls_p50,
                "p95": self.calls_p95,
                "max": self.calls_max,
            },
            "lag": {"p50": self.lag_p50, "p95": self.lag_p95, "max": self.lag_max},
            "failures": self.failures,
            "failure_share": self.failure_share,
        }


def summarize(label: str, runs: Sequence[Run]) -> Summary:
    """The `Summary` of `runs` (at least one)."""
    calls = [float(len(run.checks)) for run in runs]
    lags = [run.lag for run in runs if run.lag is not None]
    return Summary(
        label,
        len(runs),
        fmean(calls),
        percentile(calls, 50),
        percentile(calls, 95),
        max(calls),
        percentile(lags, 50) if lags else None,
        percentile(lags, 95) if lags else None,
        max(lags) if lags else None,
        sum(1 for run in runs if run.failed),
    )
