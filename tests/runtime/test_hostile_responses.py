"""Acceptor evaluation is total: any response ends in a verdict or `WaiterEvaluationError`.

Hostile values (deep, huge, non-finite, cyclic, odd Python types) are run
through every comparator, through real acceptor sets (the spec's examples, the
generated examples, waiters of the shared AWS models) with compiled and with
interpreted paths, and through whole waits on both drivers. The only outcomes
allowed are the ones `waitable.matching` documents.
"""

from __future__ import annotations

import datetime
import decimal
import importlib
import json
import math
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_corpora import has_shared, shared_path

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    OutputMatcher,
    WaiterDefinition,
    WaiterError,
)
from waitable.comparators import COMPARATORS
from waitable.errors import WaiterEvaluationError
from waitable.matching import Verdict, match_error, match_output
from waitable.reads import Reads
from waitable_codegen.jmespath import compile as compile_path

from .harness import (
    BUCKET_EXISTS,
    DRIVERS,
    GROUP_EXISTS,
    RESOURCE_RUNNING,
    THING_EXISTS,
    ServiceError,
    states,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
GOLDEN = PROJECT_ROOT / "generated_examples"
AWS_MODELS = PROJECT_ROOT.parent / "shared" / "models" / "api-models-aws"
DEPTH = 100_000  # the attack's depth, in the unit tests of each attack
SWEEP_DEPTH = (
    3_000  # past the recursion limit too, for the sweeps over every definition
)


# --- hostile values ----------------------------------------------------------


def nested_lists(depth: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_dicts(depth: int, leaf: Any = "x", key: Any = "a") -> Any:
    value = leaf
    for _ in range(depth):
        value = {key: value}
    return value


def cyclic_list() -> list[Any]:
    value: list[Any] = ["x"]
    value.append(value)
    value.append(value)  # branching too: a level-by-level walk would double
    return value


def cyclic_dict() -> dict[str, Any]:
    value: dict[str, Any] = {"status": "success"}
    value["a"] = value
    value["b"] = [value, {"c": value}]
    return value


class Opaque:
    """A Python object that is no JMESPath value."""


class LoudStr(str):
    """A string whose own comparisons and text would lie; only its characters count."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__

    def __str__(self) -> str:
        raise RuntimeError("never called")


SPECIALS: dict[str, Callable[[], Any]] = {
    "deep list": lambda: nested_lists(SWEEP_DEPTH),
    "deep dict": lambda: nested_dicts(SWEEP_DEPTH),
    "deep dict, int keys": lambda: nested_dicts(2_000, key=7),
    "deep with datetime leaf": lambda: nested_lists(
        5_000, datetime.datetime(2020, 1, 1)
    ),
    "huge int": lambda: 10**5000,
    "huge negative int": lambda: -(10**5000),
    "huge int key": lambda: {10**5000: "x"},
    "huge int string": lambda: "1" * 5000,
    "huge exponent string": lambda: "1e999999",
    "big int and float": lambda: [10**400, 1.5],
    "ints beyond a double": lambda: [10**400, 10**400],
    "inf": lambda: math.inf,
    "-inf": lambda: -math.inf,
    "nan": lambda: math.nan,
    "nan list": lambda: [math.nan, math.inf, -math.inf],
    "Decimal sNaN": lambda: decimal.Decimal("sNaN"),
    "Decimal NaN": lambda: decimal.Decimal("NaN"),
    "Decimal huge": lambda: decimal.Decimal("1e999999"),
    "Decimal list": lambda: [decimal.Decimal("sNaN"), decimal.Decimal("-Infinity")],
    "bytes": lambda: b"\x00\xff",
    "datetime": lambda: datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc),
    "naive datetime max": lambda: datetime.datetime.max,
    "set": lambda: {1, "x", None},
    "frozenset": lambda: frozenset({"success"}),
    "opaque object": Opaque,
    "opaque list": lambda: [Opaque(), Opaque()],
    "OrderedDict": lambda: OrderedDict(status="success", State="Running"),
    "non-string keys": lambda: {1: "a", (2, 3): "b", None: "c"},
    "str subclass": lambda: LoudStr("success"),
    "str subclass list": lambda: [LoudStr("success"), LoudStr("success")],
    "cyclic list": cyclic_list,
    "cyclic dict": cyclic_dict,
    "shared parts": lambda: (lambda part: [part, part, {"a": part}])(["x"]),
    "tuple": lambda: ("success", "success"),
}


def json_like() -> st.SearchStrategy[Any]:
    """JSON-ish data with odd scalars mixed in."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=10**300, max_value=10**320),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(["success", "failed", "Running", "Stopped", "ACTIVE", ""]),
        st.text(max_size=5),
        st.decimals(allow_nan=True, allow_infinity=True),
        st.binary(max_size=4),
        st.datetimes(),
    )
    keys = st.sampled_from(["status", "State", "Table", "TableStatus", "groups", "x"])
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(keys, children, max_size=4),
            st.frozensets(st.sampled_from(["success", "x", 1]), max_size=3),
        ),
        max_leaves=20,
    )


