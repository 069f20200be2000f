"""The HTML page: one self-contained file (inline SVG, inline style, no network)."""

from __future__ import annotations

from html import escape

from .report import HEADERS, Report, summary_cells
from .svg import render_svg

__all__ = ["render_html"]

STYLE = (
    "body{font-family:sans-serif;margin:24px;color:#222;background:#fff}"
    "table{border-collapse:collapse;margin-top:16px}"
    "th,td{border:1px solid #ccc;padding:4px 10px;text-align:right}"
    "th:first-child,td:first-child{text-align:left}"
)


def render_html(report: Report) -> str:
    """The SVG timelines and the summary as an HTML table, in one page."""
    rows = []
    for lane in report.lanes:
        cells = summary_cells(lane)
        rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    head = "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in HEADERS) + "</tr>"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>waitable simulate</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>waitable simulate</h1>\n<p>{escape(report.resource.describe())}; "
        f"{report.runs} runs, seed {report.seed}. Lag is the time from the resource "
        "becoming ready to the check that saw it.</p>\n"
        f"{render_svg(report)}"
        f"<table>\n<thead>{head}</thead>\n<tbody>\n"
        + "\n".join(rows)
        + "\n</tbody>\n</table>\n"
        "</body>\n</html>\n"
    )
