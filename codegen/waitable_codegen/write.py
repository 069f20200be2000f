"""Write: the new package into OUT_DIR as one step, touching only files we own.

What it removes or replaces: a file its manifest lists (by a plain relative path,
reached through no symlink) whose content still has the hash it recorded and our
header; anything else in OUT_DIR is not ours and is kept as it is (a listed file
whose hash differs was edited by someone: kept, and reported in `Changes.kept`).
A file that is not ours standing where the new package puts a file stops the run,
unless `force`. The whole package is built in a sibling staging directory, files
not ours are carried there as hard links, and it is swapped in (`staging.py`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .errors import GenerationError
from .lock import output_lock
from .plan import HEADER_MARK
from .staging import (
    NAME_MAX,
    OutputSite,
    discard,
    is_lock_name,
    make_visible,
    recover,
)
from .write_checkpoints import checkpoint
from .write_manifest import (
    MANIFEST_LIMIT,
    MANIFEST_NAME,
    Manifest,
    digest,
    parse_manifest,
)
from .write_shadows import shadows
from .write_sync import batch_room, close_all, sync_all
from .write_read import (
    Entry,
    Kind,
    entries,
    lstat_kind,
    open_directory,
    probe,
    read_regular,
)

__all__ = [
    "MANIFEST_NAME",
    "Changes",
    "apply_changes",
    "digest",
    "exclusive",
    "is_generated",
    "manifest_matches",
    "plan_changes",
    "read_manifest",
]

_HEADER = HEADER_MARK.encode()
_CACHE = "__pycache__"
_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Changes:
    """What writing the new output does to OUT_DIR, as paths relative to it.

    `kept`: files the previous manifest lists that the new output drops but
    that are not removed, because their content is no longer what was written.
    `previous`: the manifest found in OUT_DIR (None when missing or invalid).
    """

    write: tuple[PurePosixPath, ...]
    remove: tuple[PurePosixPath, ...]
    unchanged: tuple[PurePosixPath, ...]
    kept: tuple[PurePosixPath, ...] = ()
    previous: Manifest | None = field(default=None, compare=False)

    @property
    def stale(self) -> bool:
        """True when OUT_DIR differs from the new output."""
        return bool(self.write or self.remove)


def is_generated(data: bytes) -> bool:
    """True when a file's bytes start with the generate-waiters header."""
    return data.startswith(_HEADER)


def read_manifest(out_dir: Path) -> Manifest | None:
    """The valid manifest of the last generation into OUT_DIR, or None."""
    try:
        root = open_directory(out_dir)
    except OSError:
        return None
    try:
        return _manifest(root)
    finally:
        os.close(root)


def _manifest(root: int) -> Manifest | None:
    data = read_regular(MANIFEST_NAME, root, MANIFEST_LIMIT)
    if data is None or len(data) > MANIFEST_LIMIT:
        return None
    return parse_manifest(data)


def manifest_matches(out_dir: Path, manifest: Manifest) -> bool:
    """True when every file the manifest lists is in OUT_DIR, a regular file reached
    through no symlink, with the recorded content, and nothing there shadows one
    (`write_shadows`)."""
    if not manifest.files:
        return False
    try:
        root = open_directory(out_dir)
    except OSError:
        return False
    try:
        for relative, expected in manifest.files.items():
            entry = probe(root, relative)
            if not _holds(entry, relative, expected):
                return False
        return not shadows(root, manifest.files)
    except OSError:
        return False
    finally:
        os.close(root)


def _holds(entry: Entry, relative: PurePosixPath, expected: str) -> bool:
    return (
        entry.kind is Kind.FILE
        and entry.at == relative
        and entry.complete
        and entry.data is not None
        and digest(entry.data) == expected
    )


