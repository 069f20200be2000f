"""`generate-waiters`: exit statuses, one-line errors, events, and the run plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from shared_corpora import shared_path
from click.testing import CliRunner, Result

from waitable_codegen.cli import main
from waitable_codegen.errors import GenerationError

from .helpers import ERRORFILES, SPEC_EXAMPLES, status_waiter, thing_shapes, write_model


def run(
    *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> Result:
    environment = {"SMITHY_PLUGIN_DIR": ""} | (env or {})
    return CliRunner().invoke(main, list(args), env=environment, input=stdin)


def test_generates_and_reports_what_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    done = run(str(SPEC_EXAMPLES), "-o", str(out))
    assert done.exit_code == 0, done.output
    assert f"wrote {out / 'waiters.py'}" in done.stdout
    assert done.stdout.rstrip().endswith(
        "4 waiters, 4 files written, 0 removed, 0 unchanged"
    )
    again = run(str(SPEC_EXAMPLES), "-o", str(out))
    assert again.exit_code == 0 and "0 files written" in again.stdout


def test_check_exits_1_when_stale_and_0_when_up_to_date(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    stale = run(str(SPEC_EXAMPLES), "-o", str(out), "--check")
    assert stale.exit_code == 1
    assert f"would write {out / '__init__.py'}" in stale.stdout
    assert "is stale" in stale.stderr
    assert not out.exists()
    run(str(SPEC_EXAMPLES), "-o", str(out))
    fresh = run(str(SPEC_EXAMPLES), "-o", str(out), "--check")
    assert fresh.exit_code == 0 and "is up to date (4 waiters)" in fresh.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "no output directory"),
        (("-o", "out"), "no MODEL given"),
        (
            ("model.json", "-o", "out", "--jmespath", "fast"),
            "Invalid value for '--jmespath'",
        ),
        (
            ("model.json", "-o", "out", "--service", "ns#Nope"),
            "--service ns#Nope: no such",
        ),
    ],
)
def test_usage_errors_exit_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    write_model(tmp_path / "model.json", thing_shapes())
    os.chdir(tmp_path)
    done = run(*args)
    assert done.exit_code == 2
    assert message in done.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "bad.json:1:2: not valid JSON"),
        (
            '{"shapes": {}}',
            'bad.json: not a Smithy JSON AST model (no top-level "smithy"',
        ),
        ('{"smithy": "9.0"}', "bad.json: smithy: unsupported Smithy version '9.0'"),
        (
            '{"smithy": "2.0", "shapes": {"ns#A": {"type": "list", "member": {"target": "ns#B"}}}}',
            'bad.json: shapes["ns#A"].member.target: member ns#A$member targets ns#B, '
            "which is not defined",
        ),
        (
            '{"smithy": "2.0", "shapes": {"ns#A": {"type": "string", "traits": '
            '{"smithy.waiters#waitable": {"X": {"acceptors": []}}}}}}',
            "ns#A",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_file_and_exits_1(
    tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    done = run(str(bad), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("generate-waiters: error: ") or "ERROR" in lines[-1]
    assert message in done.stderr
    assert "Traceback" not in done.output
    assert not (tmp_path / "out").exists()


def test_a_missing_model_file_is_one_line(tmp_path: Path) -> None:
    done = run(str(tmp_path / "gone.json"), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1
    assert (
        done.stderr
        == f"generate-waiters: error: {tmp_path / 'gone.json'}: no such file; pass "
        "the path of a Smithy model in JSON AST form (or a directory of them)\n"
    )


def test_validation_events_print_one_per_line_in_smithys_form(tmp_path: Path) -> None:
    """Each after the model file that defines its shape."""
    model = ERRORFILES / "waiter-name-conflicts.json"
    done = run(str(model), "-o", str(tmp_path / "o"))
    assert done.exit_code == 1
    expected = (ERRORFILES / "waiter-name-conflicts.errors").read_text().splitlines()
    printed = done.stderr.splitlines()
    assert sorted(printed[:-1]) == sorted(f"{model}: {line}" for line in expected)
    assert printed[-1].startswith("generate-waiters: error: validation found 4 ERROR")


def test_warnings_print_and_generation_goes_on(tmp_path: Path) -> None:
    shared_path("conformance", "smithy-waiters-errorfiles")
    model = ERRORFILES / "invalid-errorType.json"
    done = run(str(model), "-o", str(tmp_path / "o"))
    assert done.exit_code == 0
    assert done.stderr.startswith(
        f"{model}: [WARNING] smithy.example#A: Waiter `A`, acceptor 0:"
    )
    assert (tmp_path / "o" / "waiters.py").exists()


def test_allow_danger_lets_danger_through(tmp_path: Path) -> None:
    shared_path("conformance", "smithy-waiters-errorfiles")
    model = str(ERRORFILES / "invalid-output-structure-member-access.json")
    assert run(model, "-o", str(tmp_path / "o")).exit_code == 1
    allowed = run(model, "-o", str(tmp_path / "o"), "--allow-danger")
    assert allowed.exit_code == 0
    assert allowed.stderr.startswith(f"{model}: [DANGER] smithy.example#A:")


def test_no_waiters_says_so(tmp_path: Path) -> None:
    model = write_model(tmp_path / "m.json", {"ns#S": {"type": "string"}})
    done = run(str(model), "-o", str(tmp_path / "out"))
    assert done.exit_code == 0
    assert "defines no waiters; nothing written" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_dash_reads_the_model_from_stdin(tmp_path: Path) -> None:
    done = run("-", "-o", str(tmp_path / "pkg"), stdin=SPEC_EXAMPLES.read_bytes())
    assert done.exit_code == 0, done.output
    assert (tmp_path / "pkg" / "waiters.py").exists()


def test_the_smithy_build_run_plugin_protocol(tmp_path: Path) -> None:
    """smithy-build's `run` plugin: the model (no prelude) on stdin, the output
    directory in SMITHY_PLUGIN_DIR, the command configured as `generate-waiters -`."""
    plugin_dir = tmp_path / "build" / "smithy" / "source" / "waiters"
    plugin_dir.mkdir(parents=True)
    model = write_model(tmp_path / "model.json", thing_shapes(Ready=status_waiter()))
    environment = {
        **os.environ,
        "SMITHY_ROOT_DIR": str(tmp_path),
        "SMITHY_PLUGIN_DIR": str(plugin_dir),
        "SMITHY_PROJECTION_NAME": "source",
        "SMITHY_ARTIFACT_NAME": "waiters",
        "SMITHY_INCLUDES_PRELUDE": "false",
    }
    done = subprocess.run(
        [sys.executable, "-m", "waitable_codegen", "-"],
        input=model.read_bytes(),
        env=environment,
        cwd=plugin_dir,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert sorted(p.name for p in plugin_dir.iterdir()) == [
        ".generate-waiters.json",
        "__init__.py",
        "py.typed",
        "shapes.py",
        "waiters.py",
    ]
    checked = subprocess.run(
        [sys.executable, "-c", "import waiters; print(waiters.__all__)"],
        cwd=plugin_dir.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.stdout.strip() == "['AsyncReadyWaiter', 'ReadyWaiter']"


def test_an_unexpected_exception_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug of ours still ends in one escaped line (and exit 1), never a traceback."""

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("ns#A\x1b[2J")

    monkeypatch.setattr("waitable_codegen.cli.generate", broken)
    done = run(str(SPEC_EXAMPLES), "-o", str(tmp_path / "out"))
    assert done.exit_code == 1
    assert done.stderr == (
        "generate-waiters: error: internal error (KeyError: 'ns#A\\x1b[2J'); this is a "
        "bug in generate-waiters: please report it with the model that caused it\n"
    )


