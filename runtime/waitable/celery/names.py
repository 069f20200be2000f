"""Waiters and client factories by name, so that a Celery message carries only text.

A name is `"module:attribute"` (importable in the worker) or one registered
with `register_waiter` / `register_client_factory` in the module that defines
the Celery app. A client factory is a zero-argument callable returning the client.

The names come from messages and Redis records, which anyone who can write to
the broker or that Redis can forge: `install(app, import_from=(...))` limits the
modules a name may be imported from (`Trusted`), so that such a message cannot
import any module on the worker's path nor call any zero-argument function in it.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

from ..errors import WaiterConfigurationError
from ..import_names import ImportNameError, import_object, name_problem
from ..waiter import AsyncWaiter, Waiter

__all__ = [
    "ClientFactory",
    "Trusted",
    "WaiterClass",
    "register_client_factory",
    "register_waiter",
    "resolve_client_factory",
    "resolve_waiter",
]

WaiterClass = type[Waiter[Any, Any]] | type[AsyncWaiter[Any, Any]]
ClientFactory = Callable[[], Any]

Trusted = tuple[str, ...] | None
"""The packages names may be imported from (each with its submodules); None: any."""

_WAITERS: dict[str, WaiterClass] = {}
_FACTORIES: dict[str, ClientFactory] = {}


def register_waiter(name: str, waiter: WaiterClass) -> None:
    """Make `waiter` (a `Waiter` or `AsyncWaiter` subclass) known as `name`."""
    _check_name(name, "waiter")
    _check_waiter(name, waiter)
    _WAITERS[name] = waiter


def register_client_factory(name: str, factory: ClientFactory) -> None:
    """Make `factory` (zero arguments, returns a client) known as `name`."""
    _check_name(name, "client factory")
    if not callable(factory):
        raise WaiterConfigurationError(
            f"client factory {name!r} must be a zero-argument callable returning a "
            f"client, got {type(factory).__name__}"
        )
    _FACTORIES[name] = factory


def resolve_waiter(name: str, trusted: Trusted = None) -> WaiterClass:
    """The waiter class registered as `name`, or imported from `"module:Class"`
    (of a `trusted` package)."""
    _check_name(name, "waiter")
    waiter = _WAITERS.get(name)
    if waiter is None:
        waiter = _import(name, "waiter", "register_waiter", trusted)
        _check_waiter(name, waiter)
    return waiter


def unpolled_waiter(
    name: str, trusted: Trusted = None
) -> Waiter[Any, Any] | AsyncWaiter[Any, Any]:
    """The waiter `name` with a stand-in client, for the work that makes no
    request: starting a wait (`start_wait`) and ending a cancelled one."""
    return resolve_waiter(name, trusted)(_no_request)


def _no_request(input: Any) -> Any:
    raise AssertionError("starting or cancelling a wait makes no request")


def resolve_client_factory(name: str, trusted: Trusted = None) -> ClientFactory:
    """The client factory registered as `name`, or imported from `"module:function"`
    (of a `trusted` package)."""
    _check_name(name, "client factory")
    factory = _FACTORIES.get(name)
    if factory is None:
        factory = _import(name, "client factory", "register_client_factory", trusted)
        if not callable(factory):
            raise WaiterConfigurationError(
                f"client factory {name!r} is a {type(factory).__name__}, not a "
                "zero-argument callable returning a client"
            )
    return factory


def unknown_here(waiter: str, client: str, trusted: Trusted = None) -> list[str]:
    """The names among `waiter` and `client` that this process neither has
    registered nor can import (no such module or attribute here, or not a
    `module:Name` path): during a rolling deploy, the names of a newer release,
    which a worker of the older one does not know (`start_wait` resolved them in
    the producer). A module that raises as it is imported is not among them, nor
    a name outside the `trusted` packages (never imported: resolving it refuses it)."""
    found = []
    for name, registry in ((waiter, _WAITERS), (client, _FACTORIES)):
        if not isinstance(name, str) or name in registry:
            continue
        if not is_trusted(name, trusted):
            continue
        try:
            import_object(name)
        except ImportNameError as exc:
            if exc.kind in ("missing", "malformed"):
                found.append(name)
        except Exception:  # resolving it again reports what is wrong
            pass
    return found


def _check_name(name: Any, what: str) -> None:
    """A name travels in JSON messages: it must be text."""
    if not isinstance(name, str):
        raise WaiterConfigurationError(
            f"{what} name {name!r} is a {type(name).__name__}, not text: pass "
            "'package.module:Name' or a name given to waitable.celery.register_waiter "
            "/ register_client_factory"
        )


def _check_waiter(name: str, waiter: Any) -> None:
    if not (isinstance(waiter, type) and issubclass(waiter, (Waiter, AsyncWaiter))):
        raise WaiterConfigurationError(
            f"waiter {name!r} must be a generated waiter class (a subclass of "
            f"waitable.Waiter or waitable.AsyncWaiter), got {waiter!r}"
        )


def is_trusted(name: str, trusted: Trusted) -> bool:
    """Whether `name`'s module is one of the `trusted` packages or inside one."""
    if trusted is None:
        return True
    module = name.partition(":")[0]
    return any(module == root or module.startswith(f"{root}.") for root in trusted)


