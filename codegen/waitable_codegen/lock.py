"""The lock that serializes generations into one OUT_DIR: `flock` on a file beside it.

The lock file sits in OUT_DIR's parent (OUT_DIR itself is swapped away, and a lock
inside it would move with it). It is removed when released, so it leaves nothing
behind; a run that locked a file another run had just removed sees the inode
changed and locks again. Lock files are made readable by all whatever the umask
(widened right after they are made: a run that finds one unreadable gives it a
moment), and another user's is locked through a read-only descriptor, so runs by
different users take turns; a lock file a run cannot read stops it (whether a run
holds it cannot be told). An existing lock file is opened without O_CREAT, which
sticky directories refuse on another user's file (`fs.protected_regular`).

Runs into nested directories (OUT_DIR `a`, and `a/b` inside it) also take turns:
the run into `a` swaps in a new `a` with what it carried of `a/b`, so a run into
`a/b` must neither work while `a` is being rebuilt nor keep working in an `a`
that was swapped away. Each run, once it holds its own lock, (1) gives way to a
run holding the lock of any directory enclosing OUT_DIR: it releases its lock,
waits for that run and starts again from the directory its path now names; (2)
starts again when its parent directory is no longer the one OUT_DIR's path names;
(3) waits for every run holding a lock inside OUT_DIR. An enclosing run never
waits on a lock while an inner run waits on it (the inner one releases first),
and whichever of the two locked last sees the other: no run into `a/b` works
between the moment a run into `a` carries it and the swap. A missing parent of
OUT_DIR is made as a run into it would make it (under its lock, after `recover`),
never while a run into it is between the two renames of its swap. The walk of (3)
also bounds how deep OUT_DIR's directories go (`DEPTH_LIMIT`), before the carry.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import GenerationError
from .staging import NAME_MAX, OutputSite, is_lock_name, lock_name_of, recover
from .write_checkpoints import checkpoint
from .write_read import Kind, lstat_kind, open_directory

_OPEN = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_PROBE_FLAGS = os.O_RDONLY | _OPEN
#: How long a lock file this process may not read is given to become readable:
#: another user's run makes it with its umask's mode and widens it right after.
_WIDENING = 1.0
_RESTARTS = 1000  # a guard against a directory whose identity never settles
#: What opening the lock file fails with when something stands at its name.
_IN_THE_WAY = frozenset({errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EWOULDBLOCK})
#: How deep directories in OUT_DIR may go (the carry into the new package recurses).
DEPTH_LIMIT = 64
_log = logging.getLogger(__name__)


@contextmanager
def output_lock(
    site: OutputSite, failure: Callable[[OSError], Exception], *, nested: bool = True
) -> Iterator[int]:
    """Hold OUT_DIR's lock for the block (waiting for other runs into OUT_DIR, into
    a directory enclosing it or inside it), after finishing or cleaning up what a
    killed run left beside OUT_DIR (`recover`); yields a descriptor of OUT_DIR's
    parent (made if missing), which the path names while the lock is held.
    `failure` turns what the system refuses into the error to raise; without
    `nested`, runs inside OUT_DIR are not waited for (to make a missing OUT_DIR,
    which another run may have made meanwhile and be writing into)."""
    try:
        parent, descriptor = _acquire(site)
    except OSError as exc:
        raise failure(exc) from None
    try:
        try:
            recover(site, parent)  # first: it may put a package back to walk
            if nested:
                _wait_for_nested_runs(site, parent)
        except OSError as exc:
            raise failure(exc) from None
        checkpoint("locked")
        yield parent
    finally:
        _release(site, parent, descriptor)
        os.close(parent)


def _acquire(site: OutputSite) -> tuple[int, int]:
    """The parent's descriptor and OUT_DIR's lock, once no enclosing run holds its
    lock and the parent is still the directory its path names."""
    for _ in range(_RESTARTS):
        _make_parents(site.parent)
        try:
            parent = open_directory(site.parent)
        except FileNotFoundError:
            continue  # an enclosing run swapped it away since: make it again
        try:
            descriptor = _lock_in(site, parent)
        except BaseException:
            os.close(parent)
            raise
        if descriptor is not None:
            return parent, descriptor
        os.close(parent)
    raise GenerationError(
        f"{site.parent}: the directory kept being replaced while "
        "generate-waiters waited for its lock; run again"
    )


def _make_parents(directory: Path) -> None:
    """Make `directory` and its missing parents, each as a run into it would: under
    its lock, after `recover`. A directory is missing while a run into it is between
    the two renames of a portable swap (or was killed there): made anew, it would
    stop that swap, or hide the retired package, which the next run would discard."""
    missing = []
    while not os.path.lexists(directory):
        missing.append(directory)
        directory = directory.parent
    for path in reversed(missing):
        site = OutputSite.of(path)
        if len(os.fsencode(site.lock_name)) > NAME_MAX:
            os.makedirs(path, exist_ok=True)  # no run can have it as OUT_DIR
            continue
        with output_lock(site, _unchanged, nested=False) as parent:
            if lstat_kind(site.name, parent) is Kind.MISSING:
                os.mkdir(site.name, dir_fd=parent)


def _unchanged(error: OSError) -> OSError:
    """`output_lock`'s `failure` for `_make_parents`: the error as it is (the run
    that makes the parents reports it, naming its own OUT_DIR)."""
    return error


def _lock_in(site: OutputSite, parent: int) -> int | None:
    """OUT_DIR's lock, taken in the directory `parent`; None when the run has to
    start again (an enclosing run holds its lock, or `parent` was swapped away)."""
    path = site.parent / site.lock_name
    while True:
        try:
            descriptor = _open_lock(site.lock_name, parent, path)
        except OSError as exc:
            if not _names(site.parent, parent):
                return None  # the directory was removed by an enclosing swap
            if exc.errno not in _IN_THE_WAY:
                raise  # the directory cannot be written: the caller says so
            raise GenerationError(
                f"{path}: cannot open the lock file ({exc.strerror}); "
                "remove whatever is there and run again"
            ) from None
        held = os.fstat(descriptor)
        if not stat.S_ISREG(held.st_mode):
            os.close(descriptor)
            raise _not_a_lock_file(path)
        if (
            held.st_mode & 0o644 != 0o644
            and held.st_uid == os.geteuid()
            and held.st_nlink == 1  # a hard link to another file: never widened
        ):
            try:  # readable by all whatever the umask: other users' runs probe it
                os.fchmod(descriptor, 0o644)
            except OSError:
                pass  # a file system without modes: nothing to widen
        checkpoint("waiting for the lock")
        try:
            _flock(descriptor, fcntl.LOCK_EX, f"another run into {site.out_dir}", path)
        except OSError as exc:
            os.close(descriptor)
            if exc.errno != errno.EBADF:
                raise
            raise GenerationError(  # NFS locks only files open for writing
                f"{path}: cannot lock this lock file ({exc.strerror}): it is another "
                "user's and this file system locks only files one may write; run as "
                "that user, or make the file writable for your group"
            ) from None
        if _still_there(site.lock_name, parent, descriptor):
            break
        os.close(descriptor)
    enclosing = _held_enclosing_lock(site.parent)
    if enclosing is None and _names(site.parent, parent):
        return descriptor
    _release(site, parent, descriptor)
    if enclosing is not None:
        _wait_on(enclosing, "waiting for an enclosing run")
    return None


def _open_lock(name: str, parent: int, path: Path) -> int:
    """The lock file `name` in `parent` (at `path`), made when missing. An existing
    one is opened without O_CREAT (which sticky directories refuse on another
    user's file), for writing (NFS locks only such descriptors), else for reading
    (another user's file: enough for `flock` elsewhere); one this process may not
    read stops the run. Raises OSError for a directory it cannot write in."""
    for _ in range(_RESTARTS):
        if _special(name, parent):
            raise _not_a_lock_file(path)
        try:
            return os.open(name, os.O_RDWR | _OPEN, dir_fd=parent)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno not in _READ_ONLY_WILL_DO:
                raise
            descriptor = _open_for_reading(name, parent, path, own=True)
            if descriptor is not None:
                return descriptor
        try:  # missing (or removed meanwhile): make it
            return os.open(
                name, os.O_RDWR | os.O_CREAT | os.O_EXCL | _OPEN, 0o644, dir_fd=parent
            )
        except FileExistsError:
            continue  # made by another run meanwhile: open that one
    raise GenerationError(
        f"{path}: the lock file kept being made and removed while generate-waiters "
        "opened it; run again"
    )


#: Why a lock file may not open for writing though it opens for reading.
_READ_ONLY_WILL_DO = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ETXTBSY})


def _open_for_reading(
    name: str | Path, directory: int | None, path: str | Path, own: bool = False
) -> int | None:
    """The lock file `name` (in `directory`; at `path`) opened for reading, giving
    it `_WIDENING` seconds to become readable (another user's run makes it with
    its umask's mode and widens it right after); None when it is gone, or is not a
    regular file (no lock to wait on; for the run's `own` lock file, an error).
    One still unreadable stops the run."""
    end = time.monotonic() + _WIDENING
    waited = False
    while True:
        if _special(name, directory):
            if own:
                raise _not_a_lock_file(path)
            return None  # no lock file: nothing to wait on
        try:
            return os.open(name, _PROBE_FLAGS, dir_fd=directory)
        except FileNotFoundError:
            return None
        except PermissionError as exc:
            kind = lstat_kind(str(name), directory)
            if kind is Kind.MISSING:
                return None  # removed meanwhile
            if kind is not Kind.FILE:
                if own:
                    raise _not_a_lock_file(path) from None
                return None  # no lock file: nothing to wait on
            if time.monotonic() > end:
                raise _unreadable(path, exc) from None
        if not waited:
            checkpoint("waiting for a lock file to become readable")
            waited = True
        time.sleep(0.01)


def _special(name: str | Path, directory: int | None) -> bool:
    """True when a FIFO, a socket or a device stands at `name` (in `directory`):
    looked at before any lock file is opened, as opening a FIFO releases a writer
    blocked on it (and a device may act on being opened). No such file is a lock."""
    return lstat_kind(str(name), directory) is Kind.SPECIAL


def _not_a_lock_file(path: str | Path) -> GenerationError:
    return GenerationError(
        f"{path}: the lock file is not a regular file; remove it and run again"
    )


def _wait_on(held: int, point: str) -> None:
    """Wait (a shared lock) until the run holding the lock file `held` releases it;
    `held` is closed. `point`: the checkpoint before waiting."""
    try:
        checkpoint(point)
        _flock(held, fcntl.LOCK_SH, point.removeprefix("waiting for "), None)
    finally:
        os.close(held)


def _flock(descriptor: int, operation: int, holder: str, path: Path | None) -> None:
    """`flock`, saying (INFO, which the CLI prints) when it has to wait for another
    run: a run blocked on a lock would otherwise hang without a word."""
    try:
        fcntl.flock(descriptor, operation | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    held = "" if path is None else f" (it holds {path})"
    _log.info("waiting for %s to finish%s", holder, held)
    fcntl.flock(descriptor, operation)


def _release(site: OutputSite, parent: int, descriptor: int) -> None:
    """Remove our lock file and let the lock go."""
    try:
        os.unlink(site.lock_name, dir_fd=parent)
    except OSError:
        pass
    os.close(descriptor)


def _still_there(name: str, parent_fd: int, descriptor: int) -> bool:
    """True when `name` still names the file we locked (not removed meanwhile)."""
    try:
        named = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return _same(named, descriptor)


def _names(path: Path, descriptor: int) -> bool:
    """True when `path` names the directory open as `descriptor`."""
    try:
        named = os.stat(path)
    except OSError:
        return False
    return _same(named, descriptor)


def _same(named: os.stat_result, descriptor: int) -> bool:
    """True when `named` is the file open as `descriptor`."""
    held = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _held_enclosing_lock(parent: Path) -> int | None:
    """A descriptor of the lock file of a run into a directory enclosing OUT_DIR
    (`parent` or one above it) that holds its lock; None when no such run does."""
    above, name = os.path.split(parent)
    while name:  # up to the root, which nothing encloses as an OUT_DIR
        held = _held(os.path.join(above, lock_name_of(name)), None)
        if held is not None:
            return held
        above, name = os.path.split(above)
    return None


def _held(path: str | Path, directory: int | None, where: str = "") -> int | None:
    """A descriptor of the lock file `path` (in `directory`, whose path is
    `where`) when a run holds its lock, for the caller to wait on and close; None
    when none does, or when the file is missing or not a regular file (not a lock
    to wait on). A lock file this process may not read stops the run: whether a
    run holds it cannot be told."""
    try:
        found = _open_for_reading(path, directory, os.path.join(where, path))
    except OSError:
        return None  # a symbolic link, a socket...: no lock to wait on
    if found is None:
        return None
    descriptor = found
    try:
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return descriptor
    os.close(descriptor)
    return None


def _unreadable(path: str | Path, exc: OSError) -> GenerationError:
    """The error for a lock file that cannot be opened for reading: made by another
    user (or by a version that let the umask decide its mode)."""
    return GenerationError(
        f"{path}: cannot open this lock file ({exc.strerror}), so whether another "
        "user's generate-waiters run is writing there cannot be told; if none is, "
        "remove the file and run again"
    )


def _wait_for_nested_runs(site: OutputSite, parent: int) -> None:
    """Wait for every run holding the lock of a directory inside OUT_DIR. The walk
    also bounds how deep OUT_DIR's directories go, before the run carries them."""
    if lstat_kind(site.name, parent) is not Kind.DIRECTORY:
        return
    try:
        _wait_inside(open_directory(site.name, parent), 0, str(site.out_dir))
    except _TooDeep:
        raise GenerationError(
            f"{site.out_dir}: holds directories nested more than {DEPTH_LIMIT} "
            "levels deep; generate-waiters carries what is not its own into the new "
            "package and goes no deeper: move them out of the output directory"
        ) from None


class _TooDeep(Exception):
    """OUT_DIR's directories go deeper than DEPTH_LIMIT."""


def _wait_inside(directory: int, depth: int, where: str) -> None:
    """`_wait_for_nested_runs` over the directory `directory` (closed here; its path
    is `where`), `depth` levels below OUT_DIR; the kinds come from the directory
    listing, so only lock files cost a system call."""
    try:
        if depth > DEPTH_LIMIT:
            raise _TooDeep
        with os.scandir(directory) as scan:
            found = [
                (entry.name, entry.is_dir(follow_symlinks=False))
                for entry in scan
                if is_lock_name(entry.name) or entry.is_dir(follow_symlinks=False)
            ]
        for name, is_directory in found:
            if not is_directory:
                _wait_for(name, directory, "waiting for a nested run", where)
                continue
            try:
                child = open_directory(name, directory)
            except OSError:
                continue  # removed or replaced meanwhile: no lock to wait on
            _wait_inside(child, depth + 1, os.path.join(where, name))
    finally:
        os.close(directory)


def _wait_for(
    path: str | Path, directory: int | None, point: str, where: str = ""
) -> bool:
    """Wait until no run holds the lock file `path` (in `directory`, whose path is
    `where`); True when one did. `point`: the checkpoint before waiting."""
    held = _held(path, directory, where)
    if held is None:
        return False
    _wait_on(held, point)
    return True


def enclosing_writer(site: OutputSite) -> bool:
    """True when a run into a directory enclosing OUT_DIR holds its lock (it may be
    rebuilding OUT_DIR's parent)."""
    descriptor = _held_enclosing_lock(site.parent)
    if descriptor is None:
        return False
    os.close(descriptor)
    return True


def wait_for_writer(site: OutputSite) -> bool:
    """Wait until no run holds OUT_DIR's lock, nor the lock of a directory enclosing
    it; True when one did (and has finished).

    For readers that take no lock themselves (`--check` may not be allowed to
    create the lock file): a shared lock on the writer's file waits for it. No
    lock file (no run under way), or one that is not a regular file, is not
    waited on; one that cannot be opened stops the check (see `_held`).
    """
    path = site.parent / site.lock_name
    waited = _wait_for(path, None, "waiting for the writer")
    enclosing = _held_enclosing_lock(site.parent)
    if enclosing is not None:
        _wait_on(enclosing, "waiting for an enclosing writer")
        waited = True
    return waited
