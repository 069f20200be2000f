"""Where `waitable wait` finds waiters: botocore's data, a generated package, or a Smithy model.

Each source answers the same two questions (which services, which waiters of one
service), keyed by the AWS CLI's kebab-case names, so the command treats them alike.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ..definition import WaiterDefinition, WaiterDefinitionError
from ..waiter import AsyncWaiter, Waiter

__all__ = [
    "BotocoreSource",
    "ModelSource",
    "PackageSource",
    "SourceError",
    "WaiterEntry",
    "WaiterSource",
    "kebab",
]

WAITABLE_TRAIT = "smithy.waiters#waitable"
SERVICE_TRAIT = "aws.api#service"


class SourceError(ValueError):
    """A waiter source cannot be read or does not hold what was asked for; says what to do."""


@dataclass(frozen=True)
class WaiterEntry:
    """One waiter as the command line names it, and how to get its class.

    `default_max_wait` is the source's own deadline (botocore's delay times max
    attempts), None when the wait needs `--max-wait`; `summary` is for `--list`.
    """

    cli_name: str
    name: str
    operation: str
    load: Callable[[], type[Waiter[Any, Any]]]
    default_max_wait: float | None
    summary: str


class WaiterSource(Protocol):
    """What the command asks of a source of waiters."""

    def services(self) -> list[str]:
        """The services this source has waiters for."""
        ...

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """The waiters of `service`, keyed by their kebab-case names."""
        ...


def kebab(name: str) -> str:
    """The AWS CLI's name for a botocore name: `InstanceRunning` → `instance-running`."""
    result: str = importlib.import_module("botocore").xform_name(name, "-")
    return result


class BotocoreSource:
    """Waiters from botocore's data, through `waitable.botocore_waiters`."""

    def services(self) -> list[str]:
        """The services botocore has waiters for."""
        from ..botocore_waiters import available_services

        return list(available_services())

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """botocore's waiters of `service`, with their delay and attempt limits."""
        from ..botocore_waiters import service_waiters, waiter_class

        try:
            found = service_waiters(service)
        except Exception as exc:  # botocore's UnknownServiceError and kin
            raise SourceError(
                f"botocore has no waiters for service {service!r} ({exc}); "
                "run waitable wait --list to see the services"
            ) from None
        return {
            waiter.cli_name: WaiterEntry(
                cli_name=waiter.cli_name,
                name=waiter.name,
                operation=waiter.operation,
                load=_botocore_loader(waiter_class, service, waiter.name),
                default_max_wait=float(waiter.default_max_wait_time),
                summary=f"every {waiter.delay:g} s, at most {waiter.max_attempts} attempts",
            )
            for waiter in found.values()
        }


def _botocore_loader(
    make: Callable[..., Any], service: str, name: str
) -> Callable[[], type[Waiter[Any, Any]]]:
    def load() -> type[Waiter[Any, Any]]:
        cls: type[Waiter[Any, Any]] = make(service, name)
        return cls

    return load


def _entry(cls: type[Waiter[Any, Any]], origin: str) -> WaiterEntry:
    """A generated class's entry; one generated from botocore's data keeps its deadline."""
    definition = cls.definition
    attempts = getattr(cls, "botocore_max_attempts", None)
    if isinstance(attempts, int):
        deadline: float | None = float(definition.min_delay * attempts)
        summary = f"every {definition.min_delay:g} s, at most {attempts} attempts"
    else:
        deadline = None
        summary = f"delays {definition.min_delay:g}-{definition.max_delay:g} s"
    return WaiterEntry(
        cli_name=kebab(definition.name),
        name=definition.name,
        operation=definition.operation,
        load=lambda: cls,
        default_max_wait=deadline,
        summary=f"{summary} ({origin})",
    )


def _waiter_classes(module: ModuleType) -> list[type[Waiter[Any, Any]]]:
    """The synchronous waiter classes a module defines or re-exports."""
    found: list[type[Waiter[Any, Any]]] = []
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Waiter)
            and not issubclass(value, AsyncWaiter)
            and isinstance(getattr(value, "definition", None), WaiterDefinition)
            and value not in found
        ):
            found.append(value)
    return found


