"""Plain read positions: what the generator records from the output shape, and that
skipping the data-model check there never changes a match.

The property builds random output shapes (structures, lists, maps; strings,
numbers, booleans, timestamps, blobs, big numbers, documents), a Smithy model
holding them, random waiter paths over them, and outputs in botocore's form; a
definition with the positions the generator records must judge every output
exactly as the same definition without them.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable import Acceptor, AcceptorState, Comparator, OutputMatcher
from waitable import WaiterDefinition
from waitable.datamodel import to_jmespath
from waitable.matching import match_output
from waitable_codegen import generate
from waitable_codegen.jmespath import compile as compile_jmespath
from waitable_codegen.model import Model, load_text
from waitable_codegen.plan.plain_reads import (
    PlainShapes,
    plain_positions,
    plain_reads_argument,
)
from waitable_codegen.plan.trait import read_waiters

from .helpers import smithy_model, waiter_operation, write_model

Importer = Callable[[Path], Any]

SCALARS = {
    "string": "smithy.api#String",
    "integer": "smithy.api#Integer",
    "double": "smithy.api#Double",
    "boolean": "smithy.api#Boolean",
    "timestamp": "smithy.api#Timestamp",
    "blob": "smithy.api#Blob",
    "bigDecimal": "smithy.api#BigDecimal",
    "bigInteger": "smithy.api#BigInteger",
    "document": "smithy.api#Document",
}
CONVERTED = {"timestamp", "blob", "bigDecimal", "bigInteger", "document"}
MEMBERS = ("a", "b", "c")
MAP_KEYS = ("k1", "k2")


@dataclass
class Node:
    """A random shape: a scalar kind, or a list, map or structure of nodes."""

    kind: str
    inner: Node | None = None
    members: dict[str, Node] = field(default_factory=dict)


scalars = st.sampled_from(sorted(SCALARS)).map(Node)


def _containers(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    return st.one_of(
        children.map(lambda inner: Node("list", inner)),
        children.map(lambda inner: Node("map", inner)),
        st.dictionaries(st.sampled_from(MEMBERS), children, min_size=1).map(
            lambda members: Node("structure", members=members)
        ),
    )


nodes = st.recursive(scalars, _containers, max_leaves=8)
roots = st.dictionaries(st.sampled_from(MEMBERS), nodes, min_size=1).map(
    lambda members: Node("structure", members=members)
)


def model_shapes(root: Node) -> tuple[dict[str, Any], str]:
    """The JSON AST shapes for `root` (named S0, S1, ...) and the root's id."""
    shapes: dict[str, Any] = {}

    def add(node: Node) -> str:
        if node.kind in SCALARS:
            return SCALARS[node.kind]
        shape_id = f"smithy.example#S{len(shapes)}"
        shapes[shape_id] = {}
        if node.kind == "list":
            assert node.inner is not None
            body = {"type": "list", "member": {"target": add(node.inner)}}
        elif node.kind == "map":
            assert node.inner is not None
            body = {
                "type": "map",
                "key": {"target": "smithy.api#String"},
                "value": {"target": add(node.inner)},
            }
        else:
            body = {
                "type": "structure",
                "members": {
                    name: {"target": add(child)} for name, child in node.members.items()
                },
            }
        shapes[shape_id] = body
        return shape_id

    return shapes, add(root)


