"""botocore's waiters (`waiters-2.json`) as waitable waiters, translated at runtime.

Every boto3 installation ships botocore's waiter definitions; this module reads
them through botocore's own loader (botocore is imported only when called) and
turns each into a `WaiterDefinition` whose matchers decide as botocore's do:

- `path`/`pathAll`/`pathAny` → `BotocorePathMatcher` (`==` on the JMESPath result,
  so `expected` may be a string, a number or a boolean; an empty list never
  matches `pathAll` nor `pathAny`);
- `error` → `BotocoreErrorMatcher` (the raw `Error.Code`; `true`/`false` mean
  any error / no error);
- `status` → `StatusMatcher` (`ResponseMetadata.HTTPStatusCode`).

`delay` becomes a fixed delay (`FixedDelay`, min_delay = max_delay = delay) and
`delay × maxAttempts` the default `max_wait_time`: with calls taking no time the
waiter polls `maxAttempts` times, as botocore does (the last poll comes at the
deadline, one delay later than botocore's). Limits given per `wait()`, in
`config=` or in a `config` set later read as boto3's `WaiterConfig` (`default_config`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, overload

from .backoff import Backoff, FixedDelay
from .config import WaiterConfig, checked_config
from .definition import (
    Acceptor,
    AcceptorState,
    BotocoreErrorMatcher,
    BotocorePathMatcher,
    BotocorePathMode,
    Matcher,
    StatusMatcher,
    WaiterDefinition,
    WaiterDefinitionError,
)
from .errors import WaiterConfigurationError
from .options import WaitOptions
from .seconds import MAX_SECONDS, describe_value
from .waiter import AsyncWaiter, Waiter

__all__ = [
    "AsyncBotocoreDefaultsWaiter",
    "BotocoreDefaultsWaiter",
    "BotocoreErrorMatcher",
    "BotocorePathMatcher",
    "BotocorePathMode",
    "StatusMatcher",
    "BotocoreWaiter",
    "BotocoreWaiterError",
    "available_services",
    "default_config",
    "service_waiter",
    "service_waiters",
    "translate_waiter",
    "UNTRANSLATABLE",
    "untranslatable",
    "waiter_class",
    "waiter_names",
]

#: What `translate_waiter` raises for botocore waiter data it cannot translate.
UNTRANSLATABLE = (
    WaiterDefinitionError,
    TypeError,
    ValueError,
    AttributeError,
    OverflowError,
)


def untranslatable(error: BaseException, service: str, name: str) -> str:
    """What `translate_waiter`'s `error` says is wrong with waiter `service.name`,
    the waiter named first."""
    where = f"botocore waiter {service}.{name}"
    what = str(error) or type(error).__name__
    return what if what.startswith(where) else f"{where}: {what}"


InputT = TypeVar("InputT")
OutputT = TypeVar("OutputT")


class BotocoreWaiterError(WaiterConfigurationError):
    """botocore is missing, a service or waiter is not in the installed botocore, or
    a waiter's data cannot be translated."""


@dataclass(frozen=True)
class BotocoreWaiter:
    """One botocore waiter: its names, the operation it polls and our definition of it."""

    service: str
    name: str
    cli_name: str
    operation: str
    operation_method: str
    definition: WaiterDefinition
    delay: float
    max_attempts: int
    default_max_wait_time: float


def _botocore() -> Any:
    """The `botocore` package, or an error saying how to install it."""
    try:
        botocore = importlib.import_module("botocore")
        for part in ("session", "loaders", "exceptions"):
            importlib.import_module(f"botocore.{part}")
    except ImportError:
        raise BotocoreWaiterError(
            "botocore is not installed; botocore's waiters need it: "
            "pip install botocore (or boto3)"
        ) from None
    return botocore


def _session(session: Any) -> Any:
    if session is not None:
        return session
    return _default_session()


@functools.lru_cache(maxsize=1)
def _default_session() -> Any:
    return _botocore().session.get_session()


def _loader(session: Any) -> Any:
    return session.get_component("data_loader")


def available_services(session: Any = None) -> list[str]:
    """The services of the installed botocore that define waiters, sorted (a
    service whose `waiters-2.json` is empty is left out)."""
    session = _session(session)
    with_files = set(_loader(session).list_available_services("waiters-2"))
    services = []
    for service in session.get_available_services():
        if service not in with_files:
            continue
        try:
            document = _waiters_file(service, session)
        except BotocoreWaiterError:  # unreadable: `waiter_names(service)` says why
            continue
        if isinstance(document, dict) and document.get("waiters"):
            services.append(service)
    return sorted(services)


