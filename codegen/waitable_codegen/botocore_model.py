"""botocore's `service-2.json` + `waiters-2.json` as a Smithy JSON AST document.

The generator's pipeline reads Smithy models; botocore's data (shipped with every
boto3) becomes one in memory, so a botocore service is planned, rendered and
written exactly as a Smithy model is. Per service:

- namespace `com.amazonaws.botocore.<service>` (`-` → `_`); the service shape's
  `aws.api#service` `sdkId` is botocore's service name, so `--botocore all` makes
  one subpackage per service named as boto3 names the client;
- the shapes the waited-on operations reach (structures, unions, documents, lists,
  maps and simple types; `required` → `smithy.api#required`, exceptions →
  `smithy.api#error`/`smithy.api#httpError`);
- each waiter as a `smithy.waiters#waitable` entry on its operation: botocore's
  `delay` as minDelay = maxDelay, `maxAttempts` as `botocoreMaxAttempts`, and
  every acceptor as a `{"botocore": {matcher, argument, expected}}` matcher (not a
  Smithy matcher kind: the plan emits the runtime's botocore matcher classes,
  which decide exactly as botocore does). Such documents are generated only from
  botocore data and skip Smithy's waiter validation (see `botocore_generate`).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Mapping
from typing import Any

from waitable.botocore_waiters import UNTRANSLATABLE, translate_waiter, untranslatable
from waitable.trait_keys import is_waiter_name

from .errors import GenerationError, UsageError

__all__ = [
    "BOTOCORE_MATCHER",
    "BOTOCORE_MAX_ATTEMPTS",
    "botocore_loader",
    "botocore_services",
    "namespace_of",
    "smithy_document",
    "waiters_of",
]

BOTOCORE_MATCHER = "botocore"
"""The matcher key a converted acceptor uses (the Smithy spec has no such key)."""
BOTOCORE_MAX_ATTEMPTS = "botocoreMaxAttempts"
"""The waiter member carrying botocore's `maxAttempts`."""

_SIMPLE = {
    "string": "string",
    "integer": "integer",
    "long": "long",
    "float": "float",
    "double": "double",
    "boolean": "boolean",
    "timestamp": "timestamp",
    "blob": "blob",
}


def botocore_loader() -> Any:
    """botocore's data loader (from a default session), or a usage error without botocore."""
    try:
        session = importlib.import_module("botocore.session")
    except ImportError:
        raise UsageError(
            "--botocore needs botocore (it ships the waiter data): "
            "pip install botocore (or boto3)"
        ) from None
    return session.get_session().get_component("data_loader")


def botocore_services(loader: Any, wanted: Iterable[str]) -> list[str]:
    """The services `wanted` names (`all`: every one with waiters), checked, in order.

    Only the waiters files of the services chosen are read strictly: a broken one
    (custom data under `AWS_DATA_PATH`) stops `all`, or its own service, with a
    `GenerationError`, never a run for another service.
    """
    listed = sorted(loader.list_available_services("waiters-2"))
    chosen: list[str] = []
    for name in wanted:
        for service in listed if name == "all" else [name]:
            has_waiters = service in listed and bool(waiters_of(loader, service))
            if name != "all" and not has_waiters:
                shown = ", ".join(_with_waiters(loader, listed))
                raise UsageError(
                    f"--botocore {service}: the installed botocore has no waiters for "
                    f"this service; services with waiters: {shown} (or pass all)"
                )
            if has_waiters and service not in chosen:
                chosen.append(service)
    if not chosen:
        raise UsageError("--botocore needs a service name (or all)")
    return chosen


def _with_waiters(loader: Any, listed: Iterable[str]) -> list[str]:
    """The services of `listed` with waiters, for a message: unreadable ones left out."""
    shown = []
    for service in listed:
        try:
            if waiters_of(loader, service):
                shown.append(service)
        except GenerationError:
            continue
    return shown


