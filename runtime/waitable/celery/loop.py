"""One asyncio event loop per worker process, on its own thread, for async waiters.

A Celery task is a plain function; an `AsyncWaiter`'s `poll_once` is awaited on
this loop and the task blocks until it is done. The loop lives as long as the
process, so async clients (aiobotocore's) made on it are reused from poll to poll.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_pid = 0


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` on this process's loop thread and return its result."""
    return asyncio.run_coroutine_threadsafe(coroutine, _the_loop()).result()


def _the_loop() -> asyncio.AbstractEventLoop:
    global _loop, _pid
    with _lock:
        if _loop is None or _pid != os.getpid() or _loop.is_closed():
            # A forked child does not inherit the parent's loop thread.
            _loop = asyncio.new_event_loop()
            _pid = os.getpid()
            threading.Thread(
                target=_loop.run_forever, name="waitable-celery-loop", daemon=True
            ).start()
        return _loop
