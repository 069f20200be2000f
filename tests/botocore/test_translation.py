"""botocore's `waiters-2.json` → `WaiterDefinition`: every waiter translates, and each
botocore matcher decides exactly as botocore's `AcceptorConfig.matcher_func` does."""

from __future__ import annotations

import sys
from typing import Any

import botocore.session
import pytest
from botocore import xform_name
from botocore.exceptions import ClientError
from botocore.waiter import AcceptorConfig
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import AcceptorState, WaiterDefinition
from waitable.backoff import FixedDelay
from waitable.botocore_waiters import (
    BotocoreWaiterError,
    available_services,
    service_waiters,
    translate_waiter,
    waiter_class,
)
from waitable.definition import (
    Acceptor,
    BotocoreErrorMatcher,
    BotocorePathMatcher,
    BotocorePathMode,
    StatusMatcher,
    WaiterDefinitionError,
)
from waitable.matching import match_error, match_output
from waitable.testing import VirtualClock

_loader = botocore.session.get_session().get_component("data_loader")

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.sampled_from([0.0, 1.0, 2.5]),
    st.sampled_from(["", "a", "b", "available", "1", "true"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["V", "W"]), inner, max_size=2),
    max_leaves=8,
)
expected_values = st.one_of(
    st.booleans(), st.integers(-2, 2), st.sampled_from(["", "a", "available", "1"])
)


def _definition(matcher: Any) -> WaiterDefinition:
    return WaiterDefinition("W", "Op", (Acceptor(AcceptorState.SUCCESS, matcher),))


def _ours_on_output(matcher: Any, response: Any) -> bool:
    verdict = match_output(_definition(matcher), response, {})
    return verdict.acceptor_index == 0


def _ours_on_error(matcher: Any, response: dict[str, Any]) -> bool:
    error = ClientError(response, "Op")  # type: ignore[arg-type]
    verdict = match_error(_definition(matcher), error, response["Error"]["Code"])
    return verdict is not None and verdict.acceptor_index == 0


def _botocore(kind: str, expected: Any, argument: str | None = None) -> Any:
    config = {"state": "success", "matcher": kind, "expected": expected}
    if argument is not None:
        config["argument"] = argument
    return AcceptorConfig(config).matcher_func


def _all_waiters() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (service, name, config)
        for service in available_services()
        for name, config in _loader.load_service_model(service, "waiters-2")[
            "waiters"
        ].items()
    ]


def test_every_installed_waiter_translates() -> None:
    raw = _all_waiters()
    assert len(raw) > 300  # botocore 1.4x ships about 400
    translated = {
        (service, name): waiter
        for service in available_services()
        for name, waiter in service_waiters(service).items()
    }
    assert len(translated) == len(raw)
    kinds = {
        "path": BotocorePathMatcher,
        "pathAll": BotocorePathMatcher,
        "pathAny": BotocorePathMatcher,
        "error": BotocoreErrorMatcher,
        "status": StatusMatcher,
    }
    for service, name, config in raw:
        waiter = translated[service, name]
        assert waiter.cli_name == xform_name(name, "-")
        assert waiter.operation == config["operation"]
        assert waiter.operation_method == xform_name(config["operation"])
        assert waiter.delay == config["delay"]
        assert waiter.max_attempts == config["maxAttempts"]
        assert waiter.default_max_wait_time == config["delay"] * config["maxAttempts"]
        assert (
            waiter.definition.min_delay == waiter.definition.max_delay == waiter.delay
        )
        assert len(waiter.definition.acceptors) == len(config["acceptors"])
        for ours, theirs in zip(waiter.definition.acceptors, config["acceptors"]):
            assert ours.state.value == theirs["state"]
            assert isinstance(ours.matcher, kinds[theirs["matcher"]])
            if isinstance(ours.matcher, BotocorePathMatcher):
                assert ours.matcher.mode.value == theirs["matcher"]
                assert ours.matcher.path == theirs["argument"]
                assert ours.matcher.expected == theirs["expected"]


@settings(max_examples=400)
@given(
    st.sampled_from(list(BotocorePathMode)),
    json_values,
    expected_values,
    st.booleans(),
)
def test_path_matchers_decide_as_botocore(
    mode: BotocorePathMode, value: Any, expected: Any, nested: bool
) -> None:
    argument = "V[].W" if nested else "V"
    response = {"V": value, "ResponseMetadata": {"HTTPStatusCode": 200}}
    ours = _ours_on_output(BotocorePathMatcher(argument, expected, mode), response)
    assert ours == bool(_botocore(mode.value, expected, argument)(response))