def hostile() -> st.SearchStrategy[Any]:
    """A special value (built fresh) or generated JSON-ish data."""
    special = st.sampled_from(sorted(SPECIALS)).map(lambda name: SPECIALS[name]())
    return st.one_of(special, json_like())


# --- real acceptor sets --------------------------------------------------------


def generated_definitions() -> list[WaiterDefinition]:
    """Every definition in generated_examples/ (their paths are compiled functions)."""
    found: list[WaiterDefinition] = []
    sys.path.insert(0, str(GOLDEN))
    try:
        for package in ("spec_examples", "s3", "dynamodb", "dsql"):
            module = importlib.import_module(f"{package}.waiters")
            found.extend(
                value
                for value in vars(module).values()
                if isinstance(value, WaiterDefinition)
            )
    finally:
        sys.path.remove(str(GOLDEN))
    return found


def model_definitions() -> list[WaiterDefinition]:
    """The waiters of a few shared AWS models whose paths call functions and filter
    (none in a clone without ../shared: `test_the_shared_models_are_included` says so).
    """
    found: list[WaiterDefinition] = []
    if not has_shared("models", "api-models-aws"):
        return found
    for name in (
        "ecs-2014-11-13.json",
        "auto-scaling-2011-01-01.json",
        "cloudwatch-2010-08-01.json",
        "rds-2014-10-31.json",
    ):
        shapes = json.loads((AWS_MODELS / name).read_text())["shapes"]
        for shape_id, shape in sorted(shapes.items()):
            waiters = shape.get("traits", {}).get("smithy.waiters#waitable", {})
            for waiter, value in sorted(waiters.items()):
                operation = shape_id.rpartition("#")[2]
                found.append(WaiterDefinition.from_trait(waiter, operation, value))
    return found


def function_definition() -> WaiterDefinition:
    """One acceptor per built-in function that meets numbers, nesting or text."""
    paths = [
        "v == w",
        "contains(v, w)",
        "to_string(v)",
        "to_number(v)",
        "sum(v)",
        "avg(v)",
        "ceil(v)",
        "floor(v)",
        "abs(v)",
        "max(v)",
        "sort(v)",
        "length(v) > `0`",
        "v > `1`",
        "type(v)",
        "v[?@ == `1`] | length(@) == `0`",
        "join(',', v)",
        "keys(v)",
        "not_null(v)",
    ]
    acceptors = tuple(
        Acceptor(
            AcceptorState.RETRY,
            OutputMatcher(path, "x", Comparator.ANY_STRING_EQUALS),
        )
        for path in paths
    ) + (
        Acceptor(
            AcceptorState.FAILURE,
            OutputMatcher("v", "never", Comparator.STRING_EQUALS),
            message="to_string(v)",
        ),
    )
    return WaiterDefinition("Functions", "GetThing", acceptors)


