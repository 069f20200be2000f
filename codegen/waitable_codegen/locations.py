"""Where the generator's own files are (kept light: the no-op path imports it)."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """Where the templates are: inside the package (wheel) or at the repo root
    (editable install, where `templates/` sits next to `codegen/`)."""
    shipped = PACKAGE_DIR / "templates"
    if shipped.is_dir():
        return shipped
    return PACKAGE_DIR.parents[1] / "templates"
