"""Many ids checked in one match (`are_shape_ids`, `are_identifiers`) answer as
the one-at-a-time checks do, whatever the texts: line breaks, member parts,
unicode, empty strings; and only what is valid is remembered."""

from __future__ import annotations

import json

from collections.abc import Callable, Iterator
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.model import shape_ids
from waitable_codegen.model.shape_ids import (
    are_identifiers,
    are_shape_ids,
    is_identifier,
    is_shape_id,
)

NAME = st.from_regex(r"\A(?:[A-Za-z]|_+[A-Za-z0-9])[A-Za-z0-9_]{0,6}\Z")
VALID_ID = st.builds(lambda ns, name: f"{ns}#{name}", NAME, NAME)
TRICKY = st.sampled_from(
    ["", "#", "a#", "#b", "a#b$c", "a#b\na#c", "a#b\n", "\na#b", "a.#b", "1a#b", "é#b"]
)
TEXTS = st.lists(st.one_of(VALID_ID, NAME, TRICKY, st.text(max_size=12)), max_size=6)


@pytest.fixture(autouse=True)
def forgotten() -> Iterator[None]:
    """Each test starts with nothing remembered, and leaves nothing behind."""
    saved = [set(known) for known in _caches()]
    for known in _caches():
        known.clear()
    yield
    for known, before in zip(_caches(), saved):
        known.clear()
        known.update(before)


def _caches() -> list[set[str]]:
    return [
        shape_ids.KNOWN_SHAPE_IDS,
        shape_ids.KNOWN_MEMBER_IDS,
        shape_ids.KNOWN_IDENTIFIERS,
    ]


BATCHES: list[tuple[Callable[[list[str]], bool], Callable[[object], bool]]] = [
    (are_shape_ids, is_shape_id),
    (are_identifiers, is_identifier),
]


@settings(max_examples=400, deadline=None)
@given(texts=TEXTS, which=st.sampled_from(BATCHES), few=st.sampled_from([0, 100]))
def test_a_batch_answers_as_each_text_checked_alone(
    texts: list[str],
    which: tuple[Callable[[list[str]], bool], Callable[[object], bool]],
    few: int,
) -> None:
    """Both ways a batch is checked: in bytes passes over all its lines, and (a
    few texts) one match each."""
    batch, alone = which
    for known in _caches():
        known.clear()
    with patch.object(shape_ids, "_FEW", few):
        answer = batch(texts)
    for known in _caches():
        known.clear()
    assert answer == all(alone(text) for text in texts)


@settings(max_examples=150, deadline=None)
@given(texts=TEXTS)
def test_only_valid_ids_are_remembered(texts: list[str]) -> None:
    shape_ids.KNOWN_SHAPE_IDS.clear()
    are_shape_ids(texts)
    assert all(is_shape_id(text) for text in shape_ids.KNOWN_SHAPE_IDS)


def test_the_corpus_ids_pass_in_one_batch_and_bad_ones_stop_it() -> None:
    """Past `_FEW` texts, the bytes passes: thousands of real ids pass, and each
    kind of bad id among them stops the batch."""
    from .helpers import AWS_MODELS

    text = (AWS_MODELS / "dynamodb-2012-08-10.json").read_text(encoding="utf-8")
    ids = [key for key in json.loads(text)["shapes"] if "$" not in key]
    assert len(ids) > shape_ids._FEW and are_shape_ids(ids)
    names = {key.split("#")[1] for key in ids}
    assert are_identifiers(names)
    for bad in [
        "ns#1x",
        "ns#_",
        "ns#a.b",
        "ns#a#b",
        "ns..x#a",
        ".ns#a",
        "ns#",
        "ns#a$b",
    ]:
        shape_ids.KNOWN_SHAPE_IDS.clear()
        assert not are_shape_ids([*ids, bad]), bad
    for bad in ["1x", "_", "a.b", "a#b", "", "a-b", "ä"]:
        shape_ids.KNOWN_IDENTIFIERS.clear()
        assert not are_identifiers([*names, bad]), bad


def test_a_line_break_inside_an_id_is_not_taken_for_two_ids() -> None:
    assert are_shape_ids(["a#b", "a#c"])
    assert not are_shape_ids(["a#b\na#c"])
    assert not are_shape_ids(["a#b\na#c", "a#d"])
    assert not are_identifiers(["ab\ncd"])
    assert "a#b\na#c" not in shape_ids.KNOWN_SHAPE_IDS


def test_a_member_id_is_not_a_shape_id() -> None:
    assert not are_shape_ids(["ns#Shape$member"])
    assert are_shape_ids(["ns#Shape", "ns.sub#Other"])
    assert {"ns#Shape", "ns.sub#Other"} <= shape_ids.KNOWN_SHAPE_IDS


@pytest.mark.parametrize("inside", ["a#b\na#c", "a#b\n", "\na#b", "a\nb"])
def test_a_line_break_inside_a_text_of_a_large_batch_is_refused(inside: str) -> None:
    """The bytes passes count the line breaks: one inside a text is one too many,
    whether the lines it makes would be valid or not."""
    names = [f"ns#Name{index}" for index in range(20)]
    assert not are_shape_ids([*names, inside])
    assert not are_identifiers([f"Name{index}" for index in range(20)] + [inside])
