"""`--package` whose contents do not give waiters is bad usage (exit 2, one line
naming the package and what to do), never a traceback with exit 1 ("a failure state
was reached") nor a silent success (found by review s23)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from waitable.wait_cli import ExitCode

from .conftest import run_wait

#: A subpackage holding one waiter class (botocore's S3 BucketExists).
GOOD = (
    "from waitable.botocore_waiters import waiter_class\n"
    'BucketExistsWaiter = waiter_class("s3", "BucketExists")\n'
)


@pytest.fixture
def importable(tmp_path: Path) -> Iterator[Path]:
    """`tmp_path` on sys.path; the packages made there forgotten afterwards."""
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("s23_")]:
            del sys.modules[name]


def _package(root: Path, name: str, subpackages: dict[str, str]) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("", encoding="utf-8")
    for sub, code in subpackages.items():
        (root / name / sub).mkdir()
        (root / name / sub / "__init__.py").write_text(code, encoding="utf-8")


def _error_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.mark.parametrize(
    "code, raised",
    [
        ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("import s23_not_installed\n", "ModuleNotFoundError: No module named"),
    ],
    ids=["raises", "imports-what-is-missing"],
)
def test_a_subpackage_that_does_not_import_is_named(
    importable: Path, code: str, raised: str
) -> None:
    # It raised out of the command: a traceback and exit 1.
    _package(importable, "s23_broken", {"s3": GOOD, "other": code})
    for args in (["--list"], ["s3", "bucket-exists", "--bucket", "b"]):
        result = run_wait(None, "--package", "s23_broken", *args)
        assert result.exit_code == ExitCode.USAGE, result.output
        line = _error_line(result.stderr)
        assert (
            "--package 's23_broken': importing its subpackage 's23_broken.other'"
            in (line)
        )
        assert raised in line
        assert "python -c 'import s23_broken.other'" in line


def test_a_package_without_waiter_classes_is_bad_usage(importable: Path) -> None:
    # `--list` printed nothing and exited 0; a wait said "it has none (waitable wait
    # --package s23_empty --list)", pointing at that empty list.
    _package(importable, "s23_empty", {"helpers": "VALUE = 1\n"})
    for args in (["--list"], ["s3", "bucket-exists", "--bucket", "b"]):
        result = run_wait(None, "--package", "s23_empty", *args)
        assert result.exit_code == ExitCode.USAGE, result.output
        line = _error_line(result.stderr)
        assert "--package 's23_empty' holds no waiter classes" in line
        assert "generate-waiters" in line
