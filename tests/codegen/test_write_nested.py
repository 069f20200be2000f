"""Runs into nested OUT_DIRs (`a`, and `a/b` inside it) take turns (`lock.py`): a
run into `a` rebuilds `a` with what it carried of `a/b`, so a run into `a/b` that
worked meanwhile would see its package discarded by the swap."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from pathlib import Path

import pytest

from waitable_codegen import generate, lock, write
from waitable_codegen.errors import GenerationError
from waitable_codegen.staging import SWAP_VARIABLE, OutputSite, is_lock_name

from .test_write_check import _blocked_on, models
from .test_write_crash import (
    command,
    environment,
    stopped_at,
    stopped_or_exited,
    tree,
)

__all__ = ["models"]  # the fixture, shared with test_write_check

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/locks"), reason="needs Linux's /proc/locks"
)


def lock_file(out: Path) -> os.stat_result:
    site = OutputSite.of(out)
    return os.stat(site.parent / site.lock_name)


@pytest.fixture
def in_thread() -> Iterator[Callable[[Callable[[], object]], threading.Thread]]:
    """Start a call on a thread; its exception, if any, is raised at the end."""
    threads: list[threading.Thread] = []
    errors: list[BaseException] = []

    def start(call: Callable[[], object]) -> threading.Thread:
        def run() -> None:
            try:
                call()
            except BaseException as exc:  # raised again by the fixture
                errors.append(exc)

        thread = threading.Thread(target=run)
        thread.start()
        threads.append(thread)
        return thread

    yield start
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def wait_blocked(locked: os.stat_result, thread: threading.Thread) -> bool:
    """True once the kernel shows a request waiting for the lock on the file
    `locked`; False when the thread ended first (it never waited)."""
    deadline = time.monotonic() + 60  # a guard against hanging, not a measurement
    while thread.is_alive() and time.monotonic() < deadline:
        if _blocked_on(locked):
            return True
        os.sched_yield()
    return _blocked_on(locked)


def generated(out: Path, model: Path, tmp_path: Path) -> bool:
    """True when `out` holds exactly the generated files a fresh generation of
    `model` writes (anything else in it, such as a nested package, aside)."""
    reference = tmp_path / "reference" / out.name
    generate(model, reference)
    expected = tree(reference)
    return all(
        (out / name).is_dir() if data == "dir" else (out / name).read_bytes() == data
        for name, data in expected.items()
    )


def nested_packages(root: Path, model: Path, inner: str) -> tuple[Path, Path]:
    """`root/a` and `root/a/<inner>`, each a package generated from `model`."""
    outer, nested = root / "a", root / "a" / inner
    generate(model, outer)
    generate(model, nested)
    return outer, nested


def holds(
    outer: Path, outer_model: Path, nested: Path, nested_model: Path, tmp_path: Path
) -> bool:
    """True when each package holds what its model generates."""
    return generated(outer, outer_model, tmp_path / "outer") and generated(
        nested, nested_model, tmp_path / "nested"
    )


def no_leftovers(*outs: Path) -> bool:
    return not any(OutputSite.of(out).leftovers() for out in outs)


@pytest.mark.parametrize("inner", ["b", "x/b"])
@pytest.mark.parametrize("holder", ["outer", "inner"])
def test_runs_into_nested_directories_take_turns(
    tmp_path: Path,
    models: tuple[Path, Path, Path],
    in_thread: Callable[[Callable[[], object]], threading.Thread],
    inner: str,
    holder: str,
) -> None:
    """Whichever run holds its lock, the other waits for it: an inner run while
    the enclosing run (stopped after carrying `a/b`) rebuilds `a`, an enclosing run
    while an inner run (stopped before its swap) writes `a/b`."""
    first, second, third = models
    outer, nested = nested_packages(tmp_path / "site", first, inner)
    if holder == "outer":
        writer = stopped_at(tmp_path, second, outer, "carried files that are not ours")
        held, other = outer, lambda: generate(third, nested)
    else:
        writer = stopped_at(tmp_path, third, nested, "staged the manifest")
        held, other = nested, lambda: generate(second, outer)
    try:
        thread = in_thread(other)
        assert wait_blocked(lock_file(held), thread), "the other run did not wait"
    finally:
        writer.send_signal(signal.SIGCONT)
        assert writer.wait() == 0
    thread.join()
    assert holds(outer, second, nested, third, tmp_path)
    assert no_leftovers(outer, nested)


def test_a_run_whose_parent_was_swapped_away_before_it_locked_starts_again(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inner run opened `a` (and created its lock file there) before an
    enclosing run swapped `a` away: it locks again in the `a` its path names."""
    first, second, third = models
    outer, nested = nested_packages(tmp_path, first, "b")
    original = lock.checkpoint
    swapped: list[bool] = []

    def checkpoint(name: str) -> None:
        if name == "waiting for the lock" and not swapped:
            swapped.append(True)
            generate(second, outer)  # the whole enclosing run, right here
        original(name)

    monkeypatch.setattr(lock, "checkpoint", checkpoint)
    generate(third, nested)
    assert swapped
    assert holds(outer, second, nested, third, tmp_path)
    assert no_leftovers(outer, nested)


