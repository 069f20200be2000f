"""The cut made from JSON text (`model.reachable_text`) is the cut made from parsed
JSON, value for value, on every corpus and on generated documents; any text it
does not read is declined, so generation parses it with json and reports what it
reported before."""

from __future__ import annotations

import codecs
import json
import math
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import waitable_codegen
from waitable_codegen import api
from waitable_codegen.errors import GenerationError
from waitable_codegen.model.reachable import reachable_documents
from waitable_codegen.model.json_text import MAX_NESTING
from waitable_codegen.model.reachable_text import _Shape, reachable_texts
from waitable_codegen.model.shapes import SHAPE_TYPES, UNREAD_TRAITS

from .helpers import ERRORFILES, SPEC_EXAMPLES, corpus_files, smithy_model, thing_shapes
from .test_reachable import NS, generated, service_model, text_cut

CORPUS = [*corpus_files(), *sorted(ERRORFILES.glob("*.json")), SPEC_EXAMPLES]


def parsed_cut(datas: list[bytes]) -> list[dict[str, Any]] | None:
    """The cut as generation makes it from parsed JSON."""
    return reachable_documents([json.loads(data.decode("utf-8-sig")) for data in datas])


def test_the_corpora_are_not_empty() -> None:
    assert (
        len(CORPUS) > 80
    ), "the shared models, Smithy's error files, the spec examples"


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_every_corpus_file_is_cut_as_its_parsed_json_is(path: Path) -> None:
    data = path.read_bytes()
    assert text_cut([data]) == parsed_cut([data])


def test_the_aws_models_read_together_are_cut_as_their_parsed_json_is() -> None:
    datas = [path.read_bytes() for path in corpus_files()[:12]]
    assert text_cut(datas) == parsed_cut(datas)


def test_every_aws_model_takes_the_text_reader() -> None:
    """The reader is not only correct but used: no AWS model is declined."""
    declined = [
        path.name
        for path in corpus_files()
        if reachable_texts([path.read_bytes()]) is None
        and parsed_cut([path.read_bytes()]) is not None
    ]
    assert declined == []


FLOATS = st.floats(allow_nan=False, allow_infinity=False)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | FLOATS
    | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(
    traits=st.dictionaries(st.text(max_size=12), JSON_VALUES, max_size=4),
    left_out=JSON_VALUES,
    ensure_ascii=st.booleans(),
    indent=st.sampled_from([None, 0, 1, 4, "\t"]),
    bom=st.booleans(),
)
def test_generated_documents_are_cut_as_their_parsed_json_is(
    traits: dict[str, Any],
    left_out: Any,
    ensure_ascii: bool,
    indent: int | str | None,
    bom: bool,
) -> None:
    """Numbers (long integers, every float bit for bit), strings of any text
    (escaped or not), any layout: what generation keeps is what json gives."""
    document = service_model(
        **{f"{NS}#Unused": {"type": "string", "traits": {"x#y": left_out}}}
    )
    document["shapes"][f"{NS}#GetThingOutput"]["traits"] = traits
    text = json.dumps(document, ensure_ascii=ensure_ascii, indent=indent)
    data = (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8", "surrogatepass")
    by_json = parsed_cut([data]) if _utf8(data) else None
    by_text = text_cut([data])
    assert by_text is None or by_text == by_json
    assert _same_floats(by_text, by_json)
    if by_json is not None and not _has_lone_surrogate(text):
        assert by_text is not None, "plain text is read, not declined"


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _has_lone_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(char) <= 0xDFFF for char in text) or "\\ud" in text


def _same_floats(left: Any, right: Any) -> bool:
    """Equal, and every float the same bits (`==` takes 0.0 for -0.0)."""
    if left is None or right is None:
        return True
    if type(left) is float:
        return type(right) is float and math.copysign(1, left) == math.copysign(
            1, right
        )
    if type(left) is dict:
        return all(_same_floats(value, right[key]) for key, value in left.items())
    if type(left) is list:
        return all(map(_same_floats, left, right))
    return True


def _with(**extra: Any) -> bytes:
    return json.dumps(service_model(**extra)).encode()


def _replace(data: bytes, old: bytes, new: bytes) -> bytes:
    assert old in data
    return data.replace(old, new, 1)


