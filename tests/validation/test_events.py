"""Validation events: Smithy's printed form, severities in order, dotted id prefixes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable_codegen.validation import Severity, ValidationEvent
from waitable_codegen.validation.events import id_matches


def test_severities_are_ordered_and_named_as_smithy_prints_them() -> None:
    assert Severity.NOTE < Severity.WARNING < Severity.DANGER < Severity.ERROR
    assert Severity.SUPPRESSED < Severity.NOTE
    assert [s.name for s in Severity] == [
        "SUPPRESSED",
        "NOTE",
        "WARNING",
        "DANGER",
        "ERROR",
    ]


def test_an_event_prints_in_smithys_form_and_is_frozen() -> None:
    event = ValidationEvent(Severity.DANGER, "ns#Op", "Some.Id", "went wrong")
    assert str(event) == "[DANGER] ns#Op: went wrong | Some.Id"
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.message = "else"  # type: ignore[misc]


_part = st.text("abcXYZ09", min_size=1, max_size=4)


@given(st.lists(_part, min_size=1, max_size=5), st.integers(1, 5))
def test_a_prefix_matches_when_it_ends_at_a_dot(parts: list[str], keep: int) -> None:
    event_id = ".".join(parts)
    assert id_matches(".".join(parts[:keep]), event_id)


@given(st.lists(_part, min_size=1, max_size=5), st.data())
def test_a_prefix_cut_inside_a_part_does_not_match(
    parts: list[str], data: st.DataObject
) -> None:
    event_id = ".".join(parts)
    cut = data.draw(st.integers(1, len(event_id)))
    prefix = event_id[:cut]
    at_boundary = cut == len(event_id) or event_id[cut] == "."
    assert id_matches(prefix, event_id) == at_boundary


def test_waitable_trait_does_not_match_its_longer_siblings() -> None:
    assert not id_matches("WaitableTrait", "WaitableTraitJmespathProblem")
    assert id_matches(
        "WaitableTraitJmespathProblem",
        "WaitableTraitJmespathProblem.ReturnTypeMismatch.A.0",
    )
