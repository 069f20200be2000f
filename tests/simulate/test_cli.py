"""`waitable simulate` on the command line: the table, --compare, --json, files, --waiter, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from waitable.simulate.commands import waitable

COMPARE = (
    "smithy,fixedDelayWithoutJitter:delay=15:max_attempts=40:label=botocore,"
    "fixedDelay,exponentialDelayHalfJitter"
)


def invoke(*args: str) -> str:
    result = CliRunner().invoke(waitable, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result.output


def fails(*args: str) -> str:
    result = CliRunner().invoke(waitable, ["simulate", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output


def test_compare_prints_one_row_per_strategy() -> None:
    text = invoke(
        "--compare",
        COMPARE,
        "--ready-uniform",
        "0",
        "600",
        "--wait-timeout",
        "900",
        "--runs",
        "50",
        "--seed",
        "3",
    )
    rows = [line.split()[0] for line in text.splitlines()[4:8]]
    assert rows == ["smithy", "botocore", "fixedDelay", "exponentialDelayHalfJitter"]
    assert "50 runs, seed 3, resource ready uniformly between 0 s and 600 s" in text


def test_json_reports_settings_summary_and_timeline(tmp_path: Path) -> None:
    data = json.loads(
        invoke(
            "--strategy",
            "fixedDelayWithoutJitter",
            "--delay",
            "4",
            "--ready-after",
            "10",
            "--wait-timeout",
            "60",
            "--runs",
            "5",
            "--json",
        )
    )
    (strategy,) = data["strategies"]
    assert strategy["settings"]["delay"] == 4
    assert [c["time"] for c in strategy["timeline"]["checks"]] == [0, 4, 8, 12]
    assert strategy["timeline"]["lag"] == 2
    assert strategy["summary"]["calls"]["max"] == 4
    assert strategy["summary"]["failures"] == 0


def test_same_seed_same_bytes_for_json_svg_and_html(tmp_path: Path) -> None:
    outputs = []
    for name in ("a", "b"):
        svg, html = tmp_path / f"{name}.svg", tmp_path / f"{name}.html"
        text = invoke(
            "--compare",
            COMPARE,
            "--ready-uniform",
            "0",
            "600",
            "--wait-timeout",
            "900",
            "--runs",
            "40",
            "--json",
            "--svg",
            str(svg),
            "--html",
            str(html),
        )
        outputs.append((text, svg.read_bytes(), html.read_bytes()))
    assert outputs[0] == outputs[1]
    html_text = outputs[0][2].decode()
    assert "<svg" in html_text and "http://" not in html_text.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    assert "https://" not in html_text and "<script" not in html_text


def test_samples_from_a_file(tmp_path: Path) -> None:
    samples = tmp_path / "ready.txt"
    samples.write_text("5\n50\n", encoding="utf-8")
    data = json.loads(
        invoke(
            "--ready-samples",
            f"@{samples}",
            "--wait-timeout",
            "100",
            "--runs",
            "20",
            "--json",
        )
    )
    assert data["resource"] == {"kind": "samples", "samples": [5, 50]}


WAITER_MODULE = """
from waitable.custom import custom_waiter, path, success

Job = custom_waiter("Job", acceptors=[success(path("Job.State") == "DONE")])
"""


def test_a_waiter_class_by_import_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sim_jobs.py").write_text(WAITER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    data = json.loads(
        invoke(
            "--waiter",
            "sim_jobs:Job",
            "--ready-output",
            '{"Job": {"State": "DONE"}}',
            "--pending-output",
            '{"Job": {"State": "RUNNING"}}',
            "--ready-after",
            "30",
            "--wait-timeout",
            "300",
            "--strategy",
            "fixedDelayWithoutJitter",
            "--delay",
            "10",
            "--runs",
            "3",
            "--json",
        )
    )
    timeline = data["strategies"][0]["timeline"]
    assert [c["outcome"] for c in timeline["checks"]] == ["pending"] * 3 + ["ready"]
    assert timeline["end"] == "success"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--runs", "3"], "pass --wait-timeout"),
        (["--compare", "linear", "--wait-timeout", "9"], "unknown strategy 'linear'"),
        (
            ["--compare", "fixedDelay:base_delay=3", "--wait-timeout", "9"],
            "takes delay",
        ),
        (
            ["--waiter", "nowhere_at_all:X", "--wait-timeout", "9"],
            "cannot import module",
        ),
        (["--waiter", "json:loads", "--wait-timeout", "9"], "is not a waiter class"),
        (["--ready-after", "1", "--ready-uniform", "0", "5"], "give one of"),
        (["--ready-uniform", "9", "1", "--wait-timeout", "9"], "reversed"),
        (["--strategy", "retryImmediately", "--wait-timeout", "9"], "--call-duration"),
    ],
)
def test_bad_input_says_what_to_do_without_a_traceback(
    args: list[str], message: str
) -> None:
    assert message in fails(*args)


def test_the_console_entry_point_runs() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "waitable.simulate",
            "simulate",
            "--wait-timeout",
            "60",
            "--runs",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "3 runs, seed 0, resource ready after 10 s" in done.stdout


def test_without_click_it_says_how_to_install() -> None:
    code = (
        "import sys; sys.modules['click'] = None\n"
        "from waitable.simulate.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "pip install 'waitable[simulate]'" in done.stderr


def test_a_generated_waiter_class_with_its_model_delays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    data = json.loads(
        invoke(
            "--waiter",
            "generated_examples.dynamodb.waiters:TableExistsWaiter",
            "--ready-output",
            '{"Table": {"TableStatus": "ACTIVE"}}',
            "--pending-output",
            '{"Table": {"TableStatus": "CREATING"}}',
            "--ready-after",
            "30",
            "--wait-timeout",
            "600",
            "--runs",
            "5",
            "--json",
        )
    )
    checks = data["strategies"][0]["timeline"]["checks"]
    # The model's minDelay of 20 s: the Smithy backoff's first retry waits exactly 20.
    assert [c["time"] for c in checks[:2]] == [0, 20]
    assert checks[-1]["outcome"] == "ready"
    assert data["strategies"][0]["timeline"]["end"] == "success"
