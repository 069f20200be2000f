"""Fixtures: one real redis-server per test process, Celery workers on it, the producer's app."""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from servers import RedisServer, RedisUnavailable, Worker, find_redis_server


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server on 127.0.0.1 on a free port, stopped after the session."""
    try:
        binary = find_redis_server()
    except RedisUnavailable as error:
        pytest.skip(str(error))
    server = RedisServer(binary, tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def wait_app(redis_server: RedisServer) -> Any:
    """The test app module (`wait_app`) imported as a producer, pointed at the server."""
    os.environ["WAIT_TEST_REDIS_URL"] = redis_server.url
    return importlib.import_module("wait_app")


@pytest.fixture
def start_worker(
    redis_server: RedisServer, tmp_path: Path
) -> Iterator[Callable[..., Worker]]:
    """Start workers of `app` on demand (each logged to tmp_path, on the given
    queues); all stopped after."""
    workers: list[Worker] = []

    def start(
        queues: tuple[str, ...] = ("celery",),
        app: str = "wait_app",
        path: tuple[str, ...] = (),
    ) -> Worker:
        log = tmp_path / f"worker{len(workers)}.log"
        worker = Worker(redis_server.url, log, app=app, queues=queues, path=path)
        workers.append(worker)
        wait_until_consuming(redis_server, worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def wait_until_consuming(
    server: RedisServer, worker: Worker, limit: float = 60
) -> None:
    """Block until the worker's app said `worker_ready` (its consumer is started), or fail with its log."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if worker.process.poll() is not None:
            break
        if server.client.exists(f"worker:ready:{worker.name}"):
            return
        time.sleep(0.1)
    pytest.fail(f"celery worker did not start: {worker.log.read_text()[-3000:]}")


def wait_for_outcomes(
    server: RedisServer, wait_ids: list[str], limit: float
) -> dict[str, dict[str, Any]]:
    """The recorded `on_done` outcome of each wait, once all are in (bounded by `limit` s)."""
    end = time.monotonic() + limit
    while True:
        found = server.client.hmget("done:outcome", wait_ids)
        if all(found) or time.monotonic() > end:
            break
        time.sleep(0.1)
    missing = [w for w, f in zip(wait_ids, found) if not f]
    assert not missing, (
        f"{len(missing)} waits never called on_done, e.g. {missing[:3]}; the first's "
        f"record: {server.client.hgetall('waitable:' + missing[0]) if missing else None}"
    )
    return {w: json.loads(f) for w, f in zip(wait_ids, found)}


def wait_for_redis_time_past(guard: Any, milliseconds: int) -> None:
    """Block until the Redis server's clock has moved `milliseconds` on (leases use it)."""
    seconds, micros = guard.client.time()
    end = seconds * 1000 + micros // 1000 + milliseconds
    while True:
        seconds, micros = guard.client.time()
        if seconds * 1000 + micros // 1000 > end:
            return
        time.sleep(0.005)


#: The fake service's waiter and client factory, and delays that keep tests quick.
THING_WAITER = "fake_service:ThingReadyWaiter"
THING_CLIENT = "fake_service:make_client"
FAST = {"min_delay": 0.05, "max_delay": 0.2}


def start_thing_wait(
    app: Any, name: str, waiter: str = THING_WAITER, **options: Any
) -> str:
    """`start_wait` on the fake service's thing `name`, polled `FAST`, within 30 s
    unless `options` say otherwise; `on_done` records the outcome tagged `name`."""
    from waitable.celery import start_wait

    options = {"max_wait_time": 30.0, **FAST, **options}
    client = options.pop("client", THING_CLIENT)
    wait_id: str = start_wait(
        app.app,
        waiter,
        {"Name": name},
        client=client,
        on_done=app.record_outcome.s(tag=name),
        **options,
    )
    return wait_id


def queued(server: RedisServer, wait_id: str, queue: str = "celery") -> list[bytes]:
    """The messages of the wait waiting in `queue`."""
    messages: list[bytes] = server.client.lrange(queue, 0, -1)
    return [message for message in messages if wait_id.encode() in message]
