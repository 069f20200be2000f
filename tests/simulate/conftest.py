"""Finds a real Chromium for the browser test: on PATH, else installed once with apt-get as root, else a skip with the reason."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser")


def _found() -> str | None:
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _install() -> str:
    """Install Debian's `chromium` package; the reason it could not be, as text."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "chromium is not on PATH and installing it needs root (apt-get install chromium)"
    if shutil.which("apt-get") is None:
        return "chromium is not on PATH and there is no apt-get to install it with"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=900
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(command)} failed: {exc}"
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
            return f"{' '.join(command)} failed: {' '.join(tail)}"
    return ""


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of a headless-capable Chromium binary (installed once per session if need be)."""
    found = _found()
    if found is None:
        reason = _install()
        found = _found()
        if found is None:
            pytest.skip(reason or "chromium was installed but is not on PATH")
    return found


@pytest.fixture
def run_chromium(chromium: str, tmp_path: Path) -> object:
    """`run_chromium(*args)`: headless Chromium with a private profile, its stdout returned."""

    def run(*args: str) -> str:
        command = [
            chromium,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
        ]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    return run
