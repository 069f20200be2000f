"""Named points in a write, where the crash tests stop a real generation process.

Only for tests: with `GENERATE_WAITERS_CHECKPOINTS` naming a file, every point
appends its name there; with `GENERATE_WAITERS_STOP_AT=N` as well, the process
stops itself (SIGSTOP) at the N-th point, so a test can kill it exactly there.
"""

from __future__ import annotations

import os
import signal

TRACE_VARIABLE = "GENERATE_WAITERS_CHECKPOINTS"
STOP_VARIABLE = "GENERATE_WAITERS_STOP_AT"

_passed = 0


def checkpoint(name: str) -> None:
    """Record that the write reached `name`; stop here when a test asked to."""
    trace = os.environ.get(TRACE_VARIABLE)
    if not trace:
        return
    global _passed
    _passed += 1
    line = f"{os.getpid()} {_passed} {name}\n".encode()
    descriptor = os.open(trace, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)
    if os.environ.get(STOP_VARIABLE) == str(_passed):
        os.kill(os.getpid(), signal.SIGSTOP)
