"""Fingerprints that let a regeneration with nothing changed skip all the work.

The fingerprint covers everything the output depends on: the model bytes and
names, the options, and the generator itself (its modules, its templates, the
black that formats its output, the Python and Unicode versions it runs with).
"""

from __future__ import annotations

import functools
import hashlib
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from importlib.metadata import PackageNotFoundError, version

from .locations import PACKAGE_DIR, templates_dir
from .workers import worker_pool


def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


@functools.lru_cache(maxsize=1)
def generator_fingerprint() -> str:
    """A digest of the generator's code, templates and formatter version, and of the
    runtime's code, which the generator uses to write (escapes, the paths' reads)
    and may be upgraded alone: a new runtime must not leave a package unrepaired;
    and of the interpreter's versions (`_interpreter`)."""
    import waitable

    sha = hashlib.sha256()
    for label, root, pattern in (
        ("code", PACKAGE_DIR, "*.py"),
        ("template", templates_dir(), "*.jinja"),
        ("runtime", Path(waitable.__file__).resolve().parent, "*.py"),
    ):
        for path in sorted(root.rglob(pattern)):
            sha.update(f"{label}:{path.relative_to(root).as_posix()}\0".encode())
            sha.update(path.read_bytes())
            sha.update(b"\0")
    for distribution in ("black", "jinja2"):
        sha.update(f"{distribution}={_version(distribution)}\0".encode())
    sha.update(_interpreter().encode())
    return sha.hexdigest()


def _interpreter() -> str:
    """The Python version and its Unicode database's: which characters a literal
    escapes (`str.isprintable`) and how documentation HTML reads follow them, so a
    package written on 3.12 is not the one 3.11 writes, and a run on 3.11 must not
    take it for current (`--check` there, which renders, called it stale)."""
    return (
        f"python={sys.version_info[0]}.{sys.version_info[1]}\0"
        f"unicode={unicodedata.unidata_version}\0"
    )


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


def fingerprint_aside(
    inputs: Sequence[tuple[str, bytes]], options: Mapping[str, object], *, aside: bool
) -> Callable[[], str]:
    """`inputs_fingerprint` as a function that returns it; with `aside`, computed on
    a worker thread while the caller goes on (the function waits for it). For a
    cold generation, which needs the digest only for the manifest it writes last:
    hashing the model bytes releases the GIL, so it takes no time from loading and
    planning them."""
    if aside:
        generator_fingerprint()  # reads the generator's files: here, once
        try:
            return worker_pool().submit(inputs_fingerprint, inputs, options).result
        except RuntimeError:  # no thread can be started (or the pool shuts down)
            pass
    digest = inputs_fingerprint(inputs, options)
    return lambda: digest
