"""`poller = Poller(check)`, as the README writes it, passes `mypy --strict`.

`Poller` is generic in the value its check carries, but nothing passed to it
names that type, so mypy asked for an annotation ("Need type annotation for
'poller'") on both of the README's poller examples; the type now defaults to
`Any` for a type checker, and `Poller[T]` still names it when one wants to.
"""

from __future__ import annotations

from pathlib import Path

from type_check import mypy_strict_errors

from waitable.poller import Poller

PROGRAM = """
import sched
import time

from waitable.poller import NotReady, Poller, PollerState, PollStatus, Ready
from waitable.testing import VirtualClock

rows = iter([None, None, {"id": 7}])


def click_saved() -> Ready[dict[str, int]] | NotReady[None]:
    row = next(rows)
    return Ready(row) if row else NotReady(None)


poller = Poller(click_saved, clock=VirtualClock())
print(poller.poll_or_raise())

done_at = time.monotonic() + 0.05
scheduled = Poller(lambda: time.monotonic() >= done_at, max_attempts=None)
scheduler = sched.scheduler()


def attempt() -> None:
    state: PollerState = scheduled.poll_once()
    if state.status is PollStatus.ATTEMPT_FAILED and state.next_delay is not None:
        scheduler.enter(state.next_delay, 0, attempt)


named: Poller[int] = Poller(lambda: True)
"""


def test_the_readmes_pollers_pass_mypy_strict(tmp_path: Path) -> None:
    assert not mypy_strict_errors(PROGRAM, tmp_path, "uses_poller")


def test_a_poller_can_still_be_subscripted_at_run_time() -> None:
    poller: Poller[int] = Poller[int](lambda: True)
    assert poller.poll().fulfilled
