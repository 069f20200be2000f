"""Runs by different users into one tree take turns too: lock files are readable by
all whatever the umask, and one that cannot be read stops a run with its name.

Another user is played by root without its power to override file modes
(`setpriv` drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), facing lock files
chowned to `nobody`'s id."""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from waitable_codegen import generate

from .helpers import AWS_MODELS, SPEC_EXAMPLES
from .test_write_crash import (
    command,
    environment,
    stopped_or_exited,
    tree,
    wait_until_blocked_on_lock,
)

pytestmark = [
    pytest.mark.skipif(
        os.name != "posix" or os.geteuid() != 0,
        reason="needs root, to make files owned by another user",
    ),
    pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv"),
]

NOBODY = 65534
NEW = AWS_MODELS / "acm-2015-12-08.json"
AS_ANOTHER_USER = [
    "setpriv",
    "--inh-caps=-all",
    "--bounding-set=-dac_override,-dac_read_search",
]


def locked_run(
    tmp_path: Path, model: Path, out: Path, umask: int = -1
) -> subprocess.Popen[bytes]:
    """A real generation into `out` (with `umask`, -1: this process's), stopped
    (SIGSTOP) once it holds the lock."""
    trace = tmp_path / "trace"
    process = subprocess.Popen(
        command([model], out),
        env=environment(trace, stop_at=2),
        stdout=subprocess.DEVNULL,
        umask=umask,
    )
    assert stopped_or_exited(process)
    assert trace.read_text().splitlines()[-1].endswith(" locked")
    return process


def as_another_user(out: Path) -> subprocess.CompletedProcess[str]:
    """A generation of NEW into `out` by a process file modes apply to."""
    return subprocess.run(
        AS_ANOTHER_USER + command([NEW], out), capture_output=True, text=True
    )


def another_user_waits_for_a_run(tmp_path: Path, out: Path) -> None:
    """A run into `out` holds its lock, made another user's file; a run by another
    user waits for it (seen in /proc/locks), then both succeed."""
    first = locked_run(tmp_path, SPEC_EXAMPLES, out)
    os.chown(out.parent / ".pkg.generate-waiters.lock", NOBODY, NOBODY)
    second = subprocess.Popen(
        AS_ANOTHER_USER + command([NEW], out), stdout=subprocess.DEVNULL
    )
    try:
        wait_until_blocked_on_lock(second)
    finally:
        first.send_signal(signal.SIGCONT)
    assert first.wait() == 0
    assert second.wait() == 0


def nobodys_lock_file(path: Path, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, mode)


def test_lock_files_are_readable_by_all_whatever_the_umask(tmp_path: Path) -> None:
    out = tmp_path / "site" / "pkg"
    out.parent.mkdir()
    run = locked_run(tmp_path, SPEC_EXAMPLES, out, umask=0o077)
    try:
        lock = out.parent / ".pkg.generate-waiters.lock"
        assert lock.stat().st_mode & 0o777 == 0o644
    finally:
        run.send_signal(signal.SIGCONT)
    assert run.wait() == 0
    assert (out / "waiters.py").stat().st_mode & 0o777 == 0o644


def test_a_run_waits_for_another_users_run_into_the_same_out_dir(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site" / "pkg"
    out.parent.mkdir()
    another_user_waits_for_a_run(tmp_path, out)
    reference = tmp_path / "reference" / "pkg"
    generate([NEW], reference)
    assert tree(out) == tree(reference), "the run that waited went last"
    assert sorted(path.name for path in out.parent.iterdir()) == ["pkg"]


@pytest.mark.parametrize(
    ("lock", "out_dir"),
    [
        (".pkg.generate-waiters.lock", "pkg"),  # its own
        (".a.generate-waiters.lock", "a/pkg"),  # an enclosing directory's
        ("pkg/deep/.inner.generate-waiters.lock", "pkg"),  # one inside OUT_DIR
    ],
    ids=["own", "enclosing", "nested"],
)
def test_a_lock_file_that_cannot_be_read_stops_the_run_and_is_named(
    tmp_path: Path, lock: str, out_dir: str
) -> None:
    site = tmp_path / "site"
    out = site / out_dir
    out.mkdir(parents=True)
    nobodys_lock_file(site / lock, 0o600)
    done = as_another_user(out)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"generate-waiters: error: {site / lock}: cannot open this lock file "
        "(Permission denied), so whether another user's generate-waiters run is "
        "writing there cannot be told; if none is, remove the file and run again"
    )
    assert not (out / "waiters.py").exists()
    (site / lock).unlink()
    done = as_another_user(out)
    assert done.returncode == 0, done.stderr
    assert (out / "waiters.py").exists()


