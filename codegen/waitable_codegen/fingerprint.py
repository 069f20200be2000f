"""Fingerprints that let a regeneration with nothing changed skip all the work.

The fingerprint covers everything the output depends on: the model bytes and
names, the options, and the generator itself (its modules, its templates, the
black that formats its output).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version

from .locations import PACKAGE_DIR, templates_dir


def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


@functools.lru_cache(maxsize=1)
def generator_fingerprint() -> str:
    """A digest of the generator's code, templates and formatter version."""
    sha = hashlib.sha256()
    for label, root, pattern in (
        ("code", PACKAGE_DIR, "*.py"),
        ("template", templates_dir(), "*.jinja"),
    ):
        for path in sorted(root.rglob(pattern)):
            sha.update(f"{label}:{path.relative_to(root).as_posix()}\0".encode())
            sha.update(path.read_bytes())
            sha.update(b"\0")
    for distribution in ("black", "jinja2"):
        sha.update(f"{distribution}={_version(distribution)}\0".encode())
    return sha.hexdigest()


def inputs_fingerprint(
    inputs: Sequence[tuple[str, bytes]], options: Mapping[str, object]
) -> str:
    """A digest of the model files (name and bytes), the options and the generator."""
    sha = hashlib.sha256(generator_fingerprint().encode())
    for key in sorted(options):
        sha.update(f"option:{key}={options[key]!r}\0".encode())
    for name, data in inputs:
        sha.update(f"model:{name}:{len(data)}\0".encode())
        sha.update(data)
    return sha.hexdigest()
