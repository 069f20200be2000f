"""The docs checks themselves catch drift: markers, block extraction, imports, prose names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .imported_names import imported_names, unbound_names
from .markdown_blocks import MarkerError, parse_blocks
from .prose_names import GENERATED_LOOKING, prose_names, prose_options
from .test_readme_examples import RUN_BLOCK, check_imports, pieces, runs_generator


def test_a_renamed_shape_fails_the_import_check_even_in_a_skipped_block(
    doc_packages: Path,
) -> None:
    (block,) = parse_blocks(
        "<!-- doctest: skip needs a real account -->\n"
        "```python\n"
        "from s3_waiters.shapes import HeadBucketInput, HeadBucketOutput\n"
        "```\n",
        "README.md",
    )
    names = imported_names(block.code, block.first_code_line)
    problems = check_imports({(n.module, n.name) for n in names}, doc_packages)
    assert list(problems) == ["s3_waiters.shapes:HeadBucketInput"]
    assert problems["s3_waiters.shapes:HeadBucketInput"].startswith(
        "s3_waiters.shapes has no name 'HeadBucketInput'; did you mean"
    )
    assert "HeadBucketRequest" in problems["s3_waiters.shapes:HeadBucketInput"]
    assert [n.line for n in names] == [3, 3]


def test_a_missing_module_is_reported(doc_packages: Path) -> None:
    problems = check_imports({("s3_waiter", "BucketExistsWaiter")}, doc_packages)
    assert problems["s3_waiter:BucketExistsWaiter"].startswith(
        "cannot import module s3_waiter: ModuleNotFoundError"
    )


def test_a_submodule_imported_by_name_is_found(doc_packages: Path) -> None:
    assert (
        check_imports({("waitable", "testing"), ("s3_waiters", "shapes")}, doc_packages)
        == {}
    )


def test_markers_attach_to_the_next_fence_with_markdown_line_numbers() -> None:
    text = (
        "# Title\n"
        "\n"
        "<!-- quickstart -->\n"
        "```bash\n"
        "generate-waiters m.json -o out\n"
        "```\n"
        "<!-- doctest: exit 1 -->\n"
        "\n"
        "~~~~bash\n"
        "generate-waiters bad.json\n"
        "```\n"
        "~~~~\n"
        "<!-- doctest: setup\n"
        "x = 1\n"
        "-->\n"
        "<!-- doctest: setup y = 2 -->\n"
        "```Python title\n"
        "print(x + y)\n"
        "```\n"
    )
    first, second, third = parse_blocks(text, "doc.md")
    assert (first.line, first.language, first.directives.quickstart) == (
        4,
        "bash",
        True,
    )
    assert (second.line, second.directives.exit_status) == (9, 1)
    assert second.code == "generate-waiters bad.json\n```\n"
    assert third.language == "python" and third.first_code_line == 18
    assert [(s.line, s.code) for s in third.directives.setups] == [
        (14, "x = 1\n"),
        (16, "y = 2\n"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "<!-- doctest: skip -->\n```python\n```\n",
            "doc.md:1: `doctest: skip` needs a reason",
        ),
        (
            "<!-- doctest: skp x -->\n```python\n```\n",
            "doc.md:1: unknown doctest marker 'skp'",
        ),
        (
            "<!-- doctest: exit one -->\n```bash\n```\n",
            "doc.md:1: `doctest: exit` needs",
        ),
        (
            "<!-- doctest: setup -->\n```python\n```\n",
            "doc.md:1: `doctest: setup` holds no",
        ),
        (
            "<!-- doctest: skip x -->\nprose\n```python\n```\n",
            "is not right before a code fence",
        ),
        (
            "<!-- doctest: output-of -->\n```\n```\n",
            "doc.md:1: `doctest: output-of` needs",
        ),
        (
            "<!-- doctest: teardown -->\n```python\n```\n",
            "doc.md:1: `doctest: teardown` holds",
        ),
        (
            "<!-- doctest: python three -->\n```python\n```\n",
            "doc.md:1: `doctest: python` needs a version",
        ),
        ("text\n<!-- doctest: skip x -->\n", "doc.md:2: doctest marker at the end"),
        ("<!-- doctest: setup\nx = 1\n", "doc.md:1: HTML comment never closed"),
    ],
)
def test_bad_markers_are_errors_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(MarkerError, match=message.replace("(", r"\(")):
        parse_blocks(text, "doc.md")


def test_a_python_marker_names_the_version_a_block_needs() -> None:
    text = "<!-- doctest: python 3.12 -->\n```python\npass\n```\n"
    (block,) = parse_blocks(text, "doc.md")
    assert block.directives.python == (3, 12)


def test_other_html_comments_are_not_markers() -> None:
    (block,) = parse_blocks("<!-- a note -->\nprose\n```python\npass\n```\n", "doc.md")
    assert block.directives.skip is None and block.directives.setups == ()


code_lines = st.lists(
    st.text(
        st.characters(
            blacklist_characters="`~\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
        ),
        max_size=20,
    ),
    max_size=4,
)


@given(
    st.lists(
        st.tuples(st.sampled_from(["python", "bash", "json", ""]), code_lines),
        max_size=5,
    )
)
def test_every_fenced_block_is_extracted_whole_at_its_line(
    blocks: list[tuple[str, list[str]]],
) -> None:
    lines: list[str] = []
    expected = []
    for language, code in blocks:
        lines += ["Some prose.", ""]
        expected.append((len(lines) + 1, language, "".join(f"{c}\n" for c in code)))
        lines += [f"```{language}", *code, "```", ""]
    parsed = parse_blocks("\n".join(lines), "doc.md")
    assert [(b.line, b.language, b.code) for b in parsed] == expected


def run_pieces(text: str) -> subprocess.CompletedProcess[str]:
    """Run the only Python block of Markdown `text` as the suite does."""
    (block,) = parse_blocks(text, "README.md")
    return subprocess.run(
        [sys.executable, str(RUN_BLOCK)],
        input=json.dumps(pieces(block)),
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_a_failing_example_fails_with_the_readme_line() -> None:
    done = run_pieces("Intro.\n\n```python\nx = 1\nundefined_name\n```\n")
    assert done.returncode == 1
    assert 'README.md", line 5' in done.stderr
    assert "NameError: name 'undefined_name' is not defined" in done.stderr


def test_setup_code_and_top_level_await_share_one_namespace_and_loop() -> None:
    done = run_pieces(
        "<!-- doctest: setup\n"
        "import asyncio\n"
        "loop = asyncio.get_running_loop()\n"
        "-->\n"
        "```python\n"
        "await asyncio.sleep(0)\n"
        "print(loop is asyncio.get_running_loop(), __name__)\n"
        "```\n"
    )
    assert (done.returncode, done.stdout) == (0, "True __main__\n"), done.stderr


@pytest.mark.parametrize(
    ("line", "runs"),
    [
        ("generate-waiters model.json -o out", True),
        ("SMITHY_PLUGIN_DIR=out generate-waiters -", True),
        (".venv/bin/generate-waiters m.json -o x  # comment", True),
        ("pip install ./runtime .          # both", False),
        ("# generate-waiters in a comment", False),
        ("echo generate-waiters", False),
    ],
)
def test_only_generate_waiters_command_lines_are_run(line: str, runs: bool) -> None:
    assert runs_generator(line) is runs


def test_prose_names_are_scoped_to_their_section_and_skip_code() -> None:
    text = (
        "# A\n"
        "Uses `BucketExistsWaiter` and `max_wait_time`.\n"
        "```bash\n"
        "# not a heading `FakeWaiter`\n"
        "```\n"
        "## B\n"
        "The input is `HeadBucketRequest`.\n"
    )
    names = [
        (p.name, p.line, p.section_start, p.section_end) for p in prose_names(text)
    ]
    assert names == [("BucketExistsWaiter", 2, 1, 6), ("HeadBucketRequest", 7, 6, 8)]


def test_a_generated_name_used_without_its_import_is_found() -> None:
    (block,) = parse_blocks(
        "<!-- doctest: setup\n"
        "from s3_waiters import BucketExistsWaiter\n"
        "-->\n"
        "```python\n"
        "class LocalWaiter: ...\n"
        "BucketExistsWaiter(s3); TableExistWaiter(f); LocalWaiter()\n"
        "```\n",
        "README.md",
    )
    sources = [(line, code) for _, line, code in pieces(block)]
    assert unbound_names(sources, GENERATED_LOOKING) == [("TableExistWaiter", 6)]


def test_teardown_code_runs_after_the_block() -> None:
    done = run_pieces(
        "<!-- doctest: teardown\n"
        "print('closed', value)\n"
        "-->\n"
        "```python\n"
        "value = 42\n"
        "```\n"
    )
    assert (done.returncode, done.stdout) == (0, "closed 42\n"), done.stderr


def test_options_are_read_from_option_spans_and_generate_waiters_commands() -> None:
    text = (
        "| `-o, --out-dir DIR` | the package |\n"
        "Run `generate-waiters m.json -o out --chek` in CI; `retry_on=` is Python.\n"
        "```bash\n"
        "generate-waiters --not-prose\n"
        "```\n"
    )
    assert prose_options(text) == [
        ("-o", 1),
        ("--out-dir", 1),
        ("-o", 2),
        ("--chek", 2),
    ]
