"""Wrong arguments to a definition built at run time are `WaiterDefinitionError`s or
`WaiterConfigurationError`s that say what to pass, raised before any request:
never a `TypeError`/`AttributeError` from deep inside, nor an error after a poll.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import (
    FixedDelay,
    SmithyBackoff,
    WaiterConfig,
    WaiterConfigurationError,
    WaiterDefinitionError,
)
from waitable.custom import (
    custom_waiter,
    custom_waiter_from_trait,
    failure,
    input_output_path,
    path,
    success,
)
from waitable.testing import VirtualClock

TRAIT = {"acceptors": [{"state": "success", "matcher": {"success": True}}]}

not_text = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
    st.binary(max_size=3),
)


@given(name=not_text)
def test_a_name_that_is_not_text_is_a_definition_error(name: Any) -> None:
    with pytest.raises(WaiterDefinitionError, match="name must be a non-empty string"):
        custom_waiter(name, acceptors=[success(True)])
    with pytest.raises(WaiterDefinitionError, match="name must be a non-empty string"):
        custom_waiter_from_trait(name, TRAIT)


def test_an_empty_name_is_a_definition_error() -> None:
    with pytest.raises(WaiterDefinitionError, match="name must be a non-empty string"):
        custom_waiter("", acceptors=[success(True)])


@given(message=not_text.filter(lambda value: value is not None))
def test_a_message_that_is_not_text_is_a_definition_error(message: Any) -> None:
    with pytest.raises(WaiterDefinitionError, match="message"):
        failure(True, message=message)


@given(expression=not_text)
def test_a_path_that_is_not_text_is_a_definition_error(expression: Any) -> None:
    for make in (path, input_output_path):
        with pytest.raises(WaiterDefinitionError, match="JMESPath expression"):
            success(make(expression) == "DONE")


# A backoff class where an instance is meant (`FixedDelay` for `FixedDelay()`) is
# callable, so it passed as a strategy; its "delay" (an instance) was refused only
# after the first request. README: a configuration error comes before any request.

Build = custom_waiter("Build", acceptors=[success(path("s") == "done")])


class Client:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, str]:
        self.calls += 1
        return {"s": "pending"}


@pytest.mark.parametrize("strategy", [FixedDelay, SmithyBackoff])
def test_a_backoff_class_is_refused_before_any_request(strategy: Any) -> None:
    client = Client()
    with pytest.raises(WaiterConfigurationError, match=r"an instance.*\(\)"):
        Build(client, clock=VirtualClock(), backoff=strategy)
    with pytest.raises(WaiterConfigurationError, match=r"an instance.*\(\)"):
        WaiterConfig(backoff=strategy)
    with pytest.raises(WaiterConfigurationError, match=r"an instance.*\(\)"):
        custom_waiter("Built", acceptors=[success(True)], backoff=strategy)
    waiter = Build(client, clock=VirtualClock())
    with pytest.raises(WaiterConfigurationError, match=r"an instance.*\(\)"):
        waiter.wait(max_wait_time=60, backoff=strategy)
    assert client.calls == 0


class OwnStrategy:
    """A strategy class of the caller's own: its instances are strategies."""

    def __call__(self, retry: Any) -> float:
        return 1.0


@pytest.mark.parametrize("not_a_strategy", [dict, int, str, Exception, object])
def test_a_class_that_is_no_strategy_is_not_told_to_be_instantiated(
    not_a_strategy: type,
) -> None:
    """Review s23, finding 7: `backoff=dict` advised "pass an instance: dict()",
    which is no strategy either. Only a class whose instances are strategies
    (a callable class: FixedDelay, a caller's own) gets that advice."""
    name = not_a_strategy.__name__
    calls: list[Any] = [
        lambda: Build(Client(), clock=VirtualClock(), backoff=not_a_strategy),
        lambda: WaiterConfig(backoff=not_a_strategy),
        lambda: custom_waiter(
            "Built", acceptors=[success(True)], backoff=not_a_strategy
        ),
        lambda: Build(Client(), clock=VirtualClock()).wait(
            max_wait_time=60, backoff=not_a_strategy
        ),
    ]
    for call in calls:
        with pytest.raises(WaiterConfigurationError) as raised:
            call()
        text = str(raised.value)
        assert "an instance" not in text and f"{name}()" not in text, text
        assert f"the class {name}, which is not a backoff strategy" in text, text
        assert "waitable.SmithyBackoff()" in text, text
    with pytest.raises(
        WaiterConfigurationError, match=r"pass an instance: OwnStrategy\(\)"
    ):
        WaiterConfig(backoff=OwnStrategy)
    with pytest.raises(
        WaiterConfigurationError, match=r"pass an instance: OwnStrategy\(\)"
    ):
        Build(Client(), clock=VirtualClock(), backoff=OwnStrategy)
