"""The runtime's version (as its pyproject.toml has it) and `waitable.require`, the
check a generated package runs at import against the runtime it needs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import waitable
from waitable import version

releases = st.tuples(*[st.integers(0, 30)] * 3)


def text(release: tuple[int, ...]) -> str:
    return ".".join(str(number) for number in release)


def test_the_version_is_the_installed_metadata_and_the_pyproject_one() -> None:
    assert waitable.__version__ == metadata.version("waitable")
    pyproject = Path(__file__).resolve().parents[2] / "runtime" / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text())["project"]
    assert waitable.__version__ == project["version"]
    assert waitable.require is version.require


def test_import_waitable_reads_no_package_metadata() -> None:
    """`importlib.metadata` costs about 15 ms an import; the version is written in."""
    code = "import sys, waitable; print('importlib.metadata' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


@given(releases, releases)
def test_require_passes_exactly_when_the_runtime_is_new_enough(
    installed: tuple[int, int, int], minimum: tuple[int, int, int]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(waitable, "__version__", text(installed))
        if installed >= minimum:
            version.require(text(minimum), "pkg")
        else:
            with pytest.raises(ImportError) as raised:
                version.require(text(minimum), "pkg")
            message = str(raised.value)
            assert "\n" not in message
            assert message == (
                f"package pkg was generated for waitable >= {text(minimum)} but "
                f"waitable {text(installed)} is installed; run pip install "
                f"'waitable>={text(minimum)}'"
            )


@pytest.mark.parametrize(
    ("written", "release"),
    [
        ("0.2.0", (0, 2, 0)),
        ("1", (1, 0, 0)),
        ("0.10", (0, 10, 0)),
        ("0.2.0rc1", (0, 2, 0)),
        ("1.2.3.4", (1, 2, 3, 4)),
        ("dev", (0, 0, 0)),
    ],
)
def test_version_tuple_reads_the_release_numbers(
    written: str, release: tuple[int, ...]
) -> None:
    assert version.version_tuple(written) == release


def test_numbers_compare_as_numbers_not_text() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(waitable, "__version__", "0.10.0")
        version.require("0.9.0", "pkg")
        patch.setattr(waitable, "__version__", "0.9.9")
        with pytest.raises(ImportError, match=r"waitable>=0\.10\.0"):
            version.require("0.10.0", "pkg")
