"""What `waitable wait` shows while it waits: one live status line on a terminal, log
lines otherwise, nothing with `--quiet`.

The "next poll in N s" is exact: the reporter wraps the waiter's clock and learns each
delay when the engine sleeps it (after the spec's last-attempt rule), counting down by
the second on a terminal.
"""

from __future__ import annotations

import math
import time
from typing import Any, TextIO

from ..clock import Clock, SystemClock
from ..definition import InputOutputMatcher, WaiterDefinition
from ..results import Attempt
from ..printable import printable

__all__ = ["Status", "StatusClock", "seen"]

WIDTH = 48


def seen(definition: WaiterDefinition | None, attempt: Attempt[Any]) -> str:
    """What the attempt saw, briefly: the error code, or the value the acceptors' path reads."""
    if attempt.error_type is not None:
        return _clipped(attempt.error_type)
    if definition is None:
        return "a response"
    matchers = [a.matcher for a in definition.acceptors]
    if attempt.acceptor_index is not None:
        matchers.insert(0, definition.acceptors[attempt.acceptor_index].matcher)
    for matcher in matchers:
        path = getattr(matcher, "path", None)
        if isinstance(path, str) and not isinstance(matcher, InputOutputMatcher):
            import jmespath

            try:
                value = jmespath.search(path, attempt.output)
            except Exception:  # jmespath errors on odd outputs: show nothing then
                continue
            return _short(value)
    return "a response"


def _short(value: Any) -> str:
    if isinstance(value, list):
        unique = list(dict.fromkeys(str(v) for v in value))
        text = ",".join(unique) if unique else "[]"
    else:
        text = str(value)
    return _clipped(text)


def _clipped(text: str) -> str:
    """`text` printable on a terminal (`printable`), cut to `WIDTH` characters."""
    text = printable(text)
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


class Status:
    """The progress of one wait, written to `stream`: live (`\\r` rewrites) or as log lines.

    `definition` (set once the waiter class is loaded) says which path to show;
    the live line is cut to the terminal's `columns` so that `\\r` can rewrite it.
    """

    def __init__(
        self,
        stream: TextIO,
        label: str,
        definition: WaiterDefinition | None,
        *,
        live: bool,
        columns: int = 80,
    ) -> None:
        self.stream = stream
        self.columns = columns
        self.label = label
        self.definition = definition
        self.live = live
        self.last: Attempt[Any] | None = None
        self.logged = 0
        self.width = 0

    def attempt(self, attempt: Attempt[Any]) -> None:
        """The waiter's `on_attempt` hook: remember the attempt and show it."""
        self.last = attempt
        if self.live:
            self._line(None)

    def sleeping(self, remaining: float) -> None:
        """The engine sleeps `remaining` seconds before the next poll."""
        if self.live:
            self._line(remaining)
        elif self.last is not None and self.logged < self.last.number:
            self._log(remaining)

    def finish(self) -> None:
        """End the live line, or log the last attempt not yet logged."""
        if self.live and self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0
        elif not self.live and self.last is not None and self.logged < self.last.number:
            self._log(None)

    def interrupted(self, elapsed: float) -> None:
        """One line saying the wait was stopped by Ctrl-C."""
        if self.live and self.width:
            self.stream.write("\n")
        attempts = 0 if self.last is None else self.last.number
        self.stream.write(
            f"waitable wait: {self.label}: interrupted after {attempts} "
            f"attempt{'s' if attempts != 1 else ''} ({elapsed:.1f} s)\n"
        )
        self.stream.flush()

    def _describe(self, attempt: Attempt[Any]) -> str:
        elapsed = attempt.started_at + attempt.duration
        return (
            f"attempt {attempt.number}, {elapsed:.1f} s elapsed, "
            f"{attempt.state.value}: {seen(self.definition, attempt)}"
        )

    def _line(self, remaining: float | None) -> None:
        if self.last is None:
            return
        text = f"{self.label}: {self._describe(self.last)}"
        if remaining is not None:
            text += f", next poll in {math.ceil(remaining)} s"
        if len(text) >= self.columns:  # a wrapped line cannot be rewritten with \r
            text = text[: max(self.columns - 2, 1)] + "…"
        padding = " " * max(0, self.width - len(text))
        self.stream.write(f"\r{text}{padding}")
        self.stream.flush()
        self.width = len(text)

    def _log(self, delay: float | None) -> None:
        assert self.last is not None
        after = "" if delay is None else f"; next poll in {delay:.1f} s"
        self.stream.write(
            f"waitable wait: {self.label}: {self._describe(self.last)}{after}\n"
        )
        self.stream.flush()
        self.logged = self.last.number


class StatusClock:
    """The system clock, telling a `Status` about each sleep (in one-second steps when live)."""

    def __init__(self, status: Status | None, clock: Clock | None = None) -> None:
        self.status = status
        self.clock: Clock = SystemClock() if clock is None else clock

    def now(self) -> float:
        """The wrapped clock's reading."""
        return self.clock.now()

    def sleep(self, seconds: float) -> None:
        """Sleep `seconds`, updating the status line as the time runs down."""
        if self.status is None:
            self.clock.sleep(seconds)
            return
        end = self.clock.now() + seconds
        self.status.sleeping(seconds)
        if not self.status.live:
            self.clock.sleep(seconds)
            return
        while (left := end - self.clock.now()) > 0:
            self.clock.sleep(min(left, left % 1.0 or 1.0))
            if end - self.clock.now() > 0:
                self.status.sleeping(end - self.clock.now())

    async def sleep_async(self, seconds: float) -> None:
        """Not used by the command (it waits synchronously); sleeps on the wrapped clock."""
        await self.clock.sleep_async(seconds)


def monotonic() -> float:
    """Seconds on the monotonic clock (for the interrupted message's elapsed time)."""
    return time.monotonic()
