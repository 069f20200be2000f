"""The shared corpora beside the project (`../shared`), or one clear skip without them.

A fresh clone has no `../shared`: `shared_path` skips the test, fixture or module
asking for a missing file with one reason naming it; `has_shared` asks without
skipping (for lists built while a module is collected).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED = PROJECT_ROOT.parent / "shared"


def missing_reason(*parts: str) -> str:
    """The one skip reason for a missing shared corpus file or folder."""
    name = "/".join(("..", "shared", *parts))
    return f"needs {name} beside the clone (the shared corpora); not found"


def has_shared(*parts: str) -> bool:
    """True when `../shared/<parts>` exists."""
    return SHARED.joinpath(*parts).exists()


def shared_path(*parts: str) -> Path:
    """`../shared/<parts>`, or skip what asked for it (a test, a fixture, or the
    module being collected) with `missing_reason`."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(missing_reason(*parts), allow_module_level=True)
    return path


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """A mark skipping a test with `missing_reason` when `../shared/<parts>` is
    missing (for tests parametrized over a corpus, which would otherwise report an
    empty parameter set)."""
    return pytest.mark.skipif(not has_shared(*parts), reason=missing_reason(*parts))


def missing_shared_file(error: BaseException | None) -> tuple[str, ...] | None:
    """The parts under ../shared of a file a FileNotFoundError (or its causes)
    names, when the corpus it belongs to (`../shared/<a>/<b>`) is missing; None
    for any other error. A file missing inside a corpus that is there is a
    failure: a path the code under test made up, not a clone without corpora.
    The context a `raise ... from None` hides is followed too (the model loader
    reports a missing file that way)."""
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, FileNotFoundError) and error.filename:
            path = Path(os.fsdecode(error.filename)).absolute()
            if path.is_relative_to(SHARED):
                parts = path.relative_to(SHARED).parts
                if not SHARED.joinpath(*parts[:2]).exists():
                    return parts
                return None
        error = error.__cause__ or error.__context__
        seen += 1
    return None
