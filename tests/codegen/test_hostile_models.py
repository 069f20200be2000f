"""Hostile models (issue 16): each attack ends in one clear error naming the file and
the JSON location, or in a normal result; never a traceback, a hang or raw text."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import waitable_codegen
from waitable_codegen.errors import GenerationError, safe_text
from waitable_codegen.model import (
    ModelError,
    is_identifier,
    is_member_id,
    is_shape_id,
    load_model,
    load_text,
    read_capped,
)
from waitable_codegen.model import references, resolve
from waitable_codegen.validation import validate

from .helpers import SPEC_EXAMPLES, smithy_model, status_waiter, thing_shapes

NS = "smithy.example"
STRING = {"target": "smithy.api#String"}


def load_shapes(shapes: dict[str, Any], tmp_path: Path) -> Any:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(smithy_model(shapes)))
    return load_model([path])


def error_for(shapes: dict[str, Any], tmp_path: Path) -> str:
    """The one-line message loading `shapes` fails with."""
    with pytest.raises(ModelError) as caught:
        load_shapes(shapes, tmp_path)
    message = str(caught.value)
    assert "\n" not in message and message.isprintable()
    assert message.startswith(f"{tmp_path / 'm.json'}: ")
    return message


def with_thing(**extra: Any) -> dict[str, Any]:
    """The small GetThing model plus `extra` shapes (short names get the namespace)."""
    shapes = thing_shapes()
    shapes.update({k if "#" in k else f"{NS}#{k}": v for k, v in extra.items()})
    return shapes


# --- JSON text: nesting, numbers ------------------------------------------------


def test_json_nested_100000_deep_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(
        '{"smithy": "2.0", "metadata": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    )
    with pytest.raises(ModelError, match=r"deep\.json: JSON nested 100002 levels deep"):
        load_model([path])


def test_nesting_inside_strings_does_not_count(tmp_path: Path) -> None:
    text = (
        json.dumps(smithy_model({}))[:-1]
        + ', "metadata": {"x": "'
        + "[{" * 5000
        + '"}}'
    )
    assert load_text(text, "m.json").metadata["x"] == "[{" * 5000


def test_an_integer_of_thousands_of_digits_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"smithy": "2.0", "metadata": {"x": ' + "9" * 5000 + "}}")
    with pytest.raises(ModelError, match=r"big\.json: holds an integer of 5000 digits"):
        load_model([path])


def test_huge_and_non_finite_numbers_in_traits_are_handled(tmp_path: Path) -> None:
    """1e400 reads as infinity, as Python reads it; the sample builder copes with it
    and with an integer bound too large for a float."""
    shapes = with_thing(
        Text={"type": "string", "traits": {"smithy.api#length": {"min": 10**4000}}},
    )
    shapes[f"{NS}#GetThingOutput"]["members"]["text"] = {"target": f"{NS}#Text"}
    text = json.dumps(smithy_model(shapes)).replace(str(10**4000), "-1e400")
    assert "-1e400" in text
    model = load_text(json.dumps(smithy_model(shapes)), "m.json")
    assert all(event.severity.name != "ERROR" for event in validate(model))
    model = load_text(text, "m.json")
    assert all(event.severity.name != "ERROR" for event in validate(model))


# --- mixins ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mixins", "found"), [(None, "null"), (5, "a number"), ("ns#A", "a string")]
)
def test_mixins_that_are_not_an_array_are_a_clear_error(
    tmp_path: Path, mixins: Any, found: str
) -> None:
    message = error_for(
        with_thing(A={"type": "structure", "members": {}, "mixins": mixins}), tmp_path
    )
    assert (
        f'shapes["{NS}#A"].mixins: expected an array of shape references, found {found}'
        in message
    )


def mixin(index: int, mixins: list[int], members: int = 1) -> dict[str, Any]:
    return {
        "type": "structure",
        "members": {f"m{index}_{k}": STRING for k in range(members)},
        "mixins": [{"target": f"{NS}#M{i}"} for i in mixins],
        "traits": {"smithy.api#mixin": {}},
    }


def test_a_long_mixin_chain_is_a_clear_error_without_recursion(tmp_path: Path) -> None:
    chain = {f"M{i}": mixin(i, [i + 1]) for i in range(5000)}
    chain["M5000"] = mixin(5000, [])
    message = error_for(with_thing(**chain), tmp_path)
    assert (
        f"a chain of more than {resolve.MAX_MIXIN_DEPTH} mixins starts at {NS}#M0"
        in message
    )


def test_a_chain_within_the_limit_flattens_in_order(tmp_path: Path) -> None:
    depth = resolve.MAX_MIXIN_DEPTH - 1
    chain = {f"M{i}": mixin(i, [i + 1]) for i in range(depth)}
    chain[f"M{depth}"] = mixin(depth, [])
    model = load_shapes(with_thing(**chain), tmp_path)
    assert list(model[f"{NS}#M0"].members) == [
        f"m{i}_0" for i in reversed(range(depth + 1))
    ]


def test_many_mixins_flatten_once_each(tmp_path: Path) -> None:
    """A shape with 3000 mixins, and 3000 shapes sharing one mixin: linear work."""
    shapes = {f"M{i}": mixin(i, []) for i in range(3000)}
    shapes["Wide"] = {
        "type": "structure",
        "members": {},
        "mixins": [{"target": f"{NS}#M{i}"} for i in range(3000)] * 2,
    }
    for i in range(3000):
        shapes[f"User{i}"] = {
            "type": "structure",
            "members": {},
            "mixins": [{"target": f"{NS}#M0"}],
        }
    model = load_shapes(with_thing(**shapes), tmp_path)
    assert len(model[f"{NS}#Wide"].members) == 3000
    assert list(model[f"{NS}#User7"].members) == ["m0_0"]


def test_flattening_past_the_member_budget_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resolve, "MAX_FLATTENED_MEMBERS", 50)
    shapes = {f"M{i}": mixin(i, [], members=10) for i in range(10)}
    shapes["Wide"] = {
        "type": "structure",
        "members": {},
        "mixins": [{"target": f"{NS}#M{i}"} for i in range(10)],
    }
    assert "flattening mixins makes more than 50 members" in error_for(
        with_thing(**shapes), tmp_path
    )


def test_a_mixin_cycle_names_the_cycle(tmp_path: Path) -> None:
    message = error_for(
        with_thing(M0=mixin(0, [1]), M1=mixin(1, [2]), M2=mixin(2, [0])), tmp_path
    )
    assert f"mixins form a cycle ({NS}#M0 -> {NS}#M1 -> {NS}#M2 -> {NS}#M0)" in message
    assert "Smithy forbids mixin cycles" in message
    assert f"{NS}#M0 -> {NS}#M0" in error_for(with_thing(M0=mixin(0, [0])), tmp_path)


@pytest.mark.parametrize(
    ("trait", "location", "problem"),
    [
        ("x", '.traits["smithy.api#mixin"]', "expected an object, found a string"),
        (
            {"localTraits": 5},
            '.traits["smithy.api#mixin"].localTraits',
            "expected an array",
        ),
        (
            {"localTraits": [None]},
            '.traits["smithy.api#mixin"].localTraits[0]',
            "expected a shape id string, found null",
        ),
        (
            {"localTraits": ["not an id"]},
            '.traits["smithy.api#mixin"].localTraits[0]',
            "shape id 'not an id' is not valid",
        ),
    ],
)
def test_bad_local_traits_are_a_clear_error(
    tmp_path: Path, trait: Any, location: str, problem: str
) -> None:
    base = {"type": "structure", "members": {}, "traits": {"smithy.api#mixin": trait}}
    user = {"type": "structure", "members": {}, "mixins": [{"target": f"{NS}#Base"}]}
    message = error_for(with_thing(Base=base, User=user), tmp_path)
    assert f'shapes["{NS}#Base"]{location}: {problem}' in message


def test_mixins_of_another_type_or_with_clashing_members_are_errors(
    tmp_path: Path,
) -> None:
    shapes = with_thing(
        L={"type": "list", "member": STRING, "traits": {"smithy.api#mixin": {}}},
        S={"type": "structure", "members": {}, "mixins": [{"target": f"{NS}#L"}]},
    )
    assert "a mixin must have the type of the shape that uses it" in error_for(
        shapes, tmp_path
    )
    shapes = with_thing(
        A={
            "type": "structure",
            "members": {"a": STRING},
            "traits": {"smithy.api#mixin": {}},
        },
        S={
            "type": "structure",
            "members": {"a": {"target": "smithy.api#Integer"}},
            "mixins": [{"target": f"{NS}#A"}],
        },
    )
    message = error_for(shapes, tmp_path)
    assert (
        f'shapes["{NS}#S"].members.a: member {NS}#S$a targets both smithy.api#String and smithy.api#Integer'
        in message
    )


# --- references of the wrong kind, recursion -------------------------------------


@pytest.mark.parametrize(
    ("relationship", "target", "found"),
    [
        ("input", "smithy.api#String", "a string"),
        ("input", f"{NS}#GetThing", "an operation"),
        ("output", "smithy.api#Integer", "an integer"),
    ],
)
def test_an_operation_input_must_be_a_structure(
    tmp_path: Path, relationship: str, target: str, found: str
) -> None:
    shapes = with_thing()
    shapes[f"{NS}#GetThing"][relationship] = {"target": target}
    message = error_for(shapes, tmp_path)
    assert (
        f'shapes["{NS}#GetThing"].{relationship}.target: the {relationship} of operation '
        f"{NS}#GetThing must be a structure shape, but {target} is {found}"
    ) in message


def test_members_cannot_target_operations_services_or_mixins(tmp_path: Path) -> None:
    shapes = with_thing(L={"type": "list", "member": {"target": f"{NS}#GetThing"}})
    assert f"targets the operation {NS}#GetThing" in error_for(shapes, tmp_path)
    shapes = with_thing(
        A={"type": "structure", "members": {}, "traits": {"smithy.api#mixin": {}}},
        L={"type": "list", "member": {"target": f"{NS}#A"}},
    )
    assert (
        f'shapes["{NS}#L"].member.target: member {NS}#L$member targets a mixin'
        in error_for(shapes, tmp_path)
    )


def test_a_list_whose_member_is_itself_is_a_clear_error(tmp_path: Path) -> None:
    message = error_for(
        with_thing(L={"type": "list", "member": {"target": f"{NS}#L"}}), tmp_path
    )
    assert f"{NS}#L -> {NS}#L contains itself with no structure or union" in message
    mutual = with_thing(
        L={"type": "list", "member": {"target": f"{NS}#M"}},
        M={"type": "map", "key": STRING, "value": {"target": f"{NS}#L"}},
    )
    assert "contains itself" in error_for(mutual, tmp_path)


def test_recursion_through_a_structure_is_legal_and_generates(tmp_path: Path) -> None:
    shapes = with_thing(
        L={"type": "list", "member": {"target": f"{NS}#Node"}},
        Node={
            "type": "structure",
            "members": {
                "children": {"target": f"{NS}#L"},
                "self": {"target": f"{NS}#Node"},
            },
        },
    )
    shapes[f"{NS}#GetThingOutput"]["members"]["tree"] = {"target": f"{NS}#Node"}
    model = load_shapes(shapes, tmp_path)
    assert f"{NS}#L" in model.closure(f"{NS}#GetThing")
    result = waitable_codegen.generate(tmp_path / "m.json", tmp_path / "out")
    assert result.waiters == 1


def test_lists_nested_past_the_limit_are_a_clear_error(tmp_path: Path) -> None:
    depth = references.MAX_COLLECTION_NESTING + 1
    lists = {
        f"L{i}": {"type": "list", "member": {"target": f"{NS}#L{i + 1}"}}
        for i in range(depth)
    }
    lists[f"L{depth}"] = {"type": "string"}
    message = error_for(with_thing(**lists), tmp_path)
    assert (
        f"nests lists and maps more than {references.MAX_COLLECTION_NESTING} deep"
        in message
    )


def test_a_chain_of_3000_structures_validates_and_generates(tmp_path: Path) -> None:
    chain = {
        f"S{i}": {
            "type": "structure",
            "members": {"next": {"target": f"{NS}#S{i + 1}"}},
        }
        for i in range(3000)
    }
    chain["S3000"] = {"type": "string"}
    shapes = with_thing(**chain)
    shapes[f"{NS}#GetThingOutput"]["members"]["first"] = {"target": f"{NS}#S0"}
    model = load_shapes(shapes, tmp_path)
    assert not [e for e in validate(model) if e.severity.name == "ERROR"]
    assert waitable_codegen.generate(tmp_path / "m.json", tmp_path / "out").waiters == 1


# --- shape ids and names ---------------------------------------------------------


@pytest.mark.parametrize(
    "bad_id",
    [
        "ex#Get-Thing",
        'ex#X(__import__("os").system("touch PWNED")or object):#pppppp',
        "ex#1Thing",
        "ex#_",
        "#Thing",
        "ex.#Thing",
        "ex#Thing\n",
        "ex#Thïng",
    ],
)
def test_a_shape_key_off_the_grammar_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad_id: str
) -> None:
    message = error_for(
        with_thing(**{bad_id: {"type": "structure", "members": {}}}), tmp_path
    )
    assert f"shapes[{safe_text(json.dumps(bad_id), 80)}]: shape id " in message
    assert "is not valid Smithy" in message
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GenerationError):
        waitable_codegen.generate(tmp_path / "m.json", tmp_path / "out")
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "out").exists()


def op_with(**changes: Any) -> dict[str, Any]:
    shapes = with_thing()
    shapes[f"{NS}#GetThing"].update(changes)
    return shapes


OP = f'shapes["{NS}#GetThing"]'


@pytest.mark.parametrize(
    ("shapes", "location"),
    [
        (op_with(input={"target": "bad id"}), f"{OP}.input.target"),
        (
            op_with(errors=[{"target": f"{NS}#Oops"}, {"target": 7}]),
            f"{OP}.errors[1].target",
        ),
        (op_with(traits={"not a trait": {}}), f'{OP}.traits["not a trait"]'),
        (op_with(mixins=[{"target": "x#"}]), f"{OP}.mixins[0].target"),
        (op_with(input="smithy.example#GetThingInput"), f"{OP}.input"),
        (
            with_thing(S={"type": "structure", "members": {"bad-name": STRING}}),
            f'shapes["{NS}#S"].members["bad-name"]',
        ),
        (
            with_thing(
                S={
                    "type": "structure",
                    "members": {"a": {"target": "a#b", "traits": {"x": 1}}},
                }
            ),
            f'shapes["{NS}#S"].members.a.traits.x',
        ),
        (with_thing(M={"type": "map", "key": STRING}), f'shapes["{NS}#M"].value'),
        (
            with_thing(**{f"{NS}#S$a": {"type": "structure", "members": {}}}),
            f'shapes["{NS}#S$a"]',
        ),
        (
            with_thing(**{"ns#X$a$b": {"type": "apply", "traits": {}}}),
            'shapes["ns#X$a$b"]',
        ),
        (
            with_thing(**{"ns#X": {"type": "apply", "traits": {"bad": 1}}}),
            'shapes["ns#X"].traits.bad',
        ),
        (
            with_thing(
                Svc={
                    "type": "service",
                    "version": "1",
                    "operations": [{"target": "ns#Op!"}],
                }
            ),
            f'shapes["{NS}#Svc"].operations[0].target',
        ),
        (
            with_thing(
                Svc={"type": "service", "version": "1", "rename": {"bad": "Name"}}
            ),
            f'shapes["{NS}#Svc"].rename.bad',
        ),
        (
            with_thing(R={"type": "resource", "identifiers": {"id": {"target": "x"}}}),
            f'shapes["{NS}#R"].identifiers.id.target',
        ),
        (
            with_thing(Svc={"type": "service", "version": 2}),
            f'shapes["{NS}#Svc"].version',
        ),
        (with_thing(S={"type": 5}), f'shapes["{NS}#S"].type'),
        (with_thing(S=[]), f'shapes["{NS}#S"]'),
    ],
)
def test_every_place_an_id_or_name_enters_is_checked(
    tmp_path: Path, shapes: dict[str, Any], location: str
) -> None:
    assert f": {location}: " in error_for(shapes, tmp_path)


@pytest.mark.parametrize(
    ("rename", "found"),
    [
        ({f"{NS}#GetThingInput": 5}, "found 5"),
        ({f"{NS}#GetThingInput": "Not-Ok"}, "rename 'Not-Ok'"),
    ],
)
def test_a_rename_must_map_ids_to_identifiers(
    tmp_path: Path, rename: Any, found: str
) -> None:
    shapes = with_thing(
        Svc={
            "type": "service",
            "version": "1",
            "operations": [{"target": f"{NS}#GetThing"}],
            "rename": rename,
        }
    )
    assert found in error_for(shapes, tmp_path)
    shapes[f"{NS}#Svc"]["rename"] = [1]
    assert (
        "rename: expected an object of shape id to new name, found an array"
        in error_for(shapes, tmp_path)
    )


def test_a_name_of_100000_capitals_loads_and_validates(tmp_path: Path) -> None:
    name = f"{NS}#{'A' * 100_000}"
    shapes = with_thing(
        **{name: {"type": "structure", "members": {"b" * 100_000: STRING}}}
    )
    shapes[f"{NS}#GetThingOutput"]["members"]["big"] = {"target": name}
    model = load_shapes(shapes, tmp_path)
    assert name in model.closure(f"{NS}#GetThing")
    assert not [e for e in validate(model) if e.severity.name == "ERROR"]
    bad = with_thing(**{name + "-": {"type": "string"}})
    message = error_for(bad, tmp_path)
    assert len(message) < 1000 and "... (100018 characters)" in message


# --- the grammar, against a reference reading of Smithy's ABNF ----------------------


def abnf_identifier(text: str) -> bool:
    """Smithy's Identifier, read character by character from the ABNF."""
    alpha = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    digit = set("0123456789")
    index = 0
    while index < len(text) and text[index] == "_":
        index += 1
    if index == len(text):
        return False
    if index == 0 and text[0] not in alpha:
        return False
    if index > 0 and text[index] not in alpha | digit:
        return False
    return all(c in alpha | digit | {"_"} for c in text[index:])


