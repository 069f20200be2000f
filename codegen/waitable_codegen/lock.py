"""The lock that serializes generations into one OUT_DIR: `flock` on a file beside it.

The lock file sits in OUT_DIR's parent (OUT_DIR itself is swapped away, and a lock
inside it would move with it). It is removed when released, so it leaves nothing
behind; a run that locked a file another run had just removed sees the inode
changed and locks again.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import GenerationError
from .staging import OutputSite
from .write_checkpoints import checkpoint

_FLAGS = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@contextmanager
def output_lock(site: OutputSite, parent_fd: int) -> Iterator[None]:
    """Hold OUT_DIR's lock (waiting for another run to finish) for the block."""
    path = site.parent / site.lock_name
    while True:
        try:
            descriptor = os.open(site.lock_name, _FLAGS, 0o644, dir_fd=parent_fd)
        except OSError as exc:
            raise GenerationError(
                f"{path}: cannot open the lock file ({exc.strerror}); "
                "remove whatever is there and run again"
            ) from None
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            raise GenerationError(
                f"{path}: the lock file is not a regular file; remove it and run again"
            )
        checkpoint("waiting for the lock")
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if _still_there(site.lock_name, parent_fd, descriptor):
            break
        os.close(descriptor)
    checkpoint("locked")
    try:
        yield
    finally:
        try:
            os.unlink(site.lock_name, dir_fd=parent_fd)
        except OSError:
            pass
        os.close(descriptor)


def _still_there(name: str, parent_fd: int, descriptor: int) -> bool:
    """True when `name` still names the file we locked (not removed meanwhile)."""
    try:
        named = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def wait_for_writer(site: OutputSite) -> bool:
    """Wait until no run holds OUT_DIR's lock; True when one did (and has finished).

    For readers that take no lock themselves (`--check` may not be allowed to
    create the lock file): a shared lock on the writer's file waits for it. No
    lock file (no run under way), or one that is not a regular file or cannot be
    opened, is not waited on.
    """
    try:
        descriptor = os.open(
            site.parent / site.lock_name,
            os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
        )
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return False
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            checkpoint("waiting for the writer")
            fcntl.flock(descriptor, fcntl.LOCK_SH)
            return True
        return False
    finally:
        os.close(descriptor)
