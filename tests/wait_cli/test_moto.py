"""`waitable wait` against moto's server: S3, DynamoDB and EC2 waiters of botocore's data,
the exit status of each outcome, and `--output json`."""

from __future__ import annotations

import json
from typing import Any

from clients.conftest import MotoServer
from waitable.wait_cli import ExitCode

from .conftest import aws_client, run_wait


def test_bucket_exists_succeeds_and_prints_the_result(
    fresh: MotoServer, unique_name: str
) -> None:
    aws_client(fresh, "s3").create_bucket(Bucket=unique_name)
    result = run_wait(
        fresh, "s3", "bucket-exists", "--bucket", unique_name, "--output", "json"
    )
    assert result.exit_code == ExitCode.SUCCESS, result.output
    data = json.loads(result.stdout)
    assert data["waiter"] == "BucketExists"
    assert data["state"] == "success"
    assert data["attempts"] == 1 == len(data["history"])
    assert data["history"][0]["state"] == "success"
    assert "error" not in data


def test_bucket_that_never_appears_times_out(
    fresh: MotoServer, unique_name: str
) -> None:
    result = run_wait(
        fresh,
        "s3",
        "bucket-exists",
        "--bucket",
        unique_name,
        "--max-wait",
        "1",
        "--delay",
        "0.5",
        "--output",
        "json",
    )
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    data = json.loads(result.stdout)
    assert data["error"]["type"] == "WaiterTimeoutError"
    assert data["attempts"] >= 2
    assert {a["error_type"] for a in data["history"]} == {"NotFound"}
    assert "timed out" in result.stderr


def _two_polls_of_a_missing_bucket(fresh: MotoServer, bucket: str, *extra: str) -> Any:
    return run_wait(
        fresh,
        "s3",
        "bucket-exists",
        "--bucket",
        bucket,
        "--max-attempts",
        "2",
        "--delay",
        "0.2",
        *extra,
    )


def test_attempts_exhausted(fresh: MotoServer, unique_name: str) -> None:
    result = _two_polls_of_a_missing_bucket(fresh, unique_name)
    assert result.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, result.output
    assert "--max-attempts 2" in result.stderr
    # The log lines (not a terminal): one per attempt, the first says when the next poll is.
    lines = [line for line in result.stderr.splitlines() if "attempt " in line]
    assert lines[0].startswith("waitable wait: s3 bucket-exists: attempt 1, ")
    assert "retry: NotFound; next poll in 0.2 s" in lines[0]
    assert "attempt 2," in lines[1]


def test_quiet_shows_no_progress_but_still_says_why_it_failed(
    fresh: MotoServer, unique_name: str
) -> None:
    result = _two_polls_of_a_missing_bucket(fresh, unique_name, "--quiet")
    assert result.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "--max-attempts 2" in lines[0], result.stderr
    assert lines[0].startswith("waitable wait: ")


def test_table_exists(fresh: MotoServer, unique_name: str) -> None:
    aws_client(fresh, "dynamodb").create_table(
        TableName=unique_name,
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
    result = run_wait(
        fresh, "dynamodb", "table-exists", "--table-name", unique_name, "--quiet"
    )
    assert result.exit_code == ExitCode.SUCCESS, result.output
    assert result.output == ""


def test_filters_in_the_aws_clis_shorthand_reach_the_service(
    fresh: MotoServer, unique_name: str
) -> None:
    ec2 = aws_client(fresh, "ec2")
    ec2.run_instances(
        ImageId="ami-12c6146b",
        MinCount=2,
        MaxCount=2,
        TagSpecifications=[
            {"ResourceType": "instance", "Tags": [{"Key": "run", "Value": unique_name}]}
        ],
    )
    tagged = run_wait(
        fresh,
        "ec2",
        "instance-running",
        "--filters",
        f"Name=tag:run,Values={unique_name}",
        "Name=instance-state-name,Values=pending,running",
        "--delay",
        "0.2",
        "--output",
        "json",
    )
    assert tagged.exit_code == ExitCode.SUCCESS, tagged.output
    # A filter nobody matches leaves no instance, so the waiter never sees "running".
    nobody = run_wait(
        fresh,
        "ec2",
        "instance-running",
        "--filters",
        f"Name=tag:run,Values=none-{unique_name}",
        "--max-attempts",
        "1",
        "--quiet",
    )
    assert nobody.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, nobody.output


def test_instance_running_then_failure_state_once_terminated(
    fresh: MotoServer,
) -> None:
    ec2 = aws_client(fresh, "ec2")
    instances = ec2.run_instances(ImageId="ami-12c6146b", MinCount=2, MaxCount=2)
    ids = [i["InstanceId"] for i in instances["Instances"]]
    running = run_wait(
        fresh, "ec2", "instance-running", "--instance-ids", *ids, "--delay", "0.5"
    )
    assert running.exit_code == ExitCode.SUCCESS, running.output
    assert "success: running" in running.stderr
    ec2.terminate_instances(InstanceIds=ids[:1])
    failed = run_wait(
        fresh,
        "ec2",
        "instance-running",
        "--instance-ids",
        *ids,
        "--delay",
        "0.5",
        "--output",
        "json",
    )
    assert failed.exit_code == ExitCode.FAILURE_STATE, failed.output
    data = json.loads(failed.stdout)
    assert data["state"] == "failure"
    assert data["error"]["type"] == "WaiterFailureStateError"


def test_unmatched_error_is_an_operation_error(fresh: MotoServer) -> None:
    # ImageAvailable matches no error at all: moto's InvalidAMIID.NotFound ends the wait.
    result = run_wait(
        fresh, "ec2", "image-available", "--image-ids", "ami-00000000", "--delay", "1"
    )
    assert result.exit_code == ExitCode.OPERATION_ERROR, result.output
    assert "InvalidAMIID" in result.stderr


def test_input_as_json(fresh: MotoServer, unique_name: str) -> None:
    aws_client(fresh, "s3").create_bucket(Bucket=unique_name)
    given = json.dumps({"Bucket": unique_name})
    assert run_wait(fresh, "s3", "bucket-exists", "--input", given).exit_code == 0
    # An option wins over the JSON it is given with.
    other = json.dumps({"Bucket": "not-" + unique_name})
    result = run_wait(
        fresh, "s3", "bucket-exists", "--input", other, "--bucket", unique_name
    )
    assert result.exit_code == ExitCode.SUCCESS, result.output
