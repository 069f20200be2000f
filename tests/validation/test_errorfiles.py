"""Smithy's own waiter errorfiles: validating each NAME.json yields what NAME.errors lists.

Matched as Smithy's errorfile runner matches: same severity and shape, an event id
equal to the expected one or extending it at a dot, and the expected message a prefix
of ours. Every expected event must be found and every event we give (except
SUPPRESSED ones) must be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from shared_corpora import needs_shared, shared_path

from waitable_codegen.model import load_model
from waitable_codegen.validation import Severity, ValidationEvent, validate
from waitable_codegen.validation.events import id_matches

from .builders import SHARED

ERRORFILES = SHARED / "conformance" / "smithy-waiters-errorfiles"
CASES = sorted(ERRORFILES.glob("*.json"))
_LINE = re.compile(
    r"^\[(?P<severity>[A-Z]+)\] (?P<shape>\S+): (?P<message>.*) \| (?P<id>\S+)$"
)


@dataclass(frozen=True)
class Expected:
    """One line of a `.errors` file."""

    severity: str
    shape_id: str
    message: str
    event_id: str

    def matches(self, event: ValidationEvent) -> bool:
        return (
            event.severity.name == self.severity
            and event.shape_id == self.shape_id
            and id_matches(self.event_id, event.event_id)  # ours extends theirs
            and event.message.startswith(self.message)
        )


def read_errors(path: Path) -> list[Expected]:
    expected = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            found = _LINE.match(line)
            assert found, f"{path.name}: unreadable line {line!r}"
            expected.append(
                Expected(
                    found["severity"], found["shape"], found["message"], found["id"]
                )
            )
    return expected


def test_all_22_cases_are_present() -> None:
    shared_path("conformance", "smithy-waiters-errorfiles")
    assert len(CASES) == 22
    assert all(case.with_suffix(".errors").is_file() for case in CASES)


@needs_shared("conformance", "smithy-waiters-errorfiles")
@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_errorfile(case: Path) -> None:
    expected = read_errors(case.with_suffix(".errors"))
    events = [
        e for e in validate(load_model([case])) if e.severity is not Severity.SUPPRESSED
    ]
    missing = [x for x in expected if not any(x.matches(e) for e in events)]
    unexpected = [str(e) for e in events if not any(x.matches(e) for x in expected)]
    assert not missing, f"expected but not found: {missing}"
    assert not unexpected, f"found but not expected: {unexpected}"