def values(node: Node) -> st.SearchStrategy[Any]:
    """An output for `node` as botocore's parser builds it (absent members left out)."""
    if node.kind == "string":
        return st.sampled_from(["on", "off", ""])
    if node.kind in ("integer", "bigInteger"):
        return st.integers(-3, 3)
    if node.kind == "double":
        return st.sampled_from([0.5, -1.0, 2.0])
    if node.kind == "boolean":
        return st.booleans()
    if node.kind == "timestamp":
        return st.integers(0, 2).map(
            lambda day: datetime.datetime(2024, 1, 1 + day, tzinfo=datetime.UTC)
        )
    if node.kind == "blob":
        return st.sampled_from([b"", b"\x00x", b"hi"])
    if node.kind == "bigDecimal":
        return st.sampled_from([Decimal("1.5"), Decimal("-2")])
    if node.kind == "document":
        return st.sampled_from([None, "on", 1, [1, "on"], {"a": "on"}])
    if node.kind == "list":
        assert node.inner is not None
        return st.lists(values(node.inner), max_size=3)
    if node.kind == "map":
        assert node.inner is not None
        return st.dictionaries(st.sampled_from(MAP_KEYS), values(node.inner))
    return st.fixed_dictionaries(
        {}, optional={name: values(child) for name, child in node.members.items()}
    )


@st.composite
def paths(draw: st.DrawFn, root: Node) -> str:
    """A path down `root`: fields, `[]`/`[0]` on lists, map keys; maybe wrapped in a
    function that reads the value whole."""
    parts: list[str] = []
    node = root
    while True:
        if node.kind == "structure" and draw(st.integers(0, 4)):
            name = draw(st.sampled_from(sorted(node.members)))
            parts.append(f".{name}" if parts else name)
            node = node.members[name]
        elif node.kind == "list" and parts and draw(st.booleans()):
            parts.append(draw(st.sampled_from(["[]", "[0]"])))
            assert node.inner is not None
            node = node.inner
        elif node.kind == "map" and parts and draw(st.booleans()):
            parts.append("." + draw(st.sampled_from(MAP_KEYS)))
            assert node.inner is not None
            node = node.inner
        else:
            break
    path = "".join(parts) or "@"
    wrapper = draw(st.sampled_from(["{}", "to_string({})", "length({})", "type({})"]))
    return wrapper.format(path)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Node, list[str], Any]:
    root = draw(roots)
    chosen = draw(st.lists(paths(root), min_size=1, max_size=3))
    return root, chosen, draw(values(root))


def waiter_trait(expressions: list[str], expected: list[str]) -> dict[str, Any]:
    states = ["success", "failure", "retry"]
    return {
        "acceptors": [
            {
                "state": states[index % 3],
                "matcher": {
                    "output": {
                        "path": path,
                        "expected": wanted,
                        "comparator": "stringEquals",
                    }
                },
            }
            for index, (path, wanted) in enumerate(zip(expressions, expected))
        ]
    }


def load(shapes: dict[str, Any]) -> Model:
    return load_text(json.dumps(smithy_model(shapes)), "m.json")


def recorded(
    root: Node, expressions: list[str], expected: list[str]
) -> tuple[tuple[str, ...], ...]:
    """The positions the generator records for these paths over `root`'s model."""
    shapes, output = model_shapes(root)
    shapes["smithy.example#Get"] = waiter_operation(
        {"Ready": waiter_trait(expressions, expected)}, input=None, output=output
    )
    model = load(shapes)
    (spec,) = read_waiters(model["smithy.example#Get"])
    return plain_positions(PlainShapes(model), model[output], spec.acceptors)


def definition(
    expressions: list[str],
    expected: list[str],
    plain: tuple[tuple[str, ...], ...] = (),
) -> WaiterDefinition:
    states = [AcceptorState.SUCCESS, AcceptorState.FAILURE, AcceptorState.RETRY]
    return WaiterDefinition(
        "Ready",
        "Get",
        tuple(
            Acceptor(
                states[index % 3],
                OutputMatcher(
                    path,
                    wanted,
                    Comparator.STRING_EQUALS,
                    search=compile_jmespath(path),
                ),
            )
            for index, (path, wanted) in enumerate(zip(expressions, expected))
        ),
        plain_reads=plain,
    )


