"""Writer fixes of session 24: a FIFO (or any special file) with a lock file's name,
beside OUT_DIR or anywhere inside it, is looked at and never opened: opening it
released a writer blocked on the FIFO, as the manifest's once did."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from waitable_codegen import GenerationError, generate
from waitable_codegen import lock
from waitable_codegen.staging import OutputSite

from .helpers import SPEC_EXAMPLES
from .test_write_ownership import other_model


def _spy_on_open(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every name `os.open` is given from now on (relative names as given)."""
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    return opened


def test_a_fifo_at_the_lock_files_name_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    fifo = tmp_path / ".pkg.generate-waiters.lock"
    os.mkfifo(fifo)
    opened = _spy_on_open(monkeypatch)
    with pytest.raises(GenerationError, match="the lock file is not a regular file"):
        generate(SPEC_EXAMPLES, out)
    assert lock.wait_for_writer(OutputSite.of(out)) is False  # --check's wait
    monkeypatch.undo()
    assert fifo.name not in opened and str(fifo) not in opened
    assert not out.exists()


def test_a_fifo_with_a_lock_files_name_inside_out_dir_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No run holds it (it is no lock file): the run goes on, and carries it."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "deep").mkdir()
    os.mkfifo(out / "deep" / ".inner.generate-waiters.lock")
    os.mkfifo(out / ".top.generate-waiters.lock")
    opened = _spy_on_open(monkeypatch)
    generate(other_model(tmp_path), out)
    monkeypatch.undo()
    assert ".inner.generate-waiters.lock" not in opened
    assert ".top.generate-waiters.lock" not in opened
    assert (out / "deep" / ".inner.generate-waiters.lock").is_fifo()
