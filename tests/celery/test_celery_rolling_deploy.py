"""A poll that reaches a worker of an older release, which cannot import the wait's
waiter or client factory, is put back for a worker that can (real Redis, real
workers); with no such worker, the wait ends at its deadline saying what did not
import."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from conftest import start_thing_wait, wait_for_outcomes
from waitable.celery.names import register_waiter, unknown_here

#: A module that only the newer release's workers have: a waiter and a client factory.
RELEASE_TWO = """\
from fake_service import ThingReadyWaiter, make_client


class NewThingReadyWaiter(ThingReadyWaiter):
    \"\"\"A waiter the older release does not have.\"\"\"


def new_client():
    return make_client()
"""


@pytest.fixture
def release_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A directory holding the newer release's module, and that module's name;
    this process (the producer) runs the newer release."""
    module = f"release_two_{uuid.uuid4().hex}"
    folder = tmp_path / "release-two"
    folder.mkdir()
    (folder / f"{module}.py").write_text(RELEASE_TWO)
    monkeypatch.syspath_prepend(str(folder))
    return folder, module


def _logged(worker: Any, text: str, limit: float) -> bool:
    """Whether `text` shows up in the worker's log within `limit` seconds."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if text in worker.log.read_text(errors="replace"):
            return True
        time.sleep(0.05)
    return False


def test_unknown_here_names_what_neither_registers_nor_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good_waiter, good_client = "fake_service:ThingReadyWaiter", "os:getcwd"
    assert unknown_here(good_waiter, good_client) == []
    assert unknown_here("no_such_module_x:W", good_client) == ["no_such_module_x:W"]
    assert unknown_here(good_waiter, "os:no_such_factory") == ["os:no_such_factory"]
    assert unknown_here("not-a-path", "neither") == ["not-a-path", "neither"]
    name = f"registered-{uuid.uuid4().hex}"
    from fake_service import ThingReadyWaiter

    register_waiter(name, ThingReadyWaiter)
    assert unknown_here(name, good_client) == []
    # A module that raises as it is imported is broken, not missing: not put back.
    module = f"raising_{uuid.uuid4().hex}"
    (tmp_path / f"{module}.py").write_text("raise ValueError('broken module')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert unknown_here(f"{module}:W", good_client) == []


def test_a_poll_an_old_worker_cannot_import_waits_for_a_new_worker(
    redis_server: Any, wait_app: Any, start_worker: Any, release_two: tuple[Path, str]
) -> None:
    from fake_service import ThingService

    folder, module = release_two
    name = f"deploy-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 2)
    old = start_worker()
    wait_id = start_thing_wait(
        wait_app,
        name,
        f"{module}:NewThingReadyWaiter",
        client=f"{module}:new_client",
        max_wait_time=60.0,
    )
    assert _logged(old, f"wait {wait_id}: poll 0: this worker cannot import", 30)
    assert redis_server.client.hget("done:outcome", wait_id) is None
    old.stop()  # the deploy goes on: the old worker leaves, a new one comes
    start_worker(path=(str(folder),))
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=60)[wait_id]
    assert outcome["ok"], outcome["error"]
    # The polls put back were never made: two calls, as the plan needs.
    assert outcome["result"]["attempts"] == 2
    assert int(redis_server.client.hget(f"thing:{name}", "polls")) == 2


def test_with_no_worker_that_can_import_the_wait_ends_at_its_deadline(
    redis_server: Any, wait_app: Any, start_worker: Any, release_two: tuple[Path, str]
) -> None:
    from fake_service import ThingService

    folder, module = release_two
    name = f"stuck-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    worker = start_worker()
    wait_id = start_thing_wait(
        wait_app, name, f"{module}:NewThingReadyWaiter", max_wait_time=3.0
    )
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=60)[wait_id]
    assert not outcome["ok"]
    assert outcome["error"]["type"] == "WaiterConfigurationError"
    assert "cannot be imported here" in outcome["error"]["message"]
    log = worker.log.read_text(errors="replace")
    # Put back (at once, after 1 s, ...) until the poll due at the deadline, made
    # after it, ended the wait: not ended by the first poll.
    put_back = log.count(f"wait {wait_id}: poll ")
    assert put_back >= 2
    assert f"wait {wait_id}: poll {put_back - 1}: this worker cannot import" in log
    assert redis_server.client.hget(f"thing:{name}", "polls") is None  # no call made
