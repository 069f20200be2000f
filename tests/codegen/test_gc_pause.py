"""Generation pauses the cyclic garbage collector while it works and leaves it
exactly as it found it: on or off, after success or after an error, however
many generations run nested or at once."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from waitable_codegen import GenerationError, api, generate
from waitable_codegen.gc_pause import paused_collection

from .helpers import SPEC_EXAMPLES


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """Whatever a test does, the collector is on again for the next one."""
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled: bool) -> None:
    (gc.enable if enabled else gc.disable)()
    with paused_collection():
        assert not gc.isenabled()
    assert gc.isenabled() is enabled


def test_an_error_in_the_block_restores_the_collector() -> None:
    gc.enable()
    with pytest.raises(KeyError):
        with paused_collection():
            raise KeyError("boom")
    assert gc.isenabled()


def test_nested_blocks_resume_only_when_the_outermost_ends() -> None:
    gc.enable()
    with paused_collection():
        with paused_collection():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_blocks_in_threads_resume_when_the_last_ends() -> None:
    """Thread A enters, B enters, A leaves (B still paused), B leaves."""
    gc.enable()
    a_inside, b_inside, a_left = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with paused_collection():
            a_inside.set()
            b_inside.wait(10)
        a_left.set()

    def second() -> None:
        a_inside.wait(10)
        with paused_collection():
            b_inside.set()
            a_left.wait(10)
            seen.append(gc.isenabled())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [False]
    assert gc.isenabled()


@pytest.mark.parametrize("enabled", [True, False])
def test_generation_pauses_the_collector_and_restores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, enabled: bool
) -> None:
    during: list[bool] = []
    validate = api._validate

    def watched(model: object) -> object:
        during.append(gc.isenabled())
        return validate(model)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "_validate", watched)
    (gc.enable if enabled else gc.disable)()
    result = generate(SPEC_EXAMPLES, tmp_path / "pkg")
    assert result.waiters > 0
    assert during == [False]
    assert gc.isenabled() is enabled


def test_a_generation_error_restores_the_collector(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"smithy": "2.0", "shapes": {"a#B": {"type": "nope"}}}')
    gc.enable()
    with pytest.raises(GenerationError):
        generate(bad, tmp_path / "pkg")
    assert gc.isenabled()
