"""How a waiter calls its client: the operation invoker seam.

The default binding takes a boto3-style client (its method `operation_method`
is called with the input mapping as keyword arguments) or a plain callable that
takes the input itself. Client adapters (`waitable.adapters`) pass their own
`invoker` to a waiter to call other kinds of client.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeAlias

from .errors import WaiterConfigurationError

__all__ = ["Invoker", "OperationCall", "bind_operation", "awaiting"]

OperationCall: TypeAlias = Callable[[Any], Any]
Invoker: TypeAlias = Callable[[object, str, str], OperationCall]


def bind_operation(client: object, operation_method: str, waiter: str) -> OperationCall:
    """`call(input)` for `client`: its method `operation_method`, or the client itself."""
    method = getattr(client, operation_method, None) if operation_method else None
    if callable(method):

        def call(input: Any) -> Any:
            if not isinstance(input, Mapping):
                raise WaiterConfigurationError(
                    f"waiter {waiter}: the input for {operation_method}() must be a mapping "
                    f"of its parameters, got {type(input).__name__}"
                )
            return method(**input)

        return call
    if callable(client):
        return client
    raise WaiterConfigurationError(
        f"waiter {waiter} needs a client with a `{operation_method}` method (a boto3 "
        f"client of the service) or a callable taking the input; got {type(client).__name__}"
    )


def awaiting(call: OperationCall, waiter: str) -> Callable[[Any], Awaitable[Any]]:
    """Wrap `call` so that a non-awaitable result is a clear error, not a failed poll."""

    async def call_async(input: Any) -> Any:
        pending = call(input)
        if not inspect.isawaitable(pending):
            raise WaiterConfigurationError(
                f"waiter {waiter}: an async waiter needs an async client (aiobotocore, or "
                f"a coroutine function), but the call returned {type(pending).__name__}; "
                "use the synchronous waiter class for a synchronous client"
            )
        return await pending

    return call_async
