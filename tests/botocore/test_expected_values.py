"""botocore compares a path's value with `expected` by `==`, whatever JSON value
`expected` is (`null`, a float, a list...): `generate-waiters --botocore` must write
such waiters as the runtime translates them, and both must decide as botocore's
`Waiter` does.

No installed waiter uses these values yet, so one is added to s3's data through a
loader that wraps botocore's own.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import botocore.session
import botocore.waiter
import pytest
from botocore.exceptions import WaiterError as BotocoreWaiterError

import waitable_codegen.botocore_generate as botocore_generate
from waitable import WaiterError
from waitable.botocore_waiters import translate_waiter
from waitable.testing import VirtualClock

EXPECTED: list[Any] = [None, 1.5, 0.0, -2, [], ["a", 1], {"k": None}, True]


def _waiter(expected: Any) -> dict[str, Any]:
    return {
        "operation": "HeadBucket",
        "delay": 5,
        "maxAttempts": 3,
        "acceptors": [
            {
                "matcher": "path",
                "argument": "BucketRegion",
                "expected": expected,
                "state": "success",
            },
            {
                "matcher": "pathAny",
                "argument": "Items",
                "expected": expected,
                "state": "failure",
            },
        ],
    }


WAITERS = {f"Odd{index}": _waiter(value) for index, value in enumerate(EXPECTED)}


class _Loader:
    """botocore's loader, with `WAITERS` added to s3's waiter data."""

    def __init__(self) -> None:
        self.real = botocore.session.get_session().get_component("data_loader")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def load_service_model(self, service: str, kind: str, *rest: Any) -> Any:
        document = self.real.load_service_model(service, kind, *rest)
        if service == "s3" and kind == "waiters-2":
            document = copy.deepcopy(document)
            document["waiters"].update(copy.deepcopy(WAITERS))
        return document


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("odd") / "odd_s3_waiters"
    with mock.patch.object(botocore_generate, "botocore_loader", _Loader):
        botocore_generate.generate_botocore(["s3"], out)
    sys.path.insert(0, str(out.parent))
    try:
        importlib.invalidate_caches()
        return importlib.import_module("odd_s3_waiters.waiters")
    finally:
        sys.path.remove(str(out.parent))


@pytest.mark.parametrize("name", sorted(WAITERS))
def test_generated_waiter_is_the_runtimes_translation(
    generated: Any, name: str
) -> None:
    cls = getattr(generated, f"{name}Waiter")
    ours = translate_waiter("s3", name, WAITERS[name]).definition
    assert dataclasses.replace(cls.definition, errors=()) == ours
    for acceptor in cls.definition.acceptors:
        assert type(acceptor.matcher.expected) is type(
            WAITERS[name]["acceptors"][0]["expected"]
        )


def _botocore_state(name: str, output: dict[str, Any]) -> str:
    config = botocore.waiter.WaiterModel(
        {"version": 2, "waiters": {name: WAITERS[name]}}
    ).get_waiter(name)
    waiter = botocore.waiter.Waiter(name, config, lambda **_: output)
    with mock.patch.object(botocore.waiter.time, "sleep"):
        try:
            waiter.wait(WaiterConfig={"MaxAttempts": 1})
        except BotocoreWaiterError as exc:
            return "exhausted" if "Max attempts exceeded" in str(exc) else "failure"
    return "success"


@pytest.mark.parametrize("name", sorted(WAITERS))
def test_generated_waiter_decides_as_botocore(generated: Any, name: str) -> None:
    cls = getattr(generated, f"{name}Waiter")
    values: list[Any] = [*EXPECTED, 0, 1, False, "x", None]
    for value in values:
        for output in ({"BucketRegion": value}, {"Items": [value, "x"]}, {}):
            client = type("S3", (), {"head_bucket": staticmethod(lambda **_: output)})
            try:
                cls(client(), clock=VirtualClock()).wait(
                    {"Bucket": "b"}, max_attempts=1
                )
                ours = "success"
            except WaiterError as exc:
                ours = (
                    "failure"
                    if "failure" in type(exc).__name__.lower()
                    else "exhausted"
                )
            assert ours == _botocore_state(name, output), (name, output)


def test_generated_source_writes_them_as_values(generated: Any) -> None:
    text = Path(generated.__file__).read_text()
    assert '"BucketRegion", None, _bw.BotocorePathMode.PATH' in text
    assert '"BucketRegion", float("1.5"), _bw.BotocorePathMode.PATH' in text
    assert '"Items", {"k": None}, _bw.BotocorePathMode.PATH_ANY' in text
