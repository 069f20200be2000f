"""No model text ever becomes code: hostile text in every slot of a model gives a
package that parses, passes `mypy --strict` and imports without doing anything.

Each generated package is imported (and its path functions called) in a fresh
interpreter under an audit hook that fails on any process, file write, network,
`exec` or `compile` event the import system did not cause; one subprocess and one
mypy run check a whole batch, so the test stays fast.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable_codegen import generate
from waitable_codegen.errors import GenerationError
from waitable_codegen.model import WAITABLE_TRAIT as WAITABLE
from waitable_codegen.model import load_text
from waitable_codegen.plan import plan_generation
from waitable_codegen.render import render_plan

from .test_safety import PYTHON_NAMES, identifiers

MYPY = Path(sys.executable).with_name("mypy")

# Run in a fresh interpreter: argv = root, package names. Prints one JSON line,
# package -> list of forbidden events (empty when the package did nothing).
AUDIT_SCRIPT = r"""
import ast, importlib, json, os, sys
sys.dont_write_bytecode = True
root = os.path.realpath(sys.argv[1]) + os.sep
sys.path.insert(0, root)
import datetime, decimal, typing, waitable, waitable.jmespath_runtime  # trusted
FORBIDDEN = (
    "subprocess.", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork",
    "os.kill", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod",
    "os.symlink", "os.link", "os.truncate", "shutil.", "socket.", "ctypes.",
    "urllib.", "http.", "webbrowser.", "builtins.input",
)
WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
state = {"package": None, "busy": False, "compiled": set()}
found = {}

def generated_source(source, filename):
    # The import system compiles a generated module's own bytes under its path.
    if not isinstance(filename, str) or not filename.endswith(".py"):
        return False
    path = os.path.realpath(filename)
    if not path.startswith(root):
        return False
    with open(path, "rb") as handle:
        return handle.read() == source

TYPE_NODES = (ast.Expression, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple,
              ast.BinOp, ast.BitOr, ast.Load, ast.Constant)

def forward_reference(source, frame):
    # typing.ForwardRef compiles (never runs) a string annotation of the
    # functional TypedDict form; it must be a plain type expression.
    if frame.f_globals.get("__name__") != "typing" or frame.f_code.co_name != "__init__":
        return False
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return False
    return all(isinstance(node, TYPE_NODES) for node in ast.walk(tree)) and all(
        node.value is None or isinstance(node.value, str)
        for node in ast.walk(tree) if isinstance(node, ast.Constant)
    )

def verdict(event, args):
    if event.startswith(FORBIDDEN):
        return event
    if event == "open":
        path, mode, flags = args
        writes = any(c in mode for c in "wax+") if mode else bool(flags & WRITE)
        return f"open for writing {path}" if writes else None
    if event == "compile":
        if generated_source(args[0], args[1]):
            state["compiled"].add(os.path.realpath(args[1]))
            return None
        if forward_reference(args[0], sys._getframe(2)):
            return None
        return f"compile {args[1]}"
    if event == "exec":
        code = args[0]
        filename = os.path.realpath(getattr(code, "co_filename", ""))
        if code.co_name == "<module>" and filename in state["compiled"]:
            return None
        return f"exec {code.co_filename} {code.co_name}"
    return None

def hook(event, args):
    package = state["package"]
    if package is None or state["busy"]:
        return
    state["busy"] = True
    try:
        bad = verdict(event, args)
    finally:
        state["busy"] = False
    if bad is not None:
        found[package].append(bad)
        raise RuntimeError(f"forbidden: {bad}")

