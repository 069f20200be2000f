"""`--max-attempts` above botocore's default makes all those attempts (as boto3's
`WaiterConfig` `MaxAttempts` does) instead of stopping at botocore's delay × max
attempts deadline; and what the command prints of a waiter's error names the command's
options (`--max-wait`, `--max-attempts`, `--delay`), never the Python API's arguments
(`max_wait_time`, `retry_on=`, `min_delay=300`), which a shell user cannot pass.

The waits run on a virtual clock against moto's server: no real sleeps.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any

import pytest
from click.testing import CliRunner

from clients.conftest import REGION, MotoServer
from waitable import AcceptorState, WaiterResult
from waitable.errors import (
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from waitable.options import validate_seconds
from waitable.testing import VirtualClock
from waitable.simulate.commands import waitable
from waitable.wait_cli import ExitCode
from waitable.wait_cli.advice import (
    CREDENTIALS_ADVICE,
    RETRY_ADVICE,
    for_cli,
    is_credentials_error,
    is_input_refused,
)
from waitable.wait_cli.status import StatusClock

from .conftest import ENVIRONMENT, run_wait

#: The Python API's names, which no message of the command may advise.
PYTHON_NAMES = re.compile(
    r"retry_on|\bretry=|max_wait_time|min_delay|max_delay|max_attempts|"
    r"StandardRetryStrategy|WaiterConfig"
)


@pytest.fixture
def virtual_time(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    """The command's clock made virtual: its delays pass at once."""
    clock = VirtualClock()
    monkeypatch.setattr(
        "waitable.wait_cli.command.StatusClock",
        lambda status: StatusClock(status, clock),
    )
    return clock


def _missing_bucket(server: MotoServer, bucket: str, *extra: str) -> Any:
    return run_wait(
        server, "s3", "bucket-exists", "--bucket", bucket, "--quiet", *extra
    )


def test_max_attempts_above_botocores_makes_them_all(
    fresh: MotoServer, unique_name: str, virtual_time: VirtualClock
) -> None:
    # botocore's BucketExists: every 5 s, 20 attempts (a 100 s deadline by default)
    result = _missing_bucket(
        fresh, unique_name, "--max-attempts", "25", "--output", "json"
    )
    assert result.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, result.output
    data = json.loads(result.stdout)
    assert data["attempts"] == 25
    assert virtual_time.now() == pytest.approx(24 * 5)
    assert result.stderr == (
        f"waitable wait: waiter BucketExists gave up: --max-attempts 25 reached "
        f"after 25 attempts in {data['elapsed']:.1f}s, last error NotFound; "
        "raise --max-attempts to keep waiting\n"
    )
    assert data["error"]["message"] == result.stderr[len("waitable wait: ") : -1]


def test_delay_keeps_botocores_attempts(
    fresh: MotoServer, unique_name: str, virtual_time: VirtualClock
) -> None:
    """`--delay 60` polls botocore's 20 times, 60 s apart (as boto3's `Delay` does),
    instead of stopping at the 100 s of botocore's own 5 s × 20."""
    result = _missing_bucket(fresh, unique_name, "--delay", "60", "--output", "json")
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    data = json.loads(result.stdout)
    assert data["attempts"] == 20
    assert virtual_time.now() == pytest.approx(19 * 60 + 60)  # then the deadline
    # no --max-wait was given: the deadline is named as what it is (review s23, 10)
    assert "(--delay × botocore's max attempts, 60 s × 20 = 1200 s)" in result.stderr
    assert result.stderr.endswith("; pass a --max-wait above 1200 to wait longer\n")


def test_botocores_default_deadline_is_named_as_such(
    fresh: MotoServer, unique_name: str, virtual_time: VirtualClock
) -> None:
    """With no --max-wait the timeout said "(--max-wait 100)", as if the user had
    passed it; the deadline was botocore's 5 s × 20 (found by review s23, finding 10).
    """
    result = _missing_bucket(fresh, unique_name, "--output", "json")
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    assert virtual_time.now() == pytest.approx(100)
    said = (
        "by the deadline (botocore's delay × max attempts, 5 s × 20 = 100 s) after "
        "20 attempts in "
    )
    assert said in result.stderr
    assert "(--max-wait" not in result.stderr
    assert result.stderr.endswith("; pass a --max-wait above 100 to wait longer\n")
    assert (
        json.loads(result.stdout)["error"]["message"]
        == result.stderr[len("waitable wait: ") : -1]
    )
    assert not PYTHON_NAMES.search(result.stderr), result.stderr


def test_max_wait_given_still_limits_max_attempts(
    fresh: MotoServer, unique_name: str, virtual_time: VirtualClock
) -> None:
    result = _missing_bucket(
        fresh, unique_name, "--max-attempts", "25", "--max-wait", "50"
    )
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    assert "(--max-wait 50)" in result.stderr
    assert result.stderr.endswith("; pass a larger --max-wait to wait longer\n")
    assert not PYTHON_NAMES.search(result.stderr), result.stderr