def compiled(definition: WaiterDefinition) -> WaiterDefinition:
    """The definition with every path and message compiled by waitable_codegen."""

    def one(acceptor: Acceptor) -> Acceptor:
        matcher = acceptor.matcher
        if isinstance(matcher, OutputMatcher) or hasattr(matcher, "path"):
            matcher = replace(matcher, search=compile_path(matcher.path))  # type: ignore[arg-type]
        message = acceptor.message
        return replace(
            acceptor,
            matcher=matcher,
            message_search=compile_path(message) if message else None,
        )

    return replace(definition, acceptors=tuple(map(one, definition.acceptors)))


def interpreted(definition: WaiterDefinition) -> WaiterDefinition:
    """The definition with every path run by the `jmespath` package."""

    def one(acceptor: Acceptor) -> Acceptor:
        matcher = acceptor.matcher
        if hasattr(matcher, "path"):
            matcher = replace(matcher, search=None)  # type: ignore[arg-type]
        return replace(acceptor, matcher=matcher, message_search=None)

    return replace(definition, acceptors=tuple(map(one, definition.acceptors)))


BASE_DEFINITIONS = (
    [BUCKET_EXISTS, THING_EXISTS, GROUP_EXISTS, RESOURCE_RUNNING, function_definition()]
    + generated_definitions()
    + model_definitions()
)


def test_the_shared_models_are_included() -> None:
    shared_path("models", "api-models-aws")
    assert len(model_definitions()) > 10
    assert set(model_definitions()) <= set(BASE_DEFINITIONS)


DEFINITIONS = {
    f"{mode}:{d.operation}.{d.name}": convert(d)
    for d in BASE_DEFINITIONS
    for mode, convert in (("compiled", compiled), ("interpreted", interpreted))
}


def plant(reads: Reads, value: Any) -> Any:
    """An output holding `value` at every position `reads` names (and `value` itself
    where a path reads a position whole)."""
    if reads.whole or not reads.children:
        return value
    return {key: plant(node, value) for key, node in reads.children.items()}


def outputs_for(definition: WaiterDefinition, value: Any) -> Iterator[Any]:
    """Outputs putting `value` where this definition's paths look, and around them."""
    yield plant(definition.output_reads, value)
    yield value
    yield {"v": value, "w": value, "ResponseMetadata": value}
    yield [plant(definition.output_reads, value)]


def assert_documented(
    definition: WaiterDefinition, run: Callable[[], Verdict | None]
) -> Verdict | None:
    """The call ends in a verdict from this definition, or `WaiterEvaluationError`."""
    try:
        verdict = run()
    except WaiterEvaluationError as error:
        assert error.waiter == definition.name
        assert 0 <= error.acceptor_index < len(definition.acceptors)
        assert error.__cause__ is not None
        assert definition.name in str(error)
        raise
    if verdict is not None:
        assert isinstance(verdict, Verdict)
        assert verdict.state in set(AcceptorState)
        if verdict.acceptor_index is not None:
            acceptor = definition.acceptors[verdict.acceptor_index]
            assert acceptor.state is verdict.state
        assert verdict.reason is None or type(verdict.reason) is str
    return verdict


def one_acceptor(
    path: str, expected: str, comparator: Comparator, mode: str
) -> WaiterDefinition:
    matcher = OutputMatcher(
        path,
        expected,
        comparator,
        search=compile_path(path) if mode == "compiled" else None,
    )
    return WaiterDefinition(
        "Probe",
        "GetThing",
        (
            Acceptor(AcceptorState.SUCCESS, matcher),
            Acceptor(
                AcceptorState.FAILURE,
                OutputMatcher("status", "failed", Comparator.STRING_EQUALS),
            ),
        ),
    )


MODES = pytest.mark.parametrize("mode", ["compiled", "interpreted"])
NO_MATCH = Verdict(AcceptorState.RETRY, None)


# --- comparators -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SPECIALS))
@pytest.mark.parametrize("comparator", sorted(COMPARATORS))
def test_every_comparator_answers_a_bool_for_every_special_value(
    comparator: str, name: str
) -> None:
    value = SPECIALS[name]()
    for expected in ("success", "true", "false", "x"):
        assert COMPARATORS[comparator](value, expected) in (True, False)