def plan_changes(
    out_dir: Path, files: Mapping[PurePosixPath, str], *, force: bool
) -> Changes:
    """Compare the new output with OUT_DIR; refuse to touch files that are not ours."""
    kind = lstat_kind(str(out_dir), None)
    if kind is Kind.SYMLINK:
        raise GenerationError(
            f"{out_dir}: the output directory is a symbolic link; generate-waiters "
            "never writes through one: pass the directory it points to"
        )
    if kind not in (Kind.MISSING, Kind.DIRECTORY):
        raise GenerationError(
            f"{out_dir}: output path exists and is not a directory; "
            "pass a directory with -o"
        )
    if kind is Kind.MISSING:
        return Changes(tuple(sorted(files)), (), ())
    try:
        root = open_directory(out_dir)
    except OSError as exc:
        raise GenerationError(f"{out_dir}: cannot read ({exc.strerror})") from None
    try:
        return _compare(out_dir, root, files, force)
    except OSError as exc:  # a name relative to OUT_DIR (read through descriptors)
        where = out_dir / str(exc.filename) if exc.filename else out_dir
        raise GenerationError(
            f"{where}: cannot read ({exc.strerror}); generate-waiters reads what is "
            "in the output directory before it replaces it: make it readable, or "
            "move it out of the output directory"
        ) from None
    finally:
        os.close(root)


def _compare(
    out_dir: Path, root: int, files: Mapping[PurePosixPath, str], force: bool
) -> Changes:
    previous = _manifest(root)
    if previous is None:
        _manifest_may_go(out_dir, root, force)
    listed = previous.files if previous else {}
    write, unchanged = [], []
    for relative, content in sorted(files.items()):
        entry = probe(root, relative)
        if entry.kind is Kind.FILE and entry.data == content.encode("utf-8"):
            unchanged.append(relative)
            continue
        _may_replace(out_dir, relative, entry, listed.get(relative), force)
        write.append(relative)
    remove, kept = [], []
    for relative, expected in sorted(listed.items()):
        if relative in files:
            continue
        entry = probe(root, relative)
        if entry.at != relative or entry.kind in (Kind.MISSING, Kind.DIRECTORY):
            continue
        if _holds(entry, relative, expected) and is_generated(entry.data or b""):
            remove.append(relative)
        else:
            kept.append(relative)
    _refuse_shadows(out_dir, root, files, remove)
    return Changes(tuple(write), tuple(remove), tuple(unchanged), tuple(kept), previous)


def _refuse_shadows(
    out_dir: Path,
    root: int,
    files: Mapping[PurePosixPath, str],
    remove: list[PurePosixPath],
) -> None:
    """Raise when something in OUT_DIR (but the files the run `remove`s) would be
    imported instead of a generated module (`write_shadows`): `--check` found
    every file as written while `import` ran that. It is not ours, so not even
    `force` removes it."""
    found = shadows(root, files, frozenset(remove))
    if found:
        raise GenerationError(
            f"{out_dir / found[0]}: Python would import this instead of the "
            f"generated {found[0].stem.split('.')[0]}.py beside it (a package or an "
            "extension module of that name comes first), and generate-waiters did "
            "not write it; move it out of the output directory"
        )


def _manifest_may_go(out_dir: Path, root: int, force: bool) -> None:
    """Raise unless what stands at the manifest's name, which is no manifest, may be
    replaced by one: a regular file may (the name is generate-waiters' own); a
    directory never is, and a symlink or special file only with `force`."""
    kind = lstat_kind(MANIFEST_NAME, root)
    if kind in (Kind.MISSING, Kind.FILE):
        return
    where = out_dir / MANIFEST_NAME
    if kind is Kind.DIRECTORY:
        raise GenerationError(
            f"{where}: a directory stands where generate-waiters keeps its manifest; "
            "move it away"
        )
    if not force:
        raise GenerationError(
            f"{where}: a {kind.value} stands where generate-waiters keeps its "
            "manifest; move it away or pass --force to replace it"
        )


