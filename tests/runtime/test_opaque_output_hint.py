"""A wait whose operation returns an object JMESPath cannot look into (an HTTP
response, say) says so when it runs out, instead of only "last state retry":
every path read null on it, so no acceptor could ever match."""

from __future__ import annotations

import dataclasses
import datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import WaiterMaxAttemptsError, WaiterTimeoutError
from waitable.custom import custom_waiter, path, retry, success
from waitable.datamodel import opaque_to_paths
from waitable.testing import VirtualClock


class Response:
    """An HTTP library's response: the data is behind `.json()`."""

    status_code = 200

    def json(self) -> dict[str, Any]:
        return {"result": "SUCCESS"}


@dataclasses.dataclass
class Build:
    result: str | None


BuildDone = custom_waiter(
    "BuildDone",
    acceptors=[success(path("result") == "SUCCESS")],
    min_delay=1,
    max_delay=1,
)


def _error(output: Any, **limits: Any) -> Exception:
    with pytest.raises((WaiterTimeoutError, WaiterMaxAttemptsError)) as caught:
        BuildDone(lambda: output, clock=VirtualClock()).wait(**limits)
    return caught.value


@pytest.mark.parametrize(
    "limits", [{"max_wait_time": 5}, {"max_wait_time": 60, "max_attempts": 3}]
)
def test_running_out_on_an_opaque_output_names_it_and_what_to_return(
    limits: dict[str, Any],
) -> None:
    message = str(_error(Response(), **limits))
    assert (
        "the operation returned a Response, an object JMESPath cannot look into"
        in message
    )
    assert message.endswith("e.g. response.json())")


@pytest.mark.parametrize(
    "output", [{"result": "RUNNING"}, Build("RUNNING"), None, ["RUNNING"], "RUNNING"]
)
def test_data_paths_can_read_gets_no_hint(output: Any) -> None:
    assert "JMESPath cannot look into" not in str(_error(output, max_wait_time=5))


def test_a_waiter_without_paths_gets_no_hint() -> None:
    """Its predicates read the object themselves."""
    waiter = custom_waiter(
        "Predicates",
        acceptors=[
            success(lambda body: body.status_code == 204),
            retry(lambda body: True),
        ],
        min_delay=1,
        max_delay=1,
    )
    with pytest.raises(WaiterTimeoutError) as caught:
        waiter(lambda: Response(), clock=VirtualClock()).wait(max_wait_time=5)
    assert "JMESPath cannot look into" not in str(caught.value)


json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)


@given(json_data)
def test_json_data_is_never_opaque(value: Any) -> None:
    assert not opaque_to_paths(value)


@pytest.mark.parametrize(
    "value",
    [
        (1, 2),
        frozenset({1}),
        b"x",
        Decimal("1.5"),
        datetime.datetime(2026, 1, 1),
        Build(None),
    ],
)
def test_values_to_jmespath_converts_are_not_opaque(value: Any) -> None:
    assert not opaque_to_paths(value)


@pytest.mark.parametrize("value", [Response(), object(), Build])
def test_objects_and_classes_are_opaque(value: Any) -> None:
    assert opaque_to_paths(value)
