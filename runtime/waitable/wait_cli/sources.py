"""Where `waitable wait` finds waiters: botocore's data, a generated package, or a Smithy model.

Each source answers the same two questions (which services, which waiters of one
service), keyed by the AWS CLI's kebab-case names, so the command treats them alike.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ..definition import WaiterDefinition, WaiterDefinitionError
from ..files import MAX_MODEL_BYTES, UnreadableFile, read_text
from ..import_names import ImportNameError, import_module_named
from ..jsondata import json_type
from ..trait_keys import is_waiter_name
from ..waiter import AsyncWaiter, Waiter
from .input_options import load_json

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
    attempts), None when the wait needs `--max-wait`; `attempts` is botocore's max
    attempts, when the deadline comes from them; `summary` is for `--list`.
    `service` is the botocore name of the waiter's service (what the client and the
    input options are made for, e.g. `lambda` for a package's `lambda_`), None when
    it is the name the user gave. `unusable` says why the waiter cannot be used (its
    data cannot be translated), None when it can: such an entry is named, never run.
    """

    cli_name: str
    name: str
    operation: str
    load: Callable[[], type[Waiter[Any, Any]]]
    default_max_wait: float | None
    summary: str
    service: str | None = None
    attempts: int | None = None
    unusable: str | None = None


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
        """botocore's waiters of `service`, with their delay and attempt limits; each
        is translated alone, so one that cannot be (a newer botocore's matcher, custom
        data under AWS_DATA_PATH) is an `unusable` entry and the others work."""
        from ..botocore_waiters import (
            BotocoreWaiterError,
            service_waiter,
            waiter_class,
            waiter_names,
        )

        try:
            names = waiter_names(service)
        except BotocoreWaiterError as exc:
            # It says the service and lists those with waiters.
            raise SourceError(f"{exc} (waitable wait --list)") from None
        except Exception as exc:  # botocore's UnknownServiceError and kin
            raise SourceError(
                f"botocore has no waiters for service {service!r} ({exc}); "
                "run waitable wait --list to see the services"
            ) from None
        entries = {}
        for name in names:
            try:
                waiter = service_waiter(service, name)
            except BotocoreWaiterError as exc:
                entry = WaiterEntry(
                    cli_name=kebab(name),
                    name=name,
                    operation="",
                    load=_botocore_loader(waiter_class, service, name),
                    default_max_wait=None,
                    summary="",
                    unusable=str(exc),
                )
            else:
                entry = WaiterEntry(
                    cli_name=waiter.cli_name,
                    name=waiter.name,
                    operation=waiter.operation,
                    load=_botocore_loader(waiter_class, service, waiter.name),
                    default_max_wait=float(waiter.default_max_wait_time),
                    summary=f"every {waiter.delay:g} s, at most {waiter.max_attempts} attempts",
                    attempts=waiter.max_attempts,
                )
            entries[entry.cli_name] = entry
        return entries


def _botocore_loader(
    make: Callable[..., Any], service: str, name: str
) -> Callable[[], type[Waiter[Any, Any]]]:
    def load() -> type[Waiter[Any, Any]]:
        cls: type[Waiter[Any, Any]] = make(service, name)
        return cls

    return load


def _entry(
    cls: type[Waiter[Any, Any]], origin: str, service: str | None = None
) -> WaiterEntry:
    """A generated class's entry (for botocore's `service` when known); one generated
    from botocore's data keeps its deadline."""
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
        service=service,
        attempts=attempts if isinstance(attempts, int) else None,
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


