"""Entries of OUT_DIR that Python would import instead of a generated module.

Python's import system looks, in a package's directory, for a package of the
module's name (a directory holding an `__init__` module) first, then for an
extension module (`NAME.abi3.so`, `NAME.cpython-311-x86_64-linux-gnu.so`...), and
only then for `NAME.py`; any Python's extension module counts, not only the
running one's, since the package is imported by other versions too. So a
`waiters/` package or a `waiters.abi3.so` left in OUT_DIR (by an older layout, or
by whoever could write there) is what `import pkg.waiters` runs, while every
generated file is byte for byte what `--check` expects. Such an entry is not
ours, so it is never removed: the run (and `--check`) stops, naming it.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Collection, Iterable
from importlib.machinery import EXTENSION_SUFFIXES, all_suffixes
from pathlib import PurePosixPath

from .write_read import Kind, entries, lstat_kind, open_directory

_INITS = frozenset(f"__init__{suffix}" for suffix in all_suffixes())
#: How a symbolic link at a module's name is opened: followed, as import follows it.
_FOLLOWED_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
#: What opening it fails with when it leads to no directory, which import passes by.
_LEADS_NOWHERE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP})
#: The last part of this platform's extension module names (`so`; `pyd` on Windows).
_EXTENSION_ENDS = frozenset(suffix.rpartition(".")[2] for suffix in EXTENSION_SUFFIXES)


def shadows(
    root: int,
    generated: Iterable[PurePosixPath],
    going: Collection[PurePosixPath] = (),
) -> list[PurePosixPath]:
    """The entries under the directory `root` (OUT_DIR) that Python would import in
    place of one of the `generated` modules (`.py` paths relative to it), sorted;
    a package whose `__init__` is one of the files the run removes (`going`: a
    subpackage an earlier generation wrote) is none. A symbolic link at a
    package's name is followed, as the import system follows it: to a package it
    is one, to a plain directory, a file or nothing it is none."""
    modules: dict[PurePosixPath, set[str]] = {}
    for relative in generated:
        if relative.suffix == ".py":
            modules.setdefault(relative.parent, set()).add(relative.stem)
    found: list[PurePosixPath] = []
    for folder, stems in sorted(modules.items()):
        directory = _folder(root, folder)
        if directory is None:
            continue  # missing, or not a plain directory: the writer says so
        try:
            found += _shadows_in(directory, folder, stems, going)
        finally:
            os.close(directory)
    return sorted(found)


def _shadows_in(
    directory: int,
    folder: PurePosixPath,
    stems: set[str],
    going: Collection[PurePosixPath],
) -> list[PurePosixPath]:
    """The entries of `directory` (`folder`) that shadow a module named one of
    `stems`."""
    kinds = {name: kind for name, kind, _ in entries(directory)}
    found = [folder / name for name in kinds if _extension_module(name) in stems]
    for stem in stems - {"__init__"}:
        kind = kinds.get(stem)
        if kind in (Kind.DIRECTORY, Kind.SYMLINK) and _is_package(
            directory, folder / stem, going, kind is Kind.SYMLINK
        ):
            found.append(folder / stem)
    return found


def _is_package(
    parent: int,
    relative: PurePosixPath,
    going: Collection[PurePosixPath],
    link: bool = False,
) -> bool:
    """True when the directory `relative` (in `parent`; with `link`, the one the
    symbolic link `relative` leads to) holds an `__init__` module of any kind that
    stays."""
    try:
        if link:
            directory = os.open(relative.name, _FOLLOWED_DIRECTORY, dir_fd=parent)
        else:
            directory = open_directory(relative.name, parent)
    except OSError as exc:
        if exc.errno in _LEADS_NOWHERE:
            return False  # a link to nothing, to a file or in a loop: passed by
        return True  # unreadable: Python may still import it; refuse to guess
    try:
        return any(
            (name in _INITS or _extension_module(name) == "__init__")
            and relative / name not in going
            for name, _, _ in entries(directory)
        )
    finally:
        os.close(directory)


def _extension_module(name: str) -> str | None:
    """The module a file named `name` is imported as when it is an extension
    module for some Python on this platform: `NAME.so`, or `NAME.TAG.so` with one
    tag (`abi3`, `cpython-312-x86_64-linux-gnu`, `cpython-313t-...`); None for any
    other name. Not only this interpreter's `EXTENSION_SUFFIXES`: the package is
    imported by other Pythons than the one that generates or checks it, and
    3.12 imports `waiters.cpython-312-x86_64-linux-gnu.so`, which 3.11 passes by."""
    for suffix in EXTENSION_SUFFIXES:  # this Python's, whatever their form
        stem = name.removesuffix(suffix)
        if stem and stem != name and "." not in stem:
            return stem
    parts = name.split(".")
    if len(parts) in (2, 3) and all(parts) and parts[-1] in _EXTENSION_ENDS:
        return parts[0]
    return None


def _folder(root: int, folder: PurePosixPath) -> int | None:
    """A descriptor of `folder` under `root` (`root` itself duplicated for the top),
    reached through plain directories only; None when it is not one."""
    current = os.dup(root)
    for part in folder.parts:
        try:
            if lstat_kind(part, current) is not Kind.DIRECTORY:
                return None
            child = open_directory(part, current)
        except OSError:
            return None
        finally:
            os.close(current)
        current = child
    return current
