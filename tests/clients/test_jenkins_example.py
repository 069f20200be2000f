"""examples/jenkins_waiter.py against a fake Jenkins served by `http.server` on 127.0.0.1.

Each build's answers are scripted call by call (queued → 404, running →
`result: null`, then the final result), so the waiter's 15-second delays run on
a `VirtualClock` while every request is a real HTTP request.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from waitable import (
    FixedDelay,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
)
from waitable.custom import custom_waiter_from_trait
from waitable.testing import VirtualClock

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "jenkins_waiter.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("jenkins_waiter", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


jenkins = _load()

# Build answers, one per request; the last repeats. An int is an HTTP status.
BUILDS: dict[str, list[Any]] = {
    "/job/deploy/1/api/json": [404, None, None, "SUCCESS"],
    "/job/deploy/2/api/json": [None, "FAILURE"],
    "/job/deploy/3/api/json": [None, None, "ABORTED"],
    "/job/team/job/web%20site/4/api/json": ["SUCCESS"],
    "/job/deploy/5/api/json": [None, 500],
    "/job/deploy/6/api/json": [None],
    "/job/deploy/7/api/json": [None, "UNSTABLE"],
    "/job/deploy/8/api/json": [None, None, "NOT_BUILT"],
}


class FakeJenkins:
    """The server's state: requests seen per path."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.lock = threading.Lock()

    def answer(self, path: str) -> tuple[int, dict[str, Any] | None]:
        with self.lock:
            self.requests.append(path)
            seen = self.requests.count(path)
        script = BUILDS.get(path)
        if script is None:
            return 404, None
        item = script[min(seen, len(script)) - 1]
        if isinstance(item, int):
            return item, None
        return 200, {
            "number": int(path.split("/")[-3]),
            "building": item is None,
            "result": item,
        }


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FakeJenkins]]:
    state = FakeJenkins()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            status, body = state.answer(self.path)
            data = json.dumps(body).encode() if body is not None else b"Not found"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_the_build_url_quotes_folders_and_names() -> None:
    assert (
        jenkins.build_url("http://ci/", "team/web site", 4)
        == "http://ci/job/team/job/web%20site/4/api/json"
    )


def test_a_queued_then_running_build_succeeds_on_the_fourth_check(
    server: tuple[str, FakeJenkins],
) -> None:
    url, _ = server
    clock = VirtualClock()
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=clock)
    result = waiter.wait({"job": "deploy", "build": 1})
    assert result.output["result"] == "SUCCESS"
    assert [a.error_type for a in result.history] == ["NotFound", None, None, None]
    assert [a.acceptor_index for a in result.history] == [3, None, None, 0]
    assert [a.started_at for a in result.history] == [15, 30, 45, 60]


@pytest.mark.parametrize("build, index", [(2, 1), (3, 2)])
def test_failure_and_aborted_builds_fail_the_wait(
    server: tuple[str, FakeJenkins], build: int, index: int
) -> None:
    url, _ = server
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=VirtualClock())
    with pytest.raises(WaiterFailureStateError) as caught:
        waiter.wait({"job": "deploy", "build": build})
    assert caught.value.acceptor_index == index


@pytest.mark.parametrize("build, index, checks", [(7, 4, 2), (8, 5, 3)])
def test_unstable_and_not_built_builds_fail_the_wait(
    server: tuple[str, FakeJenkins], build: int, index: int, checks: int
) -> None:
    """Jenkins's other final results end the wait: seed 003's acceptors named only
    FAILURE and ABORTED, so a finished UNSTABLE build was polled for 30 minutes and
    reported as "gave up ... last state retry" (review s23-seeds, finding 2)."""
    url, _ = server
    clock = VirtualClock()
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=clock)
    with pytest.raises(WaiterFailureStateError) as caught:
        waiter.wait({"job": "deploy", "build": build})
    assert caught.value.acceptor_index == index
    assert caught.value.result.attempts == checks
    assert clock.now() == 15 * checks


