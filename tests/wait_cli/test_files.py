"""Files users name are read by one function (`waitable.files.read_text`): bounded,
never hanging on a FIFO nobody writes to, refusing a directory and bytes that are
not UTF-8, each with a reason the caller words as its own error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from waitable.custom import custom_waiter_from_trait
from waitable.definition import WaiterDefinitionError
from waitable.files import UnreadableFile, read_text
from waitable.wait_cli import ExitCode

from .conftest import run_wait


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of file read_text refuses, and words its reason holds."""
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"a": "\xe9"}')
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2048)
    return {
        "not UTF-8": (latin, "not UTF-8 text"),
        "a FIFO nobody writes to": (fifo, ""),
        "a directory": (tmp_path, "directory"),
        "missing": (tmp_path / "gone.json", "No such file"),
    }


def test_read_text_refuses_each_kind_with_a_reason(tmp_path: Path) -> None:
    for name, (path, words) in _bad_files(tmp_path).items():
        if name == "a FIFO nobody writes to":
            assert read_text(str(path)) == ""  # ends at once, empty
            continue
        with pytest.raises(UnreadableFile, match=words):
            read_text(str(path))
    big = tmp_path / "big.json"
    with pytest.raises(UnreadableFile, match="larger than"):
        read_text(str(big), limit=1024)
    assert read_text(str(big), limit=4096) == " " * 2048


@pytest.mark.parametrize("kind", ["not UTF-8", "a directory", "missing"])
def test_an_unreadable_input_file_is_bad_usage(tmp_path: Path, kind: str) -> None:
    path, _ = _bad_files(tmp_path)[kind]
    result = run_wait(None, "s3", "bucket-exists", "--input-file", str(path))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"cannot read {path}" in result.stderr
    assert "Traceback" not in result.output


def test_an_input_file_that_is_a_silent_fifo_does_not_hang(tmp_path: Path) -> None:
    path, _ = _bad_files(tmp_path)["a FIFO nobody writes to"]
    result = run_wait(None, "s3", "bucket-exists", "--input-file", str(path))
    assert result.exit_code == ExitCode.USAGE, result.output


@pytest.mark.parametrize("kind", ["not UTF-8", "a directory"])
def test_an_unreadable_model_is_bad_usage(tmp_path: Path, kind: str) -> None:
    path, _ = _bad_files(tmp_path)[kind]
    result = run_wait(None, "--model", str(path), "--list")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{path}: cannot read a Smithy JSON AST model" in result.stderr


@pytest.mark.parametrize(
    "kind", ["not UTF-8", "a directory", "a FIFO nobody writes to"]
)
def test_an_unreadable_definition_file_is_a_definition_error(
    tmp_path: Path, kind: str
) -> None:
    path, _ = _bad_files(tmp_path)[kind]
    with pytest.raises(WaiterDefinitionError, match=str(path)):
        custom_waiter_from_trait("Build", path)
