"""Model text a review (2026-11-28) found mishandled: a number past Python's digit
limit, a legacy JMESPath literal, `_jp.` inside a path's text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from waitable_codegen import ValidationFailed, generate

from .test_black_review_s21 import thing_model
from .helpers import write_model


def test_a_number_past_the_digit_limit_is_a_validation_error(tmp_path: Path) -> None:
    """It stopped generation with "internal error ... a bug in generate-waiters"."""
    path = "items[" + "9" * 5000 + "]"
    model = write_model(tmp_path / "m.json", thing_model(path, "stringEquals", "x"))
    with pytest.raises(ValidationFailed) as failed:
        generate(model, tmp_path / "out")
    text = str(failed.value.events[0].message)
    assert "a number of more than 4300 digits" in text
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_legacy_literal_does_not_warn_at_every_import(
    tmp_path: Path, mode: str
) -> None:
    """`` status == `ok` `` made every import warn, and fail under -W error."""
    model = write_model(
        tmp_path / "m.json", thing_model("status == `ok`", "booleanEquals", "true")
    )
    generate(model, tmp_path / "legacy", jmespath=mode)
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import legacy"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_jp_in_a_literal_adds_no_import(tmp_path: Path) -> None:
    model = write_model(
        tmp_path / "m.json", thing_model("status == '_jp.x'", "booleanEquals", "true")
    )
    generate(model, tmp_path / "out")
    waiters = (tmp_path / "out" / "waiters.py").read_text()
    assert "'_jp.x'" in waiters or '"_jp.x"' in waiters
    assert "jmespath_runtime as _jp" not in waiters
    model = write_model(
        tmp_path / "m2.json",
        thing_model("length(items) > `1`", "booleanEquals", "true"),
    )
    generate(model, tmp_path / "out2")
    assert "jmespath_runtime as _jp" in (tmp_path / "out2" / "waiters.py").read_text()