def _normalized(name: str) -> str:
    """`name` as letters and digits only, lower case: `acm_pca`, `acm-pca` and
    `ACM PCA` are all `acmpca`, `lambda_` is `lambda`."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


@functools.lru_cache(maxsize=1)
def _botocore_data() -> (
    tuple[tuple[tuple[str, frozenset[tuple[str, Any]]], ...], tuple[str, ...]]
):
    """botocore's services with their waiters `(name, operation)`, and all its service
    names (the installed data does not change while the command runs: read once)."""
    session = importlib.import_module("botocore.session")
    loader = session.get_session().get_component("data_loader")
    waiters = []
    for service in loader.list_available_services("waiters-2"):
        try:
            document = loader.load_service_model(service, "waiters-2")
        except ValueError:  # not JSON (custom data): no waiters to tell a service by
            continue
        found = document.get("waiters") if isinstance(document, dict) else None
        if isinstance(found, dict):
            pairs = frozenset(
                (str(name), value.get("operation"))
                for name, value in found.items()
                if isinstance(value, dict)
            )
            waiters.append((str(service), pairs))
    names = tuple(str(s) for s in loader.list_available_services("service-2"))
    return tuple(waiters), names


def botocore_service(
    aliases: Iterable[str], waiters: Iterable[tuple[str, str]]
) -> str | None:
    """The botocore service that waiters `(name, operation)` known by `aliases` belong to.

    A generated package names its modules after the SDK id (`lambda_`, `acm_pca`) and a
    model its services after it too, while botocore, and so the client and the input
    options, use the service's own name (`lambda`, `acm-pca`, `elbv2` for "Elastic
    Load Balancing v2"). The one botocore service whose waiter data holds all these
    waiters is it (several: the one named like an alias); else the one botocore service
    named like an alias; else None (the name given is used as it is). Only file
    listings and the small waiter files are read (about 50 ms), never service models.
    """
    try:
        by_waiters, names = _botocore_data()
    except (ImportError, OSError, ValueError, LookupError, AttributeError):
        return None  # botocore's data unreadable: the name given is used as it is
    wanted = set(waiters)
    keys = {_normalized(alias) for alias in aliases}
    holding = [service for service, pairs in by_waiters if wanted and wanted <= pairs]
    if len(holding) == 1:
        return holding[0]
    for candidates in (holding, names):
        named = [service for service in candidates if _normalized(service) in keys]
        if len(named) == 1:
            return named[0]
    return None


@dataclass(frozen=True)
class _PackageService:
    """One service of a package: the module holding its waiter classes, the name
    `--list` shows (botocore's, when known), botocore's name, every name accepted."""

    listed: str
    module: ModuleType
    botocore: str | None
    names: frozenset[str]


class PackageSource:
    """Waiters from a package written by `generate-waiters` (one service, or one per subpackage).

    Each service is listed by its botocore name when it can be told (`lambda`,
    `acm-pca`), else by its module's name; either name, and the package's own name
    for a one-service package, selects it, and the client and the input options are
    always made for the botocore name.
    """

    def __init__(self, package: str) -> None:
        try:
            self.module = import_module_named(package)
        except ImportNameError as exc:
            advice = {
                "malformed": "pass its absolute, dotted module name (my_waiters.ec2)",
                "missing": "generate it with generate-waiters and put its folder on "
                "PYTHONPATH",
                "raised": f"run python -c 'import {package}' to see where",
            }[exc.kind]
            raise SourceError(f"--package {package!r}: {exc}; {advice}") from None
        self.package = package
        self._catalog: list[_PackageService] | None = None

    def _subpackages(self) -> dict[str, ModuleType]:
        found: dict[str, ModuleType] = {}
        for info in pkgutil.iter_modules(getattr(self.module, "__path__", [])):
            if info.ispkg:
                module = self._subpackage(f"{self.package}.{info.name}")
                if _waiter_classes(module):
                    found[info.name] = module
        return found

    def _subpackage(self, name: str) -> ModuleType:
        """The subpackage `name`, imported; one that does not import (its own code
        raises, or imports what is not installed) is named, as the package is."""
        try:
            return importlib.import_module(name)
        except Exception as exc:
            lines = str(exc).strip().splitlines()
            raise SourceError(
                f"--package {self.package!r}: importing its subpackage {name!r} "
                f"raised {type(exc).__name__}: {lines[0] if lines else '(no message)'}"
                f"; run python -c 'import {name}' to see where"
            ) from None

    def _services(self) -> list[_PackageService]:
        """The package's services, named once (botocore's data is read once per source)."""
        if self._catalog is None:
            own = self.package.rsplit(".", 1)[-1]
            modules = (
                {own: self.module}
                if _waiter_classes(self.module)
                else self._subpackages()
            )
            catalog = []
            for module_name, module in sorted(modules.items()):
                waiters = {
                    (cls.definition.name, cls.definition.operation)
                    for cls in _waiter_classes(module)
                }
                botocore = botocore_service([module_name], waiters)
                listed = botocore or module_name
                catalog.append(
                    _PackageService(
                        listed, module, botocore, frozenset({listed, module_name})
                    )
                )
            if not catalog:
                raise SourceError(
                    f"--package {self.package!r} holds no waiter classes (neither it "
                    "nor a subpackage of it defines one); pass a package written by "
                    "generate-waiters (generate-waiters MODEL -o DIR, or --botocore "
                    "SERVICE -o DIR)"
                )
            self._catalog = catalog
        return self._catalog

    def services(self) -> list[str]:
        """The package's services: botocore's names where known, else the modules' names."""
        return sorted(service.listed for service in self._services())

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """The waiter classes of `service` (any of its names), made for botocore's name."""
        for known in self._services():
            if service in known.names:
                return {
                    entry.cli_name: entry
                    for entry in (
                        _entry(cls, f"from {self.package}", known.botocore)
                        for cls in _waiter_classes(known.module)
                    )
                }
        raise SourceError(
            f"package {self.package!r} has no waiters for service {service!r}; "
            f"it has {', '.join(self.services()) or 'none'} "
            f"(waitable wait --package {self.package} --list)"
        )


