"""One reading of the names users give for things to import (`--package`,
`--waiter`, waitable.celery's waiter and client names)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.import_names import (
    ImportNameError,
    import_module_named,
    import_object,
    name_problem,
)

_DOTTED = r"[^\W\d]\w*(?:\.[^\W\d]\w*)*"


@given(st.text(alphabet="ab_1.:-é ", max_size=12))
def test_a_name_is_well_formed_exactly_when_it_is_dotted_identifiers(
    name: str,
) -> None:
    as_object = re.fullmatch(f"{_DOTTED}:{_DOTTED}", name) is not None
    as_module = re.fullmatch(_DOTTED, name) is not None
    assert (name_problem(name, with_object=True) is None) == as_object
    assert (name_problem(name, with_object=False) is None) == as_module


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "empty"),
        (".pkg", "relative"),
        ("a..b", "not dotted Python identifiers"),
        ("a:b", "has no ':'"),
    ],
)
def test_a_malformed_module_name_says_why(name: str, words: str) -> None:
    with pytest.raises(ImportNameError) as caught:
        import_module_named(name)
    assert caught.value.kind == "malformed" and words in str(caught.value)


def test_each_kind_of_failure_is_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "names_ok.py").write_text("class Thing:\n    Inner = 1\n")
    (tmp_path / "names_broken.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_object("names_ok:Thing.Inner") == 1
    assert import_module_named("names_ok") is sys.modules["names_ok"]
    for name, kind in [
        ("names_ok:Gone", "missing"),
        ("names_not_here:Thing", "missing"),
        ("names_broken:Thing", "raised"),
        ("names_ok", "malformed"),
        (".names_ok:Thing", "malformed"),
    ]:
        with pytest.raises(ImportNameError) as caught:
            import_object(name)
        assert caught.value.kind == kind, name
    with pytest.raises(ImportNameError) as caught:
        import_object("names_broken:Thing")
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert "importing module 'names_broken' raised RuntimeError: boom" in str(
        caught.value
    )
