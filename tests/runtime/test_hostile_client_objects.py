"""What a client's misbehaving objects cannot make a wait do.

A client's errors and outputs are not trusted: an error whose `response`, `code`,
retry flags or `__class__` raise when read, and output parts whose `items()`,
iteration, `repr` or numeric methods raise, end in the documented errors or in a
saved wait as usual, never in a raw exception, on both drivers and through
`poll_once()` (found by review, 2026-11-27).
"""

from __future__ import annotations

import asyncio
import datetime
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterError
from waitable.custom import custom_waiter, error_type, path, retry, success
from waitable.error_codes import error_code, is_transport_error
from waitable.jsondata import to_json_data
from waitable.retry import StandardRetryStrategy
from waitable.retry.policy import StandardRetryPolicy
from waitable.testing import VirtualClock

Thing = custom_waiter(
    "Thing",
    acceptors=[success(path("status") == "ok"), retry(error_type("NotFound"))],
    min_delay=2,
    max_delay=120,
)


def _raise(*_: Any, **__: Any) -> Any:
    raise RuntimeError("a client's object that does not behave")


class _Raising:
    """A property that raises when read."""

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        raise RuntimeError("a client's attribute that raises")


class _BadMapping(dict[str, Any]):
    get = _raise
    items = _raise


class _Sly(str):
    """Text whose own methods raise: only its characters may be used."""

    rpartition = _raise
    isdigit = _raise
    isascii = _raise
    __eq__ = _raise
    __hash__ = str.__hash__


class _Fault:
    __eq__ = _raise
    __hash__ = object.__hash__


def _error(name: str, **attributes: Any) -> type[Exception]:
    return type(name, (Exception,), attributes)


ERRORS: dict[str, type[Exception]] = {
    "response raises": _error("ResponseRaises", response=_Raising()),
    "response.get raises": _error(
        "ResponseGetRaises", response=_BadMapping(Error={"Code": "X"})
    ),
    "code raises": _error("CodeRaises", code=_Raising()),
    "error_code raises": _error("ErrorCodeRaises", error_code=_Raising()),
    "code text with raising methods": _error(
        "SlyCode", response={"Error": {"Code": _Sly("NotFound")}}
    ),
    "is_throttling_error raises": _error(
        "ThrottlingRaises", is_throttling_error=_Raising()
    ),
    "is_timeout_error raises": _error("TimeoutRaises", is_timeout_error=_Raising()),
    "is_retry_safe raises": _error("RetrySafeRaises", is_retry_safe=_Raising()),
    "fault.__eq__ raises": _error("FaultRaises", is_retry_safe=True, fault=_Fault()),
    "fault raises": _error("FaultPropertyRaises", is_retry_safe=True, fault=_Raising()),
    "__class__ raises": _error("ClassRaises", __class__=_Raising()),
    "__cause__ raises": _error("CauseRaises", __cause__=_Raising()),
    "reason raises": _error("MaxRetryError", reason=_Raising()),
    "__str__ and __repr__ raise": _error("Mute", __str__=_raise, __repr__=_raise),
}


def _wait(driver: str, client_error: type[Exception], with_retry: bool) -> None:
    """One wait on `driver` against a client that always raises `client_error`."""
    clock = VirtualClock(0.0, wall_start=1_700_000_000.0)
    options: dict[str, Any] = {"clock": clock}
    if with_retry:
        options["retry"] = StandardRetryStrategy()

    def client(request: Any) -> Any:
        raise client_error()

    async def async_client(request: Any) -> Any:
        raise client_error()

    if driver == "sync":
        Thing(client, **options).wait({}, max_wait_time=60)
    elif driver == "async":
        asyncio.run(Thing.Async(async_client, **options).wait({}, max_wait_time=60))
    else:
        waiter = Thing(client, **options)
        step = waiter.poll_once(waiter.start({}, max_wait_time=60, seed=1))
        assert step.state is not None
        json.dumps(step.state.to_json())


@pytest.mark.parametrize("with_retry", [False, True], ids=["plain", "retry="])
@pytest.mark.parametrize("driver", ["sync", "async", "poll_once"])
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_a_misbehaving_error_ends_in_a_documented_error(
    name: str, driver: str, with_retry: bool
) -> None:
    try:
        _wait(driver, ERRORS[name], with_retry)
    except WaiterError as error:
        assert isinstance(str(error), str)
        json.dumps(error.to_data(), allow_nan=False)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_the_error_code_of_a_misbehaving_error_is_plain_text(name: str) -> None:
    error = ERRORS[name]()
    code = error_code(error)
    assert type(code) is str and code
    assert is_transport_error(error) in (True, False)
    assert StandardRetryPolicy().evaluate_error(error) is not None


