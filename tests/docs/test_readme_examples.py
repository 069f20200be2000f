"""Every code block of README.md and docs/*.md runs, or is at least checked against the code.

Python blocks run in a fresh interpreter against real generated packages and moto;
blocks marked `<!-- doctest: skip REASON -->` are parsed and their imports checked.
Bash blocks pass `bash -n` and their `generate-waiters` lines run; JSON blocks parse;
a `<!-- doctest: lists PACKAGE -->` listing names exactly the generated files; type
names in the prose exist in the package the section's examples import.
How to write an example: tests/docs/markdown_blocks.py.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import GENERATED_PACKAGES, python_path
from .doc_files import (
    PROJECT_ROOT,
    Check,
    blocks_checked_by,
    doc_blocks,
    doc_paths,
    needs_newer_python,
)
from .imported_names import ImportedName, imported_names, unbound_names
from .markdown_blocks import CodeBlock
from .prose_names import GENERATED_LOOKING, prose_names, prose_options

HERE = Path(__file__).resolve().parent
RUN_BLOCK = HERE / "run_block.py"
IMPORT_CHECK = HERE / "imported_names.py"
TIMEOUT = 30


def block_id(block: CodeBlock) -> str:
    """`README.md:123`, the test id of a block."""
    return block.where


def pieces(block: CodeBlock) -> list[tuple[str, int, str]]:
    """What a Python block runs: setup code, itself, teardown code, with Markdown lines."""
    source = str(PROJECT_ROOT / block.path)
    return [
        *((source, setup.line, setup.code) for setup in block.directives.setups),
        (source, block.first_code_line, block.code),
        *(
            (source, teardown.line, teardown.code)
            for teardown in block.directives.teardowns
        ),
    ]


def block_imports(block: CodeBlock) -> list[ImportedName]:
    """The imports of a Python block and of its setup code (SyntaxError if unparsable)."""
    return [
        name for _, line, code in pieces(block) for name in imported_names(code, line)
    ]


def explain(done: subprocess.CompletedProcess[str]) -> str:
    """Exit status and output of a finished process, for a failure message."""
    return f"exit status {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"


def check_imports(
    pairs: set[tuple[str, str | None]], doc_packages: Path
) -> dict[str, str]:
    """Import each `(module, name)` in one fresh interpreter; what fails, by `module:name`."""
    done = subprocess.run(
        [sys.executable, str(IMPORT_CHECK)],
        input=json.dumps(sorted(pairs, key=str)),
        env={"PYTHONPATH": python_path(doc_packages), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, explain(done)
    problems: dict[str, str] = json.loads(done.stdout)
    return problems


@pytest.fixture(scope="session")
def import_problems(doc_packages: Path) -> dict[str, str]:
    """What is wrong with each import of any Python block, checked in one fresh interpreter."""
    pairs = set()
    for block in blocks_checked_by(Check.RUN_PYTHON, Check.PARSE_PYTHON):
        if needs_newer_python(block):
            continue
        try:
            pairs |= {(name.module, name.name) for name in block_imports(block)}
        except SyntaxError:
            continue  # reported by the block's own test
    return check_imports(pairs, doc_packages)


def test_markers_are_well_formed() -> None:
    doc_blocks()  # raises MarkerError naming the file, the line and the fix


def test_every_block_has_a_language_the_suite_checks() -> None:
    unknown = [
        f"{block.where}: ```{block.language}"
        for block in blocks_checked_by(Check.UNKNOWN)
    ]
    assert not unknown, (
        "code blocks in a language no test checks; use python, bash, json or text, "
        f"or teach tests/docs/doc_files.py the language: {unknown}"
    )


@pytest.mark.parametrize(
    "block", blocks_checked_by(Check.RUN_PYTHON, Check.PARSE_PYTHON), ids=block_id
)
def test_python_example_parses_and_imports_real_names(
    block: CodeBlock, import_problems: dict[str, str]
) -> None:
    if reason := needs_newer_python(block):
        pytest.skip(reason)
    try:
        names = block_imports(block)
    except SyntaxError as error:
        pytest.fail(f"{block.path}:{error.lineno}: does not parse: {error.msg}")
    wrong = [
        f"{block.path}:{name.line}: {import_problems[name.key]}"
        for name in names
        if name.key in import_problems
    ]
    assert not wrong, "\n".join(wrong)


def test_skipped_python_examples_use_only_generated_names_that_exist(
    doc_packages: Path,
) -> None:
    """One test over every skipped block (there may be none: then nothing to check)."""
    modules = [f"{p}{s}" for p in GENERATED_PACKAGES for s in ("", ".shapes")]
    wrong = []
    for block in blocks_checked_by(Check.PARSE_PYTHON):
        used = unbound_names(
            [(line, code) for _, line, code in pieces(block)], GENERATED_LOOKING
        )
        problems = check_imports(
            {(module, name) for name, _ in used for module in modules}, doc_packages
        )
        wrong += [
            f"{block.path}:{line}: `{name}` is in none of the generated packages"
            for name, line in used
            if all(f"{module}:{name}" in problems for module in modules)
        ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("block", blocks_checked_by(Check.RUN_PYTHON), ids=block_id)
def test_python_example_runs(
    block: CodeBlock, sandbox: Path, example_env: dict[str, str]
) -> None:
    if reason := needs_newer_python(block):
        pytest.skip(reason)
    try:
        done = subprocess.run(
            [sys.executable, str(RUN_BLOCK)],
            input=json.dumps(pieces(block)),
            cwd=sandbox,
            env=example_env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired as expired:
        pytest.fail(
            f"{block.where}: the example still runs after {TIMEOUT}s (waiting on "
            f"something its setup did not create?)\n--- stdout\n{expired.stdout!r}"
            f"\n--- stderr\n{expired.stderr!r}"
        )
    assert done.returncode == 0, (
        f"{block.where}: the example fails; fix it, or give it a "
        f"`<!-- doctest: setup ... -->` or `<!-- doctest: skip REASON -->` marker\n"
        + explain(done)
    )


def logical_lines(script: str) -> list[str]:
    """The lines of a shell script with backslash continuations joined."""
    return script.replace("\\\n", " ").splitlines()


def runs_generator(line: str) -> bool:
    """Whether a shell line's command is `generate-waiters` (after any VAR=value)."""
    words = shlex.split(line, comments=True)
    while words and "=" in words[0] and not words[0].startswith("-"):
        words.pop(0)
    return bool(words) and Path(words[0]).name == "generate-waiters"


