"""`waitable wait` when botocore's data holds a waiter the runtime cannot translate (a
matcher of a newer botocore, custom data under AWS_DATA_PATH): the service's other
waiters work, `--list` lists them and names the unreadable one on stderr, and asking
for it is bad usage saying what is wrong. Before, the command said the service had no
waiters at all (found by review s23, finding 6)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import botocore.session
import pytest

from clients.conftest import MotoServer
from waitable import botocore_waiters
from waitable.wait_cli import ExitCode

from .conftest import aws_client, run_wait

BROKEN = {
    "operation": "HeadBucket",
    "delay": 5,
    "maxAttempts": 20,
    "acceptors": [{"state": "success", "matcher": "newKind", "expected": 200}],
}


@pytest.fixture
def s3_with_a_broken_waiter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """botocore's s3 waiters plus `BucketBroken`, from a data path (AWS_DATA_PATH) laid
    out as botocore's own data: the same API version, so botocore reads this file."""
    loader = botocore.session.get_session().get_component("data_loader")
    version = loader.determine_latest_version("s3", "waiters-2")
    document = loader.load_service_model("s3", "waiters-2")
    waiters = {**document["waiters"], "BucketBroken": BROKEN}
    folder = tmp_path / "s3" / version
    folder.mkdir(parents=True)
    (folder / "waiters-2.json").write_text(json.dumps({**document, "waiters": waiters}))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    botocore_waiters._default_session.cache_clear()  # read the data path
    yield
    botocore_waiters._default_session.cache_clear()


@pytest.mark.usefixtures("s3_with_a_broken_waiter")
def test_list_shows_the_good_waiters_and_names_the_unreadable_one() -> None:
    result = run_wait(None, "--list", "s3")
    assert result.exit_code == ExitCode.SUCCESS, result.output
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert "bucket-exists" in listed and "object-exists" in listed
    assert "bucket-broken" not in listed
    assert "s3 bucket-broken cannot be used" in result.stderr
    assert "unknown matcher 'newKind'" in result.stderr


@pytest.mark.usefixtures("s3_with_a_broken_waiter")
def test_the_unreadable_waiter_is_bad_usage_saying_what_is_wrong() -> None:
    result = run_wait(None, "s3", "bucket-broken", "--bucket", "b")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "s3 bucket-broken cannot be used" in result.stderr
    assert "botocore waiter s3.BucketBroken, acceptor 0" in result.stderr
    assert "unknown matcher 'newKind'" in result.stderr
    assert "no waiters for service" not in result.stderr


@pytest.mark.usefixtures("s3_with_a_broken_waiter")
def test_the_other_waiters_of_the_service_still_wait(
    fresh: MotoServer, unique_name: str
) -> None:
    aws_client(fresh, "s3").create_bucket(Bucket=unique_name)
    result = run_wait(fresh, "s3", "bucket-exists", "--bucket", unique_name, "--quiet")
    assert result.exit_code == ExitCode.SUCCESS, result.output


@pytest.fixture
def a_waiters_file_that_is_not_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A custom service whose waiters-2.json (under AWS_DATA_PATH) is not JSON."""
    from waitable.wait_cli import sources

    folder = tmp_path / "broken" / "2020-01-01"
    folder.mkdir(parents=True)
    (folder / "waiters-2.json").write_text("{not json")
    (folder / "service-2.json").write_text(
        json.dumps(
            {
                "version": "2.0",
                "metadata": {"apiVersion": "2020-01-01", "protocol": "json"},
                "operations": {},
                "shapes": {},
            }
        )
    )
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    botocore_waiters._default_session.cache_clear()
    sources._botocore_data.cache_clear()
    yield
    botocore_waiters._default_session.cache_clear()
    sources._botocore_data.cache_clear()


@pytest.mark.usefixtures("a_waiters_file_that_is_not_json")
def test_a_waiters_file_that_is_not_json_spoils_only_its_service() -> None:
    """botocore's loader raises a bare JSONDecodeError for it: `waitable wait --list`
    ended in a traceback for every service, and `waiter_class` let the JSON error
    out (found by review s24-boto)."""
    from waitable.wait_cli import sources

    result = run_wait(None, "--list")
    assert result.exit_code == ExitCode.SUCCESS, result.output
    listed = result.stdout.split()
    assert "s3" in listed and "broken" not in listed
    result = run_wait(None, "--list", "broken")
    assert result.exit_code == ExitCode.USAGE
    assert "waiters-2.json for service 'broken' is not JSON" in result.output
    with pytest.raises(botocore_waiters.BotocoreWaiterError, match="is not JSON"):
        botocore_waiters.waiter_class("broken", "Anything")
    services = [service for service, _ in sources._botocore_data()[0]]
    assert "s3" in services and "broken" not in services
