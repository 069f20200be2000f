"""The generator's worker threads, for work that releases the GIL: syncing the
written files to disk, several at once.

One pool per process, made when first needed (and again in a forked child, which
inherits the pool object but not its threads).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

THREADS = 8
"""fsyncs issued at once: the file system commits concurrent ones together."""

_POOL: list[tuple[int, ThreadPoolExecutor]] = []


def worker_pool() -> ThreadPoolExecutor:
    """This process's worker threads."""
    if not _POOL or _POOL[0][0] != os.getpid():
        _POOL[:] = [(os.getpid(), ThreadPoolExecutor(THREADS, "waitable-worker"))]
    return _POOL[0][1]
