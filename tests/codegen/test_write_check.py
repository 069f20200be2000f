"""`--check` takes no lock, yet answers for one whole package when a generation
swaps OUT_DIR while the check reads it (`write_check.py`, `lock.wait_for_writer`)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from waitable_codegen import generate, lock, write, write_check, write_read
from waitable_codegen.errors import GenerationError
from waitable_codegen.staging import SWAP_VARIABLE, OutputSite

from .helpers import status_waiter, thing_shapes, write_model
from .test_write_crash import stopped_at


@pytest.fixture
def models(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Three models whose packages differ in one waiter's expected value.

    A check of the inputs OUT_DIR was generated from is answered from the manifest
    (`api._reuse`); the comparison these tests race is that of other inputs."""
    paths = []
    for name, expected in (
        ("first", "done"),
        ("second", "finished"),
        ("third", "over"),
    ):
        (tmp_path / name).mkdir()
        shapes = thing_shapes(ThingDone=status_waiter(expected))
        # One file name: the headers that name the model are the same in all three.
        paths.append(write_model(tmp_path / name / "model.json", shapes))
    return paths[0], paths[1], paths[2]


def _during_first_probe(
    monkeypatch: pytest.MonkeyPatch, action: Callable[[], None], times: int = 1
) -> list[int]:
    """Run `action` inside the check's comparison (after it opened OUT_DIR), at the
    first probe of each of the first `times` comparisons; the calls are counted.
    Only the check's own comparison is hooked (not the generations `action` runs)."""
    original_probe, original_plan = write.probe, write_check.plan_changes
    done: list[int] = []
    armed: list[bool] = []

    def plan_changes(*args: Any, **kwargs: Any) -> Any:
        armed.append(len(done) < times)
        try:
            return original_plan(*args, **kwargs)
        finally:
            armed.clear()

    def probe(root: int, relative: PurePosixPath) -> Any:
        if armed and armed[0]:
            armed[0] = False
            done.append(root)
            action()
        return original_probe(root, relative)

    monkeypatch.setattr(write, "probe", probe)
    monkeypatch.setattr(write_check, "plan_changes", plan_changes)
    return done


