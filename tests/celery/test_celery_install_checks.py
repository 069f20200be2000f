"""What `install` and `start_wait` refuse before anything reaches Redis, and how
`waitable.done` counts the failures of `on_done`'s body.

No Redis: the app's broker and records point at a port nothing listens on, so a
check that let a bad value through would end in a connection error.
"""

from __future__ import annotations

import logging
import math
import types
from typing import Any

import pytest
import redis
from celery import Celery, chain, group

from waitable import WaiterConfigurationError
from waitable.celery import WaitNotFoundError, cancel_wait, install, start_wait
from waitable.celery import tasks as celery_tasks

NOWHERE = "redis://127.0.0.1:1/0"
GOOD_WAITER = "waitable.simulate.simulation:SimulatedResource"
GOOD_CLIENT = "os:getcwd"


def _app(name: str, **transport: Any) -> Celery:
    app = Celery(name, broker=NOWHERE)
    app.conf.broker_transport_options = {"visibility_timeout": 60, **transport}
    return app


@pytest.mark.parametrize("setting", ["lease", "keep", "recover_after", "sweep_every"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0, 0, True, "5"])
def test_install_refuses_settings_that_are_not_finite_positive_seconds(
    setting: str, value: Any
) -> None:
    """A NaN lease was accepted and every poll then failed in the worker."""
    with pytest.raises(WaiterConfigurationError, match="finite positive seconds"):
        install(_app("bad"), **{setting: value})


@pytest.mark.parametrize("keep", [1.0, 60.0])
def test_install_refuses_a_keep_not_above_the_visibility_timeout(keep: float) -> None:
    """A copy of a poll redelivered after the record expired ran the wait anew
    (a cancelled wait called the service again and on_done ran twice)."""
    with pytest.raises(WaiterConfigurationError) as caught:
        install(_app("short"), lease=1.0, keep=keep)
    message = str(caught.value)
    assert f"keep {keep:g}s" in message and "visibility_timeout 60s" in message


@pytest.fixture(scope="module")
def app() -> Celery:
    app = _app("checks")
    install(app, lease=1.0, keep=600.0)
    return app


def test_a_second_install_with_other_settings_says_they_are_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`install(app, lease=30)` after `install(app, lease=10)` returned the first
    install, its 10 s lease in force, without a word."""
    app = _app("twice")
    first = install(app, lease=10.0, keep=600.0)
    with caplog.at_level(logging.WARNING, logger=celery_tasks.logger.name):
        assert install(app, lease=10, keep=600) is first  # the same settings: quiet
        assert not caplog.records
        assert install(app, lease=30.0, keep=600.0) is first
    (record,) = caplog.records
    assert "called for this app already, with lease=10.0" in record.getMessage()
    assert "this call's lease=30.0 is ignored" in record.getMessage()


def test_a_wait_id_that_names_the_index_is_refused(app: Celery) -> None:
    """`wait_id="due"` shared the key of the index of pending waits, and broke
    every later wait and sweep with WRONGTYPE for a day."""
    with pytest.raises(WaiterConfigurationError, match="index of pending waits"):
        start_wait(
            app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=30, wait_id="due"
        )
    with pytest.raises(WaitNotFoundError):
        cancel_wait(app, "due")


@pytest.mark.parametrize("wait_id", ["", 7])
def test_a_wait_id_that_is_not_non_empty_text_is_refused(
    app: Celery, wait_id: Any
) -> None:
    """`wait_id=""` was replaced by a new uuid: each call with that idempotency
    key started another wait."""
    with pytest.raises(WaiterConfigurationError, match="non-empty text"):
        start_wait(
            app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=30, wait_id=wait_id
        )


@pytest.mark.parametrize("kind", ["chain", "group"])
def test_an_on_done_that_is_not_one_task_is_refused(app: Celery, kind: str) -> None:
    """A chain ran its first task again and again and never its second."""
    parts = (app.signature("a.first"), app.signature("a.second"))
    on_done = chain(*parts) if kind == "chain" else group(*parts)
    with pytest.raises(WaiterConfigurationError) as caught:
        start_wait(
            app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=30, on_done=on_done
        )
    assert f"got a {kind}" in str(caught.value)
    assert "a task of yours that starts it" in str(caught.value)


@pytest.mark.parametrize("countdown", ["60", "1e3"])
def test_an_on_done_countdown_that_is_not_a_number_is_refused(
    app: Celery, countdown: Any
) -> None:
    """`.set(countdown="60")` was taken, then failed the wait's last poll with a
    TypeError when it published `waitable.done`, so on_done never ran."""
    on_done = app.signature("a.report").set(countdown=countdown)
    with pytest.raises(WaiterConfigurationError) as caught:
        start_wait(
            app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=30, on_done=on_done
        )
    assert f"its option countdown={countdown!r} is not a number" in str(caught.value)


@pytest.mark.parametrize("countdown", [1e12, 10**12, -1e10])
def test_an_on_done_countdown_out_of_range_is_refused(
    app: Celery, countdown: Any
) -> None:
    """A countdown of 1e12 s passed the check, and Celery's ETA for it (past
    year 9999: `OverflowError`), or for one below -2**31 s (`ValueError`), would
    have failed the wait's last poll, as a text countdown did."""
    on_done = app.signature("a.report").set(countdown=countdown)
    with pytest.raises(WaiterConfigurationError) as caught:
        start_wait(
            app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=30, on_done=on_done
        )
    assert "is not a number of seconds from 0 to" in str(caught.value)


