"""The manifest `.generate-waiters.json`: what the last generation wrote, and hashes.

Its content is untrusted (anyone who can write OUT_DIR can write it): a manifest
of the wrong shape, or naming a path that is absolute, holds `..` or is not plain
is treated as no manifest at all, so it can never point the writer elsewhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from .staging import NAME_MAX
from .version import MINIMUM_RUNTIME, __version__

MANIFEST_NAME = ".generate-waiters.json"
GENERATOR = "generate-waiters"
MANIFEST_LIMIT = 8 * 1024 * 1024
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")
_EVENT_FIELDS = ("severity", "shape_id", "event_id", "message")
_NAME_LIMIT = 1024


def digest(data: bytes) -> str:
    """The sha256 hex digest the manifest records for a file."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Manifest:
    """A generation as recorded in OUT_DIR: its inputs' fingerprint, each file's
    digest by relative path, the validation events to replay, the waiter count."""

    fingerprint: str
    files: Mapping[PurePosixPath, str]
    events: tuple[Mapping[str, str], ...] = ()
    waiters: int = 0

    def to_bytes(self) -> bytes:
        """The manifest file's bytes (sorted keys, so a rerun gives the same bytes),
        with the generator's version and the oldest runtime its code runs on."""
        document = {
            "generator": GENERATOR,
            "generator_version": __version__,
            "minimum_runtime": MINIMUM_RUNTIME,
            "fingerprint": self.fingerprint,
            "files": {str(path): sha for path, sha in sorted(self.files.items())},
            "events": [dict(event) for event in self.events],
            "waiters": self.waiters,
        }
        return (json.dumps(document, indent=1, sort_keys=True) + "\n").encode()


def safe_relative(name: object) -> PurePosixPath | None:
    """`name` as a plain relative path inside OUT_DIR, or None when it is not one
    (absolute, `..`, `.`, empty parts, backslashes, NUL, the manifest itself)."""
    if not isinstance(name, str) or not name or len(name) > _NAME_LIMIT:
        return None
    if "\\" in name or "\0" in name or name.startswith("/"):
        return None
    parts = name.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    try:  # a name no file can have (a lone surrogate, a part past NAME_MAX bytes)
        if any(len(os.fsencode(part)) > NAME_MAX for part in parts):
            return None
    except UnicodeEncodeError:
        return None
    if name == MANIFEST_NAME:
        return None
    return PurePosixPath(name)


def parse_manifest(data: bytes) -> Manifest | None:
    """The manifest these bytes hold, or None when they are not a valid one."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or document.get("generator") != GENERATOR:
        return None
    fingerprint = document.get("fingerprint")
    files = _files(document.get("files"))
    events = _events(document.get("events", []))
    waiters = document.get("waiters", 0)
    if not isinstance(fingerprint, str) or files is None or events is None:
        return None
    if not isinstance(waiters, int) or isinstance(waiters, bool) or waiters < 0:
        return None
    return Manifest(fingerprint, files, events, waiters)


def _files(value: object) -> dict[PurePosixPath, str] | None:
    if not isinstance(value, dict):
        return None
    files: dict[PurePosixPath, str] = {}
    for name, sha in value.items():
        relative = safe_relative(name)
        if relative is None or not isinstance(sha, str) or not _DIGEST.match(sha):
            return None
        files[relative] = sha
    return files


def _events(value: object) -> tuple[Mapping[str, str], ...] | None:
    if not isinstance(value, list):
        return None
    events: list[Mapping[str, str]] = []
    for event in value:
        if not isinstance(event, dict) or sorted(event) != sorted(_EVENT_FIELDS):
            return None
        if not all(isinstance(event[key], str) for key in _EVENT_FIELDS):
            return None
        if event["severity"] == "ERROR":  # a run that met one wrote nothing
            return None
        events.append({key: event[key] for key in _EVENT_FIELDS})
    return tuple(events)


def new_manifest(
    fingerprint: str,
    files: Mapping[PurePosixPath, str],
    events: Sequence[Mapping[str, str]],
    waiters: int,
) -> Manifest:
    """The manifest of a generation writing `files` (relative path → text)."""
    digests = {path: digest(text.encode("utf-8")) for path, text in files.items()}
    return Manifest(fingerprint, digests, tuple(events), waiters)
