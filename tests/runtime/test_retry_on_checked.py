"""`retry_on` is one tuple of exception classes everywhere, checked by one rule:
a custom waiter's is refused when its class is built (it was accepted then and
refused at every construction), and every refusal shows the tuple to pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from waitable import Poller, WaiterConfigurationError
from waitable.custom import custom_waiter, custom_waiter_from_trait, success

from .harness import THING_EXISTS, waiter_class

TRAIT = {
    "Build": {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "done",
                        "expected": "true",
                        "comparator": "booleanEquals",
                    }
                },
            }
        ]
    }
}


@pytest.mark.parametrize(
    "given, shown",
    [
        ([OSError], "retry_on=(OSError,)"),
        ({KeyError, KeyError}, "retry_on=(KeyError,)"),
        (ValueError, "retry_on=(ValueError,)"),
        ("OSError", "retry_on=(OSError,)"),
        ((OSError, "x"), "retry_on=(OSError,)"),
        ((int,), "retry_on=(OSError,)"),
        ((ValueError, "KeyError"), "retry_on=(ValueError,)"),
        ([], "retry_on=()"),
        (set(), "retry_on=()"),
    ],
)
def test_a_custom_waiter_refuses_retry_on_when_its_class_is_built(
    given: Any, shown: str, tmp_path: Path
) -> None:
    with pytest.raises(WaiterConfigurationError, match="custom waiter 'J'") as caught:
        custom_waiter("J", acceptors=[success(True)], retry_on=given)
    assert "retry_on must be a tuple of exception types" in str(caught.value)
    assert shown in str(caught.value)
    document = tmp_path / "waiters.json"
    document.write_text(json.dumps(TRAIT))
    with pytest.raises(WaiterConfigurationError, match=f"Build'.*{shown[:9]}"):
        custom_waiter_from_trait("Build", document, retry_on=given)


def test_the_waiter_and_the_poller_refuse_with_the_same_rule() -> None:
    with pytest.raises(WaiterConfigurationError, match=r"retry_on=\(OSError,\)"):
        waiter_class(THING_EXISTS)(lambda input: {}, retry_on=[OSError])
    with pytest.raises(WaiterConfigurationError, match=r"poller p: .*\(ValueError,\)"):
        Poller(lambda: True, name="p", retry_on=ValueError)


def test_a_tuple_of_exception_classes_is_kept_as_given() -> None:
    kinds = (OSError, KeyError)
    built = custom_waiter("J", acceptors=[success(True)], retry_on=kinds)
    assert built.default_retry_on is kinds
    assert Poller(lambda: True, retry_on=()).retry_on == ()
