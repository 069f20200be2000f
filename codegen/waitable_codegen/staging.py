"""Where a new package is built (a sibling of OUT_DIR) and how it replaces the old one.

Why a directory swap and not a journal: a journal replays file moves into OUT_DIR,
so between a kill and the next run OUT_DIR holds a mix of two generations; a swap
makes the whole new package visible in one step. On Linux that step is a single
`renameat2(RENAME_EXCHANGE)` of the staging directory with OUT_DIR, so at every
instant OUT_DIR is one whole generation. Elsewhere (or with
`GENERATE_WAITERS_SWAP=rename`) it is two renames, OUT_DIR → `retired`, then
staging → OUT_DIR; a kill between them leaves no OUT_DIR, and `recover` (run by
the next generation, under the lock) finishes the swap: the staging directory
is complete by then, since it is only put in place once fully written. Should
another program make OUT_DIR between the two renames, neither package is removed:
that run, and every later one until the user moves the directory away, stops with
an error naming where both are (`displaced`); an empty directory made there is
replaced, as the second rename itself would replace it. Files in OUT_DIR that
are not ours are carried into the staging directory as hard links (same inode:
untouched), see `write.py`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from .errors import GenerationError
from .write_checkpoints import checkpoint
from .write_read import Kind, lstat_kind

SWAP_VARIABLE = "GENERATE_WAITERS_SWAP"
_LOCK_SUFFIX = ".generate-waiters.lock"
NAME_MAX = 255
"""Bytes in a file name (Linux, the BSDs, macOS)."""
_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2


@dataclass(frozen=True)
class OutputSite:
    """OUT_DIR as its parent directory and its name, with the names of its
    siblings: the lock file, the staging directory and the retired package."""

    out_dir: Path
    parent: Path
    name: str

    @classmethod
    def of(cls, out_dir: Path) -> OutputSite:
        """The site of `out_dir`; its parent resolved once, so every step of a run
        works in the same real directory."""
        absolute = Path(os.path.abspath(out_dir))
        return cls(out_dir, Path(os.path.realpath(absolute.parent)), absolute.name)

    @property
    def lock_name(self) -> str:
        """The lock file beside OUT_DIR."""
        return lock_name_of(self.name)

    @property
    def staging_name(self) -> str:
        """The directory the new package is built in, beside OUT_DIR."""
        return f".{self.name}.generate-waiters.new"

    @property
    def retired_name(self) -> str:
        """Where the old package waits between the two renames of a portable swap."""
        return f".{self.name}.generate-waiters.old"

    def sibling_room(self) -> int:
        """How many bytes OUT_DIR's name may have for its siblings' names to fit
        in `NAME_MAX` (each is the name with a prefix and a suffix added)."""
        added = max(
            len(sibling) - len(self.name)
            for sibling in (self.lock_name, self.staging_name, self.retired_name)
        )
        return NAME_MAX - added

    def leftovers(self) -> bool:
        """True when a run is under way or a killed one left something beside
        OUT_DIR (its lock file, a staging or retired directory)."""
        return any(
            lstat_kind(str(self.parent / name), None) is not Kind.MISSING
            for name in (self.lock_name, self.staging_name, self.retired_name)
        )


def lock_name_of(name: str) -> str:
    """The name of the lock file beside the OUT_DIR named `name`."""
    return f".{name}{_LOCK_SUFFIX}"


def is_lock_name(name: str) -> bool:
    """True when `name` is a site's lock file name: `.NAME.generate-waiters.lock`."""
    return (
        name.startswith(".")
        and name.endswith(_LOCK_SUFFIX)
        and len(name) > 1 + len(_LOCK_SUFFIX)
    )


def discard(parent_fd: int, name: str) -> None:
    """Remove `name` from the directory `parent_fd`: a directory with everything in
    it (links inside are removed, never followed), anything else unlinked."""
    kind = lstat_kind(name, parent_fd)
    if kind is Kind.MISSING:
        return
    if kind is Kind.DIRECTORY:
        try:
            shutil.rmtree(name, dir_fd=parent_fd)
        except PermissionError:  # a read-only directory (the user's) in the tree
            _make_removable(parent_fd, name)
            shutil.rmtree(name, dir_fd=parent_fd)
    else:
        os.unlink(name, dir_fd=parent_fd)


_OPEN_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _make_removable(parent_fd: int, name: str) -> None:
    """Give every directory of the tree `name` its owner's read, write and search
    bits, so that its entries can be removed. Only directories, reached through no
    link: the files are links the new package keeps, and their modes stay. One
    directory is open at a time (a wide tree must not run out of descriptors)."""
    pending = [name]
    while pending:
        path = pending.pop()
        descriptor = os.open(path, _OPEN_DIRECTORY, dir_fd=parent_fd)
        try:
            mode = stat.S_IMODE(os.fstat(descriptor).st_mode)
            if mode & 0o700 != 0o700:
                os.fchmod(descriptor, mode | 0o700)
            with os.scandir(descriptor) as children:
                pending.extend(
                    f"{path}/{child.name}"
                    for child in children
                    if child.is_dir(follow_symlinks=False)
                )
        finally:
            os.close(descriptor)