def test_standard_input_goes_to_generate_already_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, object] = {}

    def record(models: object, out_dir: object, **options: object) -> None:
        seen.update(options, models=models)
        raise GenerationError("stop here")

    monkeypatch.setattr("waitable_codegen.cli.generate", record)
    done = run("-", "-o", str(tmp_path / "out"), stdin=b"model bytes")
    assert done.exit_code == 1 and "stop here" in done.stderr
    assert seen["stdin"] == b"model bytes" and seen["models"] == ("-",)


def test_an_empty_output_directory_is_bad_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o ""` (a variable never set) was read as ".", so the current directory
    became the package and was swapped for it (found by review, 2026-11-27)."""
    from waitable_codegen import generate
    from waitable_codegen.errors import UsageError

    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text("print('app')\n")
    before = tmp_path.stat().st_ino
    result = CliRunner().invoke(main, [str(SPEC_EXAMPLES), "-o", ""])
    assert result.exit_code == 2, result.output
    assert "the output directory is empty text" in result.output
    with pytest.raises(UsageError, match="empty text"):
        generate(SPEC_EXAMPLES, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.py"]
    assert tmp_path.stat().st_ino == before


def test_the_readme_option_table_lists_every_option() -> None:
    """`--botocore` and `--version` were offered by --help but missing from the
    README's table (found by review, 2026-11-27)."""
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Generate", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `-")]
    documented = {
        option
        for row in rows
        for option in re.findall(r"--?[A-Za-z][a-z-]*", row.split("|")[1])
    }
    offered = {
        opt for param in main.params for opt in param.opts if opt.startswith("-")
    }
    offered |= {"-h", "--help"}
    assert offered <= documented, sorted(offered - documented)
