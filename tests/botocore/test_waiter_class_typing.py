"""`waiter_class` is typed by `asynchronous`: the README's
`waiter_class("s3", "BucketExists")(client).wait(...)` then `result.attempts`
passes `mypy --strict` (the return was a union of the sync and async classes,
so every use needed a cast)."""

from __future__ import annotations

from pathlib import Path

from type_check import mypy_strict_errors

PROGRAM = """
from typing import Any

from waitable.botocore_waiters import waiter_class

BucketExists = waiter_class("s3", "BucketExists")
AsyncBucketExists = waiter_class("s3", "BucketExists", asynchronous=True)


def wait_sync(client: Any) -> int:
    result = BucketExists(client).wait({"Bucket": "b"}, max_wait_time=60)
    return result.attempts


async def wait_async(client: Any) -> int:
    result = await AsyncBucketExists(client).wait({"Bucket": "b"}, max_wait_time=60)
    return result.attempts


def either(flag: bool) -> object:
    return waiter_class("s3", "BucketExists", asynchronous=flag)
"""


def test_waiter_class_returns_the_class_asynchronous_asks_for(tmp_path: Path) -> None:
    assert not mypy_strict_errors(PROGRAM, tmp_path, "uses_botocore_waiters")
