"""Generation speed on the whole shared corpus, as ratios to a plain `json.load`.

    python benchmarks/bench_generate.py [--repeat N]

Three timings over the 64 model files of `../shared/models`, in one process
(imports done before timing):

- `json.load` of every file: the floor any generator has to pay;
- cold generation: every model generated into an empty directory (load, validate,
  plan, render, black, write);
- no-op regeneration: the same again with nothing changed, which a build step
  pays on every build (the manifest's fingerprint matches, nothing is parsed).

Each is the best of N runs (cold: one run per fresh directory).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from waitable_codegen import generate, render

PROJECT_ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted((PROJECT_ROOT.parent / "shared" / "models").glob("*/*.json"))


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of `repeat` timed runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def load_all() -> None:
    for path in MODELS:
        with path.open("rb") as handle:
            json.load(handle)


def generate_all(root: Path) -> int:
    render.clear_caches()  # nothing remembered from an earlier run
    waiters = 0
    for index, path in enumerate(MODELS):
        waiters += generate(path, root / f"pkg{index}").waiters
    return waiters


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    baseline = best_of(repeat, load_all)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        waiters = generate_all(root / "warmup")  # imports, template compilation
        cold = best_of(repeat, lambda: generate_all(Path(tempfile.mkdtemp(dir=root))))
        noop = best_of(repeat, lambda: generate_all(root / "warmup"))
    print(f"{len(MODELS)} model files, {waiters} waiters")
    print(f"json.load of every file      {baseline:8.3f} s   1.00x")
    print(f"cold generation              {cold:8.3f} s  {cold / baseline:5.2f}x")
    print(f"no-op regeneration           {noop:8.3f} s  {noop / baseline:5.2f}x")


if __name__ == "__main__":
    main()
