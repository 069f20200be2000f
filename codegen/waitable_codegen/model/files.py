"""Reading model files: regular files only, never blocking, never more than a cap.

A model path may name anything: a FIFO (opening it would wait for a writer), a
device (`/dev/zero` never ends), a directory full of odd entries. Each path is
stat'ed before it is opened, opened without blocking, checked again through the
open descriptor, and read only up to `MAX_MODEL_BYTES`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from ..errors import safe_text
from .errors import ModelError

MAX_MODEL_BYTES = 64 * 1024 * 1024
"""The largest model file read (the largest AWS model is about 3 MB)."""

_CHUNK = 1024 * 1024


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to read: each file as given, each directory's `*.json` in sorted order.

    Hidden files (`.generate-waiters.json`, an editor's `.x.json`) are not models.
    """
    files: list[Path] = []
    for entry in paths:
        path = Path(entry)
        if _is_directory(path):
            try:
                found = sorted(
                    p for p in path.glob("*.json") if not p.name.startswith(".")
                )
            except OSError as exc:
                raise _unreadable(path, exc) from None
            if not found:
                raise ModelError(
                    f"{_shown(path)}: directory holds no *.json model files"
                )
            files.extend(found)
        else:
            files.append(path)
    return files


def read_file(path: Path) -> str:
    """The text of a model file, or a ModelError saying why it cannot be read."""
    return decode_text(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular model file, or a ModelError saying why not: a FIFO, a
    device or a socket is refused before it is opened, a file over the cap unread."""
    try:
        _require_regular(path, os.stat(path).st_mode)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ModelError(
            f"{_shown(path)}: no such file; pass the path of a Smithy model in JSON "
            "AST form (or a directory of them)"
        ) from None
    except (OSError, ValueError) as exc:
        raise _unreadable(path, exc) from None
    try:
        with os.fdopen(descriptor, "rb") as stream:
            # The path may have been swapped between stat and open: check what we hold.
            status = os.fstat(stream.fileno())
            _require_regular(path, status.st_mode)
            return read_capped(stream, str(path), first=status.st_size + 1)
    except OSError as exc:
        raise _unreadable(path, exc) from None


def read_capped(
    stream: BinaryIO, source: str, limit: int = MAX_MODEL_BYTES, *, first: int = _CHUNK
) -> bytes:
    """Everything `stream` holds, or a ModelError once it passes `limit` bytes
    (standard input too may be endless). `first`: the size of the first read (a
    file's size plus one reads it whole at once, with no copy to join chunks)."""
    chunks: list[bytes] = []
    total = 0
    size = max(first, 1)
    while True:
        chunk = stream.read(min(size, limit + 1 - total))
        size = _CHUNK
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise ModelError(
                f"{safe_text(source)}: larger than {limit // (1024 * 1024)} MiB; "
                "a Smithy model is never this large: check that this is the right file"
            )


def decode_text(data: bytes, source: str) -> str:
    """Model bytes as text: JSON AST files are UTF-8 (a BOM is tolerated)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ModelError(
            f"{safe_text(source)}: not UTF-8 text (byte {exc.start}); "
            "Smithy JSON AST files are UTF-8 JSON"
        ) from None


def _is_directory(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # reading it reports why


def _require_regular(path: Path, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ModelError(f"{_shown(path)}: is a directory, expected a JSON AST file")
    if stat.S_ISFIFO(mode):
        kind = "a FIFO (named pipe)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    else:
        kind = "something other than a file"
    raise ModelError(
        f"{_shown(path)}: is {kind}, not a regular file; give a JSON AST model file "
        "(or - to read standard input)"
    )


def _unreadable(path: Path, exc: Exception) -> ModelError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return ModelError(f"{_shown(path)}: cannot read model file ({safe_text(reason)})")


def file_name(path: str | os.PathLike[str]) -> str:
    """The last part of a model file's path as the package and its manifest record
    it: text, with the bytes of a name that is not UTF-8 as `\\xNN` escapes."""
    name = Path(path).name
    if name.isascii():
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _shown(path: Path) -> str:
    return safe_text(str(path), 300)
