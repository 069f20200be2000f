"""Review s20: what custom waiters used to accept without a word.

A. `custom_waiter_from_trait` ignored keys the Smithy waiter trait does not define,
   so a typo (`minDealy`) or seed 003's Go field (`maxAttempts`) changed the wait
   silently. A hand-written definition now refuses each, saying where it is and
   what to do; a Smithy model (the `waitable wait --model` source, the generator)
   still ignores them, as Smithy only warns.
B. `custom_waiter` left `acceptors`, `operation_method`, `errors`, `documentation`
   and `module` unchecked: a raw `TypeError`, or a crash inside `wait()`.
C. A sync custom waiter given a coroutine operation named `AsyncJenkinsBuildDone`,
   a class that does not exist; its twin is `JenkinsBuildDone.Async`.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import urllib.error
import warnings
from pathlib import Path
from typing import Any

import pytest

from waitable import (
    AsyncClientError,
    ModeledError,
    WaiterConfigurationError,
    WaiterDefinitionError,
    WaiterTimeoutError,
)
from waitable.custom import (
    custom_waiter,
    custom_waiter_from_trait,
    error_type,
    path,
    retry,
    success,
)
from waitable.definition import WaiterDefinition
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class

SUCCESS = {
    "state": "success",
    "matcher": {
        "output": {
            "path": "result",
            "expected": "SUCCESS",
            "comparator": "stringEquals",
        }
    },
}
FAILURE = {
    "state": "failure",
    "matcher": {
        "output": {
            "path": "result",
            "expected": "FAILURE",
            "comparator": "stringEquals",
        }
    },
}

# --- A. unknown keys in a definition given to custom_waiter_from_trait ---------------


def test_a_typo_and_the_go_field_are_refused_naming_each(tmp_path: Path) -> None:
    """The review's file: `minDealy` left min_delay at 2 and `maxAttempts` set no cap
    (11 polls in 60 s instead of 5); now neither is accepted, and nothing is polled."""
    config = tmp_path / "jenkins_waiters.json"
    document = {
        "JenkinsBuildDone": {
            "acceptors": [SUCCESS, FAILURE],
            "minDealy": 15,
            "maxDelay": 15,
            "maxAttempts": 120,
        }
    }
    config.write_text(json.dumps(document))
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("JenkinsBuildDone", str(config))
    text = str(raised.value)
    assert str(config) in text and "waiter 'JenkinsBuildDone'" in text
    assert "unknown key `minDealy` (did you mean `minDelay`?)" in text
    assert "unknown key `maxAttempts`" in text
    assert "custom_waiter_from_trait(..., max_attempts=120)" in text
    assert "wait(max_attempts=120)" in text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("change", "where", "advice"),
    [
        (
            lambda d: d.update(min_delay=15),
            "unknown key `min_delay`",
            "did you mean `minDelay`?",
        ),
        (
            lambda d: d.update(description="doc"),
            "unknown key `description`",
            "did you mean `documentation`?",
        ),
        (
            lambda d: d.update(maxWaitTime=600),
            "unknown key `maxWaitTime`",
            "custom_waiter_from_trait(..., max_wait_time=600)",
        ),
        (
            lambda d: d.update(ExecuteAfterFirstDelay=True),
            "unknown key `ExecuteAfterFirstDelay`",
            "delay_before_first_attempt=True",
        ),
        (
            lambda d: d.update(owner="ci"),
            "unknown key `owner` (not a waiter member)",
            "a waiter's members are documentation, acceptors, minDelay, maxDelay, "
            "deprecated, tags",
        ),
        (
            lambda d: d["acceptors"][1].update(mesage="reason"),
            "acceptor 1: unknown key `mesage`",
            "did you mean `message`?",
        ),
        (
            lambda d: d["acceptors"][1].update(note="x"),
            "acceptor 1: unknown key `note` (not an acceptor member)",
            "an acceptor's members are state, matcher, message",
        ),
        (
            lambda d: d["acceptors"][0].update(errorType="NotFound"),
            "acceptor 0: unknown key `errorType`",
            "put it in `matcher`",
        ),
        (
            lambda d: d["acceptors"][0]["matcher"].update(comparator="stringEquals"),
            "acceptor 0 matcher: unknown key `comparator`",
            "put it in `output` or `inputOutput`",
        ),
        (
            lambda d: d["acceptors"][1]["matcher"].update(erorType=None),
            "acceptor 1 matcher: unknown key `erorType`",
            "did you mean `errorType`?",
        ),
        (
            lambda d: d["acceptors"][1]["matcher"]["output"].update(comparater="x"),
            "acceptor 1 matcher.output: unknown key `comparater`",
            "did you mean `comparator`?",
        ),
    ],
)
def test_each_unknown_key_is_named_with_where_it_is_and_what_to_do(
    change: Any, where: str, advice: str
) -> None:
    document: dict[str, Any] = json.loads(json.dumps({"acceptors": [SUCCESS, FAILURE]}))
    change(document)
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", document)
    text = str(raised.value)
    assert "waiter 'Build'" in text
    assert where in text and advice in text


def test_all_unknown_keys_are_named_in_one_error() -> None:
    document = {
        "acceptors": [
            {**SUCCESS, "priority": 1},
            {**FAILURE, "matcher": {**FAILURE["matcher"], "sucess": None}},
        ],
        "minDealy": 15,
    }
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter_from_trait("Build", document)
    text = str(raised.value)
    for key in ("`minDealy`", "acceptor 0: unknown key `priority`", "`sucess`"):
        assert key in text


def test_every_member_of_the_trait_is_still_accepted() -> None:
    document = {
        "documentation": "Waits for the build.",
        "acceptors": [
            SUCCESS,
            {**FAILURE, "message": "reason"},
            {"state": "retry", "matcher": {"errorType": "NotFound"}},
            {"state": "failure", "matcher": {"success": False}},
            {
                "state": "success",
                "matcher": {
                    "inputOutput": {
                        "path": "input.job == output.job",
                        "expected": "true",
                        "comparator": "booleanEquals",
                    },
                    "output": None,  # an unset union member
                },
            },
        ],
        "minDelay": 15,
        "maxDelay": 30,
        "deprecated": True,
        "tags": ["ci"],
    }
    built = custom_waiter_from_trait("Build", document)
    assert built.definition.min_delay == 15 and built.definition.max_delay == 30
    assert built.definition.tags == ("ci",) and built.definition.deprecated
    assert built.__doc__ == "Waits for the build."


def test_a_smithy_model_still_ignores_unknown_keys(tmp_path: Path) -> None:
    """Smithy only warns of an unknown member, so a model's waiters are read as
    before: by `WaiterDefinition.from_trait` and by `waitable wait --model`."""
    value = {
        "acceptors": [{**SUCCESS, "note": 1}],
        "description": "seen in mediapackagev2",
        "minDealy": 15,
    }
    definition = WaiterDefinition.from_trait("BuildDone", "GetBuild", value)
    assert definition.min_delay == 2
    with pytest.raises(WaiterDefinitionError, match="minDealy"):
        WaiterDefinition.from_trait("BuildDone", "GetBuild", value, strict=True)

    from waitable.wait_cli.sources import ModelSource

    model = tmp_path / "model.json"
    model.write_text(
        json.dumps(
            {
                "smithy": "2.0",
                "shapes": {
                    "example.ci#GetBuild": {
                        "type": "operation",
                        "traits": {"smithy.waiters#waitable": {"BuildDone": value}},
                    }
                },
            }
        )
    )
    entries = ModelSource(str(model)).waiters("ci")
    (entry,) = entries.values()
    assert entry.load().definition.min_delay == 2


# --- B. custom_waiter's arguments are checked when the class is built ----------------

OK = [success(path("result") == "SUCCESS"), retry(error_type("ServiceUnavailable"))]


@pytest.mark.parametrize(
    ("acceptors", "given", "to_pass"),
    [
        (success(path("r") == "S"), "got one acceptor", "acceptors=[success(...)]"),
        (5, "got 5 (int)", "success(...), failure(...) or retry(...)"),
        ("success", "got 'success' (str)", "success(...), failure(...) or retry(...)"),
        (SUCCESS, "got a dict", "custom_waiter_from_trait"),
    ],
)
def test_acceptors_that_are_not_a_list_of_acceptors_are_refused(
    acceptors: Any, given: str, to_pass: str
) -> None:
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter("Build", acceptors=acceptors)
    text = str(raised.value)
    assert "custom waiter 'Build': acceptors must be a list" in text
    assert given in text and to_pass in text


def test_acceptors_may_be_any_collection() -> None:
    assert custom_waiter("Build", acceptors=tuple(OK)).definition.acceptors
    assert custom_waiter("Build", acceptors=iter(OK)).definition.acceptors


@pytest.mark.parametrize("method", [5, None, b"get_build", ["get_build"]])
def test_an_operation_method_that_is_not_a_string_is_refused_when_built(
    method: Any,
) -> None:
    for build in (
        lambda: custom_waiter("Build", acceptors=OK, operation_method=method),
        lambda: custom_waiter_from_trait(
            "Build", {"acceptors": [SUCCESS]}, operation_method=method
        ),
    ):
        with pytest.raises(WaiterConfigurationError) as raised:
            build()
        text = str(raised.value)
        assert "custom waiter 'Build': operation_method must be" in text
        assert f"got {method!r}" in text and '"get_build"' in text


def _busy_jenkins(job: Any) -> Any:
    raise urllib.error.HTTPError(
        "http://jenkins/job/x/42/api/json", 503, "busy", {}, io.BytesIO()  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("errors", "given"),
    [
        (["ServiceUnavailable"], "got the string 'ServiceUnavailable' at index 0"),
        ("ServiceUnavailable", "got 'ServiceUnavailable' (str)"),
        (ModeledError("ServiceUnavailable", 503), "got one ModeledError"),
        ([503], "got 503 (int) at index 0"),
        (5, "got 5 (int)"),
    ],
)
def test_errors_that_are_not_modeled_errors_are_refused_when_built(
    errors: Any, given: str
) -> None:
    """`errors=["ServiceUnavailable"]` was accepted, then raised an AttributeError
    inside wait() on the first 503."""
    for build in (
        lambda: custom_waiter("Build", acceptors=OK, errors=errors),
        lambda: custom_waiter_from_trait(
            "Build", {"acceptors": [SUCCESS]}, errors=errors
        ),
    ):
        with pytest.raises(WaiterDefinitionError) as raised:
            build()
        text = str(raised.value)
        assert "custom waiter 'Build': errors must be a list of" in text
        assert given in text and "ModeledError(" in text


@pytest.mark.parametrize(
    ("name", "status"), [(5, 503), ("", 503), ("Busy", "503"), ("Busy", True)]
)
def test_a_malformed_modeled_error_is_refused_when_made(name: Any, status: Any) -> None:
    """Checked in `ModeledError` itself, so every path that builds one (custom
    waiters, generated modules, botocore classes, hand-written definitions) is
    covered, not only `custom_waiter`'s `errors=` (moved there in s21)."""
    with pytest.raises(WaiterDefinitionError) as raised:
        ModeledError(name, http_status=status)
    text = str(raised.value)
    assert text.startswith(f"ModeledError({name!r}, http_status={status!r})")
    assert "a non-empty string" in text and "an int or None" in text
    assert 'ModeledError("ServiceUnavailable", http_status=503)' in text


