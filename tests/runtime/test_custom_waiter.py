"""Custom waiters without a model (`waitable.custom`): acceptors, predicates, classes, traits, steps."""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jmespath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    AcceptorState,
    AsyncWaiter,
    Comparator,
    ErrorTypeMatcher,
    FixedDelay,
    InputOutputMatcher,
    OutputMatcher,
    SuccessMatcher,
    Waiter,
    WaiterConfigurationError,
    WaiterDefinitionError,
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterResult,
    WaiterTimeoutError,
)
from waitable.custom import (
    CustomWaiter,
    ErrorClassMatcher,
    PredicateMatcher,
    compile_path,
    custom_waiter,
    custom_waiter_from_trait,
    error_type,
    failure,
    input_output_path,
    path,
    retry,
    success,
)
from waitable.errors import WaiterEvaluationError
from waitable.steps import SavedWait
from waitable.testing import VirtualClock

SUCCESS, FAILURE, RETRY = (
    AcceptorState.SUCCESS,
    AcceptorState.FAILURE,
    AcceptorState.RETRY,
)

JENKINS_TRAIT = {
    "acceptors": [
        {
            "state": "success",
            "matcher": {
                "output": {
                    "path": "result",
                    "expected": "SUCCESS",
                    "comparator": "stringEquals",
                }
            },
        },
        {
            "state": "failure",
            "matcher": {
                "output": {
                    "path": "result",
                    "expected": "FAILURE",
                    "comparator": "stringEquals",
                }
            },
        },
        {
            "state": "failure",
            "matcher": {
                "output": {
                    "path": "result",
                    "expected": "ABORTED",
                    "comparator": "stringEquals",
                }
            },
        },
    ],
    "minDelay": 15,
    "maxDelay": 15,
}

Jenkins = custom_waiter(
    "JenkinsBuildDone",
    acceptors=[
        success(path("result") == "SUCCESS"),
        failure(path("result") == "FAILURE"),
        failure(path("result") == "ABORTED"),
    ],
    min_delay=15,
    max_delay=15,
    backoff=FixedDelay(),
    max_attempts=120,
    delay_before_first_attempt=True,
)


class Build:
    """A fake build: `None` results while running, then the final result, call by call."""

    def __init__(self, results: Sequence[Any]) -> None:
        self.results = list(results)
        self.calls = 0

    def __call__(self, input: Any = None) -> dict[str, Any]:
        self.calls += 1
        item = self.results[min(self.calls, len(self.results)) - 1]
        if isinstance(item, BaseException):
            raise item
        return {"result": item, "building": item is None}

    async def call_async(self, input: Any = None) -> dict[str, Any]:
        await asyncio.sleep(0)
        return self(input)


