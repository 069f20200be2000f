"""`waitable simulate`: input it cannot use is bad usage (exit 2, one `Error:` line naming
the option and what to do), never a traceback with exit 1; and an asyncio waiter class
is simulated as its synchronous twin is.

Found by review (/work/review/cli, bugs 2, 3, 4, 5 and 9): a samples file that is not
UTF-8, JSON nested deeper than the parser follows, a relative `--waiter` module and an
`Async...Waiter` class ended in tracebacks; usage errors advised `wait_timeout=15`,
`min_delay` and `WaiterConfig`, none of which the command has.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from waitable.simulate.commands import waitable
from waitable.files import UnreadableFile, read_text
from waitable.simulate.simulation import (
    SimulatedResource,
    simulate,
    simulate_run,
    strategy_candidate,
)
from waitable.simulate.resource import ResourceModel
from waitable.wait_cli.advice import for_cli, option_rewrites, rewrite
from waitable.wait_cli.input_options import load_json

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SIMULATED = "waitable.simulate.simulation:SimulatedResource"
#: Deeper than Python's JSON parser follows on any version (3.13 follows 5,000 levels), and
#: still one argument a process may be given (Linux: at most 128 KiB each).
DEEP = "[" * 60_000 + "]" * 60_000
#: A Python caller's argument names, which the command has no option for.
PYTHON_NAMES = re.compile(
    r"wait_timeout|max_wait_time|\bmin_delay\b|\bmax_delay\b|\bbase_delay\b|"
    r"call_duration|\bmax_attempts\b|WaiterConfig|named_strategy"
)


def refused(*args: str, runs: str = "2") -> str:
    """`waitable simulate ARGS` as a usage error: exit 2, no traceback, one `Error:`
    line (returned)."""
    result = CliRunner().invoke(waitable, ["simulate", "--runs", runs, *args])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.output
    assert result.output.rstrip().endswith(errors[0])
    return errors[0]


def report(*args: str) -> dict[str, Any]:
    """The JSON report of `waitable simulate ARGS`, which must succeed."""
    result = CliRunner().invoke(waitable, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def simulate_process(
    *args: str, input: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`python -m waitable.simulate simulate ARGS` as a real process."""
    return subprocess.run(
        [sys.executable, "-m", "waitable.simulate", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input,
        cwd=PROJECT_ROOT,
    )


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one `Error:` line of a process's usage error (exit 2, no traceback)."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, done.stderr
    return errors[0]


# Bug 2: --ready-samples @FILE that cannot be read as text.


def test_a_samples_file_that_is_not_utf8_is_bad_usage(tmp_path: Path) -> None:
    path = tmp_path / "samples.txt"
    path.write_bytes(b"\xff\xfe1,2,3")
    # A real process, as the review ran it.
    done = simulate_process(
        "--ready-samples", f"@{path}", "--wait-timeout", "60", "--runs", "3"
    )
    line = error_line(done)
    assert "--ready-samples" in line and str(path) in line
    assert "not UTF-8" in line and "save it as UTF-8" in line


@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda tmp: tmp, "it is a directory"),
        (lambda tmp: tmp / "missing.txt", "No such file or directory"),
    ],
    ids=["directory", "missing"],
)
def test_a_samples_path_that_is_no_file_is_bad_usage(
    tmp_path: Path, make: Any, reason: str
) -> None:
    path = make(tmp_path)
    line = refused("--ready-samples", f"@{path}", "--wait-timeout", "60")
    assert "--ready-samples" in line and f"cannot read {path}" in line
    assert reason in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_writes_to_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "samples.fifo"
    os.mkfifo(fifo)
    done = simulate_process(
        "--ready-samples", f"@{fifo}", "--wait-timeout", "60", "--runs", "2"
    )
    line = error_line(done)
    assert f"no samples in {fifo}" in line and "--ready-samples" in line