def abnf_shape_id(text: str, member: bool) -> bool:
    namespace, hash_sign, rest = text.partition("#")
    if not hash_sign or not all(abnf_identifier(p) for p in namespace.split(".")):
        return False
    name, dollar, member_name = rest.partition("$")
    if dollar and not (member and abnf_identifier(member_name)):
        return False
    return abnf_identifier(name)


ID_TEXT = st.text(alphabet=st.sampled_from("aZ_09.#$-é \n"), max_size=12)


@settings(max_examples=400, deadline=None)
@given(ID_TEXT)
def test_the_grammar_matches_smithys_abnf(text: str) -> None:
    assert is_identifier(text) == abnf_identifier(text)
    assert is_shape_id(text) == abnf_shape_id(text, member=False)
    assert is_member_id(text) == abnf_shape_id(text, member=True)


# --- diagnostics are escaped ------------------------------------------------------


HOSTILE_TEXT = "a\x1b[2J\x1b]0;pwned\x07\nb\u202ec\r\x00\ud800"


@settings(max_examples=300, deadline=None)
@given(st.text(), st.integers(min_value=1, max_value=200))
def test_safe_text_is_printable_short_and_stable(text: str, limit: int) -> None:
    shown = safe_text(text, limit)
    assert shown.isprintable()
    assert safe_text(shown, 10**6) == shown
    if len(text) <= limit and text.isprintable():
        assert shown == text
    assert len(shown) <= 10 * limit + 40  # each kept character escapes to <= 10