@pytest.mark.parametrize(
    ("mode", "value", "expected", "hit"),
    [
        ("pathAll", [], "a", False),  # an empty list matches neither list matcher
        ("pathAny", [], "a", False),
        ("pathAll", ["a", "a"], "a", True),
        ("path", 1, True, True),  # Python's == : 1 == True, as in botocore
        ("path", True, 1, True),
        ("path", "true", True, False),  # not compared as strings
        ("path", 0, False, True),
        ("pathAny", [2.0, "x"], 2, True),
    ],
)
def test_path_matcher_examples(mode: str, value: Any, expected: Any, hit: bool) -> None:
    response = {"V": value}
    matcher = BotocorePathMatcher("V", expected, BotocorePathMode(mode))
    assert _ours_on_output(matcher, response) is hit
    assert bool(_botocore(mode, expected, "V")(response)) is hit


def test_path_matchers_never_see_error_responses() -> None:
    matcher = BotocorePathMatcher("Error.Code", "X", BotocorePathMode.PATH)
    response = {"Error": {"Code": "X"}}
    assert not _ours_on_error(matcher, response)
    assert not _ours_on_output(matcher, response)  # botocore: an error-shaped output
    assert not _botocore("path", "X", "Error.Code")(response)


@settings(max_examples=300)
@given(
    st.sampled_from([200, 201, 404, 500]),
    st.one_of(st.none(), st.sampled_from([200, 404, 500, "404"])),
    st.booleans(),
)
def test_status_matcher_decides_as_botocore(
    expected: int, status: Any, error: bool
) -> None:
    response: dict[str, Any] = {}
    if status is not None:
        response["ResponseMetadata"] = {"HTTPStatusCode": status}
    theirs = bool(_botocore("status", expected)(response))
    if error:
        response["Error"] = {"Code": "Some", "Message": "m"}
        assert _ours_on_error(StatusMatcher(expected), response) == bool(
            _botocore("status", expected)(response)
        )
    else:
        assert _ours_on_output(StatusMatcher(expected), response) == theirs


@settings(max_examples=300)
@given(
    st.one_of(st.booleans(), st.sampled_from(["NotFound", "404", "Throttling"])),
    st.sampled_from(["NotFound", "404", "Throttling", "", "ns#NotFound"]),
    st.booleans(),
)
def test_error_matcher_decides_as_botocore(
    expected: Any, code: str, is_error: bool
) -> None:
    matcher = BotocoreErrorMatcher(expected)
    if is_error:
        response = {"Error": {"Code": code, "Message": "m"}}
        theirs = bool(_botocore("error", expected)(response))
        assert _ours_on_error(matcher, response) == theirs
    else:
        output = {"Value": code, "ResponseMetadata": {"HTTPStatusCode": 200}}
        theirs = bool(_botocore("error", expected)(output))
        assert _ours_on_output(matcher, output) == theirs


def test_error_false_matches_a_success_and_error_true_any_error() -> None:
    assert _ours_on_output(BotocoreErrorMatcher(False), {"A": 1})
    assert not _ours_on_error(BotocoreErrorMatcher(False), {"Error": {"Code": "X"}})
    assert _ours_on_error(BotocoreErrorMatcher(True), {"Error": {"Code": "X"}})
    assert not _ours_on_output(BotocoreErrorMatcher(True), {"A": 1})
    # The raw code, as botocore compares it: "404" is not "NotFound".
    assert not _ours_on_error(
        BotocoreErrorMatcher("NotFound"), {"Error": {"Code": "404"}}
    )


def test_bad_acceptors_are_named() -> None:
    base = {"operation": "Op", "delay": 5, "maxAttempts": 3}
    for acceptor, words in [
        ({"state": "success", "matcher": "nope", "expected": 1}, "unknown matcher"),
        ({"state": "success", "matcher": "status", "expected": "200"}, "integer"),
        ({"state": "done", "matcher": "status", "expected": 200}, "state"),
        ({"state": "success", "matcher": "path", "expected": 1}, "argument"),
    ]:
        with pytest.raises(WaiterDefinitionError, match=words) as info:
            translate_waiter("svc", "Ready", {**base, "acceptors": [acceptor]})
        assert "svc.Ready" in str(info.value)
    with pytest.raises(WaiterDefinitionError, match="maxAttempts"):
        translate_waiter("svc", "Ready", {"operation": "Op", "delay": 5})


