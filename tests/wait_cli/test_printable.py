"""Text from a service reaches the terminal only as printable characters: an ANSI
escape, a carriage return or a bidi override in a response, an error code or a
message is written as its Python escape (found by review, 2026-11-27)."""

from __future__ import annotations

import io
import unicodedata
from typing import Any

import click
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from waitable.wait_cli import command
from waitable.printable import printable
from waitable.wait_cli.status import Status, seen

from .test_status import DEFINITION, attempt, instances

ESCAPED = {"Cc", "Cf", "Cs", "Zl", "Zp"}
HOSTILE = "run\x1b]0;owned\x07ning\r\x1b[2K\u202edone\u2028\x00\x9b"


@given(st.text())
def test_nothing_printable_is_left_unescaped(text: str) -> None:
    shown = printable(text)
    assert not any(unicodedata.category(char) in ESCAPED for char in shown)
    if "\\" not in text:  # then the escapes read back as the text
        assert shown.encode("ascii", "backslashreplace").decode(
            "unicode_escape"
        ) == text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


@given(st.text(st.characters().filter(str.isprintable)))
def test_printable_text_is_left_as_it_is(text: str) -> None:
    assert printable(text) == text


def test_the_status_line_escapes_what_the_service_sent() -> None:
    shown = seen(DEFINITION, attempt(1, instances(HOSTILE)))
    assert "\x1b" not in shown and "\r" not in shown and "\u202e" not in shown
    assert shown.startswith("run\\x1b]0;owned\\x07ning\\r\\x1b")
    code = seen(DEFINITION, attempt(1, error="Bad\x1b[31mCode\n"))
    assert code == "Bad\\x1b[31mCode\\n"


def test_log_lines_stay_one_line_each() -> None:
    stream = io.StringIO()
    status = Status(stream, "ec2 instance-running", DEFINITION, live=False)
    status.attempt(attempt(1, instances(HOSTILE)))
    status.sleeping(10)
    lines = stream.getvalue().split("\n")
    assert len(lines) == 2 and lines[1] == ""
    assert "\x1b" not in lines[0] and "\r" not in lines[0]


def test_a_failure_message_is_printed_escaped() -> None:
    """`_fail` writes the runtime's message (which quotes the service) escaped."""
    runner = CliRunner()

    @click.command()
    def fail() -> None:
        command._fail(f"s3 bucket-exists: the service said {HOSTILE}", 1)  # type: ignore[arg-type]

    result = runner.invoke(fail, [])
    assert result.exit_code == 1
    text: Any = result.output
    assert "\x1b" not in text and "\u202e" not in text and "\r" not in text
    assert "the service said run\\x1b]0;owned" in text
