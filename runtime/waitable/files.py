"""Reading a file the user names as untrusted input: `waitable wait --input-file`
and `--model`, `waitable simulate --ready-samples @FILE`, a waiter definition file
(`custom_waiter_from_trait`).

The file is read whole, so it is bounded: at most `MAX_FILE_BYTES`, checked as it is
read (a device such as `/dev/zero` has no size to check first). It is opened without
blocking, so a FIFO that nobody writes to reads as empty instead of hanging the
command; a pipe with a writer (`@/dev/stdin`, a shell's `<(...)`) is read to its end.
"""

from __future__ import annotations

import os
import stat

__all__ = ["MAX_FILE_BYTES", "MAX_MODEL_BYTES", "UnreadableFile", "read_text"]

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read (16 MiB: millions of ready times, any input document)."""

MAX_MODEL_BYTES = 64 * 1024 * 1024
"""The largest model file read (as `generate-waiters` reads them)."""

_CHUNK = 1 << 16


class UnreadableFile(ValueError):
    """Why a file could not be read as text, in words for a usage error."""


def read_text(path: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the file at `path`, or `UnreadableFile` saying why not.

    Refused: a file that cannot be opened or read, a directory, more than `limit`
    bytes, or bytes that are not UTF-8.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise UnreadableFile(_reason(exc)) from None
    try:
        data = _read(descriptor, limit)
    except OSError as exc:
        raise UnreadableFile(_reason(exc)) from None
    finally:
        os.close(descriptor)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(
            f"not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}); "
            "save it as UTF-8"
        ) from None


def _read(descriptor: int, limit: int) -> bytes:
    """At most `limit` bytes from `descriptor`, or `UnreadableFile` for more."""
    mode = os.fstat(descriptor).st_mode
    if stat.S_ISDIR(mode):
        raise UnreadableFile("it is a directory; name a file")
    too_large = UnreadableFile(
        f"larger than {limit // (1024 * 1024)} MiB; give fewer values"
    )
    if stat.S_ISREG(mode) and os.fstat(descriptor).st_size > limit:
        raise too_large
    if hasattr(os, "O_NONBLOCK"):
        # Opened without blocking (a FIFO with no writer ends at once); read blocking,
        # so a pipe whose writer has not written yet is waited for, not cut short.
        os.set_blocking(descriptor, True)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(descriptor, min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)


def _reason(exc: Exception) -> str:
    """An `OSError`'s reason without its errno and path (the caller names the file)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)
