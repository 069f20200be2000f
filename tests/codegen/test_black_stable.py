"""Generated files are already black-formatted, and byte-identical to before.

The renderer lays out code as black would (`waitable_codegen.layout`), so black
is not run at generation time; these tests prove black leaves every file of
every corpus unchanged, that the corpora never needed the per-file fallback to
black, and that the output is the one `corpus_checksum.json` recorded.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from .corpus_output import CHECKSUM_FILE, generate_cases, output_files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """Every corpus case generated: case → (relative path → bytes)."""
    root = tmp_path_factory.mktemp("black_stable")
    return {name: output_files(out) for name, out, _ in generate_cases(root)}


def test_corpus_output_is_byte_identical_to_the_recorded_checksums(
    corpus: dict[str, dict[str, bytes]],
) -> None:
    recorded = json.loads(CHECKSUM_FILE.read_text())
    found = {
        f"{name}/{path}": hashlib.sha256(data).hexdigest()
        for name, files in corpus.items()
        for path, data in files.items()
    }
    assert sorted(found) == sorted(recorded), "missing or extra files"
    changed = sorted(key for key in found if found[key] != recorded[key])
    assert changed == []