def test_safe_text_shows_escapes_and_cuts_long_values() -> None:
    assert (
        safe_text(HOSTILE_TEXT)
        == "a\\x1b[2J\\x1b]0;pwned\\x07\\x0ab\\u202ec\\x0d\\x00\\ud800"
    )
    assert safe_text("A" * 500, 10) == "AAAAAAAAAA... (500 characters)"
    assert safe_text(10**5000) == "an integer of about 5000 digits"
    assert safe_text([[1]]) == "an array of 1 items"


def run_cli(
    *args: str, stdin: Any = subprocess.DEVNULL
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "waitable_codegen", *args],
        stdin=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "SMITHY_PLUGIN_DIR": ""},
    )


def assert_clean_failure(done: subprocess.CompletedProcess[bytes]) -> str:
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1, err
    assert "Traceback" not in err and done.stdout == b""
    for line in err.splitlines():
        assert line.isprintable(), line
    assert "\x1b" not in err and "\u202e" not in err and "\r" not in err
    return err


def test_model_text_in_diagnostics_is_escaped(tmp_path: Path) -> None:
    shapes = with_thing()
    shapes[f"{NS}#GetThing"]["output"] = {"target": f"{NS}#{HOSTILE_TEXT}"}
    model = tmp_path / "m.json"
    model.write_text(json.dumps(smithy_model(shapes)))
    err = assert_clean_failure(run_cli(str(model), "-o", str(tmp_path / "out")))
    assert len(err.splitlines()) == 1
    assert "\\x1b[2J" in err and "\\u202e" in err


