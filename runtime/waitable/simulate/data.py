"""The report as JSON: fixed rounding and key order, so one seed gives byte-identical text."""

from __future__ import annotations

import json
from typing import Any

from .report import Report
from .simulation import Run

__all__ = ["render_json", "report_data"]

#: Decimal places kept for every float, so the text does not depend on float noise.
PLACES = 6


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        rounded = round(value, PLACES)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(item) for item in value]
    return value


def run_data(run: Run) -> dict[str, Any]:
    """One run as JSON data: ready time, checks, end, lag."""
    return {
        "ready_at": run.ready_at,
        "checks": [
            {"number": c.number, "time": c.time, "delay": c.delay, "outcome": c.outcome}
            for c in run.checks
        ],
        "end": run.end,
        "ended_at": run.ended_at,
        "lag": run.lag,
    }


def report_data(report: Report) -> dict[str, Any]:
    """The whole report as JSON data (floats rounded to `PLACES`)."""
    data = {
        "runs": report.runs,
        "seed": report.seed,
        "resource": report.resource.to_data(),
        "strategies": [
            {
                "label": lane.candidate.label,
                "settings": report.settings(lane),
                "summary": lane.summary.to_data(),
                "timeline": run_data(lane.timeline),
            }
            for lane in report.lanes
        ],
    }
    rounded: dict[str, Any] = _rounded(data)
    return rounded


def render_json(report: Report) -> str:
    """`report_data` as indented JSON text ending in a newline."""
    return json.dumps(report_data(report), indent=2, ensure_ascii=False) + "\n"
