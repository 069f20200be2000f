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

from .class_names import class_package
from .printable import printable
from .errors import WaiterConfigurationError

__all__ = [
    "AsyncClientError",
    "Invoker",
    "OperationCall",
    "awaitable_check",
    "bind_operation",
    "refuse_async",
    "refuse_awaitable",
    "refuse_blocking",
    "refuse_coroutine_function",
]


class AsyncClientError(WaiterConfigurationError, TypeError):
    """A synchronous waiter (or `retry`) was given an async client (or block); raised
    at once, naming what to use instead."""


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
        _refuse_client_method(client, waiter)
        return client
    raise WaiterConfigurationError(
        f"waiter {waiter} needs a client with a `{operation_method}` method (a boto3 or "
        f"aiobotocore client of the service) or a callable taking the input; got "
        f"{type(client).__name__}{_unentered_hint(client)}{_resource_hint(client)}"
    )


def _refuse_client_method(call: object, waiter: str) -> None:
    """Refuse a botocore client's bound method (boto3's or aiobotocore's
    `client.describe_table`) given in place of the client: it takes keyword
    arguments only, so calling it with the input mapping would raise a
    `TypeError` at the first poll, which the wait would report as the service's
    answer (an error no acceptor matches)."""
    if not inspect.ismethod(call) or not _is_botocore_client(call.__self__):
        return
    name = printable(str(getattr(call, "__name__", "")))
    raise WaiterConfigurationError(
        f"waiter {waiter}: got the client's method {name}(), which takes keyword "
        "arguments only, not the input mapping; pass the client itself (the waiter "
        "calls the operation's method on it), or a function taking the input"
    )


def _is_botocore_client(client: object) -> bool:
    """Whether `client` is a botocore client (boto3's; aiobotocore's subclass too)."""
    try:
        classes = type(client).__mro__
    except Exception:  # a metaclass whose look-ups raise: not known to be one
        return False
    return any(
        klass.__name__ == "BaseClient" and class_package(klass) == "botocore"
        for klass in classes
    )


#: The module of boto3's resource base class.
_BOTO3_RESOURCE = "boto3.resources.base"


def _resource_hint(client: object) -> str:
    """Advice for a boto3 resource (`boto3.resource("dynamodb")`, a `Table`) given in
    place of a client: pass the client it holds. Empty for anything else."""
    try:
        resource = any(
            klass.__name__ == "ServiceResource" and klass.__module__ == _BOTO3_RESOURCE
            for klass in type(client).__mro__
        )
    except Exception:  # a metaclass whose look-ups raise: no advice to give
        return ""
    return (
        ", a boto3 resource: pass its client, `resource.meta.client`"
        if resource
        else ""
    )


def _unentered_hint(client: object) -> str:
    """Advice for aiobotocore's `session.create_client(...)` given without `async
    with`: an async context manager that makes the client; pass what `async with`
    gives. Empty for anything else (an async HTTP client is a client itself, and
    so is aiobotocore's own, an async context manager too: one of another
    service, without the operation's method, was told to enter it)."""
    kind = type(client)
    try:
        unentered = (
            class_package(kind) == "aiobotocore"
            and hasattr(kind, "__aenter__")
            and not _is_botocore_client(client)
        )
    except Exception:  # a metaclass whose look-ups raise: no advice to give
        return ""
    return (
        ", an async context manager: pass the client it gives, "
        "`async with session.create_client(...) as client`"
        if unentered
        else ""
    )


def _sync_advice(sync_class: str | None) -> str:
    """What to use with a synchronous client instead: `sync_class` when the async
    waiter knows its synchronous twin, else the class in general."""
    return "the synchronous waiter class" if sync_class is None else sync_class


