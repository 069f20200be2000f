"""Waiter definitions: immutable data built from the trait's JSON value, with clear errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from shared_corpora import shared_path

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    ModeledError,
    OutputMatcher,
    SuccessMatcher,
    WaiterDefinition,
    WaiterDefinitionError,
)

from .harness import BUCKET_EXISTS, GROUP_EXISTS, RESOURCE_RUNNING, THING_EXISTS

SHARED = Path(__file__).resolve().parents[3] / "shared"
ERRORFILES = SHARED / "conformance" / "smithy-waiters-errorfiles"

# The spec's examples as trait values (JSON AST form of the Smithy IDL in the spec).
SPEC_TRAITS: dict[str, tuple[str, dict[str, Any], WaiterDefinition]] = {
    "BucketExists": (
        "com.amazonaws.s3#HeadBucket",
        {
            "documentation": "Wait until a bucket exists",
            "acceptors": [
                {"state": "success", "matcher": {"success": True}},
                {"state": "retry", "matcher": {"errorType": "NotFound"}},
            ],
        },
        BUCKET_EXISTS,
    ),
    "ThingExists": (
        "smithy.example#GetThing",
        {
            "documentation": "Waits until a thing has been created",
            "acceptors": [
                {
                    "state": "failure",
                    "matcher": {
                        "output": {
                            "path": "status",
                            "comparator": "stringEquals",
                            "expected": "failed",
                        }
                    },
                },
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "status",
                            "comparator": "stringEquals",
                            "expected": "success",
                        }
                    },
                },
            ],
        },
        THING_EXISTS,
    ),
    "GroupExists": (
        "smithy.example#ListGroups",
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "inputOutput": {
                            "path": "length(input.groups) == length(output.groups)",
                            "expected": "true",
                            "comparator": "booleanEquals",
                        }
                    },
                }
            ]
        },
        GROUP_EXISTS,
    ),
    "ResourceRunning": (
        "smithy.example#GetResource",
        {
            "documentation": "Waits for the resource to be running",
            "acceptors": [
                {
                    "state": "failure",
                    "matcher": {
                        "output": {
                            "path": "State",
                            "expected": "Stopped",
                            "comparator": "stringEquals",
                        }
                    },
                },
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "State",
                            "expected": "Running",
                            "comparator": "stringEquals",
                        }
                    },
                },
            ],
        },
        RESOURCE_RUNNING,
    ),
}


@pytest.mark.parametrize("name", list(SPEC_TRAITS))
def test_from_trait_reads_the_spec_examples(name: str) -> None:
    operation, value, expected = SPEC_TRAITS[name]
    errors = expected.errors
    assert (
        WaiterDefinition.from_trait(name, operation, value, errors=errors) == expected
    )


def test_defaults_are_the_spec_defaults() -> None:
    _, value, _ = SPEC_TRAITS["ThingExists"]
    definition = WaiterDefinition.from_trait(
        "ThingExists", "smithy.example#GetThing", value
    )
    assert (definition.min_delay, definition.max_delay) == (2, 120)
    assert type(definition.min_delay) is int and type(definition.max_delay) is int
    assert definition.deprecated is False and definition.tags == ()


def test_definitions_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        THING_EXISTS.min_delay = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        THING_EXISTS.acceptors[0].matcher.path = "x"  # type: ignore[union-attr,misc]
    assert isinstance(THING_EXISTS.acceptors, tuple)


def valid_waiters() -> dict[str, Any]:
    model = json.loads((ERRORFILES / "valid-waiters.json").read_text())
    trait: dict[str, Any] = model["shapes"]["smithy.example#A"]["traits"][
        "smithy.waiters#waitable"
    ]
    return trait


def test_smithys_valid_waiters_errorfile() -> None:
    """message, deprecated, tags and absolute errorType ids, as Smithy's own test writes them."""
    built = {
        name: WaiterDefinition.from_trait(name, "smithy.example#A", value)
        for name, value in valid_waiters().items()
    }
    assert built["F"].deprecated is True and built["F"].tags == ("A", "B")
    assert built["F"].acceptors[1] == Acceptor(
        AcceptorState.FAILURE, SuccessMatcher(False)
    )
    assert built["G"].acceptors[1].message == "foo"
    assert built["H"].acceptors[1].message == "reasons"
    assert built["D"].acceptors[0].matcher == ErrorTypeMatcher("smithy.example#OhNo")
    assert built["D"].acceptors[0].matcher.name == "OhNo"
    assert built["A"].documentation == "A"
    assert built["E"].acceptors[0].matcher == OutputMatcher(
        "[foo]", "hi", Comparator.ALL_STRING_EQUALS
    )


