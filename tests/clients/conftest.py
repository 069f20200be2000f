"""Fixtures for the client tests: moto's server on 127.0.0.1 and clients pointed at it.

The server runs in a thread of the test process, on a free port the OS picks,
for the whole session. Clients get fake credentials and a region as arguments,
so nothing reads the developer's AWS configuration and nothing leaves the machine.
"""

from __future__ import annotations

import importlib
import json
import logging
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from botocore.config import Config

REGION = "us-east-1"
FAKE_CREDENTIALS = {
    "aws_access_key_id": "testing",
    "aws_secret_access_key": "testing",
    "aws_session_token": "testing",
}


@dataclass(frozen=True)
class MotoServer:
    """A running moto server: its endpoint URL and its control API."""

    endpoint_url: str

    def control(self, path: str, body: dict[str, Any] | None = None) -> bytes:
        """POST to moto's `/moto-api/...` control API and return the body."""
        data = json.dumps(body or {}).encode()
        request = urllib.request.Request(
            f"{self.endpoint_url}/moto-api/{path}", data=data, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            payload: bytes = response.read()
            return payload

    def hold_state(self, model_name: str, times: int) -> None:
        """Make moto keep `model_name` resources in their first state for `times` reads."""
        self.control(
            "state-manager/set-transition",
            {
                "model_name": model_name,
                "transition": {"progression": "manual", "times": times},
            },
        )

    def release_state(self, model_name: str) -> None:
        """Undo `hold_state`: moto's default progression for `model_name` again."""
        self.control("state-manager/unset-transition", {"model_name": model_name})


def client_config(**overrides: Any) -> Config:
    """botocore config for tests: no SDK-level retries, short timeouts.

    The waiter decides about retries; botocore's own retry loop would hide what
    the waiter sees (and slow the connection-error tests down).
    """
    settings: dict[str, Any] = {
        "retries": {"total_max_attempts": 1, "mode": "standard"},
        "connect_timeout": 2,
        "read_timeout": 5,
    }
    settings.update(overrides)
    return Config(**settings)


@pytest.fixture(scope="session")
def moto_server() -> Iterator[MotoServer]:
    """Start moto's server on 127.0.0.1 on a free port; stop it after the session."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield MotoServer(endpoint_url=f"http://{host}:{port}")
    finally:
        server.stop()


@pytest.fixture(scope="session")
def boto3_session() -> boto3.Session:
    """A boto3 session with fake credentials and a fixed region."""
    return boto3.Session(region_name=REGION, **FAKE_CREDENTIALS)


def boto3_client(session: boto3.Session, service: str, endpoint_url: str) -> Any:
    """A boto3 client for `service` talking to `endpoint_url`."""
    return session.client(service, endpoint_url=endpoint_url, config=client_config())


@pytest.fixture
def s3(boto3_session: boto3.Session, moto_server: MotoServer) -> Any:
    """A boto3 S3 client on the moto server."""
    return boto3_client(boto3_session, "s3", moto_server.endpoint_url)


@pytest.fixture
def dynamodb(boto3_session: boto3.Session, moto_server: MotoServer) -> Any:
    """A boto3 DynamoDB client on the moto server."""
    return boto3_client(boto3_session, "dynamodb", moto_server.endpoint_url)


@pytest.fixture
def dsql(boto3_session: boto3.Session, moto_server: MotoServer) -> Any:
    """A boto3 Aurora DSQL client on the moto server."""
    return boto3_client(boto3_session, "dsql", moto_server.endpoint_url)


@pytest.fixture
def unique_name(request: pytest.FixtureRequest) -> str:
    """A resource name unique to the test, valid as an S3 bucket or table name."""
    import hashlib

    digest = hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:16]
    return f"waitable-{digest}"


PROJECT_ROOT = Path(__file__).resolve().parents[2]
AWS_MODELS = PROJECT_ROOT.parent / "shared" / "models" / "api-models-aws"
WAITED_MODELS = (
    "s3-2006-03-01.json",
    "dynamodb-2012-08-10.json",
    "dsql-2018-05-10.json",
)
GENERATED_PACKAGE = "client_test_waiters"


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """Waiters generated from the real S3, DynamoDB and DSQL models, imported.

    The package is written to a temporary folder for the session and imported
    from there; it is removed from `sys.modules` and `sys.path` afterwards.
    """
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("generated")
    result = generate(
        [AWS_MODELS / name for name in WAITED_MODELS], root / GENERATED_PACKAGE
    )
    assert result.waiters == 8, result
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(GENERATED_PACKAGE)
        for service in ("s3", "dynamodb", "dsql"):
            importlib.import_module(f"{GENERATED_PACKAGE}.{service}")
        yield package
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] == GENERATED_PACKAGE]:
            del sys.modules[name]


@pytest.fixture
def world(
    moto_server: MotoServer, s3: Any, dynamodb: Any, dsql: Any, unique_name: str
) -> Any:
    """What a scenario arranges with: moto, boto3 clients, a unique resource name."""
    from .scenarios import World

    return World(
        moto_server, {"s3": s3, "dynamodb": dynamodb, "dsql": dsql}, unique_name
    )


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """An endpoint that accepts connections and never answers (a read timeout)."""
    import socket

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
