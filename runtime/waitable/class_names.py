"""Exception classes recognised by their name and top-level package, never imported.

The runtime reads botocore's, aiohttp's, smithy-core's and awscrt's exceptions
without depending on those packages. A client's class is not trusted: one whose
`__module__` is not a string (or cannot be read) belongs to no package.
"""

from __future__ import annotations

__all__ = ["class_package"]


def class_package(klass: type) -> str | None:
    """The top-level package `klass` was defined in (`botocore` for
    `botocore.exceptions.X`); None when its `__module__` is not a string."""
    try:
        module = klass.__module__
    except Exception:
        return None
    return module.partition(".")[0] if type(module) is str else None
