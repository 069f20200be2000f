"""Line widths as black counts them, bounded without black (`widths`): a wide
character is two columns to black, a combining one none. A review (2026-11-28)
found lines of 88 characters but more columns shipped unsplit."""

from __future__ import annotations

from pathlib import Path

import black
from black.strings import str_width
from hypothesis import given
from hypothesis import strategies as st

from waitable_codegen import generate, render
from waitable_codegen.widths import least_width, may_fit, most_width

from .helpers import write_model
from .test_black_review_s21 import thing_model

WIDE = "タ完ｘ😀"
COMBINING = "\u0301\u0308"


@given(
    st.text(st.characters(exclude_categories=("Cs",)))
    | st.text(WIDE + COMBINING + "ab")
)
def test_blacks_width_lies_within_the_bounds(text: str) -> None:
    assert least_width(text) <= str_width(text) <= most_width(text)
    assert may_fit(text) or str_width(text) > 88


def black_stable_package(tmp_path: Path, shapes: dict[str, object]) -> list[str]:
    """Generate `shapes`; the names of the files black would change."""
    model = write_model(tmp_path / "model.json", shapes)
    result = generate(model, tmp_path / "out", allow_danger=True)
    mode = render.black_mode()
    return [
        path.name
        for path in result.files
        if path.suffix == ".py"
        and black.format_str(path.read_text(), mode=mode) != path.read_text()
    ]


def with_tag(shapes: dict[str, object], tag: str) -> dict[str, object]:
    operation = shapes["ex#GetThing"]
    assert isinstance(operation, dict)
    operation["traits"]["smithy.waiters#waitable"]["ThingExists"]["tags"] = [tag]
    return shapes


def test_a_wide_tag_is_laid_out_as_black_counts_it(tmp_path: Path) -> None:
    shapes = with_tag(thing_model("status", "stringEquals", "ok"), "タグ" * 30)
    assert black_stable_package(tmp_path, shapes) == []


def test_a_wide_literal_in_a_compiled_path_is_left_to_black(tmp_path: Path) -> None:
    path = "status == '" + "完" * 30 + "' && items[0] == 'x'"
    shapes = thing_model(path, "booleanEquals", "true")
    assert black_stable_package(tmp_path, shapes) == []


def test_a_wide_map_key_in_plain_reads_is_laid_out_as_black_counts_it(
    tmp_path: Path,
) -> None:
    shapes = thing_model('labels."' + "ｘ" * 30 + '"', "stringEquals", "ok")
    output = shapes["ex#GetThingOutput"]
    assert isinstance(output, dict)
    output["members"]["labels"] = {"target": "ex#Labels"}
    shapes["ex#Labels"] = {
        "type": "map",
        "key": {"target": "smithy.api#String"},
        "value": {"target": "smithy.api#String"},
    }
    assert black_stable_package(tmp_path, shapes) == []


@given(
    st.text(WIDE + COMBINING + "ab ", min_size=1, max_size=60),
    st.integers(0, 40),
)
def test_wide_and_combining_text_anywhere_gives_black_stable_output(
    text: str, padding: int
) -> None:
    import tempfile

    tag = "t" * padding + text
    path = "status == '" + text.replace("'", "") + "' && items[0] == 'x'"
    with tempfile.TemporaryDirectory() as scratch:
        shapes = with_tag(thing_model(path, "booleanEquals", "true"), tag)
        assert black_stable_package(Path(scratch), shapes) == []


def test_a_long_single_quoted_documentation_needs_no_black(tmp_path: Path) -> None:
    """Text with more `"` than `'` is single-quoted, and the check knew only double
    quotes: AWS's HTML documentation (`<a href="...">`) sent every file to black."""
    shapes = thing_model("status", "stringEquals", "ok")
    operation = shapes["ex#GetThing"]
    assert isinstance(operation, dict)
    operation["traits"]["smithy.waiters#waitable"]["ThingExists"]["documentation"] = (
        'Waits until the thing exists. See <a href="https://docs.aws.amazon.com/'
        'thing/latest/guide">the guide</a>.'
    )
    before = len(render.stats.fallback_names)
    assert black_stable_package(tmp_path, shapes) == []
    assert render.stats.fallback_names[before:] == []