def _may_replace(
    out_dir: Path,
    relative: PurePosixPath,
    entry: Entry,
    recorded: str | None,
    force: bool,
) -> None:
    """Raise unless the entry at a path the new output writes may be replaced."""
    where = out_dir / entry.at
    if entry.at != relative and entry.kind is not Kind.MISSING:
        if entry.kind is Kind.SYMLINK:
            raise GenerationError(
                f"{where}: a symbolic link stands where generate-waiters writes a "
                "package directory, and it never writes through links; remove it"
            )
        raise GenerationError(
            f"{where}: a {entry.kind.value} is in the way of the generated "
            f"package directory; move it away"
        )
    if entry.kind is Kind.DIRECTORY:
        raise GenerationError(
            f"{where}: a directory is in the way of a generated file; move it away"
        )
    if entry.kind is Kind.MISSING or force:
        return
    if entry.kind is Kind.UNREADABLE:
        raise GenerationError(
            f"{where}: cannot read this file, so whether generate-waiters wrote it "
            "(and whether it was edited since) cannot be told; make it readable, "
            "move it away, or pass --force to replace it"
        )
    if entry.kind is not Kind.FILE:
        raise GenerationError(
            f"{where}: a {entry.kind.value} that generate-waiters did not write is "
            "in the way; move it away or pass --force to replace it"
        )
    data = entry.data or b""
    if not is_generated(data):
        raise GenerationError(
            f"{where}: file exists and was not written by generate-waiters "
            "(no header); move it away or pass --force to overwrite it"
        )
    if recorded is None:
        raise GenerationError(
            f"{where}: file has the generate-waiters header, but no manifest in the "
            f"output directory records it ({MANIFEST_NAME} is missing, invalid or does "
            "not list it), so whether it was edited cannot be told; move it away or "
            "pass --force to overwrite it"
        )
    if not entry.complete or digest(data) != recorded:
        raise GenerationError(
            f"{where}: file was edited since generate-waiters wrote it (its hash "
            "differs from the manifest); move it away or pass --force to overwrite it"
        )


def apply_changes(
    out_dir: Path,
    files: Mapping[PurePosixPath, str],
    changes: Changes,
    manifest: Manifest,
) -> None:
    """Build the whole new package beside OUT_DIR and swap it in (call under the
    lock, after `recover`); files that are not ours come along as hard links."""
    site = OutputSite.of(out_dir)
    dropped = {*files, *changes.remove, PurePosixPath(MANIFEST_NAME)}
    try:
        parent = open_directory(site.parent)
    except OSError as exc:
        raise _write_error(exc, out_dir) from None
    try:
        try:
            _build(site, parent, files, dropped, manifest)
        except OSError as exc:
            discard(parent, site.staging_name)
            raise _write_error(exc, out_dir) from None
        try:
            make_visible(site, parent)
        except OSError as exc:
            try:
                recover(site, parent)
            except OSError:
                pass  # the next run recovers; this one reports what stopped it
            raise _write_error(exc, out_dir) from None
        os.fsync(parent)
    finally:
        os.close(parent)


@contextmanager
def exclusive(out_dir: Path) -> Iterator[None]:
    """Hold OUT_DIR's lock for the block, after finishing or cleaning up whatever
    a killed run left beside it; makes OUT_DIR's parent directories if missing."""
    site = OutputSite.of(out_dir)
    room = site.sibling_room()
    if len(os.fsencode(site.name)) > room:
        raise GenerationError(
            f"{out_dir}: the output directory's name is {len(os.fsencode(site.name))} "
            f"bytes, but generate-waiters writes its lock file and the new package "
            f"beside it under names {NAME_MAX - room} bytes longer, past the "
            f"{NAME_MAX} a file name may have; name the directory in at most {room} "
            "bytes"
        )
    existing = os.path.dirname(os.path.abspath(out_dir))
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    try:
        os.stat(existing)  # a symbolic link to nothing (or a loop): made by no one
    except OSError as exc:
        raise _write_error(exc, out_dir) from None
    with output_lock(site, lambda exc: _write_error(exc, out_dir)):
        yield


class _CarryRefused(OSError):
    """The system refused to hard-link a file that is not ours into the new package
    (`fs.protected_hardlinks`: a file of another user's that this one may not write)."""


class _MountInside(OSError):
    """A file system is mounted on a directory inside OUT_DIR: the new package cannot
    carry it, and the old one's removal would reach into it."""