def test_validation_events_from_model_text_are_escaped(tmp_path: Path) -> None:
    """A waiter name and a JMESPath expression are reported by validation: the CLI
    prints them escaped too."""
    shapes = thing_shapes(**{f"Bad{HOSTILE_TEXT}": status_waiter()})
    waiter = shapes[f"{NS}#GetThing"]["traits"]["smithy.waiters#waitable"]
    waiter[f"Bad{HOSTILE_TEXT}"]["acceptors"][0]["matcher"]["output"][
        "path"
    ] = f"[{HOSTILE_TEXT}"
    model = tmp_path / "m.json"
    model.write_text(json.dumps(smithy_model(shapes)))
    err = assert_clean_failure(run_cli(str(model), "-o", str(tmp_path / "out")))
    assert "[ERROR]" in err and "\\x1b" in err


def test_a_model_file_name_with_control_characters_is_escaped(tmp_path: Path) -> None:
    model = tmp_path / "m\x1b[31m\n.json"
    model.write_text("{oops")
    err = assert_clean_failure(run_cli(str(model), "-o", str(tmp_path / "out")))
    assert "m\\x1b[31m\\x0a.json:1:2: not valid JSON" in err


# --- what a model path may be ----------------------------------------------------


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)
    with pytest.raises(
        ModelError, match=r"model\.json: is a FIFO \(named pipe\), not a regular file"
    ):
        load_model([fifo])
    err = assert_clean_failure(run_cli(str(fifo), "-o", str(tmp_path / "out")))
    assert "is a FIFO" in err


