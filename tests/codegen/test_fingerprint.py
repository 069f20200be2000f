"""The inputs' fingerprint in the manifest: hashed beside a cold generation's work,
inline when a manifest is there to compare, the same digest either way."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from waitable_codegen import fingerprint, generate
from waitable_codegen.fingerprint import fingerprint_aside, inputs_fingerprint
from waitable_codegen.write import read_manifest

from .helpers import SPEC_EXAMPLES

OPTIONS = {"service": None, "jmespath": "compiled"}


def spec_inputs() -> list[tuple[str, bytes]]:
    return [(SPEC_EXAMPLES.name, SPEC_EXAMPLES.read_bytes())]


def test_hashed_aside_or_inline_the_digest_is_the_same() -> None:
    inputs = spec_inputs()
    inline = inputs_fingerprint(inputs, OPTIONS)
    assert fingerprint_aside(inputs, OPTIONS, aside=True)() == inline
    assert fingerprint_aside(inputs, OPTIONS, aside=False)() == inline
    other = inputs_fingerprint(inputs, {**OPTIONS, "jmespath": "interpreted"})
    assert other != inline


def test_a_cold_generation_records_the_digest_a_regeneration_compares(
    tmp_path: Path,
) -> None:
    out = tmp_path / "pkg"
    first = generate(SPEC_EXAMPLES, out)
    manifest = read_manifest(out)
    assert manifest is not None and first.written
    assert manifest.fingerprint == inputs_fingerprint(spec_inputs(), OPTIONS)
    again = generate(SPEC_EXAMPLES, out)
    assert again.reused and not again.written


class _NoThreads:
    """A worker pool that cannot start a thread (as at interpreter shutdown)."""

    def submit(self, *args: Any, **kwargs: Any) -> Future[str]:
        raise RuntimeError("can't start new thread")


def test_without_a_worker_thread_the_digest_is_made_inline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fingerprint, "worker_pool", lambda: _NoThreads())
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    manifest = read_manifest(out)
    assert manifest is not None
    assert manifest.fingerprint == inputs_fingerprint(spec_inputs(), OPTIONS)
    assert generate(SPEC_EXAMPLES, out).reused
