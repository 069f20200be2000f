"""waitable.celery at the edges: a reused wait_id, a successor due at once, the records'
Redis away for a moment, waits with no deadline, on_done arguments that are not JSON.

The outage tests run `blip_app` (its records on a second redis-server that they
stop with SHUTDOWN SAVE and start again on the same port and data) and start
the records' Redis again only once the worker has met the outage (a retry, a
failure or a warning in its log), so the outage is never shorter than redis-py's
own reconnecting.
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from conftest import FAST
from conftest import THING_CLIENT as CLIENT
from conftest import THING_WAITER as WAITER
from conftest import queued as _queued
from conftest import start_thing_wait as _start
from conftest import wait_for_outcomes
from servers import RedisServer, Worker, find_redis_server
from waitable import WaiterConfigurationError
from waitable.celery import (
    POLL_TASK,
    WaitGuard,
    WaitIdInUseError,
    installed,
    register_waiter,
    start_wait,
)
from waitable.celery.delivery import deliver
from waitable.custom import custom_waiter, path, success


def _until(condition: Callable[[], Any], limit: float, what: str) -> Any:
    """Wait (bounded) until the real components make `condition()` true."""
    end = time.monotonic() + limit
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < end, what
        time.sleep(0.05)


# 1. wait_id in use


def test_a_wait_id_in_use_is_refused_and_the_wait_left_as_it_is(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    from fake_service import ThingService

    service = ThingService(redis_server.url)
    tag = uuid.uuid4().hex
    first, second = f"first-{tag}", f"second-{tag}"
    service.plan(first, "ready", 2)
    service.plan(second, "ready", 1)
    wait_id = f"job-{tag}"
    assert _start(wait_app, first, wait_id=wait_id) == wait_id
    record = redis_server.client.hgetall(f"waitable:{wait_id}")
    queued = _queued(redis_server, wait_id)
    with pytest.raises(WaitIdInUseError, match=f"wait_id 'job-{tag}' is in use") as e:
        _start(wait_app, second, wait_id=wait_id)
    assert e.value.wait_id == wait_id and "Pass a wait_id" in str(e.value)
    assert redis_server.client.hgetall(f"waitable:{wait_id}") == record
    assert _queued(redis_server, wait_id) == queued

    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["ok"] and outcome["result"]["output"]["Name"] == first
    assert outcome["result"]["attempts"] == 2
    assert redis_server.client.hget(f"thing:{second}", "polls") is None
    # Ended, the wait's record stays for `keep`: its id is still in use.
    with pytest.raises(WaitIdInUseError):
        _start(wait_app, second, wait_id=wait_id)
    delivered = _until(
        lambda: redis_server.client.hget(f"waitable:{wait_id}", "delivered"),
        30,
        "on_done was never recorded",
    )
    assert delivered == b"ran"
    assert redis_server.client.hget(f"thing:{second}", "polls") is None
    assert int(redis_server.client.hget("done:runs", wait_id)) == 1


def test_of_producers_racing_with_one_wait_id_exactly_one_starts_it(
    redis_server: Any, wait_app: Any
) -> None:
    wait_id = f"race-{uuid.uuid4().hex}"
    producers = 8
    barrier = threading.Barrier(producers)
    won: list[str] = []
    refused: list[BaseException] = []

    def produce(index: int) -> None:
        barrier.wait()
        try:
            won.append(_start(wait_app, f"race-{index}", wait_id=wait_id))
        except WaitIdInUseError as error:
            refused.append(error)

    threads = [threading.Thread(target=produce, args=(i,)) for i in range(producers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert won == [wait_id] and len(refused) == producers - 1
    assert len(_queued(redis_server, wait_id)) == 1


def test_the_started_record_decides_between_producers_atomically(
    redis_server: Any,
) -> None:
    """`WaitGuard.started` against Redis: the first start wins; the same start
    sent again (a lost reply) is still the winner's; any other start is refused."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    assert guard.started("w", '{"first":1}', 1e12, 60, token="a")
    assert guard.started("w", '{"first":1}', 1e12, 60, token="a")
    assert not guard.started("w", '{"second":1}', 1e12, 60, token="b")
    assert guard.client.hget(guard.key("w"), "next") == b'{"first":1}'


# 2. a successor due at once