def test_modeled_errors_still_name_a_bare_status() -> None:
    Build = custom_waiter(
        "Build", acceptors=OK, errors=[ModeledError("ServiceUnavailable", 503)]
    )
    with pytest.raises(WaiterTimeoutError) as raised:
        Build(_busy_jenkins, clock=VirtualClock()).wait({"job": "x"}, max_wait_time=10)
    assert raised.value.result.attempts > 1  # each 503 was a retry, not a failure


@pytest.mark.parametrize("documentation", [5, b"doc", ["doc"]])
def test_documentation_that_is_not_text_is_refused(documentation: Any) -> None:
    with pytest.raises(WaiterDefinitionError) as raised:
        custom_waiter("Build", acceptors=OK, documentation=documentation)
    text = str(raised.value)
    assert "custom waiter 'Build': documentation must be a string" in text
    assert f"got {documentation!r}" in text


@pytest.mark.parametrize("module", [5, b"jobs", object])
def test_a_module_that_is_not_text_is_refused(module: Any) -> None:
    for build in (
        lambda: custom_waiter("Build", acceptors=OK, module=module),
        lambda: custom_waiter_from_trait(
            "Build", {"acceptors": [SUCCESS]}, module=module
        ),
    ):
        with pytest.raises(WaiterConfigurationError) as raised:
            build()
        text = str(raised.value)
        assert "custom waiter 'Build': module must be a module name" in text
        assert "__name__" in text