@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="no /dev/stdin here")
def test_a_pipe_with_a_writer_is_read_to_its_end() -> None:
    done = simulate_process(
        "--ready-samples", "@/dev/stdin", "--wait-timeout", "60", "--runs", "2",
        "--json",
        input="5\n7,9\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["resource"]["samples"] == [5, 7, 9]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_an_endless_device_is_refused_at_the_size_limit() -> None:
    line = refused("--ready-samples", "@/dev/zero", "--wait-timeout", "60")
    assert "cannot read /dev/zero (larger than 16 MiB" in line


def test_read_text_bounds_the_size(tmp_path: Path) -> None:
    path = tmp_path / "samples.txt"
    path.write_text("1," * 10, encoding="utf-8")
    assert read_text(str(path), limit=20) == "1," * 10
    with pytest.raises(UnreadableFile, match="larger than"):
        read_text(str(path), limit=19)
    with pytest.raises(UnreadableFile):
        read_text("bad\0name")


@pytest.mark.parametrize(
    "samples, messages",
    [
        ("@", ["@ names no file", "@FILE"]),
        ("1,x", ["a sample must be a number of seconds, got 'x'"]),
        ("1,nan", ["got nan (sample 2 of 2)", "--ready-samples 30,45,120"]),
        (" , ", ["no samples given"]),
    ],
)
def test_bad_samples_name_the_option(samples: str, messages: list[str]) -> None:
    line = refused("--ready-samples", samples, "--wait-timeout", "60")
    for message in messages:
        assert message in line


def test_an_empty_samples_file_is_bad_usage(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n", encoding="utf-8")
    line = refused("--ready-samples", f"@{path}", "--wait-timeout", "60")
    assert f"no samples in {path}" in line


def test_a_bad_sample_among_many_is_named_alone() -> None:
    with pytest.raises(ValueError) as raised:
        ResourceModel(samples=(*range(1000), -1))
    assert "got -1 (sample 1001 of 1001)" in str(raised.value)
    assert len(str(raised.value)) < 200


# Bug 3: JSON nested deeper than the parser follows, read as `waitable wait` reads it.


@pytest.mark.parametrize("option", ["--input", "--ready-output", "--pending-output"])
def test_deep_json_is_bad_usage_as_in_waitable_wait(option: str) -> None:
    line = refused("--waiter", SIMULATED, option, DEEP, "--wait-timeout", "60")
    assert f"Invalid value for {option}: not valid JSON" in line
    with pytest.raises(ValueError) as raised:
        load_json(DEEP)  # the one function both commands read JSON with
    assert str(raised.value) in line


@pytest.mark.parametrize("option", ["--input", "--ready-output", "--pending-output"])
def test_deep_json_in_a_real_process(option: str) -> None:
    done = simulate_process(
        "--waiter", SIMULATED, option, DEEP, "--wait-timeout", "60", "--runs", "2"
    )
    assert option in error_line(done)


def test_deeply_nested_json_the_parser_follows_still_runs() -> None:
    deep = "[" * 200 + "]" * 200
    data = report(
        "--waiter", SIMULATED, "--input", deep, "--pending-output", deep,
        "--wait-timeout", "60", "--runs", "2",
    )  # fmt: skip
    assert data["strategies"][0]["timeline"]["end"] == "success"


# Bug 4: --waiter specs that name no module or no class.


@pytest.mark.parametrize(
    "spec",
    [
        ".my_waiters:Thing",
        "..:Thing",
        "a..b:Thing",
        "a.:Thing",
        "my_waiters",
        "my_waiters:",
        ":Thing",
        "",
        "my waiters:Thing",
        "waitable:Thing:Other",
        f"{SIMULATED}.",
    ],
)
def test_a_malformed_waiter_spec_is_bad_usage(spec: str) -> None:
    line = refused("--waiter", spec, "--wait-timeout", "60")
    assert "--waiter" in line
    assert "write MODULE:CLASS with an absolute, dotted module name" in line


def test_a_relative_waiter_module_in_a_real_process() -> None:
    done = simulate_process(
        "--waiter", ".my_waiters:Thing", "--wait-timeout", "60", "--runs", "2"
    )
    assert "--waiter" in error_line(done)


@pytest.mark.parametrize(
    "spec",
    [
        "waitable.waiter:Waiter",
        "waitable.waiter:AsyncWaiter",
        "waitable:WaiterConfig",
        "os:path",
        "waitable.simulate.simulation:__class__",
    ],
)
def test_a_name_that_is_no_waiter_class_is_bad_usage(spec: str) -> None:
    line = refused("--waiter", spec, "--wait-timeout", "60")
    assert f"{spec!r} is not a waiter class" in line


@pytest.mark.parametrize(
    "source, raised",
    [
        ('raise RuntimeError("boom\\nsecond line")\n', "RuntimeError: boom;"),
        ("x = (\n", "SyntaxError: "),
    ],
)
def test_a_module_that_fails_to_import_is_bad_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, raised: str
) -> None:
    name = f"sim_broken_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    line = refused("--waiter", f"{name}:Thing", "--wait-timeout", "60")
    assert f"importing module {name!r} raised {raised}" in line
    assert f"python -c 'import {name}'" in line


# Bug 5: an asyncio waiter class runs, as its synchronous twin does.


def _lanes(data: dict[str, Any]) -> list[Any]:
    lanes = data["strategies"]
    for lane in lanes:
        lane.pop("label", None)
        lane["summary"].pop("label")
        lane["settings"].pop("waiter")
    return [lanes, data["resource"]]


@pytest.mark.parametrize("duration", ["0", "0.7"])
def test_a_custom_waiters_async_class_runs_as_its_sync_class(duration: str) -> None:
    common = [
        "--ready-uniform", "0", "300", "--wait-timeout", "600", "--runs", "40",
        "--call-duration", duration,
    ]  # fmt: skip
    sync = report("--waiter", SIMULATED, *common)
    asynchronous = report("--waiter", f"{SIMULATED}.Async", *common)
    assert asynchronous["strategies"][0]["summary"]["label"] == f"{SIMULATED}.Async"
    assert _lanes(asynchronous) == _lanes(sync)
    assert sync["strategies"][0]["summary"]["failures"] == 0


def test_a_generated_async_waiter_runs_as_its_sync_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(PROJECT_ROOT))
    common = [
        "--ready-output", '{"Table": {"TableStatus": "ACTIVE"}}',
        "--pending-output", '{"Table": {"TableStatus": "CREATING"}}',
        "--ready-uniform", "0", "300", "--wait-timeout", "200", "--runs", "20",
        "--call-duration", "3",
    ]  # fmt: skip
    module = "generated_examples.dynamodb.waiters"
    sync = report("--waiter", f"{module}:TableExistsWaiter", *common)
    asynchronous = report("--waiter", f"{module}:AsyncTableExistsWaiter", *common)
    assert _lanes(asynchronous) == _lanes(sync)
    assert (
        sync["strategies"][0]["summary"]["failures"] > 0
    )  # some time out: compared too


