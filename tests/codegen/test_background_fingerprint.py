"""A cold generation hashes the model bytes on a helper thread while it parses
them; the manifest's fingerprint is the one a direct hash gives, so the next run
with nothing changed still reuses the output."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from waitable_codegen import api, generate
from waitable_codegen.background import started
from waitable_codegen.fingerprint import inputs_fingerprint
from waitable_codegen.write import read_manifest

from .helpers import SPEC_EXAMPLES


def test_a_started_call_gives_its_value_or_its_error() -> None:
    assert started(sum, [1, 2, 3]).result(10) == 6
    with pytest.raises(ZeroDivisionError):
        started(divmod, 1, 0).result(10)


def test_cold_generation_hashes_on_the_helper_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []

    def watched(
        inputs: Sequence[tuple[str, bytes]], options: Mapping[str, object]
    ) -> str:
        threads.append(threading.current_thread().name)
        return inputs_fingerprint(inputs, options)

    monkeypatch.setattr(api, "inputs_fingerprint", watched)
    target = tmp_path / "pkg"
    first = generate(SPEC_EXAMPLES, target)
    assert not first.reused
    manifest = read_manifest(target)
    assert manifest is not None
    expected = inputs_fingerprint(
        [(SPEC_EXAMPLES.name, SPEC_EXAMPLES.read_bytes())],
        {"service": None, "jmespath": first.jmespath},
    )
    assert manifest.fingerprint == expected
    again = generate(SPEC_EXAMPLES, target)  # a manifest: hashed before anything
    assert again.reused
    assert threads[0].startswith("waitable-background")
    assert threads[1] == threading.current_thread().name