def refuse_blocking(
    client: object, operation_method: str, waiter: str, sync_class: str | None = None
) -> None:
    """Refuse a botocore (boto3) client for an async waiter, before any request: its
    calls block the event loop, and one that raises is judged as a failed poll
    before the result could show it is not awaitable. The refusal names
    `sync_class`, the synchronous twin, when it is known."""
    if not operation_method or _async_context_manager_only(client):
        return  # a callable, or aiobotocore's client (a botocore subclass)
    if _is_botocore_client(client):
        raise WaiterConfigurationError(
            f"waiter {waiter}: an async waiter needs an async client (aiobotocore, or "
            f"a coroutine function), but got a boto3 client, whose calls would block "
            f"the event loop; use {_sync_advice(sync_class)} with it"
        )


def awaitable_check(
    waiter: str, refusal: str | None = None, sync_class: str | None = None
) -> Callable[[Any], Awaitable[Any]]:
    """What an async waiter applies to a call's result that is not a coroutine: the
    result if it is awaitable, else a clear error (not a failed poll) naming
    `sync_class`, the waiter's synchronous twin, when it is known. `refusal`
    words that error for a caller that is not a waiter (`retry_async`), with
    `{returned}` for the name of the type the call returned."""
    advice = _sync_advice(sync_class)

    def checked(pending: Any) -> Awaitable[Any]:
        if not inspect.isawaitable(pending):
            returned = type(pending).__name__
            raise WaiterConfigurationError(
                f"waiter {waiter}: an async waiter needs an async client (aiobotocore, or "
                f"a coroutine function), but the call returned {returned}; "
                f"use {advice} for a synchronous client"
                if refusal is None
                else refusal.format(returned=returned)
            )
        awaitable: Awaitable[Any] = pending
        return awaitable

    return checked


def _async_class(waiter_class: str) -> str:
    return waiter_class if waiter_class.startswith("Async") else f"Async{waiter_class}"


def _async_context_manager_only(client: object) -> bool:
    """Whether the client's class is entered with `async with` and not with `with`:
    an async client whose methods need not be coroutine functions (aiobotocore's)."""
    kind = type(client)
    try:
        return hasattr(kind, "__aenter__") and not hasattr(kind, "__enter__")
    except Exception:  # a metaclass whose look-ups raise: not known to be async
        return False


def refuse_async(
    call: OperationCall,
    client: object,
    operation_method: str,
    waiter_class: str,
    async_class: str | None = None,
) -> OperationCall:
    """`call`, checked to be synchronous: an async client fails now, not at the deadline.

    A coroutine function is refused at construction, and so is a client that is an
    async context manager only (aiobotocore's, httpx's `AsyncClient`: its methods
    are plain functions returning coroutines); a call that still returns an
    awaitable (an object whose `__call__` is async) is refused on the first poll.
    The refusal names `async_class` to use instead; by default the generated
    twin, `Async{waiter_class}` (a custom waiter's is `{waiter_class}.Async`).
    """
    method = getattr(client, operation_method, None) if operation_method else None
    target = method if callable(method) else client
    twin = _async_class(waiter_class) if async_class is None else async_class
    advice = (
        f"{waiter_class} is synchronous but the client's call is async; use "
        f"{twin} (await its wait()) with an async client"
    )
    refuse_coroutine_function(target, advice)
    if operation_method and _async_context_manager_only(client):
        raise AsyncClientError(advice)

    def checked(input: Any) -> Any:
        return refuse_awaitable(call(input), advice)

    return checked


def refuse_coroutine_function(target: object, advice: str) -> None:
    """Refuse `target` for a synchronous caller before it is called: a coroutine
    function, or an object whose `__call__` is one (`AsyncClientError(advice)`)."""
    if inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(
        getattr(target, "__call__", None)
    ):
        raise AsyncClientError(advice)


def refuse_awaitable(result: Any, advice: str) -> Any:
    """`result` of a synchronous call, unless it is awaitable: then it is closed (no
    "never awaited" warning) and refused with `AsyncClientError(advice)`."""
    if inspect.isawaitable(result):
        close = getattr(result, "close", None)
        if callable(close):
            close()
        raise AsyncClientError(advice)
    return result
