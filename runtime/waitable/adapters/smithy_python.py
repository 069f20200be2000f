"""Let generated waiters call smithy-python clients, with paths still in the model's names.

A smithy-python client is async, names its methods and attributes in
snake_case, takes one input dataclass per operation and returns an output
dataclass; modeled errors are exception classes named after the error shapes
(which the runtime's error-code resolution already reads by class name).
Transport failures and unmodeled errors, which such a client wraps in
smithy-core's own classes, are re-raised as `smithy_errors` describes.

`SmithyPythonOperation` wraps one operation as the plain async callable a
waiter accepts: it builds the input dataclass from the waiter's input (keyed by
the model's member names), awaits the client, and turns the output dataclass
into dicts keyed by the model's member names. Names are mapped back structure
by structure from the output TypedDict a generated waiter declares; failing
that, from the names the waiter's paths select plus any the caller adds with
`member_names=` (other attributes then keep their Python name).

`smithy_python_waiter(AsyncXWaiter, client, ...)` does all of it for a
generated asyncio waiter class.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

import jmespath

from ..definition import InputOutputMatcher, OutputMatcher, WaiterDefinition
from ..errors import WaiterConfigurationError
from ..waiter import AsyncWaiter
from .naming import NameClash, member_names_by_python_name, python_member_name
from .shapes import ShapeConversionError, to_dataclass, to_member_dict
from .smithy_errors import client_error

__all__ = [
    "SmithyPythonAdapterError",
    "SmithyPythonOperation",
    "path_member_names",
    "smithy_python_waiter",
]

W = TypeVar("W", bound=AsyncWaiter[Any, Any])


class SmithyPythonAdapterError(TypeError):
    """A client or input type that cannot serve a waiter's operation."""


def path_member_names(definition: WaiterDefinition) -> frozenset[str]:
    """Every member name the waiter's paths and failure messages select."""
    names: set[str] = set()
    for acceptor in definition.acceptors:
        expressions = [acceptor.message] if acceptor.message else []
        if isinstance(acceptor.matcher, (OutputMatcher, InputOutputMatcher)):
            expressions.append(acceptor.matcher.path)
        for expression in expressions:
            names.update(_fields(jmespath.compile(expression).parsed))
    return frozenset(names)


def _fields(node: Mapping[str, Any]) -> Iterator[str]:
    """The identifiers a parsed JMESPath expression selects (its `field` nodes)."""
    if node.get("type") == "field":
        yield node["value"]
    for child in node.get("children", ()):
        if isinstance(child, Mapping):
            yield from _fields(child)


class SmithyPythonOperation:
    """One operation of a smithy-python client, as an async `input -> output` callable."""

    def __init__(
        self,
        client: object,
        definition: WaiterDefinition,
        *,
        input_type: type | None = None,
        output_shape: Any = None,
        member_names: Iterable[str] = (),
    ) -> None:
        operation = definition.operation.rpartition("#")[2]
        self.waiter = definition.name
        self.method_name = python_member_name(operation)
        method = getattr(client, self.method_name, None)
        if not callable(method):
            raise SmithyPythonAdapterError(
                f"waiter {definition.name}: {type(client).__name__} has no method "
                f"{self.method_name!r} for operation {operation}; pass the service's "
                "smithy-python client"
            )
        self._method: Callable[[Any], Awaitable[Any]] = method
        self.input_type = input_type or _input_type(method, definition.name)
        names = sorted(path_member_names(definition) | set(member_names))
        try:
            # With the output's TypedDict, these names are only a fallback.
            self.member_names = member_names_by_python_name(
                names, strict=output_shape is None
            )
        except NameClash as clash:
            raise SmithyPythonAdapterError(
                f"waiter {definition.name}: {clash}; use the generated waiter class "
                "through smithy_python_waiter(), whose output TypedDicts say it"
            ) from None
        self.output_shape = output_shape

    async def __call__(self, input: Mapping[str, Any]) -> Any:
        """Call the operation with `input` (model names) and return its output (model names).

        An input that does not fit the input dataclass raises
        `WaiterConfigurationError`, which ends the wait before any request. A
        transport failure or an unmodeled error the client wraps is raised as
        `waitable.adapters.smithy_errors` says, the client's exception chained.
        """
        try:
            request: Any = to_dataclass(self.input_type, input)
        except ShapeConversionError as error:
            raise WaiterConfigurationError(f"waiter {self.waiter}: {error}") from None
        try:
            output = await self._method(request)
        except Exception as error:
            replacement = client_error(error)
            if replacement is None:
                raise
            raise replacement from error
        return to_member_dict(output, self.member_names, self.output_shape)


def smithy_python_waiter(
    waiter_class: type[W],
    client: object,
    *,
    input_type: type | None = None,
    member_names: Iterable[str] = (),
    **waiter_options: Any,
) -> W:
    """A `waiter_class` (a generated asyncio waiter) that polls a smithy-python client.

    `waiter_options` are the waiter's own (`clock=`, `retry_on=`, ...).
    """
    if not (isinstance(waiter_class, type) and issubclass(waiter_class, AsyncWaiter)):
        raise SmithyPythonAdapterError(
            f"smithy-python clients are async: pass a generated Async...Waiter class, "
            f"got {getattr(waiter_class, '__name__', waiter_class)!r}"
        )
    operation = SmithyPythonOperation(
        client,
        waiter_class.definition,
        input_type=input_type,
        output_shape=_output_shape(waiter_class),
        member_names=member_names,
    )
    return waiter_class(operation, **waiter_options)


def _output_shape(waiter_class: type) -> Any:
    """The output type a generated class declares: `AsyncWaiter[Input, Output]`."""
    for cls in waiter_class.__mro__:
        for base in getattr(cls, "__orig_bases__", ()):
            arguments = typing.get_args(base)
            if typing.get_origin(base) is AsyncWaiter and len(arguments) == 2:
                return arguments[1]
    return None


def _input_type(method: Callable[..., Any], waiter: str) -> type:
    """The input dataclass an operation method is annotated with."""
    parameters = list(inspect.signature(method).parameters.values())
    try:
        hints = typing.get_type_hints(method)
    except (NameError, TypeError):
        hints = {}
    annotation = hints.get(parameters[0].name) if parameters else None
    if not (isinstance(annotation, type) and dataclasses.is_dataclass(annotation)):
        raise SmithyPythonAdapterError(
            f"waiter {waiter}: cannot tell the input dataclass of "
            f"{getattr(method, '__qualname__', method)!r} from its annotations; "
            "pass input_type=<the operation's input class>"
        )
    return annotation
