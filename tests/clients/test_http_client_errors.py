"""Plain HTTP clients against a real server on 127.0.0.1: an error for a response
the server sent is the service's answer (acceptors see it, its status is the error
code), a failure to reach the server is a transport error.

urllib's and requests' `HTTPError` are `OSError`s, and aiohttp's lost connection
and httpx's transport errors are not: each is sorted by what happened, not by its
base class. Waits run on a `VirtualClock`; every request is a real request.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import aiohttp
import httpx
import pytest
import requests

from waitable import ModeledError, WaiterOperationError
from waitable.custom import custom_waiter, error_type, path, retry, success
from waitable.error_codes import error_code, is_transport_error, response_status
from waitable.retry import StandardRetryPolicy
from waitable.retry.directives import RetryError, RetryErrorType
from waitable.actions import Raised
from waitable.testing import VirtualClock


class Server:
    """Answers GET /status/N with HTTP N, and /script with the next scripted status
    (200 answers `{"state": "ready"}`)."""

    def __init__(self) -> None:
        self.script: list[int] = []
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server.requests += 1
                if self.path.startswith("/status/"):
                    status = int(self.path.rsplit("/", 1)[1])
                else:
                    status = server.script.pop(0) if server.script else 200
                body = json.dumps({"state": "ready"} if status == 200 else {}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"

    def __enter__(self) -> Server:
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server() as running:
        yield running


def closed_port_url() -> str:
    """An address nothing listens on (a port just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def urllib_get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def requests_get(url: str) -> Any:
    response = requests.get(url, timeout=10)
    response.raise_for_status()
    return response.json()


def httpx_get(url: str) -> Any:
    response = httpx.get(url, timeout=10)
    response.raise_for_status()
    return response.json()


def aiohttp_get(url: str) -> Any:
    async def fetch() -> Any:
        async with aiohttp.ClientSession() as session:
            async with session.get(url, raise_for_status=True) as response:
                return await response.json()

    return asyncio.run(fetch())


GETS: dict[str, Callable[[str], Any]] = {
    "urllib": urllib_get,
    "requests": requests_get,
    "httpx": httpx_get,
    "aiohttp": aiohttp_get,
}


def raised(get: Callable[[str], Any], url: str) -> BaseException:
    with pytest.raises(Exception) as caught:
        get(url)
    return caught.value


@pytest.mark.parametrize("client", sorted(GETS))
@pytest.mark.parametrize(
    ("status", "modeled", "code"),
    [
        (404, (), "NotFound"),
        (409, (ModeledError("ResourceInUse", 409),), "ResourceInUse"),
        (503, (), "503"),
        (429, (), "429"),
    ],
)
def test_an_error_response_is_the_services_answer(
    server: Server,
    client: str,
    status: int,
    modeled: tuple[ModeledError, ...],
    code: str,
) -> None:
    error = raised(GETS[client], f"{server.url}/status/{status}")
    assert not is_transport_error(error)
    assert response_status(error) == status
    assert error_code(error, modeled) == code


@pytest.mark.parametrize("client", sorted(GETS))
def test_an_unreachable_server_is_a_transport_error(client: str) -> None:
    error = raised(GETS[client], closed_port_url())
    assert is_transport_error(error), type(error).__mro__
    assert response_status(error) is None


@pytest.mark.parametrize("client", ["urllib", "requests", "httpx"])
def test_a_waiter_retries_on_the_not_found_the_client_raised(
    server: Server, client: str
) -> None:
    """Seed 003's pattern without wrapping the client's error: 404 → retry."""
    get = GETS[client]
    Ready = custom_waiter(
        "Ready",
        acceptors=[
            success(path("state") == "ready"),
            retry(error_type("NotFound")),
        ],
        min_delay=5,
        max_delay=5,
    )
    server.script[:] = [404, 404]

    def operation(input: Mapping[str, Any]) -> Any:
        return get(f"{server.url}/script")

    result = Ready(operation, clock=VirtualClock()).wait({}, max_wait_time=60)
    assert [attempt.error_type for attempt in result.history] == [
        "NotFound",
        "NotFound",
        None,
    ]
    assert result.elapsed == 10


def test_a_success_false_acceptor_sees_the_clients_error_response(
    server: Server,
) -> None:
    """`success: false` matches any error the operation fails with (the spec)."""
    from waitable.custom import failure

    Gone = custom_waiter(
        "Gone", acceptors=[success(False), failure(path("state") == "ready")]
    )
    server.script[:] = [410]

    def operation(input: Mapping[str, Any]) -> Any:
        return urllib_get(f"{server.url}/script")

    result = Gone(operation, clock=VirtualClock()).wait({}, max_wait_time=60)
    assert result.history[-1].error_type == "410"


def test_a_lost_connection_still_fails_the_wait_as_a_transport_error() -> None:
    Ready = custom_waiter("Ready", acceptors=[success(path("state") == "ready")])
    url = closed_port_url()

    def operation(input: Mapping[str, Any]) -> Any:
        return requests_get(url)

    with pytest.raises(WaiterOperationError) as caught:
        Ready(operation, clock=VirtualClock()).wait({}, max_wait_time=60)
    message = str(caught.value)
    assert "which acceptors do not judge" in message
    assert "is a transport error" in message


@pytest.mark.parametrize("client", sorted(GETS))
@pytest.mark.parametrize(
    ("status", "kind"),
    [(503, RetryErrorType.SERVER_SIDE), (429, RetryErrorType.THROTTLING)],
)
def test_the_standard_policy_retries_by_the_clients_status(
    server: Server, client: str, status: int, kind: RetryErrorType
) -> None:
    error = raised(GETS[client], f"{server.url}/status/{status}")
    directive = StandardRetryPolicy().evaluate(Raised(error))
    assert directive == RetryError(kind)


@pytest.mark.parametrize("client", sorted(GETS))
def test_the_standard_policy_fails_on_a_not_found(server: Server, client: str) -> None:
    error = raised(GETS[client], f"{server.url}/status/404")
    directive = StandardRetryPolicy().evaluate(Raised(error))
    assert not isinstance(directive, RetryError)
