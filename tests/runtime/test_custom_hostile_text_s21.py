"""`custom_waiter_from_trait` with text a review (2026-11-28) found raising the
wrong error: a lone surrogate in the name or documentation, a 5000-digit index."""

from __future__ import annotations

import pytest

from waitable import WaiterDefinitionError, custom_waiter_from_trait

DOC = {
    "acceptors": [
        {
            "state": "success",
            "matcher": {
                "output": {
                    "path": "status",
                    "comparator": "stringEquals",
                    "expected": "x",
                }
            },
        }
    ]
}


def test_a_lone_surrogate_in_the_documentation_is_kept_in_the_definition() -> None:
    """Python stores `__doc__` as UTF-8: class creation raised UnicodeEncodeError."""
    waiter = custom_waiter_from_trait("Build", dict(DOC, documentation="x\ud800y"))
    assert waiter.__doc__ == "x\ufffdy"
    assert waiter.definition.documentation == "x\ud800y"
    assert waiter.Async.__doc__ == "x\ufffdy"


def test_a_lone_surrogate_in_the_name_makes_a_class() -> None:
    waiter = custom_waiter_from_trait("Build\ud800", DOC)
    assert waiter.definition.name == "Build\ud800"
    assert waiter.__doc__ is not None and "\ufffd" in waiter.__doc__


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_an_index_past_the_digit_limit_is_a_definition_error(mode: str) -> None:
    """It was a bare ValueError from the jmespath package's lexer."""
    path = "a[" + "9" * 5000 + "]"
    document = {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": path,
                        "comparator": "stringEquals",
                        "expected": "x",
                    }
                },
            }
        ]
    }
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", document, jmespath=mode)
    assert "a number of more than 4300 digits" in str(raised.value)
    assert len(str(raised.value)) < 600
