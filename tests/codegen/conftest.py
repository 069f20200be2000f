"""Fixtures for the generator's tests."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def import_package() -> Iterator[Callable[[Path], ModuleType]]:
    """Import a generated package from its directory; forget it afterwards."""
    added: list[tuple[str, str]] = []

    def load(package_dir: Path) -> ModuleType:
        root, name = str(package_dir.parent), package_dir.name
        sys.path.insert(0, root)
        added.append((root, name))
        importlib.invalidate_caches()
        return importlib.import_module(name)

    yield load
    for root, name in added:
        sys.path.remove(root)
        for module in [m for m in sys.modules if m.split(".")[0] == name]:
            del sys.modules[module]
