"""Model content never becomes code: any names, docs, values and paths round-trip."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import itertools
import json
import sys
import tempfile
import typing
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable_codegen import generate
from waitable_codegen.docs import to_docstring_text
from waitable_codegen.errors import GenerationError
from waitable_codegen.literals import Source, compose, string_literal
from waitable_codegen.naming import Identifier, identifier
from waitable_codegen.plan import records
from waitable_codegen.render import environment

from .helpers import write_model

_counter = itertools.count()

waiter_names = st.lists(
    st.from_regex(r"[A-Z][A-Za-z0-9]{0,12}", fullmatch=True),
    min_size=1,
    max_size=3,
    unique_by=str.lower,
)
texts = st.text(max_size=80) | st.sampled_from(
    ['"""', "'''", "\\", '"', "{{ x }}", "{% if %}", "\x00\r\n\t", "é\u2028\ud800"]
)
# Names where Smithy's grammar allows only identifiers: any of them, Python's
# keywords, builtins and the names generated modules use for themselves included.
PYTHON_NAMES = (
    "None",
    "True",
    "class",
    "def",
    "import",
    "exec",
    "eval",
    "object",
    "print",
    "type",
    "match",
    "case",
    "value",
    "self",
    "Any",
    "ClassVar",
    "TypedDict",
    "NotRequired",
    "annotations",
    "_t",
    "_w",
    "_jp",
    "_shapes",
    "_datetime",
    "_decimal",
    "_import__",
    "__import__",
    "__init__",
    "__class__",
    "_0",
)
identifiers = st.from_regex(
    r"[A-Za-z][A-Za-z0-9_]{0,15}|_[A-Za-z0-9][A-Za-z0-9_]{0,15}", fullmatch=True
) | st.sampled_from(PYTHON_NAMES)
member_names = identifiers
shape_names = identifiers


def acceptor(
    path: str, expected: str, state: str, message: str | None
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "state": state,
        "matcher": {
            "output": {"path": path, "expected": expected, "comparator": "stringEquals"}
        },
    }
    if message is not None:
        body["message"] = message
    return body


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    names=waiter_names,
    member=member_names,
    output_name=shape_names,
    documentation=texts,
    expected=texts,
    tag=texts,
    jmespath=st.sampled_from(["compiled", "interpreted"]),
)
def test_any_model_text_round_trips_through_generated_code(
    names: list[str],
    member: str,
    output_name: str,
    documentation: str,
    expected: str,
    tag: str,
    jmespath: str,
) -> None:
    path = json.dumps(member)  # a JMESPath quoted identifier holding any text
    waiters = {
        name: {
            "documentation": documentation,
            "tags": [tag] if tag else [],
            "acceptors": [
                acceptor(path, expected, "failure", path),
                acceptor(path, "done", "success", None),
            ],
        }
        for name in names
    }
    shapes = {
        "smithy.example#GetThing": {
            "type": "operation",
            "output": {"target": f"smithy.example#{output_name}"},
            "traits": {"smithy.waiters#waitable": waiters},
        },
        f"smithy.example#{output_name}": {
            "type": "structure",
            "members": {member: {"target": "smithy.api#String"}},
            "traits": {"smithy.api#documentation": documentation},
        },
    }
    package_name = f"safety_{next(_counter)}"
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        model = write_model(root / "model.json", shapes)
        result = generate(model, root / package_name, jmespath=jmespath)
        assert result.waiters == len(names)
        sys.path.insert(0, scratch)
        try:
            package = importlib.import_module(package_name)
            shapes_module = importlib.import_module(f"{package_name}.shapes")
            check_package(
                package, shapes_module, names, member, documentation, expected, tag
            )
        finally:
            sys.path.remove(scratch)
            for module in [m for m in sys.modules if m.split(".")[0] == package_name]:
                del sys.modules[module]


def check_package(
    package: Any,
    shapes_module: Any,
    names: list[str],
    member: str,
    documentation: str,
    expected: str,
    tag: str,
) -> None:
    for name in names:
        for prefix in ("", "Async"):
            waiter = getattr(package, f"{prefix}{name}Waiter")
            _, output_type = typing.get_args(waiter.__orig_bases__[0])
            assert getattr(shapes_module, output_type.__name__) is output_type
            assert list(output_type.__annotations__) == [member]
            definition = waiter.definition
            assert definition.name == name
            assert definition.documentation == (documentation or None)
            assert definition.tags == ((tag,) if tag else ())
            failure, success = definition.acceptors
            assert failure.matcher.path == json.dumps(member)
            assert failure.matcher.expected == expected
            assert failure.message == json.dumps(member)
            assert failure.matcher.compiled({member: "value"}) == "value"
            assert failure.compiled_message({member: "why"}) == "why"
            assert success.matcher.expected == "done"
            text = to_docstring_text(documentation)
            doc = inspect.cleandoc(waiter.__doc__)
            assert text in doc


