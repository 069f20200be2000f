"""`waitable wait` as a real process: the live status line under a pseudo-terminal, and
Ctrl-C stopping the wait at once with one line and exit 130."""

from __future__ import annotations

import http.server
import os
import pty
import re
import select
import signal
import subprocess
import threading
import time

from clients.conftest import MotoServer
from waitable.wait_cli import ExitCode

from .conftest import command, process_env


def _read_all(fd: int, process: subprocess.Popen[bytes], limit: float) -> bytes:
    """Everything the process writes to the terminal until it exits (EIO at the end)."""
    chunks: list[bytes] = []
    end = time.monotonic() + limit
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        elif process.poll() is not None:
            break
    return b"".join(chunks)


def test_live_status_line_on_a_terminal(fresh: MotoServer, unique_name: str) -> None:
    master, slave = pty.openpty()
    argv = command(
        fresh,
        "s3",
        "bucket-exists",
        "--bucket",
        unique_name,
        "--delay",
        "1.5",
        "--max-attempts",
        "2",
    )
    process = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=process_env()
    )
    os.close(slave)
    try:
        # The terminal turns each "\n" into "\r\n"; undo that to see the command's own \r.
        text = _read_all(master, process, 60).decode().replace("\r\n", "\n")
        code = process.wait(timeout=30)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    assert code == ExitCode.ATTEMPTS_EXHAUSTED, text
    # One line rewritten with \r: the attempt, the state seen, a countdown to the next poll.
    live, _, rest = text.partition("\n")
    updates = live.split("\r")[1:]
    assert re.fullmatch(
        r"s3 bucket-exists: attempt 1, \d+\.\d s elapsed, retry: NotFound", updates[0]
    )
    countdown = [
        int(m.group(1))
        for u in updates
        if (m := re.search(r"attempt 1, .*next poll in (\d+) s", u))
    ]
    assert countdown == [2, 1], updates
    assert re.match(
        r"s3 bucket-exists: attempt 2, \d+\.\d s elapsed, retry: NotFound$",
        updates[-1].strip(),
    )
    # Then the outcome on a line of its own; no log lines on a terminal.
    assert "gave up: --max-attempts 2" in rest
    assert "waitable wait: s3 bucket-exists: attempt" not in text


def test_ctrl_c_stops_at_once_with_one_line(
    fresh: MotoServer, unique_name: str
) -> None:
    argv = command(
        fresh, "s3", "bucket-exists", "--bucket", unique_name, "--delay", "30"
    )
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(),
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline().decode()
        assert "attempt 1" in first and "next poll in 30.0 s" in first
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"no exit 20 s after SIGINT; {_signal_state(process.pid)}")
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == ExitCode.INTERRUPTED
    assert out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1, lines
    assert re.fullmatch(
        r"waitable wait: s3 bucket-exists: interrupted after 1 attempt \(\d+\.\d s\)",
        lines[0],
    )


def _signal_state(pid: int) -> str:
    """What the kernel says of a process that did not end on SIGINT: its threads'
    count, its state and its signal masks (seen once, not reproduced: this is
    what a next failure should show)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            wanted = (
                "State",
                "Threads",
                "SigPnd",
                "ShdPnd",
                "SigBlk",
                "SigIgn",
                "SigCgt",
            )
            lines = [line.strip() for line in status if line.startswith(wanted)]
        return "; ".join(lines)
    except OSError as error:
        return f"no /proc status ({error})"


class _NotFound(http.server.BaseHTTPRequestHandler):
    """Answers every HEAD with 404 (S3's "no such bucket") and says it was asked."""

    asked = threading.Event()

    def do_HEAD(self) -> None:
        type(self).asked.set()
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


def test_ctrl_c_when_quiet_says_nothing() -> None:
    # Quiet shows no attempt to wait for, so the endpoint tells when the first poll came.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    argv = [
        *command(MotoServer(endpoint), "s3", "bucket-exists", "--bucket", "b-1"),
        "--delay",
        "30",
        "--quiet",
    ]
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=process_env()
    )
    try:
        assert _NotFound.asked.wait(30)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
        server.shutdown()
        server.server_close()
    assert process.returncode == ExitCode.INTERRUPTED, err
    assert (out, err) == (b"", b"")
