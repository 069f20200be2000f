"""The README's SDK-build recipes, built for real: a hatchling build hook and a
setuptools `setup.py` that generate waiters while `pip wheel` builds the SDK."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from waitable_codegen import generate

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RECIPES = PROJECT_ROOT / "examples" / "sdk_build"
MODEL = PROJECT_ROOT / "examples" / "spec_examples.json"
GENERATED = ("__init__.py", "shapes.py", "waiters.py", "py.typed")


def build_wheel(recipe: str, work: Path) -> Path:
    """Copy the recipe with a model into `work`, build its wheel, return the wheel."""
    project = work / recipe
    shutil.copytree(RECIPES / recipe, project)
    shutil.copy(MODEL, project / "model.json")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
        + ["--no-cache-dir", "-q", "-w", str(work / "dist"), str(project)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (work / "dist").glob("my_sdk-0.1.0-*.whl")
    return wheel


@pytest.mark.parametrize("recipe", ["hatch", "setuptools"])
def test_the_wheel_holds_the_waiters_generated_from_the_model(
    recipe: str, tmp_path: Path
) -> None:
    wheel = build_wheel(recipe, tmp_path)
    expected = tmp_path / "expected"
    shutil.copy(MODEL, tmp_path / "model.json")
    generate([str(tmp_path / "model.json")], str(expected))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name in GENERATED:
            member = f"my_sdk/waiters/{name}"
            assert member in names, sorted(names)
            # Exactly what generate-waiters writes from the same model.
            assert archive.read(member) == (expected / name).read_bytes(), member
        archive.extractall(tmp_path / "installed")
    # The built SDK's waiters import and wait (on a virtual clock, no sleeping).
    script = (
        "from waitable.testing import VirtualClock\n"
        "from my_sdk.waiters import ThingExistsWaiter\n"
        "answers = iter([{'status': 'pending'}, {'status': 'success'}])\n"
        "def get_thing(input):\n"
        "    return next(answers)\n"
        "waiter = ThingExistsWaiter(get_thing, clock=VirtualClock())\n"
        "result = waiter.wait({'name': 'x'}, max_wait_time=60)\n"
        "print(result.waiter, result.state.value, result.attempts)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path / "installed"), "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ThingExists success 2"