def test_max_attempts_below_the_deadline_says_what_is_left(
    fresh: MotoServer, unique_name: str, virtual_time: VirtualClock
) -> None:
    result = _missing_bucket(
        fresh, unique_name, "--max-attempts", "2", "--max-wait", "50"
    )
    assert result.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, result.output
    assert "s of --max-wait 50 still left; raise --max-attempts to use the whole " in (
        result.stderr
    )
    assert not PYTHON_NAMES.search(result.stderr), result.stderr


def test_transport_error_advice_names_the_commands_options(
    monkeypatch: pytest.MonkeyPatch, virtual_time: VirtualClock
) -> None:
    with socket.socket() as closed:  # a port nothing listens on: refused at once
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # botocore's own retries: none
    result = _missing_bucket(
        MotoServer(f"http://127.0.0.1:{port}"), "b", "--output", "json"
    )
    assert result.exit_code == ExitCode.OPERATION_ERROR, result.output
    assert result.stderr.endswith(f"; {RETRY_ADVICE}\n"), result.stderr
    assert not PYTHON_NAMES.search(result.output), result.output


def test_unmatched_error_advice_names_the_commands_input(
    fresh: MotoServer, virtual_time: VirtualClock
) -> None:
    # InstanceIds must be a list: botocore refuses the input before sending it
    result = run_wait(
        fresh, "ec2", "instance-running", "--input", '{"InstanceIds": "i-1"}'
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "ParamValidationError" in result.stderr
    assert not PYTHON_NAMES.search(result.stderr), result.stderr


def test_an_operation_error_says_what_the_error_said(
    virtual_time: VirtualClock,
) -> None:
    """The message named only the error's code: "raised ParamValidationError ...;
    check the input", not which member was wrong (found by review s23)."""
    result = run_wait(
        None, "ec2", "instance-running", "--input", '{"InstanceIds": "i-1"}'
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert (
        "the operation raised ParamValidationError (Parameter validation failed: "
        "Invalid type for parameter InstanceIds, value: i-1, "
    ) in result.stderr
    # one line still, the advice last
    assert (
        result.stderr.rstrip("\n")
        .splitlines()[-1]
        .endswith("check the input (the --MEMBER options, --input or --input-file)")
    )


@pytest.mark.parametrize(
    "given",
    [
        ["--input", '{"InstanceIds": ["i-1"], "NoSuchMember": 1}'],
        ["--input", '{"InstanceIds": "i-1"}'],
        ["--instance-ids", "i-1", "--input", '{"DryRun": "yes"}'],
    ],
)
@pytest.mark.parametrize("output", ["text", "json"])
def test_input_botocore_refuses_is_bad_usage(
    virtual_time: VirtualClock, given: list[str], output: str
) -> None:
    """An unknown or wrongly typed member in --input exited 5, "the operation
    raised an error", while the same mistake as an option exits 2: botocore
    refuses such input before sending anything (the AWS CLI, too, gives it its
    own status), so it is bad usage (review s23's open question)."""
    args = [*given, "--output", output]
    result = run_wait(None, "ec2", "instance-running", *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    line = result.stderr.rstrip("\n").splitlines()[-1]
    assert "ParamValidationError (Parameter validation failed: " in line
    assert line.endswith(
        "check the input (the --MEMBER options, --input or --input-file)"
    )
    if output == "json":
        data = json.loads(result.stdout)
        assert data["error"]["type"] == "WaiterOperationError"
        assert data["attempts"] == 1


def test_only_botocores_input_refusal_is_bad_usage() -> None:
    from botocore import exceptions

    assert is_input_refused(exceptions.ParamValidationError(report="bad"))
    assert not is_input_refused(exceptions.NoCredentialsError())
    assert not is_input_refused(ValueError("ParamValidationError"))
    assert not is_input_refused(None)


@pytest.mark.parametrize("output", ["text", "json"])
def test_missing_credentials_are_advised_as_credentials(
    virtual_time: VirtualClock, output: str
) -> None:
    """botocore finding no credentials was told to "check the input", which has
    nothing to do with it (found by review s23, finding 8)."""
    env = {
        **ENVIRONMENT,
        "AWS_ACCESS_KEY_ID": None,
        "AWS_SECRET_ACCESS_KEY": None,
        "AWS_SESSION_TOKEN": None,
        "AWS_EC2_METADATA_DISABLED": "true",  # no instance metadata lookup
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": None,
        "AWS_CONTAINER_CREDENTIALS_FULL_URI": None,
        "AWS_WEB_IDENTITY_TOKEN_FILE": None,
        "AWS_CREDENTIAL_EXPIRATION": None,
    }
    args = ["wait", "s3", "bucket-exists", "--bucket", "b", "--region", REGION]
    result = CliRunner().invoke(
        waitable,
        [*args, "--endpoint-url", "http://localhost:1", "--output", output],
        env=env,
        catch_exceptions=False,
    )
    assert result.exit_code == ExitCode.OPERATION_ERROR, result.output
    line = result.stderr.rstrip("\n").splitlines()[-1]
    assert "NoCredentialsError (Unable to locate credentials)" in line
    assert line.endswith(f"; {CREDENTIALS_ADVICE}")
    assert "check the input" not in result.stderr
    if output == "json":
        message = json.loads(result.stdout)["error"]["message"]
        assert message.endswith(f"; {CREDENTIALS_ADVICE}")


def test_credentials_errors_are_told_by_botocore_class() -> None:
    from botocore import exceptions

    assert is_credentials_error(exceptions.NoCredentialsError())
    assert is_credentials_error(
        exceptions.PartialCredentialsError(provider="env", cred_var="x")
    )
    assert is_credentials_error(exceptions.UnauthorizedSSOTokenError())  # an SSOError
    assert not is_credentials_error(exceptions.ParamValidationError(report="bad"))
    assert not is_credentials_error(ValueError("NoCredentialsError"))
    assert not is_credentials_error(None)


def test_a_service_error_says_the_services_message(
    fresh: MotoServer, virtual_time: VirtualClock
) -> None:
    # ServicesStable matches no error: moto's ClusterNotFoundException ends the wait
    result = run_wait(
        fresh,
        "ecs",
        "services-stable",
        "--cluster",
        "nope",
        "--services",
        "s",
        "--output",
        "json",
        "--quiet",
    )
    assert result.exit_code == ExitCode.OPERATION_ERROR, result.output
    said = "the operation raised ClusterNotFoundException (Cluster not found.), "
    assert said in result.stderr
    assert said in json.loads(result.stdout)["error"]["message"]


@pytest.mark.parametrize("option", ["--delay", "--max-wait"])
def test_seconds_out_of_range_name_the_option(option: str) -> None:
    result = run_wait(None, "s3", "bucket-exists", "--bucket", "b", option, "1e10")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"'{option}'" in result.stderr
    assert not PYTHON_NAMES.search(result.stderr), result.stderr


RESULT: WaiterResult[Any] = WaiterResult(
    "BucketExists", AcceptorState.RETRY, None, 3, 10.0, ()
)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            str(WaiterTimeoutError(RESULT, max_wait_time=100, why="no acceptor")),
            "(--max-wait 100) after 3 attempts in 10.0s, no response; pass a "
            "larger --max-wait to wait longer",
        ),
        (
            str(
                WaiterMaxAttemptsError(
                    RESULT, max_attempts=3, max_wait_time=100, remaining=90
                )
            ),
            "--max-attempts 3 reached after 3 attempts in 10.0s, no response, with "
            "90.0s of --max-wait 100 still left; raise --max-attempts to use the "
            "whole --max-wait",
        ),
        (
            str(
                WaiterMaxAttemptsError(
                    RESULT, max_attempts=3, max_wait_time=10, remaining=0
                )
            ),
            "as --max-wait 10 ran out too",
        ),
        (
            str(
                WaiterOperationError(
                    RESULT,
                    error_code="ConnectTimeoutError",
                    advice="ConnectTimeoutError is a transport error, not a service "
                    "error; pass retry_on=(ConnectTimeoutError,) to retry it, or "
                    "retry= a waitable.retry.StandardRetryStrategy() to retry it "
                    "with backoff (2 retries of this poll's call were made)",
                )
            ),
            f"not a service error; {RETRY_ADVICE} (2 retries of this poll's call",
        ),
        (
            str(
                WaiterOperationError(
                    RESULT,
                    error_code="AwsCrtError",
                    advice="AwsCrtError is a transport error (passing failure), "
                    "not a service error; pass retry= a "
                    "waitable.retry.StandardRetryStrategy() to retry it with "
                    "backoff (it retries awscrt's network failures by name)",
                )
            ),
            f"not a service error; {RETRY_ADVICE}",
        ),
        (
            str(
                WaiterOperationError(
                    RESULT,
                    error_code="ValidationError",
                    advice="an error that no acceptor matches ends the wait (the "
                    "spec's implicit failure); check the input, or pass retry_on= "
                    "to retry this error type",
                )
            ),
            "; check the input (the --MEMBER options, --input or --input-file)",
        ),
    ],
)
def test_runtime_messages_in_the_commands_words(message: str, expected: str) -> None:
    text = for_cli(message)
    assert expected in text
    assert not PYTHON_NAMES.search(text), text


def test_a_refused_delay_in_the_commands_words() -> None:
    with pytest.raises(ValueError) as raised:
        validate_seconds("BucketExists", "min_delay", 10**10)
    text = for_cli(str(raised.value))
    assert text.endswith("; pass e.g. --delay 300 for five minutes")
    assert not PYTHON_NAMES.search(text), text
