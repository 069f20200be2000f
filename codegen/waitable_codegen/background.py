"""One call run on a helper thread while generation goes on: hashing the model
bytes (which `hashlib` does without the GIL) overlaps the JSON parsing."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_POOL: list[tuple[int, ThreadPoolExecutor]] = []


def started(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """`call(*args, **kwargs)` running on the helper thread; `.result()` waits for
    it (and raises what it raised)."""
    return _pool().submit(call, *args, **kwargs)


def _pool() -> ThreadPoolExecutor:
    """The helper thread, made once per process (again in a forked child, which
    inherits the executor but not its thread)."""
    if not _POOL or _POOL[0][0] != os.getpid():
        _POOL[:] = [(os.getpid(), ThreadPoolExecutor(1, "waitable-background"))]
    return _POOL[0][1]