@given(value=hostile(), expected=st.sampled_from(["success", "true", "x", ""]))
@settings(max_examples=150, deadline=None)
def test_every_comparator_answers_a_bool_for_hostile_data(
    value: Any, expected: str
) -> None:
    for comparison in COMPARATORS.values():
        assert comparison(value, expected) in (True, False)


@MODES
def test_a_str_subclass_is_compared_by_its_characters(mode: str) -> None:
    """Its own `__eq__` (always False here) decides nothing: stringEquals compares
    with `str.__eq__`, and the conversion hands array comparators plain strings."""
    assert COMPARATORS["stringEquals"](LoudStr("success"), "success")
    for comparator, value in [
        (Comparator.STRING_EQUALS, LoudStr("ok")),
        (Comparator.ANY_STRING_EQUALS, [1, LoudStr("ok")]),
        (Comparator.ALL_STRING_EQUALS, [LoudStr("ok"), "ok"]),
    ]:
        definition = one_acceptor("a", "ok", comparator, mode)
        assert match_output(definition, {"a": value}, {}).acceptor_index == 0
    definition = one_acceptor("a", "ok", Comparator.ALL_STRING_EQUALS, mode)
    assert match_output(definition, {"a": [LoudStr("ok"), "no"]}, {}) == NO_MATCH


# --- real acceptor sets ------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(DEFINITIONS))
def test_special_values_give_a_verdict_on_real_acceptor_sets(key: str) -> None:
    """No special value raises anything: none of them comes from a client's broken
    objects, so `WaiterEvaluationError` is not allowed here either."""
    definition = DEFINITIONS[key]
    for name, make in SPECIALS.items():
        for output in outputs_for(definition, make()):
            verdict = assert_documented(
                definition, lambda: match_output(definition, output, {"groups": output})
            )
            assert verdict is not None, name


@given(value=hostile(), key=st.sampled_from(sorted(DEFINITIONS)))
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
def test_hostile_data_gives_a_verdict_on_real_acceptor_sets(
    value: Any, key: str
) -> None:
    definition = DEFINITIONS[key]
    for output in outputs_for(definition, value):
        assert assert_documented(
            definition, lambda: match_output(definition, output, output)
        )
        error = ServiceError("Boom")
        error.response["Error"]["Detail"] = value  # type: ignore[index]
        assert_documented(definition, lambda: match_error(definition, error, "Boom"))


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_compiled_and_interpreted_agree_on_special_values(mode: str) -> None:
    """Both modes give the same verdict; the path functions are the only difference."""
    other = "interpreted" if mode == "compiled" else "compiled"
    for key in sorted(k for k in DEFINITIONS if k.startswith(mode)):
        twin = DEFINITIONS[other + key[len(mode) :]]
        for name, make in SPECIALS.items():
            output = plant(twin.output_reads, make())
            mine = match_output(DEFINITIONS[key], output, {})
            theirs = match_output(twin, output, {})
            assert (mine.state, mine.acceptor_index) == (
                theirs.state,
                theirs.acceptor_index,
            ), (key, name)


# --- each attack, both modes ---------------------------------------------------------


BOTH = ("compiled", "interpreted")
NEITHER: tuple[str, ...] = ()

