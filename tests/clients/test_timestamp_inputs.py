"""A timestamp in an operation's input, typed as boto3 takes it: a datetime or
ISO 8601 text.

S3's HeadObject has three (`IfModifiedSince`, ...). A wait saved as JSON
(`start()`, `poll_once()`, Celery) refuses a datetime in its input and says to
pass the text; the generated `TypedDict` used to allow only `datetime`, so the
program the README asks for failed `mypy --strict`. Here that program passes
mypy, and the same input, saved and resumed, waits on moto's server with boto3.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from types import ModuleType

import pytest
from type_check import mypy_strict_errors

from waitable import SavedWait

from .conftest import GENERATED_PACKAGE
from .scenarios import World

PROGRAM = f"""
import datetime
from typing import Any

from {GENERATED_PACKAGE}.s3 import ObjectExistsWaiter


def saved(s3: Any) -> str:
    waiter = ObjectExistsWaiter(s3)
    text = waiter.start(
        {{"Bucket": "b", "Key": "k", "IfModifiedSince": "2000-01-01T00:00:00Z"}},
        max_wait_time=60,
    )
    return text.to_json()


def waited(s3: Any) -> int:
    since = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
    result = ObjectExistsWaiter(s3).wait(
        {{"Bucket": "b", "Key": "k", "IfUnmodifiedSince": since}}, max_wait_time=60
    )
    return result.attempts
"""


def test_a_timestamp_input_takes_iso_text_or_a_datetime_under_mypy(
    generated: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package_root = Path(generated.__file__).resolve().parent.parent
    monkeypatch.setenv("MYPYPATH", str(package_root))
    assert not mypy_strict_errors(PROGRAM, tmp_path, "timestamp_inputs")


def test_a_saved_wait_with_a_timestamp_as_text_resumes_against_boto3(
    world: World, generated: ModuleType
) -> None:
    s3 = world.clients["s3"]
    s3.create_bucket(Bucket=world.name)
    s3.put_object(Bucket=world.name, Key="k", Body=b"x")
    waiter = generated.s3.ObjectExistsWaiter(s3)
    since = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
    input = {"Bucket": world.name, "Key": "k", "IfModifiedSince": since.isoformat()}
    text = waiter.start(input, max_wait_time=30).to_json()
    step = waiter.poll_once(SavedWait.from_json(text))
    assert step.done and step.result.state.value == "success"
    assert step.result.output["ContentLength"] == 1
