"""Generation speed and memory on the AWS models, as ratios to a plain `json.load`.

    python benchmarks/bench_generate.py [--repeat N]

Over the 57 model files of `../shared/models/api-models-aws`, in one process
(imports done before timing), each the best of N runs:

- `json.load` of every file: the floor any generator has to pay;
- cold generation: every model generated into an empty directory (load, validate,
  plan, render, write), output already in black's layout, each round forgetting
  what the process learned in earlier ones (settled functions, the ids found
  valid, the expressions jmespath parsed), as a fresh process would; generation loads only
  the shapes its waiters and services reach, and every file it writes is synced
  to disk before the package is swapped in. Then the same models generated in
  one run (one call, one package with a subpackage per service, as a build step
  that regenerates all its services makes it): one lock, one staging directory
  and one round of syncs instead of 57. And the cold generation again with
  `os.fsync` made a no-op (which the generator offers no way to do): the
  difference is what waiting for the disk costs, two rounds of syncs per package
  (its files and directories, then OUT_DIR's parent after the swap);
- the same with black: every file and compiled function formatted by black, as
  the generator did before it wrote black's layout itself (same bytes);
- no-op regeneration: the same again with nothing changed, which a build step
  pays on every build (the manifest's fingerprint matches, nothing is parsed).

Cold generation is also given in CPU time (all threads, kernel time included),
against `json.load`'s CPU time: on a shared machine it moves far less than the
wall clock. Each `json.load` round runs in a fresh process that does nothing
else (as a program that only reads the models would), and the rounds alternate
with the cold generations, so a machine that speeds up or slows down during the
run moves both alike.

What the file system alone charges is timed before and after the cold rounds
and printed: the entries a cold generation of a package creates (its lock file
beside it, the staging directory and five files in it), made empty for each of
the 57 packages, in milliseconds and as a share of the cold round. On ext4 without
a journal this moves with the disk's history, not with the generator: creating a
file scans past the inodes deleted in the last minutes (`recently_deleted` in the
kernel), and on the machine of the README's figures a create in a new directory
took from ~10 us to ~0.6 ms depending on the directory it was made under (each
package is a new directory, so a probe that creates many files in one directory
finds the cheap case and misses what the packages pay).

The packages are written under `build/bench-generate/` in the project (where a
build step writes its output), not in the system's temporary directory: on the
machine the README's figures come from, creating a file in a new directory under
`/tmp` took ~370 us against ~20 us elsewhere on the same disk, which would time
that file system rather than the generator. `--scratch DIR` picks another place.

Then the peak memory (max RSS) of a fresh process generating the AWS models in
one run (one subpackage per service), against a fresh process that only
`json.load`s them and keeps them, and how many files or functions fell back to
black (the goal is none).

`--instructions` prints instead the user-space instructions (valgrind's callgrind,
`PYTHONHASHSEED=0`) of one cold generation, a package per model, against one
`json.load` of the same files: each the count of a process doing two rounds less
that of one doing one, so imports and start-up cancel out. Unlike time, the count
does not move with the machine; it leaves out the kernel's work (creating and
syncing files) and how fast the processor runs the instructions.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import jmespath.parser

from waitable_codegen import generate, render
from waitable_codegen.model.shape_ids import (
    KNOWN_IDENTIFIERS,
    KNOWN_MEMBER_IDS,
    KNOWN_SHAPE_IDS,
)

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_MODELS = PROJECT_ROOT.parent / "shared" / "models"
MODELS = sorted((SHARED_MODELS / "api-models-aws").glob("*.json"))

_LOAD = """
import json, sys, time
from pathlib import Path
models = sorted(Path(sys.argv[1]).glob("*.json"))
start, cpu = time.perf_counter(), time.process_time()
for path in models:
    with path.open("rb") as handle:
        json.load(handle)
print(time.perf_counter() - start, time.process_time() - cpu)
"""

_PEAK = """
import json, resource, sys, tempfile
from pathlib import Path
models = sorted(Path(sys.argv[2]).glob("*.json"))
if sys.argv[1] == "load":
    kept = []
    for path in models:
        with path.open("rb") as handle:
            kept.append(json.load(handle))
else:
    from waitable_codegen import generate
    with tempfile.TemporaryDirectory() as scratch:
        generate(models, Path(scratch) / "pkg")
try:  # this process's own high-water mark: ru_maxrss starts at the parent's RSS
    status = Path("/proc/self/status").read_text()
    print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
