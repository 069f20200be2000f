"""Suppressions as Smithy applies them: the suppress trait and metadata.suppressions."""

from __future__ import annotations

from typing import Any

import pytest

from waitable_codegen.validation import Severity, validate

from .builders import NS, one_waiter, path_acceptor, triples, waitable_operation

OP = f"{NS}#Op"
INVALID_ERROR = "WaitableTraitInvalidErrorType.Ready.1"
DANGER = "WaitableTraitJmespathProblem.JmespathEventDanger.Ready.0"
ERROR = "WaitableTrait"


def operation(
    traits: dict[str, Any] | None = None, metadata: dict[str, Any] | None = None
) -> list[tuple[str, str, str]]:
    """Events of an operation with a DANGER, a WARNING and an ERROR, sorted."""
    waiters = one_waiter(
        [
            path_acceptor("missing == 'x'", expected="yes"),  # DANGER + ERROR
            {"state": "failure", "matcher": {"errorType": "Nope"}},  # WARNING
        ]
    )
    loaded = waitable_operation(waiters, traits=traits, metadata=metadata)
    return sorted(triples(validate(loaded)))


UNSUPPRESSED = sorted(
    {
        ("ERROR", OP, ERROR),
        ("DANGER", OP, DANGER),
        ("WARNING", OP, INVALID_ERROR),
    }
)


def test_without_suppressions() -> None:
    assert operation() == UNSUPPRESSED


@pytest.mark.parametrize(
    "suppress",
    [
        ["WaitableTraitInvalidErrorType"],
        ["WaitableTraitInvalidErrorType.Ready"],
        ["WaitableTraitInvalidErrorType.Ready.1"],
        ["Other", "WaitableTraitInvalidErrorType"],
    ],
)
def test_the_suppress_trait_silences_by_dotted_prefix(suppress: list[str]) -> None:
    found = operation(traits={"smithy.api#suppress": suppress})
    assert ("SUPPRESSED", OP, INVALID_ERROR) in found
    assert ("WARNING", OP, INVALID_ERROR) not in found


@pytest.mark.parametrize(
    "suppress",
    [["WaitableTraitInvalidError"], ["WaitableTraitInvalidErrorType.Read"], ["Ready"]],
)
def test_a_prefix_that_does_not_end_at_a_dot_silences_nothing(
    suppress: list[str],
) -> None:
    assert operation(traits={"smithy.api#suppress": suppress}) == UNSUPPRESSED


@pytest.mark.parametrize("namespace", ["*", NS])
def test_metadata_suppressions_by_namespace(namespace: str) -> None:
    metadata = {
        "suppressions": [{"id": "WaitableTraitJmespathProblem", "namespace": namespace}]
    }
    found = operation(metadata=metadata)
    assert ("SUPPRESSED", OP, DANGER) in found
    assert ("WARNING", OP, INVALID_ERROR) in found


def test_metadata_suppressions_of_another_namespace_do_not_apply() -> None:
    metadata = {
        "suppressions": [{"id": "WaitableTraitJmespathProblem", "namespace": "other"}]
    }
    assert operation(metadata=metadata) == UNSUPPRESSED


def test_errors_cannot_be_suppressed() -> None:
    metadata = {"suppressions": [{"id": "WaitableTrait", "namespace": "*"}]}
    found = operation(
        traits={"smithy.api#suppress": ["WaitableTrait"]}, metadata=metadata
    )
    assert ("ERROR", OP, ERROR) in found


@pytest.mark.parametrize(
    "suppressions",
    [
        "not a list",
        [1, None, "WaitableTrait"],
        [{"id": "WaitableTraitInvalidErrorType"}],  # no namespace
        [{"namespace": "*"}],
    ],
)
def test_malformed_metadata_suppressions_are_ignored(suppressions: Any) -> None:
    assert operation(metadata={"suppressions": suppressions}) == UNSUPPRESSED


def test_a_suppressed_event_keeps_its_message_and_never_counts_as_blocking() -> None:
    loaded = waitable_operation(
        one_waiter(
            [
                {"state": "success", "matcher": {"success": True}},
                {"state": "failure", "matcher": {"errorType": "Nope"}},
            ]
        ),
        traits={"smithy.api#suppress": ["WaitableTraitInvalidErrorType"]},
    )
    (event,) = validate(loaded)
    assert event.severity is Severity.SUPPRESSED
    assert str(event).startswith(f"[SUPPRESSED] {OP}: Waiter `Ready`, acceptor 1: ")
