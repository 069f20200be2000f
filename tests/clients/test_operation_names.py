"""Generated waiters call the method boto3 names: botocore's `xform_name` of the operation."""

from __future__ import annotations

from shared_corpora import shared_path

import json
from pathlib import Path

from botocore import xform_name

from waitable_codegen.naming import xform_name as generator_xform_name

from .conftest import PROJECT_ROOT

MODELS = PROJECT_ROOT.parent / "shared" / "models"


def operation_names() -> list[str]:
    """The name of every operation in the shared corpus (both model folders)."""
    names: set[str] = set()
    for model in sorted(MODELS.glob("*/*.json")):
        for shape_id, shape in json.loads(model.read_text())["shapes"].items():
            if shape.get("type") == "operation":
                names.add(shape_id.rpartition("#")[2])
    return sorted(names)


def test_the_generator_names_every_operation_as_botocore_does() -> None:
    shared_path("models")
    names = operation_names()
    assert len(names) > 3000
    different = {
        name: (xform_name(name), generator_xform_name(name))
        for name in names
        if xform_name(name) != generator_xform_name(name)
    }
    assert different == {}
