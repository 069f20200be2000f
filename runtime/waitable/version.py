"""The runtime's version, and the import-time check generated packages make with it.

A generated package calls `require(minimum, __name__)` so an installed runtime
older than its generator needed fails at import with one line saying what to install.
"""

from __future__ import annotations

import re

__all__ = ["__version__", "require", "version_tuple"]

#: The release: runtime/pyproject.toml's `version` (a test keeps them equal).
#: Written here rather than read from the installed metadata, which would import
#: `importlib.metadata` and scan `sys.path` (about 15 ms) at every `import waitable`.
__version__ = "0.3.0"
_RELEASE = re.compile(r"(\d+(?:\.\d+)*)")


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