def test_a_successor_finds_its_predecessor_holding_the_lease(
    redis_server: Any,
) -> None:
    """Between publishing poll 1 and recording it, poll 0's run holds the lease:
    poll 1 is told `successor` (look again soon), a copy of poll 0 `busy`."""
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    assert guard.begin("w", 0, "pred", lease=3600, ttl=60).verdict == "run"
    successor = guard.begin("w", 1, "next", lease=3600, ttl=60)
    assert successor.verdict == "successor" and int(successor.detail) > 0
    assert guard.begin("w", 0, "copy", lease=3600, ttl=60).verdict == "busy"
    assert guard.begin("w", 2, "later", lease=3600, ttl=60).verdict == "busy"
    guard.advance("w", 0, "pred", "{}", overdue_at=1e12)
    assert guard.begin("w", 1, "next", lease=3600, ttl=60).verdict == "run"
    # The lease now held by poll 1's run: a copy of poll 1 is a copy, not a successor.
    assert guard.begin("w", 1, "copy", lease=3600, ttl=60).verdict == "busy"


def test_a_successor_published_before_the_lease_is_freed_runs_without_waiting_it_out(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    """Poll 1 runs while poll 0's run, which published it, still holds an hour's
    lease (stopped between publishing and recording it): it is put back for
    moments, not for the lease, and runs once poll 0's run has recorded it."""
    from fake_service import ThingService

    name = f"successor-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    wait_id = _start(wait_app, name)
    tasks = installed(wait_app.app)
    assert tasks is not None
    guard = tasks.guard()
    first = json.loads(guard.client.hget(guard.key(wait_id), "next"))
    for message in _queued(redis_server, wait_id):
        redis_server.client.lrem("celery", 0, message)  # poll 0 is run by "pred"
    assert guard.begin(wait_id, 0, "pred", lease=3600, ttl=600).verdict == "run"
    successor = list(first["args"])
    successor[1] = 1
    # Poll 1 as a worker would run it the instant "pred" published it.
    wait_app.app.tasks[POLL_TASK].apply(args=tuple(successor), throw=True)
    assert redis_server.client.hget(f"thing:{name}", "polls") is None
    assert len(_queued(redis_server, wait_id)) == 1, "poll 1, put back"
    # "pred" records poll 1 published, freeing its lease, as `_advance` does next.
    text = json.dumps({"args": successor, "queue": None}, separators=(",", ":"))
    guard.advance(wait_id, 0, "pred", text, overdue_at=time.time() + 3600)
    start_worker()
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=30)[wait_id]
    assert outcome["ok"] and outcome["result"]["attempts"] == 1
    assert int(redis_server.client.hget(f"thing:{name}", "polls")) == 1


# 3, 4. the records' Redis away for a moment