class CodedError(Exception):
    """An error with a `code`, as hand-written and smithy-python errors carry it."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# --- building acceptors -------------------------------------------------------------


def test_path_comparisons_build_the_spec_matchers() -> None:
    matcher = path("result") == "SUCCESS"
    assert matcher == OutputMatcher("result", "SUCCESS", Comparator.STRING_EQUALS)
    assert (path("done") == True) == OutputMatcher(  # noqa: E712
        "done", "true", Comparator.BOOLEAN_EQUALS
    )
    assert path("a").boolean_equals(False).expected == "false"
    assert path("a[]").all_string_equals("x").comparator is Comparator.ALL_STRING_EQUALS
    assert path("a[]").any_string_equals("x").comparator is Comparator.ANY_STRING_EQUALS
    matcher = input_output_path("input.n == output.n").boolean_equals(True)
    assert isinstance(matcher, InputOutputMatcher)


def test_acceptor_helpers_take_every_matcher_form() -> None:
    def predicate(output: Any) -> bool:
        return bool(output)

    assert success(True).matcher == SuccessMatcher(True)
    assert failure(False).state is FAILURE
    assert retry(error_type("ns#Throttled")).matcher == ErrorTypeMatcher("ns#Throttled")
    assert retry(KeyError).matcher == ErrorClassMatcher(KeyError)
    assert retry(error_type(OSError)).matcher == ErrorClassMatcher(OSError)
    assert success(predicate).matcher == PredicateMatcher(predicate)
    assert "predicate" in success(predicate).matcher.describe()
    assert failure(path("s") == "x", message="reason").message == "reason"


@pytest.mark.parametrize(
    "build, needed",
    [
        (lambda: path("a") == 3, "string"),
        (lambda: path("a").boolean_equals("true"), "True or False"),  # type: ignore[arg-type]
        (lambda: success(path("a")), "needs a comparison"),  # type: ignore[arg-type]
        (lambda: success(42), "predicate"),  # type: ignore[arg-type]
        (lambda: error_type(3), "exception class"),  # type: ignore[arg-type]
        (lambda: path("a[") == "x", "invalid JMESPath"),
        (
            lambda: success(path("a") == "x").__class__(
                RETRY, SuccessMatcher(True), "m"
            ),
            "only valid on failure",
        ),
    ],
)
def test_bad_acceptors_say_what_to_write(build: Callable[[], Any], needed: str) -> None:
    with pytest.raises(WaiterDefinitionError, match=needed):
        build()


def test_the_builder_refuses_what_is_not_an_acceptor_and_bad_settings() -> None:
    with pytest.raises(WaiterDefinitionError, match="acceptor 1: expected an acceptor"):
        custom_waiter("W", acceptors=[success(True), "success"])  # type: ignore[list-item]
    with pytest.raises(WaiterDefinitionError, match="no acceptors"):
        custom_waiter("W", acceptors=[])
    with pytest.raises(WaiterDefinitionError, match="minDelay 9 is greater"):
        custom_waiter("W", acceptors=[success(True)], min_delay=9, max_delay=3)
    with pytest.raises(WaiterConfigurationError, match="max_attempts"):
        custom_waiter("W", acceptors=[success(True)], max_attempts=0)
    with pytest.raises(WaiterConfigurationError, match="jmespath mode"):
        custom_waiter("W", acceptors=[success(path("a") == "b")], jmespath="fast")  # type: ignore[arg-type]


def test_the_builder_returns_a_waiter_class_and_its_async_twin() -> None:
    assert issubclass(Jenkins, Waiter) and issubclass(Jenkins, CustomWaiter)
    assert issubclass(Jenkins.Async, AsyncWaiter)
    assert Jenkins.__name__ == "JenkinsBuildDone"
    assert Jenkins.__module__ == __name__
    assert Jenkins.definition.name == "JenkinsBuildDone"
    assert Jenkins.Async.definition is Jenkins.definition
    assert Jenkins.Async.__qualname__ == "JenkinsBuildDone.Async"


# --- waiting ------------------------------------------------------------------------


def test_seed_003_jenkins_waiter_first_check_after_the_first_delay() -> None:
    clock = VirtualClock()
    build = Build([None, None, "SUCCESS"])
    result = Jenkins(build, clock=clock).wait({"job": "deploy", "build": 42})
    assert result.state is SUCCESS and result.output == {
        "result": "SUCCESS",
        "building": False,
    }
    assert [a.started_at for a in result.history] == [15, 30, 45]
    assert [a.delay for a in result.history] == [15, 15, 15]
    assert [a.acceptor_index for a in result.history] == [None, None, 0]
    assert clock.now() == 45


@pytest.mark.parametrize("final, index", [("FAILURE", 1), ("ABORTED", 2)])
def test_seed_003_jenkins_waiter_fails_on_failure_and_aborted(
    final: str, index: int
) -> None:
    with pytest.raises(WaiterFailureStateError) as caught:
        Jenkins(Build([None, final]), clock=VirtualClock()).wait()
    assert caught.value.acceptor_index == index
    assert f"'{final}'" in str(caught.value)


def test_seed_003_jenkins_waiter_makes_120_checks_15_seconds_apart_without_a_deadline() -> (
    None
):
    clock = VirtualClock()
    build = Build([None])
    with pytest.raises(WaiterMaxAttemptsError) as caught:
        Jenkins(build, clock=clock).wait()
    history = caught.value.result.history
    assert build.calls == 120
    assert [a.started_at for a in history] == [15 * n for n in range(1, 121)]
    assert clock.now() == 1800


def test_a_deadline_given_per_call_applies_the_last_attempt_rule_to_the_first_delay() -> (
    None
):
    clock = VirtualClock()
    with pytest.raises(WaiterTimeoutError):
        Jenkins(Build([None]), clock=clock).wait(max_wait_time=20)
    assert clock.now() == 20  # one poll, at the deadline (20 - 15 <= 15)


def test_without_max_attempts_a_max_wait_time_is_required() -> None:
    Plain = custom_waiter("Plain", acceptors=[success(True)])
    with pytest.raises(WaiterConfigurationError, match="max_wait_time is required"):
        Plain(Build(["x"])).wait()
    Bounded = custom_waiter("Bounded", acceptors=[success(True)], max_wait_time=60)
    assert Bounded(Build(["x"]), clock=VirtualClock()).wait().attempts == 1


def test_per_call_overrides_beat_the_builder_defaults() -> None:
    clock = VirtualClock()
    with pytest.raises(WaiterMaxAttemptsError):
        Jenkins(Build([None]), clock=clock).wait(
            max_attempts=3, min_delay=1, max_delay=1
        )
    assert clock.now() == 3  # FixedDelay() follows min_delay: polls at 1, 2, 3


def test_a_zero_argument_callable_is_the_operation() -> None:
    build = Build([None, "SUCCESS"])
    result = Jenkins(lambda: build(), clock=VirtualClock()).wait()
    assert result.attempts == 2


def test_a_client_method_is_the_operation_with_operation_method() -> None:
    class Client:
        def __init__(self) -> None:
            self.seen: list[Any] = []

        def get_build(self, **params: Any) -> dict[str, str]:
            self.seen.append(params)
            return {"result": "SUCCESS"}

    Waiting = custom_waiter(
        "Waiting",
        acceptors=[success(path("result") == "SUCCESS")],
        operation_method="get_build",
        max_wait_time=60,
    )
    client = Client()
    Waiting(client, clock=VirtualClock()).wait({"job": "a", "build": 1})
    assert client.seen == [{"job": "a", "build": 1}]


def test_predicates_decide_in_acceptor_order_with_path_matchers() -> None:
    seen: list[Any] = []

    def aborted(output: Any) -> bool:
        seen.append(output)
        return output["result"] == "ABORTED"

    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            success(path("result") == "SUCCESS"),
            failure(aborted),
            success(lambda output: output["building"] is False),
        ],
        max_wait_time=100,
    )
    # SUCCESS: acceptor 0 (a path) decides before the predicate runs.
    result = Waiting(Build(["SUCCESS"]), clock=VirtualClock()).wait()
    assert result.history[-1].acceptor_index == 0 and seen == []
    # ABORTED: the predicate at 1 matches before the predicate at 2.
    with pytest.raises(WaiterFailureStateError) as caught:
        Waiting(Build(["ABORTED"]), clock=VirtualClock()).wait()
    assert caught.value.acceptor_index == 1 and "predicate" in str(caught.value)
    # UNSTABLE: only the last predicate holds.
    result = Waiting(Build([None, "UNSTABLE"]), clock=VirtualClock()).wait()
    assert [a.acceptor_index for a in result.history] == [None, 2]


def test_a_predicate_before_a_path_wins() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            retry(lambda output: output["building"]),
            success(path("result") == "SUCCESS"),
        ],
        max_wait_time=100,
    )
    waiter = Waiting(
        lambda: {"result": "SUCCESS", "building": True}, clock=VirtualClock()
    )
    with pytest.raises(WaiterTimeoutError) as caught:
        waiter.wait(max_wait_time=10)
    assert {a.acceptor_index for a in caught.value.result.history} == {0}


def test_a_predicate_that_raises_is_an_evaluation_error_naming_the_acceptor() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[success(path("result") == "SUCCESS"), success(lambda o: o["nope"])],
        max_wait_time=100,
    )
    with pytest.raises(WaiterEvaluationError, match="acceptor 1 .*KeyError") as caught:
        Waiting(Build([None]), clock=VirtualClock()).wait()
    assert isinstance(caught.value.__cause__, KeyError)
    # The user's own predicate raised: say so and what to fix, not "check what the
    # client returns ... or report it as a waitable bug" (review s23-seeds, finding 3).
    message = str(caught.value)
    assert "the predicate itself raised KeyError('nope')" in message
    assert "output.get(key)" in message
    assert "waitable bug" not in message and "not a verdict" not in message
    assert caught.value.advice is not None


def test_a_failure_predicate_message_is_a_jmespath_reason() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            failure(lambda o: o["result"] == "FAILURE", message="reason"),
            success(path("result") == "SUCCESS"),
        ],
        max_wait_time=100,
    )
    with pytest.raises(WaiterFailureStateError, match="disk full"):
        Waiting(
            lambda: {"result": "FAILURE", "reason": "disk full"}, clock=VirtualClock()
        ).wait()


def test_error_type_by_class_matches_subclasses_and_transport_errors() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            retry(ConnectionError),
            failure(error_type(LookupError)),
            success(path("result") == "SUCCESS"),
        ],
        max_wait_time=100,
    )
    result = Waiting(
        Build([ConnectionResetError(), ConnectionRefusedError(), "SUCCESS"]),
        clock=VirtualClock(),
    ).wait()
    assert [a.acceptor_index for a in result.history] == [0, 0, 2]
    assert [a.error_type for a in result.history] == [
        "ConnectionResetError",
        "ConnectionRefusedError",
        None,
    ]
    with pytest.raises(WaiterFailureStateError) as caught:
        Waiting(Build([KeyError("k")]), clock=VirtualClock()).wait()
    assert caught.value.acceptor_index == 1


def test_error_type_by_code_uses_the_error_code_rules() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            retry(error_type("com.example#NotReady")),
            failure(error_type("Gone")),
            success(True),
        ],
        max_wait_time=100,
    )
    result = Waiting(Build([CodedError("NotReady"), "x"]), clock=VirtualClock()).wait()
    assert [a.acceptor_index for a in result.history] == [0, 2]
    with pytest.raises(WaiterFailureStateError):
        Waiting(Build([CodedError("Gone")]), clock=VirtualClock()).wait()
    # A code no acceptor names ends the wait (the spec's implicit failure) ...
    with pytest.raises(WaiterOperationError) as caught:
        Waiting(Build([CodedError("Other")]), clock=VirtualClock()).wait()
    assert isinstance(caught.value.__cause__, CodedError)
    # ... and a transport error is never matched by code, only by class.
    Coded = custom_waiter(
        "Coded",
        acceptors=[retry(error_type("ConnectionResetError")), success(True)],
        max_wait_time=9,
    )
    with pytest.raises(WaiterOperationError):
        Coded(Build([ConnectionResetError()]), clock=VirtualClock()).wait()


def test_retry_on_retries_an_error_no_acceptor_matches() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[success(path("result") == "SUCCESS")],
        retry_on=(TimeoutError,),
        max_wait_time=100,
    )
    result = Waiting(Build([TimeoutError(), "SUCCESS"]), clock=VirtualClock()).wait()
    assert [a.state for a in result.history] == [RETRY, SUCCESS]


def test_input_output_paths_read_the_input() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            success(input_output_path("output.result == input.want") == True)
        ],  # noqa: E712
        max_wait_time=100,
    )
    result = Waiting(Build([None, "B"]), clock=VirtualClock()).wait({"want": "B"})
    assert result.attempts == 2


# --- sync and async alike -----------------------------------------------------------

SCENARIOS: list[tuple[list[Any], type[BaseException] | None, list[float]]] = [
    ([None, None, "SUCCESS"], None, [15, 30, 45]),
    ([None, "ABORTED"], WaiterFailureStateError, [15, 30]),
    ([None, CodedError("Boom")], WaiterOperationError, [15, 30]),
]


def _sync(results: list[Any]) -> tuple[WaiterResult[Any] | None, BaseException | None]:
    try:
        return Jenkins(Build(results), clock=VirtualClock()).wait(max_attempts=10), None
    except WaiterError as error:
        return error.result, error


def _async(results: list[Any]) -> tuple[WaiterResult[Any] | None, BaseException | None]:
    async def main() -> WaiterResult[Any]:
        build = Build(results)
        return await Jenkins.Async(build.call_async, clock=VirtualClock()).wait(
            max_attempts=10
        )

    try:
        return asyncio.run(main()), None
    except WaiterError as error:
        return error.result, error


@pytest.mark.parametrize("results, error, starts", SCENARIOS)
def test_sync_and_async_custom_waiters_make_the_same_decisions(
    results: list[Any], error: type[BaseException] | None, starts: list[float]
) -> None:
    sync_result, sync_error = _sync(results)
    async_result, async_error = _async(results)
    for outcome, raised in ((sync_result, sync_error), (async_result, async_error)):
        assert outcome is not None
        assert [a.started_at for a in outcome.history] == starts
        assert (type(raised) if raised else None) is error
    assert sync_result is not None and async_result is not None
    assert [(a.state, a.acceptor_index) for a in sync_result.history] == [
        (a.state, a.acceptor_index) for a in async_result.history
    ]


def test_the_sync_class_refuses_an_async_operation() -> None:
    with pytest.raises(TypeError, match="AsyncJenkinsBuildDone|Async"):
        Jenkins(Build([]).call_async)


# --- from the trait's JSON shape ----------------------------------------------------


def _outcomes(waiter_class: type[CustomWaiter], results: list[Any]) -> list[Any]:
    try:
        result = waiter_class(Build(results), clock=VirtualClock()).wait()
    except WaiterError as error:
        result = error.result
    return [(a.started_at, a.state, a.acceptor_index) for a in result.history]


@pytest.mark.parametrize(
    "results", [[None, "SUCCESS"], [None, None, "FAILURE"], ["ABORTED"], [None]]
)
def test_a_trait_dict_json_text_and_json_file_give_the_same_waiter(
    tmp_path: Path, results: list[Any]
) -> None:
    options: dict[str, Any] = {
        "backoff": FixedDelay(),
        "max_attempts": 120,
        "delay_before_first_attempt": True,
    }
    file = tmp_path / "jenkins.json"
    file.write_text(json.dumps({"JenkinsBuildDone": JENKINS_TRAIT}))
    from_dict = custom_waiter_from_trait("JenkinsBuildDone", JENKINS_TRAIT, **options)
    from_text = custom_waiter_from_trait(
        "JenkinsBuildDone", json.dumps(JENKINS_TRAIT), **options
    )
    from_file = custom_waiter_from_trait("JenkinsBuildDone", file, **options)
    expected = _outcomes(Jenkins, results)
    for built in (from_dict, from_text, from_file):
        assert built.definition == Jenkins.definition
        assert _outcomes(built, results) == expected


def test_a_bad_trait_file_is_named_in_the_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"acceptors": [')
    with pytest.raises(
        WaiterDefinitionError, match=r"broken\.json: waiter 'W' is not valid JSON"
    ):
        custom_waiter_from_trait("W", broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(
        json.dumps({"acceptors": [{"state": "done", "matcher": {"success": True}}]})
    )
    with pytest.raises(
        WaiterDefinitionError, match=r"wrong\.json: .*acceptor 0.*`state`"
    ):
        custom_waiter_from_trait("W", wrong)
    with pytest.raises(WaiterDefinitionError, match=r"missing\.json: cannot read"):
        custom_waiter_from_trait("W", tmp_path / "missing.json")
    with pytest.raises(
        WaiterConfigurationError, match="min_delay comes from the trait"
    ):
        custom_waiter_from_trait("W", JENKINS_TRAIT, min_delay=3)
    with pytest.raises(WaiterConfigurationError, match="unknown option"):
        custom_waiter_from_trait("W", JENKINS_TRAIT, colour="red")


# --- compiled and interpreted paths -------------------------------------------------


def test_compiled_mode_uses_the_generator_and_interpreted_mode_the_jmespath_package() -> (
    None
):
    compiled = custom_waiter(
        "C", acceptors=[success(path("a.b") == "x")], max_wait_time=9
    )
    interpreted = custom_waiter(
        "I",
        acceptors=[success(path("a.b") == "x")],
        max_wait_time=9,
        jmespath="interpreted",
    )
    compiled_matcher = compiled.definition.acceptors[0].matcher
    interpreted_matcher = interpreted.definition.acceptors[0].matcher
    assert isinstance(compiled_matcher, OutputMatcher)
    assert isinstance(interpreted_matcher, OutputMatcher)
    assert compiled_matcher.search is not None
    assert compiled_matcher.search.__doc__ is not None  # the generator's function
    assert interpreted_matcher.search is None
    assert compile_path("a.b", "interpreted") is None


def test_without_the_generator_compiled_mode_falls_back_to_the_interpreter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "waitable_codegen.jmespath", None)
    assert compile_path("a.b", "compiled") is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)
builds = st.fixed_dictionaries(
    {},
    optional={
        "result": st.sampled_from(["SUCCESS", "FAILURE", "ABORTED", None])
        | json_values,
        "building": st.booleans() | json_values,
        "actions": st.lists(
            st.fixed_dictionaries(
                {"_class": st.sampled_from(["x", "y"]), "name": st.text(max_size=3)}
            ),
            max_size=3,
        )
        | json_values,
    },
)


def _verdicts(waiter_class: type[CustomWaiter], output: Any) -> Any:
    try:
        result = waiter_class(lambda: output, clock=VirtualClock()).wait(
            max_wait_time=5
        )
    except WaiterError as error:
        result = error.result
    return [(a.state, a.acceptor_index) for a in result.history]


def _both(
    acceptors: Callable[[], list[Any]],
) -> tuple[type[CustomWaiter], type[CustomWaiter]]:
    return (
        custom_waiter("C", acceptors=acceptors(), jmespath="compiled"),
        custom_waiter("I", acceptors=acceptors(), jmespath="interpreted"),
    )


JENKINS_BOTH = _both(
    lambda: [
        success(path("result") == "SUCCESS"),
        failure(path("result") == "FAILURE"),
        failure(path("building").boolean_equals(False)),
        retry(path("length(actions[?_class=='x']) == `2`") == True),  # noqa: E712
        success(path("actions[].name").all_string_equals("ok")),
        failure(path("actions[].name").any_string_equals("bad")),
    ]
)


@settings(max_examples=150, deadline=None)
@given(builds)
def test_compiled_and_interpreted_paths_decide_alike_on_any_build(output: Any) -> None:
    compiled, interpreted = JENKINS_BOTH
    assert _verdicts(compiled, output) == _verdicts(interpreted, output)


# --- the step API -------------------------------------------------------------------


def test_start_and_poll_once_round_trip_through_json_with_the_first_delay() -> None:
    clock = VirtualClock(wall_start=1_000_000.0)
    build = Build([None, "SUCCESS"])
    waiter = Jenkins(build, clock=clock)
    saved = waiter.start({"job": "deploy", "build": 7}, seed=3)
    assert saved.next_delay == 15 and saved.next_poll_at == 1_000_015.0
    assert saved.max_wait_time == math.inf and saved.max_attempts == 120
    text = saved.to_json()
    assert json.loads(text)["max_wait_time"] is None
    steps = []
    while True:
        clock.advance(SavedWait.from_json(text).next_delay)
        step = Jenkins(build, clock=clock).poll_once(SavedWait.from_json(text))
        steps.append(step)
        if step.done:
            break
        assert step.next_delay == 15
        text = step.state.to_json()
    assert step.result is not None and step.result.output["result"] == "SUCCESS"
    assert [a.delay for a in step.result.history] == [15, 15]
    assert build.calls == 2 and len(steps) == 2


def test_poll_once_uses_the_custom_judge() -> None:
    Waiting = custom_waiter(
        "Waiting",
        acceptors=[
            failure(lambda o: o["result"] == "ABORTED"),
            success(path("result") == "SUCCESS"),
        ],
        max_wait_time=60,
    )
    waiter = Waiting(Build([None, "ABORTED"]), clock=VirtualClock())
    step = waiter.poll_once(SavedWait.from_json(waiter.start().to_json()))
    assert not step.done and step.next_delay is not None
    with pytest.raises(WaiterFailureStateError, match="predicate"):
        waiter.poll_once(SavedWait.from_json(step.state.to_json()))


def test_start_without_the_first_delay_polls_at_once() -> None:
    Plain = custom_waiter("Plain", acceptors=[success(True)], max_wait_time=60)
    saved = Plain(Build(["x"]), clock=VirtualClock()).start()
    assert saved.next_poll_at is None and saved.next_delay == 0


def test_random_jitter_is_repeatable_through_the_engine() -> None:
    Jittery = custom_waiter(
        "Jittery",
        acceptors=[success(path("result") == "SUCCESS")],
        min_delay=1,
        max_delay=30,
    )
    delays = []
    for _ in range(2):
        result = Jittery(
            Build([None] * 5 + ["SUCCESS"]), clock=VirtualClock(), rng=random.Random(5)
        ).wait(max_wait_time=600)
        delays.append([a.delay for a in result.history])
    assert delays[0] == delays[1] and len(set(delays[0][1:])) > 1


# --- seed 003's Auto Scaling expression (examples/autoscaling_waiter.py) ------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load_example(name: str) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


autoscaling = _load_example("autoscaling_waiter")


def groups(*shapes: tuple[int, int, int]) -> dict[str, Any]:
    """A DescribeAutoScalingGroups response: (MinSize, Pending:Wait count, InService count)."""
    return {
        "AutoScalingGroups": [
            {
                "AutoScalingGroupName": f"group-{n}",
                "MinSize": min_size,
                "Instances": [{"LifecycleState": "Pending:Wait"}] * waiting
                + [{"LifecycleState": "InService"}] * serving,
            }
            for n, (min_size, waiting, serving) in enumerate(shapes)
        ]
    }


HAND_MADE = [
    (groups((2, 2, 0)), False),
    (groups((2, 3, 1), (1, 1, 0)), False),
    (groups((2, 1, 5)), True),
    (groups((1, 1, 0), (3, 2, 0)), True),
    (groups((0, 0, 4)), False),
    (groups(), False),
]


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("response, short", HAND_MADE)
def test_the_auto_scaling_expression_on_hand_made_responses(
    mode: Any, response: dict[str, Any], short: bool
) -> None:
    search = compile_path(autoscaling.GROUP_SHORT_OF_PENDING_WAIT, mode) or (
        lambda data: jmespath.search(autoscaling.GROUP_SHORT_OF_PENDING_WAIT, data)
    )
    assert search(response) is short
    seed_search = compile_path(autoscaling.SEED_003_EXPRESSION, mode) or (
        lambda data: jmespath.search(autoscaling.SEED_003_EXPRESSION, data)
    )
    assert (
        seed_search(response) is False
    )  # 'false' is a string: never equal to a boolean


shapes = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 5), st.integers(0, 3)),
    max_size=4,
)


@settings(max_examples=100, deadline=None)
@given(shapes)
def test_the_auto_scaling_expressions_agree_compiled_and_interpreted(
    shape_list: list[tuple[int, int, int]],
) -> None:
    response = groups(*shape_list)
    for expression in (
        autoscaling.GROUP_SHORT_OF_PENDING_WAIT,
        autoscaling.SEED_003_EXPRESSION,
        autoscaling.NO_GROUPS,
    ):
        compiled = compile_path(expression, "compiled")
        assert compiled is not None
        assert compiled(response) == jmespath.search(expression, response)
    expected_short = any(waiting < min_size for min_size, waiting, _ in shape_list)
    assert (
        jmespath.search(autoscaling.GROUP_SHORT_OF_PENDING_WAIT, response)
        is expected_short
    )
    assert jmespath.search(autoscaling.SEED_003_EXPRESSION, response) is False


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_auto_scaling_waiter_waits_for_every_group(mode: Any) -> None:
    waiter_class = custom_waiter(
        "GroupsInPendingWait",
        acceptors=list(autoscaling.GroupsInPendingWait.definition.acceptors),
        operation_method="describe_auto_scaling_groups",
        min_delay=15,
        max_delay=120,
        jmespath=mode,
    )

    class AutoScaling:
        def __init__(self) -> None:
            self.responses = iter(
                [
                    groups(),
                    groups((2, 1, 0)),
                    groups((2, 1, 0), (1, 1, 0)),
                    groups((2, 2, 0), (1, 1, 0)),
                ]
            )
            self.calls: list[Any] = []

        def describe_auto_scaling_groups(self, **params: Any) -> dict[str, Any]:
            self.calls.append(params)
            return next(self.responses)

    for built in (waiter_class, autoscaling.GroupsInPendingWait):
        client = AutoScaling()
        result = built(client, clock=VirtualClock(), rng=random.Random(1)).wait(
            {"AutoScalingGroupNames": ["web", "api"]}, max_wait_time=600
        )
        assert [a.acceptor_index for a in result.history] == [0, None, None, 1]
        assert client.calls[0] == {"AutoScalingGroupNames": ["web", "api"]}


def test_a_waiter_without_a_success_acceptor_is_refused() -> None:
    """The spec's MUST (a wait without one can only fail or time out), as for the
    trait: refused when the class is made, not after a wait that cannot succeed."""
    with pytest.raises(
        WaiterDefinitionError, match="'Never': no acceptor has the success"
    ):
        custom_waiter(
            "Never",
            acceptors=[failure(path("result") == "FAILED"), retry(True)],
            max_wait_time=60,
        )