def _import(name: str, what: str, register: str, trusted: Trusted = None) -> Any:
    """The object `name` ("package.module:Name") names; a `WaiterConfigurationError`
    saying what a name must look like when it is not one, why it does not import,
    or that its module is outside the `trusted` packages (then never imported)."""
    if name.partition(":")[0] == "__main__":
        # It imports in the process that started the wait, but a worker's
        # `__main__` is Celery's: the wait would fail there on its first poll.
        raise WaiterConfigurationError(
            f"{what} {name!r} names the script this process runs (__main__), which "
            "a Celery worker cannot import; move it to a module the workers import "
            f"and name that, or call waitable.celery.{register}() in the module "
            "that defines the Celery app"
        )
    well_formed = name_problem(name, with_object=True) is None
    if well_formed and not is_trusted(name, trusted):
        raise WaiterConfigurationError(
            f"{what} {name!r} is outside the packages this app imports names from "
            f"(install(app, import_from={trusted!r})), so it is not imported: add "
            f"its package to import_from, or call waitable.celery.{register}() in "
            "the module that defines the Celery app"
        )
    try:
        found = import_object(name)
        if trusted is not None:
            _refuse_foreign(name, what, register, trusted)
        return found
    except ImportNameError as exc:
        if exc.kind == "malformed":
            message = (
                f"{what} {name!r} is neither registered nor an importable name "
                f"({exc}): write 'package.module:Name' (the module's absolute dotted "
                f"path, a colon, then the name in it), or call "
                f"waitable.celery.{register}({name!r}, ...) in the module that "
                "defines the Celery app"
            )
        elif exc.kind == "missing":
            message = (
                f"{what} {name!r} cannot be imported here ({exc}); install the module "
                f"where the Celery worker runs, or call waitable.celery.{register}() "
                "in the module that defines the Celery app"
            )
        else:
            message = f"{what} {name!r} cannot be imported here: {exc}"
        raise WaiterConfigurationError(message) from exc.__cause__


def _refuse_foreign(
    name: str, what: str, register: str, trusted: tuple[str, ...]
) -> None:
    """Refuse a name of a `trusted` module that reaches past it: the part after
    ':' is read attribute by attribute, so `myapp:os.abort` (any module myapp
    imports), `myapp:app.control.shutdown` (a method of the Celery app) or
    `myapp:abort` (from `from os import abort`) named a function of another
    package, which a forged message could have the worker call. On the way, only
    modules and classes of the `trusted` packages are gone through; the object
    named, when it is a function, method or class, must be defined in one."""
    module_name, _, attribute = name.partition(":")
    parts = attribute.split(".")
    for end in range(1, len(parts) + 1):
        path = ".".join(parts[:end])
        found = import_object(f"{module_name}:{path}")
        home = _home(found, last=end == len(parts), named_in=module_name)
        if home is None or not is_trusted(home, trusted):
            raise WaiterConfigurationError(
                f"{what} {name!r} reaches {module_name}:{path}, "
                f"{_described_home(found, home)}, outside the packages this app "
                f"imports names from (install(app, import_from={trusted!r})), so "
                "it is not used: name it in the module that defines it, add that "
                f"package to import_from, or call waitable.celery.{register}() in "
                "the module that defines the Celery app"
            )


def _home(found: Any, *, last: bool, named_in: str) -> str | None:
    """The module `found` belongs to, as the trust check reads it: a module's own
    name; a class's, function's or method's `__module__`. The object named last
    may be something else, such as a callable instance made in the module: it
    belongs to `named_in`, the module the name is in. On the way to it only
    modules and classes are gone through (else None): an instance's methods are
    its class's, of any package, and a function's attributes lead to its
    globals."""
    if isinstance(found, types.ModuleType):
        home = getattr(found, "__name__", None)
    elif isinstance(found, type) or (last and inspect.isroutine(found)):
        home = getattr(found, "__module__", None)
    else:
        return named_in if last else None
    return home if isinstance(home, str) and home else None


def _described_home(found: Any, home: str | None) -> str:
    """How the refusal names what a name reached."""
    if home is None:
        return f"a {type(found).__name__}, which is not gone through"
    if isinstance(found, types.ModuleType):
        return f"the module {home}"
    return f"defined in {home}"
