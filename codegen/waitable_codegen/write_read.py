"""Reading what sits in OUT_DIR without trusting it: no symlink is followed, only
regular files are opened (never blocking, so a FIFO cannot hang us), reads are capped.

Every lookup walks from a directory descriptor one component at a time with
`O_NOFOLLOW`, so a symlink anywhere on the way is seen, not followed.
"""

from __future__ import annotations

import enum
import os
import stat
from dataclasses import dataclass
from pathlib import PurePosixPath

READ_LIMIT = 16 * 1024 * 1024
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class Kind(enum.Enum):
    """What a directory entry is, as `lstat` sees it."""

    MISSING = "missing"
    FILE = "regular file"
    DIRECTORY = "directory"
    SYMLINK = "symbolic link"
    SPECIAL = "special file"
    UNREADABLE = "regular file this user cannot read"


@dataclass(frozen=True)
class Entry:
    """What was found on the way to a path: `kind` of the entry at `at` (the path
    itself, or the first component on the way that is not a plain directory).
    `data` holds a regular file's bytes (at most READ_LIMIT + 1 of them)."""

    kind: Kind
    at: PurePosixPath
    data: bytes | None = None

    @property
    def complete(self) -> bool:
        """True when `data` is the whole file (it was not cut at READ_LIMIT)."""
        return self.data is not None and len(self.data) <= READ_LIMIT


def kind_of(mode: int) -> Kind:
    """The Kind of an `lstat` mode."""
    if stat.S_ISREG(mode):
        return Kind.FILE
    if stat.S_ISDIR(mode):
        return Kind.DIRECTORY
    if stat.S_ISLNK(mode):
        return Kind.SYMLINK
    return Kind.SPECIAL


def lstat_kind(name: str, dir_fd: int | None) -> Kind:
    """The Kind of `name` (relative to `dir_fd`), never following a symlink."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return Kind.MISSING
    return kind_of(mode)


def open_directory(name: str | os.PathLike[str], dir_fd: int | None = None) -> int:
    """A descriptor of the directory `name`; OSError (ELOOP) when it is a symlink."""
    return os.open(name, _DIRECTORY_FLAGS, dir_fd=dir_fd)


def entries(directory: int) -> list[tuple[str, Kind, int]]:
    """The entries of a directory, sorted by name, each with its Kind and size
    (symlinks unfollowed); one removed while it is listed is left out."""
    with os.scandir(directory) as scan:
        found = []
        for entry in scan:
            try:
                status = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            found.append((entry.name, kind_of(status.st_mode), status.st_size))
    return sorted(found)


def read_regular(
    name: str, dir_fd: int | None, limit: int = READ_LIMIT
) -> bytes | None:
    """At most `limit + 1` bytes of the regular file `name`; None when it is not a
    regular file (a FIFO, a device, a socket, a symlink) or is gone. Looked at
    before it is opened: opening a FIFO would release a writer blocked on it."""
    try:
        if lstat_kind(name, dir_fd) is not Kind.FILE:
            return None
        descriptor = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(descriptor)


def probe(root_fd: int, relative: PurePosixPath, limit: int = READ_LIMIT) -> Entry:
    """What is at `relative` under the directory `root_fd`, read without following
    any symlink; a regular file comes with its bytes."""
    descriptors: list[int] = []
    current = root_fd
    try:
        walked = PurePosixPath()
        for part in relative.parts[:-1]:
            walked = walked / part
            kind = lstat_kind(part, current)
            if kind is not Kind.DIRECTORY:
                return Entry(kind, walked)
            current = open_directory(part, current)
            descriptors.append(current)
        kind = lstat_kind(relative.name, current)
        if kind is not Kind.FILE:
            return Entry(kind, relative)
        data = read_regular(relative.name, current, limit)
        if data is None:  # refused (EACCES), or replaced since it was looked at
            return Entry(Kind.UNREADABLE, relative)
        return Entry(Kind.FILE, relative, data)
    finally:
        for descriptor in descriptors:
            os.close(descriptor)
