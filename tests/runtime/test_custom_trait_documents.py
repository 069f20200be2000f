"""`custom_waiter_from_trait`: where the document comes from and what its errors say.

README: `custom_waiter_from_trait(name, "waiters.json")` reads a file, so a plain
string naming a file is a path; a file may hold several waiters, and asking for one
it does not hold names the ones it does. A broken value is reported once, with the
file and the waiter, not wrapped in its own prefix again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import FixedDelay, WaiterConfigurationError, WaiterDefinitionError
from waitable.custom import custom_waiter_from_trait
from waitable.testing import VirtualClock

PREFIX = "smithy.waiters#waitable on custom: waiter 'Build'"


def _acceptor(expected: str, state: str = "success") -> dict[str, Any]:
    return {
        "state": state,
        "matcher": {
            "output": {
                "path": "result",
                "expected": expected,
                "comparator": "stringEquals",
            }
        },
    }


BUILD = {"acceptors": [_acceptor("SUCCESS")], "minDelay": 15, "maxDelay": 15}
STARTED = {"acceptors": [_acceptor("RUNNING")], "minDelay": 5, "maxDelay": 5}


def test_a_file_named_by_a_plain_string_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "waiters.json").write_text(json.dumps({"Build": BUILD}))
    monkeypatch.chdir(tmp_path)
    from_name = custom_waiter_from_trait("Build", "waiters.json")
    from_path = custom_waiter_from_trait("Build", tmp_path / "waiters.json")
    assert from_name.definition == from_path.definition
    from_absolute = custom_waiter_from_trait("Build", str(tmp_path / "waiters.json"))
    assert from_absolute.definition == from_path.definition
    result = from_name(lambda: {"result": "SUCCESS"}, clock=VirtualClock()).wait(
        max_wait_time=60
    )
    assert result.attempts == 1


def test_a_missing_file_named_by_a_string_says_it_cannot_be_read(
    tmp_path: Path,
) -> None:
    missing = str(tmp_path / "nowhere.json")
    with pytest.raises(WaiterDefinitionError, match=r"nowhere\.json: cannot read"):
        custom_waiter_from_trait("Build", missing)


@pytest.mark.parametrize("text", [json.dumps(BUILD), "  \n" + json.dumps(BUILD)])
def test_json_text_is_still_json_text(text: str) -> None:
    built = custom_waiter_from_trait("Build", text)
    assert built.definition.min_delay == 15


def test_broken_json_text_is_still_reported_as_json() -> None:
    with pytest.raises(WaiterDefinitionError, match="not valid JSON"):
        custom_waiter_from_trait("Build", '{"acceptors": [')


def test_a_waiter_missing_from_a_file_of_several_names_the_ones_it_holds(
    tmp_path: Path,
) -> None:
    file = tmp_path / "waiters.json"
    file.write_text(json.dumps({"Build": BUILD, "Started": STARTED}))
    assert custom_waiter_from_trait("Started", file).definition.min_delay == 5
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Finished", file)
    text = str(raised.value)
    assert "waiters.json" in text and "'Finished'" in text
    assert "Build, Started" in text
    assert "non-empty list" not in text  # the old, misleading explanation


def test_a_single_waiter_object_without_acceptors_still_asks_for_them() -> None:
    with pytest.raises(WaiterDefinitionError, match="`acceptors` must be"):
        custom_waiter_from_trait("Build", {"minDelay": 15})


bad_delays = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).filter(
        lambda x: not x.is_integer()
    ),
    st.just(15.0),
    st.integers(max_value=0),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
)


@given(key=st.sampled_from(["minDelay", "maxDelay"]), delay=bad_delays)
def test_a_bad_delay_is_reported_once(key: str, delay: object) -> None:
    document = {**BUILD, key: delay}
    if delay is None:
        document = {**BUILD, key: "none"}
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", document)
    text = str(raised.value)
    assert f"`{key}` must be an integer >= 1" in text
    assert text.count(PREFIX) == 1
    assert text.count("fix the trait value") == 1


def test_a_bad_matcher_is_reported_once_with_its_acceptor() -> None:
    acceptor = {
        "state": "success",
        "matcher": {
            "output": {"path": "ok", "expected": True, "comparator": "booleanEquals"}
        },
    }
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", {"acceptors": [acceptor]})
    text = str(raised.value)
    assert text.count(PREFIX) == 1
    assert "acceptor 0" in text and "needs string `path` and `expected`" in text
    assert text.count("fix the trait value") == 1


def test_a_bad_backoff_is_refused_when_the_class_is_built() -> None:
    """As `custom_waiter` does: not later, when the class is first instantiated."""
    with pytest.raises(WaiterConfigurationError, match="backoff must be a strategy"):
        custom_waiter_from_trait("Build", BUILD, backoff="fixed")
    assert custom_waiter_from_trait("Build", BUILD, backoff=FixedDelay()) is not None
