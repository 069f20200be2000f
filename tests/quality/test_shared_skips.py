"""The suite reports a test as skipped for want of the shared corpora only when a
corpus is missing: a file missing inside a corpus that is there is a failure
(a path the code under test made up)."""

from __future__ import annotations

import errno
import os

import pytest
from shared_corpora import SHARED, has_shared, missing_shared_file


def _not_found(path: object) -> FileNotFoundError:
    return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))


@pytest.mark.skipif(not has_shared("conformance"), reason="needs ../shared")
def test_a_file_missing_inside_a_present_corpus_is_a_failure() -> None:
    corpus = SHARED / "conformance" / "smithy-waiters-errorfiles"
    assert corpus.is_dir()
    made_up = corpus / "inputoutput-operation-with-no-input.json"  # lower-cased
    assert missing_shared_file(_not_found(made_up)) is None
    try:  # as the model loader reports it: `raise ModelError(...) from None`
        try:
            raise _not_found(made_up)
        except FileNotFoundError:
            raise ValueError("cannot read the model") from None
    except ValueError as error:
        assert missing_shared_file(error) is None


def test_a_missing_corpus_is_a_skip() -> None:
    missing = SHARED / "no-such-corpus-dir" / "nested" / "model.json"
    assert missing_shared_file(_not_found(missing)) == (
        "no-such-corpus-dir",
        "nested",
        "model.json",
    )
    try:
        try:
            raise _not_found(missing)
        except FileNotFoundError:
            raise ValueError("cannot read the model") from None
    except ValueError as error:
        assert missing_shared_file(error) is not None


def test_other_errors_are_not_skips() -> None:
    assert missing_shared_file(ValueError("no")) is None
    assert missing_shared_file(_not_found("/nonexistent/elsewhere.json")) is None
