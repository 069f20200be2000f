"""Countdowns that do not depend on the wait stay below the Redis broker's visibility timeout.

A message whose countdown reaches the broker's `visibility_timeout` is delivered
a second time. `start_wait` bounds each wait's own countdowns; these are the
others: a copy that finds another worker's lease comes back when the lease ends
(so `install` refuses a lease at or above the timeout), and a failed `on_done`
is retried after its task's `default_retry_delay` (shortened, with a warning).
No Redis: nothing here connects.
"""

from __future__ import annotations

import logging
import types
from typing import Any

import pytest
from celery import Celery

from waitable import WaiterConfigurationError
from waitable.celery import install
from waitable.celery import tasks as celery_tasks

NOWHERE = "redis://127.0.0.1:1/0"


def _app(visibility: float | None, broker: str = NOWHERE) -> Celery:
    app = Celery("bounds", broker=broker)
    if visibility is not None:
        app.conf.broker_transport_options = {"visibility_timeout": visibility}
    return app


@pytest.mark.parametrize("lease", [60.0, 61.0])
def test_install_refuses_a_lease_at_or_above_the_visibility_timeout(
    lease: float,
) -> None:
    with pytest.raises(WaiterConfigurationError) as caught:
        install(_app(60), lease=lease)
    message = str(caught.value)
    assert f"lease {lease:g}s" in message and "visibility_timeout 60s" in message
    assert "lease=" in message and "broker_transport_options" in message


def test_install_takes_a_lease_below_it_and_kombus_default_of_an_hour() -> None:
    assert install(_app(60), lease=59.9).lease == 59.9
    assert install(_app(None)).lease == 120.0  # kombu's default: 3600 s


def test_a_broker_that_is_not_redis_has_no_visibility_timeout_to_keep() -> None:
    app = _app(10, broker="amqp://127.0.0.1:1//")
    assert install(app, redis_url=NOWHERE, lease=120).lease == 120


class _Retried(Exception):
    """What the stand-in task's `retry` raises, with the countdown it was given."""

    def __init__(self, countdown: float) -> None:
        super().__init__(countdown)
        self.countdown = countdown


class _Task:
    """A bound task's stand-in: its request, and `retry` giving what it was asked."""

    def __init__(self, retries: int = 0) -> None:
        self.request = types.SimpleNamespace(
            id="done-1", retries=retries, kwargs={"x": 1}
        )
        self.asked: dict[str, Any] = {}

    def retry(self, exc: Exception, countdown: float, **options: Any) -> Exception:
        self.asked = options
        return _Retried(countdown)


def _on_done_retry(app: Celery, delay: float | None) -> float:
    tasks = install(app, redis_url=NOWHERE, lease=1.0)

    @app.task(name="bounds.on_done", default_retry_delay=delay, shared=False)
    def on_done(outcome: Any) -> None:
        """The user's on_done task (never run here)."""

    with pytest.raises(_Retried) as caught:
        celery_tasks._done_failed(
            tasks, _Task(), "w", {}, {"task": "bounds.on_done"}, 0, "o", ValueError()
        )
    return caught.value.countdown


def test_a_failed_on_done_is_retried_below_half_the_visibility_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger=celery_tasks.logger.name):
        assert _on_done_retry(_app(100), 180) == 50
    assert "not its default_retry_delay 180s" in caplog.text
    assert "visibility_timeout 100s" in caplog.text


def test_a_short_retry_delay_is_kept_as_the_task_says(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger=celery_tasks.logger.name):
        assert _on_done_retry(_app(100), 0.5) == 0.5
        assert _on_done_retry(_app(10, broker="amqp://127.0.0.1:1//"), 180) == 180
    assert not caplog.records