def test_a_lock_file_made_readable_right_after_it_was_made_is_waited_for(
    tmp_path: Path,
) -> None:
    """Another user's run makes its lock file with its umask's mode and widens it
    right after: a run that finds it unreadable in between looks again."""
    out = tmp_path / "site" / "pkg"
    out.mkdir(parents=True)
    lock = out.parent / ".pkg.generate-waiters.lock"
    nobodys_lock_file(lock, 0o600)
    trace = tmp_path / "trace"
    run = subprocess.Popen(
        AS_ANOTHER_USER + command([NEW], out),
        env=environment(trace, stop_at=1),
        stdout=subprocess.DEVNULL,
    )
    assert stopped_or_exited(run)
    assert trace.read_text().split(" ", 2)[-1].strip() == (
        "waiting for a lock file to become readable"
    )
    os.chmod(lock, 0o644)  # as that run's `fchmod` does
    run.send_signal(signal.SIGCONT)
    assert run.wait() == 0
    assert (out / "waiters.py").exists()


@pytest.fixture
def protected_regular() -> Iterator[None]:
    """`fs.protected_regular = 1` (systemd's default on most distributions): an
    O_CREAT open of another user's file in a sticky world-writable directory is
    refused, even to root."""
    setting = Path("/proc/sys/fs/protected_regular")
    if not os.access(setting, os.W_OK):
        pytest.skip("needs a writable /proc/sys/fs/protected_regular")
    before = setting.read_text()
    setting.write_text("1")
    try:
        yield
    finally:
        setting.write_text(before)


@pytest.mark.usefixtures("protected_regular")
def test_runs_by_two_users_into_a_sticky_directory_take_turns(tmp_path: Path) -> None:
    site = tmp_path / "shared"
    site.mkdir(mode=0o1777)
    os.chmod(site, 0o1777)
    another_user_waits_for_a_run(tmp_path, site / "pkg")
    assert sorted(path.name for path in site.iterdir()) == ["pkg"]


