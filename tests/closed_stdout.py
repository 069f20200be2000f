"""Run a command line with a standard output whose reader has gone before it
writes, as `command | head -1` leaves it once `head` has what it wants."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence


def run_with_stdout_closed(
    argv: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`argv` run to its end, its standard output a pipe with no reader left."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        return subprocess.run(
            list(argv),
            stdout=writing,
            stderr=subprocess.PIPE,
            env=None if env is None else dict(env),
            timeout=120,
        )
    finally:
        os.close(writing)
