"""The `waitable` console script; it needs click, which `pip install 'waitable[simulate]'`
brings (`waitable[cli]` also brings boto3, for `waitable wait`)."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Run `waitable` (`simulate`, `wait`), or say how to install click when it is missing."""
    try:
        import click  # noqa: F401
    except ImportError:
        sys.stderr.write(
            "waitable: the command line needs click; install it with "
            "pip install 'waitable[simulate]' (or 'waitable[cli]' for waitable wait; "
            "from a clone of the project, pip install './runtime[simulate]')\n"
        )
        raise SystemExit(2) from None
    from .commands import waitable

    waitable()
