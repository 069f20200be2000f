"""Every file of a new package, its manifest and its directories reach the disk
(fsync) before the package is swapped in, though the files are written and
synced from several threads; a write that fails leaves the old package and no
staging directory."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from waitable_codegen import GenerationError, generate, write
from waitable_codegen.write import MANIFEST_NAME

from .helpers import SPEC_EXAMPLES


def _path_of(descriptor: int) -> str:
    return os.readlink(f"/proc/self/fd/{descriptor}")


def package_files(root: Path) -> set[str]:
    """Every regular file under `root`, relative to it."""
    return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_every_file_and_directory_is_synced_before_the_swap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "pkg"
    staging = str(tmp_path / ".pkg.generate-waiters.new")
    synced: list[str] = []
    lock = threading.Lock()
    real_fsync = os.fsync

    def recording_fsync(descriptor: int) -> None:
        with lock:
            synced.append(_path_of(descriptor))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    generate(SPEC_EXAMPLES, target)
    staged = {
        os.path.relpath(path, staging)
        for path in synced
        if path == staging or path.startswith(staging + os.sep)
    }
    files = package_files(target)
    assert MANIFEST_NAME in files and len(files) > 3
    directories = {
        str(path.relative_to(target)) for path in target.rglob("*") if path.is_dir()
    }
    assert staged == files | directories | {"."}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_failed_write_keeps_the_old_package_and_no_staging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, target, jmespath="interpreted")
    before = {name: (target / name).read_bytes() for name in package_files(target)}
    real_write = os.write

    def failing_write(descriptor: int, data: bytes | memoryview) -> int:
        if _path_of(descriptor).endswith("shapes.py"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(descriptor, data)

    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(GenerationError, match="cannot write generated files"):
        generate(SPEC_EXAMPLES, target)  # compiled: every file changes
    monkeypatch.undo()
    after = {name: (target / name).read_bytes() for name in package_files(target)}
    assert after == before
    assert not (tmp_path / ".pkg.generate-waiters.new").exists()


def _open_descriptors() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_files_are_synced_in_batches_and_every_descriptor_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More files than a batch: each is synced once, through the descriptor it was
    written with (never reopened), and none is left open."""
    monkeypatch.setattr(write, "SYNC_BATCH", 2)
    synced: list[str] = []
    opened: list[str] = []
    lock = threading.Lock()
    real_fsync, real_open = os.fsync, os.open

    def recording_fsync(descriptor: int) -> None:
        with lock:
            synced.append(_path_of(descriptor))
        real_fsync(descriptor)

    def recording_open(path: str, flags: int, *args: object, **kwargs: object) -> int:
        descriptor = real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]
        if not flags & os.O_DIRECTORY:
            with lock:
                opened.append(_path_of(descriptor))
        return descriptor

    monkeypatch.setattr(os, "fsync", recording_fsync)
    monkeypatch.setattr(os, "open", recording_open)
    before = _open_descriptors()
    generate(SPEC_EXAMPLES, tmp_path / "pkg")
    monkeypatch.undo()
    assert _open_descriptors() == before
    staging = str(tmp_path / ".pkg.generate-waiters.new") + os.sep
    written = [path for path in opened if path.startswith(staging)]
    assert len(written) == len(package_files(tmp_path / "pkg")) > 2  # several batches
    assert len(set(written)) == len(written)  # each file opened once: not reopened
    assert sorted(path for path in synced if path in written) == sorted(written)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
@pytest.mark.parametrize(
    ("failing", "batch"),
    [
        ("__init__.py", 3),
        ("waiters.py", 3),
        ("shapes.py", 256),
        ("py.typed", 256),
        (MANIFEST_NAME, 256),
        (".pkg.generate-waiters.new", 256),  # the staging directory itself
    ],
)
def test_a_failed_sync_closes_every_descriptor_and_keeps_the_old_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str, batch: int
) -> None:
    """Whichever share (this thread's or a worker's) meets the failure."""
    target = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, target, jmespath="interpreted")
    before = {name: (target / name).read_bytes() for name in package_files(target)}
    real_fsync = os.fsync

    def failing_fsync(descriptor: int) -> None:
        if _path_of(descriptor).endswith(failing):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(descriptor)

    monkeypatch.setattr(write, "SYNC_BATCH", batch)
    monkeypatch.setattr(os, "fsync", failing_fsync)
    open_before = _open_descriptors()
    with pytest.raises(GenerationError, match="cannot write generated files"):
        generate(SPEC_EXAMPLES, target)
    monkeypatch.undo()
    assert _open_descriptors() == open_before
    after = {name: (target / name).read_bytes() for name in package_files(target)}
    assert after == before
    assert not (tmp_path / ".pkg.generate-waiters.new").exists()
