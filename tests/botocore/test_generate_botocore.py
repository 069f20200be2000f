"""`generate-waiters --botocore SERVICE`: typed packages from the installed botocore.

The generated definitions must equal the runtime's translation (which
`test_agreement.py` checks against botocore's `Waiter`), the classes must use
boto3's method names and botocore's timing, and the packages must pass
`mypy --strict`: a few services, then every service in one run (the expensive one).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from waitable import WaiterDefinition
from waitable.botocore_waiters import available_services, service_waiters
from waitable.testing import VirtualClock
from waitable_codegen.api import generate
from waitable_codegen.botocore_model import smithy_document, botocore_loader
from waitable_codegen.cli import main
from waitable_codegen.errors import UsageError
from waitable_codegen.naming import module_name

ROOT = Path(__file__).resolve().parents[2]


def _import(out: Path, package: str) -> Any:
    sys.path.insert(0, str(out))
    try:
        importlib.invalidate_caches()
        return importlib.import_module(f"{package}.waiters")
    finally:
        sys.path.remove(str(out))


def _mypy(root: Path, *packages: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *packages],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _check_service(module: Any, service: str) -> int:
    """Every waiter class of `module` is the runtime's translation of botocore's waiter."""
    checked = 0
    for name, waiter in service_waiters(service).items():
        for prefix in ("", "Async"):
            cls = getattr(module, f"{prefix}{name}Waiter")
            # The generated definition also lists the operation's modeled errors,
            # which botocore's matchers never read.
            generated = dataclasses.replace(cls.definition, errors=())
            assert generated == waiter.definition, (service, name)
            assert cls.operation_method == waiter.operation_method
            assert cls.botocore_max_attempts == waiter.max_attempts
            checked += 1
    return checked


def test_cli_generates_ec2_that_imports_and_matches_the_runtime(
    tmp_path: Path,
) -> None:
    out = tmp_path / "ec2_waiters"
    result = CliRunner().invoke(main, ["--botocore", "ec2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{len(service_waiters('ec2'))} waiters" in result.output
    module = _import(tmp_path, "ec2_waiters")
    assert _check_service(module, "ec2") == 2 * len(service_waiters("ec2"))
    shapes = importlib.import_module("ec2_waiters.shapes")
    assert "Reservations" in shapes.DescribeInstancesResult.__annotations__
    assert "botocore" in (out / "waiters.py").read_text().splitlines()[2]
    # A second run changes nothing.
    again = CliRunner().invoke(main, ["--botocore", "ec2", "-o", str(out)])
    assert again.exit_code == 0 and "0 files written" in again.output


def test_generated_class_waits_with_botocore_timing(tmp_path: Path) -> None:
    generate([], tmp_path / "s3_waiters", botocore=["s3"])
    module = _import(tmp_path, "s3_waiters")
    waiter = service_waiters("s3")["ObjectExists"]
    statuses = iter([404, 404, 200])
    calls = []

    class Client:
        def head_object(self, **kwargs: Any) -> Any:
            calls.append(kwargs)
            status = next(statuses)
            if status == 404:
                from botocore.exceptions import ClientError

                raise ClientError(
                    {
                        "Error": {"Code": "404", "Message": "Not Found"},
                        "ResponseMetadata": {"HTTPStatusCode": 404},
                    },
                    "HeadObject",
                )
            return {"ResponseMetadata": {"HTTPStatusCode": 200}}

    attempts: list[Any] = []
    result = module.ObjectExistsWaiter(
        Client(), clock=VirtualClock(), on_attempt=attempts.append
    ).wait({"Bucket": "b", "Key": "k"})
    assert result.attempts == 3
    assert [a.started_at for a in attempts] == [0, waiter.delay, 2 * waiter.delay]

    class AsyncClient:
        async def head_object(self, **kwargs: Any) -> Any:
            return {"ResponseMetadata": {"HTTPStatusCode": 200}}

    done = asyncio.run(
        module.AsyncObjectExistsWaiter(AsyncClient(), clock=VirtualClock()).wait(
            {"Bucket": "b", "Key": "k"}
        )
    )
    assert done.attempts == 1


def test_a_few_services_pass_mypy_strict(tmp_path: Path) -> None:
    services = ["ec2", "s3", "dynamodb", "cognito-idp"]
    services = [s for s in services if s in available_services()]
    result = generate([], tmp_path / "aws", botocore=services)
    assert result.waiters == sum(len(service_waiters(s)) for s in services)
    checked = _mypy(tmp_path, "aws")
    assert checked.returncode == 0, checked.stdout[-3000:]


def test_usage_errors_name_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no waiters for this service"):
        generate([], tmp_path / "x", botocore=["not-a-service"])
    with pytest.raises(UsageError, match="without MODEL"):
        generate(["m.json"], tmp_path / "x", botocore=["ec2"])
    result = CliRunner().invoke(main, ["--botocore", "nope", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_smithy_model_cannot_use_the_botocore_matcher(tmp_path: Path) -> None:
    """The converter's matcher key is botocore input's only: Smithy validation refuses it."""
    from waitable_codegen.errors import ValidationFailed

    document = smithy_document(botocore_loader(), ["dynamodb"])
    model = tmp_path / "model.json"
    model.write_text(json.dumps(document))
    with pytest.raises(ValidationFailed):
        generate(model, tmp_path / "out")


def test_every_service_generates_imports_and_passes_one_mypy_run(
    tmp_path: Path,
) -> None:
    """The expensive one (about 20 s on 2 cores): every service, one mypy run."""
    result = generate([], tmp_path / "aws", botocore=["all"])
    services = available_services()
    assert result.waiters == sum(len(service_waiters(s)) for s in services)
    checked = 0
    for service in services:
        checked += _check_service(
            _import(tmp_path, f"aws.{module_name(service)}"), service
        )
    assert checked == 2 * result.waiters
    mypy = _mypy(tmp_path, "aws")
    assert mypy.returncode == 0, mypy.stdout[-3000:]
    assert "226 source files" in mypy.stdout or "Success" in mypy.stdout