class _AclKept(OSError):
    """A directory of OUT_DIR has a POSIX ACL that its copy in the new package
    cannot be given."""


class _Unreadable(OSError):
    """A directory of OUT_DIR this user may not read, so not carry."""


class _AclUnread(OSError):
    """A directory of OUT_DIR whose POSIX ACLs cannot be read, so not given to its
    copy."""


class _OwnerKept(OSError):
    """A directory of OUT_DIR is another user's (or group's), and the copy the new
    package holds cannot be given back to them."""


def _write_error(exc: OSError, out_dir: Path) -> GenerationError:
    if isinstance(exc, _MountInside):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: a file system is mounted here, inside the "
            "output directory; generate-waiters replaces the output directory with a "
            "new one and cannot carry a mount point into it: unmount it, or generate "
            "into a directory that holds no mount point"
        )
    if isinstance(exc, _OwnerKept):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: this directory belongs to another user or "
            "group; generate-waiters rebuilds the directories of the output directory "
            f"and cannot give this one back to its owner ({exc.strerror}): run as its "
            "owner, or move it out of the output directory"
        )
    if isinstance(exc, _AclKept):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: this directory has an access control "
            "list; generate-waiters rebuilds the directories of the output directory "
            f"and cannot give this one's to its copy ({exc.strerror}): run as its "
            "owner, or move it out of the output directory"
        )
    if isinstance(exc, _AclUnread):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: cannot read this directory's access "
            f"control list ({exc.strerror}); generate-waiters rebuilds the "
            "directories of the output directory and gives each copy the ACLs of "
            "the old one: make them readable, or move the directory out of the "
            "output directory"
        )
    if isinstance(exc, _Unreadable):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: cannot read this directory "
            f"({exc.strerror}); generate-waiters carries what is yours in the output "
            "directory into the new package: make it readable, or move it out of the "
            "output directory"
        )
    if exc.errno == errno.ENOTDIR:
        return GenerationError(
            f"{out_dir}: a parent of the output directory is a file, not a "
            "directory; pass a directory path with -o"
        )
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return GenerationError(
            f"{out_dir}: cannot write generated files ({exc.strerror}): the new "
            "package holds a directory open for each directory of the output "
            "directory; raise the limit on open files (ulimit -n) or move "
            "directories that are not generated out of it"
        )
    if isinstance(exc, _CarryRefused):
        return GenerationError(
            f"{out_dir / str(exc.filename)}: generate-waiters keeps the files in "
            f"OUT_DIR that it did not write by linking them into the new package, and "
            f"the system refuses to link this one ({exc.strerror}; a file of another "
            "user's): move it out of the output directory, or run as its owner"
        )
    if exc.errno == errno.EBUSY:
        return GenerationError(
            f"{out_dir}: cannot replace the output directory ({exc.strerror}); "
            "generate-waiters swaps in a new package directory, which a mount point "
            "cannot be: pass a directory inside it"
        )
    return GenerationError(
        f"{out_dir}: cannot write generated files ({exc.strerror}); "
        "check that the output directory and its parent are writable"
    )