def waiters_of(loader: Any, service: str) -> dict[str, Any]:
    """The `waiters` map of `service`'s `waiters-2.json`, checked as botocore's
    `WaiterModel` checks it (an object of version 2), or a `GenerationError` naming
    the file: botocore's loader raises a bare JSON error for a file that is not
    JSON, and a document of another version is one botocore refuses to run."""
    try:
        document = loader.load_service_model(service, "waiters-2")
    except ValueError as exc:  # json's JSONDecodeError, or an integer too long
        raise _data_error(loader, service, None, f"not JSON ({exc})") from None
    if not isinstance(document, dict):
        raise _data_error(loader, service, None, "not a JSON object")
    waiters = document.get("waiters", {})
    if document.get("version") != 2:  # botocore's own check, `!=` included
        raise _data_error(
            loader,
            service,
            None,
            f"version {document.get('version')!r}, and botocore runs only "
            "version 2 waiters",
        )
    if not isinstance(waiters, dict):
        raise _data_error(loader, service, None, '"waiters" is not an object')
    return waiters


def _waiters_path(loader: Any, service: str) -> str:
    """The `waiters-2.json` botocore reads for `service` (search paths in order: a
    custom data directory under `AWS_DATA_PATH` first), for messages."""
    try:
        version = loader.determine_latest_version(service, "waiters-2")
        for root in loader.search_paths:
            path = os.path.join(root, service, version, "waiters-2.json")
            if os.path.isfile(path) or os.path.isfile(path + ".gz"):
                return path
    except Exception:  # only a message's detail: botocore's own error is elsewhere
        pass
    return f"{service}'s waiters-2.json"


def _data_error(
    loader: Any, service: str, waiter: str | None, detail: str
) -> GenerationError:
    """The one-line error for bad botocore waiter data, naming the file and what to do."""
    what = f"botocore waiter {service}.{waiter}" if waiter else f"botocore {service}"
    return GenerationError(
        f"{what} ({_waiters_path(loader, service)}): {detail}; nothing was written: "
        "fix or remove it there (custom data under AWS_DATA_PATH comes first), or "
        "reinstall botocore"
    )


def _check_waiter(loader: Any, service: str, name: str, config: Any) -> None:
    """Refuse, naming the waiter, what `waitable wait` could not translate (the
    runtime's `translate_waiter`: missing keys, an unknown matcher, a path that does
    not parse, a `maxAttempts` that counts no attempts, a delay past 100 years) and
    what a generated class cannot hold (a whole-second delay, an UpperCamelCase name).

    Without this the run failed with "internal error" on malformed data, or wrote a
    package that raised at import, or one with limits the runtime refuses.
    """
    if not isinstance(config, Mapping):
        raise _data_error(loader, service, name, "the waiter is not a JSON object")
    if not isinstance(config.get("operation"), str):
        raise _data_error(loader, service, name, '"operation" is not a string')
    acceptors = config.get("acceptors")
    if "acceptors" in config and (
        not isinstance(acceptors, list)
        or not all(isinstance(acceptor, Mapping) for acceptor in acceptors)
    ):
        raise _data_error(
            loader, service, name, '"acceptors" is not a list of JSON objects'
        )
    try:
        translate_waiter(service, name, config)
    except UNTRANSLATABLE as exc:
        prefix = f"botocore waiter {service}.{name}"  # `_data_error` names it
        what = untranslatable(exc, service, name)[len(prefix) :].lstrip(":, ")
        raise _data_error(loader, service, name, what) from None
    delay = config["delay"]
    if isinstance(delay, bool) or not isinstance(delay, int) or delay < 1:
        raise _data_error(
            loader,
            service,
            name,
            f"delay {delay!r}, but a generated waiter needs a whole number of "
            "seconds, at least 1",
        )
    if not is_waiter_name(name):
        raise _data_error(
            loader,
            service,
            name,
            "a generated waiter's name must be UpperCamelCase letters and "
            "digits (^[A-Z]+[A-Za-z0-9]*$), as botocore's own waiters are",
        )


def namespace_of(service: str) -> str:
    """The Smithy namespace a botocore service's shapes get."""
    return "com.amazonaws.botocore." + service.replace("-", "_").replace(".", "_")