class _Retried(Exception):
    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.options = options


class _DoneTask:
    """`waitable.done` as bound, after `retries` retries of Celery's count."""

    def __init__(self, retries: int) -> None:
        self.request = types.SimpleNamespace(id="done-1", retries=retries, kwargs={})

    def retry(self, **options: Any) -> Exception:
        return _Retried(options)


class _AwayGuard:
    """A records' Redis that is away: the claim fails before anything runs."""

    def claim(self, *args: Any) -> Any:
        raise redis.exceptions.ConnectionError("away")


def test_a_redis_outage_before_the_claim_is_no_failure_of_the_body(
    app: Celery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retried with the body's failure count unchanged (Celery's own count, 5
    here, used up on_done's max_retries: it was recorded failed at once)."""
    tasks = celery_tasks.installed(app)
    assert tasks is not None
    monkeypatch.setattr(tasks, "guard", lambda: _AwayGuard())
    with pytest.raises(_Retried) as caught:
        celery_tasks._done(tasks, _DoneTask(5), "w", {}, {"task": "x"}, failures=1)
    assert "kwargs" not in caught.value.options  # the message's failures=1 stays


def test_a_failed_body_is_retried_counting_its_own_failures(app: Celery) -> None:
    tasks = celery_tasks.installed(app)
    assert tasks is not None
    with pytest.raises(_Retried) as caught:
        celery_tasks._done_failed(
            tasks, _DoneTask(7), "w", {}, {"task": "x"}, 1, "owner", ValueError()
        )
    assert caught.value.options["kwargs"] == {"failures": 2}
    assert "max_retries" not in caught.value.options  # not Celery's count


class _DeathsGuard:
    """A record whose on_done runners died `deaths` times; records the give-up."""

    def __init__(self, deaths: int) -> None:
        self.deaths = deaths
        self.recorded: list[str] = []

    def reruns(self, wait_id: str) -> int:
        return self.deaths

    def delivered(self, wait_id: str, owner: str, ttl: float, how: str = "ran") -> bool:
        self.recorded.append(how)
        return True


@pytest.mark.parametrize(("deaths", "given_up"), [(0, False), (1, False), (2, True)])
def test_the_runners_that_died_count_with_the_raises(
    app: Celery, monkeypatch: pytest.MonkeyPatch, deaths: int, given_up: bool
) -> None:
    """A body that killed its worker and then raised was given up only after
    max_retries raises (3 for an unregistered task), whatever the deaths: up to
    twice as many runs as the rerun check alone lets a dying body make."""
    tasks = celery_tasks.installed(app)
    assert tasks is not None
    guard = _DeathsGuard(deaths)
    monkeypatch.setattr(tasks, "guard", lambda: guard)
    body_error = ValueError("the body")
    with pytest.raises(Exception) as caught:
        celery_tasks._done_failed(
            tasks, _DoneTask(0), "w", {}, {"task": "x"}, 1, "owner", body_error
        )
    if given_up:  # 1 raise before this one + 2 deaths: the third failure
        assert caught.value is body_error and guard.recorded == ["failed"]
    else:
        assert isinstance(caught.value, _Retried) and guard.recorded == []
        assert caught.value.options["kwargs"] == {"failures": 2}


def test_a_wait_ending_is_logged_so_one_without_on_done_is_not_silent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failed = {
        "ok": False,
        "error": {"type": "WaiterTimeoutError", "message": "timed out", "result": None},
    }
    with caplog.at_level(logging.INFO, logger=celery_tasks.logger.name):
        celery_tasks._log_end("w1", {"ok": True, "error": None}, None)
        celery_tasks._log_end("w2", failed, None)
        celery_tasks._log_end("w3", failed, {"task": "x"})
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines == [
        ("INFO", "wait w1 ended in success"),
        (
            "WARNING",
            "wait w2 ended: WaiterTimeoutError: timed out (no on_done was given)",
        ),
        ("WARNING", "wait w3 ended: WaiterTimeoutError: timed out"),
    ]
