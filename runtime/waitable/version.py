"""The runtime's version, and the import-time check generated packages make with it.

A generated package calls `require(minimum, __name__)` so an installed runtime
older than its generator needed fails at import with one line saying what to install.
"""

from __future__ import annotations

import re
from importlib import metadata

__all__ = ["__version__", "require", "version_tuple"]

_DISTRIBUTION = "waitable"
_SOURCE_CHECKOUT = "0.3.0"  # a checkout on sys.path without installed metadata
_RELEASE = re.compile(r"(\d+(?:\.\d+)*)")


def _installed_version() -> str:
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _SOURCE_CHECKOUT


__version__ = _installed_version()


def version_tuple(version: str) -> tuple[int, ...]:
    """The release numbers a version starts with (`"0.2.0rc1"` → `(0, 2, 0)`),
    zero-padded to three; a version with no leading number is `(0, 0, 0)`."""
    match = _RELEASE.match(version.strip())
    numbers = [int(part) for part in match.group(1).split(".")] if match else []
    numbers += [0] * (3 - len(numbers))
    return tuple(numbers)


def require(minimum: str, package: str) -> None:
    """Raise ImportError (one line) when the installed runtime is older than
    `minimum`, the version the generated `package` was generated for."""
    import waitable

    installed = str(getattr(waitable, "__version__", __version__))
    if version_tuple(installed) >= version_tuple(minimum):
        return
    raise ImportError(
        f"package {package} was generated for waitable >= {minimum} but waitable "
        f"{installed} is installed; run pip install 'waitable>={minimum}'"
    )
