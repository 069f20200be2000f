"""Putting a staged package on disk: fsync many descriptors at once, close them all.

The file system commits fsyncs that arrive together in one go, so the descriptors
are split into shares, one per worker thread (`workers.py`) and one for the
calling thread. Nothing returns, and no error is raised, while any share may still
be syncing: the caller closes the descriptors right after.
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Sequence
from concurrent.futures import Future, wait

from .workers import THREADS, worker_pool

SYNC_BATCH = 256
"""Written files held open, at most, before they are synced and closed."""


def batch_room(open_directories: int) -> int:
    """How many written files may be held open beside `open_directories` (the
    staging directories, open for the whole build): at most SYNC_BATCH, and
    together with the directories at most half the process's descriptor limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return SYNC_BATCH
    return max(1, min(SYNC_BATCH, soft // 2 - open_directories))


class _Round:
    """One round of fsyncs shared among threads. A share that starts only after
    the round is over (queued by a `submit` that then failed to start its thread)
    does nothing: its descriptors may be closed by then."""

    def __init__(self) -> None:
        self._state = threading.Condition()
        self._over = False
        self._running = 0

    def run(self, descriptors: Sequence[int]) -> None:
        """fsync `descriptors`, unless the round is over."""
        with self._state:
            if self._over:
                return
            self._running += 1
        try:
            for descriptor in descriptors:
                os.fsync(descriptor)
        finally:
            with self._state:
                self._running -= 1
                self._state.notify_all()

    def end(self) -> None:
        """Close the round, once no share is running any more."""
        with self._state:
            self._over = True
            while self._running:
                self._state.wait()


def sync_all(descriptors: Sequence[int]) -> None:
    """fsync every descriptor, from several threads at once; returns or raises
    (the first failure) only when no thread syncs any of them any more. Without
    a thread to hand a share to, this thread syncs it."""
    shares = [descriptors[start::THREADS] for start in range(THREADS)]
    shares = [share for share in shares if share]
    work = _Round()
    pending: list[Future[None]] = []
    mine = shares[:1]
    try:
        for index in range(1, len(shares)):
            try:
                pending.append(worker_pool().submit(work.run, shares[index]))
            except RuntimeError:  # no thread can be started (or shutting down)
                mine += shares[index:]
                break
        for share in mine:
            work.run(share)
    finally:
        wait(pending)
        work.end()
    for future in pending:
        future.result()


def close_all(descriptors: list[int]) -> None:
    """Close every descriptor and empty the list, each taken off it before it is
    closed; a failed close does not stop the others (the first error is raised
    once all are closed)."""
    failure: OSError | None = None
    while descriptors:
        descriptor = descriptors.pop()
        try:
            os.close(descriptor)
        except OSError as exc:
            failure = failure or exc
    if failure is not None:
        raise failure
