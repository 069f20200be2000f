"""Smithy's suppressions: the `smithy.api#suppress` trait and `metadata.suppressions`.

A suppressed event keeps its place in the list with severity SUPPRESSED (as Smithy
does), so a verbose listing can still show it; it never stops generation. ERROR
events cannot be suppressed. An id suppresses an event when it is the event's id or
a dotted prefix of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model import Model, shape_namespace
from .events import Severity, ValidationEvent, id_matches

SUPPRESS_TRAIT = "smithy.api#suppress"


def apply_suppressions(
    model: Model, events: list[ValidationEvent]
) -> list[ValidationEvent]:
    """`events` with every suppressed one turned SUPPRESSED."""
    rules = _metadata_rules(model.metadata.get("suppressions"))
    return [
        (
            replace(event, severity=Severity.SUPPRESSED)
            if _is_suppressed(model, event, rules)
            else event
        )
        for event in events
    ]


def _metadata_rules(value: Any) -> list[tuple[str, str]]:
    """The well-formed `{id, namespace}` entries; others are ignored, as they cannot
    say what they mean to suppress."""
    if not isinstance(value, list):
        return []
    return [
        (entry["id"], entry["namespace"])
        for entry in value
        if isinstance(entry, dict)
        and isinstance(entry.get("id"), str)
        and isinstance(entry.get("namespace"), str)
    ]


def _is_suppressed(
    model: Model, event: ValidationEvent, rules: list[tuple[str, str]]
) -> bool:
    if event.severity in (Severity.ERROR, Severity.SUPPRESSED):
        return False
    shape = model.get(event.shape_id)
    trait = shape.traits.get(SUPPRESS_TRAIT) if shape is not None else None
    if isinstance(trait, list) and any(
        isinstance(prefix, str) and id_matches(prefix, event.event_id)
        for prefix in trait
    ):
        return True
    namespace = shape_namespace(event.shape_id)
    return any(
        id_matches(rule_id, event.event_id) and rule_namespace in ("*", namespace)
        for rule_id, rule_namespace in rules
    )
