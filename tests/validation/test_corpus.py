"""Every real model under ../shared/models validates with no ERROR and no DANGER.

The 64 AWS models carry 278 waiters; Smithy accepts them all. Their only warnings
are `WaitableTraitInvalidErrorType`s that the models suppress themselves on the
operation, and mediapackagev2's `description` member in a waiter, which Smithy
also reports (an unknown structure member is a WARNING).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_corpora import shared_path

from waitable_codegen.model import load_model
from waitable_codegen.validation import Severity, ValidationEvent, validate
from waitable_codegen.validation.suppressions import SUPPRESS_TRAIT

from .builders import SHARED

MODELS = sorted((SHARED / "models").glob("*/*.json"))


def test_the_corpus_holds_64_models() -> None:
    shared_path("models")
    assert len(MODELS) == 64


@pytest.fixture(scope="module")
def corpus_events() -> dict[str, tuple[list[ValidationEvent], dict[str, object]]]:
    """Each model's events, and the suppress traits of the shapes they name."""
    shared_path("models")
    found = {}
    for path in MODELS:
        loaded = load_model([path])
        events = validate(loaded)
        suppress = {
            e.shape_id: loaded[e.shape_id].traits.get(SUPPRESS_TRAIT) for e in events
        }
        found[f"{path.parent.name}/{path.name}"] = (events, suppress)
    return found


def test_no_model_has_an_error_or_a_danger(
    corpus_events: dict[str, tuple[list[ValidationEvent], dict[str, object]]],
) -> None:
    blocking = [
        f"{name}: {event}"
        for name, (events, _) in corpus_events.items()
        for event in events
        if event.severity >= Severity.DANGER
    ]
    assert blocking == []


def test_invalid_error_types_are_all_suppressed_by_the_models_own_traits(
    corpus_events: dict[str, tuple[list[ValidationEvent], dict[str, object]]],
) -> None:
    shared_path("models")
    invalid = [
        (event, suppress.get(event.shape_id))
        for events, suppress in corpus_events.values()
        for event in events
        if event.event_id.startswith("WaitableTraitInvalidErrorType.")
    ]
    assert len(invalid) > 10  # the corpus exercises suppression for real
    for event, trait in invalid:
        assert event.severity is Severity.SUPPRESSED, str(event)
        assert trait == ["WaitableTraitInvalidErrorType"], str(event)


def test_the_only_unsuppressed_event_is_mediapackagev2s_unknown_member(
    corpus_events: dict[str, tuple[list[ValidationEvent], dict[str, object]]],
) -> None:
    shared_path("models")
    shown = [
        str(event)
        for events, _ in corpus_events.values()
        for event in events
        if event.severity is not Severity.SUPPRESSED
    ]
    assert shown == [
        "[WARNING] com.amazonaws.mediapackagev2#GetHarvestJob: Error validating trait "
        "`smithy.waiters#waitable`.HarvestJobFinished: Invalid structure member "
        "`description` found for `smithy.waiters#Waiter` | TraitValue"
    ]
