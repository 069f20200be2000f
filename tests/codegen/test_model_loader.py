"""The model loader: versions, merging, prelude, mixins, apply, closures, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from shared_corpora import needs_shared

from waitable_codegen.model import ModelError, load_model, load_text

from .helpers import ERRORFILES, write_model

STRING = {"target": "smithy.api#String"}


def test_version_1_sets_are_lists_marked_as_sets(tmp_path: Path) -> None:
    path = write_model(
        tmp_path / "v1.json",
        {"ns#Names": {"type": "set", "member": STRING}},
        version="1.0",
    )
    names = load_model([path])["ns#Names"]
    assert names.type == "list"
    assert names.properties["set"] is True
    assert names.members["member"].target == "smithy.api#String"


def test_prelude_shapes_are_there_without_being_defined(tmp_path: Path) -> None:
    path = write_model(
        tmp_path / "m.json",
        {"ns#S": {"type": "structure", "members": {"a": STRING}}},
    )
    model = load_model([path])
    assert model["smithy.api#String"].type == "string"
    assert model["smithy.api#PrimitiveInteger"].traits["smithy.api#default"] == 0
    assert model.target(model["ns#S"].members["a"]).id == "smithy.api#String"


def test_identical_definitions_in_two_files_merge(tmp_path: Path) -> None:
    shape = {"ns#S": {"type": "structure", "members": {"a": STRING}}}
    a = write_model(tmp_path / "a.json", shape)
    b = write_model(tmp_path / "b.json", shape)
    model = load_model([a, b])
    assert model.sources == (str(a), str(b))
    assert list(model["ns#S"].members) == ["a"]


def test_a_shape_defined_two_ways_names_both_files(tmp_path: Path) -> None:
    a = write_model(
        tmp_path / "a.json", {"ns#S": {"type": "structure", "members": {"a": STRING}}}
    )
    b = write_model(
        tmp_path / "b.json", {"ns#S": {"type": "structure", "members": {"b": STRING}}}
    )
    with pytest.raises(ModelError) as caught:
        load_model([a, b])
    message = str(caught.value)
    assert str(a) in message and str(b) in message and "ns#S" in message


def test_redefining_a_prelude_shape_as_another_type_is_an_error(tmp_path: Path) -> None:
    path = write_model(tmp_path / "p.json", {"smithy.api#String": {"type": "integer"}})
    with pytest.raises(ModelError, match="smithy.api#String"):
        load_model([path])


def test_a_directory_reads_its_json_files_in_order(tmp_path: Path) -> None:
    write_model(tmp_path / "b.json", {"ns#B": {"type": "string"}})
    write_model(tmp_path / "a.json", {"ns#A": {"type": "string"}})
    (tmp_path / "notes.txt").write_text("not a model")
    model = load_model([tmp_path])
    assert [Path(s).name for s in model.sources] == ["a.json", "b.json"]
    assert "ns#A" in model.shapes and "ns#B" in model.shapes


def mixin_shapes() -> dict[str, Any]:
    return {
        "ns#Base": {
            "type": "structure",
            "mixins": [],
            "members": {"id": {"target": "smithy.api#String"}},
            "traits": {
                "smithy.api#mixin": {"localTraits": ["smithy.api#documentation"]},
                "smithy.api#documentation": "only on the mixin",
                "smithy.api#sensitive": {},
            },
        },
        "ns#Thing": {
            "type": "structure",
            "mixins": [{"target": "ns#Base"}],
            "members": {
                "name": STRING,
                "id": {
                    "target": "smithy.api#String",
                    "traits": {"smithy.api#required": {}},
                },
            },
        },
        "ns#CommonErrors": {
            "type": "operation",
            "errors": [{"target": "ns#Oops"}],
            "traits": {"smithy.api#mixin": {}},
        },
        "ns#GetThing": {
            "type": "operation",
            "mixins": [{"target": "ns#CommonErrors"}],
            "errors": [{"target": "ns#Other"}],
        },
        "ns#Oops": {
            "type": "structure",
            "members": {},
            "traits": {"smithy.api#error": "client"},
        },
        "ns#Other": {
            "type": "structure",
            "members": {},
            "traits": {"smithy.api#error": "client"},
        },
    }


def test_mixins_bring_their_members_first_and_their_non_local_traits(
    tmp_path: Path,
) -> None:
    model = load_model([write_model(tmp_path / "m.json", mixin_shapes())])
    thing = model["ns#Thing"]
    assert list(thing.members) == ["id", "name"]
    assert thing.members["id"].required, "a redeclared member keeps its own traits"
    assert thing.members["id"].container == "ns#Thing"
    assert "smithy.api#sensitive" in thing.traits
    assert "smithy.api#documentation" not in thing.traits
    assert "smithy.api#mixin" not in thing.traits
    assert model["ns#GetThing"].errors == ("ns#Oops", "ns#Other")


def test_a_missing_mixin_or_a_shape_that_is_not_a_mixin_is_an_error(
    tmp_path: Path,
) -> None:
    shapes: dict[str, Any] = {
        "ns#A": {"type": "structure", "members": {}},
        "ns#B": {"type": "structure", "members": {}, "mixins": [{"target": "ns#A"}]},
    }
    with pytest.raises(ModelError, match="ns#B uses ns#A as a mixin"):
        load_model([write_model(tmp_path / "m.json", shapes)])
    shapes["ns#B"]["mixins"] = [{"target": "ns#Gone"}]
    with pytest.raises(ModelError, match="missing mixin ns#Gone"):
        load_model([write_model(tmp_path / "m.json", shapes)])


def test_apply_adds_traits_to_shapes_and_members_across_files(tmp_path: Path) -> None:
    a = write_model(
        tmp_path / "a.json", {"ns#S": {"type": "structure", "members": {"a": STRING}}}
    )
    b = write_model(
        tmp_path / "b.json",
        {
            "ns#S": {"type": "apply", "traits": {"smithy.api#documentation": "doc"}},
            "ns#S$a": {"type": "apply", "traits": {"smithy.api#required": {}}},
        },
    )
    shape = load_model([b, a])["ns#S"]
    assert shape.traits["smithy.api#documentation"] == "doc"
    assert shape.members["a"].required


def test_apply_to_something_missing_names_the_file_and_target(tmp_path: Path) -> None:
    path = write_model(
        tmp_path / "a.json",
        {"ns#S$nope": {"type": "apply", "traits": {"smithy.api#required": {}}}},
    )
    with pytest.raises(
        ModelError, match=r'a\.json: shapes\["ns#S\$nope"\]: apply targets ns#S\$nope'
    ):
        load_model([path])


def test_nested_resources_put_their_operations_in_the_service_closure(
    tmp_path: Path,
) -> None:
    op = {"type": "operation"}
    shapes = {
        "ns#Service": {
            "type": "service",
            "version": "1",
            "operations": [{"target": "ns#Ping"}],
            "resources": [{"target": "ns#Parent"}],
        },
        "ns#Parent": {
            "type": "resource",
            "read": {"target": "ns#GetParent"},
            "resources": [{"target": "ns#Child"}],
        },
        "ns#Child": {
            "type": "resource",
            "list": {"target": "ns#ListChildren"},
            "operations": [{"target": "ns#PokeChild"}],
            "collectionOperations": [{"target": "ns#CountChildren"}],
        },
        "ns#Ping": op,
        "ns#GetParent": op,
        "ns#ListChildren": op,
        "ns#PokeChild": op,
        "ns#CountChildren": op,
        "ns#Outside": op,
    }
    model = load_model([write_model(tmp_path / "m.json", shapes)])
    assert model.service_operations("ns#Service") == [
        "ns#CountChildren",
        "ns#GetParent",
        "ns#ListChildren",
        "ns#Ping",
        "ns#PokeChild",
    ]
    assert "ns#Outside" not in model.closure("ns#Service")


@needs_shared("conformance", "smithy-waiters-errorfiles")
@pytest.mark.parametrize(
    "path", sorted(ERRORFILES.glob("*.json")), ids=lambda p: p.stem
)
def test_every_conformance_model_loads(path: Path) -> None:
    model = load_model([path])
    assert model.waitable_operations()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"m\.json:1:2: not valid JSON"),
        ("[1, 2]", r'm\.json: not a Smithy JSON AST model \(no top-level "smithy"'),
        ('{"smithy": "3.0"}', r"m\.json: smithy: unsupported Smithy version '3.0'"),
        (
            '{"smithy": "2.0", "shapes": []}',
            r"m\.json: shapes: expected an object of shape id to shape, found an array",
        ),
        (
            '{"smithy": "2.0", "shapes": {"Foo": {"type": "string"}}}',
            r"m\.json: shapes\.Foo: shape id 'Foo' is not valid Smithy; a shape id is "
            "namespace#Name",
        ),
        (
            '{"smithy": "2.0", "shapes": {"ns#A": {"type": "thing"}}}',
            r'm\.json: shapes\["ns#A"\]\.type: unknown shape type \'thing\'',
        ),
        (
            '{"smithy": "2.0", "shapes": {"ns#A": {"type": "list", "member": {"target": "ns#Gone"}}}}',
            r'm\.json: shapes\["ns#A"\]\.member\.target: member ns#A\$member targets '
            "ns#Gone, which is not defined",
        ),
        (
            '{"smithy": "2.0", "shapes": {"ns#Op": {"type": "operation", "input": {"target": "ns#In"}}}}',
            r'm\.json: shapes\["ns#Op"\]\.input\.target: shape ns#Op input refers to '
            "ns#In, which is not defined",
        ),
    ],
)
def test_bad_input_is_one_sentence_naming_the_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(ModelError, match=message) as caught:
        load_model([path])
    assert "\n" not in str(caught.value)


def test_unreadable_inputs_name_the_path(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="gone.json: no such file"):
        load_model([tmp_path / "gone.json"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="holds no \\*.json"):
        load_model([tmp_path / "empty"])
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"smithy": "2.0", "metadata": {"x": "\xe9"}}')
    with pytest.raises(ModelError, match="latin.json: not UTF-8"):
        load_model([latin])


def test_a_model_from_memory_carries_its_source_name() -> None:
    model = load_text(json.dumps({"smithy": "2.0", "shapes": {}}), "<stdin>")
    assert model.sources == ("<stdin>",)


def _bare_collection_model(kind: str) -> str:
    """A waiter whose output reaches a `kind` shape written as its type alone."""
    waiter = {
        "ThingDone": {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "status",
                            "expected": "done",
                            "comparator": "stringEquals",
                        }
                    },
                }
            ]
        }
    }
    return json.dumps(
        {
            "smithy": "2.0",
            "shapes": {
                "ns#GetThing": {
                    "type": "operation",
                    "input": {"target": "ns#In"},
                    "output": {"target": "ns#Out"},
                    "traits": {"smithy.waiters#waitable": waiter},
                },
                "ns#In": {"type": "structure", "members": {}},
                "ns#Out": {
                    "type": "structure",
                    "members": {
                        "status": {"target": "smithy.api#String"},
                        "items": {"target": "ns#Items"},
                    },
                },
                "ns#Items": {"type": kind},
            },
        }
    )


@pytest.mark.parametrize(
    ("kind", "slot"), [("list", "member"), ("set", "member"), ("map", "key")]
)
@pytest.mark.parametrize("reader", ["text", "json"])
def test_a_collection_without_its_members_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, slot: str, reader: str
) -> None:
    """`{"type": "list"}` alone once loaded without a member, and planning its
    TypedDict then crashed with a KeyError (found by review, 2026-11-27)."""
    from waitable_codegen import GenerationError, api, generate

    path = tmp_path / "m.json"
    path.write_text(_bare_collection_model(kind))
    message = rf'm\.json: shapes\["ns#Items"\]\.{slot}: expected a shape reference'
    with pytest.raises(ModelError, match=message):
        load_model([path])
    if reader == "json":
        monkeypatch.setattr(api, "reachable_texts", lambda datas: None)
    with pytest.raises(GenerationError, match=message):
        generate(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()
