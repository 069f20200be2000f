"""Review: the adapter's reading of smithy-core's unmodeled `CallError`.

smithy-core is not installed on every Python the suite runs on, so these stand-ins
copy its `SmithyError` / `CallError` as smithy-core 0.x defines them (the adapter
recognises the classes by name), with the messages smithy-aws-core writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pytest

from waitable.adapters.smithy_errors import SmithyPythonUnmodeledError, client_error
from waitable.error_codes import error_code
from waitable.retry import StandardRetryPolicy
from waitable.retry.directives import RetryError, RetryErrorType


class SmithyError(Exception):
    """smithy_core.exceptions.SmithyError."""


@dataclass(kw_only=True)
class CallError(SmithyError):
    """smithy_core.exceptions.CallError: the retry information an error carries."""

    fault: Literal["client", "server"] | None = None
    message: str = field(default="", kw_only=False)
    is_retry_safe: bool | None = None
    retry_after: float | None = None
    is_throttling_error: bool = False
    is_timeout_error: bool = False

    def __post_init__(self) -> None:
        super().__init__(self.message)


def unknown(status: int, **retry_info: object) -> CallError:
    """The `CallError` smithy-aws-core's JSON protocols raise for an unmodeled status."""
    return CallError(
        message=f"Unknown error for operation com.amazonaws.x#GetThing - status: {status}",
        **retry_info,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (
            unknown(429, fault="client", is_throttling_error=True, is_retry_safe=True),
            RetryErrorType.THROTTLING,
        ),
        (
            unknown(408, fault="client", is_timeout_error=True, is_retry_safe=True),
            RetryErrorType.TIMEOUT,
        ),
    ],
    ids=["429-throttling", "408-timeout"],
)
def test_the_unmodeled_error_keeps_the_retry_information_of_the_client_error(
    error: CallError, reason: RetryErrorType
) -> None:
    # The client's own error is retried as `reason`; what the adapter raises in its
    # place must be too (else retry= stops retrying a throttled smithy-python call).
    assert StandardRetryPolicy().evaluate_error(error) == RetryError(reason)
    replacement = client_error(error)
    assert isinstance(replacement, SmithyPythonUnmodeledError)
    assert StandardRetryPolicy().evaluate_error(replacement) == RetryError(reason)
    assert replacement.fault == "client"  # type: ignore[attr-defined]


def test_an_unflagged_unmodeled_error_is_still_not_retried() -> None:
    replacement = client_error(unknown(400, fault="client"))
    assert isinstance(replacement, SmithyPythonUnmodeledError)
    assert StandardRetryPolicy().evaluate_error(replacement) != RetryError(
        RetryErrorType.CLIENT_SIDE
    )
    assert replacement.is_retry_safe is None  # type: ignore[attr-defined]


def test_an_aws_query_error_is_named_by_the_code_in_its_message() -> None:
    # smithy-aws-core's awsQuery protocol writes `- status: N, code: C` (a comma,
    # where restXml writes ` - code: C`).
    message = (
        "Unknown error for operation com.amazonaws.iam#GetInstanceProfile"
        " - status: 404, code: NoSuchEntity"
    )
    replacement = client_error(CallError(message=message, fault="client"))
    assert isinstance(replacement, SmithyPythonUnmodeledError)
    assert replacement.code == "NoSuchEntity"
    assert error_code(replacement) == "NoSuchEntity"


def test_an_aws_query_error_code_is_read_only_right_after_the_status() -> None:
    message = (
        "Unknown error for operation a.b#Op - status: 500 - reason: x, code: Injected"
    )
    replacement = client_error(CallError(message=message))
    assert isinstance(replacement, SmithyPythonUnmodeledError)
    assert replacement.code == "500"
