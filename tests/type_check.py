"""Run `mypy --strict` on a program the test writes, as a user's would be checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def mypy_strict_errors(program: str, directory: Path, name: str = "program") -> str:
    """mypy --strict's report on `program` (written as `name`.py in `directory`),
    or "" when it passes."""
    path = directory / f"{name}.py"
    path.write_text(program)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)],
        capture_output=True,
        text=True,
        cwd=directory,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr
