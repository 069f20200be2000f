"""`SavedWait.to_json(key=...)` signs a saved wait and `from_json(text, key=...)`
refuses one changed since: a record handed to a client and back cannot move its
deadline, its input or its attempt count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import SavedWait, WaiterConfigurationError

from .test_saved_wait_tampered import polled

KEY = b"k" * 32


def saved_text() -> str:
    """A saved wait after one poll (a busy answer), as JSON."""
    _, _, data = polled("busy", "busy")
    return json.dumps(data)


def signed() -> str:
    return SavedWait.from_json(saved_text()).to_json(key=KEY)


def test_a_signed_record_reads_back_as_it_was() -> None:
    text = signed()
    assert "signature" in json.loads(text)
    assert SavedWait.from_json(text, key=KEY) == SavedWait.from_json(saved_text())


def test_a_signed_record_reads_without_the_key_too() -> None:
    assert SavedWait.from_json(signed()) == SavedWait.from_json(saved_text())


@settings(max_examples=60)
@given(st.data())
def test_any_field_changed_is_refused(data: st.DataObject) -> None:
    document: dict[str, Any] = json.loads(signed())
    field = data.draw(st.sampled_from(sorted(set(document) - {"signature"})))
    value = data.draw(
        st.one_of(st.integers(), st.floats(allow_nan=False), st.text(), st.none())
    )
    if document[field] == value:
        return
    document[field] = value
    with pytest.raises(WaiterConfigurationError, match="signature does not match"):
        SavedWait.from_json(json.dumps(document), key=KEY)


def test_the_deadline_moved_up_is_refused() -> None:
    document = json.loads(signed())
    document["max_wait_time"] += 3600
    document["deadline"] += 3600
    with pytest.raises(WaiterConfigurationError, match="signature does not match"):
        SavedWait.from_json(json.dumps(document), key=KEY)


@pytest.mark.parametrize(
    "text",
    [
        saved_text(),  # not signed
        json.dumps({**json.loads(saved_text()), "signature": 5}),
        json.dumps({**json.loads(saved_text()), "signature": "\ud800"}),
    ],
)
def test_an_unsigned_or_garbled_signature_is_refused(text: str) -> None:
    with pytest.raises(WaiterConfigurationError, match="signed|signature"):
        SavedWait.from_json(text, key=KEY)


def test_another_key_is_refused() -> None:
    with pytest.raises(WaiterConfigurationError, match="another key"):
        SavedWait.from_json(signed(), key=b"x" * 32)


@pytest.mark.parametrize("key", [b"short", "a text key of enough length", 5])
def test_a_key_that_is_no_secret_is_refused(key: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="signing key must"):
        SavedWait.from_json(saved_text()).to_json(key=key)
    with pytest.raises(WaiterConfigurationError, match="signing key must"):
        SavedWait.from_json(signed(), key=key)