sys.addaudithook(hook)
for package in sys.argv[2:]:
    found[package] = []
    state["package"] = package
    try:
        module = importlib.import_module(package)
        modules = [m for n, m in list(sys.modules.items()) if n.split(".")[0] == package]
        for sub in modules:
            for value in list(vars(sub).values()):
                definition = getattr(value, "definition", None)
                for acceptor in getattr(definition, "acceptors", ()):
                    for search in (acceptor.message_search,
                                   getattr(acceptor.matcher, "search", None)):
                        for data in ({}, None, {"a": ["b"]}):
                            try:
                                if search is not None:
                                    search(data)
                            except RuntimeError:
                                raise
                            except Exception:
                                pass  # JMESPath evaluation errors are fine here
    except BaseException as exc:
        found[package].append(f"{type(exc).__name__}: {exc}")
    finally:
        state["package"] = None
print(json.dumps(found))
"""

ALLOWED_ERRORS = (GenerationError,)  # UsageError, ValidationFailed are subclasses

texts = (
    st.text(max_size=60)
    | st.sampled_from(
        [
            '"""',
            "'''",
            "\\",
            '"',
            "'",
            "#",
            "{{ x }}",
            "{% if x %}",
            "{#",
            "\x00",
            "\r",
            "\r\n",
            "\n#",
            "\u2028",
            "\u0085",
            "\x0c",
            "\ud800",
            "é日本",
            '"); __import__("os").system("true"); ("',
            '\\"""; import os; """',
            "\n__import__('os').system('true')\n",
        ]
    )
    | st.builds(
        lambda c, n: c * n,
        st.sampled_from(['"', "\\", "A", "{", "\n"]),
        st.integers(500, 3000),
    )
)
waiter_names = st.from_regex(
    r"[A-Z][A-Za-z0-9]{0,10}", fullmatch=True
) | st.sampled_from(["None", "True", "Class", "Import", "A"])
file_names = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
    min_size=1,
    max_size=30,
).map(lambda name: f"{name}.json")


def raw_string(text: str) -> str:
    """A JMESPath raw string literal holding `text` (may be invalid: fine)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def json_literal(text: str) -> str:
    """A JMESPath JSON literal holding the string `text`."""
    return "`" + json.dumps(text).replace("`", "\\`") + "`"


@st.composite
def hostile_models(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A file name and a model with hostile text in every slot that takes text."""
    ns = draw(st.sampled_from(["ex", "smithy.example", "com.x_1"]))
    # shape names unique (Smithy compares them ignoring case); members likewise
    names = iter(
        draw(st.lists(identifiers, min_size=5, max_size=5, unique_by=str.lower))
    )
    op_name = next(names)
    member, other_member = draw(
        st.lists(identifiers, min_size=2, max_size=2, unique_by=str.lower)
    )
    doc = draw(texts)
    shapes: dict[str, Any] = {}
    operation: dict[str, Any] = {"type": "operation", "traits": {}}
    if draw(st.booleans()):
        input_id = f"{ns}#{next(names)}"
        operation["input"] = {"target": input_id}
        shapes[input_id] = {
            "type": "structure",
            "members": {member: {"target": "smithy.api#String"}},
            "traits": {"smithy.api#input": {}, "smithy.api#documentation": doc},
        }
    has_output = draw(st.booleans())
    if has_output:
        output_id = f"{ns}#{next(names)}"
        operation["output"] = {"target": output_id}
        shapes[output_id] = {
            "type": "structure",
            "members": {
                member: {
                    "target": "smithy.api#String",
                    "traits": {"smithy.api#documentation": draw(texts)},
                },
                other_member: {"target": "smithy.api#Integer"},
            },
            "traits": {"smithy.api#output": {}},
        }
    error_id = f"{ns}#{next(names)}"
    shapes[error_id] = {
        "type": "structure",
        "members": {},
        "traits": {"smithy.api#error": "client", "smithy.api#httpError": 404},
    }
    operation["errors"] = [{"target": error_id}]
    acceptors: list[dict[str, Any]] = [
        {"state": "retry", "matcher": {"errorType": draw(texts) or "X"}},
        {"state": "success", "matcher": {"success": draw(st.booleans())}},
    ]
    if has_output:
        literal = draw(st.sampled_from([raw_string, json_literal]))(draw(texts))
        acceptors[:0] = [
            {
                "state": "failure",
                "matcher": {
                    "output": {
                        "path": json.dumps(member),
                        "expected": draw(texts),
                        "comparator": "stringEquals",
                    }
                },
                "message": literal,
            },
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": f"{member} == {literal}",
                        "expected": "true",
                        "comparator": "booleanEquals",
                    }
                },
            },
        ]
    waiters = {
        name: {
            "documentation": draw(texts),
            "tags": draw(st.lists(texts.filter(bool), max_size=2)),
            "deprecated": draw(st.booleans()),
            "acceptors": acceptors,
        }
        for name in draw(st.lists(waiter_names, min_size=1, max_size=2, unique=True))
    }
    operation["traits"]["smithy.waiters#waitable"] = waiters
    operation["traits"]["smithy.api#documentation"] = doc
    shapes[f"{ns}#{op_name}"] = operation
    if draw(st.booleans()):
        shapes[f"{ns}#{next(names)}"] = {
            "type": "service",
            "version": draw(texts),
            "operations": [{"target": f"{ns}#{op_name}"}],
            "traits": {
                "smithy.api#title": draw(texts),
                "smithy.api#documentation": draw(texts),
                "aws.api#service": {"sdkId": draw(texts)},
            },
        }
    return draw(file_names), {"smithy": "2.0", "shapes": shapes}