def expected_strings(expressions: list[str], output: Any) -> list[str]:
    """What each path gives on the fully converted output, when a string (else "x"),
    so that a value left unconverted would fail to match."""
    converted = to_jmespath(output)
    found = []
    for path in expressions:
        try:
            value = compile_jmespath(path)(converted)
        except Exception:
            value = None
        found.append(value if isinstance(value, str) else "x")
    return found


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cases())
def test_the_recorded_plain_positions_never_change_a_match(
    case: tuple[Node, list[str], Any],
) -> None:
    root, expressions, output = case
    expected = expected_strings(expressions, output)
    plain = recorded(root, expressions, expected)
    checked = definition(expressions, expected)
    skipping = definition(expressions, expected, plain)
    for seen in (output, {**output, "ResponseMetadata": {"RequestId": "1"}}):
        assert match_output(skipping, seen, {}) == match_output(checked, seen, {})


def test_the_property_sees_a_position_wrongly_called_plain() -> None:
    """The property can fail: a timestamp position marked plain changes the match."""
    root = Node("structure", members={"a": Node("timestamp")})
    output = {"a": datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)}
    expressions = ["to_string(a)"]
    expected = expected_strings(expressions, output)
    assert expected == ["1704067200.0"]
    assert recorded(root, expressions, expected) == ()
    verdict = match_output(definition(expressions, expected), output, {})
    wrong = match_output(definition(expressions, expected, (("a",),)), output, {})
    assert verdict.acceptor_index == 0 and wrong.acceptor_index is None


def output_model(events: bool = False) -> dict[str, Any]:
    """GetThing's output: `Items`, a list of structures with a name (an enum), a
    timestamp, a blob, tags (a map) and a nested list of documents; a count; with
    `events`, an event stream (which generation itself refuses in an output)."""
    shapes: dict[str, Any] = {
        "smithy.example#Output": {
            "type": "structure",
            "members": {
                "Items": {"target": "smithy.example#Items"},
                "Count": {"target": "smithy.api#Integer"},
            },
        },
        "smithy.example#Items": {
            "type": "list",
            "member": {"target": "smithy.example#Item"},
        },
        "smithy.example#Item": {
            "type": "structure",
            "members": {
                "Name": {"target": "smithy.example#State"},
                "Created": {"target": "smithy.api#Timestamp"},
                "Data": {"target": "smithy.api#Blob"},
                "Tags": {"target": "smithy.example#Tags"},
                "Extra": {"target": "smithy.example#Docs"},
                "Next": {"target": "smithy.example#Item"},
            },
        },
        "smithy.example#State": {
            "type": "enum",
            "members": {
                "ON": {
                    "target": "smithy.api#Unit",
                    "traits": {"smithy.api#enumValue": "on"},
                }
            },
        },
        "smithy.example#Tags": {
            "type": "map",
            "key": {"target": "smithy.api#String"},
            "value": {"target": "smithy.api#String"},
        },
        "smithy.example#Docs": {
            "type": "list",
            "member": {"target": "smithy.api#Document"},
        },
    }
    if events:
        shapes["smithy.example#Output"]["members"]["Events"] = {
            "target": "smithy.example#Events"
        }
        shapes["smithy.example#Events"] = {
            "type": "union",
            "traits": {"smithy.api#streaming": {}},
            "members": {"Tick": {"target": "smithy.example#Tags"}},
        }
    return shapes


def positions_for(*expressions: str) -> tuple[tuple[str, ...], ...]:
    shapes = output_model(events=True)
    shapes["smithy.example#Get"] = waiter_operation(
        {"Ready": waiter_trait(list(expressions), ["x"] * len(expressions))},
        input=None,
        output="smithy.example#Output",
    )
    model = load(shapes)
    (spec,) = read_waiters(model["smithy.example#Get"])
    output = model["smithy.example#Output"]
    return plain_positions(PlainShapes(model), output, spec.acceptors)


