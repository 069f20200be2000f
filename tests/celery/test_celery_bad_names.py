"""`start_wait` refuses malformed names and on_done arguments with the documented error.

No Redis: the names and the on_done signature are checked before any Redis
call, and the app's broker points at a port nothing listens on, so a check that
let a bad value through would end in a connection error, not in
`WaiterConfigurationError`.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from waitable import WaiterConfigurationError
from waitable.celery import install, start_wait
from waitable.celery.names import resolve_client_factory, resolve_waiter

#: A waiter and a client factory that resolve, so each case tests only its one name.
GOOD_WAITER = "waitable.simulate.simulation:SimulatedResource"
GOOD_CLIENT = "os:getcwd"

MALFORMED = [
    ".clients:s3",  # relative: importlib wants a package (was a raw TypeError)
    "..clients:s3",
    ".:s3",
    "clients",  # no colon
    "clients:",
    ":s3",
    "clients:.s3",
    "clients:s3.",
    "my-clients:s3",
    " clients:s3",
    "clients:s3:extra",
    "clients..sub:s3",
]


@pytest.fixture(scope="module")
def app() -> Any:
    from celery import Celery

    app = Celery("bad_names", broker="redis://127.0.0.1:1/0")  # never reached
    install(app)
    return app


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_waiter_or_client_name_is_refused_saying_what_a_name_is(
    app: Any, name: str
) -> None:
    for waiter, client, what in (
        (name, GOOD_CLIENT, "waiter"),
        (GOOD_WAITER, name, "client factory"),
    ):
        with pytest.raises(WaiterConfigurationError) as raised:
            start_wait(app, waiter, {}, client=client, max_wait_time=60)
        message = str(raised.value)
        assert message.startswith(f"{what} {name!r} is neither registered")
        assert "'package.module:Name'" in message
    # The worker resolves the same names in the same way (an error outcome).
    with pytest.raises(WaiterConfigurationError, match="neither registered"):
        resolve_waiter(name)
    with pytest.raises(WaiterConfigurationError, match="neither registered"):
        resolve_client_factory(name)


def test_a_relative_name_is_refused_as_relative(app: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="relative module path"):
        start_wait(app, ".waiters:Thing", {}, client=GOOD_CLIENT, max_wait_time=60)


@pytest.mark.parametrize("name", [42, None, ("mod", "Class"), ["mod:Class"]])
def test_a_name_that_is_not_text_is_refused(app: Any, name: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="not text"):
        start_wait(app, name, {}, client=GOOD_CLIENT, max_wait_time=60)
    with pytest.raises(WaiterConfigurationError, match="not text"):
        start_wait(app, GOOD_WAITER, {}, client=name, max_wait_time=60)


def test_a_well_formed_name_that_does_not_import_says_so(
    app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(WaiterConfigurationError, match="cannot be imported here"):
        start_wait(app, GOOD_WAITER, {}, client="no_such_mod:s3", max_wait_time=60)
    with pytest.raises(WaiterConfigurationError, match="cannot be imported here"):
        start_wait(app, GOOD_WAITER, {}, client="os:no_such", max_wait_time=60)
    # A module that raises while it is imported: refused, its error kept as the cause.
    module = f"raising_{id(tmp_path)}"
    (tmp_path / f"{module}.py").write_text("raise ValueError('broken module')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(
        WaiterConfigurationError, match="ValueError: broken module"
    ) as e:
        start_wait(app, GOOD_WAITER, {}, client=f"{module}:s3", max_wait_time=60)
    assert isinstance(e.value.__cause__, ValueError)
    sys.modules.pop(module, None)


def _nested(depth: int) -> list[Any]:
    deep: list[Any] = []
    node = deep
    for _ in range(depth):
        node.append([])
        node = node[0]
    return deep


def _start(app: Any, on_done: Any) -> str:
    wait_id: str = start_wait(
        app, GOOD_WAITER, {}, client=GOOD_CLIENT, max_wait_time=60, on_done=on_done
    )
    return wait_id


def test_on_done_arguments_nested_too_deep_are_refused_naming_the_argument(
    app: Any,
) -> None:
    """5,000 levels raised a raw RecursionError from json.dumps before."""
    deep = _nested(5000)
    with pytest.raises(WaiterConfigurationError) as raised:
        _start(app, app.signature("report", args=("ok", deep)))
    message = str(raised.value)
    assert message.startswith("on_done 'report': args[1] is not JSON data (args[1][0]")
    assert "nests deeper" in message
    with pytest.raises(WaiterConfigurationError, match=r"kwargs\['tree'\] is not JSON"):
        _start(app, app.signature("report", kwargs={"tree": {"a": deep}}))
    with pytest.raises(WaiterConfigurationError, match="its options is not JSON"):
        _start(app, app.signature("report", options={"headers": {"x": deep}}))


def test_on_done_arguments_that_are_not_json_name_the_value(app: Any) -> None:
    looped: list[Any] = []
    looped.append(looped)
    cases = [
        (
            {"when": {"at": {1, 2}}},
            r"kwargs\['when'\] is not JSON data "
            r"\(kwargs\['when'\]\['at'\] is a set\)",
        ),
        ({"x": looped}, r"kwargs\['x'\] is not JSON data"),
        ({"x": float("nan")}, r"kwargs\['x'\] is not JSON data \(kwargs\['x'\] is nan"),
        (
            {"x": {1: "a"}},
            r"kwargs\['x'\] is not JSON data \(kwargs\['x'\] has the key",
        ),
        ({"x": types.MappingProxyType({"a": 1})}, r"kwargs\['x'\] is not JSON data"),
    ]
    for kwargs, pattern in cases:
        with pytest.raises(WaiterConfigurationError, match=pattern):
            _start(app, app.signature("report", kwargs=kwargs))


def test_json_on_done_arguments_nested_within_reason_pass_the_check() -> None:
    """Only the check: the start then reaches Redis, which is not there."""
    from waitable.celery.start import _check_json

    _check_json(
        {"task": "report", "args": [_nested(100), (1, "a")], "kwargs": {"k": None}}
    )


def test_a_name_in_main_is_refused_since_no_worker_imports_it(app: Any) -> None:
    """It imported in the producer (its own script), then failed on the worker."""
    sys.modules["__main__"].WaiterInMain = object  # type: ignore[attr-defined]
    try:
        for waiter, client, what in (
            ("__main__:WaiterInMain", GOOD_CLIENT, "waiter"),
            (GOOD_WAITER, "__main__:WaiterInMain", "client factory"),
        ):
            with pytest.raises(WaiterConfigurationError) as raised:
                start_wait(app, waiter, {}, client=client, max_wait_time=60)
            message = str(raised.value)
            assert message.startswith(
                f"{what} '__main__:WaiterInMain' names the script"
            )
            assert "a Celery worker cannot import" in message
    finally:
        del sys.modules["__main__"].WaiterInMain


def test_an_on_done_task_of_the_running_script_is_refused(app: Any) -> None:
    """A task defined in a script on `Celery()` (no main name) is `__main__.x`:
    the wait ran to its end, then on_done failed in every worker."""
    with pytest.raises(WaiterConfigurationError) as raised:
        start_wait(
            app,
            GOOD_WAITER,
            {},
            client=GOOD_CLIENT,
            max_wait_time=60,
            on_done=app.signature("__main__.report"),
        )
    assert str(raised.value).startswith("on_done task '__main__.report' is defined")