def generate_batch(root: Path, count: int) -> tuple[list[str], list[str]]:
    """Generate `count` hostile models under `root`; the packages made, and why
    the other models stopped with the project's own error instead."""
    packages: list[str] = []
    refused: list[str] = []

    @settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile_models())
    def build(model: tuple[str, dict[str, Any]]) -> None:
        file_name, document = model
        index = len(packages) + len(refused)
        source = root / "models" / str(index) / file_name
        source.parent.mkdir(parents=True)
        source.write_text(json.dumps(document, indent=1))
        package = root / f"pkg_{index}"
        try:
            generate(source, package, allow_danger=True)
        except ALLOWED_ERRORS as exc:
            assert str(exc) and "Traceback" not in str(exc)
            assert "internal error" not in str(exc), str(exc)
            refused.append(f"{exc} {getattr(exc, 'events', '')}")
            return
        for path in package.rglob("*.py"):
            ast.parse(path.read_text(encoding="utf-8"), str(path))
        packages.append(package.name)

    build()
    return packages, refused


def audit_imports(root: Path, packages: list[str]) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", AUDIT_SCRIPT, str(root), *packages],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_hostile_model_text_never_becomes_code(tmp_path: Path) -> None:
    packages, refused = generate_batch(tmp_path, 30)
    assert len(packages) >= 20, refused
    found = audit_imports(tmp_path, packages)
    assert found == {package: [] for package in packages}
    checked = subprocess.run(
        [str(MYPY), "--strict", "--no-incremental", *packages],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": ""},
    )
    assert checked.returncode == 0, checked.stdout[-4000:]


MALICIOUS = {
    "evil_system": '__import__("os").system("true")\n',
    "evil_exec": 'exec("x = 1")\n',
    "evil_eval": 'eval("1")\n',
    "evil_compile": 'compile("1", "<s>", "eval")\n',
    "evil_write": 'open(__file__ + ".out", "w").close()\n',
    "evil_socket": "import socket\nsocket.socket()\n",
    "evil_subprocess": 'import subprocess\nsubprocess.run(["true"])\n',
    "evil_forward_ref": "import typing\ntyping.ForwardRef(\"__import__('os')\")\n",
    "evil_function": (
        "import waitable as _w\n"
        "def _search(value):\n"
        '    __import__("os").system("true")\n'
        "class W:\n"
        "    definition = _w.WaiterDefinition(name='W', operation='O', acceptors=(\n"
        "        _w.Acceptor(state=_w.AcceptorState.SUCCESS, matcher=_w.OutputMatcher(\n"
        "            path='a', expected='b', comparator=_w.Comparator.STRING_EQUALS,\n"
        "            search=_search)),))\n"
    ),
}


