"""`install(app, import_from=(...))`: the modules waiter and client names in
messages may be imported from. Without it, whoever can write to the broker or
the records' Redis could make a worker import any module on its path and call
any zero-argument function in it (review s24, L1: a record naming `os:abort`
killed every worker that took it). Real Redis, real workers.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import THING_CLIENT, THING_WAITER, start_thing_wait, wait_for_outcomes
from waitable import WaiterConfigurationError
from waitable.celery import install, register_client_factory, start_wait
from waitable.celery.names import (
    is_trusted,
    resolve_client_factory,
    resolve_waiter,
    unknown_here,
)

#: A module outside the trusted packages: it counts, per process, that it was
#: imported and that its factory was called.
OUTSIDER = """\
import os

import redis

_counts = redis.Redis.from_url(os.environ["WAIT_TEST_REDIS_URL"])
_counts.hincrby("outsider:imported", str(os.getpid()), 1)


def make_client():
    _counts.hincrby("outsider:called", str(os.getpid()), 1)
    from fake_service import make_client as real

    return real()
"""

OUTSIDE = "outside the packages this app imports names from"


@pytest.fixture(scope="module")
def offline_app() -> Any:
    """An app trusting `fake_service` only, its broker a port nothing listens on:
    a check that let a name through would end in a connection error."""
    from celery import Celery

    app = Celery("import_from_offline", broker="redis://127.0.0.1:1/0")
    install(app, import_from=("fake_service",))
    return app


def test_a_name_is_trusted_only_inside_the_packages_given() -> None:
    trusted = ("fake_service", "myapp.waiters")
    assert is_trusted("fake_service:make_client", trusted)
    assert is_trusted("myapp.waiters:W", trusted)
    assert is_trusted("myapp.waiters.s3:W", trusted)
    assert not is_trusted("myapp:W", trusted)
    assert not is_trusted("myapp.waiters_evil:W", trusted)
    assert not is_trusted("fake_service_x:make_client", trusted)
    assert not is_trusted("os:abort", trusted)
    assert not is_trusted("fake_service:make_client", ())
    assert is_trusted("os:abort", None)


@given(
    package=st.from_regex(
        r"[a-z_][a-z0-9_]{0,8}(\.[a-z_][a-z0-9_]{0,8}){0,2}", fullmatch=True
    ),
    name=st.from_regex(
        r"[a-z_][a-z0-9_]{0,8}(\.[a-z_][a-z0-9_]{0,8}){0,3}", fullmatch=True
    ),
)
def test_trust_follows_the_package_tree(package: str, name: str) -> None:
    inside = name == package or name.startswith(package + ".")
    assert is_trusted(f"{name}:x", (package,)) == inside


def test_names_outside_are_refused_without_being_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = f"never_imported_{uuid.uuid4().hex}"
    (tmp_path / f"{module}.py").write_text("raise SystemExit('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    trusted = ("fake_service",)
    with pytest.raises(WaiterConfigurationError, match=OUTSIDE):
        resolve_client_factory(f"{module}:make", trusted)
    with pytest.raises(WaiterConfigurationError, match=OUTSIDE):
        resolve_waiter(f"{module}:Waiter", trusted)
    with pytest.raises(WaiterConfigurationError) as refused:
        resolve_client_factory("os:abort", trusted)
    message = str(refused.value)
    assert "import_from=('fake_service',)" in message
    assert "add its package to import_from, or call " in message
    assert "waitable.celery.register_client_factory()" in message
    # never counted as a newer release's name to wait for: resolving refuses it
    assert unknown_here(f"{module}:Waiter", "os:abort", trusted) == []
    assert resolve_client_factory(THING_CLIENT, trusted)
    assert resolve_waiter(THING_WAITER, trusted)


def test_registered_names_are_known_whatever_import_from_says() -> None:
    name = f"registered-{uuid.uuid4().hex}"
    register_client_factory(name, os.getcwd)
    assert resolve_client_factory(name, ()) is os.getcwd


def test_a_malformed_name_is_told_as_malformed() -> None:
    with pytest.raises(WaiterConfigurationError, match="neither registered nor"):
        resolve_client_factory("no-colon", ("fake_service",))


@pytest.mark.parametrize(
    ("import_from", "said"),
    [
        ("fake_service", "pass a tuple: import_from=('fake_service',)"),
        (["fake_service", ".relative"], "entry '.relative' is not a package name"),
        (["fake_service:make_client"], "a module path has no ':'"),
        ([3], "entry 3 is not a package name (a int, not text)"),
    ],
)
def test_install_refuses_what_is_not_package_names(import_from: Any, said: str) -> None:
    from celery import Celery

    app = Celery(f"bad_import_from_{uuid.uuid4().hex}", broker="redis://127.0.0.1:1/0")
    with pytest.raises(WaiterConfigurationError) as refused:
        install(app, import_from=import_from)
    assert said in str(refused.value)


def test_start_wait_refuses_an_outside_name_before_any_redis_call(
    offline_app: Any,
) -> None:
    with pytest.raises(WaiterConfigurationError, match=OUTSIDE):
        start_wait(
            offline_app,
            THING_WAITER,
            {"Name": "x"},
            client="os:getcwd",
            max_wait_time=10.0,
        )


def test_a_forged_wait_imports_and_calls_nothing_on_the_worker(
    redis_server: Any,
    wait_app: Any,
    start_worker: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`wait_app` (installed without import_from) is the forger: the same broker,
    Redis and task names. The worker runs `trusted_app`, which trusts only
    `fake_service`: the wait ends saying why, the outsider module never imported
    there and its factory never called."""
    from fake_service import ThingService

    module = f"outsider_{uuid.uuid4().hex}"
    (tmp_path / f"{module}.py").write_text(OUTSIDER)
    monkeypatch.syspath_prepend(str(tmp_path))
    worker = start_worker(app="trusted_app", path=(str(tmp_path),))
    name = f"forged-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 1)
    wait_id = start_thing_wait(wait_app, name, client=f"{module}:make_client")
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=60)[wait_id]
    assert not outcome["ok"]
    assert outcome["error"]["type"] == "WaiterConfigurationError"
    assert OUTSIDE in outcome["error"]["message"]
    assert f"{module}:make_client" in outcome["error"]["message"]
    worker_pid = str(worker.process.pid)
    assert redis_server.client.hget("outsider:imported", worker_pid) is None
    assert redis_server.client.hget("outsider:called", worker_pid) is None
    assert redis_server.client.hget(f"thing:{name}", "polls") is None  # no call


