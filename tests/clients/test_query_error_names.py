"""awsQuery errors, whose wire code is not their shape name, against boto3.

IAM's `NoSuchEntityException` shape has `@awsQueryError(code: "NoSuchEntity")`: botocore
reports `Error.Code == "NoSuchEntity"` and raises its modeled class named after the
shape, `NoSuchEntityException`. The model's `InstanceProfileExists` waiter names the
shape (`errorType: "NoSuchEntityException"`, retry) while its `UserExists` names the
wire code (`"NoSuchEntity"`): both are "an error of the expected type" (spec).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest

from waitable import WaiterTimeoutError

from .conftest import AWS_MODELS, MotoServer, boto3_client

PACKAGE = "query_error_iam_waiters"


@pytest.fixture(scope="module")
def iam_waiters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("iam")
    generate([AWS_MODELS / "iam-2010-05-08.json"], root / PACKAGE)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[name]


@pytest.fixture
def iam(boto3_session: boto3.Session, moto_server: MotoServer) -> Any:
    return boto3_client(boto3_session, "iam", moto_server.endpoint_url)


WAIT = {"max_wait_time": 0.3, "min_delay": 0.05, "max_delay": 0.05}


def test_an_error_type_naming_the_wire_code_retries(
    iam_waiters: ModuleType, iam: Any
) -> None:
    with pytest.raises(WaiterTimeoutError):
        iam_waiters.UserExistsWaiter(iam).wait({"UserName": "review-missing"}, **WAIT)


def test_an_error_type_naming_the_shape_retries(
    iam_waiters: ModuleType, iam: Any
) -> None:
    with pytest.raises(WaiterTimeoutError):
        iam_waiters.InstanceProfileExistsWaiter(iam).wait(
            {"InstanceProfileName": "review-missing"}, **WAIT
        )