UNUSED = {f"{NS}#Unused": {"type": "string", "traits": {"x#y": "MARK"}}}
DECLINED = {
    "NaN": _replace(_with(**UNUSED), b'"MARK"', b"NaN"),
    "Infinity": _replace(_with(**UNUSED), b'"MARK"', b"-Infinity"),
    "a float json reads as infinity in a kept shape": _replace(
        _with(), b'"version": "1"', b'"version": 1e400'
    ),
    "a lone surrogate": _replace(_with(**UNUSED), b"MARK", b"\\udc00"),
    "bytes that are not UTF-8": _replace(_with(**UNUSED), b"MARK", b"\xff"),
    "a key json does not read": _replace(_with(), b'"shapes"', b'"extra": 1, "shapes"'),
    "not an object": b"[1, 2]",
    "not JSON": b'{"smithy": "2.0", "shapes": {}',
    "a version the cut does not read": json.dumps(
        smithy_model(service_model()["shapes"], version="3.0")
    ).encode(),
    "a type that is not a string": _with(**{f"{NS}#T": {"type": 1}}),
    "a shape key the loader does not know": _with(
        **{f"{NS}#T": {"type": "string", "note": "x"}}
    ),
    "a type the loader does not know": _with(**{f"{NS}#T": {"type": "thing"}}),
    "an apply entry": _with(**{f"{NS}#T": {"type": "apply", "traits": {}}}),
    "mixins": _with(**{f"{NS}#T": {"type": "structure", "mixins": []}}),
    "traits that are not an object": _with(
        **{f"{NS}#T": {"type": "string", "traits": []}}
    ),
    "metadata that is not an object": _replace(
        _with(), b'"shapes"', b'"metadata": [], "shapes"'
    ),
    "an integer Python refuses in a kept shape": _replace(
        _with(), b'"version": "1"', b'"version": ' + b"9" * 5000
    ),
}


@pytest.mark.parametrize("data", DECLINED.values(), ids=DECLINED.keys())
def test_text_the_reader_does_not_read_is_declined(data: bytes) -> None:
    assert reachable_texts([data]) is None


READ = {
    "a byte order mark": codecs.BOM_UTF8 + _with(),
    "a kept shape nested deeper than the limit": _replace(
        _with(), b'"version": "1"', b'"version": ' + b"[" * 300 + b"]" * 300
    ),
    "a left-out shape nested deeper than the limit": _replace(
        _with(**UNUSED), b'"MARK"', b"[" * 500 + b"]" * 500
    ),
    "a left-out shape nested deeper than Python parses": _replace(
        _with(**UNUSED), b'"MARK"', b"[" * 100_000 + b"]" * 100_000
    ),
}
REORDERED = _replace(
    _with(),
    b'{"type": "service", "version": "1",',
    b'{"version": "0", "traits": {}, "version": "1", "type": "service",',
)
READ["a kept body's keys in another order, one of them twice"] = REORDERED
SAME_OUTCOME = {**DECLINED, **READ}


def test_the_outline_reads_the_loader_s_shape_types() -> None:
    """msgspec refuses any other type as it reads (`_Shape.type`): it reads the
    loader's `SHAPE_TYPES`, no more and no fewer."""
    outline = msgspec.json.Decoder(_Shape)
    for kind in sorted(SHAPE_TYPES):
        assert outline.decode(json.dumps({"type": kind})).type == kind
    for kind in ("bogus", "Structure", "apply", "", "member"):
        with pytest.raises(msgspec.ValidationError):
            outline.decode(json.dumps({"type": kind}))


def test_a_kept_body_is_read_whatever_its_key_order() -> None:
    """The reader rebuilds a kept body from its outline: every key json keeps
    (the last of a repeated one), whatever the order they are written in."""
    [cut] = text_cut([REORDERED]) or [{}]
    assert cut == parsed_cut([REORDERED])[0]  # type: ignore[index]
    assert cut["shapes"][f"{NS}#Things"]["version"] == "1"


@pytest.mark.parametrize("data", SAME_OUTCOME.values(), ids=SAME_OUTCOME.keys())
def test_generation_answers_as_the_json_way_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    """With the text reader or without it, generation answers alike: the same
    error, or the same package (declined text is parsed by json)."""
    (tmp_path / "m.json").write_bytes(data)
    with_reader = _outcome(tmp_path / "m.json", tmp_path / "a")
    monkeypatch.setattr(api, "reachable_texts", lambda datas: None)
    assert _outcome(tmp_path / "m.json", tmp_path / "b") == with_reader


def _outcome(model: Path, out: Path) -> str | dict[str, bytes]:
    try:
        waitable_codegen.generate(model, out)
    except GenerationError as exc:
        return str(exc)
    return {
        str(path.relative_to(out)): path.read_bytes()
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != ".generate-waiters.json"
    }


def test_an_integer_python_refuses_in_a_shape_left_out_is_not_read(
    tmp_path: Path,
) -> None:
    """Left-out shapes are checked as JSON but never converted, so (as their
    nesting) an integer too long for Python there does not stop generation."""
    data = _replace(_with(**UNUSED), b'"MARK"', b"9" * 5000)
    assert reachable_texts([data]) is not None
    (tmp_path / "m.json").write_bytes(data)
    assert _outcome(tmp_path / "m.json", tmp_path / "out") == generated(
        service_model(), tmp_path / "plain"
    )


