"""Writer fixes of session 22: a generated file this user cannot read is reported
as such (it was called "a special file"), and --force still replaces it."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from waitable_codegen import GenerationError, generate
from waitable_codegen import write_read

from .helpers import SPEC_EXAMPLES
from .test_write_ownership import other_model


def _refuse_reading(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Opening `name` for reading fails with EACCES (tests run as root, whom
    file modes do not stop)."""
    real_open = os.open

    def refusing(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == name and flags == write_read._FILE_FLAGS:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)


def test_an_unreadable_generated_file_is_said_to_be_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    before = (out / "waiters.py").read_bytes()
    _refuse_reading(monkeypatch, "waiters.py")
    with pytest.raises(GenerationError) as refused:
        generate(other_model(tmp_path), out)
    message = str(refused.value)
    assert message.startswith(f"{out / 'waiters.py'}: cannot read this file")
    assert "make it readable, move it away, or pass --force" in message
    assert "special file" not in message
    monkeypatch.undo()
    assert (out / "waiters.py").read_bytes() == before  # nothing was written


def test_force_replaces_an_unreadable_generated_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    _refuse_reading(monkeypatch, "waiters.py")
    generate(other_model(tmp_path), out, force=True)
    monkeypatch.undo()
    assert b"generate-waiters" in (out / "waiters.py").read_bytes()
    generate(other_model(tmp_path), out)  # and the manifest vouches for it again