# Structure: the ways model text could reach a template are closed by types.

CODEGEN = Path(__file__).resolve().parents[2] / "codegen" / "waitable_codegen"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def codegen_calls(function: str) -> list[tuple[str, ast.Call]]:
    """Every call of `function` by its bare name in the generator (the modules
    import these functions by name; `str.join` and the like are not them)."""
    found = []
    for path in sorted(CODEGEN.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                callee = node.func
                if isinstance(callee, ast.Name) and callee.id == function:
                    found.append((path.relative_to(CODEGEN).as_posix(), node))
    return found


def test_composed_code_is_written_in_the_generator_never_taken_from_data() -> None:
    """`compose` and `join` place their first argument as code: it must be a
    constant in the generator's own source, so no model text can be that code."""
    calls = codegen_calls("compose") + codegen_calls("join")
    assert len(calls) > 20
    bad = [
        f"{path}:{call.lineno}"
        for path, call in calls
        if not (
            call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        )
        and path != "literals.py"  # join() builds its placeholders from a constant
    ]
    assert bad == []


def constructions(cls: str) -> set[str]:
    """The generator's modules that make a `cls`: by calling it, or through a
    `__new__` given it (`str.__new__(Source, text)`, which skips its check)."""
    places = {path for path, _ in codegen_calls(cls)}
    for path in sorted(CODEGEN.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__new__"
                and any(isinstance(a, ast.Name) and a.id == cls for a in node.args)
            ):
                places.add(path.relative_to(CODEGEN).as_posix())
    return places


def test_only_literals_and_naming_construct_the_safe_types() -> None:
    for cls, home in (("Source", "literals.py"), ("Identifier", "naming.py")):
        assert constructions(cls) == {home}, cls
    assert {path for path, _ in codegen_calls("compiled_function")} == {
        "plan/search.py"
    }
    with pytest.raises(TypeError, match="literals"):
        Source('__import__("os")')
    with pytest.raises(TypeError, match="only Source or Identifier"):
        compose("x = {}", '__import__("os")')  # type: ignore[arg-type]


def test_templates_refuse_to_place_anything_but_safe_values() -> None:
    template = environment().from_string("x = {{ value }}\n")
    assert template.render(value=string_literal("a")) == 'x = "a"\n'
    assert template.render(value=identifier("a")) == "x = a\n"
    for unsafe in ('__import__("os").system("x")', 5, None, True, ["a"]):
        with pytest.raises(GenerationError, match="internal error: a template"):
            template.render(value=unsafe)


def template_variables() -> tuple[set[str], set[str]]:
    """What the templates' `{{ ... }}` place: attributes read (`waiter.class_name`
    gives `class_name`) and bare names (loop variables)."""
    env = environment()
    attributes: set[str] = set()
    names: set[str] = set()
    for path in TEMPLATES.glob("*.jinja"):
        tree = env.parse(path.read_text())
        for output in tree.find_all(jinja2.nodes.Output):
            for node in output.nodes:
                if isinstance(node, jinja2.nodes.TemplateData):
                    continue
                if isinstance(node, jinja2.nodes.Getitem):  # package.path[-1]
                    node = node.node
                if isinstance(node, jinja2.nodes.Getattr):
                    attributes.add(node.attr)
                else:
                    assert isinstance(node, jinja2.nodes.Name), (path, node)
                    names.add(node.name)
    return attributes, names


def test_every_template_variable_is_a_safe_plan_field() -> None:
    """Audit: what a template places is a plan field typed `Source` or
    `Identifier` (or a tuple of them), or a loop variable over such a field."""
    hints: dict[str, list[Any]] = {"class_names": [tuple[Identifier, ...]]}
    for record in vars(records).values():
        if dataclasses.is_dataclass(record):
            for field, hint in typing.get_type_hints(record).items():
                hints.setdefault(field, []).append(hint)  # every record's field
    attributes, names = template_variables()
    # loops: header_lines, package.class_names, function_sources (render.py)
    assert names == {"line", "name", "function_source"}
    assert {"class_name", "docstring_source", "search", "path"} <= attributes
    safe = (Source, Identifier, Source | None, Identifier | None)
    safe_tuples = (tuple[Source, ...], tuple[Identifier, ...])
    unsafe = [
        (attribute, hints.get(attribute))
        for attribute in sorted(attributes)
        if attribute not in hints
        or any(hint not in safe + safe_tuples for hint in hints[attribute])
    ]
    assert unsafe == []