def test_a_trusted_wait_runs_on_that_worker(
    redis_server: Any, wait_app: Any, start_worker: Any
) -> None:
    import trusted_app
    from fake_service import ThingService

    start_worker(app="trusted_app")
    name = f"trusted-{uuid.uuid4().hex}"
    ThingService(redis_server.url).plan(name, "ready", 2)
    wait_id = start_thing_wait(trusted_app, name)
    outcome = wait_for_outcomes(redis_server, [wait_id], limit=60)[wait_id]
    assert outcome["ok"], outcome["error"]
    assert outcome["result"]["attempts"] == 2


def test_a_second_install_asking_another_import_from_is_refused() -> None:
    """A second `install` with other settings only warns (it is idempotent), but a
    trust limit ignored with a log line would leave the workers importing what the
    caller meant to forbid (review of today's diff, s24)."""
    from celery import Celery

    app = Celery(f"twice_{uuid.uuid4().hex}", broker="redis://127.0.0.1:1/0")
    first = install(app)
    with pytest.raises(WaiterConfigurationError) as refused:
        install(app, import_from=("fake_service",))
    assert "was installed already with import_from=None, which stays in force" in (
        str(refused.value)
    )
    assert install(app) is first  # the same settings again: still idempotent
    strict = Celery(f"strict_{uuid.uuid4().hex}", broker="redis://127.0.0.1:1/0")
    tasks = install(strict, import_from=["fake_service"])
    assert install(strict, import_from=("fake_service",)) is tasks
    assert install(strict) is tasks  # not asking for import_from changes nothing
    with pytest.raises(WaiterConfigurationError):
        install(strict, import_from=())
