"""Documentation from models made readable: HTML to paragraphs, CommonMark kept."""

from __future__ import annotations

import re

from hypothesis import assume, given
from hypothesis import strategies as st

from waitable_codegen.docs import looks_like_html, normalize, to_docstring_text


def test_html_becomes_paragraphs_lists_and_backticked_code() -> None:
    html = (
        "<p>Waits until the <code>Table</code> is &lt;ACTIVE&gt;.</p>"
        "<ul><li><p>one</p></li><li>two <a href='https://example.com/x'>docs</a></li></ul>"
        "<note><p>Polls every 20 seconds.</p></note>"
        "<ol><li>first</li><li>second<ul><li>nested</li></ul></li></ol>"
    )
    assert to_docstring_text(html) == (
        "Waits until the `Table` is <ACTIVE>.\n"
        "\n"
        "- one\n"
        "- two docs (https://example.com/x)\n"
        "\n"
        "Note: Polls every 20 seconds.\n"
        "\n"
        "1. first\n"
        "2. second\n"
        "  - nested"
    )


def test_long_html_paragraphs_are_wrapped() -> None:
    text = to_docstring_text("<p>" + "word " * 60 + "</p>")
    assert all(len(line) <= 79 for line in text.splitlines())
    assert text.split() == ["word"] * 60


def test_commonmark_is_kept_as_written() -> None:
    markdown = "Waits for *it*.\n\n- a\n- b\n\n```\ncode  here\n```"
    assert not looks_like_html(markdown)
    assert to_docstring_text(markdown) == markdown


@given(st.text(alphabet=st.characters(blacklist_characters="<&"), max_size=200))
def test_plain_text_keeps_every_word_and_normalising_is_idempotent(text: str) -> None:
    result = to_docstring_text(text)
    assert result.split() == normalize(text).split()
    assert normalize(result) == result
    assert not re.search(r"[ \t]+$", result, re.MULTILINE)


@given(st.text(max_size=200))
def test_any_text_converts_without_error_to_normalised_text(text: str) -> None:
    result = to_docstring_text(text)
    assert normalize(result) == result


@given(
    st.text(st.sampled_from(" \t\r\n\u00a0\u2028\ud800abc`.:-*\\\"'")),
    st.from_regex(r"[A-Z][A-Za-z0-9]{0,20}", fullmatch=True),
)
def test_a_paragraph_before_normalised_text_keeps_it_normalised(
    text: str, name: str
) -> None:
    # The planner places the async waiter's first paragraph before the sync
    # docstring (normalised, never empty) without normalising again.
    body = normalize(text)
    assume(body)
    joined = f"Asyncio variant of `{name}Waiter`: `await waiter.wait(...)`.\n\n{body}"
    assert normalize(joined) == joined