@pytest.mark.parametrize(
    "block", blocks_checked_by(Check.SHELL, Check.QUICKSTART), ids=block_id
)
def test_shell_example_is_valid_bash(block: CodeBlock) -> None:
    done = subprocess.run(
        ["bash", "-n"], input=block.code, capture_output=True, text=True, timeout=10
    )
    assert done.returncode == 0, f"{block.where}: not valid bash\n" + explain(done)


def generator_blocks() -> list[CodeBlock]:
    """The bash blocks (quick start aside) with at least one generate-waiters line."""
    return [
        block
        for block in blocks_checked_by(Check.SHELL)
        if any(runs_generator(line) for line in logical_lines(block.code))
    ]


@pytest.mark.parametrize("block", generator_blocks(), ids=block_id)
def test_shell_example_generate_commands_run(
    block: CodeBlock, sandbox: Path, example_env: dict[str, str]
) -> None:
    commands = [line for line in logical_lines(block.code) if runs_generator(line)]
    expected = block.directives.exit_status
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=sandbox,
            env=example_env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == expected, (
            f"{block.where}: `{command}` should exit {expected} "
            "(mark the block `<!-- doctest: exit N -->` if it documents a failure)\n"
            + explain(done)
        )


@pytest.mark.parametrize("block", blocks_checked_by(Check.JSON), ids=block_id)
def test_json_example_parses(block: CodeBlock) -> None:
    try:
        json.loads(block.code)
    except json.JSONDecodeError as error:
        pytest.fail(f"{block.path}:{block.line + error.lineno}: not JSON: {error.msg}")


def run_plugin_commands(config: object) -> list[list[str]]:
    """The generate-waiters commands of a smithy-build config's `run` plugins."""
    plugins = config.get("plugins", {}) if isinstance(config, dict) else {}
    return [
        plugin["command"]
        for name, plugin in plugins.items()
        if name.startswith("run::")
        and Path(plugin.get("command", [""])[0]).name == "generate-waiters"
    ]


def smithy_build_blocks() -> list[CodeBlock]:
    """The JSON blocks that are smithy-build configs running generate-waiters."""
    found = []
    for block in blocks_checked_by(Check.JSON):
        try:
            if run_plugin_commands(json.loads(block.code)):
                found.append(block)
        except json.JSONDecodeError:
            continue  # reported by test_json_example_parses
    return found


