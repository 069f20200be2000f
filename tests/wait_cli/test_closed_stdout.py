"""`waitable ... | head -1`: a reader that stops reading ends the reading, not the
command. `waitable wait --list s3 | head -1` exited 1 ("a failure state was
reached") with no word; the lines after the reader has gone now go nowhere and
the status is the command's own (review s24)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from closed_stdout import run_with_stdout_closed


def _waitable_with_stdout_closed(*args: str) -> subprocess.CompletedProcess[bytes]:
    """`waitable ARGS` with a standard output whose reader has gone before it writes."""
    return run_with_stdout_closed(
        [sys.executable, "-m", "waitable.simulate", *args],
        env={**os.environ, "AWS_DEFAULT_REGION": "us-east-1"},
    )


@pytest.mark.parametrize(
    "args",
    [
        ["wait", "--list"],
        ["wait", "--list", "s3"],
        ["simulate", "--runs", "3", "--strategy", "fixedDelay", "--wait-timeout", "60"],
        ["simulate", "--runs", "3", "--wait-timeout", "60", "--json"],
    ],
)
def test_lines_for_a_reader_that_has_gone_leave_the_status_alone(
    args: list[str],
) -> None:
    done = _waitable_with_stdout_closed(*args)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""


def test_the_same_commands_print_their_lines_to_a_reader() -> None:
    """The control: with a reader, each prints what the test above discards."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "waitable.simulate",
            "simulate",
            "--runs",
            "3",
            "--wait-timeout",
            "60",
            "--json",
        ],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["runs"] == 3
