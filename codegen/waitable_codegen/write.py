"""Write: generated files into OUT_DIR, atomically, touching only files we own.

A file is ours when its first line is the generate-waiters header. A file that is
not ours is never overwritten or removed (unless `force`); ours that the new output
no longer needs are removed. Every new file is first staged next to its target and
only then moved into place with `os.replace`, so a failure leaves OUT_DIR as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import GenerationError
from .plan import HEADER_MARK

MANIFEST_NAME = ".generate-waiters.json"
_OWNED_SUFFIXES = (".py", ".typed")


@dataclass(frozen=True)
class Changes:
    """What writing the new output does to OUT_DIR, as paths relative to it."""

    write: tuple[PurePosixPath, ...]
    remove: tuple[PurePosixPath, ...]
    unchanged: tuple[PurePosixPath, ...]

    @property
    def stale(self) -> bool:
        """True when OUT_DIR differs from the new output."""
        return bool(self.write or self.remove)


def digest(data: bytes) -> str:
    """The sha256 hex digest the manifest records for a file."""
    return hashlib.sha256(data).hexdigest()


def is_generated(path: Path) -> bool:
    """True when the file starts with the generate-waiters header."""
    try:
        with path.open("rb") as handle:
            first = handle.read(len(HEADER_MARK))
    except OSError:
        return False
    return first == HEADER_MARK.encode()


def read_manifest(out_dir: Path) -> dict[str, Any] | None:
    """The manifest of the last generation into OUT_DIR, or None."""
    try:
        data = json.loads((out_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("generator") != "generate-waiters":
        return None
    return data


def manifest_matches(out_dir: Path, manifest: Mapping[str, Any]) -> bool:
    """True when every file the manifest lists is on disk with the recorded content."""
    files = manifest.get("files")
    if not isinstance(files, dict) or not files:
        return False
    for name, expected in files.items():
        try:
            data = (out_dir / name).read_bytes()
        except OSError:
            return False
        if digest(data) != expected:
            return False
    return True


def plan_changes(
    out_dir: Path, files: Mapping[PurePosixPath, str], *, force: bool
) -> Changes:
    """Compare the new output with OUT_DIR; refuse to touch files that are not ours."""
    if out_dir.exists() and not out_dir.is_dir():
        raise GenerationError(
            f"{out_dir}: output path exists and is not a directory; "
            "pass a directory with -o"
        )
    write, unchanged = [], []
    for relative, content in sorted(files.items()):
        target = out_dir / relative
        if target.is_dir():
            raise GenerationError(
                f"{target}: a directory is in the way of a generated file; "
                "move it away"
            )
        try:
            current = target.read_bytes() if target.exists() else None
        except OSError as exc:
            raise GenerationError(f"{target}: cannot read ({exc.strerror})") from None
        if current == content.encode("utf-8"):
            unchanged.append(relative)
            continue
        if current is not None and not force and not is_generated(target):
            raise GenerationError(
                f"{target}: file exists and was not written by generate-waiters "
                "(no header); move it away or pass --force to overwrite it"
            )
        write.append(relative)
    remove = sorted(set(_owned_files(out_dir)) - set(files))
    return Changes(tuple(write), tuple(remove), tuple(unchanged))


def _owned_files(out_dir: Path) -> Iterable[PurePosixPath]:
    """Generated files of this OUT_DIR: those its manifest lists, and those with
    our header in OUT_DIR itself or in a direct subdirectory (a subpackage). A
    subdirectory holding a manifest of its own is another OUT_DIR: left alone."""
    if not out_dir.is_dir():
        return
    manifest = read_manifest(out_dir) or {}
    listed = manifest.get("files", {})
    candidates = {PurePosixPath(name) for name in listed if isinstance(name, str)}
    subdirectories = sorted(
        path
        for path in out_dir.iterdir()
        if path.is_dir() and not (path / MANIFEST_NAME).exists()
    )
    for directory in (out_dir, *subdirectories):
        for path in directory.iterdir():
            if path.suffix in _OWNED_SUFFIXES and path.is_file():
                candidates.add(PurePosixPath(path.relative_to(out_dir).as_posix()))
    for relative in sorted(candidates):
        path = out_dir / relative
        if ".." not in relative.parts and path.is_file() and is_generated(path):
            yield relative


def apply_changes(
    out_dir: Path,
    files: Mapping[PurePosixPath, str],
    changes: Changes,
    manifest: Mapping[str, Any],
) -> None:
    """Stage every new file, move them all into place, then remove stale files."""
    created_dirs: list[Path] = []
    staged: list[tuple[Path, Path]] = []
    try:
        for relative in changes.write:
            target = out_dir / relative
            _make_dirs(target.parent, created_dirs)
            staged.append((_stage(target, files[relative].encode("utf-8")), target))
        _make_dirs(out_dir, created_dirs)
        manifest_bytes = (
            json.dumps(manifest, indent=1, sort_keys=True) + "\n"
        ).encode()
        staged.append(
            (_stage(out_dir / MANIFEST_NAME, manifest_bytes), out_dir / MANIFEST_NAME)
        )
    except OSError as exc:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        for directory in reversed(created_dirs):
            _remove_empty(directory)
        where = exc.filename or out_dir
        raise GenerationError(
            f"{where}: cannot write generated files ({exc.strerror}); "
            "check that the output directory is writable"
        ) from None
    for temp, target in staged:
        os.replace(temp, target)
    for relative in changes.remove:
        (out_dir / relative).unlink(missing_ok=True)
        if relative.parent != PurePosixPath("."):
            _remove_empty(out_dir / relative.parent)


def _make_dirs(directory: Path, created: list[Path]) -> None:
    missing = []
    probe = directory
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for path in reversed(missing):
        path.mkdir()
        created.append(path)


def _stage(target: Path, data: bytes) -> Path:
    handle = tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False
    )
    temp = Path(handle.name)
    try:
        with handle:
            handle.write(data)
        os.chmod(temp, 0o644)
    except OSError:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _remove_empty(directory: Path) -> None:
    """Remove a directory left with nothing but a `__pycache__` of our modules."""
    try:
        entries = list(directory.iterdir())
    except OSError:
        return
    if all(entry.name == "__pycache__" and entry.is_dir() for entry in entries):
        for entry in entries:
            shutil.rmtree(entry, ignore_errors=True)
        try:
            directory.rmdir()
        except OSError:
            pass
