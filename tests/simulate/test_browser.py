"""The HTML page in a real headless Chromium: the screenshot is not blank, one mark per check."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from waitable.simulate.commands import waitable

from .png import read_pixels


def write_page(tmp_path: Path) -> dict[str, object]:
    page = tmp_path / "simulate.html"
    result = CliRunner().invoke(
        waitable,
        [
            "simulate",
            "--compare",
            "smithy,fixedDelayWithoutJitter:delay=15:max_attempts=40,"
            "exponentialDelayHalfJitter",
            "--ready-uniform",
            "0",
            "600",
            "--wait-timeout",
            "900",
            "--runs",
            "30",
            "--json",
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_chromium_draws_the_page_with_a_mark_per_check(
    tmp_path: Path, run_chromium: Callable[..., str]
) -> None:
    data = write_page(tmp_path)
    url = (tmp_path / "simulate.html").as_uri()
    shot = tmp_path / "shot.png"
    run_chromium(f"--screenshot={shot}", "--window-size=1200,800", url)
    width, height, pixels = read_pixels(shot)
    assert (width, height) == (1200, 800)
    colours = Counter(pixels)
    background, most = colours.most_common(1)[0]
    # Not blank: many pixels differ from the background, in several colours
    # (the green of a ready check among them).
    assert len(pixels) - most > 5000
    assert len(colours) > 20
    assert any(g > 120 and r < 100 and b < 100 for r, g, b, *_ in colours)

    dom = run_chromium("--dump-dom", url)
    lanes = re.findall(r'<g class="lane" data-label="([^"]*)">(.*?)</g>', dom, re.S)
    strategies = data["strategies"]
    assert isinstance(strategies, list)
    assert [label for label, _ in lanes] == [s["label"] for s in strategies]
    for (_, body), strategy in zip(lanes, strategies):
        marks = re.findall(r'<circle class="check (ready|pending)"', body)
        checks = strategy["timeline"]["checks"]
        assert marks == [check["outcome"] for check in checks]
