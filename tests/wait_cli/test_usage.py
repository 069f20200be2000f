"""`waitable wait`'s bad usage (exit 2, a message naming what is wrong), `--list`, and the
other sources of waiters: a generated package and a Smithy model file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from shared_corpora import shared_path

from clients.conftest import AWS_MODELS, MotoServer
from waitable.botocore_waiters import service_waiters
from waitable.wait_cli import ExitCode

from .conftest import aws_client, run_wait

DYNAMODB_MODEL = AWS_MODELS / "dynamodb-2012-08-10.json"


def test_list_services() -> None:
    result = run_wait(None, "--list")
    assert result.exit_code == 0, result.output
    services = result.stdout.split()
    assert {"ec2", "s3", "dynamodb"} <= set(services)
    assert services == sorted(services)


def test_list_one_service_says_what_botocore_says() -> None:
    result = run_wait(None, "--list", "ec2")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()}
    waiters = service_waiters("ec2")
    assert set(rows) == {w.cli_name for w in waiters.values()}
    running = waiters["InstanceRunning"]
    assert rows["instance-running"][1] == "DescribeInstances"
    assert f"every {running.delay:g} s, at most {running.max_attempts} attempts" in (
        " ".join(rows["instance-running"])
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ec2", "instance-running", "--instance-idz", "i-1"], "--instance-idz"),
        (["ec2", "instance-running", "i-1"], "unexpected argument 'i-1'"),
        (["ec2", "no-such-waiter"], "ec2 has no waiter 'no-such-waiter'"),
        (["no-such-service", "x"], "no waiters for service 'no-such-service'"),
        (["s3", "bucket-exists"], "missing --bucket"),
        (["s3", "bucket-exists", "--bucket", "a", "b"], "takes one value"),
        (["s3", "bucket-exists", "--input", "{"], "not valid JSON"),
        (["s3", "bucket-exists", "--input", "[1]"], "must be a JSON object"),
        (["ec2", "instance-running", "--max-results", "many"], "wants a number"),
        (["ec2", "instance-running", "--filters", "Name"], "in the shorthand"),
        (["ec2", "instance-running", "--dry-run", "yes"], "is a flag"),
        (["ec2"], "name the SERVICE and WAITER"),
        (["--list", "ec2", "s3"], "at most a SERVICE"),
        (["ec2", "instance-running", "--delay", "0"], "--delay"),
        (
            ["--package", "no_such_package_here", "--list"],
            "--package 'no_such_package_here': cannot import module",
        ),
        (["--model", "/nonexistent/model.json", "--list"], "cannot read a Smithy"),
    ],
)
def test_bad_usage(args: list[str], message: str) -> None:
    result = run_wait(None, *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [["--list", "nosuch"], ["nosuch", "some-waiter"]])
def test_an_unknown_service_is_said_once(args: list[str]) -> None:
    """The command wrapped botocore_waiters' message, which already says all of it,
    in its own: "botocore has no waiters for service 'nosuch' (the installed botocore
    has no waiters for service 'nosuch'; ...)" (found by review s23, finding 9)."""
    result = run_wait(None, *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.stderr.count("no waiters for service 'nosuch'") == 1
    assert "services with waiters: " in result.stderr
    assert "s3" in result.stderr.split("services with waiters: ")[1]
    assert result.stderr.rstrip().endswith("(waitable wait --list)")


def test_a_service_with_an_empty_waiters_file_is_bad_usage() -> None:
    """botocore ships an empty waiters-2.json for some services (bedrock): `--list`
    of one printed nothing and exited 0 (found by review s23)."""
    import botocore.session

    loader = botocore.session.get_session().get_component("data_loader")
    empty = sorted(
        service
        for service in loader.list_available_services("waiters-2")
        if not loader.load_service_model(service, "waiters-2").get("waiters")
    )
    if not empty:
        pytest.skip("every waiters-2.json of the installed botocore has waiters")
    for args in (["--list", empty[0]], [empty[0], "some-waiter"]):
        result = run_wait(None, *args)
        assert result.exit_code == ExitCode.USAGE, result.output
        assert f"no waiters for service '{empty[0]}'" in result.stderr


def test_profile_that_does_not_exist_is_bad_usage() -> None:
    result = run_wait(
        None, "s3", "bucket-exists", "--bucket", "b", "--profile", "nobody-has-this"
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "check --profile" in result.stderr


def test_endpoint_that_is_no_url_is_bad_usage() -> None:
    result = run_wait(
        None, "s3", "bucket-exists", "--bucket", "b", "--endpoint-url", "no url"
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "check --profile, --region and --endpoint-url" in result.stderr


def test_anything_unforeseen_is_an_unexpected_error(
    fresh: MotoServer, unique_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        def __init__(self, *args: object) -> None:
            raise RuntimeError("the clock broke")

    monkeypatch.setattr("waitable.wait_cli.command.StatusClock", Broken)
    result = run_wait(fresh, "s3", "bucket-exists", "--bucket", unique_name)
    assert result.exit_code == ExitCode.UNEXPECTED_ERROR, result.output
    assert result.stderr == (
        "waitable wait: s3 bucket-exists: RuntimeError: the clock broke\n"
    )


@pytest.fixture(scope="module")
def dynamodb_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A package generated from the DynamoDB model, importable as `wait_cli_dynamodb`."""
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("wait_cli_packages")
    generate([DYNAMODB_MODEL], root / "wait_cli_dynamodb")
    sys.path.insert(0, str(root))
    try:
        yield "wait_cli_dynamodb"
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith("wait_cli_dynamodb")]:
            del sys.modules[name]


def _table(server: MotoServer, name: str) -> None:
    aws_client(server, "dynamodb").create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


def test_generated_package(
    dynamodb_package: str, fresh: MotoServer, unique_name: str
) -> None:
    listed = run_wait(None, "--package", dynamodb_package, "--list", "dynamodb")
    assert listed.exit_code == 0, listed.output
    assert {line.split()[0] for line in listed.stdout.splitlines()} == {
        "table-exists",
        "table-not-exists",
    }
    _table(fresh, unique_name)
    args = ["--package", dynamodb_package, "dynamodb", "table-exists"]
    no_deadline = run_wait(fresh, *args, "--table-name", unique_name)
    assert no_deadline.exit_code == ExitCode.USAGE
    assert "pass --max-wait SECONDS" in no_deadline.stderr
    result = run_wait(fresh, *args, "--table-name", unique_name, "--max-wait", "30")
    assert result.exit_code == ExitCode.SUCCESS, result.output


def test_package_generated_from_botocore_keeps_botocores_deadline(
    tmp_path: Path, fresh: MotoServer, unique_name: str
) -> None:
    from waitable_codegen import generate

    generate([], tmp_path / "wait_cli_botocore_s3", botocore=["s3"])
    sys.path.insert(0, str(tmp_path))
    try:
        listed = run_wait(None, "--package", "wait_cli_botocore_s3", "--list", "s3")
        assert "bucket-exists" in listed.stdout
        assert "every 5 s, at most 20 attempts" in listed.stdout
        aws_client(fresh, "s3").create_bucket(Bucket=unique_name)
        args = ["--package", "wait_cli_botocore_s3", "s3", "bucket-exists"]
        result = run_wait(fresh, *args, "--bucket", unique_name)
        assert result.exit_code == ExitCode.SUCCESS, result.output
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("wait_cli_botocore_s3")]:
            del sys.modules[name]


def test_smithy_model_file(fresh: MotoServer, unique_name: str) -> None:
    shared_path("models")
    model = str(DYNAMODB_MODEL)
    listed = run_wait(None, "--model", model, "--list")
    assert listed.stdout.split() == ["dynamodb"]
    args = ["--model", model, "dynamodb", "table-not-exists", "--max-wait", "30"]
    # TableNotExists succeeds at once on a table that is not there.
    result = run_wait(fresh, *args, "--table-name", unique_name)
    assert result.exit_code == ExitCode.SUCCESS, result.output
    _table(fresh, unique_name)
    still_there = run_wait(
        fresh, *args, "--table-name", unique_name, "--max-attempts", "1"
    )
    assert still_there.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, still_there.output


@pytest.mark.parametrize(
    "args",
    [
        ["--list", "ec2"],
        ["ec2", "table-exists", "--table-name", "t", "--max-wait", "30"],
    ],
)
def test_a_model_refuses_a_service_it_does_not_describe(args: list[str]) -> None:
    """`--model dynamodb.json --list ec2` listed DynamoDB's waiters, and `ec2
    table-exists` waited on DynamoDB: SERVICE was never checked (found by review s23,
    finding 11). botocore's data tells the model's service: another name is refused."""
    shared_path("models")
    result = run_wait(None, "--model", str(DYNAMODB_MODEL), *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "describes service dynamodb, not 'ec2': pass SERVICE dynamodb" in (
        result.stderr
    )


@pytest.mark.parametrize("service", ["dynamodb", "DynamoDB"])
def test_a_model_takes_its_service_by_any_spelling(service: str) -> None:
    shared_path("models")
    result = run_wait(None, "--model", str(DYNAMODB_MODEL), "--list", service)
    assert result.exit_code == ExitCode.SUCCESS, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "table-exists",
        "table-not-exists",
    ]


def test_model_without_waiters(tmp_path: Path) -> None:
    model = tmp_path / "empty.json"
    model.write_text('{"smithy": "2.0", "shapes": {}}', encoding="utf-8")
    result = run_wait(None, "--model", str(model), "--list", "x")
    assert result.exit_code == ExitCode.USAGE
    assert "has no smithy.waiters#waitable traits" in result.stderr
