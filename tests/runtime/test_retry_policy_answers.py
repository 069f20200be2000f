"""A retry policy's answer is one of seed 001's three directives, or a clear error.

An answer that is no directive (None from a hook that forgot to return, True
meant as "retry", a string, the class `TerminateAndSucceed` for an instance)
was read as "do not retry": the call ended with
an error saying the policy called the outcome final. A `RetryError` whose
reason is no `RetryErrorType` raised a bare `ValueError` from the token
bucket. Both now end the call with a `WaiterConfigurationError` naming the
answer, after the one try, its retry token resolved. All on the virtual clock.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import WaiterConfigurationError
from waitable.retry import (
    RetryError,
    RetryErrorType,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
    TerminateAndFail,
    TerminateAndSucceed,
)
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, ServiceError, waiter_class

NOT_DIRECTIVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=10),
    st.builds(RetryError, st.one_of(st.none(), st.text(max_size=10), st.integers())),
    # The classes, as a port of seed 001's Kotlin `object`s may return them.
    st.sampled_from([TerminateAndSucceed, TerminateAndFail, RetryError]),
).filter(
    lambda answer: not (
        isinstance(answer, RetryError)
        and answer.reason in {kind.value for kind in RetryErrorType}
    )
)


class Answering:
    """A policy that answers `answer` for every outcome."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def evaluate(self, outcome: Any) -> Any:
        return self.answer


@given(NOT_DIRECTIVES, st.booleans())
def test_an_answer_that_is_no_directive_is_refused_after_one_try(
    answer: Any, raises: bool
) -> None:
    bucket = StandardRetryTokenBucket(capacity=10, success_increment=0)
    strategy = StandardRetryStrategy(token_bucket=bucket, clock=VirtualClock())
    tries = []

    def block() -> str:
        tries.append(1)
        if raises:
            raise TimeoutError("the connection timed out")
        return "done"

    with pytest.raises(
        WaiterConfigurationError, match="must answer TerminateAndSucceed"
    ):
        strategy.retry(Answering(answer), block)
    assert tries == [1]
    assert bucket.tokens(0.0) == 10  # nothing paid, the token resolved


def test_a_hook_answering_true_is_refused_in_a_waiters_retries() -> None:
    clock = VirtualClock()
    script = Script(clock, [ServiceError("Busy"), {"status": "success"}])
    policy = StandardRetryPolicy(other=lambda error: True)  # type: ignore[arg-type,return-value]
    retry = StandardRetryStrategy(policy=policy, clock=clock)
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, retry=retry)
    with pytest.raises(WaiterConfigurationError, match="answered True for Raised"):
        waiter.wait({}, max_wait_time=60)
    assert len(script.calls) == 1


@pytest.mark.parametrize("reason", [RetryErrorType.THROTTLING, "Throttling"])
def test_a_retry_error_by_type_or_by_its_spec_name_is_retried(reason: Any) -> None:
    tries = []

    class Policy:
        def evaluate(self, outcome: Any) -> Any:
            return TerminateAndSucceed() if len(tries) == 2 else RetryError(reason)

    def block() -> str:
        tries.append(1)
        return "done"

    strategy = StandardRetryStrategy(clock=VirtualClock())
    assert strategy.retry(Policy(), block) == "done"
    assert len(tries) == 2


def test_retry_names_itself_not_a_waiter_in_the_refusal() -> None:
    """`strategy.retry(policy, block)` has no waiter: the refusal said "waiter
    retry: the retry policy ...", the engine's name for the call."""
    strategy = StandardRetryStrategy(clock=VirtualClock())

    def block() -> str:
        raise TimeoutError("the connection timed out")

    with pytest.raises(WaiterConfigurationError) as refused:
        strategy.retry(Answering(None), block)
    message = str(refused.value)
    assert message.startswith("StandardRetryStrategy.retry: the retry policy ")
    assert "waiter" not in message
