"""A Poller is one polling session: a second call while one polls it is refused,
so calls made together never make more attempts than `max_attempts`."""

from __future__ import annotations

import asyncio
import copy
import pickle
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.poller import Poller, PollStatus
from waitable.testing import VirtualClock

BUSY = "was called while another call is polling this Poller"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=2, max_value=12))
def test_tasks_polling_one_poller_together_never_exceed_max_attempts(
    max_attempts: int, tasks: int
) -> None:
    calls = 0

    async def check() -> bool:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0)  # the other tasks run while this attempt is made
        return False

    async def main() -> list[object]:
        poller = Poller(check, delay=0, max_attempts=max_attempts)
        answers: list[object] = []
        while poller.state.status is not PollStatus.RETRIES_EXHAUSTED:
            answers += await asyncio.gather(
                *(poller.poll_once_async() for _ in range(tasks)),
                return_exceptions=True,
            )
        assert poller.state.attempt_num == max_attempts
        return answers

    answers = asyncio.run(main())
    assert calls == max_attempts
    refused = [a for a in answers if isinstance(a, RuntimeError)]
    assert refused and all(BUSY in str(a) for a in refused)
    assert all(
        a.attempt_num <= max_attempts  # type: ignore[union-attr]
        for a in answers
        if not isinstance(a, RuntimeError)
    )


def test_a_second_thread_is_refused_while_the_first_polls() -> None:
    inside, release = threading.Event(), threading.Event()

    def check() -> bool:
        inside.set()
        assert release.wait(30)
        return True

    poller = Poller(check, max_attempts=3)
    outcome: list[object] = []
    first = threading.Thread(target=lambda: outcome.append(poller.poll_once()))
    first.start()
    assert inside.wait(30)
    with pytest.raises(RuntimeError, match="poll\\(\\) was called while another"):
        poller.poll()
    release.set()
    first.join(30)
    assert [state.status for state in outcome] == [PollStatus.OK]  # type: ignore[attr-defined]
    assert poller.poll().status is PollStatus.OK  # the finished session answers


def test_a_check_that_polls_its_own_poller_is_refused_and_counted() -> None:
    poller: Poller[object]

    def check() -> bool:
        poller.poll_once()
        return True

    poller = Poller(check, max_attempts=2, clock=VirtualClock())
    with pytest.raises(RuntimeError, match="poll_once\\(\\) was called while"):
        poller.poll_once()
    # The check raised: that attempt counted, and the session is free again.
    assert poller.state.attempt_num == 1
    with pytest.raises(RuntimeError, match="poll_once\\(\\) was called while"):
        poller.poll_once()
    assert poller.state.attempt_num == 2


def test_sequential_calls_are_never_refused() -> None:
    clock = VirtualClock()
    answers = iter([False, False, True])
    poller = Poller(lambda: next(answers), delay=1, max_attempts=5, clock=clock)
    statuses = [poller.poll_once().status for _ in range(3)]
    assert statuses == [PollStatus.ATTEMPT_FAILED] * 2 + [PollStatus.OK]

    async def main() -> None:
        again = Poller(lambda: False, delay=0, max_attempts=2, clock=clock)
        assert (await again.poll_once_async()).status is PollStatus.ATTEMPT_FAILED
        assert (await again.poll_async()).status is PollStatus.RETRIES_EXHAUSTED

    asyncio.run(main())


def never() -> bool:
    """A check at module level, so a poller of it pickles."""
    return False


def test_a_poller_mid_session_still_pickles_and_deep_copies() -> None:
    """The one-call lock is left out of a copy's state (a lock cannot be copied);
    each copy goes on from the same attempt with a lock of its own."""
    poller = Poller(never, delay=0, max_attempts=3)
    poller.poll_once()
    for again in (copy.deepcopy(poller), pickle.loads(pickle.dumps(poller))):
        assert again.poll_once().attempt_num == 2
        assert again.poll_once().status is PollStatus.RETRIES_EXHAUSTED
    assert poller.poll_once().attempt_num == 2, "the original is its own session"
