"""The runtime version check a generated `__init__.py` runs at import.

An installed runtime older than `MINIMUM_RUNTIME` fails the import with one line
naming the version to install, instead of a later AttributeError deep in a wait.
"""

from __future__ import annotations

from functools import cache

from ..literals import Source, compose, escaped, string_literal
from ..version import MINIMUM_RUNTIME


@cache
def runtime_check() -> Source:
    """The check's statements, for `MINIMUM_RUNTIME` (laid out as black does)."""
    minimum = escaped(MINIMUM_RUNTIME)
    return compose(
        """try:
    from waitable.version import require as _require
except ImportError:  # a runtime older than 0.2.0 has no version check
    raise ImportError(
        f"package {{__name__}} was generated for waitable >= {} but an older "
        "waitable is installed; run pip install 'waitable>={}'"
    ) from None

_require({}, __name__)""",
        minimum,
        minimum,
        string_literal(MINIMUM_RUNTIME),
    )