def test_unreadable_codes_fall_back_to_the_class_name() -> None:
    assert error_code(ERRORS["response raises"]()) == "ResponseRaises"
    assert error_code(ERRORS["code raises"]()) == "CodeRaises"
    assert error_code(ERRORS["code text with raising methods"]()) == "NotFound"


# --- output parts nobody reads ----------------------------------------------------


class _Repr:
    __repr__ = _raise
    __hash__ = object.__hash__


class _Read:
    read = _Raising()


class _Items(dict[str, Any]):
    items = _raise


class _Iter(list[Any]):
    __iter__ = _raise


class _Len(list[Any]):
    __len__ = _raise


class _Int(int):
    __int__ = _raise
    __abs__ = _raise
    __repr__ = _raise
    __str__ = _raise


class _Float(float):
    __float__ = _raise
    __repr__ = _raise


class _Decimal(Decimal):
    is_finite = _raise


class _Date(datetime.date):
    isoformat = _raise


class _ClassProperty:
    __class__ = _Raising()  # type: ignore[assignment]


ODD: dict[str, Callable[[], Any]] = {
    "set of objects whose repr raises": lambda: {_Repr(), 1},
    "object whose read raises": _Read,
    "mapping whose items() raise": lambda: _Items(a=1),
    "list whose iteration raises": lambda: _Iter([1, 2]),
    "list whose len raises": lambda: _Len([1, 2]),
    "int whose methods raise": lambda: _Int(5),
    "dict keyed by such an int": lambda: {_Int(5): "x"},
    "float whose methods raise": lambda: _Float(1.5),
    "decimal whose is_finite raises": lambda: _Decimal("1.5"),
    "date whose isoformat raises": lambda: _Date(2020, 1, 1),
    "object whose __class__ raises": _ClassProperty,
}


@pytest.mark.parametrize("name", sorted(ODD))
def test_an_odd_part_beside_the_path_does_not_stop_poll_once(name: str) -> None:
    output = {"status": "pending", "extra": ODD[name]()}
    clock = VirtualClock(0.0, wall_start=1_700_000_000.0)
    waiter = Thing(lambda request: output, clock=clock)
    step = waiter.poll_once(waiter.start({}, max_wait_time=60, seed=1))
    assert step.state is not None and step.next_delay == 2.0
    json.dumps(step.state.to_json(), allow_nan=False)


@pytest.mark.parametrize("name", sorted(ODD))
def test_a_result_holding_an_odd_part_converts_to_data(name: str) -> None:
    output = {"status": "ok", "extra": ODD[name]()}
    result = Thing(lambda request: output, clock=VirtualClock()).wait(
        {}, max_wait_time=60
    )
    json.dumps(result.to_data(), allow_nan=False)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=JSON_VALUES)
def test_json_data_is_copied_as_it_is(value: Any) -> None:
    assert to_json_data(value) == value


ODD_LEAVES = st.sampled_from(
    sorted(name for name in ODD if "__class__" not in name)  # hypothesis reads it
).map(lambda name: ODD[name]())


@settings(max_examples=200, deadline=None)
@given(
    value=st.recursive(
        JSON_VALUES | ODD_LEAVES,
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.tuples(inner, inner),
        max_leaves=12,
    )
)
def test_any_mix_of_odd_parts_converts_to_json(value: Any) -> None:
    json.dumps(to_json_data(value), allow_nan=False)


@pytest.mark.parametrize(
    "number", [Decimal("1e400"), Decimal("-1e301"), Decimal("1e100000")]
)
def test_a_huge_decimal_in_an_output_is_saved_as_text_that_loads_back(
    number: Decimal,
) -> None:
    """An int of more than 1000 bits is no saved JSON (`first_loss`): a whole
    Decimal past 300 digits is written as its text instead."""
    from waitable import SavedWait

    output = {"status": "pending", "count": number}
    clock = VirtualClock(0.0, wall_start=1_700_000_000.0)
    waiter = Thing(lambda request: output, clock=clock)
    step = waiter.poll_once(waiter.start({}, max_wait_time=60, seed=1))
    assert step.state is not None
    saved = SavedWait.from_json(step.state.to_json())
    assert saved.last_output == {"status": "pending", "count": str(number)}
