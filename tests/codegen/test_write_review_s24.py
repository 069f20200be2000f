"""Writer fixes of session 24: a FIFO (or any special file) with a lock file's name,
beside OUT_DIR or anywhere inside it, is looked at and never opened (opening it
released a writer blocked on the FIFO, as the manifest's once did); the
directories carried into the new package keep their POSIX ACLs."""

from __future__ import annotations

import os
import struct
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


def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A POSIX ACL as Linux stores it in `system.posix_acl_*` (version 2, then
    tag, permissions and id of each entry, in tag order)."""
    return struct.pack("<I", 2) + b"".join(
        struct.pack("<HHI", tag, perms, uid) for tag, perms, uid in entries
    )


_ANY = 0xFFFFFFFF
#: Owner rwx, the user nobody nothing, group r-x, mask r-x, others r-x.
_NOBODY_KEPT_OUT = _acl(
    (0x01, 7, _ANY), (0x02, 0, 65534), (0x04, 5, _ANY), (0x10, 5, _ANY), (0x20, 5, _ANY)
)


def _set_acl_or_skip(path: Path, name: str, value: bytes) -> None:
    try:
        os.setxattr(path, name, value)
    except (AttributeError, OSError) as exc:
        pytest.skip(f"no POSIX ACLs here ({exc})")


def _acls(path: Path) -> dict[str, bytes]:
    return {
        name: os.getxattr(path, name)
        for name in os.listxattr(path)
        if name.startswith("system.posix_acl_")
    }


def test_the_acls_of_out_dir_and_its_directories_are_kept(tmp_path: Path) -> None:
    """Directories are rebuilt in the new package: they came back with their mode
    alone, so a directory whose ACL kept a user out became readable to that user
    (its mode lets others in), and OUT_DIR lost its default ACL."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "private" / "inner").mkdir(parents=True)
    (out / "private" / "notes.txt").write_text("mine")
    _set_acl_or_skip(out / "private", "system.posix_acl_access", _NOBODY_KEPT_OUT)
    _set_acl_or_skip(out, "system.posix_acl_default", _NOBODY_KEPT_OUT)
    before = {path: _acls(out / path) for path in ("", "private", "private/inner")}
    generate(other_model(tmp_path), out)
    after = {path: _acls(out / path) for path in ("", "private", "private/inner")}
    assert after == before
    assert _acls(out / "waiters.py") == {}  # nothing made in the build inherits