def corpus_waiters() -> list[tuple[str, str, dict[str, Any], tuple[ModeledError, ...]]]:
    found = []
    for path in sorted((SHARED / "models").glob("*/*.json")):
        shapes = json.loads(path.read_text())["shapes"]
        for shape_id, shape in shapes.items():
            trait = shape.get("traits", {}).get("smithy.waiters#waitable")
            if not trait:
                continue
            errors = tuple(
                ModeledError(
                    ref["target"].rpartition("#")[2],
                    shapes.get(ref["target"], {})
                    .get("traits", {})
                    .get("smithy.api#httpError"),
                )
                for ref in shape.get("errors", [])
            )
            for name, value in trait.items():
                found.append((name, shape_id, value, errors))
    return found


def test_every_waiter_of_the_shared_models_builds() -> None:
    """All 278 real waiters, field for field."""
    shared_path("models")
    waiters = corpus_waiters()
    assert len(waiters) == 278  # 246 in api-models-aws, 32 in smithy-rs
    kinds = {"output": OutputMatcher, "inputOutput": InputOutputMatcher}
    for name, operation, value, errors in waiters:
        definition = WaiterDefinition.from_trait(name, operation, value, errors=errors)
        assert definition.min_delay == value.get("minDelay", 2)
        assert definition.max_delay == value.get("maxDelay", 120)
        assert definition.errors == errors
        for acceptor, raw in zip(definition.acceptors, value["acceptors"], strict=True):
            assert acceptor.state.value == raw["state"]
            ((kind, member),) = raw["matcher"].items()
            matcher = acceptor.matcher
            if kind in kinds:
                assert type(matcher) is kinds[kind]
                assert (matcher.path, matcher.expected, matcher.comparator.value) == (
                    member["path"],
                    member["expected"],
                    member["comparator"],
                )
            elif kind == "success":
                assert matcher == SuccessMatcher(member)
            else:
                assert matcher == ErrorTypeMatcher(member)