def test_the_audit_hook_catches_a_malicious_package(tmp_path: Path) -> None:
    """The hook is not vacuous: each planted attack is reported, and a benign
    package next to them passes."""
    for name, source in {**MALICIOUS, "benign": "import typing\nX = 1\n"}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(source)
    found = audit_imports(tmp_path, [*MALICIOUS, "benign"])
    assert found.pop("benign") == []
    assert sorted(name for name, events in found.items() if events) == sorted(MALICIOUS)
    assert not list(tmp_path.glob("evil_write/*.out"))


def test_python_names_in_the_model_still_generate(tmp_path: Path) -> None:
    """Keywords, builtins and dunder-like names where Smithy allows identifiers
    give working packages, not errors (the strategy above may not draw them all)."""
    shapes: dict[str, Any] = {}
    for index, name in enumerate(PYTHON_NAMES):
        if not name[0].isalpha():
            continue  # Smithy names start with a letter (or _ and a letter/digit)
        shapes[f"ex.n{index}#{name}"] = {
            "type": "operation",
            "traits": {
                "smithy.waiters#waitable": {
                    "Done": {
                        "acceptors": [
                            {"state": "success", "matcher": {"success": True}}
                        ]
                    }
                }
            },
        }
        source = tmp_path / f"m{index}.json"
        source.write_text(json.dumps({"smithy": "2.0", "shapes": shapes}))
        shapes = {}
        generate(source, tmp_path / f"names_{index}")
    packages = sorted(path.name for path in tmp_path.glob("names_*"))
    assert len(packages) > 10
    assert audit_imports(tmp_path, packages) == {package: [] for package in packages}


ATTACK_ID = 'ex#X(__import__("os").system("touch PWNED")or object):#pppppp'


def test_the_reported_attack_is_refused_or_harmless(tmp_path: Path) -> None:
    """The issue's model: an operation with a waiter, no output, and a shape id
    holding code. The loader refuses the id; whatever it does, nothing runs."""
    waiter = {
        "Done": {"acceptors": [{"state": "success", "matcher": {"success": True}}]}
    }
    shapes = {ATTACK_ID: {"type": "operation", "traits": {WAITABLE: waiter}}}
    source = tmp_path / "attack.json"
    source.write_text(json.dumps({"smithy": "2.0", "shapes": shapes}))
    try:
        generate(source, tmp_path / "attack")
    except GenerationError as exc:
        assert "Traceback" not in str(exc)
    else:
        assert audit_imports(tmp_path, ["attack"]) == {"attack": []}
    assert not (tmp_path / "PWNED").exists()


def test_the_plan_alone_keeps_a_hostile_operation_name_out_of_code(
    tmp_path: Path,
) -> None:
    """Defence in depth: even if a shape id that breaks Smithy's grammar got past
    the loader, the plan names the classes through the identifier function and
    places the id only as string literals and docstring text."""
    waiter = {
        "Done": {"acceptors": [{"state": "success", "matcher": {"success": True}}]}
    }
    shapes = {"ex#GetThing": {"type": "operation", "traits": {WAITABLE: waiter}}}
    model = load_text(json.dumps({"smithy": "2.0", "shapes": shapes}), "m.json")
    model["ex#GetThing"].id = ATTACK_ID  # as if the loader had let it through
    files = render_plan(plan_generation(model, ["m.json"]))
    package = tmp_path / "hostile"
    for relative, content in files.items():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text(content)
    tree = ast.parse((package / "shapes.py").read_text())
    classes = sorted(node.name for node in tree.body if isinstance(node, ast.ClassDef))
    assert len(classes) == 2 and all(
        name.startswith("XImportOsSystemTouchPWNED") for name in classes
    ), classes
    calls = [
        node
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "__import__"
    ]
    assert calls == []
    assert audit_imports(tmp_path, ["hostile"]) == {"hostile": []}
    assert not (tmp_path / "PWNED").exists()