def test_a_swap_during_the_check_is_compared_again(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generation of the checked inputs lands while the check reads the old
    package (whose files vanish as it is discarded): nothing is stale."""
    first, second, _ = models
    out = tmp_path / "pkg"
    generate(second, out)
    swaps = _during_first_probe(monkeypatch, lambda: generate(first, out) and None)
    result = generate(first, out, check=True)
    assert swaps, "the comparison ran while OUT_DIR was swapped"
    assert not result.stale
    assert {path.name for path in result.unchanged} >= {"__init__.py", "waiters.py"}


def test_a_check_answers_for_the_package_swapped_in(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = models
    out = tmp_path / "pkg"
    generate(second, out)
    swaps = _during_first_probe(monkeypatch, lambda: generate(third, out) and None)
    during = generate(first, out, check=True)
    monkeypatch.undo()
    after = generate(first, out, check=True)
    assert swaps and during.stale
    assert (during.written, during.removed, during.unchanged) == (
        after.written,
        after.removed,
        after.unchanged,
    )
    assert after.unchanged, "the packages share files: a fresh comparison finds them"


def test_a_check_gives_up_on_a_package_replaced_every_time(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = models
    out = tmp_path / "pkg"
    generate(second, out)
    turn = iter([third, second] * write_check.CHECK_ROUNDS)
    swaps = _during_first_probe(
        monkeypatch,
        lambda: generate(next(turn), out) and None,
        write_check.CHECK_ROUNDS,
    )
    with pytest.raises(GenerationError, match="replaced by another generation 8 times"):
        generate(first, out, check=True)
    assert len(swaps) == write_check.CHECK_ROUNDS


def test_a_file_the_swap_removes_between_its_lstat_and_its_read_is_no_error(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old package's discard removes a file the comparison has just seen: what
    is left where it was read is no file of ours, which is an error only when OUT_DIR
    was not swapped meanwhile."""
    first, second, _ = models
    out = tmp_path / "pkg"
    generate(second, out)
    original = write_read.read_regular
    swaps: list[str] = []

    def read_regular(name: str, *args: Any, **kwargs: Any) -> Any:
        if not swaps and name.endswith(".py"):
            swaps.append(name)
            generate(first, out)
        return original(name, *args, **kwargs)

    monkeypatch.setattr(write_read, "read_regular", read_regular)
    result = generate(first, out, check=True)
    assert swaps and not result.stale


def _writer_between_renames(
    tmp_path: Path, model: Path, out: Path
) -> subprocess.Popen[bytes]:
    """A real generation of `model` with the portable swap over the package in
    `out`, stopped after its first rename (OUT_DIR retired, the new package not yet
    in place), holding the lock."""
    swap = {SWAP_VARIABLE: "rename"}
    writer = stopped_at(tmp_path, model, out, "retired the old package", **swap)
    assert not out.exists()
    return writer


def test_a_check_between_the_renames_of_a_running_swap_waits_for_it(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, _ = models
    out = tmp_path / "pkg"
    generate(second, out)
    writer = _writer_between_renames(tmp_path, first, out)
    resumed: list[str] = []

    def checkpoint(name: str) -> None:  # the check is about to wait: let it end
        if name == "waiting for the writer" and not resumed:
            resumed.append(name)
            writer.send_signal(signal.SIGCONT)

    monkeypatch.setattr(lock, "checkpoint", checkpoint)
    try:
        result = generate(first, out, check=True)
    finally:
        writer.send_signal(signal.SIGCONT)
        assert writer.wait() == 0
    assert resumed, "the check waited for the writer"
    assert not result.stale


def test_a_swap_that_ends_while_the_check_looks_for_the_old_package_is_seen(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """OUT_DIR was missing before and after the comparison; the writer puts the new
    package in place and discards the old one just before the check looks for it."""
    first, second, _ = models
    out = tmp_path / "pkg"
    generate(second, out)
    writer = _writer_between_renames(tmp_path, first, out)
    original = write_check._retired
    finished: list[int] = []

    def retired(site: OutputSite) -> bool:
        if not finished:
            writer.send_signal(signal.SIGCONT)
            finished.append(writer.wait())
        return original(site)

    monkeypatch.setattr(write_check, "_retired", retired)
    try:
        result = generate(first, out, check=True)
    finally:
        writer.send_signal(signal.SIGCONT)
        writer.wait()
    assert finished == [0]
    assert not result.stale


def test_a_kill_between_the_renames_of_a_portable_swap_is_reported_as_it_is(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """No OUT_DIR, the old package retired beside it, no run holding the lock: the
    check says what a generation would write (which also puts the package back)."""
    first, _, _ = models
    out = tmp_path / "pkg"
    generate(first, out)
    site = OutputSite.of(out)
    os.rename(out, site.parent / site.retired_name)
    result = generate(first, out, check=True)
    assert result.stale and result.unchanged == ()
    assert not out.exists()


@pytest.fixture
def held_lock(tmp_path: Path) -> Iterator[tuple[OutputSite, threading.Event]]:
    """OUT_DIR's lock held by a writer thread until the yielded event is set."""
    out = tmp_path / "pkg"
    locked, release = threading.Event(), threading.Event()

    def writer() -> None:
        with write.exclusive(out):
            locked.set()
            release.wait()

    thread = threading.Thread(target=writer)
    thread.start()
    locked.wait()
    try:
        yield OutputSite.of(out), release
    finally:
        release.set()
        thread.join()


def _blocked_on(lock_file: os.stat_result) -> bool:
    """True when the kernel lists a request waiting for a lock on `lock_file`
    (Linux's /proc/locks marks a blocked request with `->` and names the file as
    `major:minor:inode`, the device in hex: an inode number alone may be another
    file system's)."""
    device = lock_file.st_dev
    wanted = f"{os.major(device):02x}:{os.minor(device):02x}:{lock_file.st_ino}"
    with open("/proc/locks") as table:
        for line in table:
            fields = line.split()
            if "->" in fields and fields[-3] == wanted:
                return True
    return False


@pytest.mark.skipif(
    not os.path.exists("/proc/locks"), reason="needs Linux's /proc/locks"
)
def test_wait_for_writer_blocks_until_the_writer_released_its_lock(
    held_lock: tuple[OutputSite, threading.Event],
) -> None:
    site, release = held_lock
    lock_file = os.stat(site.parent / site.lock_name)
    answers: list[bool] = []
    reader = threading.Thread(target=lambda: answers.append(lock.wait_for_writer(site)))
    reader.start()
    # The kernel shows the reader's shared lock request waiting behind the writer's.
    deadline = time.monotonic() + 60  # a guard against hanging, not a measurement
    while (
        not _blocked_on(lock_file) and reader.is_alive() and time.monotonic() < deadline
    ):
        os.sched_yield()
    assert _blocked_on(lock_file), "the reader did not wait for the writer's lock"
    assert answers == []
    release.set()
    reader.join()
    assert answers == [True]


def test_wait_for_writer_does_not_wait_without_a_writer(tmp_path: Path) -> None:
    site = OutputSite.of(tmp_path / "pkg")
    assert lock.wait_for_writer(site) is False  # no lock file
    (site.parent / site.lock_name).write_text("")
    assert lock.wait_for_writer(site) is False  # a file no run holds
    (site.parent / site.lock_name).unlink()
    (site.parent / site.lock_name).mkdir()
    assert lock.wait_for_writer(site) is False  # not a regular file
