"""Ctrl-C before the first poll, while the command loads the waiter source, the waiter
list or the input shape, exits 130 with the same line as during the wait (click's
"Aborted!" and exit 1 said "a failure state was reached").

A real process gets a real SIGINT, at a moment the test controls: the loader named
is replaced by one that says "ready" on stdout and then blocks until a signal comes,
so the signal always lands inside that loader, however slow the machine.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import pytest

from waitable.wait_cli import ExitCode

from .conftest import process_env

#: Run `waitable wait ARGS` with OWNER.ATTRIBUTE (argv[1], argv[2]) replaced by a
#: loader that announces itself and waits for a signal.
RUNNER = """
import importlib, signal, sys

def blocked(*args, **kwargs):
    sys.stdout.write("ready\\n")
    sys.stdout.flush()
    while True:
        signal.pause()

module, _, owner = sys.argv[1].partition(":")
target = importlib.import_module(module)
for name in filter(None, owner.split(".")):
    target = getattr(target, name)
setattr(target, sys.argv[2], blocked)
from waitable.simulate.commands import waitable
waitable.main(["wait", *sys.argv[3:]], prog_name="waitable")
"""

WAIT = ["ec2", "instance-running", "--instance-ids", "i-1", "--region", "us-east-1"]


def _interrupt_inside(owner: str, attribute: str, *args: str) -> tuple[int, str]:
    """Exit status and stderr of the command, sent SIGINT inside the blocked loader."""
    process = subprocess.Popen(
        [sys.executable, "-c", RUNNER, owner, attribute, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(sys.path),
    )
    try:
        assert process.stdout is not None
        ready = process.stdout.readline()  # blocks until the loader runs (or exit)
        assert ready == b"ready\n", process.communicate(timeout=30)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, err.decode()


@pytest.mark.parametrize(
    ("owner", "attribute"),
    [
        # the waiter source (botocore's service list is read when it is made)
        ("waitable.wait_cli.command:", "BotocoreSource"),
        # the service's waiter list
        ("waitable.wait_cli.sources:BotocoreSource", "waiters"),
        # the operation's input shape (botocore's service model, ~0.7 s for ec2)
        ("waitable.wait_cli.command:", "input_shape"),
    ],
)
def test_ctrl_c_while_loading_exits_130_with_one_line(
    owner: str, attribute: str
) -> None:
    code, err = _interrupt_inside(owner, attribute, *WAIT)
    assert code == ExitCode.INTERRUPTED, err
    assert re.fullmatch(
        r"waitable wait: ec2 instance-running: interrupted after 0 attempts "
        r"\(\d+\.\d s\)\n",
        err,
    ), err


def test_ctrl_c_while_loading_when_quiet_says_nothing() -> None:
    code, err = _interrupt_inside(
        "waitable.wait_cli.command:", "input_shape", *WAIT, "--quiet"
    )
    assert (code, err) == (ExitCode.INTERRUPTED, "")


def test_ctrl_c_while_listing_exits_130() -> None:
    code, err = _interrupt_inside(
        "waitable.wait_cli.sources:BotocoreSource", "services", "--list"
    )
    assert code == ExitCode.INTERRUPTED, err
    assert "Aborted" not in err and "Traceback" not in err