except (OSError, StopIteration):
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of `repeat` timed runs, in seconds."""
    return best_times(repeat, run)[0]


def best_times(repeat: int, run: Callable[[], object]) -> tuple[float, float]:
    """The fastest of `repeat` runs in wall-clock seconds, and the least CPU time
    (every thread of the process, the kernel's work for it included): on a
    shared machine the CPU time moves far less than the wall clock."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def load_in_fresh_process() -> tuple[float, float]:
    """Wall and CPU seconds of `json.load` of every file, in a new process."""
    done = subprocess.run(
        [sys.executable, "-c", _LOAD, str(SHARED_MODELS / "api-models-aws")],
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


PACKAGE_FILES = 5
"""Files a cold generation of one AWS model writes into its staging directory:
`__init__.py`, `waiters.py`, `shapes.py`, `py.typed` and the manifest."""


def package_entries_ms(directory: Path, packages: int = len(MODELS)) -> float:
    """Milliseconds to create, for each of `packages`, what a cold generation of
    one creates on disk, empty: a lock file, and a new directory holding
    `PACKAGE_FILES` files (left for the caller's cleanup: removing them here
    would slow the creations that follow, see the module docstring)."""
    root = Path(tempfile.mkdtemp(dir=directory))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    start = time.perf_counter()
    for package in range(packages):
        os.close(os.open(root / f".pkg{package}.lock", flags, 0o644))
        folder = root / f"pkg{package}"
        folder.mkdir()
        for index in range(PACKAGE_FILES):
            os.close(os.open(folder / f"f{index}", flags, 0o644))
    return (time.perf_counter() - start) * 1e3


def forget_earlier_runs() -> None:
    """Forget what a fresh process would not know: the settled functions, the
    shape ids and names already found valid, and the expressions the jmespath
    package has parsed (each round is timed as a cold start)."""
    render.clear_caches()
    for known in (KNOWN_SHAPE_IDS, KNOWN_MEMBER_IDS, KNOWN_IDENTIFIERS):
        known.clear()
    jmespath.parser.Parser.purge()


def generate_all(root: Path) -> int:
    """Generate every model into its own package under `root`; the waiter count."""
    forget_earlier_runs()  # nothing remembered from an earlier run
    waiters = 0
    for index, path in enumerate(MODELS):
        waiters += generate(path, root / f"pkg{index}").waiters
    return waiters


def generate_in_one_run(root: Path) -> int:
    """Generate every model in one call: one package at `root`, a subpackage per
    service (as a build step regenerating all its services does); the waiter count."""
    forget_earlier_runs()
    return generate(MODELS, root).waiters


def generate_all_unsynced(root: Path) -> int:
    """`generate_all` with `os.fsync` a no-op: the same work but for the disk's
    waits (the generator has no such option; this prices its durability)."""
    return _generate_all_with(os, "fsync", lambda descriptor: None, root)


def generate_all_with_black(root: Path) -> int:
    """`generate_all` with every file and function formatted by black."""
    return _generate_all_with(render, "certainly_stable", lambda source: False, root)


def _generate_all_with(owner: object, name: str, stand_in: object, root: Path) -> int:
    """`generate_all` with `owner.name` replaced by `stand_in` (restored after)."""
    original = getattr(owner, name)
    setattr(owner, name, stand_in)
    try:
        return generate_all(root)
    finally:
        setattr(owner, name, original)


_ROUNDS = """
import json, sys, tempfile
from pathlib import Path
mode, rounds, bench_dir, scratch = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sys.path.insert(0, bench_dir)
import bench_generate as bench
if mode == "load":
    for _ in range(rounds):
        for path in bench.MODELS:
            with path.open("rb") as handle:
                json.load(handle)
else:
    bench.generate_all(Path(tempfile.mkdtemp(dir=scratch)))  # imports, templates
    for _ in range(rounds):
        bench.generate_all(Path(tempfile.mkdtemp(dir=scratch)))
"""


def collected_instructions(callgrind_output: str) -> int:
    """The instruction count in callgrind's report (`Collected : N`)."""
    found = re.search(r"Collected\s*:\s*(\d+)", callgrind_output)
    if found is None:
        raise RuntimeError(
            "callgrind printed no instruction count:\n" + callgrind_output[-2000:]
        )
    return int(found.group(1))


def instructions_per_round(mode: str, scratch: Path) -> int:
    """Instructions of one round of `mode` (`load` or `generate`): two rounds less
    one, each in a fresh process under callgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit(
            "--instructions needs valgrind (Debian: apt-get install valgrind)"
        )
    counts = []
    for rounds in (1, 2):
        done = subprocess.run(
            [
                valgrind,
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                "-c",
                _ROUNDS,
                mode,
                str(rounds),
                str(Path(__file__).resolve().parent),
                str(scratch),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        counts.append(collected_instructions(done.stderr))
    return counts[1] - counts[0]


def print_instructions(scratch: Path) -> None:
    """`--instructions`: cold generation against json.load, in instructions."""
    with tempfile.TemporaryDirectory(dir=scratch) as room:
        load = instructions_per_round("load", Path(room))
        cold = instructions_per_round("generate", Path(room))
    print(f"{len(MODELS)} AWS model files, instructions (callgrind, user space)")
    print(f"json.load of every file      {load / 1e6:8.0f}M  1.00x")
    print(f"cold generation              {cold / 1e6:8.0f}M  {cold / load:5.2f}x")


def peak_kib(mode: str) -> int:
    """Max RSS (KiB) of a fresh process that `load`s every AWS model (and keeps
    them) or generates them all in one run (`generate`). Read from the child's
    `VmHWM` on Linux: its `ru_maxrss` counts the RSS of the process it was started
    from (Linux carries the high-water mark across fork and exec), so a benchmark
    process larger than either child made both figures equal."""
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, mode, str(SHARED_MODELS / "api-models-aws")],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1])


def main() -> None:
    """Print the timings, the peak memory and the fallback count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--scratch",
        type=Path,
        default=PROJECT_ROOT / "build" / "bench-generate",
        help="where the generated packages go (removed afterwards)",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions with valgrind instead of timing (see above)",
    )
    args = parser.parse_args()
    repeat = args.repeat
    args.scratch.mkdir(parents=True, exist_ok=True)
    if args.instructions:
        print_instructions(args.scratch)
        return
    with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
        root = Path(scratch)
        waiters = generate_all(root / "warmup")  # imports, template compilation
        before = render.stats.fallbacks
        create_before = package_entries_ms(root)
        generate_in_one_run(root / "one-run-warmup")
        loads, colds, ones, unsynced = [], [], [], []
        for _ in range(repeat):  # alternating: the machine's drift moves all alike
            loads.append(load_in_fresh_process())
            colds.append(
                best_times(1, lambda: generate_all(Path(tempfile.mkdtemp(dir=root))))
            )
            unsynced.append(
                best_times(
                    1, lambda: generate_all_unsynced(Path(tempfile.mkdtemp(dir=root)))
                )
            )
            ones.append(
                best_times(
                    1, lambda: generate_in_one_run(Path(tempfile.mkdtemp(dir=root)))
                )
            )
        create_after = package_entries_ms(root)
        baseline, baseline_cpu = (min(times) for times in zip(*loads))
        cold, cold_cpu = (min(times) for times in zip(*colds))
        one, one_cpu = (min(times) for times in zip(*ones))
        bare, bare_cpu = (min(times) for times in zip(*unsynced))
        fallbacks = render.stats.fallbacks - before
        generate_all_with_black(root / "black-warmup")  # black's own imports
        with_black = best_of(
            repeat, lambda: generate_all_with_black(Path(tempfile.mkdtemp(dir=root)))
        )
        noop = best_of(repeat, lambda: generate_all(root / "warmup"))
    load_peak, generate_peak = peak_kib("load"), peak_kib("generate")
    print(
        f"{len(MODELS)} AWS model files, {waiters} waiters, written under {args.scratch}"
    )
    print(f"json.load of every file      {baseline:8.3f} s   1.00x")
    print(f"cold generation              {cold:8.3f} s  {cold / baseline:5.2f}x")
    print(
        f"  the same in CPU time       {cold_cpu:8.3f} s  "
        f"{cold_cpu / baseline_cpu:5.2f}x json.load's {baseline_cpu:.3f} s"
    )
    print(
        f"  the same without fsync     {bare:8.3f} s  {bare / baseline:5.2f}x "
        f"({bare_cpu / baseline_cpu:.2f}x in CPU time): the disk's waits"
    )
    print(f"  all 57 in one run          {one:8.3f} s  {one / baseline:5.2f}x")
    print(
        f"  the same in CPU time       {one_cpu:8.3f} s  "
        f"{one_cpu / baseline_cpu:5.2f}x json.load's {baseline_cpu:.3f} s"
    )
    print(
        f"cold generation with black   {with_black:8.3f} s  "
        f"{with_black / baseline:5.2f}x"
    )
    print(f"no-op regeneration           {noop:8.3f} s  {noop / baseline:5.2f}x")
    print(f"black fallbacks (cold runs)  {fallbacks:8d}")
    print(
        f"the file system alone: the entries of {len(MODELS)} packages, created "
        f"empty, took {create_before:.1f} ms before the cold rounds and "
        f"{create_after:.1f} ms after ({create_after / (cold * 1e3):.0%} of the "
        "cold round)"
    )
    print("peak memory, every AWS model in one run (max RSS, fresh process):")
    print(f"  json.load only             {load_peak / 1024:8.1f} MiB  1.00x")
    print(
        f"  generation                 {generate_peak / 1024:8.1f} MiB  "
        f"{generate_peak / load_peak:5.2f}x"
    )


if __name__ == "__main__":
    main()
