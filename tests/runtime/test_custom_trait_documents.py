"""`custom_waiter_from_trait`: where the document comes from and what its errors say.

README: `custom_waiter_from_trait(name, "waiters.json")` reads a file, so a plain
string naming a file is a path; a file may hold several waiters, and asking for one
it does not hold names the ones it does. A broken value is reported once, with the
file and the waiter, not wrapped in its own prefix again, and says what to fix
in the document: there is no model (review s23, finding 6).
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

PREFIX = "the trait document: waiter 'Build'"


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
    assert text.count("fix it in the document") == 1


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
    assert text.count("fix it in the document") == 1


def test_a_bad_backoff_is_refused_when_the_class_is_built() -> None:
    """As `custom_waiter` does: not later, when the class is first instantiated."""
    with pytest.raises(WaiterConfigurationError, match="backoff must be a strategy"):
        custom_waiter_from_trait("Build", BUILD, backoff="fixed")
    assert custom_waiter_from_trait("Build", BUILD, backoff=FixedDelay()) is not None


# Review s23, finding 6: a document passed to custom_waiter_from_trait is no model.
# Its errors name the document (the file's path, or "the trait document") and the
# waiter once, and close with one piece of advice saying what to fix in it.

_OK = {"state": "success", "matcher": {"success": True}}
_BAD_PATH = {
    "state": "success",
    "matcher": {
        "output": {"path": "a[", "expected": "x", "comparator": "stringEquals"}
    },
}
DOCUMENT_ERRORS = [
    (
        {"acceptors": [_OK], "minDelay": 30, "maxDelay": 15},
        "waiter 'Build': minDelay 30 is greater than maxDelay 15; "
        "make minDelay <= maxDelay in the {place}",
    ),
    (
        {"acceptors": [_OK], "minDelay": 0},
        "waiter 'Build': `minDelay` must be an integer >= 1, got 0; "
        "fix it in the {place}",
    ),
    (
        {"acceptors": [_OK], "maxDelay": 10**20},
        "waiter 'Build': `maxDelay` must be a positive, finite number of seconds",
    ),
    (
        {"acceptors": [{"state": "done", "matcher": {"success": True}}]},
        "waiter 'Build', acceptor 0: `state` must be success, failure or retry, "
        "got 'done'; fix it in the {place}",
    ),
    (
        {"acceptors": [_BAD_PATH]},
        "waiter 'Build', acceptor 0: invalid JMESPath expression in path 'a[': ",
    ),
    (
        {"acceptors": [{**_OK, "state": "retry", "message": "reason"}, _OK]},
        "waiter 'Build', acceptor 0: an acceptor `message` is only valid on failure "
        "acceptors, but this acceptor's state is retry; remove the message in the "
        "{place}",
    ),
]


@pytest.mark.parametrize(("document", "expected"), DOCUMENT_ERRORS)
@pytest.mark.parametrize("form", ["dict", "file"])
def test_document_errors_name_the_document_not_a_model(
    tmp_path: Path, form: str, document: dict[str, Any], expected: str
) -> None:
    if form == "file":
        file = tmp_path / "waiters.json"
        file.write_text(json.dumps({"Build": document}))
        source, place, given = str(file), "file", file
    else:
        source, place, given = "the trait document", "document", document
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", given)  # type: ignore[arg-type]
    text = str(raised.value)
    assert text.startswith(f"{source}: {expected.format(place=place)}")
    assert text.count("'Build'") == 1  # the waiter is named once
    for model_words in ("smithy.waiters#waitable", "on custom", "operation", "model"):
        assert model_words not in text
    assert text.count("; ") == 1 or "JMESPath" in text  # one closing advice


def test_a_bad_path_in_a_document_gets_one_fix_clause(tmp_path: Path) -> None:
    file = tmp_path / "waiters.json"
    file.write_text(json.dumps({"Build": {"acceptors": [_BAD_PATH]}}))
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", file)
    text = str(raised.value)
    assert text.endswith("; fix the expression in the file")
    assert text.count("fix") == 1
    assert "waiter's trait" not in text


def test_a_model_trait_keeps_its_messages() -> None:
    """The same mistakes in a model's trait (no document) say what they said."""
    from waitable.definition import WaiterDefinition

    cases = [
        (
            {"acceptors": [_OK], "minDelay": 30, "maxDelay": 15},
            "smithy.waiters#waitable on ns#GetBuild: waiter 'Build': waiter 'Build' "
            "of operation 'ns#GetBuild': minDelay 30 is greater than maxDelay 15; "
            "make minDelay <= maxDelay; fix the trait value in the model",
        ),
        (
            {"acceptors": [_BAD_PATH]},
            "; fix the expression in the waiter's trait; fix the trait value in the "
            "model",
        ),
        (
            {"acceptors": [{**_OK, "state": "retry", "message": "reason"}, _OK]},
            "smithy.waiters#waitable on ns#GetBuild: waiter 'Build', acceptor 0: an "
            "acceptor `message` is only valid on failure acceptors, but this "
            "acceptor's state is retry; remove the message; fix the trait value in "
            "the model",
        ),
        (
            {"acceptors": [_OK], "maxDelay": 10**20},
            "smithy.waiters#waitable on ns#GetBuild: waiter 'Build': waiter 'Build' "
            "of operation 'ns#GetBuild': max_delay must be a positive",
        ),
    ]
    for value, expected in cases:
        with pytest.raises(WaiterDefinitionError) as raised:
            WaiterDefinition.from_trait("Build", "ns#GetBuild", value)
        assert expected in str(raised.value)


@pytest.mark.parametrize("empty", ["", "   ", "\n", b"", b" \n"])
def test_an_empty_document_is_refused_as_empty_not_read_as_a_directory(
    empty: str | bytes,
) -> None:
    """Review s23, finding 7: "" became `Path("")`, the directory `.`."""
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", empty)
    text = str(raised.value)
    assert text.startswith("the trait document is empty")
    assert "dict" in text and "JSON text" in text and "path" in text
    assert "directory" not in text and not text.startswith(".:")
