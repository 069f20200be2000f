"""Where the trait may go (TraitTarget): operations without event streams only."""

from __future__ import annotations

from typing import Any

import pytest

from waitable_codegen.validation import validate

from .builders import NS, model, one_waiter, path_acceptor, ref, structure

WAITERS = one_waiter([path_acceptor("missing == 'x'")])  # a DANGER where it runs


def events_of(shapes: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(e.severity.name, e.shape_id, e.event_id) for e in validate(model(shapes))}


def test_the_trait_on_a_structure_is_an_error_naming_it() -> None:
    (event,) = validate(
        model({"Thing": structure(traits={"smithy.waiters#waitable": WAITERS})})
    )
    assert str(event) == (
        f"[ERROR] {NS}#Thing: Trait `smithy.waiters#waitable` cannot be applied to "
        f"`{NS}#Thing`. This trait may only be applied to shapes that match the "
        "following selector: operation :not(-[input, output]-> structure > member > "
        "union[trait|streaming]) | TraitTarget"
    )


def streaming_operation(
    relationship: str, union_traits: dict[str, Any]
) -> dict[str, Any]:
    return {
        "Op": {
            "type": "operation",
            relationship: ref("Io"),
            "traits": {"smithy.waiters#waitable": WAITERS},
        },
        "Io": structure({"events": "Events"}),
        "Events": {
            "type": "union",
            "members": {"ping": ref("smithy.api#Unit")},
            "traits": union_traits,
        },
    }


@pytest.mark.parametrize("relationship", ["input", "output"])
def test_an_event_stream_operation_cannot_be_waited_on(relationship: str) -> None:
    shapes = streaming_operation(relationship, {"smithy.api#streaming": {}})
    assert events_of(shapes) == {("ERROR", f"{NS}#Op", "TraitTarget")}


def test_a_union_that_does_not_stream_is_fine() -> None:
    found = events_of(streaming_operation("output", {}))
    assert ("ERROR", f"{NS}#Op", "TraitTarget") not in found
    assert (
        "DANGER",
        f"{NS}#Op",
        "WaitableTraitJmespathProblem.JmespathEventDanger.Ready.0",
    ) in found


def test_a_streaming_blob_is_not_an_event_stream() -> None:
    shapes = {
        "Op": {
            "type": "operation",
            "output": ref("Out"),
            "traits": {
                "smithy.waiters#waitable": one_waiter(
                    [{"state": "success", "matcher": {"success": True}}]
                )
            },
        },
        "Out": structure({"body": "Body"}),
        "Body": {"type": "blob", "traits": {"smithy.api#streaming": {}}},
    }
    assert events_of(shapes) == set()


def test_a_trait_target_error_stops_the_waiter_checks() -> None:
    shapes = {
        "Thing": structure(traits={"smithy.waiters#waitable": WAITERS}),
        "Op": {"type": "operation", "traits": {"smithy.waiters#waitable": WAITERS}},
    }
    assert events_of(shapes) == {("ERROR", f"{NS}#Thing", "TraitTarget")}
