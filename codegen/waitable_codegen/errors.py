"""Errors the generator reports to a person: one line saying where and what to do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class GenerationError(Exception):
    """Generation stopped before anything was written; str() is the one-line reason.

    `exit_status` is what the CLI exits with: 1 for bad input, 2 for bad usage.
    """

    exit_status = 1


class UsageError(GenerationError):
    """The arguments do not make sense together (an unknown --service, no model)."""

    exit_status = 2


class ValidationFailed(GenerationError):
    """Validation found ERROR events (or DANGER ones, unless they are allowed)."""

    def __init__(self, message: str, events: Sequence[Any]) -> None:
        super().__init__(message)
        self.events = tuple(events)
