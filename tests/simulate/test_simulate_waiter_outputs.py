"""`waitable simulate --waiter`: the ready and pending outputs must mean ready and pending
to that waiter, or the report is about nothing.

Found by review (/work/review/s23-seeds, finding 1): `--waiter
jenkins_waiter:JenkinsBuildDone` without `--ready-output` answered the default
`{"status": "ready"}`, which no acceptor of that waiter reads. Every run drew each
check as "ready" (●) and still ended "attempts exhausted at 1800 s", 100% failed,
with no word about the output. A `--pending-output` that a success acceptor matches
made every run "succeed" at its first check with a lag of 0, before the resource
was ready.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from waitable.simulate.commands import waitable

WAITER_MODULE = """
from waitable import FixedDelay
from waitable.custom import custom_waiter, failure, path, success

Build = custom_waiter(
    "Build",
    acceptors=[
        success(path("result") == "SUCCESS"),
        failure(path("result") == "FAILURE"),
        failure(lambda build: build.get("result") == "ABORTED"),
    ],
    min_delay=15,
    max_delay=15,
    backoff=FixedDelay(),
    max_attempts=120,
    delay_before_first_attempt=True,
)

Strict = custom_waiter(
    "Strict", acceptors=[success(lambda build: build["result"] == "SUCCESS")]
)
"""
BUILD = "sim_outputs_jobs:Build"
RUNNING = '{"result": null}'


@pytest.fixture(autouse=True)
def _module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sim_outputs_jobs.py").write_text(WAITER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


def refused(*args: str) -> str:
    """`waitable simulate ARGS` as a usage error: exit 2, no traceback; the `Error:` line."""
    result = CliRunner().invoke(waitable, ["simulate", "--runs", "2", *args])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.output
    return errors[0]


def report(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(waitable, ["simulate", "--runs", "2", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_the_default_ready_output_no_acceptor_reads_is_refused() -> None:
    error = refused("--waiter", BUILD)
    assert '--ready-output {"status": "ready"} (the default)' in error
    assert "no success or failure acceptor of Build matches it" in error
    assert "pass --ready-output with what the operation returns once ready" in error


def test_a_ready_output_no_acceptor_matches_is_refused() -> None:
    error = refused(
        "--waiter", BUILD, "--ready-output", '{"result": "UNSTABLE"}',
        "--pending-output", RUNNING,
    )  # fmt: skip
    assert '--ready-output {"result": "UNSTABLE"} ' in error
    assert "(the default)" not in error


def test_a_pending_output_that_already_succeeds_is_refused() -> None:
    error = refused(
        "--waiter", BUILD, "--ready-output", '{"result": "SUCCESS"}',
        "--pending-output", '{"result": "SUCCESS"}',
    )  # fmt: skip
    assert '--pending-output {"result": "SUCCESS"} already ends a wait' in error
    assert "success" in error and "pass --pending-output" in error


def test_outputs_a_predicate_cannot_read_are_refused() -> None:
    strict = ["--waiter", "sim_outputs_jobs:Strict", "--wait-timeout", "60"]
    error = refused(*strict, "--ready-output", '{"result": "SUCCESS"}')
    assert '--pending-output {"status": "pending"} (the default)' in error
    assert "KeyError" in error and "pass --pending-output" in error
    error = refused(*strict, "--pending-output", '{"result": null}')
    assert '--ready-output {"status": "ready"} (the default)' in error
    assert "KeyError" in error and "pass --ready-output" in error


@pytest.mark.parametrize(
    "ready, end",
    [('{"result": "SUCCESS"}', "success"), ('{"result": "FAILURE"}', "failure state")],
)
def test_outputs_that_mean_ready_and_pending_still_run(ready: str, end: str) -> None:
    data = report(
        "--waiter", BUILD, "--ready-output", ready, "--pending-output", RUNNING,
        "--ready-after", "100",
    )  # fmt: skip
    timeline = data["strategies"][0]["timeline"]
    assert timeline["end"] == end
    assert [c["time"] for c in timeline["checks"]][:2] == [15, 30]


def test_the_async_twin_is_checked_too() -> None:
    error = refused("--waiter", f"{BUILD}.Async")
    assert "no success or failure acceptor of Build matches it" in error
