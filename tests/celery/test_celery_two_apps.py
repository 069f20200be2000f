"""Two Celery apps installed in one process: a worker starts its own app's sweep only.

`worker_ready` is one process-wide signal; Celery sends it with the worker's
consumer as the sender (`celery.apps.worker.Worker.on_consumer_ready`), whose
`app` is the app the worker runs. No Redis: the sweep's start is recorded, not run.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest


class _Consumer:
    """What Celery sends `worker_ready` with: the worker's consumer, with its `app`."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.hostname = f"two-apps-{uuid.uuid4().hex}@nowhere"


def test_a_worker_starts_the_sweep_of_its_own_app_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from celery import Celery, signals

    from waitable.celery import install
    from waitable.celery import tasks as tasks_module

    started: list[Any] = []
    monkeypatch.setattr(tasks_module, "_start_sweeper", started.append)
    apps = [Celery(f"two-apps-{n}", broker="redis://127.0.0.1:1/0") for n in "ab"]
    installed = [install(app) for app in apps]
    for app, tasks in zip(apps, installed):
        started.clear()
        signals.worker_ready.send(sender=_Consumer(app))
        assert started == [tasks]
    started.clear()
    signals.worker_ready.send(sender=_Consumer(Celery("two-apps-other")))
    assert started == []
