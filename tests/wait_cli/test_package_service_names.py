"""`--package`: every service name `--list` prints selects the service, and so do its
module's name (`lambda_`, `acm_pca`) and botocore's name (`lambda`, `acm-pca`); the
input options and the client are always botocore's service's, whichever name was used.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.conftest import MotoServer
from waitable.wait_cli import ExitCode

from .conftest import run_wait


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two packages generated from botocore's data, importable: one with a subpackage
    per service (`acm_pca`, `lambda_`), one for Lambda alone."""
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("wait_cli_named")
    generate([], root / "wait_cli_two", botocore=["acm-pca", "lambda"])
    generate([], root / "wait_cli_lambda", botocore=["lambda"])
    sys.path.insert(0, str(root))
    try:
        yield "wait_cli_two", "wait_cli_lambda"
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith("wait_cli_")]:
            if name.startswith(("wait_cli_two", "wait_cli_lambda")):
                del sys.modules[name]


def _listed(*args: str) -> list[str]:
    result = run_wait(None, *args, "--list")
    assert result.exit_code == ExitCode.SUCCESS, result.output
    return result.stdout.split()


def test_list_prints_botocores_names(packages: tuple[str, str]) -> None:
    two, one = packages
    assert _listed("--package", two) == ["acm-pca", "lambda"]
    assert _listed("--package", one) == ["lambda"]


def _function_exists(
    server: MotoServer, package: str, service: str
) -> dict[str, object]:
    """One poll of FunctionExists for a function that is not there (moto answers
    ResourceNotFoundException, a retry): the option and the client both worked."""
    result = run_wait(
        server,
        "--package",
        package,
        service,
        "function-exists",
        "--function-name",
        "no-such-function",
        "--max-attempts",
        "1",
        "--output",
        "json",
        "--quiet",
    )
    assert result.exit_code == ExitCode.ATTEMPTS_EXHAUSTED, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("name", ["lambda", "lambda_"])
def test_every_name_of_a_subpackage_works(
    packages: tuple[str, str], fresh: MotoServer, name: str
) -> None:
    data = _function_exists(fresh, packages[0], name)
    assert [a["error_type"] for a in data["history"]] == [  # type: ignore[attr-defined]
        "ResourceNotFoundException"
    ]


def test_every_name_of_a_one_service_package_works(
    packages: tuple[str, str], fresh: MotoServer
) -> None:
    # botocore's name, which --list prints, and the package's own name
    for name in ("lambda", "wait_cli_lambda"):
        assert _function_exists(fresh, packages[1], name)["attempts"] == 1


@pytest.mark.parametrize("name", ["acm-pca", "acm_pca"])
def test_options_come_from_botocores_service(
    packages: tuple[str, str], name: str
) -> None:
    # A name that botocore does not know (acm_pca) used to give no options at all.
    listed = _listed("--package", packages[0], name)
    assert "certificate-issued" in listed
    result = run_wait(
        None,
        "--package",
        packages[0],
        name,
        "certificate-issued",
        "--certificate-authority-arn",
        "arn:aws:acm-pca:us-east-1:123456789012:certificate-authority/x",
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "missing --certificate-arn" in result.stderr


def test_a_service_the_package_lacks_is_refused(packages: tuple[str, str]) -> None:
    result = run_wait(
        None, "--package", packages[1], "ec2", "function-exists", "--function-name", "f"
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "has no waiters for service 'ec2'; it has lambda" in result.stderr