def _build(
    site: OutputSite,
    parent: int,
    files: Mapping[PurePosixPath, str],
    dropped: set[PurePosixPath],
    manifest: Manifest,
) -> None:
    """Fill the staging directory: the new files, the files that are not ours,
    the manifest last; every file and directory synced to disk before the swap."""
    old = lstat_kind(site.name, parent) is Kind.DIRECTORY
    status = os.stat(site.name, dir_fd=parent) if old else None
    mode = 0o777 if status is None else status.st_mode
    # Made writable for us (a read-only OUT_DIR's mode is given to it last).
    os.mkdir(site.staging_name, 0o700 if old else 0o777, dir_fd=parent)
    directories = {PurePosixPath(): open_directory(site.staging_name, parent)}
    if status is not None:
        _same_owner(directories[PurePosixPath()], status, PurePosixPath())
    written: list[int] = []  # the new files' descriptors, open until synced
    # The modes the old directories had, given to their copies once everything is
    # in them (a read-only directory of the user's would refuse the links into it).
    modes: dict[PurePosixPath, int] = (
        {PurePosixPath(): stat.S_IMODE(mode)} if old else {}
    )
    acls: dict[PurePosixPath, dict[str, bytes]] = {}  # the same, for their ACLs
    try:
        for relative, content in sorted(files.items()):
            folder = _directory(directories, relative.parent)
            written.append(_write_file(folder, relative.name, content.encode("utf-8")))
            if len(written) >= batch_room(len(directories)):
                _sync_and_close(written)
            checkpoint(f"staged {relative}")
        if old:
            source = open_directory(site.name, parent)
            try:
                acls[PurePosixPath()] = _acls_of(source, PurePosixPath())
                _carry(source, directories, PurePosixPath(), dropped, (modes, acls))
            finally:
                os.close(source)
            checkpoint("carried files that are not ours")
        root = directories[PurePosixPath()]
        written.append(_write_file(root, MANIFEST_NAME, manifest.to_bytes()))
        checkpoint("staged the manifest")
        for relative, found in acls.items():  # last: nothing made inherits them
            _give_acls(directories[relative], found, relative)
        for relative, kept in modes.items():  # before the sync, which records them
            os.fchmod(directories[relative], kept)
        _sync_and_close(written, [*directories.values()])  # one round: together
    finally:
        close_all([*written, *directories.values()])  # each one, whatever fails


def _sync_and_close(written: list[int], directories: Sequence[int] = ()) -> None:
    """fsync the written files (and `directories`, in the same round), then close
    the files and empty `written` (on error the caller still holds what is not
    closed yet, and closes it)."""
    sync_all([*written, *directories])
    close_all(written)


def _directory(directories: dict[PurePosixPath, int], relative: PurePosixPath) -> int:
    """The staging directory `relative`, made (with its parents) when missing."""
    if relative not in directories:
        parent = _directory(directories, relative.parent)
        if lstat_kind(relative.name, parent) is Kind.MISSING:
            os.mkdir(relative.name, dir_fd=parent)
        directories[relative] = open_directory(relative.name, parent)
    return directories[relative]


def _write_file(directory: int, name: str, data: bytes) -> int:
    """Create `name` with `data` in a staging directory; its descriptor, left open
    for `_sync_and_close` (one open per file, not a second one to sync it)."""
    descriptor = os.open(name, _FILE_FLAGS, 0o644, dir_fd=directory)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
        os.fchmod(descriptor, 0o644)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _carry(
    source: int,
    directories: dict[PurePosixPath, int],
    relative: PurePosixPath,
    dropped: set[PurePosixPath],
    kept: tuple[dict[PurePosixPath, int], dict[PurePosixPath, dict[str, bytes]]],
) -> None:
    """Hard-link every entry of the old directory `relative` that is not ours into
    the staging directory (links and special files as themselves, never followed);
    each old directory's mode and ACLs go into `kept`, for its copy once it is
    filled."""
    target = directories[relative]
    for name, kind, size in entries(source):
        path = relative / name
        if path in dropped or (kind is Kind.FILE and not size and is_lock_name(name)):
            continue  # ours, or a nested run's lock file (that run removes it)
        if kind is not Kind.DIRECTORY:
            try:
                os.link(
                    name,
                    name,
                    src_dir_fd=source,
                    dst_dir_fd=target,
                    follow_symlinks=False,
                )
            except PermissionError as exc:
                raise _CarryRefused(exc.errno, exc.strerror, path.as_posix()) from None
            continue
        try:
            child = open_directory(name, source)
        except PermissionError as exc:
            raise _Unreadable(exc.errno, exc.strerror, path.as_posix()) from None
        try:
            status = os.fstat(child)
            if status.st_dev != os.fstat(source).st_dev:
                raise _MountInside(errno.EXDEV, "a mount point", path.as_posix())
            if path not in directories:
                if lstat_kind(name, target) is Kind.MISSING:
                    if not _worth_carrying(child, path, dropped):
                        continue
                    os.mkdir(name, dir_fd=target)
                    directories[path] = open_directory(name, target)
                    _same_owner(directories[path], status, path)
                else:
                    directories[path] = open_directory(name, target)
            kept[0][path] = stat.S_IMODE(status.st_mode)
            kept[1][path] = _acls_of(child, path)
            _carry(child, directories, path, dropped, kept)
        finally:
            os.close(child)


