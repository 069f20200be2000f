"""A generated waiter with `retry=` against moto's server behind a throttling proxy.

The proxy (on 127.0.0.1, a free port) answers the first DescribeTable calls with
DynamoDB's own throttling error, as a busy account would, then forwards to moto.
Without `retry=` the wait ends at the first throttle; with it, the waiter retries
inside each poll and reaches ACTIVE. Both boto3 and aiobotocore.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import ModuleType
from typing import Any

import pytest

from waitable import FixedDelay, WaiterOperationError
from waitable.retry import StandardRetryStrategy

from .conftest import FAKE_CREDENTIALS, REGION, MotoServer, boto3_client

THROTTLE = json.dumps(
    {
        "__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
        "message": "Rate of requests exceeds the allowed throughput.",
    }
).encode()


class ThrottlingProxy:
    """Forwards to moto, but throttles the next `throttles` DescribeTable calls."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.throttles = 0
        self.throttled = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                target = self.headers.get("X-Amz-Target", "")
                with proxy.lock:
                    throttle = target.endswith("DescribeTable") and proxy.throttles > 0
                    if throttle:
                        proxy.throttles -= 1
                        proxy.throttled += 1
                if throttle:
                    self._reply(400, THROTTLE, "application/x-amz-json-1.0")
                    return
                request = urllib.request.Request(
                    proxy.upstream + self.path,
                    data=body,
                    method="POST",
                    headers={k: v for k, v in self.headers.items() if k != "Host"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        status, data = answer.status, answer.read()
                        kind = answer.headers.get("Content-Type", "")
                except urllib.error.HTTPError as error:
                    status, data = error.code, error.read()
                    kind = error.headers.get("Content-Type", "")
                self._reply(status, data, kind)

            def _reply(self, status: int, data: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def proxy(moto_server: MotoServer) -> Iterator[ThrottlingProxy]:
    proxy = ThrottlingProxy(moto_server.endpoint_url)
    thread = threading.Thread(target=proxy.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        proxy.server.shutdown()
        proxy.server.server_close()
        thread.join()


def quick_retries() -> StandardRetryStrategy:
    """Standard retries with a short fixed backoff (the server is real: sleeps are real)."""
    return StandardRetryStrategy(max_attempts=4, backoff=FixedDelay(0.05))


def test_boto3_waiter_retries_through_throttling(
    generated: ModuleType, boto3_session: Any, proxy: ThrottlingProxy, unique_name: str
) -> None:
    dynamodb = boto3_client(boto3_session, "dynamodb", proxy.url)
    dynamodb.create_table(
        TableName=unique_name,
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    waiter_cls = generated.dynamodb.TableExistsWaiter

    proxy.throttles = 1
    with pytest.raises(WaiterOperationError, match="ThrottlingException"):
        waiter_cls(dynamodb).wait({"TableName": unique_name}, max_wait_time=30)

    proxy.throttles, proxy.throttled = 3, 0
    result = waiter_cls(dynamodb, retry=quick_retries()).wait(
        {"TableName": unique_name}, max_wait_time=30
    )
    assert result.output is not None
    assert result.output["Table"]["TableStatus"] == "ACTIVE"
    retries = [r for a in result.history for r in a.retries]
    assert proxy.throttled == 3 and len(retries) == 3
    assert {r.error_type for r in retries} == {"ThrottlingException"}
    assert {r.reason for r in retries} == {"Throttling"}


def test_aiobotocore_waiter_retries_through_throttling(
    generated: ModuleType, boto3_session: Any, proxy: ThrottlingProxy, unique_name: str
) -> None:
    from aiobotocore.session import get_session

    from .conftest import client_config

    boto3_client(boto3_session, "dynamodb", proxy.url).create_table(
        TableName=unique_name,
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    proxy.throttles = 2

    async def main() -> Any:
        session = get_session()
        async with session.create_client(
            "dynamodb",
            region_name=REGION,
            endpoint_url=proxy.url,
            config=client_config(),
            **FAKE_CREDENTIALS,
        ) as client:
            waiter = generated.dynamodb.AsyncTableExistsWaiter(
                client, retry=quick_retries()
            )
            return await waiter.wait({"TableName": unique_name}, max_wait_time=30)

    result = asyncio.run(main())
    assert result.output["Table"]["TableStatus"] == "ACTIVE"
    assert sum(len(a.retries) for a in result.history) == 2
