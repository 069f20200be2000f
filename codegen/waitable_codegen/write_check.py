"""`--check`'s comparison of OUT_DIR, made without the lock a writer holds.

A check may run where it cannot create the lock file (a read-only checkout), so
it takes no lock; a generation into the same OUT_DIR may then swap a new package
in while the check reads the old one, whose files vanish as it is discarded. The
check notices the swap (OUT_DIR names another directory after the comparison than
before it, or none between the two renames of a portable swap; or a run into a
directory enclosing OUT_DIR holds its lock), waits for the writer to release its
lock, and compares again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from .errors import GenerationError
from .lock import enclosing_writer, wait_for_writer
from .staging import OutputSite
from .write import Changes, plan_changes

#: Comparisons before a check gives up on an OUT_DIR that keeps being replaced.
CHECK_ROUNDS = 8


def check_changes(
    out_dir: Path, files: Mapping[PurePosixPath, str], *, force: bool
) -> Changes:
    """`plan_changes` of one whole package: compared again when OUT_DIR was
    swapped (or was between the two renames of a portable swap) meanwhile.

    The comparison stands, answer or error, when OUT_DIR named the same directory
    before it, after it and after the look for a retired package; an error raised
    while a swap made files vanish under it is not the answer either."""
    site = OutputSite.of(out_dir)
    for _ in range(CHECK_ROUNDS):
        before = _identity(out_dir)
        try:
            changes, failure = plan_changes(out_dir, files, force=force), None
        except GenerationError as exc:
            changes, failure = None, exc
        after = _identity(out_dir)
        retired = _retired(site)
        stable = before == after == _identity(out_dir) and not enclosing_writer(site)
        if stable and (after is not None or not retired):
            return _answer(changes, failure)
        if not wait_for_writer(site) and stable:
            # No run under way: a killed one left the package retired (the next
            # generation puts it back); the comparison says what it found.
            return _answer(changes, failure)
    raise GenerationError(
        f"{out_dir}: was replaced by another generation {CHECK_ROUNDS} times while "
        "it was checked; run the check again when nothing else writes it"
    )


def _answer(changes: Changes | None, failure: GenerationError | None) -> Changes:
    if failure is not None:
        raise failure
    assert changes is not None
    return changes


def _identity(path: Path) -> tuple[int, int] | None:
    """The directory entry `path` names (device, inode); None when there is none."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _retired(site: OutputSite) -> bool:
    """True when the old package waits beside OUT_DIR (a portable swap under way,
    or one a kill interrupted, which the next generation completes)."""
    return os.path.lexists(site.parent / site.retired_name)
