"""examples/boto3_example.py runs as its docstring says, against moto's server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from waitable_codegen import generate

from .conftest import AWS_MODELS, PROJECT_ROOT, REGION, MotoServer

EXAMPLE = PROJECT_ROOT / "examples" / "boto3_example.py"


@pytest.fixture(scope="module")
def package_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding `s3_waiters`, generated as the example's docstring says."""
    root = tmp_path_factory.mktemp("example")
    generate(AWS_MODELS / "s3-2006-03-01.json", root / "s3_waiters")
    return root


def run_example(
    package_path: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the example in a fresh interpreter, the generated package on PYTHONPATH."""
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        env={
            **os.environ,
            "PYTHONPATH": str(package_path),
            "AWS_CONFIG_FILE": os.devnull,
            "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_example_waits_for_a_bucket_and_for_its_deletion(
    package_path: Path, moto_server: MotoServer, unique_name: str
) -> None:
    done = run_example(
        package_path,
        unique_name,
        AWS_ENDPOINT_URL=moto_server.endpoint_url,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION=REGION,
    )
    assert done.returncode == 0, done.stderr
    exists, gone = done.stdout.splitlines()
    assert exists.startswith(f"{unique_name} exists (1 attempt(s), ")
    assert gone.startswith(f"{unique_name} is gone (1 attempt(s), ")


def test_the_example_says_how_to_call_it(package_path: Path) -> None:
    done = run_example(package_path)
    assert done.returncode != 0
    assert "usage: python examples/boto3_example.py BUCKET_NAME" in done.stderr