@pytest.mark.parametrize("where", ["own", "enclosing", "check"])
def test_a_lock_file_denied_by_more_than_its_mode_bits_stops_the_run(
    tmp_path: Path, where: str
) -> None:
    """Readable by others but not by this process (its group, an ACL or a security
    module denies it): the open decides, not the mode, so the run stops (it once
    spun forever probing it)."""
    site = tmp_path / "site"
    out = site / "a" / "pkg"
    out.mkdir(parents=True)
    lock = site / (
        ".a.generate-waiters.lock" if where != "own" else "a/.pkg.generate-waiters.lock"
    )
    lock.touch()
    os.chown(lock, NOBODY, 0)  # our group: the group's bits apply, and deny
    os.chmod(lock, 0o604)
    extra = ["--check"] if where == "check" else []
    done = subprocess.run(
        AS_ANOTHER_USER + command([NEW], out) + extra,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert f"{lock}: cannot open this lock file (Permission denied)" in done.stderr


def test_another_users_special_file_at_the_lock_files_name_is_named(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site" / "pkg"
    out.mkdir(parents=True)
    lock = out.parent / ".pkg.generate-waiters.lock"
    os.mkfifo(lock, 0o600)
    os.chown(lock, NOBODY, NOBODY)
    done = as_another_user(out)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"generate-waiters: error: {lock}: the lock file is not a regular file; "
        "remove it and run again"
    )


def test_a_lock_file_nfs_will_not_lock_read_only_is_named_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NFS emulates `flock` with byte-range locks, which need a descriptor open for
    writing: another user's lock file there cannot be locked (EBADF, faked here)."""
    from waitable_codegen import GenerationError
    from waitable_codegen import lock as lock_module

    def no_exclusive_lock(descriptor: int, operation: int) -> None:
        if operation & fcntl.LOCK_EX:  # with LOCK_NB too
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    out = tmp_path / "site" / "pkg"
    out.parent.mkdir()
    monkeypatch.setattr(lock_module.fcntl, "flock", no_exclusive_lock)
    with pytest.raises(GenerationError) as raised:
        generate([SPEC_EXAMPLES], out)
    lock = out.parent / ".pkg.generate-waiters.lock"
    assert str(raised.value) == (
        f"{lock}: cannot lock this lock file (Bad file descriptor): it is another "
        "user's and this file system locks only files one may write; run as that "
        "user, or make the file writable for your group"
    )


_LOCKING_LOOP = """
import os, sys, time
from pathlib import Path
from waitable_codegen.errors import GenerationError
from waitable_codegen.lock import output_lock
from waitable_codegen.staging import OutputSite

user = int(sys.argv[3])  # become that user once everything is loaded (the
os.setgroups([])  # interpreter may live where only root can read: /root/.pyenv)
os.setresgid(user, user, user)
os.setresuid(user, user, user)
os.umask(0o077)
out, end = Path(sys.argv[1]), time.monotonic() + float(sys.argv[2])
locked, refused = 0, []
while time.monotonic() < end:
    try:
        with output_lock(OutputSite.of(out), lambda error: error, nested=False):
            locked += 1
    except (GenerationError, OSError) as exc:
        refused.append(str(exc))
print(locked, len(refused), refused[:3])
"""


def test_two_users_locking_one_out_dir_under_umask_077_are_never_refused() -> None:
    """Two real processes as two users, umask 077, lock one OUT_DIR over and over:
    each lock file is made with the umask's mode and widened right after, and
    removed on release, so the other user's run meets it unreadable, or gone,
    between its checks; it waits, and no run is refused."""
    shared = Path(tempfile.mkdtemp(prefix="waitable-users-", dir="/tmp"))
    try:
        os.chmod(shared, 0o777)
        script = shared / "loop.py"
        script.write_text(_LOCKING_LOOP)
        script.chmod(0o644)
        runs = [
            subprocess.Popen(
                [sys.executable, str(script), str(shared / "pkg"), "3", str(uid)],
                stdout=subprocess.PIPE,
                text=True,
                cwd="/",
            )
            for uid in (1000, NOBODY)
        ]
        for run in runs:
            output, _ = run.communicate(timeout=60)
            assert run.returncode == 0
            locked, refused, messages = output.split(" ", 2)
            assert int(locked) > 0 and int(refused) == 0, messages
    finally:
        shutil.rmtree(shared)


def test_a_read_only_directory_of_the_users_does_not_stop_a_regeneration(
    tmp_path: Path,
) -> None:
    """A directory of the user's own in OUT_DIR, made read-only, was copied with its
    mode before its files were linked into the copy, and the old one could not be
    emptied: every later run failed (found by review, 2026-11-27). The copy gets
    its mode once filled, and the old tree is made removable, directories only."""
    out = tmp_path / "pkg"
    generate(NEW, out)
    data = out / "data"
    data.mkdir()
    (data / "notes.txt").write_text("mine")
    (data / "notes.txt").chmod(0o444)
    data.chmod(0o555)
    try:
        done = subprocess.run(
            [*AS_ANOTHER_USER, *command([SPEC_EXAMPLES], out)],
            env=environment(tmp_path / "trace"),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert (out / "data" / "notes.txt").read_text() == "mine"
        assert stat.S_IMODE((out / "data").stat().st_mode) == 0o555
        assert stat.S_IMODE((out / "data" / "notes.txt").stat().st_mode) == 0o444
        assert (out / "waiters.py").exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg", "trace"]
    finally:
        for directory in (out / "data", data):
            if directory.exists():
                directory.chmod(0o755)


def test_a_file_the_system_will_not_let_us_link_is_named_with_what_to_do(
    tmp_path: Path,
) -> None:
    """A file of another user's in OUT_DIR cannot be linked into the new package
    under `fs.protected_hardlinks`; the error blamed the directories' write
    permission (found by review, 2026-11-27). It now names the file and the way
    out, and nothing changes. Root plays a user without the powers to override
    file modes or ownership (CAP_FOWNER lets root link any file)."""
    if Path("/proc/sys/fs/protected_hardlinks").read_text().strip() != "1":
        pytest.skip("needs fs.protected_hardlinks=1 (Linux's default)")
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    notes = out / "NOTES.txt"
    notes.write_text("a colleague's")
    os.chown(notes, NOBODY, NOBODY)  # 0644: readable, not writable, by this user
    model = tmp_path / "model.json"
    model.write_text(SPEC_EXAMPLES.read_text().replace("has been created", "exists"))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    as_a_user = [*AS_ANOTHER_USER[:-1], AS_ANOTHER_USER[-1] + ",-fowner"]
    done = subprocess.run(
        [*as_a_user, *command([model], out)],
        env=environment(tmp_path / "trace"),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    assert f"{notes}: generate-waiters keeps the files" in done.stderr
    assert "move it out of the output directory, or run as its owner" in done.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
