"""`waitable simulate`: every option takes effect or is refused, and a waiter's own limits apply.

Found by a review: options a strategy does not take were dropped without a word,
`max_attempts=1.5` was cut to 1, an empty `--compare` drew an empty table, and a
custom waiter with its own `max_attempts` was refused (and reported no cap).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from waitable.simulate.commands import waitable
from waitable.simulate.simulation import Limits, strategy_candidate, wait_limits

PROJECT_ROOT = Path(__file__).resolve().parents[2]

#: A custom waiter with the builder's default delays (2-120 s) and no limits of its own.
OWN_DELAYS_MODULE = """
from waitable.custom import custom_waiter, path, success

Res = custom_waiter("Res", acceptors=[success(path("status") == "ready")])
"""


def run(*args: str) -> tuple[int, str]:
    """`waitable simulate ARGS`: the exit code and the output."""
    result = CliRunner().invoke(waitable, ["simulate", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def report(*args: str) -> dict[str, Any]:
    """The JSON report of a run that must succeed."""
    code, output = run(*args, "--json")
    assert code == 0, output
    data: dict[str, Any] = json.loads(output)
    return data


@pytest.mark.parametrize(
    "args, messages",
    [
        (
            ["--strategy", "exponentialDelay", "--delay", "5"],
            [
                "--delay does not apply to --strategy exponentialDelay",
                "--base-delay and --max-delay",
            ],
        ),
        (
            ["--delay", "5"],
            ["--delay does not apply to smithy, the default strategy", "--strategy"],
        ),
        (
            ["--strategy", "fixedDelay", "--max-delay", "5"],
            ["--max-delay does not apply to --strategy fixedDelay", "--delay"],
        ),
        (
            ["--strategy", "retryImmediately", "--delay", "1", "--call-duration", "1"],
            ["takes no delays; drop --delay"],
        ),
        (
            ["--compare", "smithy,exponentialDelay", "--delay", "3"],
            ["--delay applies to no --compare entry", "drop --delay"],
        ),
        (
            ["--compare", "fixedDelay:delay=2", "--delay", "3"],
            ["--delay applies to no --compare entry"],
        ),
        (
            ["--compare", "smithy:max_attempts=3", "--max-attempts", "5"],
            ["--max-attempts applies to no --compare entry", "max_attempts="],
        ),
        (
            ["--compare", "smithy:call_duration=1", "--call-duration", "1"],
            ["--call-duration applies to no --compare entry"],
        ),
        (
            ["--compare", "fixedDelayWithoutJitter:delay=5:max_attempts=1.5"],
            ["max_attempts must be a whole number >= 1, got '1.5'"],
        ),
        (
            ["--compare", "fixedDelay:delay=5:delay=6"],
            ["delay is given twice"],
        ),
        (["--input", "{}"], ["--input applies only with --waiter"]),
        (
            ["--ready-output", "{}", "--pending-output", "{}"],
            ["--ready-output and --pending-output apply only with --waiter"],
        ),
    ],
)
def test_an_option_that_would_do_nothing_is_refused(
    args: list[str], messages: list[str]
) -> None:
    code, output = run(*args, "--wait-timeout", "60", "--runs", "2")
    assert code == 2, output
    for message in messages:
        assert message in output


@pytest.mark.parametrize(
    "compare", [",", "smithy,", ",smithy", " ", "smithy,,fixedDelay"]
)
def test_an_empty_compare_entry_is_refused(compare: str) -> None:
    code, output = run("--compare", compare, "--wait-timeout", "30", "--runs", "2")
    assert code == 2, output
    assert "is empty" in output and "--compare" in output


def test_a_waiters_own_backoff_takes_min_and_max_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sim_own_delays.py").write_text(OWN_DELAYS_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    common = ["--waiter", "sim_own_delays:Res", "--wait-timeout", "100", "--runs", "1"]
    data = report(*common, "--min-delay", "30", "--max-delay", "30")
    (lane,) = data["strategies"]
    assert [c["time"] for c in lane["timeline"]["checks"]] == [0, 30]
    assert lane["settings"]["min_delay"] == 30 and lane["settings"]["max_delay"] == 30
    code, output = run(*common, "--delay", "5")
    assert code == 2
    assert "--delay does not apply to --waiter without --strategy" in output


def test_a_custom_waiter_with_its_own_limits_runs_and_reports_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(PROJECT_ROOT / "examples"))
    jenkins = [
        "--waiter",
        "jenkins_waiter:JenkinsBuildDone",
        "--ready-output",
        '{"result": "SUCCESS"}',
        "--pending-output",
        '{"result": null}',
        "--runs",
        "1",
    ]
    # Its builder's max_attempts=120 bounds the wait: no --wait-timeout needed.
    (lane,) = report(*jenkins, "--ready-after", "40")["strategies"]
    assert lane["timeline"]["end"] == "success"
    assert [c["time"] for c in lane["timeline"]["checks"]] == [15, 30, 45]
    assert lane["settings"]["max_attempts"] == 120
    assert lane["settings"]["wait_timeout"] is None
    # A deadline past 120 checks: the cap ends the wait, and the report says so.
    (lane,) = report(*jenkins, "--ready-after", "5000", "--wait-timeout", "10000")[
        "strategies"
    ]
    assert lane["timeline"]["end"] == "attempts exhausted"
    assert len(lane["timeline"]["checks"]) == 120
    assert lane["settings"]["max_attempts"] == 120
    assert lane["settings"]["wait_timeout"] == 10000
    # --max-attempts replaces the builder's cap.
    (lane,) = report(*jenkins, "--ready-after", "5000", "--max-attempts", "2")[
        "strategies"
    ]
    assert len(lane["timeline"]["checks"]) == 2
    assert lane["settings"]["max_attempts"] == 2


def test_a_generated_waiter_needs_a_deadline_even_with_max_attempts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(PROJECT_ROOT))
    waiter = "generated_examples.dynamodb.waiters:TableExistsWaiter"
    code, output = run("--waiter", waiter, "--max-attempts", "3", "--runs", "1")
    assert code == 2, output
    assert "say how long to wait: pass --wait-timeout SECONDS" in output
    assert "--max-attempts N" not in output  # it would not do for this waiter


def test_wait_limits_are_the_engines() -> None:
    candidate = strategy_candidate("smithy", wait_timeout=60)
    assert wait_limits(candidate) == Limits(60, None, 2, 120)
    capped = strategy_candidate("fixedDelay", delay=5, max_attempts=4)
    assert wait_limits(capped) == Limits(None, 4, 5, 5)
