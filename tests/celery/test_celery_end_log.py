"""The log line of a wait that ended in an error not of waitable's own carries its
traceback (real Redis, real worker): the outcome keeps only the type and message."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from conftest import FAST, THING_WAITER, wait_for_outcomes

#: A client factory that fails where a real one might (credentials, a config file).
BROKEN = """\
def broken_client():
    return _read_credentials()


def _read_credentials():
    raise RuntimeError("no credentials here")
"""


def test_a_wait_ended_by_an_error_of_its_client_factory_logs_where_it_came_from(
    redis_server: Any,
    wait_app: Any,
    start_worker: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from waitable.celery import start_wait

    module = f"broken_{uuid.uuid4().hex}"
    folder = tmp_path / "clients"
    folder.mkdir()
    (folder / f"{module}.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(folder))
    wait_id = start_wait(
        wait_app.app,
        THING_WAITER,
        {"Name": "broken"},
        client=f"{module}:broken_client",
        max_wait_time=30,
        on_done=wait_app.record_outcome.s(tag="broken"),
        **FAST,
    )
    worker = start_worker(path=(str(folder),))
    error = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]["error"]
    assert (error["type"], error["message"]) == ("RuntimeError", "no credentials here")
    end = time.monotonic() + 10  # the log line follows the outcome's record
    while f"wait {wait_id} ended" not in worker.log.read_text():
        assert time.monotonic() < end, "the wait's end was not logged"
        time.sleep(0.05)
    log = worker.log.read_text()
    assert "Traceback" in log and "in _read_credentials" in log
