"""The shapes `generate-waiters --botocore` writes: botocore's `document: true`
structures (any JSON value, e.g. ECS's `HookDetails`) are Smithy documents, typed
`Any`, not empty TypedDicts that no value of theirs fits."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from waitable_codegen.api import generate
from waitable_codegen.botocore_model import botocore_loader, smithy_document


def test_document_structures_become_documents() -> None:
    shapes = smithy_document(botocore_loader(), ["ecs"])["shapes"]
    assert shapes["com.amazonaws.botocore.ecs#HookDetails"] == {"type": "document"}


def test_generated_document_member_is_typed_any(tmp_path: Path) -> None:
    generate([], tmp_path / "ecs_doc_waiters", botocore=["ecs"])
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.invalidate_caches()
        shapes = importlib.import_module("ecs_doc_waiters.shapes")
    finally:
        sys.path.remove(str(tmp_path))
    assert not hasattr(shapes, "HookDetails")
    text = (tmp_path / "ecs_doc_waiters" / "shapes.py").read_text()
    assert "hookDetails: _t.NotRequired[_t.Any]" in text
