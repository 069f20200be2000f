"""Every file of a new package, its manifest and its directories reach the disk
(fsync) before the package is swapped in, though the files are written and
synced from several threads; a write that fails leaves the old package and no
staging directory."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from waitable_codegen import GenerationError, generate, write, write_sync
from waitable_codegen.write import MANIFEST_NAME

from .helpers import AWS_MODELS, SPEC_EXAMPLES


def _path_of(descriptor: int) -> str:
    return os.readlink(f"/proc/self/fd/{descriptor}")


def _record_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The path of every descriptor fsynced from now on, from any thread."""
    synced: list[str] = []
    lock = threading.Lock()
    real_fsync = os.fsync

    def recording_fsync(descriptor: int) -> None:
        with lock:
            synced.append(_path_of(descriptor))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    return synced


def package_files(root: Path) -> set[str]:
    """Every regular file under `root`, relative to it."""
    return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_every_file_and_directory_is_synced_before_the_swap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "pkg"
    staging = str(tmp_path / ".pkg.generate-waiters.new")
    synced = _record_fsyncs(monkeypatch)
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
    monkeypatch.setattr(write, "batch_room", lambda directories: 2)
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

    monkeypatch.setattr(write, "batch_room", lambda directories: batch)
    monkeypatch.setattr(os, "fsync", failing_fsync)
    open_before = _open_descriptors()
    with pytest.raises(GenerationError, match="cannot write generated files"):
        generate(SPEC_EXAMPLES, target)
    monkeypatch.undo()
    assert _open_descriptors() == open_before
    after = {name: (target / name).read_bytes() for name in package_files(target)}
    assert after == before
    assert not (tmp_path / ".pkg.generate-waiters.new").exists()


def test_the_batch_leaves_half_the_descriptor_limit_to_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = {"soft": 1024}
    monkeypatch.setattr(
        write_sync.resource,
        "getrlimit",
        lambda which: (limits["soft"], write_sync.resource.RLIM_INFINITY),
    )
    assert write_sync.batch_room(1) == write_sync.SYNC_BATCH
    assert write_sync.batch_room(400) == 112
    assert write_sync.batch_room(900) == 1  # one file at a time, as before batches
    limits["soft"] = write_sync.resource.RLIM_INFINITY
    assert write_sync.batch_room(5000) == write_sync.SYNC_BATCH


def test_many_subpackages_within_a_low_descriptor_limit(tmp_path: Path) -> None:
    """57 subpackages (their staging directories stay open while the files are
    written) under a limit of 100 descriptors: the files are synced as they come."""
    script = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "from waitable_codegen import generate\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (100, hard))\n"
        "models = sorted(Path(sys.argv[1]).glob('*.json'))\n"
        "print(generate(models, Path(sys.argv[2])).waiters)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(AWS_MODELS), str(tmp_path / "pkg")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 200
    assert len(package_files(tmp_path / "pkg")) > 57 * 3


class _FailingPool:
    """A pool whose second `submit` queues its work and then fails to start a
    thread (as ThreadPoolExecutor does when no thread can be started)."""

    def __init__(self) -> None:
        self.orphans: list[tuple[Callable[..., None], tuple[object, ...]]] = []
        self.real = ThreadPoolExecutor(2)
        self.calls = 0

    def submit(self, function: Callable[..., None], *args: object) -> Future[None]:
        self.calls += 1
        if self.calls == 2:
            self.orphans.append((function, args))
            raise RuntimeError("can't start new thread")
        return self.real.submit(function, *args)


def test_without_a_thread_this_thread_syncs_and_a_late_share_does_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = _FailingPool()
    monkeypatch.setattr(write_sync, "worker_pool", lambda: pool)
    synced = _record_fsyncs(monkeypatch)
    generate(SPEC_EXAMPLES, tmp_path / "pkg")
    staging = str(tmp_path / ".pkg.generate-waiters.new") + os.sep
    files = package_files(tmp_path / "pkg")
    assert {path[len(staging) :] for path in synced if path.startswith(staging)} >= (
        files
    )
    assert pool.orphans  # the share queued before the failure
    count = len(synced)
    for function, args in pool.orphans:  # it runs only now, after the round
        function(*args)
    assert len(synced) == count  # and does nothing: its descriptors are closed
    pool.real.shutdown()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_failed_close_still_closes_every_other_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every close of a staged module fails (Linux releases the descriptor even
    then): the others are closed all the same, by the sync and by the cleanup."""
    real_close = os.close
    failed: list[str] = []

    def failing_close(descriptor: int) -> None:
        path = _path_of(descriptor)
        real_close(descriptor)
        if ".generate-waiters.new" in path and path.endswith(".py"):
            failed.append(path)
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    before = _open_descriptors()
    monkeypatch.setattr(os, "close", failing_close)
    with pytest.raises(GenerationError, match="cannot write generated files"):
        generate(SPEC_EXAMPLES, tmp_path / "pkg")
    monkeypatch.undo()
    assert len(failed) > 1
    assert _open_descriptors() == before
    assert not (tmp_path / "pkg").exists()