class PackageSource:
    """Waiters from a package written by `generate-waiters` (one service, or one per subpackage)."""

    def __init__(self, package: str) -> None:
        try:
            self.module = importlib.import_module(package)
        except ImportError as exc:
            raise SourceError(
                f"cannot import package {package!r} ({exc}); generate it with "
                "generate-waiters and put its folder on PYTHONPATH"
            ) from None
        self.package = package

    def _subpackages(self) -> dict[str, ModuleType]:
        found: dict[str, ModuleType] = {}
        for info in pkgutil.iter_modules(getattr(self.module, "__path__", [])):
            if info.ispkg:
                module = importlib.import_module(f"{self.package}.{info.name}")
                if _waiter_classes(module):
                    found[info.name] = module
        return found

    def services(self) -> list[str]:
        """The package's service subpackages, or the package's own name for one service."""
        if _waiter_classes(self.module):
            return [self.package.rsplit(".", 1)[-1]]
        return sorted(self._subpackages())

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """The waiter classes of `PACKAGE.SERVICE`, or of the package itself."""
        subpackages = {} if _waiter_classes(self.module) else self._subpackages()
        module = subpackages.get(service, self.module)
        classes = _waiter_classes(module)
        if not classes:
            raise SourceError(
                f"package {self.package!r} has no waiters for service {service!r}; "
                f"it has {', '.join(self.services()) or 'none'}"
            )
        return {
            entry.cli_name: entry
            for entry in (_entry(cls, f"from {self.package}") for cls in classes)
        }


class ModelSource:
    """Waiters read from the `smithy.waiters#waitable` traits of a Smithy JSON AST model file."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
            shapes = document["shapes"]
            if not isinstance(shapes, dict):
                raise TypeError("shapes is not an object")
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            raise SourceError(
                f"{path}: cannot read a Smithy JSON AST model ({exc}); pass a model "
                "file such as the ones generate-waiters reads"
            ) from None
        self.shapes: dict[str, Any] = shapes

    def services(self) -> list[str]:
        """The model's services by their SDK id in AWS CLI style (`DynamoDB` → `dynamodb`)."""
        names = []
        for shape_id, shape in self.shapes.items():
            if isinstance(shape, dict) and shape.get("type") == "service":
                sdk_id = (shape.get("traits") or {}).get(SERVICE_TRAIT, {}).get("sdkId")
                name = sdk_id or shape_id.rpartition("#")[2]
                names.append(str(name).lower().replace(" ", "-"))
        return sorted(names)

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """Every waiter of the model file (one model describes one service)."""
        xform_name = importlib.import_module("botocore").xform_name
        entries: dict[str, WaiterEntry] = {}
        for shape_id, shape in self.shapes.items():
            traits = shape.get("traits") if isinstance(shape, dict) else None
            if not isinstance(traits, dict) or WAITABLE_TRAIT not in traits:
                continue
            operation = shape_id.rpartition("#")[2]
            for name, value in traits[WAITABLE_TRAIT].items():
                try:
                    definition = WaiterDefinition.from_trait(name, operation, value)
                except (WaiterDefinitionError, TypeError, ValueError) as exc:
                    raise SourceError(
                        f"{self.path}: operation {shape_id}, waiter {name}: {exc}; "
                        "fix the trait (generate-waiters --check reports all problems)"
                    ) from None
                cls: type[Waiter[Any, Any]] = type(
                    f"{name}Waiter",
                    (Waiter,),
                    {
                        "definition": definition,
                        "operation_method": xform_name(operation),
                    },
                )
                entry = _entry(cls, f"from {Path(self.path).name}")
                entries[entry.cli_name] = entry
        if not entries:
            raise SourceError(
                f"{self.path}: the model has no {WAITABLE_TRAIT} traits; pass a model "
                "with waiters"
            )
        return entries
