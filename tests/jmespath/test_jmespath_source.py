"""The generated source: its docstring, its stability, what it needs to run."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from typing import Any

import black
import pytest
from shared_corpora import shared_path
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jmespath_cases import conformance_cases, waiter_paths

from waitable import jmespath_runtime
from waitable_codegen.jmespath import JMESPathCompileError, compile, compile_to_source

HEADER = "from typing import Any\n\nfrom waitable import jmespath_runtime as _jp\n\n\n"


def _load(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    return namespace[name]


def _expressions_around(text: str) -> list[str]:
    """Valid expressions whose text holds ``text`` in several spellings."""
    quoted = json.dumps(text, ensure_ascii=False)
    raw = "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    literal = "`" + json.dumps(text).replace("`", "\\`") + "`"
    return [quoted, raw, literal, f" \n\t{quoted}.b  \n", f'{raw} == "\\"\\"\\""']


def _as_docstring(text: str) -> str:
    """What this interpreter keeps of `text` as a docstring: itself before 3.13; from
    3.13 the compiler strips the first line's and the common indentation."""
    namespace: dict[str, Any] = {}
    exec(f"def f():\n    {ascii(text)}\n", namespace)
    doc = namespace["f"].__doc__
    assert isinstance(doc, str)
    if sys.version_info < (3, 13):
        assert doc == text
    return doc


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=12))
def test_the_docstring_is_the_expression_even_after_black(text: str) -> None:
    for expression in _expressions_around(text):
        try:
            source = compile_to_source(expression, "path")
        except JMESPathCompileError:
            assume(False)
        formatted = black.format_str(HEADER + source, mode=black.Mode())
        assert black.format_str(formatted, mode=black.Mode()) == formatted
        for module in (HEADER + source, formatted):
            function = _load(module, "path")
            assert function.__doc__ == _as_docstring(expression)


@pytest.mark.parametrize(
    ("expression", "written"),
    [
        ("a.b", "a.b"),
        ('a."b c".d', 'a."b c".d'),
        ("foo[?a == 'x']", "foo[?a == 'x']"),
        ("\"é\" || '☃'", "\\x22é\" || '☃'"),
        ('a."b c"', 'a."b c\\x22'),
        ('a == `""`', "a == `\\x22\\x22`"),
        (" a ", "\\x20a\\x20"),
        ("a\n|\nb", "a\\n|\\nb"),
        ("'a\\b'", "'a\\\\b'"),
    ],
)
def test_docstrings_escape_only_what_they_must(expression: str, written: str) -> None:
    source = compile_to_source(expression, "path")
    assert source.splitlines()[1] == f'    """{written}"""'
    assert _load(HEADER + source, "path").__doc__ == _as_docstring(expression)


def test_the_same_expression_gives_the_same_source_in_any_process() -> None:
    """No set or dict order leaks into the output (hash seeds differ)."""
    expressions = [case["expression"] for _, _, case in conformance_cases()][:400]
    expressions += waiter_paths()
    script = textwrap.dedent("""
        import hashlib, json, sys
        from waitable_codegen.jmespath import compile_to_source, JMESPathCompileError
        digest = hashlib.sha256()
        for expression in json.load(sys.stdin):
            try:
                digest.update(compile_to_source(expression, "path").encode())
            except JMESPathCompileError as error:
                digest.update(str(error).encode())
        print(digest.hexdigest())
        """)
    digests = set()
    for seed in ("1", "2", "3"):
        run = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(expressions),
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            check=True,
        )
        digests.add(run.stdout)
    assert len(digests) == 1


def test_compile_runs_exactly_the_generated_source() -> None:
    expression = "Reservations[].Instances[].State.Name"
    function = compile(expression)
    assert function is compile(expression)
    assert function.__doc__ == expression
    assert inspect.getsource(function) == compile_to_source(expression, "search")


def test_runtime_errors_point_into_readable_source() -> None:
    function = compile("length(a)")
    with pytest.raises(jmespath_runtime.JMESPathEvaluationError) as caught:
        function({"a": 5})
    frames = [frame.line for frame in __import__("traceback").extract_tb(caught.tb)]
    assert "return _jp.fn_length(a)" in frames


def test_generated_functions_need_only_the_runtime(tmp_path: Any) -> None:
    """The generator, black, jinja2, click and jmespath stay unimported."""
    shared_path("models")
    sources = [
        compile_to_source(path, f"path_{n}") for n, path in enumerate(waiter_paths())
    ]
    module = tmp_path / "generated_paths.py"
    module.write_text(HEADER + "\n\n".join(sources), "utf-8")
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {"waitable_codegen", "black", "jinja2", "click"}:
                    raise ImportError(f"{name} must not be needed")
                return None
        sys.meta_path.insert(0, Block())
        import generated_paths
        print(generated_paths.path_0({}))
        """)
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "None"


def test_the_hot_path_compiles_to_loops_not_calls() -> None:
    """The benchmark path: no helper call per element, one per response."""
    source = compile_to_source("Reservations[].Instances[].State.Name", "path")
    assert source.count("_jp.") == 1
    assert "for " in source


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aAbBzZ09_-. ", max_size=40))
def test_acronym_split_is_the_regular_expression_it_replaces(text: str) -> None:
    import re

    from waitable_codegen.jmespath.source import _split_acronyms

    expected = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", text)
    assert _split_acronyms(text) == expected


def test_a_field_name_of_100000_capitals_is_named_in_one_pass() -> None:
    """The old regular expression took about 100 s here (quadratic backtracking)."""
    from waitable_codegen.jmespath.source import snake_name

    assert snake_name("A" * 100_000 + "b") == "a" * 32


def test_names_count_on_from_the_last_one_given_and_skip_taken_ones() -> None:
    """`Names.new` remembers where each base's numbering stands (a chain of
    thousands of `b` steps once counted from 2 for each; found by review)."""
    from waitable_codegen.jmespath.source import Names

    names = Names("b_3")
    given = [names.new("b") for _ in range(5)]
    assert given == ["b", "b_2", "b_4", "b_5", "b_6"]
    assert names.new("c") == "c" and names.new("c") == "c_2"
