"""A fuzzer kept in the suite: hostile JSON AST documents (arbitrary ids and text,
wrong JSON types in every slot, deep nesting, cycles, huge numbers, mixins, `apply`,
the waitable trait with garbage) either load, validate and generate, or end in the
project's own errors; the CLI never prints a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import waitable_codegen
from waitable_codegen.errors import GenerationError
from waitable_codegen.model import ModelError, load_text
from waitable_codegen.validation import validate

from .helpers import status_waiter, thing_shapes

NS = "smithy.example"
KNOWN_IDS = [
    f"{NS}#GetThing",
    f"{NS}#GetThingInput",
    f"{NS}#GetThingOutput",
    f"{NS}#A",
    f"{NS}#B",
    f"{NS}#L",
    f"{NS}#Svc",
    "smithy.api#String",
    "smithy.api#Integer",
    "smithy.api#Unit",
]
TRAIT_IDS = [
    "smithy.api#mixin",
    "smithy.waiters#waitable",
    "smithy.api#required",
    "smithy.api#length",
    "smithy.api#range",
    "smithy.api#error",
    "smithy.api#streaming",
    "smithy.api#suppress",
    "smithy.api#documentation",
]
TYPES = [
    "structure",
    "union",
    "list",
    "set",
    "map",
    "string",
    "integer",
    "enum",
    "operation",
    "service",
    "resource",
    "apply",
    "document",
]

hostile_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\x1b[31m", "\u202e", "a\nb", "", "ns#", "#", "$", "ns#A$"]),
    st.integers(1, 3000).map(lambda n: "A" * n),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(0, 4000).map(lambda n: 10**n),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
)
garbage = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(hostile_text, st.sampled_from(TRAIT_IDS)), inner, max_size=3
        ),
    ),
    max_leaves=8,
)


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> Any:
    """`good` about four times in five, else `bad`: hostile, yet deep enough to reach
    validation and generation."""
    return st.sampled_from((True, True, True, False, True)).flatmap(
        lambda ok: good if ok else bad
    )


shape_ids = mostly(
    st.sampled_from(KNOWN_IDS),
    st.one_of(
        st.from_regex(
            r"[a-z_][a-z0-9_]{0,3}(\.[a-z]{1,3})?#[A-Za-z_][A-Za-z0-9_]{0,4}",
            fullmatch=True,
        ),
        hostile_text,
    ),
)
references = mostly(shape_ids.map(lambda t: {"target": t}), garbage)
reference_lists = mostly(st.lists(references, max_size=4), garbage)


@st.composite
def waiters(draw: st.DrawFn) -> Any:
    """A waitable trait value: a good waiter with some slot replaced by garbage."""
    waiter: dict[str, Any] = status_waiter(draw(hostile_text))
    acceptor = waiter["acceptors"][0]
    slot = draw(
        st.sampled_from(
            ["none", "path", "state", "matcher", "acceptors", "delay", "name", "whole"]
        )
    )
    if slot == "path":
        acceptor["matcher"]["output"]["path"] = draw(
            st.one_of(
                hostile_text, garbage, st.integers(1, 3000).map(lambda n: "[" * n)
            )
        )
    elif slot == "state":
        acceptor["state"] = draw(garbage)
    elif slot == "matcher":
        acceptor["matcher"] = draw(garbage)
    elif slot == "acceptors":
        waiter["acceptors"] = draw(garbage)
    elif slot == "delay":
        waiter[draw(st.sampled_from(["minDelay", "maxDelay"]))] = draw(scalars)
    elif slot == "whole":
        return draw(garbage)
    name = (
        draw(st.one_of(st.just("Ready"), hostile_text)) if slot == "name" else "Ready"
    )
    return {name: waiter}


def trait_values(trait_id: str) -> st.SearchStrategy[Any]:
    if trait_id == "smithy.waiters#waitable":
        return waiters()
    if trait_id == "smithy.api#mixin":
        return st.one_of(
            st.just({}),
            st.fixed_dictionaries(
                {
                    "localTraits": st.one_of(
                        st.lists(
                            st.one_of(st.sampled_from(TRAIT_IDS), hostile_text),
                            max_size=3,
                        ),
                        garbage,
                    )
                }
            ),
            garbage,
        )
    if trait_id in ("smithy.api#length", "smithy.api#range"):
        return st.fixed_dictionaries({}, optional={"min": scalars, "max": scalars})
    return garbage


traits = mostly(
    st.lists(st.sampled_from(TRAIT_IDS), max_size=3, unique=True).flatmap(
        lambda ids: st.fixed_dictionaries({i: trait_values(i) for i in ids})
    ),
    st.one_of(st.dictionaries(hostile_text, garbage, max_size=2), garbage),
)
members = mostly(
    st.fixed_dictionaries({"target": shape_ids}, optional={"traits": traits}),
    garbage,
)
member_maps = mostly(
    st.dictionaries(
        st.one_of(st.sampled_from(["a", "b", "status", "member"]), hostile_text),
        members,
        max_size=3,
    ),
    garbage,
)
shape_bodies = st.fixed_dictionaries(
    {"type": mostly(st.sampled_from(TYPES), garbage)},
    optional={
        "members": member_maps,
        "member": members,
        "key": members,
        "value": members,
        "input": references,
        "output": references,
        "errors": reference_lists,
        "operations": reference_lists,
        "resources": reference_lists,
        "mixins": reference_lists,
        "traits": traits,
        "rename": st.one_of(
            st.dictionaries(shape_ids, hostile_text, max_size=2), garbage
        ),
        "version": scalars,
        "identifiers": st.one_of(
            st.dictionaries(hostile_text, references, max_size=2), garbage
        ),
    },
)


@st.composite
def documents(draw: st.DrawFn) -> Any:
    """A JSON AST document: usually the small GetThing model with hostile shapes mixed
    in (so later stages are reached), sometimes garbage from the top."""
    if draw(st.integers(0, 19)) == 0:
        return draw(garbage)
    shapes: dict[str, Any] = thing_shapes() if draw(st.integers(0, 3)) else {}
    shapes.update(draw(st.dictionaries(shape_ids, shape_bodies, max_size=5)))
    document: dict[str, Any] = {
        "smithy": draw(mostly(st.sampled_from(["2.0", "1.0"]), scalars)),
        "shapes": shapes,
    }
    if draw(st.booleans()):
        document["metadata"] = draw(
            st.one_of(
                st.dictionaries(st.sampled_from(["suppressions", "x"]), garbage),
                garbage,
            )
        )
    return document


@st.composite
def model_texts(draw: st.DrawFn) -> bytes:
    """The document as bytes, sometimes wrapped in deep nesting, cut, or not UTF-8."""
    text = json.dumps(draw(documents()))
    how = draw(st.sampled_from(["as is"] * 16 + ["nested", "cut", "bytes", "digits"]))
    if how == "nested":
        depth = draw(st.sampled_from([150, 250, 5000, 100_000]))
        text = (
            '{"smithy": "2.0", "metadata": {"x": '
            + "[" * depth
            + text
            + "]" * depth
            + "}}"
        )
    elif how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "digits":
        text = (
            '{"smithy": "2.0", "metadata": {"x": '
            + "7" * draw(st.integers(4000, 6000))
            + "}}"
        )
    data = text.encode("utf-8", "surrogatepass")
    if how == "bytes":
        data = draw(st.binary(max_size=20)) + data
    return data


FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@settings(FUZZ, max_examples=300)
@given(model_texts())
def test_loading_and_validating_ends_in_a_model_or_a_model_error(data: bytes) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # decode_text's job, tested through generate below
    try:
        model = load_text(text, "fuzz.json")
    except ModelError as exc:
        assert str(exc).isprintable()
        return
    for event in validate(model):
        assert str(event)


@settings(FUZZ, max_examples=80)
@given(model_texts())
def test_generation_ends_in_a_package_or_a_generation_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        try:
            waitable_codegen.generate("-", Path(scratch) / "out", stdin=data)
        except GenerationError as exc:  # UsageError and ValidationFailed included
            assert str(exc).isprintable()


CLI_CASES = [
    b'{"smithy": "2.0", "metadata": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}",
    b'{"smithy": "2.0", "metadata": {"x": ' + b"9" * 5000 + b"}}",
    json.dumps(
        {"smithy": "2.0", "shapes": {"ns#A": {"type": "structure", "mixins": None}}}
    ).encode(),
    json.dumps(
        {
            "smithy": "2.0",
            "shapes": {"ns#L": {"type": "list", "member": {"target": "ns#L"}}},
        }
    ).encode(),
    json.dumps(
        {"smithy": "2.0", "shapes": {"ex#Get-Thing": {"type": "operation"}}}
    ).encode(),
    json.dumps(
        {"smithy": "2.0", "shapes": {"ns#\x1b[2J\u202e": {"type": "string"}}}
    ).encode(),
]


def test_the_cli_prints_one_line_and_no_traceback_for_hostile_models(
    tmp_path: Path,
) -> None:
    for index, data in enumerate(CLI_CASES):
        model = tmp_path / f"case{index}.json"
        model.write_bytes(data)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "waitable_codegen",
                str(model),
                "-o",
                str(tmp_path / "out"),
            ],
            capture_output=True,
            timeout=120,
            env={**os.environ, "SMITHY_PLUGIN_DIR": ""},
        )
        err = done.stderr.decode("utf-8")
        assert done.returncode == 1, err
        assert "Traceback" not in err and len(err.splitlines()) == 1, err
        assert err.startswith(f"generate-waiters: error: {model}: ")
        assert err.endswith("\n") and err[:-1].isprintable()
    assert not (tmp_path / "out").exists()
