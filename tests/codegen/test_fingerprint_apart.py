"""A cold generation of a large model hashes its bytes on a worker thread while it
parses them; the fingerprint, and so the manifest and the no-op regeneration that
reads it, are exactly those of hashing them in line."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from waitable_codegen import api, generate
from waitable_codegen.write import MANIFEST_NAME

from .helpers import SPEC_EXAMPLES


def _threads_hashing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the thread every fingerprint is computed on."""
    threads: list[str] = []
    real = api.inputs_fingerprint

    def recording(*args: object, **kwargs: object) -> str:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "inputs_fingerprint", recording)
    return threads


@pytest.mark.parametrize("jmespath", ["compiled", "interpreted"])
def test_hashing_apart_gives_the_same_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jmespath: str
) -> None:
    threads = _threads_hashing(monkeypatch)
    monkeypatch.setattr(api, "HASH_APART", 1 << 40)
    generate(SPEC_EXAMPLES, tmp_path / "inline", jmespath=jmespath)
    monkeypatch.setattr(api, "HASH_APART", 0)
    generate(SPEC_EXAMPLES, tmp_path / "apart", jmespath=jmespath)
    assert threads[0] == threading.current_thread().name
    assert threads[1] != threading.current_thread().name  # a worker hashed it
    inline = (tmp_path / "inline" / MANIFEST_NAME).read_bytes()
    assert (tmp_path / "apart" / MANIFEST_NAME).read_bytes() == inline
    again = generate(SPEC_EXAMPLES, tmp_path / "apart", jmespath=jmespath)
    assert again.reused and not again.stale
    assert threads[2] == threading.current_thread().name  # a manifest: in line


def test_a_model_below_the_size_is_hashed_in_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = _threads_hashing(monkeypatch)
    assert SPEC_EXAMPLES.stat().st_size < api.HASH_APART
    generate(SPEC_EXAMPLES, tmp_path / "pkg")
    assert threads == [threading.current_thread().name]


def test_a_failed_generation_hashed_apart_reports_the_model_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "HASH_APART", 0)
    broken = tmp_path / "broken.json"
    broken.write_text('{"smithy": "2.0", "shapes": {')
    with pytest.raises(api.GenerationError, match="not valid JSON"):
        generate(broken, tmp_path / "pkg")
    assert not (tmp_path / "pkg").exists()


def test_several_model_files_are_hashed_in_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker would keep the bytes of every file it has not hashed yet."""
    threads = _threads_hashing(monkeypatch)
    monkeypatch.setattr(api, "HASH_APART", 0)
    models = tmp_path / "models"
    models.mkdir()
    (models / "a.json").write_bytes(SPEC_EXAMPLES.read_bytes())
    (models / "b.json").write_text('{"smithy": "2.0", "shapes": {}}')
    generate(models, tmp_path / "pkg")
    assert threads == [threading.current_thread().name]
