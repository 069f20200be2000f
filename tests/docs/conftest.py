"""Fixtures for running the documentation's examples: generated packages, moto, a sandbox.

The moto server fixture is the client tests' own (imported, not copied). Every
example runs in a fresh interpreter whose environment points boto3 and aiobotocore
at that server (`AWS_ENDPOINT_URL`, fake credentials, a region), with the generated
packages the docs import (`s3_waiters`, ...) on `PYTHONPATH`, in a scratch folder laid
out like the project root (`examples/` and `../shared` reachable as in the README).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from clients.conftest import AWS_MODELS, REGION, MotoServer, moto_server  # noqa: F401

from .doc_files import PROJECT_ROOT, Check, check_of, doc_blocks, needs_newer_python

TESTS_DIR = PROJECT_ROOT / "tests"

# The generated packages the docs import, by package name, and the model of each.
GENERATED_PACKAGES = {
    "s3_waiters": AWS_MODELS / "s3-2006-03-01.json",
    "dynamodb_waiters": AWS_MODELS / "dynamodb-2012-08-10.json",
    "demo_waiters": PROJECT_ROOT / "examples" / "spec_examples.json",
}


@pytest.fixture(scope="session")
def doc_packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every package of GENERATED_PACKAGES, generated from its model."""
    from waitable_codegen import generate

    root = tmp_path_factory.mktemp("doc_packages")
    for name, model in GENERATED_PACKAGES.items():
        generate([model], root / name)
    return root


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A scratch working folder where the README's relative paths resolve.

    `examples` links to the project's, and `../shared` to the shared corpora beside
    the project, so `generate-waiters ../shared/models/...` runs unchanged; what an
    example writes (`build/...`, `model.json`) lands in the scratch folder.
    """
    work = tmp_path / "project"
    work.mkdir()
    (work / "examples").symlink_to(PROJECT_ROOT / "examples")
    (tmp_path / "shared").symlink_to(PROJECT_ROOT.parent / "shared")
    return work


def python_path(doc_packages: Path) -> str:
    """The generated packages, then tests/ (for stand-in clients), then what was set."""
    entries = [str(doc_packages), str(TESTS_DIR)]
    if os.environ.get("PYTHONPATH"):
        entries.append(os.environ["PYTHONPATH"])
    return os.pathsep.join(entries)


@pytest.fixture
def example_env(
    moto_server: MotoServer, doc_packages: Path
) -> dict[str, str]:  # noqa: F811
    """The environment an example runs in: AWS clients on a freshly reset moto server.

    `boto3.client("s3")` in an example talks to moto with fake credentials; nothing
    reads the developer's AWS configuration. `generate-waiters` is on `PATH`.
    """
    moto_server.control("reset")
    env = {
        key: value for key, value in os.environ.items() if not key.startswith("AWS_")
    }
    env.update(
        AWS_ENDPOINT_URL=moto_server.endpoint_url,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION=REGION,
        AWS_CONFIG_FILE=os.devnull,
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
        PYTHONPATH=python_path(doc_packages),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
    )
    return env


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many documentation blocks were run and how many only checked."""
    try:
        counts = Counter(check_of(block) for block in doc_blocks())
    except ValueError:
        return
    too_new = sum(
        1
        for block in doc_blocks()
        if check_of(block) is Check.RUN_PYTHON and needs_newer_python(block)
    )
    ran = counts[Check.RUN_PYTHON] - too_new
    skipped = counts[Check.PARSE_PYTHON]
    newer = f", {too_new} need a newer Python" if too_new else ""
    terminalreporter.write_line(
        f"docs examples: {ran} python blocks run, {skipped} skipped "
        f"(parsed and imports checked){newer}; "
        + ", ".join(
            f"{counts[check]} {check.value}"
            for check in Check
            if check not in (Check.RUN_PYTHON, Check.PARSE_PYTHON) and counts[check]
        )
    )
