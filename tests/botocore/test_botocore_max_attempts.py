"""A botocore waiter whose `maxAttempts` is no count of attempts (0, negative, a
bool, a fraction, or too large for a float, `1e999`) cannot be translated: it is
a `BotocoreWaiterError` naming it, as any other unreadable waiter, never an
`OverflowError` that spoils the service's good waiters, nor a waiter listed as
"at most 0 attempts" that fails on a setting the user never passed."""

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
    waiter_names,
)

READY = {
    "operation": "DescribeThing",
    "delay": 5,
    "maxAttempts": 10,
    "acceptors": [
        {"state": "success", "matcher": "path", "argument": "State", "expected": "ok"}
    ],
}


def _session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, waiters: dict[str, Any]
) -> Any:
    """A botocore session whose data has `myservice` with `waiters` (AWS_DATA_PATH)."""
    folder = tmp_path / "myservice" / "2020-01-01"
    folder.mkdir(parents=True)
    text = json.dumps({"version": 2, "waiters": waiters})
    (folder / "waiters-2.json").write_text(text.replace("Infinity", "1e999"))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    return botocore.session.Session()


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
