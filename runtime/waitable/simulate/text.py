"""The terminal report: one row per candidate, and a one-line timeline of each one's first run."""

from __future__ import annotations

from .report import HEADERS, Report, seconds_text, summary_cells
from .simulation import Run

__all__ = ["render_text", "still_clock_note", "timeline_line"]

#: Checks shown at each end of a long timeline; the middle is counted, not listed.
KEEP = 5


def timeline_line(run: Run) -> str:
    """`0 ○ 2 ○ 6 ○ ▼ready 9.5 14 ● → success at 14 s, lag 4.5 s` (○ pending, ● ready).

    A long run shows its first and last `KEEP` checks and counts the ones between.
    """
    parts = []
    marked = False
    for check in run.checks:
        if not marked and check.time >= run.ready_at:
            parts.append(f"▼ready {seconds_text(run.ready_at)}")
            marked = True
        parts.append(
            f"{seconds_text(check.time)} {'●' if check.outcome == 'ready' else '○'}"
        )
    if not marked:
        parts.append(f"(ready at {seconds_text(run.ready_at)})")
    if len(parts) > 2 * KEEP + 1:
        hidden = parts[KEEP:-KEEP]
        ready = [p for p in hidden if p.startswith("▼")]
        note = f"… {len(hidden) - len(ready)} more checks"
        note += f", {ready[0]} …" if ready else " …"
        parts = parts[:KEEP] + [note] + parts[-KEEP:]
    ending = f"→ {run.end} at {seconds_text(run.ended_at)} s"
    if run.lag is not None:
        ending += f", lag {seconds_text(run.lag)} s"
    return " ".join(parts + [ending])


def render_text(report: Report) -> str:
    """The table and timelines as plain text with aligned columns."""
    rows: list[tuple[str, ...]] = [HEADERS]
    rows += [summary_cells(lane) for lane in report.lanes]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADERS))]
    lines = [
        f"{report.runs} runs, seed {report.seed}, resource {report.resource.describe()}",
        "",
    ]
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    lines += ["", "settings (seconds):"]
    lines += [
        f"  {lane.candidate.label}: {report.settings_line(lane)}"
        for lane in report.lanes
    ]
    lines += ["", "first run (○ pending, ● ready; times in seconds):"]
    for lane in report.lanes:
        lines.append(f"  {lane.candidate.label}: {timeline_line(lane.timeline)}")
    notes = [
        f"  {lane.candidate.label}: {note}"
        for lane in report.lanes
        if (note := still_clock_note(lane.timeline))
    ]
    if notes:
        lines += ["", "note:", *notes]
    return "\n".join(lines) + "\n"


def still_clock_note(run: Run) -> str:
    """What to change when a run failed with all its checks at one instant (no
    delay between them and calls that take no time: seed 004's `retryImmediately`
    with `--max-attempts`), so the resource's change could never be seen; else ""."""
    checks = run.checks
    if not run.failed or len(checks) < 2 or run.ready_at <= checks[0].time:
        return ""
    if any(check.time != checks[0].time for check in checks):
        return ""
    return (
        f"all {len(checks)} checks were made at {seconds_text(checks[0].time)} s "
        "(no delay between checks, and calls that take no time), so the change at "
        f"{seconds_text(run.ready_at)} s cannot be seen; give the calls a duration "
        "(--call-duration 0.2, or call_duration=0.2 in a --compare entry: seed "
        "004's simulator gives each call time)"
    )
