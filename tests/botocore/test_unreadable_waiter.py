"""One waiter that the runtime cannot translate (a matcher of a newer botocore, custom
data under AWS_DATA_PATH) spoils only itself: botocore builds a waiter only when asked
for it, and `waiter_class` now does too (found by review s23, finding 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import botocore.session
import pytest

from waitable.botocore_waiters import (
    MAX_ATTEMPTS,
    BotocoreWaiterError,
    service_waiter,
    service_waiters,
    waiter_class,
    waiter_names,
)
from waitable.testing import VirtualClock

READY = {
    "operation": "DescribeThing",
    "delay": 5,
    "maxAttempts": 10,
    "acceptors": [
        {"state": "success", "matcher": "path", "argument": "State", "expected": "ok"}
    ],
}
GONE = {
    "operation": "DescribeThing",
    "delay": 5,
    "maxAttempts": 10,
    "acceptors": [{"state": "success", "matcher": "newKind", "expected": "gone"}],
}


def _session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, waiters: dict[str, Any]
) -> Any:
    """A botocore session whose data path holds `myservice`'s waiters-2.json, laid
    out as botocore's data directory is."""
    folder = tmp_path / "myservice" / "2020-01-01"
    folder.mkdir(parents=True)
    document = {"version": 2, "waiters": waiters}
    (folder / "waiters-2.json").write_text(json.dumps(document))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    return botocore.session.Session()


def test_the_good_waiters_of_a_service_work_beside_an_unreadable_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(tmp_path, monkeypatch, {"ThingReady": READY, "ThingGone": GONE})
    assert waiter_names("myservice", session) == ["ThingGone", "ThingReady"]
    assert service_waiter("myservice", "ThingReady", session).cli_name == "thing-ready"
    cls = waiter_class("myservice", "ThingReady", session=session)

    class Client:
        def describe_thing(self, **kwargs: Any) -> Any:
            return {"State": "ok"}

    result = cls(Client(), clock=VirtualClock()).wait({"ThingId": "t"})
    assert result.attempts == 1


def test_the_unreadable_waiter_is_named_with_what_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(tmp_path, monkeypatch, {"ThingReady": READY, "ThingGone": GONE})
    for ask in (
        lambda: waiter_class("myservice", "ThingGone", session=session),
        lambda: service_waiter("myservice", "ThingGone", session),
        lambda: service_waiters("myservice", session),  # all or nothing
    ):
        with pytest.raises(BotocoreWaiterError) as info:
            ask()
        message = str(info.value)
        assert "myservice.ThingGone" in message
        assert "unknown matcher 'newKind'" in message


@pytest.mark.parametrize(
    "config, words",
    [
        ({**READY, "acceptors": "not a list"}, "AttributeError|has no attribute"),
        ({**READY, "acceptors": [7]}, "has no attribute"),
        ({**READY, "delay": "soon"}, "soon"),
        ({k: v for k, v in READY.items() if k != "delay"}, "misses 'delay'"),
    ],
)
def test_malformed_waiter_data_is_the_waiters_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: Any, words: str
) -> None:
    """Custom data may be malformed in any way: a Python error from deep inside the
    translation is the waiter's `BotocoreWaiterError`, and the others still work."""
    session = _session(tmp_path, monkeypatch, {"Bad": config, "ThingReady": READY})
    with pytest.raises(BotocoreWaiterError, match=words) as info:
        waiter_class("myservice", "Bad", session=session)
    assert "myservice.Bad" in str(info.value)
    waiter_class("myservice", "ThingReady", session=session)


# A `maxAttempts` that is no count of attempts (0, negative, a bool, a fraction, or
# too large for a float, `1e999`) makes its waiter untranslatable, never an
# `OverflowError` that spoils the service's good waiters, nor a waiter listed as
# "at most 0 attempts" failing on a setting the user never passed (review s23-diff).


@pytest.mark.parametrize(
    "attempts", [0, -3, True, 2.5, "10", float("inf"), 10**400, MAX_ATTEMPTS + 1]
)
def test_a_max_attempts_that_counts_no_attempts_is_a_botocore_waiter_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attempts: Any
) -> None:
    session = _session(
        tmp_path,
        monkeypatch,
        {"Odd": {**READY, "maxAttempts": attempts}, "Good": READY},
    )
    with pytest.raises(BotocoreWaiterError) as caught:
        service_waiter("myservice", "Odd", session)
    message = str(caught.value)
    assert "botocore waiter myservice.Odd: maxAttempts must be an integer" in message
    assert "the other waiters of 'myservice' are not affected" in message
    assert waiter_names("myservice", session) == ["Good", "Odd"]
    good = service_waiter("myservice", "Good", session)
    assert (good.max_attempts, good.default_max_wait_time) == (10, 50.0)


def test_the_largest_count_translates_with_a_finite_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(
        tmp_path, monkeypatch, {"Most": {**READY, "maxAttempts": MAX_ATTEMPTS}}
    )
    most = service_waiter("myservice", "Most", session)
    assert most.max_attempts == 2**53
    assert most.default_max_wait_time == 5.0 * 2**53


@pytest.mark.parametrize("version", [3, "2", None])
def test_a_waiters_file_of_another_version_is_refused_as_botocore_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: Any
) -> None:
    """botocore's `WaiterModel` runs only version 2 (its client's `get_waiter` and
    `waiter_names` raise for any other); `waiter_class` translated such a file's
    waiters as if it were version 2 (found by review s24-boto)."""
    import botocore.waiter

    folder = tmp_path / "myservice" / "2020-01-01"
    folder.mkdir(parents=True)
    document: dict[str, Any] = {"waiters": {"ThingReady": READY}}
    if version is not None:
        document["version"] = version
    (folder / "waiters-2.json").write_text(json.dumps(document))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    session = botocore.session.Session()
    with pytest.raises(botocore.exceptions.WaiterConfigError):
        botocore.waiter.WaiterModel(document)
    for ask in (
        lambda: waiter_class("myservice", "ThingReady", session=session),
        lambda: waiter_names("myservice", session),
    ):
        with pytest.raises(BotocoreWaiterError, match="botocore runs only version 2"):
            ask()


@pytest.mark.parametrize("config", [5, "x", [READY], None])
def test_a_waiter_that_is_no_object_is_named_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: Any
) -> None:
    """The message read "misses 'int' object is not subscriptable; botocore's
    waiters-2.json requires operation, ..." (found by review s24-boto)."""
    session = _session(tmp_path, monkeypatch, {"Odd": config, "Good": READY})
    with pytest.raises(BotocoreWaiterError) as caught:
        service_waiter("myservice", "Odd", session)
    message = str(caught.value)
    assert "botocore waiter myservice.Odd is " in message
    assert "not a JSON object" in message and "misses" not in message
    service_waiter("myservice", "Good", session)