# (path, value of `a`, the modes in which `path` is true). Where the answer can be
# computed (the ceiling of a huge int is itself) it is given; where it cannot, the
# acceptor does not match. `ceil(inf)` is inf compiled, an error interpreted.
ATTACKS = [
    ("a == b", lambda: nested_lists(DEPTH), NEITHER),
    ("a == b", lambda: nested_dicts(DEPTH), NEITHER),
    ("contains(a, b)", lambda: [nested_lists(DEPTH)], NEITHER),
    ("to_string(a) == 'x'", lambda: nested_lists(DEPTH), NEITHER),
    ("length(a) == `1`", lambda: nested_dicts(DEPTH), BOTH),
    ("a == b", cyclic_list, NEITHER),
    ("a == b", cyclic_dict, NEITHER),
    ("to_string(a) == 'x'", cyclic_dict, NEITHER),
    ("sum(a) > `0`", lambda: [10**400, 1.5], NEITHER),
    ("sum(a) > `0`", lambda: [10**400, 10**400], BOTH),
    ("avg(a) > `0`", lambda: [10**400, 10**400], NEITHER),
    ("ceil(a) > `0`", lambda: 10**400, BOTH),
    ("floor(a) == a", lambda: 10**5000, BOTH),
    ("ceil(a) > `0`", lambda: math.inf, ("compiled",)),
    ("floor(a) > `0`", lambda: math.nan, NEITHER),
    ("to_number(a) > `0`", lambda: "1" * 5000, BOTH),  # a double: inf
    ("to_number(a) > `0`", lambda: "1e999999", BOTH),
    ("to_string(a) == 'x'", lambda: 10**5000, NEITHER),
    ("abs(a) > `0`", lambda: decimal.Decimal("sNaN"), NEITHER),
    ("a > `1`", lambda: decimal.Decimal("1e999999"), BOTH),
    ("max(a) > `0`", lambda: [math.nan, 10**5000], NEITHER),
    ("length(sort(a)) == `3`", lambda: [math.nan, math.inf, -math.inf], BOTH),
    ("keys(a) == b", lambda: {10**5000: 1}, NEITHER),
    ("contains(a, `1`)", lambda: "abc", NEITHER),
]


@MODES
@pytest.mark.parametrize(
    ("path", "make", "true_in"),
    ATTACKS,
    ids=[f"{i}:{path}" for i, (path, _, _) in enumerate(ATTACKS)],
)
def test_each_attack_ends_in_its_documented_verdict(
    mode: str, path: str, make: Callable[[], Any], true_in: tuple[str, ...]
) -> None:
    """Acceptor 0 reads the hostile value: it matches where the answer can be
    computed and is true; otherwise it does not match and acceptor 1 decides."""
    definition = one_acceptor(path, "true", Comparator.BOOLEAN_EQUALS, mode)
    value = make()
    other = make()  # `b`: an equal value, but another object
    verdict = match_output(definition, {"a": value, "b": other, "status": "failed"}, {})
    expected = (
        (AcceptorState.SUCCESS, 0) if mode in true_in else (AcceptorState.FAILURE, 1)
    )
    assert (verdict.state, verdict.acceptor_index) == expected
    alone = match_output(definition, {"a": value, "b": other}, {})
    assert (alone.acceptor_index == 0) is (mode in true_in)


@MODES
def test_a_hostile_value_beside_the_path_does_not_stop_a_match(mode: str) -> None:
    definition = one_acceptor("status", "success", Comparator.STRING_EQUALS, mode)
    for name, make in SPECIALS.items():
        output = {"status": "success", "junk": make()}
        assert match_output(definition, output, {}).acceptor_index == 0, name


@MODES
def test_deep_plain_lists_are_walked_without_recursion(mode: str) -> None:
    """100,000 levels of plain lists: the check that the output needs no
    conversion goes level by level, so a path into it still matches."""
    definition = one_acceptor("a[0][0][0]", "x", Comparator.STRING_EQUALS, mode)
    assert match_output(definition, {"a": nested_lists(3)}, {}).acceptor_index == 0
    deep = one_acceptor("length(a) == `1`", "true", Comparator.BOOLEAN_EQUALS, mode)
    assert match_output(deep, {"a": nested_lists(DEPTH)}, {}).acceptor_index == 0