def recover(site: OutputSite, parent_fd: int) -> None:
    """Finish or clean up after a run that was killed (call under the lock): put
    back a package a kill left between the two renames, then drop the leftovers.
    Refused (`displaced`) when something else made OUT_DIR between the renames:
    both packages are kept for the user."""
    if lstat_kind(site.retired_name, parent_fd) is Kind.DIRECTORY:
        complete = lstat_kind(site.staging_name, parent_fd) is Kind.DIRECTORY
        if complete and not _missing_or_removed(site.name, parent_fd):
            raise displaced(site)  # the staging directory is gone once swapped in
        if lstat_kind(site.name, parent_fd) is Kind.MISSING:
            source = site.staging_name if complete else site.retired_name
            os.rename(source, site.name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
    for name in (site.staging_name, site.retired_name):
        discard(parent_fd, name)


def _missing_or_removed(name: str, parent_fd: int) -> bool:
    """True when `name` is missing, or was an empty directory and is removed now
    (as a swap's second rename would replace it: say, made by `mkdir -p`)."""
    kind = lstat_kind(name, parent_fd)
    if kind is Kind.DIRECTORY:
        try:
            os.rmdir(name, dir_fd=parent_fd)
        except OSError:
            return False  # not empty (or not ours to remove): the caller refuses
        return True
    return kind is Kind.MISSING


def displaced(site: OutputSite) -> GenerationError:
    """The error for an OUT_DIR that another program made between the two renames
    of a portable swap: the old package is retired and the new one staged, both
    whole; neither is removed (the old one holds the user's files)."""
    return GenerationError(
        f"{site.out_dir}: another program made this directory while generate-waiters "
        f"was replacing the package in it; the previous package is kept in "
        f"{site.parent / site.retired_name} and the new one in "
        f"{site.parent / site.staging_name}: move {site.out_dir} away and run "
        "again to put the new package in its place (or remove those two to keep "
        "what is there now)"
    )


def make_visible(site: OutputSite, parent_fd: int) -> None:
    """Put the finished staging directory in OUT_DIR's place, then drop the old
    package; a kill at any point leaves the old package or the new one found."""
    if lstat_kind(site.name, parent_fd) is Kind.MISSING:
        _rename(site.staging_name, site.name, parent_fd, _RENAME_NOREPLACE)
        checkpoint("renamed staging into place")
        return
    if _rename(site.staging_name, site.name, parent_fd, _RENAME_EXCHANGE):
        checkpoint("exchanged staging and OUT_DIR")
        discard(parent_fd, site.staging_name)
        checkpoint("discarded the old package")
        return
    os.rename(site.name, site.retired_name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
    checkpoint("retired the old package")
    try:
        os.rename(
            site.staging_name, site.name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd
        )
    except OSError:
        if lstat_kind(site.name, parent_fd) is not Kind.MISSING:
            raise displaced(site) from None  # made by another program meanwhile
        os.rename(
            site.retired_name, site.name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd
        )
        raise
    checkpoint("renamed staging into place")
    discard(parent_fd, site.retired_name)
    checkpoint("discarded the old package")


def _rename(source: str, target: str, parent_fd: int, flags: int) -> bool:
    """`renameat2(source, target, flags)`; False when the system cannot do it
    (then the caller falls back to plain renames). NOREPLACE falls back itself."""
    function = _renameat2()
    if function is not None:
        result = function(
            parent_fd, os.fsencode(source), parent_fd, os.fsencode(target), flags
        )
        if result == 0:
            return True
        error = ctypes.get_errno()
        if error not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise OSError(error, os.strerror(error), target)
    if flags == _RENAME_NOREPLACE:
        if lstat_kind(target, parent_fd) is not Kind.MISSING:
            raise OSError(errno.EEXIST, os.strerror(errno.EEXIST), target)
        os.rename(source, target, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
        return True
    return False


def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    """libc's renameat2, unless missing or `GENERATE_WAITERS_SWAP=rename`."""
    if os.environ.get(SWAP_VARIABLE) == "rename":
        return None
    return _libc_renameat2()


@functools.cache
def _libc_renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    """libc's renameat2 or None, looked up once per process (finding libc runs
    `ldconfig`, which costs more than the rest of a small generation's writes)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return cast(Callable[[int, bytes, int, bytes, int], int], function)