def test_the_values_of_unread_traits_on_kept_shapes_are_not_converted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept service's endpoint rule set nested deeper than MAX_NESTING, and an
    integer too long for Python in its documentation, stop json's way but not the
    text reader's: those values are checked as JSON and never decoded."""
    document = service_model()
    deep: Any = "MARK"
    for _ in range(MAX_NESTING + 5):
        deep = [deep]
    document["shapes"][f"{NS}#Things"]["traits"] = {
        "smithy.rules#endpointRuleSet": deep,
        "smithy.api#documentation": "DOC",
    }
    data = _replace(json.dumps(document).encode(), b'"DOC"', b"9" * 5000)
    (tmp_path / "m.json").write_bytes(data)
    [cut] = reachable_texts([data]) or [{}]
    traits = cut["shapes"][f"{NS}#Things"]["traits"]
    assert bytes(traits["smithy.api#documentation"]) == b"9" * 5000
    assert _outcome(tmp_path / "m.json", tmp_path / "out") == generated(
        service_model(), tmp_path / "plain"
    )
    monkeypatch.setattr(api, "reachable_texts", lambda datas: None)
    assert "digits" in str(_outcome(tmp_path / "m.json", tmp_path / "json"))


SHADOWED = {
    "a repeated members key": (
        b'"members": {"status"',
        b'"members": MARK, "members": {"status"',
    ),
    "a repeated trait id": (
        b'"traits": {"smithy.waiters#waitable"',
        b'"traits": {"smithy.waiters#waitable": MARK, "smithy.waiters#waitable"',
    ),
    "a repeated metadata key": (
        b'"smithy": "2.0"',
        b'"metadata": MARK, "metadata": {}, "smithy": "2.0"',
    ),
    "a kept shape given twice": (
        b'"shapes": {',
        b'"shapes": {"smithy.example#GetThingOutput": {"type": "structure", "members": MARK}, ',
    ),
}


@pytest.mark.parametrize("old,new", SHADOWED.values(), ids=SHADOWED.keys())
def test_a_value_a_repeated_key_shadows_is_not_converted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: bytes, new: bytes
) -> None:
    """JSON gives a repeated key its last value, both ways. The text reader only
    checks the values it shadows as JSON (found by review, 2026-11-27), so an
    integer too long for Python there stops json's way but not generation: the
    package is the one json's way makes of the file without that value."""
    plain = json.dumps(smithy_model(thing_shapes())).encode()
    assert plain.count(old) == 1
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "m.json").write_bytes(plain)
    data = plain.replace(old, new).replace(b"MARK", b"9" * 5000)
    (tmp_path / "m.json").write_bytes(data)
    expected = _outcome(tmp_path / "plain" / "m.json", tmp_path / "a")
    assert isinstance(expected, dict) and expected
    assert _outcome(tmp_path / "m.json", tmp_path / "out") == expected
    monkeypatch.setattr(api, "reachable_texts", lambda datas: None)
    assert "digits" in str(_outcome(tmp_path / "m.json", tmp_path / "json"))


def test_no_generator_module_reads_an_unread_trait() -> None:
    """The text reader leaves those values raw: a module that came to read one
    would get `msgspec.Raw`, so each id is named only where the set is made."""
    package = Path(waitable_codegen.__file__).parent
    for trait_id in UNREAD_TRAITS:
        naming = [
            path.relative_to(package).as_posix()
            for path in sorted(package.rglob("*.py"))
            if trait_id in path.read_text(encoding="utf-8")
        ]
        assert naming == ["model/shapes.py"], trait_id


def test_a_package_from_the_text_reader_is_the_json_way_s_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Byte for byte, on a real model with many shapes left out."""
    model = next(path for path in corpus_files() if path.name.startswith("sagemaker-"))
    text_way = _outcome(model, tmp_path / "a")
    monkeypatch.setattr(api, "reachable_texts", lambda datas: None)
    assert _outcome(model, tmp_path / "b") == text_way
    assert isinstance(text_way, dict) and len(text_way) > 3


def test_the_shapes_of_a_kept_body_are_those_json_builds() -> None:
    """Not only equal: the same types (an integer stays an int, 1.0 a float)."""
    shapes = thing_shapes()
    shapes[f"{NS}#GetThingOutput"]["traits"] = {"x#y": [1, 1.0, -0, -0.0, 2**70]}
    [cut] = reachable_texts([json.dumps(smithy_model(shapes)).encode()]) or [{}]
    value = cut["shapes"][f"{NS}#GetThingOutput"]["traits"]["x#y"]
    assert [type(item) for item in value] == [int, float, int, float, int]
    assert math.copysign(1, value[3]) == -1


def test_a_waiter_trait_written_with_an_escape_is_found() -> None:
    """Text without the trait's name is declined unread, unless an escape could
    spell it: `smithy.waiters\\u0023waitable` is the same key to JSON."""
    data = _replace(
        _with(), b"smithy.waiters#waitable", b"smithy.waiters\\u0023waitable"
    )
    assert text_cut([data]) == parsed_cut([data]) is not None


def test_text_without_a_waiter_is_declined_before_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No waiter, no cut: json parses such a file once, not after msgspec too."""
    from waitable_codegen.model import reachable_text

    data = _replace(_with(), b"smithy.waiters#waitable", b"x#notAWaiter")
    monkeypatch.setattr(reachable_text, "_cut", None)  # would fail if called
    assert reachable_texts([data]) is None
