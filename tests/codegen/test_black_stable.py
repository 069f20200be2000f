"""Generated files are already black-formatted, and byte-identical to before.

The renderer lays out code as black would (`waitable_codegen.layout`), so black
is not run at generation time; these tests prove black leaves every file of
every corpus unchanged, that the corpora never needed the per-file fallback to
black, and that the output is the one `corpus_checksum.json` recorded.
"""

from __future__ import annotations

import hashlib
import json
import keyword
import logging
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import black
import pytest
from shared_corpora import shared_path
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from waitable_codegen import generate, literals
from waitable_codegen.jmespath import layout

from waitable_codegen import render
from waitable_codegen.widths import LINE_LENGTH

from .helpers import AWS_MODELS, write_model

PROJECT_ROOT = Path(__file__).resolve().parents[2]
from .corpus_output import CHECKSUM_FILE, generate_cases, output_files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """Every corpus case generated from a cold start: case → (path → bytes)."""
    shared_path("models")
    root = tmp_path_factory.mktemp("black_stable")
    render.clear_caches()
    before = render.stats.fallbacks
    files = {name: output_files(out) for name, out, _ in generate_cases(root)}
    fallbacks = render.stats.fallbacks - before
    assert fallbacks == 0, render.stats.fallback_names[-fallbacks:]
    return files


def test_corpus_output_is_byte_identical_to_the_recorded_checksums(
    corpus: dict[str, dict[str, bytes]],
) -> None:
    recorded = json.loads(CHECKSUM_FILE.read_text())
    found = {
        f"{name}/{path}": hashlib.sha256(data).hexdigest()
        for name, files in corpus.items()
        for path, data in files.items()
    }
    assert sorted(found) == sorted(recorded), "missing or extra files"
    changed = sorted(key for key in found if found[key] != recorded[key])
    assert changed == []


def test_black_leaves_every_generated_file_of_every_corpus_unchanged(
    corpus: dict[str, dict[str, bytes]],
) -> None:
    mode = render.black_mode()
    checked = 0
    changed = []
    for name, files in corpus.items():
        for path, data in files.items():
            if path.endswith(".py"):
                text = data.decode()
                checked += 1
                if black.format_str(text, mode=mode) != text:
                    changed.append(f"{name}/{path}")
    assert checked > 500
    assert changed == []


# --- generated models with long names, long strings, deep nesting, many acceptors

_NAME = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True)
_LONG_NAMES = st.lists(_NAME, min_size=1, max_size=9).map("".join)
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200)


@st.composite
def nested_models(draw: st.DrawFn) -> dict[str, Any]:
    """A service-less model: one operation whose output nests `depth` structures
    (long member names), a list of structures at the bottom, and a waiter with
    many acceptors reading every level (paths, projections, filters, length)."""
    names = draw(st.lists(_LONG_NAMES, min_size=2, max_size=8, unique=True))
    leaf, *chain = names
    shapes: dict[str, Any] = {}
    prefix = "smithy.example#"
    shapes[prefix + "Item"] = {
        "type": "structure",
        "members": {leaf: {"target": "smithy.api#String"}},
    }
    shapes[prefix + "Items"] = {"type": "list", "member": {"target": prefix + "Item"}}
    inner = prefix + "Items"
    for depth, member in enumerate(reversed(chain[1:])):
        shape = f"{prefix}Level{depth}"
        shapes[shape] = {"type": "structure", "members": {member: {"target": inner}}}
        inner = shape
    shapes[prefix + "Output"] = {
        "type": "structure",
        "members": {chain[0]: {"target": inner}},
    }
    base = ".".join(chain)
    expected = draw(_TEXT)
    paths = [
        f"{base}[].{leaf}",
        f"length({base}[?{leaf} == '{draw(_NAME)}']) > `0`",
        f"{base}[?{leaf} != 'x' && {leaf} != 'y'].{leaf}",
        f"length({base}) == length({base}[?{leaf} == 'DONE'])",
    ]
    acceptors = []
    for index in range(draw(st.integers(1, 12))):
        chosen = paths[index % len(paths)]
        comparator = (
            "allStringEquals" if index % len(paths) in (0, 2) else "booleanEquals"
        )
        acceptors.append(
            {
                "state": ("success", "failure", "retry")[index % 3],
                "matcher": {
                    "output": {
                        "path": chosen,
                        "expected": (
                            expected if comparator != "booleanEquals" else "true"
                        ),
                        "comparator": comparator,
                    }
                },
            }
        )
    acceptors.append({"state": "retry", "matcher": {"errorType": draw(_LONG_NAMES)}})
    waiter_name = draw(_LONG_NAMES)
    shapes[prefix + draw(_LONG_NAMES) + "Op"] = {
        "type": "operation",
        "output": {"target": prefix + "Output"},
        "traits": {
            "smithy.waiters#waitable": {
                waiter_name: {
                    "documentation": draw(_TEXT),
                    "acceptors": acceptors,
                    "tags": draw(st.lists(_LONG_NAMES, max_size=4)),
                }
            }
        },
    }
    return shapes


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(shapes=nested_models())
def test_black_leaves_generated_models_with_long_and_deep_content_unchanged(
    shapes: dict[str, Any],
) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        model = write_model(Path(scratch) / "model.json", shapes)
        before = len(render.stats.fallback_names)
        result = generate(model, Path(scratch) / "out", allow_danger=True)
        assert result.waiters == 1
        fell_back = render.stats.fallback_names[before:]
        # reported by --hypothesis-show-statistics: how often black was needed
        event(f"black fallbacks: {len(fell_back)}")
        mode = render.black_mode()
        for path in result.files:
            if path.suffix == ".py":
                text = path.read_text()
                assert black.format_str(text, mode=mode) == text, path.name


