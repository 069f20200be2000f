"""Model content never becomes code: any names, docs, values and paths round-trip."""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import sys
import tempfile
import typing
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable_codegen import generate
from waitable_codegen.docs import to_docstring_text

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