def _matcher(acceptor: Mapping[str, Any], where: str) -> Matcher:
    """botocore's matcher of one acceptor as the runtime's matcher.

    An acceptor without `expected` is refused as botocore's `AcceptorConfig`
    refuses it (a `KeyError`): read as `null`, a path matcher would match a missing
    value in a waiter botocore cannot build."""
    kind = acceptor.get("matcher")
    if "expected" not in acceptor:
        raise WaiterDefinitionError(
            f"{where}: the acceptor has no `expected`, which botocore requires"
        )
    expected = acceptor["expected"]
    if kind in ("path", "pathAll", "pathAny"):
        argument = acceptor.get("argument")
        if not isinstance(argument, str):
            raise WaiterDefinitionError(f"{where}: `{kind}` needs a string `argument`")
        return BotocorePathMatcher(argument, expected, BotocorePathMode(kind))
    if kind == "error":
        if not isinstance(expected, (str, bool)):
            raise WaiterDefinitionError(
                f"{where}: `error` expects a string or a boolean, got {expected!r}"
            )
        return BotocoreErrorMatcher(expected)
    if kind == "status":
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise WaiterDefinitionError(
                f"{where}: `status` expects an integer, got {expected!r}"
            )
        return StatusMatcher(expected)
    raise WaiterDefinitionError(
        f"{where}: unknown matcher {kind!r}; botocore's are path, pathAll, pathAny, "
        "error and status"
    )


#: The most attempts a botocore waiter's data may ask for: as many as a saved wait
#: may count (`waitable.steps.MAX_POLLS`), so its deadline stays a finite float.
MAX_ATTEMPTS = 2**53


def translate_waiter(
    service: str, name: str, config: Mapping[str, Any], xform_name: Any = None
) -> BotocoreWaiter:
    """One entry of `waiters-2.json`'s `waiters` map as a `BotocoreWaiter`.

    `xform_name` is botocore's name transform (imported when not given).
    """
    if xform_name is None:
        xform_name = _botocore().xform_name
    where = f"botocore waiter {service}.{name}"
    if not isinstance(config, Mapping):  # else "misses 'int' object is not ..."
        raise WaiterDefinitionError(
            f"{where} is {describe_value(config)}, not a JSON object; botocore's "
            "waiters-2.json maps each waiter name to an object"
        )
    try:
        operation = config["operation"]
        delay = config["delay"]
        max_attempts = config["maxAttempts"]
        raw_acceptors = config["acceptors"]
    except (KeyError, TypeError) as exc:
        raise WaiterDefinitionError(
            f"{where} misses {exc}; botocore's waiters-2.json requires operation, "
            "delay, maxAttempts and acceptors"
        ) from None
    if (
        isinstance(max_attempts, bool)
        or not isinstance(max_attempts, int)
        or not 1 <= max_attempts <= MAX_ATTEMPTS
    ):
        raise WaiterDefinitionError(
            f"{where}: maxAttempts must be an integer from 1 to {MAX_ATTEMPTS}, got "
            f"{describe_value(max_attempts)}"
        )
    acceptors = []
    for index, raw in enumerate(raw_acceptors):
        at = f"{where}, acceptor {index}"
        try:
            state = AcceptorState(raw.get("state"))
        except ValueError:
            raise WaiterDefinitionError(
                f"{at}: state {raw.get('state')!r} is not success, failure or retry"
            ) from None
        acceptors.append(Acceptor(state, _matcher(raw, at)))
    definition = WaiterDefinition(
        name=name,
        operation=operation,
        acceptors=tuple(acceptors),
        min_delay=delay,
        max_delay=delay,
        documentation=_documentation(config.get("description")),
    )
    return BotocoreWaiter(
        service=service,
        name=name,
        cli_name=xform_name(name, "-"),
        operation=operation,
        operation_method=xform_name(operation),
        definition=definition,
        delay=float(delay),
        max_attempts=int(max_attempts),
        default_max_wait_time=float(delay) * int(max_attempts),
    )


def _documentation(description: object) -> str | None:
    """botocore's `description` as the definition's documentation: text only, as
    `generate-waiters --botocore` keeps it (botocore ignores it when waiting), so a
    number or a blank string is no docstring and both give the same definition."""
    if isinstance(description, str) and description.strip():
        return description
    return None


def _waiters_file(service: str, session: Any) -> Any:
    """`service`'s `waiters-2.json` as botocore's loader reads it (None without one),
    or the `BotocoreWaiterError` saying it is not JSON: the loader's bare JSON error
    (custom data under `AWS_DATA_PATH`) would escape every caller, `waitable wait
    --list` included, as a traceback."""
    botocore = _botocore()
    try:
        return _loader(session).load_service_model(service, "waiters-2")
    except botocore.exceptions.DataNotFoundError:
        return None
    except ValueError as exc:  # json's JSONDecodeError, or an integer too long
        raise BotocoreWaiterError(
            f"botocore's waiters-2.json for service {service!r} is not JSON "
            f"({exc}); fix it (custom data under AWS_DATA_PATH?) or reinstall botocore"
        ) from None


