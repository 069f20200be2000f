"""The generation benchmark compares like with like: its black pipeline writes the
same bytes as the direct one, and its baseline and file-creation probe run."""

from __future__ import annotations

from pathlib import Path

import pytest

from waitable_codegen import generate, render

from .helpers import AWS_MODELS, benchmark_module

bench = benchmark_module("bench_generate")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_the_black_pipeline_writes_the_same_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    smallest = sorted(AWS_MODELS.glob("*.json"), key=lambda path: path.stat().st_size)
    monkeypatch.setattr(bench, "MODELS", smallest[:3])
    certain = render.certainly_stable
    direct = bench.generate_all(tmp_path / "direct")
    with_black = bench.generate_all_with_black(tmp_path / "black")
    assert render.certainly_stable is certain  # restored
    assert direct == with_black > 0
    assert _tree(tmp_path / "direct") == _tree(tmp_path / "black")


def test_a_round_forgets_the_ids_an_earlier_round_found_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold round pays for checking every id again, as a fresh process does."""
    from waitable_codegen.model import shape_ids

    smallest = sorted(AWS_MODELS.glob("*.json"), key=lambda path: path.stat().st_size)
    monkeypatch.setattr(bench, "MODELS", smallest[:1])
    bench.generate_all(tmp_path / "first")
    assert shape_ids.KNOWN_SHAPE_IDS and shape_ids.KNOWN_IDENTIFIERS
    bench.forget_earlier_runs()
    assert not shape_ids.KNOWN_SHAPE_IDS and not shape_ids.KNOWN_IDENTIFIERS
    assert not shape_ids.KNOWN_MEMBER_IDS


def test_the_baseline_loads_every_model_in_a_fresh_process() -> None:
    wall, cpu = bench.load_in_fresh_process()
    assert wall > 0 and cpu > 0


def test_the_file_system_probe_creates_what_the_packages_create(
    tmp_path: Path,
) -> None:
    """A lock file and a directory of five files per package, like a cold
    generation of one AWS model; left for the cleanup."""
    assert bench.package_entries_ms(tmp_path, packages=3) > 0
    (root,) = tmp_path.iterdir()
    names = sorted(entry.name for entry in root.iterdir())
    assert names == [".pkg0.lock", ".pkg1.lock", ".pkg2.lock", "pkg0", "pkg1", "pkg2"]
    assert all(len(list((root / f"pkg{n}").iterdir())) == 5 for n in range(3))


def test_one_run_generates_the_same_waiters_into_one_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All the models in one call: one package, a subpackage per service, each
    waiter module the same as the one the per-model run writes."""
    smallest = sorted(AWS_MODELS.glob("*.json"), key=lambda path: path.stat().st_size)
    monkeypatch.setattr(bench, "MODELS", smallest[:3])
    per_model = bench.generate_all(tmp_path / "each")
    assert bench.generate_in_one_run(tmp_path / "one") == per_model > 0
    subpackages = [path for path in (tmp_path / "one").iterdir() if path.is_dir()]
    assert len(subpackages) == 3
    for index in range(3):
        waiters = _tree(tmp_path / "each" / f"pkg{index}")["waiters.py"]
        assert any(
            (package / "waiters.py").read_bytes() == waiters for package in subpackages
        )


def test_the_peak_is_the_child_s_own_not_the_parent_s() -> None:
    """A parent holding far more than the child: the child's peak stays small
    (its ru_maxrss would report the parent's size)."""
    ballast = bytearray(300 * 1024 * 1024)
    ballast[::4096] = b"x" * len(ballast[::4096])  # touched: resident
    try:
        assert bench.peak_kib("load") < 250 * 1024
    finally:
        del ballast


def test_the_instruction_count_is_read_from_callgrind_s_report() -> None:
    report = "==1== Events    : Ir\n==1== Collected : 3715659123\n==1==\n"
    assert bench.collected_instructions(report) == 3715659123
    with pytest.raises(RuntimeError, match="no instruction count"):
        bench.collected_instructions("valgrind: command not found")


def test_counting_instructions_without_valgrind_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="apt-get install valgrind"):
        bench.instructions_per_round("load", tmp_path)


def test_the_probe_counts_the_files_a_package_has(tmp_path: Path) -> None:
    """`PACKAGE_FILES` is what generating one AWS model writes."""
    generate(bench.MODELS[0], tmp_path / "pkg")
    written = [path for path in (tmp_path / "pkg").rglob("*") if path.is_file()]
    assert len(written) == bench.PACKAGE_FILES