def test_text_documentation_and_module_are_kept() -> None:
    Build = custom_waiter(
        "Build", acceptors=OK, documentation="Waits.", module="jobs.waiters"
    )
    assert Build.__doc__ == "Waits." and Build.__module__ == "jobs.waiters"
    assert Build.Async.__module__ == "jobs.waiters"


def test_a_bad_jmespath_mode_is_refused_without_any_path() -> None:
    """It was refused only when some acceptor had a path to compile."""
    with pytest.raises(WaiterConfigurationError, match="jmespath mode must be"):
        custom_waiter("Build", acceptors=[success(True)], jmespath="fast")  # type: ignore[arg-type]


# --- C. a sync custom waiter names the async twin that exists ------------------------

JenkinsBuildDone = custom_waiter("JenkinsBuildDone", acceptors=OK)


async def _get_build(job: Any) -> dict[str, str]:
    return {"result": "SUCCESS"}


class _AsyncCallable:
    """An object whose `__call__` is a coroutine function."""

    async def __call__(self, job: Any) -> dict[str, str]:
        return {"result": "SUCCESS"}


class _ReturnsCoroutine:
    """A plain callable that returns a coroutine: refused on the first poll."""

    def __call__(self, job: Any) -> Any:
        return _get_build(job)


class _AsyncClient:
    async def get_build(self, **input: Any) -> dict[str, str]:
        return {"result": "SUCCESS"}


