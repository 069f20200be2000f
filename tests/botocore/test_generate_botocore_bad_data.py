"""`generate-waiters --botocore` on malformed waiter data (custom data under
`AWS_DATA_PATH`, which botocore reads first): one line naming the service, the
waiter, the file and what to do, exit status 1, nothing written (found by review
s24-boto).

Before, a waiter missing a key, a waiters file that is not JSON and the like ended
in "internal error ... this is a bug"; a path that does not parse, or a delay past
the runtime's 100 years, gave a package that raised at import; a `maxAttempts` the
runtime refuses was written as is; and errors read "fix the smithy.waiters#waitable
trait in the model", which botocore data has none of.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from waitable_codegen.cli import main

SERVICE = {
    "version": "2.0",
    "metadata": {
        "apiVersion": "2020-01-01",
        "protocol": "json",
        "serviceId": "My Service",
        "endpointPrefix": "myservice",
        "jsonVersion": "1.1",
        "targetPrefix": "My",
        "signatureVersion": "v4",
        "uid": "myservice-2020-01-01",
    },
    "operations": {
        "DescribeThing": {
            "name": "DescribeThing",
            "http": {"method": "POST", "requestUri": "/"},
            "input": {"shape": "DescribeThingInput"},
            "output": {"shape": "DescribeThingOutput"},
        }
    },
    "shapes": {
        "DescribeThingInput": {
            "type": "structure",
            "members": {"ThingId": {"shape": "String"}},
        },
        "DescribeThingOutput": {
            "type": "structure",
            "members": {"State": {"shape": "String"}},
        },
        "String": {"type": "string"},
    },
}
READY = {
    "operation": "DescribeThing",
    "delay": 5,
    "maxAttempts": 10,
    "acceptors": [
        {"state": "success", "matcher": "path", "argument": "State", "expected": "ok"}
    ],
}


def _data(root: Path, service: str, waiters_text: str) -> Path:
    """`service` laid out as botocore's data directory is; the waiters file's path."""
    folder = root / service / "2020-01-01"
    folder.mkdir(parents=True)
    (folder / "service-2.json").write_text(json.dumps(SERVICE))
    path = folder / "waiters-2.json"
    path.write_text(waiters_text)
    return path


def _waiters(**waiters: Any) -> str:
    return json.dumps({"version": 2, "waiters": waiters})


def _run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, service: str = "myservice"
) -> tuple[int, str, Path]:
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path / "data"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["--botocore", service, "-o", str(out)])
    return result.exit_code, result.output, out


def _without(key: str) -> dict[str, Any]:
    return {k: v for k, v in READY.items() if k != key}


def _acceptor(**acceptor: Any) -> dict[str, Any]:
    return {**READY, "acceptors": [{"state": "success", **acceptor}]}


@pytest.mark.parametrize(
    "waiter, words",
    [
        (_without("operation"), '"operation" is not a string'),
        (_without("delay"), "misses 'delay'"),
        (_without("maxAttempts"), "misses 'maxAttempts'"),
        (_without("acceptors"), "misses 'acceptors'"),
        (5, "the waiter is not a JSON object"),
        ({**READY, "acceptors": "x"}, '"acceptors" is not a list of JSON objects'),
        ({**READY, "acceptors": [7]}, '"acceptors" is not a list of JSON objects'),
        ({**READY, "operation": "Nope"}, "polls operation Nope, which the service"),
        # The package written before raised at import:
        (_acceptor(matcher="path", argument="State[", expected="ok"), "JMESPath"),
        ({**READY, "delay": 10**30}, "min_delay must be a positive, finite"),
        # Written as is before, though `waitable wait` refuses it:
        ({**READY, "maxAttempts": 2**60}, "maxAttempts must be an integer from 1"),
        ({**READY, "maxAttempts": 10**400}, "maxAttempts must be an integer from 1"),
        ({**READY, "delay": 0.5}, "delay 0.5, but a generated waiter needs a whole"),
        (_acceptor(matcher="newKind", expected=1), "unknown matcher 'newKind'"),
    ],
)
def test_a_malformed_waiter_is_named_with_its_file_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, waiter: Any, words: str
) -> None:
    path = _data(tmp_path / "data", "myservice", _waiters(Bad=waiter))
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1, output
    assert f"botocore waiter myservice.Bad ({path}): " in output
    assert words in output
    assert "fix or remove it there (custom data under AWS_DATA_PATH" in output
    assert "internal error" not in output and "smithy.waiters" not in output
    assert not out.exists()


def test_a_waiter_name_no_class_can_take_is_named_as_botocore_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _data(tmp_path / "data", "myservice", _waiters(thingReady=READY))
    status, output, _ = _run(tmp_path, monkeypatch)
    assert status == 1
    assert "botocore waiter myservice.thingReady" in output
    assert "must be UpperCamelCase" in output and "smithy.waiters" not in output


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not JSON (Expecting property name"),
        ("", "not JSON (Expecting value"),
        ("[1, 2]", "not a JSON object"),
        ('{"version": 2, "waiters": [1]}', '"waiters" is not an object'),
        (
            '{"version": 3, "waiters": {}}',
            "version 3, and botocore runs only version 2",
        ),
    ],
)
def test_a_waiters_file_botocore_cannot_run_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, words: str
) -> None:
    path = _data(tmp_path / "data", "myservice", text)
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1, output
    assert f"botocore myservice ({path}): {words}" in output
    assert "internal error" not in output and not out.exists()


def test_a_broken_file_of_another_service_does_not_stop_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _data(tmp_path / "data", "myservice", _waiters(ThingReady=READY))
    _data(tmp_path / "data", "broken", "{not json")
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 0, output
    assert (out / "waiters.py").is_file()
    status, output, _ = _run(tmp_path, monkeypatch, "all")
    assert status == 1 and "botocore broken (" in output


@pytest.mark.parametrize("other", ["my_svc", "my.svc"])
def test_two_services_of_one_namespace_are_refused_not_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, other: str
) -> None:
    """`my-svc` and `my_svc` both became namespace `...my_svc`: one service's shapes
    replaced the other's and the run wrote one package of 1 waiter, exit 0."""
    for service in ("my-svc", other):
        _data(tmp_path / "data", service, _waiters(ThingReady=READY))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path / "data"))
    out = tmp_path / "out"
    args = ["--botocore", "my-svc", "--botocore", other, "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"--botocore my-svc and --botocore {other} would both be" in result.output
    assert not out.exists()


def test_a_model_error_names_the_botocore_source_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's json reads NaN, which the Smithy document then refuses: the message
    said "botocore X data: myservice: botocore X data: myservice: holds NaN"."""
    nan = _acceptor(matcher="path", argument="State", expected=float("nan"))
    _data(tmp_path / "data", "myservice", _waiters(ThingReady=nan))
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1 and "holds NaN" in output
    assert output.count("data: myservice:") == 1, output
    assert not out.exists()


def _service_with(change: Any) -> str:
    service = json.loads(json.dumps(SERVICE))
    change(service)
    return json.dumps(service)


@pytest.mark.parametrize(
    "service_text, words",
    [
        ("{not json", "not JSON (Expecting property name"),
        ("[]", "not a JSON object"),
        (
            _service_with(lambda s: s["shapes"].pop("String")),
            "shape 'String' is referenced but not defined",
        ),
        (
            _service_with(lambda s: s["shapes"].update(String={"type": "weird"})),
            "shape 'String' has type 'weird', which generate-waiters does not know",
        ),
        (
            _service_with(
                lambda s: s["shapes"].update(String={"type": "list", "member": 1})
            ),
            "shape 'String' is malformed",
        ),
        (
            _service_with(
                lambda s: s["operations"]["DescribeThing"].update(errors=[{}])
            ),
            "operation DescribeThing is malformed",
        ),
        (_service_with(lambda s: s.update(operations=[])), '"operations" is not'),
    ],
)
def test_a_malformed_service_model_is_named_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, service_text: str, words: str
) -> None:
    """A service-2.json under AWS_DATA_PATH that botocore's loader reads but the
    converter cannot: it was "internal error" (KeyError and others), or for a shape
    type it does not know a usage error (exit 2)."""
    _data(tmp_path / "data", "myservice", _waiters(ThingReady=READY))
    folder = tmp_path / "data" / "myservice" / "2020-01-01"
    (folder / "service-2.json").write_text(service_text)
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1, output
    assert "botocore myservice (its service-2.json): " in output
    assert words in output and "internal error" not in output
    assert not out.exists()


@pytest.mark.parametrize("description", [5, ["x"], "   ", True])
def test_a_description_that_is_no_text_is_no_documentation_in_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, description: Any
) -> None:
    """The runtime kept any `description` as the definition's documentation (a
    number as a class's `__doc__`), the generator only non-blank text: the same
    waiter gave two different definitions."""
    import dataclasses
    import importlib
    import sys

    import botocore.session

    from waitable.botocore_waiters import service_waiter

    _data(
        tmp_path / "data",
        "myservice",
        _waiters(ThingReady={**READY, "description": description}),
    )
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 0, output
    waiter = service_waiter("myservice", "ThingReady", botocore.session.Session())
    assert waiter.definition.documentation is None
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("out.waiters")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "out" or n.startswith("out.")]:
            del sys.modules[name]
    generated = dataclasses.replace(module.ThingReadyWaiter.definition, errors=())
    assert generated == waiter.definition


def test_an_acceptor_without_expected_is_refused_as_botocore_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """botocore's `AcceptorConfig` reads `config['expected']` (a KeyError without
    it); the runtime read it as null, so a `path` acceptor matched a missing value
    in a waiter botocore cannot build, and the generator refused it saying to "fix
    the smithy.waiters#waitable trait"."""
    import botocore.session
    import botocore.waiter

    from waitable.botocore_waiters import BotocoreWaiterError, service_waiter

    bare = {"state": "success", "matcher": "path", "argument": "State"}
    waiter = {**READY, "acceptors": [bare]}
    with pytest.raises(KeyError):
        botocore.waiter.AcceptorConfig(bare)
    path = _data(tmp_path / "data", "myservice", _waiters(ThingReady=waiter))
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1 and not out.exists()
    assert f"botocore waiter myservice.ThingReady ({path}): acceptor 0: " in output
    assert "has no `expected`, which botocore requires" in output
    assert "smithy.waiters" not in output
    session = botocore.session.Session()
    with pytest.raises(BotocoreWaiterError, match="no `expected`"):
        service_waiter("myservice", "ThingReady", session)


def test_a_waiter_named_async_and_another_waiters_name_is_named_as_botocore_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Foo` and `AsyncFoo` both make class `AsyncFooWaiter`: the refusal said to
    "pick one service with --service", which `--botocore` refuses."""
    path = _data(tmp_path / "data", "myservice", _waiters(Foo=READY, AsyncFoo=READY))
    status, output, out = _run(tmp_path, monkeypatch)
    assert status == 1 and not out.exists()
    assert f"botocore waiter myservice.AsyncFoo ({path}): " in output
    assert "asyncio class of waiter Foo; rename one of them" in output
    assert "--service" not in output
