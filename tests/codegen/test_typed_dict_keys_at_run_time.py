"""The generated TypedDicts say which keys are required at run time too:
`__required_keys__`/`__optional_keys__` agree with the `NotRequired` the source
writes, and `typing.get_type_hints` resolves every annotation. With `from
__future__ import annotations` every class-form annotation was a string, which
`TypedDict` cannot look into: all keys read as required (`HeadBucketRequest`'s
`ExpectedBucketOwner` too), for whatever introspects them (validators, schema
builders), while the functional-form classes were right."""

from __future__ import annotations

import ast
import importlib
import sys
import typing
from pathlib import Path

from shared_corpora import shared_path

from waitable_codegen import generate

from .helpers import SPEC_EXAMPLES


def _optional_keys_written(source: str) -> dict[str, set[str]]:
    """Per TypedDict of a shapes module: the keys its source marks `NotRequired`."""
    tree = ast.parse(source)

    def optional(annotation: ast.expr) -> bool:
        return isinstance(annotation, ast.Subscript) and ast.unparse(
            annotation.value
        ).endswith("NotRequired")

    found: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found[node.name] = {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and optional(item.annotation)
            }
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            fields = node.value.args[1]
            assert isinstance(fields, ast.Dict)
            name = node.targets[0]
            assert isinstance(name, ast.Name)
            found[name.id] = {
                str(key.value)
                for key, value in zip(fields.keys, fields.values)
                if isinstance(key, ast.Constant) and optional(value)
            }
    return found


def test_required_keys_at_run_time_are_the_ones_the_source_writes(
    tmp_path: Path,
) -> None:
    aws = sorted(shared_path("models", "api-models-aws").glob("*.json"))
    generate(aws, tmp_path / "aws_waiters")
    generate(SPEC_EXAMPLES, tmp_path / "spec_waiters")
    sys.path.insert(0, str(tmp_path))
    checked = 0
    try:
        for shapes in sorted(tmp_path.rglob("shapes.py")):
            parts = shapes.relative_to(tmp_path).with_suffix("").parts
            module = importlib.import_module(".".join(parts))
            for name, optional in _optional_keys_written(shapes.read_text()).items():
                cls = getattr(module, name)
                assert cls.__optional_keys__ == optional, (shapes, name)
                assert cls.__required_keys__ == set(cls.__annotations__) - optional
                typing.get_type_hints(cls)  # every forward reference resolves
                checked += 1
    finally:
        sys.path.remove(str(tmp_path))
        for loaded in [m for m in sys.modules if m.split(".")[0].endswith("_waiters")]:
            del sys.modules[loaded]
    assert checked > 1000