def _twin_named(text: str, waiter: type[Any]) -> None:
    assert "use JenkinsBuildDone.Async (await its wait())" in text
    assert "AsyncJenkinsBuildDone" not in text
    named = re.search(r"use (\S+) \(await", text)
    assert named is not None
    owner, _, attribute = named.group(1).partition(".")
    assert owner == waiter.__name__ and getattr(waiter, attribute) is waiter.Async


def test_a_coroutine_operation_names_the_async_attribute() -> None:
    with pytest.raises(AsyncClientError) as raised:
        JenkinsBuildDone(_get_build, clock=VirtualClock())
    _twin_named(str(raised.value), JenkinsBuildDone)
    with pytest.raises(AsyncClientError) as raised:
        JenkinsBuildDone(_AsyncCallable(), clock=VirtualClock())
    _twin_named(str(raised.value), JenkinsBuildDone)


def test_a_coroutine_returned_on_the_first_poll_names_the_async_attribute() -> None:
    waiter = JenkinsBuildDone(_ReturnsCoroutine(), clock=VirtualClock())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the coroutine is closed, never left unawaited
        with pytest.raises(AsyncClientError) as raised:
            waiter.wait({"job": "x"}, max_wait_time=5)
    _twin_named(str(raised.value), JenkinsBuildDone)


def test_an_async_client_method_names_the_async_attribute() -> None:
    Jenkins = custom_waiter(
        "JenkinsBuildDone", acceptors=OK, operation_method="get_build"
    )
    with pytest.raises(AsyncClientError) as raised:
        Jenkins(_AsyncClient(), clock=VirtualClock())
    _twin_named(str(raised.value), Jenkins)


def test_the_named_twin_does_wait() -> None:
    import asyncio

    waiter = JenkinsBuildDone.Async(_get_build, clock=VirtualClock())
    result = asyncio.run(waiter.wait({"job": "x"}, max_wait_time=5))
    assert result.attempts == 1


def test_a_generated_waiter_still_names_its_async_class() -> None:
    Generated = waiter_class(THING_EXISTS)

    class AsyncClient:
        async def call_operation(self, **input: Any) -> Any:
            return {}

    with pytest.raises(AsyncClientError, match=r"use AsyncThingExistsWaiter \(await"):
        Generated(AsyncClient())


def test_a_sync_callable_given_to_the_async_twin_names_the_sync_class() -> None:
    waiter = JenkinsBuildDone.Async(
        lambda job: {"result": "SUCCESS"}, clock=VirtualClock()
    )
    with pytest.raises(WaiterConfigurationError) as refused:
        asyncio.run(waiter.wait({"job": "x"}, max_wait_time=60))
    assert "use JenkinsBuildDone for a synchronous client" in str(refused.value)