def test_a_job_in_a_folder(server: tuple[str, FakeJenkins]) -> None:
    url, state = server
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=VirtualClock())
    assert waiter.wait({"job": "team/web site", "build": 4}).attempts == 1
    assert "/job/team/job/web%20site/4/api/json" in state.requests


def test_a_server_error_no_acceptor_names_ends_the_wait(
    server: tuple[str, FakeJenkins],
) -> None:
    url, _ = server
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=VirtualClock())
    with pytest.raises(WaiterOperationError, match="Http500") as caught:
        waiter.wait({"job": "deploy", "build": 5})
    assert isinstance(caught.value.__cause__, jenkins.JenkinsError)


def test_a_build_that_never_ends_stops_after_120_checks(
    server: tuple[str, FakeJenkins],
) -> None:
    url, state = server
    before = state.requests.count("/job/deploy/6/api/json")
    clock = VirtualClock()
    waiter = jenkins.JenkinsBuildDone(jenkins.build_fetcher(url), clock=clock)
    with pytest.raises(WaiterMaxAttemptsError):
        waiter.wait({"job": "deploy", "build": 6})
    assert state.requests.count("/job/deploy/6/api/json") - before == 120
    assert clock.now() == 1800


def test_an_unreachable_jenkins_is_a_transport_error() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waiter = jenkins.JenkinsBuildDone(
        jenkins.build_fetcher(f"http://127.0.0.1:{port}"), clock=VirtualClock()
    )
    with pytest.raises(WaiterOperationError, match="transport error"):
        waiter.wait({"job": "deploy", "build": 1})


def test_the_async_twin_against_the_same_server(
    server: tuple[str, FakeJenkins],
) -> None:
    url, _ = server
    get_build = jenkins.build_fetcher(url)

    async def get_build_async(input: Any) -> Any:
        return await asyncio.to_thread(get_build, input)

    async def main() -> Any:
        waiter = jenkins.JenkinsBuildDone.Async(get_build_async, clock=VirtualClock())
        return await waiter.wait({"job": "deploy", "build": 3})

    with pytest.raises(WaiterFailureStateError) as caught:
        asyncio.run(main())
    assert caught.value.acceptor_index == 2


def test_the_same_waiter_from_a_json_config_file(
    server: tuple[str, FakeJenkins], tmp_path: Path
) -> None:
    url, _ = server
    config = tmp_path / "waiters.json"
    trait = {
        "acceptors": [
            {"state": state, "matcher": matcher}
            for state, matcher in [
                ("success", _result("SUCCESS")),
                ("failure", _result("FAILURE")),
                ("failure", _result("ABORTED")),
                ("retry", {"errorType": "NotFound"}),
                ("failure", _result("UNSTABLE")),
                ("failure", _result("NOT_BUILT")),
            ]
        ],
        "minDelay": 15,
        "maxDelay": 15,
        "documentation": "Wait until a Jenkins build has finished successfully.",
    }
    config.write_text(json.dumps({"JenkinsBuildDone": trait}))
    from_file = custom_waiter_from_trait(
        "JenkinsBuildDone",
        config,
        backoff=FixedDelay(),
        max_attempts=120,
        delay_before_first_attempt=True,
    )
    assert from_file.definition == jenkins.JenkinsBuildDone.definition
    clock = VirtualClock()
    result = from_file(jenkins.build_fetcher(url), clock=clock).wait(
        {"job": "team/web site", "build": 4}
    )
    assert result.history[0].started_at == 15


def _result(expected: str) -> dict[str, Any]:
    return {
        "output": {"path": "result", "expected": expected, "comparator": "stringEquals"}
    }


def test_main_reports_success_and_failure(
    server: tuple[str, FakeJenkins], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = server
    args = ["--url", url, "--job", "team/web site", "--build", "4"]
    assert jenkins.main(args, clock=VirtualClock()) == 0
    assert "SUCCESS after 1 checks" in capsys.readouterr().out
    args = ["--url", url, "--job", "deploy", "--build", "2"]
    assert jenkins.main(args, clock=VirtualClock()) == 1
    assert "failure state" in capsys.readouterr().err
