"""A reader that closes standard output early (`generate-waiters ... | head -1`)
does not turn a run that wrote its package into a failure: the run exited 1 with
no word (review s24); it now ends with the run's own status, the lines nowhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from closed_stdout import run_with_stdout_closed

from .helpers import SPEC_EXAMPLES


def _run_with_stdout_closed(*args: str) -> subprocess.CompletedProcess[bytes]:
    """`generate-waiters ARGS` with a standard output whose reader has gone."""
    return run_with_stdout_closed([sys.executable, "-m", "waitable_codegen", *args])


def test_a_closed_stdout_leaves_a_good_run_good(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    done = _run_with_stdout_closed(str(SPEC_EXAMPLES), "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert (out / "waiters.py").is_file()


@pytest.mark.parametrize(("stale", "status"), [(False, 0), (True, 1)])
def test_check_keeps_its_status_with_stdout_closed(
    tmp_path: Path, stale: bool, status: int
) -> None:
    out = tmp_path / "pkg"
    if not stale:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "waitable_codegen",
                str(SPEC_EXAMPLES),
                "-o",
                str(out),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    done = _run_with_stdout_closed(str(SPEC_EXAMPLES), "-o", str(out), "--check")
    assert done.returncode == status, done.stderr.decode()
    if stale:  # what the check found still reaches standard error
        assert b"is stale: run generate-waiters without --check" in done.stderr