def smithy_document(loader: Any, services: Iterable[str]) -> dict[str, Any]:
    """One Smithy JSON AST document holding every service in `services`.

    Two services whose namespaces coincide (`my-svc` and `my_svc` or `my.svc`, from
    custom data under `AWS_DATA_PATH`) are refused: one's shapes would silently
    replace the other's, and its waiters would be missing from the package.
    """
    shapes: dict[str, Any] = {}
    owners: dict[str, str] = {}
    for service in services:
        other = owners.setdefault(namespace_of(service), service)
        if other != service:
            raise UsageError(
                f"--botocore {other} and --botocore {service} would both be "
                f"generated as namespace {namespace_of(service)} (and one Python "
                "package); generate them into separate output directories"
            )
        shapes.update(_service_shapes(loader, service))
    return {"smithy": "2.0", "shapes": shapes}


def _service_shapes(loader: Any, service: str) -> dict[str, Any]:
    model = _service_model(loader, service)
    waiters = waiters_of(loader, service)
    namespace = namespace_of(service)
    shapes = model.get("shapes", {})
    if not isinstance(shapes, Mapping):
        raise _model_error(service, '"shapes" is not an object')
    converter = _Converter(namespace, shapes, service)
    by_operation: dict[str, dict[str, Any]] = {}
    for name in sorted(waiters):
        config = waiters[name]
        _check_waiter(loader, service, name, config)
        if f"Async{name}" in waiters:
            # Smithy's own message would advise --service, which --botocore refuses.
            raise _data_error(
                loader,
                service,
                f"Async{name}",
                f"its class Async{name}Waiter would also be the asyncio class of "
                f"waiter {name}; rename one of them",
            )
        by_operation.setdefault(config["operation"], {})[name] = _waiter(config)
    operations = model.get("operations", {})
    metadata = model.get("metadata", {})
    for key, value in (("operations", operations), ("metadata", metadata)):
        if not isinstance(value, Mapping):
            raise _model_error(service, f'"{key}" is not an object')
    out: dict[str, Any] = {}
    for operation, trait in sorted(by_operation.items()):
        body = operations.get(operation)
        if not isinstance(body, Mapping):
            raise _data_error(
                loader,
                service,
                ", ".join(trait),
                f"polls operation {operation}, which the service's service-2.json "
                "does not define",
            )
        try:
            out[f"{namespace}#{operation}"] = converter.operation(body, trait)
        except (KeyError, TypeError, AttributeError) as exc:  # its errors, malformed
            raise _model_error(
                service, f"operation {operation} is malformed ({exc!r})"
            ) from None
    traits: dict[str, Any] = {"aws.api#service": {"sdkId": service}}
    title = metadata.get("serviceFullName")
    if isinstance(title, str) and title:
        traits["smithy.api#title"] = title
    out[f"{namespace}#{_service_name(service)}"] = {
        "type": "service",
        "version": str(metadata.get("apiVersion", "")),
        "operations": [{"target": f"{namespace}#{op}"} for op in sorted(by_operation)],
        "traits": traits,
    }
    out.update(converter.converted)
    return out


def _service_model(loader: Any, service: str) -> dict[str, Any]:
    """`service`'s `service-2.json` as an object, or the `GenerationError` saying what
    is wrong with it (not there, not JSON, no object), never botocore's bare error."""
    missing = importlib.import_module("botocore.exceptions").DataNotFoundError
    try:
        model = loader.load_service_model(service, "service-2")
    except missing:
        raise _model_error(service, "not found beside its waiters-2.json") from None
    except ValueError as exc:  # json's JSONDecodeError, or an integer too long
        raise _model_error(service, f"not JSON ({exc})") from None
    if not isinstance(model, dict):
        raise _model_error(service, "not a JSON object")
    return model


def _model_error(service: str, detail: str) -> GenerationError:
    """The one-line error for a bad `service-2.json` of botocore `service`."""
    return GenerationError(
        f"botocore {service} (its service-2.json): {detail}; nothing was written: "
        "fix it (custom data under AWS_DATA_PATH comes first), or reinstall botocore"
    )