@pytest.fixture(scope="session")
def records_server(
    tmp_path_factory: pytest.TempPathFactory, redis_server: Any
) -> Iterator[RedisServer]:
    """A second redis-server, for `blip_app`'s wait records only."""
    server = RedisServer(find_redis_server(), tmp_path_factory.mktemp("records"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def blip_app(redis_server: Any, records_server: RedisServer) -> Any:
    """`blip_app` imported as a producer: broker on `redis_server`, records on the other."""
    os.environ["WAIT_TEST_REDIS_URL"] = redis_server.url
    os.environ["WAIT_TEST_RECORDS_URL"] = records_server.url
    return importlib.import_module("blip_app")


@pytest.fixture
def start_blip_worker(
    blip_app: Any, start_worker: Callable[..., Worker]
) -> Callable[[], Worker]:
    """Start `blip_app` workers on demand; all stopped after."""
    return lambda: start_worker(app="blip_app")


def _stop_records(records: RedisServer) -> None:
    """SHUTDOWN SAVE (the data is kept for the restart) and wait for the process."""
    try:
        redis.Redis(host="127.0.0.1", port=records.port).shutdown(save=True)
    except redis.ConnectionError:
        pass  # it closed the connection on its way down
    records.process.wait(30)


def _start_records(records: RedisServer) -> None:
    """The same redis-server again: its port, its directory, its saved data."""
    args = records.process.args
    records.process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    client = redis.Redis(host="127.0.0.1", port=records.port)
    end = time.monotonic() + 30
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            assert time.monotonic() < end, "the records' redis-server did not restart"
            time.sleep(0.05)


def _count(server: Any, key: str, wait_id: str) -> int:
    return int(server.client.hget(key, wait_id) or 0)


def test_a_poll_due_while_the_records_redis_is_away_is_retried_not_dropped(
    redis_server: Any,
    records_server: RedisServer,
    blip_app: Any,
    start_blip_worker: Callable[[], Worker],
) -> None:
    from fake_service import ThingService

    name = f"blip-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 2)
    wait_id = start_wait(
        blip_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=60,
        on_done=blip_app.record_outcome.s(),
        **FAST,
    )
    _stop_records(records_server)
    try:
        start_blip_worker()  # takes the first poll while the records are away
        _until(
            lambda: _count(redis_server, "blip:retries", wait_id)
            or _count(redis_server, "blip:failures", wait_id),
            60,
            "the worker never ran the poll",
        )
    finally:
        _start_records(records_server)
    assert _count(redis_server, "blip:failures", wait_id) == 0, "the poll was dropped"
    _until(
        lambda: _count(redis_server, "done:runs", wait_id),
        60,
        "the retried poll never ended the wait",
    )
    records = redis.Redis(host="127.0.0.1", port=records_server.port)
    assert records.hget(f"waitable:{wait_id}", "delivered") == b"ran"
    assert int(redis_server.client.hget(f"thing:{name}", "polls")) == 2
    assert _count(redis_server, "done:runs", wait_id) == 1


def test_on_done_is_recorded_after_a_redis_outage_without_running_again(
    redis_server: Any,
    records_server: RedisServer,
    blip_app: Any,
    start_blip_worker: Callable[[], Worker],
) -> None:
    """The body's end shuts the records' Redis down: no worker dies, so the body
    must run once; the record is written once the Redis is back."""
    from fake_service import ThingService

    name = f"outage-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    worker = start_blip_worker()
    wait_id = start_wait(
        blip_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=60,
        on_done=blip_app.outage_outcome.s(),
        **FAST,
    )
    try:
        _until(lambda: _count(redis_server, "done:runs", wait_id), 60, "no on_done")
        records_server.process.wait(30)
        # Back only once the worker met the outage: it tried to record the call
        # (a warning in its log), or retried or failed waitable.done.
        _until(
            lambda: "recording on_done delivered" in worker.log.read_text()
            or _count(redis_server, "blip:retries", wait_id)
            or _count(redis_server, "blip:failures", wait_id),
            60,
            "the worker never tried to record on_done",
        )
    finally:
        _start_records(records_server)
    records = redis.Redis(host="127.0.0.1", port=records_server.port)
    _until(
        lambda: records.hget(f"waitable:{wait_id}", "delivered"),
        60,
        "on_done was never recorded",
    )
    assert records.hget(f"waitable:{wait_id}", "delivered") == b"ran"
    assert _count(redis_server, "done:runs", wait_id) == 1
    assert _count(redis_server, "blip:failures", wait_id) == 0


def _replica_of(replica: redis.Redis, master_port: int) -> None:
    """`replica` follows the Redis on `master_port` (bounded wait for the sync)."""
    replica.replicaof("127.0.0.1", master_port)
    _until(
        lambda: b"master_link_status:up" in replica.execute_command("INFO replication"),
        30,
        "the replica never synced",
    )


def test_a_poll_that_meets_a_read_only_replica_is_retried_not_dropped(
    redis_server: Any,
    records_server: RedisServer,
    blip_app: Any,
    start_blip_worker: Callable[[], Worker],
    tmp_path: Any,
) -> None:
    """A failover demotes the records' primary to a replica: it answers READONLY
    (in a script: a ResponseError naming it) until the client reaches the new
    primary. The poll is retried as for Redis away, not failed and left to the
    sweep an hour later; here the old address is promoted again, as DNS or a
    virtual IP would move it to the new primary."""
    from fake_service import ThingService

    name = f"readonly-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    wait_id = start_wait(
        blip_app.app,
        WAITER,
        {"Name": name},
        client=CLIENT,
        max_wait_time=60,
        on_done=blip_app.record_outcome.s(),
        **FAST,
    )
    records = redis.Redis(host="127.0.0.1", port=records_server.port)
    other = RedisServer(find_redis_server(), tmp_path)
    try:
        _replica_of(other.client, records_server.port)  # the standby, in sync
        other.client.replicaof("NO", "ONE")  # the failover: it is the primary...
        _replica_of(records, other.port)  # ...and the old one a read-only replica
        start_blip_worker()
        _until(
            lambda: _count(redis_server, "blip:retries", wait_id)
            or _count(redis_server, "blip:failures", wait_id),
            60,
            "the worker never ran the poll",
        )
    finally:
        records.replicaof("NO", "ONE")
        other.stop()
    assert _count(redis_server, "blip:failures", wait_id) == 0, "the poll was dropped"
    _until(
        lambda: _count(redis_server, "done:runs", wait_id),
        60,
        "the retried poll never ended the wait",
    )
    assert records.hget(f"waitable:{wait_id}", "delivered") == b"ran"
    assert _count(redis_server, "done:runs", wait_id) == 1


class _FlakyGuard:
    """A real `WaitGuard` whose `delivered` finds Redis away `fail` times first."""

    def __init__(self, guard: WaitGuard, fail: int) -> None:
        self.guard = guard
        self.fail = fail

    def __getattr__(self, name: str) -> Any:
        return getattr(self.guard, name)

    def delivered(self, *args: Any, **kwargs: Any) -> bool:
        if self.fail:
            self.fail -= 1
            raise redis.ConnectionError("Connection refused (the test's outage)")
        return self.guard.delivered(*args, **kwargs)


def test_deliver_retries_the_record_not_the_call(redis_server: Any) -> None:
    guard = WaitGuard(redis_server.client, key_prefix=f"t{uuid.uuid4().hex}:")
    calls: list[str] = []
    flaky: Any = _FlakyGuard(guard, fail=2)
    decision = deliver(flaky, "w", "runner", 30, 60, lambda: calls.append("run"))
    assert decision.verdict == "run" and calls == ["run"] and flaky.fail == 0
    assert guard.claim("w", "copy", 30, ttl=60).verdict == "delivered"


# 5, 6. what start_wait refuses


Capped = custom_waiter(
    "Capped",
    acceptors=[success(path("Status") == "READY")],
    max_attempts=3,
    min_delay=1,
    max_delay=2,
    operation_method="describe_thing",
)
register_waiter("tests.celery.Capped", Capped)


def test_start_wait_refuses_a_wait_with_no_deadline(
    redis_server: Any, wait_app: Any
) -> None:
    """A wait ended only by max_attempts: its record could never expire."""
    before = set(redis_server.client.scan_iter("waitable:*"))
    with pytest.raises(WaiterConfigurationError, match="finite max_wait_time") as e:
        start_wait(
            wait_app.app,
            "tests.celery.Capped",
            {"Name": "capped"},
            client=CLIENT,
            max_wait_time=None,  # type: ignore[arg-type]
            on_done=wait_app.record_outcome.s(),
            wait_id=f"capped-{uuid.uuid4().hex}",
        )
    assert "'tests.celery.Capped'" in str(e.value) and "max_wait_time=" in str(e.value)
    assert set(redis_server.client.scan_iter("waitable:*")) == before


def test_start_wait_names_an_on_done_argument_that_is_not_json(
    redis_server: Any, wait_app: Any
) -> None:
    wait_id = f"notjson-{uuid.uuid4().hex}"
    when = datetime.datetime(2024, 5, 1, 12, 0)
    with pytest.raises(
        WaiterConfigurationError,
        match=r"on_done 'wait_app.record_outcome': kwargs\['tag'\] is not JSON",
    ):
        start_wait(
            wait_app.app,
            WAITER,
            {"Name": "x"},
            client=CLIENT,
            max_wait_time=30,
            on_done=wait_app.record_outcome.s(tag=when),
            wait_id=wait_id,
            **FAST,
        )
    with pytest.raises(WaiterConfigurationError, match=r"args\[0\] is not JSON"):
        start_wait(
            wait_app.app,
            WAITER,
            {"Name": "x"},
            client=CLIENT,
            max_wait_time=30,
            on_done=wait_app.flaky_outcome.s({1, 2}),
            wait_id=wait_id,
            **FAST,
        )
    assert not redis_server.client.exists(f"waitable:{wait_id}")