def _waiters_document(service: str, session: Any) -> dict[str, Any]:
    """The raw `waiters` map of `service`'s `waiters-2.json`, or the error saying the
    installed botocore has no waiters for it (no file, or an empty one), or that its
    version is not botocore's 2 (botocore's client would run none of them)."""
    document = _waiters_file(service, session)
    waiters = document.get("waiters") if isinstance(document, dict) else None
    if not waiters or not isinstance(waiters, dict):
        # no file, or an empty one (bedrock's): no service with waiters
        raise BotocoreWaiterError(
            f"the installed botocore has no waiters for service {service!r}; "
            f"services with waiters: {', '.join(available_services(session))}"
        )
    version = document.get("version") if isinstance(document, dict) else None
    if version != 2:  # botocore's WaiterModel refuses any other, `!=` as here
        raise BotocoreWaiterError(
            f"botocore's waiters-2.json for service {service!r} has version "
            f"{describe_value(version)}, and botocore runs only version 2 waiters "
            "(its client refuses them all); fix the file (custom data under "
            "AWS_DATA_PATH?) or reinstall botocore"
        )
    return waiters


def waiter_names(service: str, session: Any = None) -> list[str]:
    """The names of `service`'s waiters in the installed botocore, sorted, read
    without translating them (as botocore's `client.waiter_names`)."""
    return sorted(_waiters_document(service, _session(session)))


def service_waiter(service: str, name: str, session: Any = None) -> BotocoreWaiter:
    """botocore's waiter `name` of `service`, translated alone: a waiter of the same
    service that cannot be translated does not matter, as botocore builds a waiter
    only when asked for it.

    A waiter that is not there, or whose data cannot be translated (a matcher of a
    newer botocore, custom data under `AWS_DATA_PATH`), is a `BotocoreWaiterError`
    naming the service, the waiter and what is wrong.
    """
    session = _session(session)
    waiters = _waiters_document(service, session)
    if name not in waiters:
        raise BotocoreWaiterError(
            f"service {service!r} has no botocore waiter {name!r}; "
            f"its waiters: {', '.join(sorted(waiters))}"
        )
    xform_name = _botocore().xform_name
    try:
        return translate_waiter(service, name, waiters[name], xform_name)
    except UNTRANSLATABLE as exc:
        what = untranslatable(exc, service, name)
        raise BotocoreWaiterError(
            f"{what}; waitable cannot translate this waiter's data (from a newer "
            "botocore, or custom data under AWS_DATA_PATH?); the other waiters of "
            f"{service!r} are not affected"
        ) from exc


def service_waiters(service: str, session: Any = None) -> dict[str, BotocoreWaiter]:
    """Every waiter of `service` in the installed botocore, keyed by botocore's name.

    All or nothing: one waiter that cannot be translated raises its
    `BotocoreWaiterError` (`service_waiter`); `waiter_names` and `service_waiter`
    take the waiters one at a time.
    """
    session = _session(session)
    return {
        name: service_waiter(service, name, session)
        for name in waiter_names(service, session)
    }


def default_config(
    delay: float,
    max_attempts: int,
    given: WaiterConfig | None = None,
    *,
    backoff: bool = True,
) -> WaiterConfig:
    """botocore's timing (a fixed `delay`, `delay × max_attempts` to wait) under
    whatever `given` sets; `backoff=False` leaves the strategy to the caller.

    With the fixed delay and no `wait_timeout`, the limits follow boto3's
    `WaiterConfig` (as `waitable wait`'s options do): `max_attempts` given are the
    limit (all of them are made, with no deadline: `wait_timeout` stays None), and
    a `min_delay` given spaces botocore's attempts. Another strategy keeps
    botocore's deadline. A bound given alone moves the other one along with it
    when botocore's delay would cross it (`min_delay=60` on a 5 s waiter polls
    every 60 s)."""
    given = WaiterConfig() if given is None else given
    strategy = given.strategy
    if strategy is None and backoff:
        strategy = FixedDelay()
    low, high = given.min_delay, given.max_delay
    if low is None:
        low = delay if high is None else min(delay, high)
    if high is None:
        high = max(delay, low)
    wait_timeout = given.wait_timeout
    if wait_timeout is None:
        wait_timeout = delay * max_attempts
        if type(strategy) is FixedDelay and strategy.delay is None:
            if given.max_attempts is not None:
                wait_timeout = None  # the attempts are the limit
            else:  # botocore's attempts, spaced by the fixed delay (min_delay)
                wait_timeout = min(low * max_attempts, MAX_SECONDS)
    return WaiterConfig(
        max_attempts=given.max_attempts,
        wait_timeout=wait_timeout,
        backoff=strategy,
        min_delay=low,
        max_delay=high,
    )


