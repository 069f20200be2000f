"""Generate `my_sdk.waiters` from `model.json` before hatchling collects the wheel's files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """hatchling's custom hook: `initialize` runs before each build target."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from waitable_codegen import generate

        root = Path(self.root)
        generate([str(root / "model.json")], str(root / "src" / "my_sdk" / "waiters"))
        # Generated files are usually git-ignored, and hatchling leaves ignored
        # files out of the wheel unless they are named as artifacts.
        build_data["artifacts"].append("/src/my_sdk/waiters")
