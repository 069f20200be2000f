"""Generation loads only what the waiters and services reach (`model.reachable`):
bound operations without waiters stay bare, unreachable shapes are never loaded,
nothing they hold changes the package, kept shapes are checked as the loader
checks them, and any document whose outline is not plain is loaded whole. The
cut is checked both ways it is made: from parsed JSON and from the text itself
(`model.reachable_text`)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from msgspec import Raw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import waitable_codegen
from waitable_codegen.errors import GenerationError
from waitable_codegen.model import ModelError, load_text
from waitable_codegen.model.reachable import reachable_documents
from waitable_codegen.model.reachable_text import reachable_texts, with_unread_decoded
from waitable_codegen.model.shapes import UNREAD_TRAITS

from .helpers import smithy_model, thing_shapes

NS = "smithy.example"
MANIFEST = ".generate-waiters.json"


Cut = Callable[[list[dict[str, Any]]], list[dict[str, Any]] | None]


def text_cut(datas: list[bytes]) -> list[dict[str, Any]] | None:
    """`reachable_texts` with the raw values of unread traits decoded by json,
    after checking that these, and nothing else, were left raw."""
    documents = reachable_texts(datas)
    if documents is None:
        return None
    for document in documents:
        for body in document["shapes"].values():
            for trait_id, value in body.get("traits", {}).items():
                assert isinstance(value, Raw) == (trait_id in UNREAD_TRAITS)
    return with_unread_decoded(documents)


def _from_text(documents: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    return text_cut([json.dumps(document).encode() for document in documents])


@pytest.fixture(params=[reachable_documents, _from_text], ids=["parsed", "text"])
def cut(request: pytest.FixtureRequest) -> Cut:
    """The cut made from parsed documents, or from their JSON text."""
    function: Cut = request.param
    return function


def service_model(**extra: Any) -> dict[str, Any]:
    """GetThing (with a waiter) and Other (without) bound to a service, plus `extra`."""
    shapes = thing_shapes()
    shapes.update(
        {
            f"{NS}#Things": {
                "type": "service",
                "version": "1",
                "operations": [{"target": f"{NS}#GetThing"}, {"target": f"{NS}#Other"}],
            },
            f"{NS}#Other": {
                "type": "operation",
                "input": {"target": f"{NS}#OtherInput"},
                "traits": {"smithy.api#documentation": "never read"},
            },
            f"{NS}#OtherInput": {
                "type": "structure",
                "members": {"x": {"target": "smithy.api#String"}},
            },
        }
    )
    shapes.update(extra)
    return smithy_model(shapes)


def generated(document: dict[str, Any], folder: Path) -> dict[str, bytes]:
    """The files `generate` writes for `document` (saved as `folder/m.json`), by
    relative path, without the manifest (its fingerprint names the input bytes)."""
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(document))
    out = folder / "out"
    waitable_codegen.generate(folder / "m.json", out)
    return {
        str(path.relative_to(out)): path.read_bytes()
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }


def test_bound_operations_without_waiters_stay_bare_and_the_rest_is_left_out(
    cut: Cut,
) -> None:
    document = service_model(**{f"{NS}#Unused": {"type": "string"}})
    [kept] = cut([document]) or [{}]
    assert list(kept["shapes"]) == [
        f"{NS}#GetThing",
        f"{NS}#GetThingInput",
        f"{NS}#GetThingOutput",
        f"{NS}#Things",
        f"{NS}#Other",
    ]
    assert kept["shapes"][f"{NS}#Other"] == {"type": "operation"}
    assert document["shapes"][f"{NS}#Other"]["input"], "the input is left untouched"


@pytest.mark.parametrize(
    "extra",
    [
        {},  # no waiter at all
        {f"{NS}#M": {"type": "structure", "mixins": []}},
        {f"{NS}#X": {"type": "apply", "traits": {}}},
        {f"{NS}#S$m": {"type": "structure"}},
        {"not an id": {"type": "string"}},
        {f"{NS}#T": {"type": "thing"}},
        {f"{NS}#T": {"type": "string", "traits": []}},
        {f"{NS}#T": []},
        {"smithy.api#String": {"type": "string"}},
    ],
)
def test_a_document_whose_outline_is_not_plain_is_loaded_whole(
    cut: Cut, extra: dict[str, Any]
) -> None:
    document = service_model(**extra) if extra else smithy_model({})
    assert cut([document]) is None


def test_a_service_without_waiters_is_loaded_whole(cut: Cut) -> None:
    document = service_model()
    del document["shapes"][f"{NS}#GetThing"]["traits"]["smithy.waiters#waitable"]
    assert cut([document]) is None


def test_a_shape_defined_in_two_documents_loads_them_whole(cut: Cut) -> None:
    document = service_model()
    assert cut([document, copy.deepcopy(document)]) is None


@pytest.mark.parametrize(
    ("change", "location"),
    [
        (
            {f"{NS}#GetThingOutput": {"type": "structure", "members": {"b-d": {}}}},
            f'shapes["{NS}#GetThingOutput"].members["b-d"]',
        ),
        (
            {
                f"{NS}#GetThingOutput": {
                    "type": "structure",
                    "members": {"s": {"target": f"{NS}#Gone"}},
                }
            },
            f'shapes["{NS}#GetThingOutput"].members.s.target',
        ),
        (
            {f"{NS}#Other": {"type": "operation", "traits": {"smithy.api#mixin": {}}}},
            f'shapes["{NS}#Things"].operations',
        ),
        (
            {f"{NS}#Other": {"type": "structure"}},
            f'shapes["{NS}#Things"].operations',
        ),
        (
            {
                f"{NS}#Things": {
                    "type": "service",
                    "version": "1",
                    "operations": [{"target": f"{NS}#GetThing"}],
                    "errors": [{"target": f"{NS}#Oops"}],
                },
                f"{NS}#Oops": {"type": "structure", "traits": {"x y": 1}},
            },
            f'shapes["{NS}#Oops"].traits["x y"]',
        ),
    ],
)
def test_what_generation_reads_is_checked_as_the_loader_checks_it(
    tmp_path: Path, change: dict[str, Any], location: str
) -> None:
    document = service_model(**change)
    with pytest.raises(ModelError) as loaded:
        load_text(json.dumps(document), str(tmp_path / "m.json"))
    (tmp_path / "m.json").write_text(json.dumps(document))
    with pytest.raises(GenerationError) as generating:
        waitable_codegen.generate(tmp_path / "m.json", tmp_path / "out")
    assert f": {location}: " in str(generating.value)
    assert str(generating.value) == str(loaded.value)


IDS = st.sampled_from(
    [
        f"{NS}#Junk",
        f"{NS}#OtherInput",
        f"{NS}#Gone",
        f"{NS}#GetThing",
        "smithy.api#String",
        "bad id",
        'ex#X(__import__("os").system("touch PWNED")):#p',
    ]
)
JSON_JUNK = st.recursive(
    st.none() | st.integers() | st.text(max_size=8) | IDS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6) | IDS, inner, max_size=3),
    max_leaves=12,
)
JUNK_BODIES = st.fixed_dictionaries(
    {"type": st.sampled_from(["structure", "list", "map", "string", "operation"])},
    optional={
        "members": st.dictionaries(
            st.text(max_size=6), st.fixed_dictionaries({"target": IDS}) | JSON_JUNK
        ),
        "member": st.fixed_dictionaries({"target": IDS}) | JSON_JUNK,
        "input": st.fixed_dictionaries({"target": IDS}) | JSON_JUNK,
        "errors": JSON_JUNK,
        "traits": st.dictionaries(IDS | st.text(max_size=6), JSON_JUNK, max_size=3),
    },
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.dictionaries(
        st.sampled_from([f"{NS}#Junk{index}" for index in range(6)]),
        JUNK_BODIES,
        max_size=4,
    ),
    JSON_JUNK,
)
def test_unreachable_shapes_change_nothing_in_the_package(
    tmp_path_factory: pytest.TempPathFactory, junk: dict[str, Any], other_input: Any
) -> None:
    """Shapes no waiter or service reaches, and the contents of a bound operation
    without waiters, whatever they hold (bad ids, hostile text, missing targets),
    leave the package byte for byte as it is without them."""
    folder = tmp_path_factory.mktemp("reach")
    plain = generated(service_model(), folder / "plain")
    cluttered = service_model(**junk)
    cluttered["shapes"][f"{NS}#Other"]["input"] = other_input
    assert generated(cluttered, folder / "cluttered") == plain


def test_references_across_documents_are_followed(cut: Cut) -> None:
    """A waiter in one file whose output and service live in another."""
    whole = service_model(**{f"{NS}#Unused": {"type": "string"}})["shapes"]
    first = {key: whole[key] for key in (f"{NS}#GetThing", f"{NS}#Unused")}
    second = {key: value for key, value in whole.items() if key not in first}
    kept = cut([smithy_model(first), smithy_model(second)])
    assert kept is not None
    assert list(kept[0]["shapes"]) == [f"{NS}#GetThing"]
    assert list(kept[1]["shapes"]) == [
        f"{NS}#GetThingInput",
        f"{NS}#GetThingOutput",
        f"{NS}#Things",
        f"{NS}#Other",
    ]
