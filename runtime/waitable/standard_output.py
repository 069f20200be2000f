"""Lines for standard output from the command lines (`waitable`, `generate-waiters`)
that outlive a reader who stops reading: `... | head -1` ends the reading, not the
command, whose exit status is then still its own (a wait's, a generation's)."""

from __future__ import annotations

import os
import sys

__all__ = ["discard_standard_output", "echo_out"]


def echo_out(text: str, *, nl: bool = True) -> None:
    """`click.echo(text)` to standard output; once its reader has gone, this and
    every later line go nowhere instead of raising `BrokenPipeError`."""
    import click  # the command lines' dependency, not the runtime's

    try:
        click.echo(text, nl=nl)
    except BrokenPipeError:
        discard_standard_output()


def discard_standard_output() -> None:
    """Point standard output at the null device, so that neither later lines nor
    the flush at exit meet the closed pipe again."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    finally:
        os.close(null)
