"""The timeline picture: a time axis, one lane per candidate (a mark per check, the ready moment, the end), the summary table.

Coordinates use fixed formatting (`%.2f`), so one seed gives byte-identical SVG.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from .report import Lane, Report, seconds_text, summary_cells

__all__ = ["LEFT", "PLOT_WIDTH", "render_svg", "x_of"]

WIDTH = 960
LEFT = 240
RIGHT = 40
PLOT_WIDTH = WIDTH - LEFT - RIGHT
TOP = 44
LANE = 62
ROW = 20
COLUMNS = (
    ("strategy", 10, "start"),
    ("calls mean", 330, "end"),
    ("p95", 390, "end"),
    ("max", 450, "end"),
    ("lag p50", 540, "end"),
    ("p95", 600, "end"),
    ("max", 660, "end"),
    ("failed", 770, "end"),
)
_SHOWN = (0, 1, 3, 4, 5, 6, 7, 8)
"""The columns of `summary_cells` the picture's table shows (calls p50 left out for room)."""
STYLE = (
    "text{font-family:sans-serif;font-size:12px;fill:#222}"
    ".title{font-size:14px;font-weight:bold}"
    ".label{font-weight:bold}.small{font-size:10px;fill:#555}"
    ".track{stroke:#bbb;stroke-width:1}"
    ".check.pending{fill:#fff;stroke:#3465a4;stroke-width:1.5}"
    ".check.ready{fill:#2e9d3a;stroke:#1b5e20;stroke-width:1.5}"
    ".ready{stroke:#cc0000;stroke-width:1.5;stroke-dasharray:4 3}"
    ".end{stroke:#222;stroke-width:3}.axis{stroke:#444;stroke-width:1}"
)


def _n(value: float) -> str:
    return f"{value:.2f}"


def x_of(time: float, horizon: float) -> float:
    """The x coordinate of `time` seconds on an axis ending at `horizon`."""
    return LEFT + PLOT_WIDTH * time / horizon


def _step(horizon: float) -> float:
    raw = horizon / 8
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return float(factor * magnitude)
    return float(10 * magnitude)  # pragma: no cover - the loop always returns


def _lane(lane: Lane, index: int, horizon: float) -> list[str]:
    top = TOP + index * LANE
    y = top + 26
    run = lane.timeline
    settings = ", ".join(
        f"{key}={value}" for key, value in lane.candidate.settings if key != "strategy"
    )
    out = [
        f'<g class="lane" data-label={quoteattr(lane.candidate.label)}>',
        f'<text class="label" x="10" y="{_n(y - 2)}">{escape(lane.candidate.label)}</text>',
        f'<text class="small" x="10" y="{_n(y + 12)}">{escape(settings)}</text>',
        f'<line class="track" x1="{LEFT}" y1="{_n(y)}" x2="{LEFT + PLOT_WIDTH}" y2="{_n(y)}"/>',
    ]
    ready_x = x_of(run.ready_at, horizon)
    out.append(
        f'<line class="ready" data-time="{_n(run.ready_at)}" x1="{_n(ready_x)}" '
        f'y1="{_n(y - 16)}" x2="{_n(ready_x)}" y2="{_n(y + 16)}"/>'
    )
    for check in run.checks:
        kind = "ready" if check.outcome == "ready" else "pending"
        out.append(
            f'<circle class="check {kind}" data-time="{_n(check.time)}" '
            f'cx="{_n(x_of(check.time, horizon))}" cy="{_n(y)}" r="4.5">'
            f"<title>check {check.number} at {seconds_text(check.time)} s "
            f"after {seconds_text(check.delay)} s: {escape(check.outcome)}</title></circle>"
        )
    end_x = x_of(run.ended_at, horizon)
    out.append(
        f'<line class="end" data-time="{_n(run.ended_at)}" x1="{_n(end_x)}" '
        f'y1="{_n(y - 10)}" x2="{_n(end_x)}" y2="{_n(y + 10)}"/>'
    )
    anchor = "end" if end_x > LEFT + PLOT_WIDTH * 0.8 else "start"
    shift = -6 if anchor == "end" else 6
    out.append(
        f'<text class="small" x="{_n(end_x + shift)}" y="{_n(y - 12)}" '
        f'text-anchor="{anchor}">{escape(run.end)} at {seconds_text(run.ended_at)} s</text>'
    )
    out.append("</g>")
    return out


def render_svg(report: Report) -> str:
    """The SVG document: stacked timelines of each candidate's first run, then the summary table."""
    horizon = report.horizon
    axis_y = TOP + len(report.lanes) * LANE + 6
    table_y = axis_y + 50
    height = table_y + ROW * (len(report.lanes) + 1) + 16
    title = (
        f"first run of each strategy; summary over {report.runs} runs "
        f"(seed {report.seed}), resource {report.resource.describe()}"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}">',
        f"<style>{STYLE}</style>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text class="title" x="10" y="22">{escape(title)}</text>',
    ]
    for index, lane in enumerate(report.lanes):
        out += _lane(lane, index, horizon)
    out.append(
        f'<line class="axis" x1="{LEFT}" y1="{axis_y}" x2="{LEFT + PLOT_WIDTH}" y2="{axis_y}"/>'
    )
    step = _step(horizon)
    ticks = int(horizon // step)
    for i in range(ticks + 1):
        x = x_of(i * step, horizon)
        out.append(
            f'<line class="axis" x1="{_n(x)}" y1="{axis_y}" x2="{_n(x)}" y2="{axis_y + 5}"/>'
            f'<text x="{_n(x)}" y="{axis_y + 18}" text-anchor="middle">'
            f"{seconds_text(i * step)}</text>"
        )
    out.append(
        f'<text class="small" x="{LEFT + PLOT_WIDTH}" y="{axis_y + 32}" '
        'text-anchor="end">seconds since the wait started; ○ pending, ● ready, '
        "red dashes: resource ready, bar: end</text>"
    )
    out.append('<g class="summary">')
    for name, x, anchor in COLUMNS:
        out.append(
            f'<text class="label" x="{x}" y="{table_y}" text-anchor="{anchor}">{name}</text>'
        )
    for row, lane in enumerate(report.lanes, start=1):
        row_cells = summary_cells(lane)
        cells = [row_cells[index] for index in _SHOWN]
        y = table_y + row * ROW
        for (_, x, anchor), cell in zip(COLUMNS, cells):
            out.append(
                f'<text x="{x}" y="{y}" text-anchor="{anchor}">{escape(cell)}</text>'
            )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