def test_an_async_waiter_class_in_a_real_process() -> None:
    done = simulate_process(
        "--waiter", f"{SIMULATED}.Async", "--wait-timeout", "60", "--runs", "2"
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "never awaited" not in done.stderr
    assert "success at 13 s" in done.stdout


def test_simulate_run_and_simulate_take_an_async_class() -> None:
    sync = strategy_candidate("fixedDelay", delay=5, wait_timeout=60)
    asynchronous = strategy_candidate("fixedDelay", delay=5, wait_timeout=60)
    object.__setattr__(asynchronous, "waiter_class", SimulatedResource.Async)
    assert simulate_run(asynchronous, 12, 7) == simulate_run(sync, 12, 7)
    resource = ResourceModel(0, 50)
    assert simulate(asynchronous, resource, runs=5, seed=1) == simulate(
        sync, resource, runs=5, seed=1
    )


# Bug 9: advice in the command's own options.


@pytest.mark.parametrize(
    "args, messages",
    [
        (
            ["--wait-timeout", "1e12"],
            ["'--wait-timeout'", "at most 3153600000 (100 years), got 1000000000000"],
        ),
        (["--wait-timeout", "nan"], ["'--wait-timeout'", "got nan"]),
        (
            ["--strategy", "fixedDelay", "--delay", "1e12", "--wait-timeout", "60"],
            ["'--delay'", "got 1000000000000"],
        ),
        (
            ["--strategy", "smithy", "--min-delay", "0", "--wait-timeout", "60"],
            ["'--min-delay'", "got 0"],
        ),
        (
            ["--waiter", SIMULATED, "--min-delay", "500", "--wait-timeout", "60"],
            [
                "--min-delay 500 is greater than --max-delay 120",
                "pass both --min-delay and --max-delay",
            ],
        ),
        (
            ["--waiter", SIMULATED, "--min-delay", "50", "--max-delay", "10"],
            ["--min-delay 50 is greater than --max-delay 10"],
        ),
        (
            ["--strategy", "smithy", "--min-delay", "50", "--max-delay", "10"],
            ["Error: --min-delay 50 is greater than --max-delay 10"],
        ),
        (
            ["--strategy", "exponentialDelay", "--base-delay", "5", "--max-delay", "2"],
            ["--base-delay 5 is greater than --max-delay 2", "--base-delay <="],
        ),
        (
            ["--wait-timeout", "60", "--call-duration", "1e10"],
            [
                "--call-duration must be seconds >= 0 and below 1000000000, got 10000000000.0",
                "--call-duration 0.2",
            ],
        ),
        (
            ["--strategy", "retryImmediately", "--wait-timeout", "60"],
            ["pass --max-attempts or --call-duration"],
        ),
        (["--strategy", "smithy"], ["pass --wait-timeout SECONDS"]),
    ],
)
def test_advice_names_the_commands_options(
    args: list[str], messages: list[str]
) -> None:
    line = refused(*args)
    assert not PYTHON_NAMES.search(line), line
    for message in messages:
        assert message in line


def test_advice_in_the_repro_9_cases_in_a_real_process() -> None:
    for args in (
        ["--wait-timeout", "1e12"],
        ["--wait-timeout", "60", "--waiter", SIMULATED, "--min-delay", "500"],
    ):
        line = error_line(simulate_process("--runs", "2", *args))
        assert not PYTHON_NAMES.search(line), line


@pytest.mark.parametrize(
    "compare, message",
    [
        ("fixedDelay:delay=nan", "'fixedDelay:delay=nan': fixedDelay: delay must be"),
        (
            "exponentialDelay:base_delay=5:max_delay=2",
            "base_delay 5 is greater than max_delay 2",
        ),
        ("smithy:min_delay=50:max_delay=10", ": min_delay 50 is greater than"),
    ],
)
def test_a_compare_entrys_advice_keeps_its_keys(compare: str, message: str) -> None:
    """A --compare entry's keys are the command's own (`delay=15`), so they stay;
    the message names --compare and the entry, and no `WaiterConfig`."""
    line = refused("--compare", compare, "--wait-timeout", "60")
    assert "Invalid value for --compare" in line and message in line
    assert "WaiterConfig" not in line


def test_option_rewrites_is_the_mechanism_of_for_cli() -> None:
    """`waitable wait`'s advice is unchanged by the generalisation."""
    assert (
        for_cli("pass a larger max_wait_time=30s, or max_attempts=5; min_delay=2")
        == "pass a larger --max-wait 30, or --max-attempts 5; --delay 2"
    )
    assert for_cli("max_delay 3 and max_wait_time") == "--delay 3 and --max-wait"
    rules = option_rewrites({"delay": "--delay", "x_y": "--x-y"}, alone=("x_y",))
    assert rewrite("pass delay=15; the delay; x_y", rules) == (
        "pass --delay 15; the delay; --x-y"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--strategy", "exponentialDelay", "--base-delay", "30"],
        ["--compare", "exponentialDelay,fixedDelay", "--base-delay", "30"],
    ],
)
def test_a_base_delay_above_the_default_max_delay_names_the_default(
    args: list[str],
) -> None:
    """Review s23, finding 7: "greater than --max-delay 20" when none was given."""
    line = refused(*args)
    assert (
        "--base-delay 30 is greater than --max-delay, which defaults to 20; "
        "pass --base-delay <= 20, or also pass --max-delay >= 30"
    ) in line, line
    assert not PYTHON_NAMES.search(line), line


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e10", "abc"])
def test_a_bad_call_duration_in_a_compare_entry_names_the_entry_once(
    value: str,
) -> None:
    """Review s23, finding 7: the entry was shown twice (its label is the entry) and
    the advice was the --call-duration option, inside a --compare entry."""
    entry = f"fixedDelay:call_duration={value}"
    line = refused("--compare", entry, "--wait-timeout", "60")
    assert line == (
        f"Error: Invalid value for --compare: {entry!r}: call_duration must be "
        f"seconds >= 0 and below 1000000000, got {value!r}; write e.g. "
        "call_duration=0.2"
    ), line
    assert line.count(entry) == 1 and "--call-duration" not in line


def test_spaces_around_a_compare_entrys_name_and_keys_are_ignored() -> None:
    """Review s23, finding 7: " fixedDelay : delay=3" was "unknown strategy
    'fixedDelay '"; a value's spaces were already allowed."""

    def report(compare: str) -> Any:
        result = CliRunner().invoke(
            waitable,
            ["simulate", "--runs", "5", "--json", "--wait-timeout", "60"]
            + ["--compare", compare],
        )
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    spaced = report(" fixedDelay : delay=3 , smithy : max_delay = 60 : label= s ")
    plain = report("fixedDelay:delay=3,smithy:max_delay=60:label=s")
    fixed, smithy = spaced["strategies"]
    assert smithy == plain["strategies"][1]  # label= s: the value is stripped too
    assert fixed["label"] == "fixedDelay : delay=3"  # the entry, as written
    for part in ("settings", "timeline"):
        assert fixed[part] == plain["strategies"][0][part]
    assert fixed["settings"]["delay"] == 3