@MODES
def test_an_output_that_cannot_be_converted_only_stops_path_matchers(mode: str) -> None:
    """A cycle under a datetime (which must be converted) fails the conversion:
    path matchers do not match, a success matcher after them still does."""
    from waitable import SuccessMatcher

    cyclic: list[Any] = [datetime.datetime(2020, 1, 1)]
    cyclic.append(cyclic)
    path = OutputMatcher(
        "a",
        "x",
        Comparator.ANY_STRING_EQUALS,
        search=compile_path("a") if mode == "compiled" else None,
    )
    definition = WaiterDefinition(
        "Probe",
        "GetThing",
        (
            Acceptor(AcceptorState.FAILURE, path),
            Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True)),
        ),
    )
    verdict = match_output(definition, {"a": cyclic}, {})
    assert (verdict.state, verdict.acceptor_index) == (AcceptorState.SUCCESS, 1)


def test_a_failure_message_that_cannot_be_evaluated_gives_no_reason() -> None:
    definition = WaiterDefinition(
        "Probe",
        "GetThing",
        (
            Acceptor(
                AcceptorState.FAILURE,
                OutputMatcher("status", "failed", Comparator.STRING_EQUALS),
                message="to_string(detail)",
            ),
        ),
    )
    for detail in (nested_lists(DEPTH), cyclic_dict(), 10**5000):
        verdict = match_output(definition, {"status": "failed", "detail": detail}, {})
        assert verdict == Verdict(AcceptorState.FAILURE, 0, None)
    verdict = match_output(definition, {"status": "failed", "detail": [1.5]}, {})
    assert verdict.reason == "[1.5]"


# --- unexpected exceptions: the project's error ------------------------------------------


class BrokenMapping(dict):  # type: ignore[type-arg]
    """A client's mapping type whose lookups fail."""

    def get(self, key: Any, default: Any = None) -> Any:
        raise KeyError(f"broken {key}")


def walks_through(mode: str) -> WaiterDefinition:
    """One acceptor whose path only walks through `status` (so it is not converted)."""
    path = "status.name"
    matcher = OutputMatcher(
        path,
        "x",
        Comparator.STRING_EQUALS,
        search=compile_path(path) if mode == "compiled" else None,
    )
    return WaiterDefinition(
        "Probe", "GetThing", (Acceptor(AcceptorState.SUCCESS, matcher),)
    )


@MODES
def test_an_unexpected_exception_becomes_waiter_evaluation_error(mode: str) -> None:
    definition = walks_through(mode)
    output = {"status": BrokenMapping(name="x")}  # both modes read it with `.get`
    with pytest.raises(WaiterEvaluationError) as info:
        match_output(definition, output, {})
    error = info.value
    assert isinstance(error, WaiterError)
    assert (error.waiter, error.acceptor_index, error.cause_type) == (
        "Probe",
        0,
        "KeyError",
    )
    assert isinstance(error.__cause__, KeyError)
    assert "acceptor 0 (output path 'status.name' stringEquals 'x')" in str(error)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_wait_raises_waiter_evaluation_error_and_nothing_raw(driver: str) -> None:
    output = {"status": BrokenMapping()}
    definition = walks_through("compiled")
    run = DRIVERS[driver](definition, [output], max_wait_time=60)
    assert isinstance(run.error, WaiterEvaluationError)
    assert isinstance(run.error.__cause__, KeyError)


# --- whole waits on both drivers -------------------------------------------------------------


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("name", sorted(SPECIALS))
def test_a_hostile_poll_is_a_retry_and_the_wait_goes_on(
    driver: str, mode: str, name: str
) -> None:
    """ThingExists as generated: polls holding the hostile value (as the output, and
    as its status) are retries; the next "success" ends the wait. Three specials
    really say success: an OrderedDict and a cyclic dict whose `status` is
    "success", and a str subclass whose characters are "success"."""
    definition = DEFINITIONS[f"{mode}:GetThing.ThingExists"]
    steps = [SPECIALS[name](), {"status": SPECIALS[name]()}, {"status": "success"}]
    run = DRIVERS[driver](definition, steps, max_wait_time=600)
    assert run.error is None, run.error
    retry, success = AcceptorState.RETRY, AcceptorState.SUCCESS
    expected = {
        "OrderedDict": [success],
        "cyclic dict": [success],
        "str subclass": [retry, success],
    }.get(name, [retry, retry, success])
    assert states(run) == expected
