"""Generate `my_sdk.waiters` from `model.json` before setuptools looks at the packages.

Every setuptools step (metadata, build_py, sdist) checks that the listed package
directories exist, so the waiters are generated when this file runs, first; when
nothing changed, generation compares the model's fingerprint with the manifest and
writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from waitable_codegen import generate

ROOT = Path(__file__).resolve().parent
generate([str(ROOT / "model.json")], str(ROOT / "src" / "my_sdk" / "waiters"))
setup()