def test_waiter_class_polls_with_botocore_delay_and_attempts() -> None:
    cls = waiter_class("ec2", "InstanceRunning")
    waiter = cls.botocore_waiter  # type: ignore[union-attr]
    assert cls.operation_method == "describe_instances"
    assert waiter.cli_name == "instance-running"
    calls: list[dict[str, Any]] = []

    class Client:
        def describe_instances(self, **kwargs: Any) -> Any:
            calls.append(kwargs)
            state = "running" if len(calls) == 3 else "pending"
            return {"Reservations": [{"Instances": [{"State": {"Name": state}}]}]}

    clock = VirtualClock()
    attempts: list[Any] = []
    result = cls(Client(), clock=clock, on_attempt=attempts.append).wait(  # type: ignore[call-arg]
        {"InstanceIds": ["i-1"]}
    )
    assert result.attempts == 3 and calls[0] == {"InstanceIds": ["i-1"]}
    assert [a.started_at for a in attempts] == [0, waiter.delay, 2 * waiter.delay]


def test_default_max_wait_time_gives_botocore_attempts_and_is_overridable() -> None:
    from waitable import WaiterConfig, WaiterError

    cls = waiter_class("ec2", "InstanceRunning")
    waiter = cls.botocore_waiter  # type: ignore[union-attr]
    calls = []

    def pending(**kwargs: Any) -> Any:
        calls.append(1)
        return {"Reservations": [{"Instances": [{"State": {"Name": "pending"}}]}]}

    client = type("C", (), {"describe_instances": staticmethod(pending)})()
    with pytest.raises(WaiterError):
        cls(client, clock=VirtualClock()).wait({})  # type: ignore[call-arg]
    assert len(calls) == waiter.max_attempts
    calls.clear()
    config = WaiterConfig(wait_timeout=3 * waiter.delay)
    with pytest.raises(WaiterError):
        cls(client, clock=VirtualClock(), config=config).wait({})  # type: ignore[call-arg]
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(WaiterError):
        cls(client, clock=VirtualClock()).wait({}, max_wait_time=4 * waiter.delay)  # type: ignore[call-arg]
    assert len(calls) == 4
    assert isinstance(cls(client).backoff, FixedDelay)


def test_async_class() -> None:
    import asyncio

    cls = waiter_class("s3", "BucketExists", asynchronous=True)

    class Client:
        async def head_bucket(self, **kwargs: Any) -> Any:
            return {"ResponseMetadata": {"HTTPStatusCode": 200}}

    result = asyncio.run(cls(Client(), clock=VirtualClock()).wait({"Bucket": "b"}))  # type: ignore[call-arg, misc]
    assert result.attempts == 1


def test_unknown_service_and_waiter_are_named() -> None:
    with pytest.raises(BotocoreWaiterError, match="no waiters for service 'nope'"):
        service_waiters("nope")
    with pytest.raises(BotocoreWaiterError, match="InstanceRunning"):
        waiter_class("ec2", "NoSuchWaiter")


def test_a_service_whose_waiters_file_is_empty_has_no_waiters() -> None:
    """bedrock and others ship an empty waiters-2.json: `service_waiters` gave {} and
    `waiter_class` said "its waiters: " with nothing after it (found by review s23);
    they are refused as a service without a waiters file is."""
    empty = sorted(
        service
        for service in _loader.list_available_services("waiters-2")
        if not _loader.load_service_model(service, "waiters-2").get("waiters")
    )
    if not empty:
        pytest.skip("every waiters-2.json of the installed botocore has waiters")
    service = empty[0]
    message = f"the installed botocore has no waiters for service '{service}'"
    with pytest.raises(BotocoreWaiterError, match=message):
        service_waiters(service)
    with pytest.raises(BotocoreWaiterError, match=message):
        waiter_class(service, "AnyWaiter")


def test_missing_botocore_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from waitable import botocore_waiters

    monkeypatch.setitem(sys.modules, "botocore", None)
    with pytest.raises(BotocoreWaiterError, match="pip install botocore"):
        botocore_waiters._botocore()