def _service_name(service: str) -> str:
    """The service shape's name: botocore's name as an UpperCamelCase identifier."""
    parts = service.replace(".", "-").replace("_", "-").split("-")
    name = "".join(part[:1].upper() + part[1:] for part in parts if part)
    return ("S" if name[:1].isdigit() else "") + name + "Service"


def _waiter(config: Mapping[str, Any]) -> dict[str, Any]:
    """One botocore waiter as a waitable trait entry (see the module docstring)."""
    delay = config["delay"]
    waiter: dict[str, Any] = {
        "minDelay": delay,
        "maxDelay": delay,
        BOTOCORE_MAX_ATTEMPTS: config["maxAttempts"],
        "acceptors": [
            {"state": acceptor["state"], "matcher": {BOTOCORE_MATCHER: dict(acceptor)}}
            for acceptor in config["acceptors"]
        ],
    }
    description = config.get("description")
    if isinstance(description, str) and description.strip():
        waiter["documentation"] = description
    return waiter


class _Converter:
    """Converts the botocore shapes an operation reaches, each once."""

    def __init__(self, namespace: str, shapes: Mapping[str, Any], service: str) -> None:
        self.namespace = namespace
        self.shapes = shapes
        self.service = service
        self.converted: dict[str, Any] = {}

    def target(self, name: str) -> dict[str, str]:
        """`{"target": id}` for botocore shape `name`, converting it (and what it reaches)."""
        shape_id = f"{self.namespace}#{name}"
        if shape_id not in self.converted:
            self.converted[shape_id] = {}  # placeholder: recursive shapes end here
            if not isinstance(name, str) or name not in self.shapes:
                raise _model_error(
                    self.service, f"shape {name!r} is referenced but not defined"
                )
            try:
                self.converted[shape_id] = self.shape(name, self.shapes[name])
            except (KeyError, TypeError, AttributeError) as exc:  # a malformed shape
                raise _model_error(
                    self.service, f"shape {name!r} is malformed ({exc!r})"
                ) from None
        return {"target": shape_id}

    def operation(
        self, body: Mapping[str, Any], trait: Mapping[str, Any]
    ) -> dict[str, Any]:
        result: dict[str, Any] = {"type": "operation"}
        for side in ("input", "output"):
            ref = body.get(side)
            if isinstance(ref, Mapping) and "shape" in ref:
                result[side] = self.target(ref["shape"])
        errors = [self.target(e["shape"]) for e in body.get("errors", [])]
        if errors:
            result["errors"] = errors
        result["traits"] = {"smithy.waiters#waitable": dict(trait)}
        return result

    def shape(self, name: str, body: Mapping[str, Any]) -> dict[str, Any]:
        kind = body.get("type")
        if kind == "structure":
            return self.structure(body)
        if kind == "list":
            return {"type": "list", "member": self.target(body["member"]["shape"])}
        if kind == "map":
            return {
                "type": "map",
                "key": self.target(body["key"]["shape"]),
                "value": self.target(body["value"]["shape"]),
            }
        if kind in _SIMPLE:
            return {"type": _SIMPLE[kind]}
        raise _model_error(
            self.service,
            f"shape {name!r} has type {kind!r}, which generate-waiters does not know "
            "(if botocore's own data has it, report it with the botocore version)",
        )

    def structure(self, body: Mapping[str, Any]) -> dict[str, Any]:
        if body.get("document"):  # any JSON value (botocore: no members, `document`)
            return {"type": "document"}
        required = set(body.get("required", []))
        members: dict[str, Any] = {}
        for member, ref in body.get("members", {}).items():
            entry: dict[str, Any] = self.target(ref["shape"])
            if member in required:
                entry["traits"] = {"smithy.api#required": {}}
            members[member] = entry
        traits: dict[str, Any] = {}
        if body.get("exception"):
            traits["smithy.api#error"] = "server" if body.get("fault") else "client"
            status = body.get("error", {}).get("httpStatusCode")
            if isinstance(status, int) and not isinstance(status, bool):
                traits["smithy.api#httpError"] = status
        kind = "union" if body.get("union") else "structure"
        result: dict[str, Any] = {"type": kind, "members": members}
        if traits:
            result["traits"] = traits
        return result