class ModelSource:
    """Waiters read from the `smithy.waiters#waitable` traits of a Smithy JSON AST model file.

    Every value the command reads is checked for its JSON type first: a malformed
    model is a `SourceError` naming the file, the shape and what is wrong (the
    command's bad-usage exit), never a Python error from deep inside.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        advice = "pass a model file such as the ones generate-waiters reads"
        try:
            text = read_text(path, limit=MAX_MODEL_BYTES)
        except UnreadableFile as exc:
            raise SourceError(
                f"{path}: cannot read a Smithy JSON AST model ({exc}); {advice}"
            ) from None
        try:
            document = load_json(text)
        except ValueError as exc:
            raise SourceError(
                f"{path}: cannot read a Smithy JSON AST model: not valid JSON "
                f"({exc}); {advice}"
            ) from None
        if not isinstance(document, dict):
            raise SourceError(
                f"{path}: cannot read a Smithy JSON AST model: the file holds "
                f"{json_type(document)}, not an object; {advice}"
            )
        shapes = document.get("shapes")
        if not isinstance(shapes, dict):
            what = "no shapes" if shapes is None else f"shapes as {json_type(shapes)}"
            raise SourceError(
                f"{path}: cannot read a Smithy JSON AST model: it has {what}, not "
                f"an object of shapes; {advice}"
            )
        self.shapes: dict[str, Any] = shapes

    def _malformed(self, shape_id: str, what: str) -> SourceError:
        return SourceError(
            f"{self.path}: shape {shape_id}: {what}; fix the model "
            "(generate-waiters --check reports all problems)"
        )

    def _traits(self, shape_id: str, shape: Any) -> dict[str, Any]:
        """The traits of a shape, checked to be an object (none: empty)."""
        if not isinstance(shape, dict):
            raise self._malformed(
                shape_id, f"the shape is {json_type(shape)}, not an object"
            )
        traits = shape.get("traits", {})
        if not isinstance(traits, dict):
            raise self._malformed(
                shape_id, f"traits is {json_type(traits)}, not an object"
            )
        return traits

    def services(self) -> list[str]:
        """The model's services by their SDK id in AWS CLI style (`DynamoDB` → `dynamodb`)."""
        names = []
        for shape_id, shape in self.shapes.items():
            traits = self._traits(shape_id, shape)
            if shape.get("type") != "service":
                continue
            service = traits.get(SERVICE_TRAIT, {})
            if not isinstance(service, dict):
                raise self._malformed(
                    shape_id,
                    f"trait {SERVICE_TRAIT} is {json_type(service)}, not an object",
                )
            sdk_id = service.get("sdkId")
            if sdk_id is not None and not (isinstance(sdk_id, str) and sdk_id):
                raise self._malformed(
                    shape_id,
                    f"{SERVICE_TRAIT} sdkId is {json_type(sdk_id)}, not a "
                    "non-empty string",
                )
            name = sdk_id or shape_id.rpartition("#")[2]
            names.append(name.lower().replace(" ", "-"))
        return sorted(names)

    def waiters(self, service: str) -> dict[str, WaiterEntry]:
        """Every waiter of the model file (one model describes one service), made
        for the botocore service they belong to when botocore's data tells it.

        When it does, `service` must name that service (botocore's name or the
        model's); when it does not (waiters botocore lacks, on a service it does not
        know by the model's name), `service` is the client to make, as given."""
        xform_name = importlib.import_module("botocore").xform_name
        classes: list[type[Waiter[Any, Any]]] = []
        for shape_id, shape in self.shapes.items():
            traits = self._traits(shape_id, shape)
            if WAITABLE_TRAIT not in traits:
                continue
            waitable = traits[WAITABLE_TRAIT]
            if not isinstance(waitable, dict):
                raise self._malformed(
                    shape_id,
                    f"trait {WAITABLE_TRAIT} is {json_type(waitable)}, not an "
                    "object of waiters by name",
                )
            operation = shape_id.rpartition("#")[2]
            for name, value in waitable.items():
                if not is_waiter_name(name):
                    # it names a class and the CLI's name: a NUL, a surrogate or a
                    # terminal escape there broke `type()` or reached the terminal
                    raise self._malformed(
                        shape_id,
                        f"waiter {name!r}: a waiter name must be UpperCamelCase "
                        "letters and digits (^[A-Z]+[A-Za-z0-9]*$), as Smithy requires",
                    )
                try:
                    definition = WaiterDefinition.from_trait(name, operation, value)
                except (
                    WaiterDefinitionError,
                    TypeError,
                    ValueError,
                    LookupError,
                    AttributeError,
                    RecursionError,
                ) as exc:
                    raise self._malformed(shape_id, f"waiter {name}: {exc}") from None
                classes.append(
                    type(
                        f"{name}Waiter",
                        (Waiter,),
                        {
                            "definition": definition,
                            "operation_method": xform_name(operation),
                        },
                    )
                )
        if not classes:
            raise SourceError(
                f"{self.path}: the model has no {WAITABLE_TRAIT} traits; pass a model "
                "with waiters"
            )
        pairs = {(cls.definition.name, cls.definition.operation) for cls in classes}
        described = self.services()
        botocore = botocore_service(described, pairs)
        if botocore is None:
            # a service botocore does not know (custom waiters): `service` names the
            # client to make, and is used as it is when it is botocore's
            botocore = botocore_service([service, *described], pairs)
        else:
            # the model says which service it is: another name is a mistake (`ec2`
            # for a DynamoDB model would wait on DynamoDB all the same)
            accepted = sorted({*described, botocore})
            if _normalized(service) not in {_normalized(name) for name in accepted}:
                raise SourceError(
                    f"{self.path} describes service {' or '.join(accepted)}, not "
                    f"{service!r}: pass SERVICE {' or '.join(accepted)} (waitable "
                    f"wait --model {self.path} --list)"
                )
        origin = f"from {Path(self.path).name}"
        entries = (_entry(cls, origin, botocore) for cls in classes)
        return {entry.cli_name: entry for entry in entries}
