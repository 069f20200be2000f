"""`docs/simulate.svg`, the README's picture, is what the README's command draws today."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from waitable.simulate.commands import waitable

PROJECT_ROOT = Path(__file__).resolve().parents[2]

#: The README's "Choosing a configuration" command, argument by argument.
README_COMMAND = [
    "simulate",
    "--compare",
    "smithy,"
    "fixedDelayWithoutJitter:delay=15:max_attempts=40:label=botocore 15 s × 40,"
    "fixedDelayWithoutJitter:delay=15:label=fixedDelayWithoutJitter,"
    "fixedDelay:delay=15:label=fixedDelay,"
    "exponentialDelayWithoutJitter:base_delay=2:max_delay=120:"
    "label=exponentialDelayWithoutJitter,"
    "exponentialDelay:base_delay=2:max_delay=120:label=exponentialDelay,"
    "exponentialDelayHalfJitter:base_delay=2:max_delay=120:"
    "label=exponentialDelayHalfJitter,"
    "retryImmediately:call_duration=0.5:label=retryImmediately",
    "--ready-uniform",
    "0",
    "600",
    "--wait-timeout",
    "900",
    "--runs",
    "300",
    "--seed",
    "0",
]


def test_docs_picture_is_the_readme_commands_output(tmp_path: Path) -> None:
    drawn = tmp_path / "simulate.svg"
    result = CliRunner().invoke(waitable, [*README_COMMAND, "--svg", str(drawn)])
    assert result.exit_code == 0, result.output
    assert (
        drawn.read_bytes() == (PROJECT_ROOT / "docs" / "simulate.svg").read_bytes()
    ), (
        "docs/simulate.svg is stale: run the README's waitable simulate command "
        "with --svg docs/simulate.svg"
    )