def test_positions_are_where_paths_read_whole_values_that_the_model_keeps_plain() -> (
    None
):
    assert positions_for("Items[].Name") == (("Items", "Name"),)
    assert positions_for("Items[].Name", "Items[0].Created", "Count") == (
        ("Count",),
        ("Items", "Name"),
    )
    assert positions_for("Items[].Tags.owner", "length(Items[].Data)") == (
        ("Items", "Tags", "owner"),
    )
    # A whole structure is plain only if nothing reachable from it is converted:
    # `Next` recurses into Item, which holds a timestamp.
    assert positions_for("length(Items[].Tags)", "length(Items[].Next)") == (
        ("Items", "Tags"),
    )
    assert positions_for("Items[].Extra[]") == ()  # documents
    assert positions_for("Items[].Missing", "Nope") == ()  # not in the model
    assert positions_for("length(@)") == ()  # the root holds a timestamp somewhere
    assert positions_for("length(Events)", "Events.Tick.a") == ()  # an event stream


def test_the_argument_is_a_literal_of_the_keys_whatever_they_hold() -> None:
    hostile = 'k"\n)\nimport os  # \\'
    argument = plain_reads_argument((("Items", hostile), ("Count",)))
    assert argument is not None
    value = eval(
        argument.strip().removeprefix("plain_reads=").rstrip(",")
    )  # noqa: S307
    assert value == (("Items", hostile), ("Count",))
    assert plain_reads_argument(()) is None


def test_a_generated_definition_records_them_and_still_converts_a_timestamp(
    tmp_path: Path, import_package: Importer
) -> None:
    """A waited path that reads a timestamp gets epoch seconds; the plain one is skipped."""
    shapes = output_model()
    trait = {
        "acceptors": [
            {
                "state": "failure",
                "matcher": {
                    "output": {
                        "path": "to_string(Items[0].Created)",
                        "expected": "1704067200.0",
                        "comparator": "stringEquals",
                    }
                },
            },
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "Items[].Name",
                        "expected": "on",
                        "comparator": "allStringEquals",
                    }
                },
            },
        ]
    }
    shapes["smithy.example#GetThing"] = waiter_operation(
        {"Ready": trait}, input=None, output="smithy.example#Output"
    )
    model = write_model(tmp_path / "m.json", shapes)
    generate([model], tmp_path / "plain_pkg")
    source = (tmp_path / "plain_pkg" / "waiters.py").read_text()
    assert '    plain_reads=(("Items", "Name"),),\n' in source
    package = import_package(tmp_path / "plain_pkg")
    ready = package.ReadyWaiter.definition
    assert ready.plain_reads == (("Items", "Name"),)
    launched = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    output = {"Items": [{"Name": "on", "Created": launched}]}
    seen = ready.output_converter(output)
    assert seen["Items"][0]["Created"] == 1704067200.0
    verdict = match_output(ready, output, {})
    assert verdict.state is AcceptorState.FAILURE and verdict.acceptor_index == 0
    later = {"Items": [{"Name": "on", "Created": launched.replace(year=2025)}]}
    assert ready.output_converter(later) is not later  # converted, not skipped
    assert match_output(ready, later, {}).state is AcceptorState.SUCCESS


def test_a_hostile_map_key_in_a_path_reaches_the_definition_only_as_data(
    tmp_path: Path, import_package: Importer
) -> None:
    hostile = 'x"),)\nimport os; os.system("echo pwned")  # \\\u2028'
    path = "Items[].Tags." + json.dumps(hostile)
    matcher = {"path": path, "expected": "v", "comparator": "allStringEquals"}
    trait = {"acceptors": [{"state": "success", "matcher": {"output": matcher}}]}
    shapes = output_model()
    shapes["smithy.example#GetThing"] = waiter_operation(
        {"Ready": trait}, input=None, output="smithy.example#Output"
    )
    model = write_model(tmp_path / "m.json", shapes)
    generate([model], tmp_path / "hostile_pkg", allow_danger=True)
    package = import_package(tmp_path / "hostile_pkg")
    ready = package.ReadyWaiter.definition
    assert ready.plain_reads == (("Items", "Tags", hostile),)
    output = {"Items": [{"Tags": {hostile: "v"}}]}
    assert match_output(ready, output, {}).acceptor_index == 0