#: The extended attributes holding a directory's POSIX ACLs (Linux).
_ACLS = ("system.posix_acl_access", "system.posix_acl_default")
#: What reading an ACL a directory does not have (or cannot have) fails with.
_NO_ACL = frozenset({errno.ENODATA, errno.ENOTSUP, errno.EOPNOTSUPP})


def _acls_of(directory: int, relative: PurePosixPath) -> dict[str, bytes]:
    """The POSIX ACLs of the old directory `relative` (its access ACL: an entry
    denying a user, say, whom its mode alone lets in; its default ACL: what files
    made in it inherit), by attribute name; empty where the system has none.
    `_AclUnread` when they cannot be read (which the run reported as files it
    could not write, naming OUT_DIR)."""
    if not hasattr(os, "getxattr"):  # no extended attributes on this system
        return {}
    found = {}
    for name in _ACLS:
        try:
            found[name] = os.getxattr(directory, name)
        except OSError as exc:
            if exc.errno not in _NO_ACL:
                raise _AclUnread(exc.errno, exc.strerror, relative.as_posix()) from None
    return found


def _give_acls(copy: int, found: dict[str, bytes], relative: PurePosixPath) -> None:
    """Give the copy of an old directory the ACLs `_acls_of` found on it, and no
    other. Its files keep theirs, being the same inodes; the directory is made
    anew, and came back with its mode alone (a user an ACL kept out could read
    it), or with what OUT_DIR's parent's default ACL gives a directory made under
    it (where the new package is built): entries the old one never had, letting
    in whom its mode kept out. Only an ACL the copy has is removed (a read, where
    most have none: no change asked of a file system that holds none).
    `_AclKept` when the system does not take them."""
    inherited = _acls_of(copy, relative).keys() - found.keys()
    for name in _ACLS:
        try:
            if name in found:
                os.setxattr(copy, name, found[name])
            elif name in inherited:
                os.removexattr(copy, name)
        except OSError as exc:
            raise _AclKept(exc.errno, exc.strerror, relative.as_posix()) from None


def _same_owner(copy: int, old: os.stat_result, relative: PurePosixPath) -> None:
    """Give the copy of an old directory the old one's owner and group (a run as
    root would make them root's, locking their owner out of a private directory);
    `_OwnerKept` when the system does not let this user do so."""
    made = os.fstat(copy)
    if (made.st_uid, made.st_gid) == (old.st_uid, old.st_gid):
        return
    try:
        os.fchown(copy, old.st_uid, old.st_gid)
    except OSError as exc:
        raise _OwnerKept(exc.errno, exc.strerror, relative.as_posix()) from None


def _worth_carrying(
    directory: int, relative: PurePosixPath, dropped: set[PurePosixPath]
) -> bool:
    """A directory the new output does not have is carried when it was empty or
    holds something not ours besides `__pycache__` (a subpackage we removed is not)."""
    found = entries(directory)
    if not found:
        return True
    for name, kind, _ in found:
        path = relative / name
        if path in dropped or (name == _CACHE and _only_bytecode(directory)):
            continue
        if kind is not Kind.DIRECTORY:
            return True
        child = open_directory(name, directory)
        try:
            if _worth_carrying(child, path, dropped):
                return True
        finally:
            os.close(child)
    return False


def _only_bytecode(parent: int) -> bool:
    """True when `parent`'s `__pycache__` is a directory of compiled modules only
    (`*.pyc` files), which Python makes again: a removed subpackage's. Anything
    else under that name is someone's, and keeps its directory."""
    if lstat_kind(_CACHE, parent) is not Kind.DIRECTORY:
        return False
    cache = open_directory(_CACHE, parent)
    try:
        return all(
            kind is Kind.FILE and name.endswith(".pyc")
            for name, kind, _ in entries(cache)
        )
    finally:
        os.close(cache)