def test_a_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"/dev/zero: is a device, not a regular file"):
        load_model(["/dev/zero"])
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(ModelError, match=r"zero\.json: is a device"):
        load_model([tmp_path])


def test_a_directory_with_odd_entries_is_refused_at_the_first(tmp_path: Path) -> None:
    (tmp_path / "a.json").mkdir()
    with pytest.raises(
        ModelError, match=r"a\.json: is a directory, expected a JSON AST file"
    ):
        load_model([tmp_path])
    (tmp_path / "a.json").rmdir()
    (tmp_path / "b.json").symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(ModelError, match=r"b\.json: no such file"):
        load_model([tmp_path])
    (tmp_path / "b.json").unlink()
    (tmp_path / "c.json").symlink_to(tmp_path / "c.json")
    with pytest.raises(
        ModelError,
        match=r"c\.json: cannot read model file \(Too many levels of symbolic links\)",
    ):
        load_model([tmp_path])


def test_standard_input_is_read_up_to_a_cap(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as endless:
        with pytest.raises(ModelError, match=r"<stdin>: larger than 0 MiB"):
            read_capped(endless, "<stdin>", limit=1000)
        done = run_cli("-", "-o", str(tmp_path / "out"), stdin=endless)
    err = assert_clean_failure(done)
    assert (
        err
        == "generate-waiters: error: <stdin>: larger than 64 MiB; a Smithy model is never this large: check that this is the right file\n"
    )


@pytest.mark.parametrize("first", [1, 999, 1000, 1001, 5000])
def test_a_first_read_of_any_size_keeps_the_cap_and_every_byte(first: int) -> None:
    """A file is read with one read of its size plus one (no chunks to join); a
    first read that is too small (the file grew) or larger than the cap changes
    neither what is read nor the cap."""
    data = bytes(range(256)) * 4  # 1024 bytes
    with pytest.raises(ModelError, match=r"m\.json: larger than 0 MiB"):
        read_capped(io.BytesIO(data), "m.json", limit=1000, first=first)
    assert read_capped(io.BytesIO(data[:1000]), "m.json", limit=1000, first=first) == (
        data[:1000]
    )
    assert read_capped(io.BytesIO(data), "m.json", limit=2000, first=first) == data


def test_out_dir_that_is_the_models_own_directory_leaves_the_model_alone(
    tmp_path: Path,
) -> None:
    model = tmp_path / "model.json"
    model.write_bytes(SPEC_EXAMPLES.read_bytes())
    for given_model in (model, tmp_path):
        try:
            waitable_codegen.generate(given_model, tmp_path)
        except GenerationError as exc:
            assert "\n" not in str(exc)
        assert model.read_bytes() == SPEC_EXAMPLES.read_bytes()
    err = assert_clean_failure(run_cli(str(tmp_path), "-o", str(tmp_path)))
    assert len(err.splitlines()) == 1
    assert model.read_bytes() == SPEC_EXAMPLES.read_bytes()