@pytest.mark.parametrize("block", smithy_build_blocks(), ids=block_id)
def test_smithy_build_run_commands_generate(
    block: CodeBlock, sandbox: Path, example_env: dict[str, str]
) -> None:
    """As smithy-build's run plugin does: the model on stdin, SMITHY_PLUGIN_DIR set."""
    model = (sandbox / "examples" / "spec_examples.json").read_text(encoding="utf-8")
    for command in run_plugin_commands(json.loads(block.code)):
        out = sandbox / "plugin_out"
        done = subprocess.run(
            command,
            input=model,
            cwd=sandbox,
            env={**example_env, "SMITHY_PLUGIN_DIR": str(out)},
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, f"{block.where}: {command}\n" + explain(done)
        assert (
            out / "__init__.py"
        ).is_file(), f"{block.where}: {command} wrote nothing"


@pytest.mark.parametrize("block", blocks_checked_by(Check.LISTING), ids=block_id)
def test_listing_names_exactly_the_generated_files(
    block: CodeBlock, doc_packages: Path
) -> None:
    package = block.directives.lists
    assert package in GENERATED_PACKAGES, (
        f"{block.where}: `doctest: lists {package}` names no package of "
        f"GENERATED_PACKAGES in tests/docs/conftest.py ({', '.join(GENERATED_PACKAGES)})"
    )
    root, *entries = block.code.splitlines()
    assert root.rstrip("/").endswith(package), f"{block.where}: lists {root}"
    listed = {entry.split()[0] for entry in entries if entry.strip()}
    generated = {
        path.name
        for path in (doc_packages / package).iterdir()
        if path.name != "__pycache__"
    }
    assert listed == generated, f"{block.where}: listed {listed}, generated {generated}"


@pytest.mark.parametrize("block", blocks_checked_by(Check.OUTPUT), ids=block_id)
def test_output_example_is_what_the_command_prints(
    block: CodeBlock, sandbox: Path, example_env: dict[str, str]
) -> None:
    command = block.directives.output_of
    assert command is not None
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=sandbox,
        env=example_env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    expected = block.directives.exit_status
    assert (
        done.returncode == expected
    ), f"{block.where}: `{command}` should exit {expected}\n" + explain(done)
    printed = set((done.stdout + done.stderr).splitlines())
    missing = [line for line in block.code.splitlines() if line and line not in printed]
    assert not missing, (
        f"{block.where}: `{command}` does not print these lines of the block:\n"
        + "\n".join(missing)
        + "\n"
        + explain(done)
    )


def section_packages(path: Path, start: int, end: int) -> set[str]:
    """The generated packages the Python blocks of a section import (with their setup)."""
    packages = set()
    for block in doc_blocks():
        if block.path == path.relative_to(PROJECT_ROOT).as_posix() and (
            start <= block.line < end and block.language == "python"
        ):
            packages |= {
                name.module.split(".")[0]
                for name in block_imports(block)
                if name.module.split(".")[0] in GENERATED_PACKAGES
            }
    return packages


@pytest.mark.parametrize("path", doc_paths(), ids=lambda path: path.name)
def test_generated_names_in_prose_exist(path: Path, doc_packages: Path) -> None:
    candidates = {}
    for prose in prose_names(path.read_text(encoding="utf-8")):
        packages = section_packages(path, prose.section_start, prose.section_end)
        candidates[prose] = [
            f"{package}{suffix}"
            for package in sorted(packages or GENERATED_PACKAGES)
            for suffix in ("", ".shapes")
        ] + ["waitable"]
    problems = check_imports(
        {
            (module, prose.name)
            for prose, modules in candidates.items()
            for module in modules
        },
        doc_packages,
    )
    wrong = [
        f"{path.name}:{prose.line}: `{prose.name}` is in none of {', '.join(modules)}"
        for prose, modules in candidates.items()
        if all(f"{module}:{prose.name}" in problems for module in modules)
    ]
    assert not wrong, "\n".join(wrong)


#: The project's command lines whose `--help` names the options prose may cite.
COMMANDS = (
    ("from waitable_codegen.cli import main; main()", "--help"),
    ("from waitable.simulate.cli import main; main()", "simulate", "--help"),
    ("from waitable.simulate.cli import main; main()", "wait", "--help"),
)


@pytest.fixture(scope="session")
def generator_options() -> set[str]:
    """The options `generate-waiters --help`, `waitable simulate --help` and `waitable wait --help` list."""
    options: set[str] = set()
    for program, *arguments in COMMANDS:
        done = subprocess.run(
            [sys.executable, "-c", program, *arguments],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, explain(done)
        options |= set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", done.stdout))
    return options


@pytest.mark.parametrize("path", doc_paths(), ids=lambda path: path.name)
def test_options_in_prose_are_options_of_generate_waiters(
    path: Path, generator_options: set[str]
) -> None:
    options = prose_options(path.read_text(encoding="utf-8"))
    wrong = [
        f"{path.name}:{line}: `{option}` is an option of none of generate-waiters, "
        "waitable simulate and waitable wait"
        for option, line in options
        if option not in generator_options
    ]
    assert not wrong, "\n".join(wrong)
