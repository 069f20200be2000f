"""Leases kept alive while the work they cover runs: a poll, an on_done call.

One thread per process renews every lease held in it, each a third of its length
after the last renewal, so a poll or a call that outlasts its lease keeps it and a
copy of its message meanwhile finds it `busy` instead of running it a second
time. A worker that dies stops renewing, and its leases end one length later; so
does a poll's lease once its call's time is up (a call that hangs must not keep
the wait from ending). The thread is started with the first lease a process holds
(a forked child starts afresh: it inherits neither the thread nor the leases) and
waits idle while none is held.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["holding"]

logger = logging.getLogger("waitable.celery")


@dataclass(eq=False)
class _Lease:
    """One lease held in this process: how to renew it, and when next."""

    renew: Callable[[], bool]
    length: float
    what: str
    until: float  # not renewed from then on (wall-clock given, monotonic once held)
    due: float = field(default=0.0)


class _Keeper:
    """The renewing thread and the leases it keeps (guarded by one condition)."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """No lease held and no thread (a forked child: nothing here is its own)."""
        self._state = threading.Condition()
        self._held: set[_Lease] = set()
        self._pid = 0

    def add(self, lease: _Lease) -> None:
        with self._state:
            now = time.monotonic()
            lease.due = now + lease.length / 3
            lease.until = now + (lease.until - time.time())  # a clock step moves it not
            self._held.add(lease)
            if self._pid != os.getpid():  # the first lease here, or a forked child
                self._pid = os.getpid()
                thread = threading.Thread(
                    target=self._run, name="waitable-leases", daemon=True
                )
                thread.start()
            self._state.notify()

    def remove(self, lease: _Lease) -> None:
        with self._state:
            self._held.discard(lease)

    def _run(self) -> None:
        pid = os.getpid()
        while True:
            with self._state:
                if self._pid != pid:
                    return
                now = time.monotonic()
                for lease in [lease for lease in self._held if lease.until <= now]:
                    self._held.discard(lease)  # left to run out: see `holding`
                due = [lease for lease in self._held if lease.due <= now]
                if not due:
                    soonest = min((lease.due for lease in self._held), default=None)
                    self._state.wait(None if soonest is None else soonest - now)
                    continue
                for lease in due:
                    lease.due = now + lease.length / 3
            for lease in due:
                self._renew(lease)

    def _renew(self, lease: _Lease) -> None:
        try:
            kept = lease.renew()
        except Exception:  # Redis is away for a moment: try again next round
            logger.exception("%s: renewing its lease", lease.what)
            return
        if kept:
            return
        with self._state:
            if lease not in self._held:
                return  # its block ended while this renewal was under way
            self._held.discard(lease)
        logger.warning("%s: the lease was lost", lease.what)


_KEEPER = _Keeper()
os.register_at_fork(after_in_child=_KEEPER.forget)


@contextmanager
def holding(
    renew: Callable[[], bool], length: float, what: str, until: float = math.inf
) -> Iterator[None]:
    """Renew a lease of `length` seconds (`renew()`, False once it is no longer
    ours) every third of it while the block runs, but not past `until` (wall-clock
    seconds: for a poll, the latest its call may run, after which a copy may take
    the poll over and end the wait, however long the call hangs); `what` names it
    in the log."""
    lease = _Lease(renew, length, what, until)
    _KEEPER.add(lease)
    try:
        yield
    finally:
        _KEEPER.remove(lease)
