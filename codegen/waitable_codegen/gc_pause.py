"""The cyclic garbage collector paused while generation builds and drops large
trees of containers (parsed JSON, shapes, plans), restored exactly afterwards.

Generation makes no reference cycles worth collecting while it runs, yet every
full collection walks every container it holds (millions, for a large model):
pausing saves that walk. The collector is turned back on when the last of the
nested or concurrent paused blocks ends, and only if it was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_HOLDERS = [0]
"""How many generations are running inside `paused_collection` right now."""
_RESUME = [False]
"""Whether the last one out turns the collector back on."""


@contextmanager
def paused_collection() -> Iterator[None]:
    """Run the block with automatic garbage collection off; on the way out (also
    on error) the collector is as it was before the first of the nested or
    concurrent blocks began."""
    with _LOCK:
        if _HOLDERS[0] == 0:
            _RESUME[0] = gc.isenabled()
            gc.disable()
        _HOLDERS[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _HOLDERS[0] -= 1
            if _HOLDERS[0] == 0 and _RESUME[0]:
                _RESUME[0] = False
                gc.enable()
