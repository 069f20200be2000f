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


def test_the_runtime_the_generator_writes_with_is_in_the_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generator writes with the runtime's code (escapes, the paths' reads), and
    the runtime may be upgraded alone: its change left a stale package that every
    run took for current (review of 2026-11-28)."""
    import shutil

    import waitable

    from waitable_codegen.fingerprint import generator_fingerprint

    before = generator_fingerprint()
    copy = tmp_path / "waitable"
    shutil.copytree(Path(waitable.__file__).parent, copy)
    (copy / "printable.py").write_text(
        (copy / "printable.py").read_text() + "\n# a new runtime\n"
    )
    generator_fingerprint.cache_clear()
    monkeypatch.setattr(waitable, "__file__", str(copy / "__init__.py"))
    try:
        assert generator_fingerprint() != before
    finally:
        monkeypatch.undo()
        generator_fingerprint.cache_clear()
    assert generator_fingerprint() == before


def test_force_rewrites_a_package_the_manifest_vouches_for(tmp_path: Path) -> None:
    """A file edited along with its hash in the manifest: `--check` says stale, but
    a plain run trusts the manifest and writes nothing; `--force` renders and
    repairs it."""
    import hashlib
    import json

    from waitable_codegen.write import MANIFEST_NAME

    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    waiters = out / "waiters.py"
    original = waiters.read_text()
    waiters.write_text(original + "\nimport os\n")
    document = json.loads((out / MANIFEST_NAME).read_text())
    document["files"]["waiters.py"] = hashlib.sha256(waiters.read_bytes()).hexdigest()
    (out / MANIFEST_NAME).write_text(json.dumps(document))
    assert generate(SPEC_EXAMPLES, out, check=True).stale
    assert generate(SPEC_EXAMPLES, out).reused  # the shortcut trusts the manifest
    repaired = generate(SPEC_EXAMPLES, out, force=True)
    assert not repaired.reused and repaired.written == (waiters,)
    assert waiters.read_text() == original


def test_check_without_a_manifest_is_stale(tmp_path: Path) -> None:
    """A run would write the manifest (and until then no file can be told unedited):
    `--check` said "up to date"."""
    from waitable_codegen.write import MANIFEST_NAME

    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / MANIFEST_NAME).unlink()
    checked = generate(SPEC_EXAMPLES, out, check=True)
    assert checked.stale and checked.written == (out / MANIFEST_NAME,)
    assert not (out / MANIFEST_NAME).exists()


@pytest.mark.parametrize(
    "attribute,value",
    # versions no interpreter running this has (15.0.0 and 3.12 are 3.12's own)
    [("unidata_version", "99.0.0"), ("version_info", (3, 99, 0, "final", 0))],
)
def test_the_python_and_unicode_versions_are_in_the_fingerprint(
    monkeypatch: pytest.MonkeyPatch, attribute: str, value: object
) -> None:
    """Which characters a literal escapes follows the interpreter's Unicode
    database (U+1F6DC, new in Unicode 15, is escaped on 3.11 and kept on 3.12): a
    package another Python wrote was reused as current, while `--check`, which
    renders, called it stale (review of 2026-11-28, s24)."""
    import sys
    import unicodedata

    from waitable_codegen.fingerprint import generator_fingerprint

    before = generator_fingerprint()
    module = unicodedata if attribute == "unidata_version" else sys
    generator_fingerprint.cache_clear()
    monkeypatch.setattr(module, attribute, value)
    try:
        assert generator_fingerprint() != before
    finally:
        monkeypatch.undo()
        generator_fingerprint.cache_clear()
    assert generator_fingerprint() == before
