"""The generator's version, and the oldest runtime the code it writes runs on.

Both are recorded in every generated file's header and in the manifest; the
generated `__init__.py` checks `MINIMUM_RUNTIME` at import.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["MINIMUM_RUNTIME", "__version__", "runtime_version"]

_DISTRIBUTION = "waitable-codegen"
_SOURCE_CHECKOUT = "0.3.0"  # a checkout on sys.path without installed metadata

MINIMUM_RUNTIME = "0.3.0"


def _installed_version() -> str:
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _SOURCE_CHECKOUT


__version__ = _installed_version()


def runtime_version() -> str:
    """The installed waitable runtime's version, or "not installed"."""
    try:
        return metadata.version("waitable")
    except metadata.PackageNotFoundError:
        return "not installed"
