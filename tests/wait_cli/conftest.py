"""Fixtures for `waitable wait`: the client tests' moto server (imported, not copied),
the command run in-process (click's runner) or as a real process, fake credentials."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import boto3
import pytest
from click.testing import CliRunner, Result

from clients.conftest import (  # noqa: F401
    AWS_MODELS,
    FAKE_CREDENTIALS,
    REGION,
    MotoServer,
    client_config,
    moto_server,
    unique_name,
)
from waitable.simulate.commands import waitable

#: The environment the command runs in: fake credentials, no AWS configuration read.
ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_CONFIG_FILE": os.devnull,
    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
    "AWS_PROFILE": None,
    "AWS_DEFAULT_REGION": None,
    "AWS_ENDPOINT_URL": None,
}


def run_wait(server: MotoServer | None, *args: str) -> Result:
    """`waitable wait ARGS` in this process against `server` (region and endpoint added)."""
    where = [] if server is None else ["--endpoint-url", server.endpoint_url]
    return CliRunner().invoke(
        waitable,
        ["wait", *args, *where, "--region", REGION],
        env=ENVIRONMENT,
        catch_exceptions=False,
    )


def process_env(extra_path: Sequence[str] = ()) -> dict[str, str]:
    """`os.environ` with ENVIRONMENT applied, for a real `waitable wait` process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({k: v for k, v in ENVIRONMENT.items() if v is not None})
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join(extra_path)
    return env


def command(server: MotoServer, *args: str) -> list[str]:
    """The argv of `waitable wait ARGS` as a real process (python -m waitable.simulate)."""
    return [
        sys.executable,
        "-m",
        "waitable.simulate",
        "wait",
        *args,
        "--endpoint-url",
        server.endpoint_url,
        "--region",
        REGION,
    ]


def aws_client(server: MotoServer, service: str) -> Any:
    """A boto3 client on the moto server, to arrange what a test waits for.

    Its read timeout is generous: the first EC2 call after a reset rebuilds moto's
    EC2 backend (images, instance types), which on a loaded machine took over 5 s.
    """
    session = boto3.Session(region_name=REGION, **FAKE_CREDENTIALS)
    return session.client(
        service,
        endpoint_url=server.endpoint_url,
        config=client_config(read_timeout=120),
    )


@pytest.fixture
def fresh(moto_server: MotoServer) -> MotoServer:  # noqa: F811
    """The moto server, reset."""
    moto_server.control("reset")
    return moto_server


__all__ = ["run_wait", "process_env", "command", "aws_client", "subprocess"]
