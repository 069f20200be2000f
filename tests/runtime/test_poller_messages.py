"""A poller's and `receive_next`'s option errors name the poller (or `receive_next`),
not a waiter, and stay short for an int of hundreds of digits.

`Poller(check, timeout=0)` said "waiter check: timeout must be ...", and
`receive_next(queue, timeout=-1)` "waiter receive_next: ...", though neither is a
waiter; `delay=10**400` was printed whole.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from waitable import WaiterConfigurationError, receive_next
from waitable.poller import Poller


def ready() -> bool:
    return True


@pytest.mark.parametrize(
    "options",
    [
        {"timeout": 0},
        {"timeout": float("nan")},
        {"timeout": 10**400},
        {"max_attempts": 0},
        {"max_attempts": 2.5},
        {"delay": -1},
        {"delay": 10**400},
        {"retry_on": [KeyError]},
    ],
)
def test_a_pollers_bad_option_names_the_poller(options: dict[str, Any]) -> None:
    with pytest.raises(WaiterConfigurationError) as caught:
        Poller(ready, **options)
    message = str(caught.value)
    assert message.startswith("poller ready: "), message
    assert len(message) < 400, message


@pytest.mark.parametrize("timeout", [-1, float("inf"), "1"])
def test_receive_nexts_bad_timeout_names_receive_next(timeout: Any) -> None:
    async def receive() -> None:
        await receive_next(asyncio.Queue(), timeout=timeout)

    with pytest.raises(WaiterConfigurationError) as caught:
        asyncio.run(receive())
    assert str(caught.value).startswith("receive_next: timeout "), str(caught.value)