class _BotocoreTiming:
    """botocore's timing for the waiter classes below, wherever limits are given:
    at construction, in a `config` set later, and per `wait()` (boto3's
    `WaiterConfig={"Delay": 60}` is `wait(input, min_delay=60)`): each goes
    through `default_config` over the caller's own config."""

    definition: ClassVar[WaiterDefinition]
    botocore_max_attempts: ClassVar[int]
    attempts_bound_alone: ClassVar[bool] = True
    config: WaiterConfig
    backoff: Backoff
    _backoff_given: bool
    #: The caller's own config (an empty one when none was given), before
    #: botocore's timing fills it: what per-call limits are merged into.
    _given_config: WaiterConfig

    def _botocore_config(self, given: WaiterConfig, backoff: bool) -> WaiterConfig:
        cls = type(self)
        return default_config(
            cls.definition.min_delay, cls.botocore_max_attempts, given, backoff=backoff
        )

    def _with_defaults(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The constructor's arguments with botocore's timing filling the `config`."""
        given = kwargs.get("config")
        given = (
            WaiterConfig()
            if given is None
            else checked_config(type(self).definition.name, given)
        )
        object.__setattr__(self, "_given_config", given)
        backoff = kwargs.get("backoff") is None
        return {**kwargs, "config": self._botocore_config(given, backoff)}

    def __setattr__(self, name: str, value: Any) -> None:
        """A `config` set later gets botocore's timing too, as one given at construction."""
        if name == "config" and "_backoff_given" in self.__dict__:
            given = checked_config(type(self).definition.name, value)
            object.__setattr__(self, "_given_config", given)
            value = self._botocore_config(given, not self._backoff_given)
        super().__setattr__(name, value)

    def _options(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitOptions:
        """Limits given to `wait()` move botocore's timing as the same limits in the
        config do (`default_config`); a deadline given here or in the caller's
        config stands."""
        given = self._given_config
        config = self.config
        if (min_delay, max_delay, max_attempts) != (None, None, None):
            config = self._botocore_config(
                WaiterConfig(
                    wait_timeout=given.wait_timeout,
                    max_attempts=(
                        given.max_attempts if max_attempts is None else max_attempts
                    ),
                    min_delay=given.min_delay if min_delay is None else min_delay,
                    max_delay=given.max_delay if max_delay is None else max_delay,
                    backoff=self.backoff if backoff is None else backoff,
                ),
                True,
            )
        options: WaitOptions = self._options_under(  # type: ignore[attr-defined]
            config, max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        return options


class BotocoreDefaultsWaiter(_BotocoreTiming, Waiter[InputT, OutputT]):
    """A `Waiter` with botocore's timing as its defaults: a fixed delay (the
    definition's `min_delay`) and `min_delay × botocore_max_attempts` to wait."""

    def __init__(self, client: object, **kwargs: Any) -> None:
        super().__init__(client, **self._with_defaults(kwargs))


class AsyncBotocoreDefaultsWaiter(_BotocoreTiming, AsyncWaiter[InputT, OutputT]):
    """`BotocoreDefaultsWaiter` for asyncio."""

    def __init__(self, client: object, **kwargs: Any) -> None:
        super().__init__(client, **self._with_defaults(kwargs))


@overload
def waiter_class(
    service: str,
    name: str,
    *,
    asynchronous: Literal[False] = False,
    session: Any = None,
) -> type[Waiter[Any, Any]]: ...


@overload
def waiter_class(
    service: str, name: str, *, asynchronous: Literal[True], session: Any = None
) -> type[AsyncWaiter[Any, Any]]: ...


@overload
def waiter_class(
    service: str, name: str, *, asynchronous: bool, session: Any = None
) -> type[Waiter[Any, Any]] | type[AsyncWaiter[Any, Any]]: ...


def waiter_class(
    service: str, name: str, *, asynchronous: bool = False, session: Any = None
) -> type[Waiter[Any, Any]] | type[AsyncWaiter[Any, Any]]:
    """A waiter class for botocore's waiter `name` of `service` (e.g. ec2, InstanceRunning).

    Construct it with a boto3 client (an aiobotocore one when `asynchronous`);
    `wait(input)` uses botocore's delay and `delay × maxAttempts` as the default
    `max_wait_time` unless given a `config=` or per-call overrides.
    """
    waiter = service_waiter(service, name, session)
    base: type[Any] = (
        AsyncBotocoreDefaultsWaiter if asynchronous else BotocoreDefaultsWaiter
    )
    namespace = {
        "__doc__": waiter.definition.documentation
        or f"botocore's {service} waiter {name}.",
        "__module__": __name__,
        "definition": waiter.definition,
        "operation_method": waiter.operation_method,
        "botocore_waiter": waiter,
        "botocore_max_attempts": waiter.max_attempts,
    }
    cls: type[Any] = type(name + "Waiter", (base,), namespace)
    return cls
