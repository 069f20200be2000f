"""The README's SDK-build recipes, built for real: a hatchling build hook and a
setuptools `setup.py` that generate waiters while `pip wheel` builds the SDK."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from waitable_codegen import generate

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RECIPES = PROJECT_ROOT / "examples" / "sdk_build"
MODEL = PROJECT_ROOT / "examples" / "spec_examples.json"
GENERATED = ("__init__.py", "shapes.py", "waiters.py", "py.typed")


def build_wheel(recipe: str, work: Path, model: Path = MODEL) -> Path:
    """Copy the recipe with a model into `work`, build its wheel, return the wheel."""
    project = work / recipe
    shutil.copytree(RECIPES / recipe, project)
    shutil.copy(model, project / "model.json")
    return pip_wheel(project, work / "dist")


def pip_wheel(project: Path, dist: Path) -> Path:
    """`pip wheel` of `project` (no isolation: the suite's environment has the
    generator) into `dist`; the wheel."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
        + ["--no-cache-dir", "-q", "-w", str(dist), str(project)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("my_sdk-0.1.0-*.whl")
    return wheel


def waiter_members(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if "/waiters/" in name}


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


@pytest.mark.parametrize("recipe", ["hatch", "setuptools"])
def test_a_wheel_built_from_the_sdist_generates_the_waiters_again(
    recipe: str, tmp_path: Path
) -> None:
    """As `python -m build` does: the setuptools sdist had no `model.json`, so the
    wheel built from it failed ("model.json: no such file")."""
    project = tmp_path / recipe
    shutil.copytree(RECIPES / recipe, project)
    shutil.copy(MODEL, project / "model.json")
    script = (
        "import sys\n"
        f"from {'hatchling.build' if recipe == 'hatch' else 'setuptools.build_meta'} "
        "import build_sdist\n"
        "print(build_sdist(sys.argv[1]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "sdist")],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (archive,) = (tmp_path / "sdist").glob("my_sdk-0.1.0.tar.gz")
    with tarfile.open(archive) as sdist:
        sdist.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    assert (unpacked / "model.json").is_file()
    wheel = pip_wheel(unpacked, tmp_path / "dist")
    assert "my_sdk/waiters/waiters.py" in waiter_members(wheel)


def test_hatch_packs_the_waiters_even_when_git_ignores_them(tmp_path: Path) -> None:
    """Generated code is usually git-ignored, and hatchling leaves ignored files
    out of the wheel: it held only `my_sdk/__init__.py`."""
    project = tmp_path / "hatch"
    shutil.copytree(RECIPES / "hatch", project)
    shutil.copy(MODEL, project / "model.json")
    (project / ".gitignore").write_text("src/my_sdk/waiters/\n")
    wheel = pip_wheel(project, tmp_path / "dist")
    assert {f"my_sdk/waiters/{name}" for name in GENERATED} <= waiter_members(wheel)


@pytest.mark.parametrize("recipe", ["hatch", "setuptools"])
def test_a_model_with_several_services_packs_every_subpackage(
    recipe: str, tmp_path: Path
) -> None:
    """setuptools listed only `my_sdk.waiters`: the services' subpackages were left
    out, and `import my_sdk.waiters` failed."""
    model = tmp_path / "two.json"
    document = json.loads(MODEL.read_text())
    shapes = document["shapes"]
    waitable = sorted(
        shape_id
        for shape_id, shape in shapes.items()
        if "smithy.waiters#waitable" in shape.get("traits", {})
    )
    for name in ("Alpha", "Beta"):  # two services binding the same operations
        shapes[f"example.sdk#{name}"] = {
            "type": "service",
            "version": "2024-01-01",
            "operations": [{"target": shape_id} for shape_id in waitable],
        }
    model.write_text(json.dumps(document))
    wheel = build_wheel(recipe, tmp_path, model)
    members = waiter_members(wheel)
    subpackages = {name.split("/")[2] for name in members if name.count("/") == 3}
    assert len(subpackages) >= 2, sorted(members)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "installed")
    done = subprocess.run(
        [sys.executable, "-c", "import my_sdk.waiters"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path / "installed"), "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