def test_an_inner_run_that_locked_during_an_enclosing_run_gives_way_to_it(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inner run holds its lock when it finds the enclosing run's lock held:
    it releases its own (the enclosing run may be waiting for it) and waits."""
    first, second, third = models
    outer, nested = nested_packages(tmp_path / "site", first, "b")
    writer = stopped_at(tmp_path, second, outer, "locked")
    original = lock.checkpoint
    seen: list[str] = []

    def checkpoint(name: str) -> None:
        seen.append(name)
        if name == "waiting for an enclosing run":
            site = OutputSite.of(nested)
            assert not (site.parent / site.lock_name).exists()  # released first
            writer.send_signal(signal.SIGCONT)
        original(name)

    monkeypatch.setattr(lock, "checkpoint", checkpoint)
    try:
        generate(third, nested)
    finally:
        writer.send_signal(signal.SIGCONT)
        assert writer.wait() == 0
    assert "waiting for an enclosing run" in seen
    assert seen.count("waiting for the lock") == 2  # once more after the swap
    assert holds(outer, second, nested, third, tmp_path)
    assert no_leftovers(outer, nested)


def test_a_nested_lock_file_is_not_carried_but_a_user_file_of_that_name_is(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """An empty `.NAME.generate-waiters.lock` inside OUT_DIR is a nested run's lock
    (one a killed run left, or one a run is about to remove): not carried into the
    new package. A file of that name with content is someone's file: kept."""
    first, second, _ = models
    out = tmp_path / "a"
    generate(first, out)
    (out / "sub").mkdir()
    (out / "sub" / ".b.generate-waiters.lock").write_bytes(b"")
    (out / ".c.generate-waiters.lock").write_bytes(b"mine")
    generate(second, out)
    assert not (out / "sub" / ".b.generate-waiters.lock").exists()
    assert (out / ".c.generate-waiters.lock").read_bytes() == b"mine"
    assert (out / "sub").is_dir()


def test_a_run_waits_for_no_stale_lock_file_inside_its_directory(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """Lock files no run holds (a killed run's) are no reason to wait; a special
    file or a link with a lock file's name is not opened as one."""
    first, second, _ = models
    out = tmp_path / "a"
    generate(first, out)
    (out / "deep" / "er").mkdir(parents=True)
    (out / "deep" / "er" / ".b.generate-waiters.lock").write_bytes(b"")
    os.mkfifo(out / ".f.generate-waiters.lock")
    (out / ".l.generate-waiters.lock").symlink_to("/dev/zero")
    generate(second, out)
    assert generated(out, second, tmp_path / "reference")
    assert (out / ".l.generate-waiters.lock").is_symlink()


def test_an_enclosing_lock_held_by_a_check_is_no_reason_to_wait(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """A reader's shared lock on the enclosing lock file (`--check` waiting for a
    writer) is not a run rebuilding the directory."""
    first, _, third = models
    outer, nested = tmp_path / "a", tmp_path / "a" / "b"
    generate(first, outer)
    site = OutputSite.of(outer)
    (site.parent / site.lock_name).write_bytes(b"")
    with open(site.parent / site.lock_name, "rb") as shared:
        import fcntl

        fcntl.flock(shared, fcntl.LOCK_SH)
        generate(third, nested)
    assert generated(nested, third, tmp_path / "nested")


def test_a_parent_that_never_settles_ends_in_an_error(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, _ = models
    monkeypatch.setattr(lock, "_names", lambda path, descriptor: False)
    with pytest.raises(GenerationError, match="kept being replaced"):
        generate(first, tmp_path / "a")
    assert not OutputSite.of(tmp_path / "a").leftovers()


def test_is_lock_name() -> None:
    assert is_lock_name(".a.generate-waiters.lock")
    assert is_lock_name("..generate-waiters.lock.generate-waiters.lock")
    assert not is_lock_name(".generate-waiters.lock")
    assert not is_lock_name("a.generate-waiters.lock")
    assert not is_lock_name(".a.generate-waiters.new")


def test_exclusive_still_reports_a_parent_it_cannot_make(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(
        GenerationError, match="a parent of the output directory is a file"
    ):
        with write.exclusive(tmp_path / "file" / "a"):
            pass


RENAME = {SWAP_VARIABLE: "rename"}


def test_an_inner_run_does_not_make_a_directory_between_the_renames_of_its_swap(
    tmp_path: Path,
    models: tuple[Path, Path, Path],
    in_thread: Callable[[Callable[[], object]], threading.Thread],
) -> None:
    """With the portable swap `a` is missing between its two renames; an inner run
    into `a/x/b` that made `a` anew there would stop the swap (its second rename
    finds `a`), and the old package with the user's files would be discarded."""
    first, second, third = models
    outer, nested = tmp_path / "site" / "a", tmp_path / "site" / "a" / "x" / "b"
    generate(first, outer)
    (outer / "NOTES.md").write_text("mine")
    writer = stopped_at(tmp_path, second, outer, "retired the old package", **RENAME)
    try:
        assert not outer.exists()
        thread = in_thread(lambda: generate(third, nested))
        assert wait_blocked(lock_file(outer), thread), "the inner run did not wait"
        assert not outer.exists()
    finally:
        writer.send_signal(signal.SIGCONT)
        assert writer.wait() == 0
    thread.join()
    assert (outer / "NOTES.md").read_text() == "mine"
    assert holds(outer, second, nested, third, tmp_path)
    assert no_leftovers(outer, nested, nested.parent)


def test_an_inner_run_puts_back_a_directory_a_kill_left_between_its_renames(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """Made anew, the missing `a` would hide the package retired beside it, which
    the next run into `a` would then discard: the inner run finishes that swap."""
    first, second, third = models
    outer, nested = tmp_path / "site" / "a", tmp_path / "site" / "a" / "x" / "b"
    generate(first, outer)
    (outer / "NOTES.md").write_text("mine")
    writer = stopped_at(tmp_path, second, outer, "retired the old package", **RENAME)
    writer.kill()
    writer.wait()
    generate(third, nested)
    assert (outer / "NOTES.md").read_text() == "mine"
    assert generated(outer, second, tmp_path / "outer")  # the staged package
    assert generated(nested, third, tmp_path / "nested")
    generate(second, outer)
    assert (outer / "NOTES.md").read_text() == "mine"
    assert generated(nested, third, tmp_path / "nested")
    assert no_leftovers(outer, nested)


def test_a_check_inside_a_directory_between_the_renames_of_its_swap_waits(
    tmp_path: Path,
    models: tuple[Path, Path, Path],
    in_thread: Callable[[Callable[[], object]], threading.Thread],
) -> None:
    """`a/b` is missing while `a` is: the check waits for the run into `a` instead
    of answering that every file of `a/b` would be written."""
    first, second, _ = models
    outer, nested = tmp_path / "site" / "a", tmp_path / "site" / "a" / "b"
    generate(first, outer)
    generate(second, nested)
    writer = stopped_at(tmp_path, second, outer, "retired the old package", **RENAME)
    answers: list[bool] = []
    try:
        thread = in_thread(
            lambda: answers.append(generate(first, nested, check=True).stale)
        )
        assert wait_blocked(lock_file(outer), thread), "the check did not wait"
    finally:
        writer.send_signal(signal.SIGCONT)
        assert writer.wait() == 0
    thread.join()
    assert answers == [True]  # nested holds `second`'s package, checked against first
    assert generate(second, nested, check=True).stale is False


def test_a_run_that_locked_in_a_directory_a_killed_swap_replaced_starts_again(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inner run opened `a` and created its lock file there; a run into `a`
    exchanged `a` for its new package and was killed before discarding the old
    one. The inner run locks the file it created (still there, in the old `a`), no
    enclosing run holds a lock, but `a` now names another directory: it starts
    again there instead of generating into the old `a`."""
    first, second, third = models
    outer, nested = nested_packages(tmp_path / "site", first, "b")
    original = lock.checkpoint
    killed: list[int] = []

    def checkpoint(name: str) -> None:
        if name == "waiting for the lock" and not killed:
            writer = stopped_at(
                tmp_path, second, outer, "exchanged staging and OUT_DIR"
            )
            writer.kill()
            killed.append(writer.wait())
        original(name)

    monkeypatch.setattr(lock, "checkpoint", checkpoint)
    generate(third, nested)
    assert killed
    assert holds(outer, second, nested, third, tmp_path)


def test_a_parent_renamed_away_just_before_it_is_opened_is_made_again(
    tmp_path: Path,
    models: tuple[Path, Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    in_thread: Callable[[Callable[[], object]], threading.Thread],
) -> None:
    """Between making OUT_DIR's parent and opening it, a run into the parent
    retires it (first rename of the portable swap): the inner run starts again,
    waiting for that run, instead of failing with "No such file or directory"."""
    first, second, third = models
    outer, nested = tmp_path / "site" / "a", tmp_path / "site" / "a" / "b"
    generate(first, outer)
    original = lock._make_parents
    writers: list[subprocess.Popen[bytes]] = []
    started = threading.Event()

    def make_parents(directory: Path) -> None:
        original(directory)
        if not writers:
            writers.append(
                stopped_at(tmp_path, second, outer, "retired the old package", **RENAME)
            )
            started.set()

    monkeypatch.setattr(lock, "_make_parents", make_parents)
    thread = in_thread(lambda: generate(third, nested))
    started.wait(timeout=60)  # a guard against hanging, not a measurement
    try:
        assert wait_blocked(lock_file(outer), thread), "the inner run did not wait"
    finally:
        writers[0].send_signal(signal.SIGCONT)
        assert writers[0].wait() == 0
    thread.join()
    assert holds(outer, second, nested, third, tmp_path)


def test_directories_nested_deeper_than_the_limit_stop_the_run_cleanly(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """Hostile content in OUT_DIR: a tree deeper than the carry goes is refused
    with an error naming OUT_DIR, before anything is built; one level less is
    carried whole."""
    first, second, _ = models
    out = tmp_path / "a"
    generate(first, out)
    deepest = out.joinpath(*["d"] * lock.DEPTH_LIMIT)
    deepest.mkdir(parents=True)
    (deepest / "NOTES.md").write_text("mine")
    generate(second, out)
    assert (deepest / "NOTES.md").read_text() == "mine"
    (deepest / "d").mkdir()
    with pytest.raises(
        GenerationError, match=f"nested more than {lock.DEPTH_LIMIT} levels"
    ):
        generate(first, out)
    assert generated(out, second, tmp_path / "reference")
    assert not OutputSite.of(out).leftovers()


def test_a_missing_parent_too_long_named_for_a_lock_file_is_made_without_one(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """A directory whose lock file name would pass the file-name limit can be no
    run's OUT_DIR (its lock could not be made), so nothing is in the way of making
    it: made as before, without a lock."""
    first, _, _ = models
    out = tmp_path / ("p" * 240) / "out"
    generate(first, out)
    assert generated(out, first, tmp_path / "reference")
    assert sorted(os.listdir(tmp_path / ("p" * 240))) == ["out"]


def test_a_deep_package_a_kill_left_retired_is_bounded_once_put_back(
    tmp_path: Path, models: tuple[Path, Path, Path]
) -> None:
    """OUT_DIR missing, the old package (too deep) retired beside it: `recover`
    puts it back before the walk that bounds the depth, so the carry never meets
    it (it recursed until Python's limit: an internal error, staging left behind)."""
    first, second, _ = models
    out = tmp_path / "a"
    generate(first, out)
    out.joinpath(*["d"] * (lock.DEPTH_LIMIT + 1)).mkdir(parents=True)
    site = OutputSite.of(out)
    out.rename(site.parent / site.retired_name)
    with pytest.raises(GenerationError, match="nested more than"):
        generate(second, out)
    assert generated(out, first, tmp_path / "reference")
    assert not site.leftovers()


@pytest.mark.parametrize("kind", ["directory", "symlink"])
def test_something_at_the_lock_file_name_is_named_with_what_to_do(
    tmp_path: Path, models: tuple[Path, Path, Path], kind: str
) -> None:
    first, _, _ = models
    site = OutputSite.of(tmp_path / "a")
    lock_path = site.parent / site.lock_name
    if kind == "directory":
        lock_path.mkdir()
    else:
        lock_path.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(GenerationError) as raised:
        generate(first, tmp_path / "a")
    assert str(raised.value).startswith(f"{lock_path}: cannot open the lock file")
    assert "remove whatever is there" in str(raised.value)
    assert not (tmp_path / "elsewhere").exists()


def test_a_parent_that_cannot_be_written_is_reported_for_out_dir(
    tmp_path: Path, models: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing parent in a directory that refuses writes (a read-only file
    system, no permission: faked here, as tests may run as root): the error names
    OUT_DIR and says to check it is writable, not to remove a lock file."""
    first, _, _ = models
    out = tmp_path / "m1" / "m2" / "out"
    refused = OutputSite.of(tmp_path / "m1").lock_name
    real_open = os.open

    def refusing_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if path == refused:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(lock.os, "open", refusing_open)
    with pytest.raises(GenerationError) as raised:
        generate(first, out)
    message = str(raised.value)
    assert message.startswith(f"{out}: cannot write generated files (Permission")
    assert "check that the output directory and its parent are writable" in message
    assert not (tmp_path / "m1").exists()


def test_making_a_missing_parent_does_not_wait_for_runs_inside_it(
    tmp_path: Path,
    models: tuple[Path, Path, Path],
    in_thread: Callable[[Callable[[], object]], threading.Thread],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two sibling runs into `m/x` and `m/y`, `m` missing when both start: the one
    that finds `m` made by the other (which now works in `m/x`) takes `m`'s lock
    only to make it, and does not wait for the other's whole generation."""
    first, _, third = models
    parent = tmp_path / "site" / "m"
    sibling = stopped_at_new_parent(tmp_path, first, parent / "x")
    real_lexists = os.path.lexists
    raced: list[str] = []

    def lexists(path: Any) -> bool:  # `m` was still missing when y's run looked
        if str(path) == str(parent) and not raced:
            if sys._getframe(1).f_code.co_name == "_make_parents":
                raced.append(str(path))
                return False
        return real_lexists(path)

    monkeypatch.setattr(os.path, "lexists", lexists)
    try:
        thread = in_thread(lambda: generate(third, parent / "y"))
        blocked = wait_blocked(lock_file(parent / "x"), thread)
    finally:
        sibling.send_signal(signal.SIGCONT)
        assert sibling.wait() == 0
    thread.join()
    assert raced and not blocked
    assert generated(parent / "x", first, tmp_path / "x")
    assert generated(parent / "y", third, tmp_path / "y")


def stopped_at_new_parent(
    tmp_path: Path, model: Path, out: Path
) -> subprocess.Popen[bytes]:
    """A real generation into `out`, whose parent is missing, stopped once it
    holds its own lock (the parent made)."""
    trace = tmp_path / "trace"
    process = subprocess.Popen(
        command([model], out), env=environment(trace), stdout=subprocess.DEVNULL
    )
    process.wait()  # a rehearsal: the checkpoints of a run that makes the parent
    points = [line.split(" ", 2) for line in trace.read_text().splitlines()]
    stop_at = [int(n) for _, n, name in points if name == "locked"][-1]
    trace.unlink()
    shutil.rmtree(out.parent)
    process = subprocess.Popen(
        command([model], out),
        env=environment(trace, stop_at),
        stdout=subprocess.DEVNULL,
    )
    assert stopped_or_exited(process)
    return process
