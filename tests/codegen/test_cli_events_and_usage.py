"""`generate-waiters`: validation events name the model file of their shape,
usage errors (`--botocore` with MODEL `-`, an empty `-o`) come before standard input
is read, and `--botocore` refuses `--allow-danger` (it runs no validation to allow)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from waitable_codegen import generate
from waitable_codegen.cli import main
from waitable_codegen.errors import UsageError, ValidationFailed

from .helpers import status_waiter, thing_shapes, write_model

OPERATION = "smithy.example#GetThing"


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(
        main, list(args), env={"SMITHY_PLUGIN_DIR": ""}, input=stdin
    )


def split_model(tmp_path: Path, path: str) -> tuple[Path, Path]:
    """The small thing model in two files: the structures in `a.json`, the operation
    (whose waiter reads a member its output lacks: a DANGER event) in `b.json`."""
    shapes = thing_shapes(ThingDone=status_waiter())
    waiter = shapes[OPERATION]["traits"]["smithy.waiters#waitable"]["ThingDone"]
    waiter["acceptors"][0]["matcher"]["output"]["path"] = path
    operation = {OPERATION: shapes.pop(OPERATION)}
    return write_model(tmp_path / "a.json", shapes), write_model(
        tmp_path / "b.json", operation
    )


def test_printed_events_name_the_model_file_of_their_shape(tmp_path: Path) -> None:
    structures, operations = split_model(tmp_path, "nope")
    done = run(str(structures), str(operations), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1, done.output
    events, last = done.stderr.splitlines()[:-1], done.stderr.splitlines()[-1]
    assert events and all(
        line.startswith(f"{operations}: [DANGER] {OPERATION}: ") for line in events
    ), done.stderr
    assert f"fix the model in {operations}" in last
    assert "Traceback" not in done.output


def test_api_events_and_validation_failed_name_the_file(tmp_path: Path) -> None:
    structures, operations = split_model(tmp_path, "nope")
    with pytest.raises(ValidationFailed) as caught:
        generate([structures, operations], tmp_path / "out")
    assert {event.source for event in caught.value.events} == {str(operations)}
    assert str(caught.value.events[0]).startswith(f"{operations}: [DANGER] ")
    assert str(operations) in str(caught.value)


def test_the_manifest_keeps_events_without_the_file(tmp_path: Path) -> None:
    """The manifest's bytes stay what they were (no machine path in them), and a
    rerun that replays its events from it still names the (one) model file."""
    structures, operations = split_model(tmp_path, "nope")
    out = tmp_path / "out"
    result = generate([structures, operations], out, allow_danger=True)
    assert result.events and result.events[0].source == str(operations)
    manifest = json.loads((out / ".generate-waiters.json").read_text())
    assert manifest["events"] and all(
        sorted(event) == ["event_id", "message", "severity", "shape_id"]
        for event in manifest["events"]
    )
    assert str(tmp_path) not in (out / ".generate-waiters.json").read_text()
    single = tmp_path / "single.json"
    single.write_text(
        json.dumps(
            {
                "smithy": "2.0",
                "shapes": {
                    **json.loads(structures.read_text())["shapes"],
                    **json.loads(operations.read_text())["shapes"],
                },
            }
        )
    )
    first = generate(single, tmp_path / "one", allow_danger=True)
    replayed = generate(single, tmp_path / "one", allow_danger=True)
    assert replayed.reused and replayed.events == first.events
    assert {event.source for event in replayed.events} == {str(single)}


def test_botocore_with_a_dash_is_refused_before_stdin_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unread(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("standard input was read")

    monkeypatch.setattr("waitable_codegen.cli.read_capped", unread)
    monkeypatch.setattr("waitable_codegen.api.read_capped", unread)
    done = run("--botocore", "s3", "-", "-o", str(tmp_path / "out"), stdin=b"{}")
    assert done.exit_code == 2, done.output
    assert "--botocore reads botocore's data" in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_empty_out_dir_is_refused_before_stdin_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unread(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("standard input was read")

    monkeypatch.setattr("waitable_codegen.cli.read_capped", unread)
    monkeypatch.setattr("waitable_codegen.api.read_capped", unread)
    done = run("-", "-o", "", stdin=b"{}")
    assert done.exit_code == 2, done.output
    assert "the output directory is empty text" in done.stderr


def test_botocore_with_a_dash_does_not_wait_for_an_endless_stdin(
    tmp_path: Path,
) -> None:
    """Standard input a pipe nobody writes nor closes: the usage error comes at once."""
    command = [sys.executable, "-m", "waitable_codegen", "--botocore", "s3", "-"]
    process = subprocess.Popen(
        [*command, "-o", str(tmp_path / "out")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if k != "SMITHY_PLUGIN_DIR"},
    )
    try:
        status = process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("generate-waiters --botocore s3 - waited for standard input")
    finally:
        assert process.stdin is not None
        process.stdin.close()
    assert process.stderr is not None and process.stdout is not None
    stderr = process.stderr.read().decode()
    process.stderr.close()
    process.stdout.close()
    assert status == 2, stderr
    assert "--botocore reads botocore's data" in stderr


def test_allow_danger_with_botocore_is_bad_usage(tmp_path: Path) -> None:
    """botocore mode runs no Smithy validation, so there is no DANGER to allow."""
    out = tmp_path / "out"
    done = run("--botocore", "s3", "--allow-danger", "-o", str(out))
    assert done.exit_code == 2, done.output
    assert "--allow-danger" in done.stderr and "Traceback" not in done.output
    assert not out.exists()
    with pytest.raises(UsageError, match="--allow-danger"):
        generate([], out, botocore=["s3"], allow_danger=True)
    assert not out.exists()
