"""Waits that outlive a process: each poll a Celery task, the state in the message.

`install(app)` where the app is defined; `start_wait(app, "pkg.waiters:XWaiter",
input, client="pkg.clients:make_client", max_wait_time=..., on_done=sig)` in a
producer. `on_done` runs once per wait, in a worker that consumes its queue
(see `waitable.celery.delivery`); `cancel_wait(app, wait_id)` ends a wait early,
and `wait_outcome(app, wait_id)` reads back how it ended (None while it goes on).
Needs `pip install 'waitable[celery]'` (Celery with a Redis broker).
"""

from __future__ import annotations

from .cancel import WaitNotFoundError, cancel_wait
from .delivery import DONE_TASK
from .guard import WaitGuard
from .lookup import OutcomeNotKeptError, wait_outcome
from .names import register_client_factory, register_waiter
from .outcome import error_outcome, result_outcome
from .start import WaitIdInUseError, start_wait
from .tasks import POLL_TASK, WaitTasks, install, installed, sweep_once

__all__ = [
    "DONE_TASK",
    "OutcomeNotKeptError",
    "POLL_TASK",
    "WaitGuard",
    "WaitIdInUseError",
    "WaitNotFoundError",
    "WaitTasks",
    "cancel_wait",
    "error_outcome",
    "install",
    "installed",
    "register_client_factory",
    "register_waiter",
    "result_outcome",
    "start_wait",
    "sweep_once",
    "wait_outcome",
]
