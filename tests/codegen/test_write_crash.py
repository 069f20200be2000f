"""A whole package is replaced atomically: real `generate-waiters` processes killed
with SIGKILL at every write checkpoint, and concurrent runs into one OUT_DIR."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from waitable_codegen import generate
from waitable_codegen.write_checkpoints import STOP_VARIABLE, TRACE_VARIABLE

from .helpers import AWS_MODELS, SPEC_EXAMPLES
from .test_generate import two_services

BIG_MODELS = [
    AWS_MODELS / name
    for name in (
        "acm-2015-12-08.json",
        "amp-2020-08-01.json",
        "glacier-2012-06-01.json",
        "eks-2017-11-01.json",
    )
]
USER_FILES = {"NOTES.md": b"mine", "others/NOTES.md": b"also mine", "data/x.bin": b"\0"}

Tree = dict[str, object]


def tree(directory: Path) -> Tree:
    """Every entry under `directory` (links unfollowed): bytes, link target or dir."""
    found: Tree = {}
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if "__pycache__" in path.parts:
            continue
        if path.is_symlink():
            found[name] = ("link", os.readlink(path))
        elif path.is_dir():
            found[name] = "dir"
        else:
            found[name] = path.read_bytes()
    return found


def add_user_files(out: Path) -> None:
    for name, data in USER_FILES.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    (out / "link").symlink_to("NOTES.md")


def command(models: list[Path], out: Path) -> list[str]:
    return [sys.executable, "-m", "waitable_codegen", *map(str, models), "-o", str(out)]


def environment(
    trace: Path, stop_at: int | None = None, **extra: str
) -> dict[str, str]:
    env = dict(os.environ, **extra)
    env[TRACE_VARIABLE] = str(trace)
    env.pop(STOP_VARIABLE, None)
    if stop_at is not None:
        env[STOP_VARIABLE] = str(stop_at)
    return env


def stopped_or_exited(process: subprocess.Popen[bytes]) -> bool:
    """Block until the process stops itself or exits; True when it stopped."""
    flags = os.WEXITED | os.WSTOPPED | os.WNOWAIT
    info = os.waitid(os.P_PID, process.pid, flags)
    assert info is not None
    return info.si_code == os.CLD_STOPPED


def stopped_at(
    tmp_path: Path, model: Path, out: Path, point: str, **extra: str
) -> subprocess.Popen[bytes]:
    """A real generation of `model` into `out` (environment `extra`), stopped
    (SIGSTOP) at the write checkpoint `point`; a rehearsal over a copy of `out`
    finds which checkpoint that is."""
    trace = tmp_path / "trace"
    rehearsal = tmp_path / "rehearsal" / out.name
    shutil.rmtree(rehearsal.parent, ignore_errors=True)
    rehearsal.parent.mkdir()
    if out.exists():  # the same tree, so the same checkpoints
        shutil.copytree(out, rehearsal, symlinks=True)
    subprocess.run(
        command([model], rehearsal), env=environment(trace, **extra), check=True
    )
    points = [line.split(" ", 2) for line in trace.read_text().splitlines()]
    (stop_at,) = [int(n) for _, n, name in points if name == point]
    trace.unlink()
    process = subprocess.Popen(
        command([model], out),
        env=environment(trace, stop_at, **extra),
        stdout=subprocess.DEVNULL,
    )
    assert stopped_or_exited(process)
    return process


def wait_until_blocked_on_lock(process: subprocess.Popen[bytes]) -> None:
    """Block until `process` waits for an exclusive flock (seen in /proc/locks)."""
    waiting = f"-> FLOCK  ADVISORY  WRITE {process.pid} "
    while waiting not in Path("/proc/locks").read_text():
        assert process.poll() is None, "the run went on without the lock"
        os.sched_yield()


class Scene:
    """OUT_DIR holding a previous generation and user files, with the trees a
    whole old and a whole new package give (generated here, in this process)."""

    def __init__(self, root: Path, old: list[Path], new: list[Path]) -> None:
        self.root, self.new = root, new
        self.template = root / "template" / "pkg"
        generate(old, self.template)
        add_user_files(self.template)
        self.old_tree = tree(self.template)
        reference = root / "reference" / "pkg"
        shutil.copytree(self.template, reference, symlinks=True)
        generate(new, reference)
        self.new_tree = tree(reference)
        assert self.new_tree != self.old_tree
        self.site = root / "site"
        self.out = self.site / "pkg"

    def reset(self) -> None:
        shutil.rmtree(self.site, ignore_errors=True)
        self.site.mkdir()
        shutil.copytree(self.template, self.out, symlinks=True)

    def user_inodes(self) -> dict[str, int]:
        return {name: (self.out / name).stat().st_ino for name in USER_FILES}


def old_and_new(tmp_path: Path) -> tuple[list[Path], list[Path]]:
    return [two_services(tmp_path)], BIG_MODELS


@pytest.mark.parametrize("swap", ["exchange", "rename"])
def test_a_generation_killed_at_any_checkpoint_leaves_the_old_or_the_new_package(
    tmp_path: Path, swap: str
) -> None:
    scene = Scene(tmp_path, *old_and_new(tmp_path))
    extra = {"GENERATE_WAITERS_SWAP": swap} if swap == "rename" else {}
    trace = tmp_path / "trace"
    scene.reset()
    subprocess.run(
        command(scene.new, scene.out), env=environment(trace, **extra), check=True
    )
    points = trace.read_text().splitlines()
    assert tree(scene.out) == scene.new_tree
    assert any("retired" in p for p in points) == (swap == "rename")
    seen: dict[str, int] = {"old": 0, "new": 0}
    first = 1
    if swap == "rename":  # the points before the swap were covered by "exchange"
        first = next(i for i, p in enumerate(points, 1) if "manifest" in p)
    for stop_at in range(first, len(points) + 1):
        scene.reset()
        inodes = scene.user_inodes()
        trace.unlink()
        process = subprocess.Popen(
            command(scene.new, scene.out),
            env=environment(trace, stop_at, **extra),
            stdout=subprocess.DEVNULL,
        )
        assert stopped_or_exited(process), f"never reached checkpoint {stop_at}"
        point = trace.read_text().splitlines()[-1]
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert process.returncode == -signal.SIGKILL
        if (scene.out).exists():
            found = tree(scene.out)
            assert found in (scene.old_tree, scene.new_tree), f"mixed after {point}"
            seen["old" if found == scene.old_tree else "new"] += 1
        else:  # killed between the two renames: both packages whole beside it
            assert swap == "rename" and "retired" in point
        result = generate(scene.new, scene.out)
        assert tree(scene.out) == scene.new_tree, f"not recovered after {point}"
        assert sorted(p.name for p in scene.site.iterdir()) == ["pkg"], point
        assert scene.user_inodes() == inodes, f"user files replaced after {point}"
        assert result.waiters > 0 and not result.kept
    assert seen["old"] and seen["new"], seen


def test_a_run_waits_for_the_lock_another_run_holds(tmp_path: Path) -> None:
    scene = Scene(tmp_path, [SPEC_EXAMPLES], BIG_MODELS)
    scene.reset()
    first_trace, second_trace = tmp_path / "first", tmp_path / "second"
    first = subprocess.Popen(
        command([two_services(tmp_path)], scene.out),
        env=environment(first_trace, stop_at=2),
        stdout=subprocess.DEVNULL,
    )
    assert stopped_or_exited(first)
    assert first_trace.read_text().split()[-1] == "locked"
    second = subprocess.Popen(
        command(scene.new, scene.out),
        env=environment(second_trace),
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_until_blocked_on_lock(second)
    finally:
        first.send_signal(signal.SIGCONT)
    assert first.wait() == 0 and second.wait() == 0
    assert tree(scene.out) == scene.new_tree, "the run that waited went last"
    assert sorted(p.name for p in scene.site.iterdir()) == ["pkg"]


def test_concurrent_runs_into_one_out_dir_leave_one_whole_package(
    tmp_path: Path,
) -> None:
    models = {
        "spec": [SPEC_EXAMPLES],
        "two": [two_services(tmp_path)],
        "big": BIG_MODELS,
    }
    references = {}
    for label, chosen in models.items():
        reference = tmp_path / "reference" / label / "pkg"
        reference.mkdir(parents=True)
        add_user_files(reference)
        generate(chosen, reference)
        references[label] = tree(reference)
    site = tmp_path / "site"
    out = site / "pkg"
    out.mkdir(parents=True)
    add_user_files(out)
    trace = tmp_path / "trace"
    processes = {
        subprocess.Popen(
            command(chosen, out), env=environment(trace), stdout=subprocess.DEVNULL
        ): label
        for label, chosen in models.items()
    }
    assert [process.wait() for process in processes] == [0, 0, 0]
    by_pid = {str(process.pid): label for process, label in processes.items()}
    locked = [
        by_pid[line.split()[0]]
        for line in trace.read_text().splitlines()
        if line.endswith(" locked")
    ]
    assert sorted(locked) == sorted(models), "each run took the lock once"
    assert tree(out) == references[locked[-1]], "the last run's whole package"
    assert sorted(p.name for p in site.iterdir()) == ["pkg"]