BAD_TRAITS = [
    ({}, "`acceptors` must be a non-empty list"),
    ({"acceptors": []}, "`acceptors` must be a non-empty list"),
    (
        {
            "acceptors": [
                {"state": "retry", "matcher": {"errorType": "NotFound"}},
                {"state": "failure", "matcher": {"success": True}},
            ]
        },
        "must hold one with the `success` state",
    ),
    (
        {"acceptors": [{"state": "done", "matcher": {"success": True}}]},
        "`state` must be success",
    ),
    ({"acceptors": [{"state": "success", "matcher": {}}]}, "exactly one of"),
    (
        {
            "acceptors": [
                {"state": "success", "matcher": {"success": True, "errorType": "X"}}
            ]
        },
        "exactly one of",
    ),
    (
        {"acceptors": [{"state": "success", "matcher": {"success": "yes"}}]},
        "true or false",
    ),
    (
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {"path": "a", "expected": "x", "comparator": "equals"}
                    },
                }
            ]
        },
        "`comparator` must be one of",
    ),
    (
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "a",
                            "expected": "yes",
                            "comparator": "booleanEquals",
                        }
                    },
                }
            ]
        },
        "expects 'true' or 'false'",
    ),
    (
        {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "a[",
                            "expected": "x",
                            "comparator": "stringEquals",
                        }
                    },
                }
            ]
        },
        "invalid JMESPath expression in path 'a['",
    ),
    (
        {
            "acceptors": [
                {"state": "success", "matcher": {"success": True}, "message": "foo"}
            ]
        },
        "only valid on failure acceptors",
    ),
    (
        {
            "acceptors": [
                {"state": "failure", "matcher": {"success": False}, "message": "foo."}
            ]
        },
        "invalid JMESPath expression in message",
    ),
    (
        {
            "minDelay": 10,
            "maxDelay": 5,
            "acceptors": [{"state": "success", "matcher": {"success": True}}],
        },
        "greater than maxDelay",
    ),
    (
        {
            "minDelay": 0,
            "acceptors": [{"state": "success", "matcher": {"success": True}}],
        },
        "`minDelay` must be an integer >= 1",
    ),
    (
        {
            "maxDelay": True,
            "acceptors": [{"state": "success", "matcher": {"success": True}}],
        },
        "`maxDelay` must be an integer",
    ),
    (
        {
            "tags": [""],
            "acceptors": [{"state": "success", "matcher": {"success": True}}],
        },
        "`tags`",
    ),
    (
        {
            "deprecated": "yes",
            "acceptors": [{"state": "success", "matcher": {"success": True}}],
        },
        "`deprecated`",
    ),
]


@pytest.mark.parametrize(("value", "message"), BAD_TRAITS)
def test_bad_trait_values_get_one_clear_error(
    value: dict[str, Any], message: str
) -> None:
    with pytest.raises(WaiterDefinitionError) as info:
        WaiterDefinition.from_trait("ThingExists", "smithy.example#GetThing", value)
    text = str(info.value)
    assert message in text
    assert "waiter 'ThingExists'" in text and "smithy.example#GetThing" in text
    assert "fix the trait value" in text


def test_members_the_spec_does_not_define_are_ignored() -> None:
    value = {
        "description": "seen in mediapackagev2",
        "acceptors": [{"state": "success", "matcher": {"success": True}, "note": 1}],
    }
    definition = WaiterDefinition.from_trait("W", "ns#Op", value)
    assert definition.acceptors == (
        Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True)),
    )


def test_acceptor_index_is_named() -> None:
    value = {
        "acceptors": [
            {"state": "success", "matcher": {"success": True}},
            {"state": "retry", "matcher": {"errorType": ""}},
        ]
    }
    with pytest.raises(WaiterDefinitionError, match="acceptor 1: `errorType`"):
        WaiterDefinition.from_trait("W", "ns#Op", value)


def test_path_is_compiled_once_unless_the_generator_gave_a_search() -> None:
    calls: list[Any] = []

    def search(data: Any) -> Any:
        calls.append(data)
        return data.get("status")

    matcher = OutputMatcher("status", "ok", Comparator.STRING_EQUALS, search=search)
    assert matcher.compiled is search
    plain = OutputMatcher("status", "ok", Comparator.STRING_EQUALS)
    assert plain.compiled({"status": "ok"}) == "ok"
    assert plain.compiled is plain.compiled  # bound once, at construction
    assert matcher == plain  # the compiled form is not part of the value


def test_direct_construction_is_validated() -> None:
    acceptor = Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True))
    with pytest.raises(WaiterDefinitionError, match="no acceptors"):
        WaiterDefinition("W", "ns#Op", ())
    with pytest.raises(
        WaiterDefinitionError, match="minDelay 5 is greater than maxDelay 3"
    ):
        WaiterDefinition("W", "ns#Op", (acceptor,), min_delay=5, max_delay=3)
    with pytest.raises(WaiterDefinitionError, match="min_delay must be a positive"):
        WaiterDefinition("W", "ns#Op", (acceptor,), min_delay=0)
    with pytest.raises(WaiterDefinitionError, match="comparator"):
        OutputMatcher("a", "b", "stringEquals")  # type: ignore[arg-type]