@given(text=_TEXT | st.text())
def test_the_fast_paths_of_literals_write_what_the_character_loop_writes(
    text: str,
) -> None:
    slow = "".join(literals._escape_char(char, False) for char in text)
    assert literals._escaped(text) == slow
    unquoted = "".join(
        "\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char
        for char in text.replace('"', "")
    )
    loop = "".join(literals._escape_char(char, True) for char in unquoted)
    assert literals.docstring_body(text.replace('"', "")) == loop


def test_cold_generation_does_not_import_black(tmp_path: Path) -> None:
    """Black is a dev dependency of the generator: a run whose output needs no
    fallback never imports it."""
    shared_path("models", "api-models-aws")
    code = (
        "import sys\n"
        "from waitable_codegen import generate\n"
        "assert generate(sys.argv[1], sys.argv[2]).waiters\n"
        "print('black' in sys.modules)\n"
    )
    model = AWS_MODELS / "ecs-2014-11-13.json"
    done = subprocess.run(
        [sys.executable, "-c", code, str(model), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_file_the_check_cannot_vouch_for_is_formatted_by_black_and_counted() -> None:
    long_call = "x = f(" + ", ".join(f"argument_{n}" for n in range(12)) + ")\n"
    assert not render.certainly_stable(long_call)
    before = render.stats.files
    formatted = render.settled(long_call, "example.py")
    assert render.stats.files == before + 1
    assert render.stats.fallback_names[-1] == "example.py"
    assert formatted == black.format_str(long_call, mode=render.black_mode())
    assert formatted != long_call
    assert render.settled(formatted, "example.py") == formatted
    assert render.stats.files == before + 1


def test_without_black_installed_a_file_needing_it_is_written_as_is(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """black is an extra (`waitable-codegen[black]`): without it, the one file
    it would format is written as the templates wrote it, valid Python, and a
    warning says how to have it formatted."""
    monkeypatch.setitem(sys.modules, "black", None)  # `import black` fails
    long_call = "x = f(" + ", ".join(f"argument_{n}" for n in range(12)) + ")\n"
    with caplog.at_level(logging.WARNING, logger="waitable_codegen.render"):
        written = render.settled(long_call, "example.py")
    assert written == long_call
    compile(written, "example.py", "exec")
    assert "example.py: a line the generator cannot lay out" in caplog.text
    assert "pip install 'waitable-codegen[black]'" in caplog.text


def test_black_is_not_a_dependency_of_the_generator() -> None:
    """Only an extra: a pinned black forced on every environment that installs
    the generator would clash with the black a project formats its own code with."""
    data = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())
    project = data["project"]
    assert not any(d.startswith("black") for d in project["dependencies"])
    assert project["optional-dependencies"]["black"] == ["black==26.10.1"]
    assert "black==26.10.1" in project["optional-dependencies"]["test"]


# --- the compiled-function layout against black, shape by shape

_LOCAL = st.from_regex(r"[a-z][a-z_]{8,44}[a-z]", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name)
)
_SHAPES = (
    '{t} = {x}.get("{k}") if isinstance({x}, dict) else None',
    'return {x}.get("{k}") if isinstance({x}, dict) else None',
    "{t} = [{e} for {e} in _jp.flatten({x}) if {e} is not None]",
    "if _jp.fn_length({x}) == 1 and _jp.equal({e}, {t}):",
    'if not ({x} == "{k}" or {x} == "{t}"):',
    "{t} = _jp.fn_length({x}) == _jp.fn_length({e})",
    "{t}.append({x})",
    "for {e} in _jp.flatten({x}):",
    "for {e} in {x}:",
)


@settings(max_examples=400, deadline=None)
@given(
    shape=st.sampled_from(_SHAPES),
    depth=st.integers(1, 6),
    t=_LOCAL,
    x=_LOCAL,
    e=_LOCAL,
    k=_LOCAL,
)
def test_a_long_compiled_line_is_split_as_black_splits_it_or_left_for_black(
    shape: str, depth: int, t: str, x: str, e: str, k: str
) -> None:
    indent = "    " * depth
    line = indent + shape.format(t=t, x=x, e=e, k=k)
    lines = layout.layout_line(line)
    opens = "".join("    " * level + "if value:\n" for level in range(1, depth))
    needs_body = line.endswith(":")

    def module(body: list[str]) -> str:
        text = "def f(value: Any) -> Any:\n" + opens + "\n".join(body) + "\n"
        return text + (indent + "    pass\n" if needs_body else "")

    expected = black.format_str(module([line]), mode=render.black_mode())
    if lines == [line] and len(line) > LINE_LENGTH:
        event("left for black")
        assert not render.certainly_stable(module(lines))
    else:
        event("split" if len(lines) > 1 else "fits")
        assert module(lines) == expected


def test_packages_from_botocore_data_are_in_black_layout_without_black(
    tmp_path: Path,
) -> None:
    """`--botocore all`: every service's package, no fallback, black agrees."""
    pytest.importorskip("botocore")
    render.clear_caches()
    before = render.stats.fallbacks
    result = generate([], tmp_path / "out", botocore=["all"])
    assert render.stats.fallbacks == before, render.stats.fallback_names[-5:]
    mode = render.black_mode()
    sources = [path for path in result.files if path.suffix == ".py"]
    assert len(sources) > 100
    changed = [
        path.name
        for path in sources
        if black.format_str(text := path.read_text(), mode=mode) != text
    ]
    assert changed == []
