"""The click commands of `waitable`: `waitable simulate` and its options (and `wait`)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import click

from ..config import STRATEGY_NAMES, WaiterConfig, named_strategy
from ..definition import WaiterDefinition
from ..errors import (
    WaiterConfigurationError,
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterTimeoutError,
)
from ..files import UnreadableFile, read_text
from ..import_names import ImportNameError, import_object
from ..seconds import SecondsError, describe_value, parse_seconds
from ..standard_output import echo_out
from ..wait_cli.advice import Rewrites, option_rewrites, rewrite
from ..wait_cli.command import wait
from ..wait_cli.input_options import load_json
from ..waiter import AsyncWaiter, Waiter
from .data import render_json
from .html import render_html
from .report import build_report
from .resource import ResourceModel
from .simulation import (
    MAX_CALL_DURATION,
    PENDING,
    READY,
    Candidate,
    SimulationError,
    first_check_end,
    strategy_candidate,
    strategy_settings,
    wait_limits,
)
from .svg import render_svg
from .text import render_text

__all__ = ["simulate", "waitable"]

#: The parameters each named strategy takes (the shared options are filtered by these).
PARAMETERS: dict[str, tuple[str, ...]] = {
    "smithy": ("min_delay", "max_delay"),
    "retryImmediately": (),
    "fixedDelayWithoutJitter": ("delay",),
    "fixedDelay": ("delay",),
    "exponentialDelayWithoutJitter": ("base_delay", "max_delay"),
    "exponentialDelay": ("base_delay", "max_delay"),
    "exponentialDelayHalfJitter": ("base_delay", "max_delay"),
}
#: The command's option for each strategy parameter.
FLAGS: dict[str, str] = {
    "delay": "--delay",
    "base_delay": "--base-delay",
    "max_delay": "--max-delay",
    "min_delay": "--min-delay",
}
#: What a --waiter run without --strategy takes: the delay bounds of its own backoff.
OWN_BACKOFF_PARAMETERS = ("min_delay", "max_delay")
ITEM_KEYS = (
    "delay",
    "base_delay",
    "max_delay",
    "min_delay",
    "max_attempts",
    "call_duration",
    "label",
)

#: The runtime's messages in the command's words: a Python caller's arguments
#: (`wait_timeout=15`, `min_delay`) as the options (`--wait-timeout 15`,
#: `--min-delay`), as `waitable wait` does with its own (`wait_cli.advice`).
#: `delay` alone is left as it is (an English word too), and `WaiterConfig: `, the
#: owner of a config's message, is dropped: the command makes the config.
ADVICE: Rewrites = (
    (re.compile(r"\bWaiterConfig: "), ""),
    # "pass max_attempts (--max-attempts)": the option once
    (re.compile(r"\b[a-z]+(?:_[a-z]+)+ \((--[a-z][a-z-]*)\)"), r"\1"),
) + option_rewrites(
    {
        "wait_timeout": "--wait-timeout",
        "max_wait_time": "--wait-timeout",
        "max_attempts": "--max-attempts",
        "min_delay": "--min-delay",
        "max_delay": "--max-delay",
        "base_delay": "--base-delay",
        "delay": "--delay",
        "call_duration": "--call-duration",
    },
    seconds=("wait_timeout", "max_wait_time"),
    alone=(
        "wait_timeout",
        "max_wait_time",
        "max_attempts",
        "min_delay",
        "max_delay",
        "base_delay",
        "call_duration",
    ),
)
#: In a --compare entry's message the keys are the command's own (`delay=15`):
#: only the config's name is dropped.
COMPARE_ADVICE: Rewrites = ADVICE[:1]


def for_simulate(message: str) -> str:
    """A runtime error's `message` with its advice in the command's options."""
    return rewrite(message, ADVICE)


def _seconds_option(
    ctx: click.Context, param: click.Parameter, value: float | None
) -> float | None:
    """A seconds option as the runtime accepts it (`waitable.seconds`), checked as the
    option is read so that its error names the option: > 0, finite, at most 100 years.
    """
    if value is None:
        return None
    try:
        return parse_seconds(_whole(value))
    except SecondsError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


@click.group()
def waitable() -> None:
    """waitable: tools for Smithy waiters built with the waitable runtime."""


waitable.add_command(wait)


def _number(text: str, what: str, option: str = "--compare") -> float:
    """`text` as seconds (an `int` when whole, as the engine reads whole seconds)."""
    try:
        value = float(text)
    except ValueError:
        raise click.BadParameter(
            f"{what} must be a number of seconds, got {describe_value(text)}",
            param_hint=option,
        ) from None
    return int(value) if value.is_integer() else value


def _attempts(text: str, item: str) -> int:
    """An entry's `max_attempts=` as a whole number >= 1; `1.5` is refused, not cut to 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise click.BadParameter(
            f"{item!r}: max_attempts must be a whole number >= 1, got {text!r}; "
            "write e.g. max_attempts=40",
            param_hint="--compare",
        )
    return value


def _call_duration(text: str, item: str) -> float:
    """An entry's `call_duration=` as seconds >= 0, refused in the entry's own words
    (its key, not the --call-duration option; the entry named once)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value < MAX_CALL_DURATION:
        raise click.BadParameter(
            f"{item!r}: call_duration must be seconds >= 0 and below "
            f"{MAX_CALL_DURATION:.0f}, got {text!r}; write e.g. call_duration=0.2",
            param_hint="--compare",
        )
    return int(value) if value.is_integer() else value


def _and(names: tuple[str, ...] | list[str], word: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`: names for a message."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def _takers(key: str) -> list[str]:
    """The named strategies that take parameter `key`."""
    return [name for name in STRATEGY_NAMES if key in PARAMETERS[name]]


def _item_pairs(item: str, name: str) -> dict[str, str]:
    """An entry's `key=value` pairs; a repeated, unknown or misplaced key is refused.

    Refused rather than dropped: a key the strategy does not take, or the first
    of two values, would otherwise be silently ignored.
    """
    pairs: dict[str, str] = {}
    for pair in item.strip().split(":")[1:]:
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or key not in ITEM_KEYS:
            raise click.BadParameter(
                f"{item!r}: write NAME:key=value with keys {', '.join(ITEM_KEYS)}",
                param_hint="--compare",
            )
        if key in pairs:
            raise click.BadParameter(
                f"{item!r}: {key} is given twice; keep one", param_hint="--compare"
            )
        if key in FLAGS and key not in PARAMETERS[name]:
            raise click.BadParameter(
                f"{item!r}: {name} takes "
                f"{_and(PARAMETERS[name]) or 'no delay parameters'}, not {key} "
                f"({_and(_takers(key), 'or')} take {key})",
                param_hint="--compare",
            )
        if not value:
            raise click.BadParameter(
                f"{item!r}: {key}= has no value", param_hint="--compare"
            )
        pairs[key] = value
    return pairs


def _compare_item(
    item: str, shared: dict[str, float], common: dict[str, Any]
) -> tuple[Candidate, set[str]]:
    """`name[:key=value...]`, e.g. `fixedDelayWithoutJitter:delay=15:max_attempts=40:label=botocore`.

    Returns the candidate and the shared options (`delay`, `max_attempts`, ...)
    that reached it: one the strategy does not take, or that the entry sets
    itself, did not (the caller refuses an option that reached no entry).
    """
    name = item.split(":")[0].strip()  # " fixedDelay : delay=3" as its keys are
    if name not in PARAMETERS:
        raise click.BadParameter(
            f"unknown strategy {name!r} in --compare; use one of {', '.join(STRATEGY_NAMES)}",
            param_hint="--compare",
        )
    pairs = _item_pairs(item, name)
    params: dict[str, Any] = {
        k: v for k, v in shared.items() if k in PARAMETERS[name] and k not in pairs
    }
    options = {k: v for k, v in common.items() if k not in pairs}
    used = set(params) | set(options)
    params.update({k: _number(v, k) for k, v in pairs.items() if k in FLAGS})
    if "max_attempts" in pairs:
        options["max_attempts"] = _attempts(pairs["max_attempts"], item)
    if "call_duration" in pairs:
        options["call_duration"] = _call_duration(pairs["call_duration"], item.strip())
    label = pairs.get("label", item.strip())
    try:
        candidate = strategy_candidate(name, label=label, **options, **params)
    except WaiterConfigurationError as exc:
        if not pairs:  # the options' values only (--strategy, or a bare entry)
            raise
        raise click.BadParameter(
            f"{item.strip()!r}: {rewrite(str(exc), COMPARE_ADVICE)}",
            param_hint="--compare",
        ) from None
    return candidate, used


def _compare_candidates(
    compare: str, shared: dict[str, float], common: dict[str, Any]
) -> list[Candidate]:
    """Every --compare entry's candidate; an empty entry, or a shared option that
    reaches no entry, is a usage error (it would draw nothing, or do nothing)."""
    items = compare.split(",")
    for number, item in enumerate(items, 1):
        if not item.strip():
            raise click.BadParameter(
                f"entry {number} of {len(items)} is empty; write comma-separated "
                "NAME[:key=value...] entries, e.g. smithy,fixedDelay:delay=15",
                param_hint="--compare",
            )
    built = [_compare_item(item, shared, common) for item in items]
    used = set().union(*(reached for _, reached in built))
    for key in [*shared, *common]:
        if key not in used and key != "wait_timeout":
            raise click.UsageError(_unused_in_compare(key))
    return [candidate for candidate, _ in built]


def _unused_in_compare(key: str) -> str:
    """Why the shared option `key` reached no --compare entry, and what to do."""
    flag = FLAGS.get(key, "--" + key.replace("_", "-"))
    if key in FLAGS:
        return (
            f"{flag} applies to no --compare entry: it is the {key} of "
            f"{_and(_takers(key), 'and')} entries that do not set {key}= "
            f"themselves; drop {flag}, or list such an entry"
        )
    return (
        f"{flag} applies to no --compare entry: every entry sets its own "
        f"{key}=; drop {flag}"
    )


def _check_parameters(
    shared: dict[str, float], takes: tuple[str, ...], what: str
) -> None:
    """Refuse a delay option `what` (e.g. `--strategy exponentialDelay`) does not take.

    Without this, `--strategy exponentialDelay --delay 5` ran with the default
    delays and no word about --delay.
    """
    for key in shared:
        if key in takes:
            continue
        flag = FLAGS[key]
        instead = (
            f"it takes {_and([FLAGS[k] for k in takes])}; pass those instead"
            if takes
            else f"it takes no delays; drop {flag}"
        )
        raise click.UsageError(
            f"{flag} does not apply to {what}: {instead}, or pass --strategy "
            f"{_and(_takers(key), 'or')} to use {flag}"
        )


def _json_option(text: str | None, default: Any, option: str) -> Any:
    """The option's JSON, read as `waitable wait` reads its `--input` (`load_json`)."""
    if text is None:
        return default
    try:
        return load_json(text)
    except ValueError as exc:
        raise click.BadParameter(f"not valid JSON ({exc})", param_hint=option) from None


def _waiter_class(spec: str) -> type[Any]:
    """The waiter class `spec` (`module:Class`, `module:Class.Async`) names; a usage
    error saying what to write when it names none."""
    try:
        found = import_object(spec)
    except ImportNameError as exc:
        module_name = spec.partition(":")[0]
        advice = {
            "malformed": "write MODULE:CLASS with an absolute, dotted module name, "
            "e.g. my_waiters.ec2:InstanceRunningWaiter",
            "missing": "check the name and that its module is on PYTHONPATH",
            "raised": f"run python -c 'import {module_name}' to see where",
        }[exc.kind]
        raise click.BadParameter(
            f"{spec!r}: {exc}; {advice}", param_hint="--waiter"
        ) from None
    if not (
        isinstance(found, type)
        and issubclass(found, (Waiter, AsyncWaiter))
        and isinstance(getattr(found, "definition", None), WaiterDefinition)
    ):
        raise click.BadParameter(
            f"{spec!r} is not a waiter class (a generated class or custom_waiter(...))",
            param_hint="--waiter",
        )
    return found


def _one_line(exc: BaseException) -> str:
    """`exc`'s message on one line (a usage error is one line)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def _resource(
    ready_after: float | None,
    ready_uniform: tuple[float, float] | None,
    ready_samples: str | None,
) -> ResourceModel:
    given = [x is not None for x in (ready_after, ready_uniform, ready_samples)]
    if sum(given) > 1:
        raise click.UsageError(
            "give one of --ready-after, --ready-uniform and --ready-samples"
        )
    if ready_uniform is not None:
        return ResourceModel(ready_uniform[0], ready_uniform[1])
    if ready_samples is not None:
        text = ready_samples
        where = "given"
        if text.startswith("@"):
            if not text[1:]:
                raise click.BadParameter(
                    "@ names no file; write @FILE, or the times, e.g. 30,45,120",
                    param_hint="--ready-samples",
                )
            where = f"in {text[1:]}"
            try:
                text = read_text(text[1:])
            except UnreadableFile as exc:
                raise click.BadParameter(
                    f"cannot read {text[1:]} ({exc})", param_hint="--ready-samples"
                ) from None
        samples = [s for s in text.replace("\n", ",").split(",") if s.strip()]
        if not samples:
            raise click.BadParameter(
                f"no samples {where}; write comma- or line-separated seconds, "
                "e.g. 30,45,120",
                param_hint="--ready-samples",
            )
        return ResourceModel(
            samples=tuple(
                _number(s.strip(), "a sample", "--ready-samples") for s in samples
            )
        )
    return ResourceModel(10 if ready_after is None else ready_after)


@waitable.command()
@click.option(
    "--strategy",
    type=click.Choice(STRATEGY_NAMES),
    help="Backoff strategy by seed 004's name (smithy: the spec's default).",
)
@click.option(
    "--compare",
    metavar="LIST",
    help="Comma-separated strategies, each NAME[:key=value...] "
    "(keys: delay, base_delay, max_delay, min_delay, max_attempts, call_duration, label).",
)
@click.option(
    "--delay",
    type=float,
    callback=_seconds_option,
    help="Delay of the fixed strategies (seconds).",
)
@click.option(
    "--base-delay",
    type=float,
    callback=_seconds_option,
    help="Base delay of the exponential strategies.",
)
@click.option(
    "--max-delay",
    type=float,
    callback=_seconds_option,
    help="Cap of the exponential and smithy delays.",
)
@click.option(
    "--min-delay", type=float, callback=_seconds_option, help="Smithy's minimum delay."
)
@click.option("--max-attempts", type=click.IntRange(min=1), help="Cap on checks.")
@click.option(
    "--wait-timeout",
    "--max-wait-time",
    "wait_timeout",
    type=float,
    callback=_seconds_option,
    help="How long to wait (seconds).",
)
@click.option(
    "--waiter",
    metavar="MODULE:CLASS",
    help="Simulate a generated or custom waiter class instead of a strategy.",
)
@click.option(
    "--input", "input_json", metavar="JSON", help="The waiter's input (--waiter)."
)
@click.option(
    "--ready-output",
    metavar="JSON",
    help='What the operation returns once ready (default {"status": "ready"}).',
)
@click.option(
    "--pending-output",
    metavar="JSON",
    help='What it returns before (default {"status": "pending"}).',
)
@click.option(
    "--ready-after",
    type=click.FloatRange(min=0),
    help="The resource is ready after this many seconds (default 10).",
)
@click.option(
    "--ready-uniform",
    type=(float, float),
    metavar="LOW HIGH",
    help="Ready at a time drawn uniformly between LOW and HIGH.",
)
@click.option(
    "--ready-samples",
    metavar="LIST|@FILE",
    help="Ready at one of these times (comma-separated, or a file of them).",
)
@click.option(
    "--call-duration",
    type=click.FloatRange(min=0),
    help="Seconds each check takes (default 0).",
)
@click.option("--runs", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--svg", "svg_path", type=click.Path(dir_okay=False), help="Write the timeline SVG."
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    help="Write a self-contained HTML page.",
)
def simulate(
    strategy: str | None,
    compare: str | None,
    delay: float | None,
    base_delay: float | None,
    max_delay: float | None,
    min_delay: float | None,
    max_attempts: int | None,
    wait_timeout: float | None,
    waiter: str | None,
    input_json: str | None,
    ready_output: str | None,
    pending_output: str | None,
    ready_after: float | None,
    ready_uniform: tuple[float, float] | None,
    ready_samples: str | None,
    call_duration: float | None,
    runs: int,
    seed: int,
    as_json: bool,
    svg_path: str | None,
    html_path: str | None,
) -> None:
    """Simulate waits on a virtual clock and report calls, detection lag and failures.

    Runs the real waiter engine against a resource that turns ready at a chosen
    time; --compare puts several strategies side by side over the same ready times.
    """
    shared = {
        key: _whole(value)
        for key, value in (
            ("delay", delay),
            ("base_delay", base_delay),
            ("max_delay", max_delay),
            ("min_delay", min_delay),
        )
        if value is not None
    }
    common: dict[str, Any] = {
        key: value
        for key, value in (
            ("max_attempts", max_attempts),
            ("wait_timeout", None if wait_timeout is None else _whole(wait_timeout)),
            ("call_duration", call_duration),
        )
        if value is not None
    }
    io = {
        "--input": input_json,
        "--ready-output": ready_output,
        "--pending-output": pending_output,
    }
    try:
        resource = _resource(ready_after, ready_uniform, ready_samples)
        candidates = _candidates(strategy, compare, waiter, shared, common, io)
        for candidate in candidates:
            _check_limits(candidate)
        if waiter is not None:
            _check_outputs(candidates[0], io)
        report = build_report(candidates, resource, runs=runs, seed=seed)
    except (WaiterConfigurationError, SimulationError, WaiterError) as exc:
        raise click.UsageError(for_simulate(_one_line(exc))) from None
    echo_out(render_json(report) if as_json else render_text(report), nl=False)
    for target, render in ((svg_path, render_svg), (html_path, render_html)):
        if target is not None:
            try:
                Path(target).write_bytes(render(report).encode("utf-8"))
            except OSError as exc:
                raise click.UsageError(f"cannot write {target} ({exc})") from None


def _whole(value: float) -> float:
    """`value` as an `int` when whole: the engine reads whole seconds as whole-second jitter."""
    return int(value) if float(value).is_integer() else value


def _candidates(
    strategy: str | None,
    compare: str | None,
    waiter: str | None,
    shared: dict[str, float],
    common: dict[str, Any],
    io: dict[str, str | None],
) -> list[Candidate]:
    """The candidates the options describe; an option that would do nothing is refused."""
    if compare is not None and (waiter is not None or strategy is not None):
        raise click.UsageError("--compare takes the place of --strategy and --waiter")
    if waiter is None:
        _refuse_waiter_only(io)
    if compare is not None:
        return _compare_candidates(compare, shared, common)
    if waiter is not None:
        return [_waiter_candidate(waiter, strategy, shared, common, io)]
    what = f"--strategy {strategy}" if strategy else "smithy, the default strategy"
    _check_parameters(shared, PARAMETERS[strategy or "smithy"], what)
    candidate, _ = _compare_item(strategy or "smithy", shared, common)
    return [candidate]


def _refuse_waiter_only(io: dict[str, str | None]) -> None:
    """Refuse --input/--ready-output/--pending-output without --waiter: the built-in
    resource has fixed answers, so they would be silently ignored."""
    given = [flag for flag, value in io.items() if value is not None]
    if given:
        raise click.UsageError(
            f"{_and(given)} {'apply' if len(given) > 1 else 'applies'} only with "
            "--waiter MODULE:CLASS (the built-in resource answers "
            '{"status": "ready"} or {"status": "pending"}); '
            f"drop {_and(given)} or pass --waiter"
        )


def _check_limits(candidate: Candidate) -> None:
    """Refuse a candidate whose waits cannot start, saying which option to add.

    The engine decides (`wait_limits`): a waiter with its own limits (a builder's
    `max_attempts=120`) needs no --wait-timeout; a generated one needs it even
    with --max-attempts, as the Smithy spec does.
    """
    try:
        wait_limits(candidate)
    except WaiterConfigurationError:
        if candidate.max_wait_time is not None or not _starts(
            candidate, max_wait_time=1
        ):
            raise
        either = " (or --max-attempts N)" if _starts(candidate, max_attempts=1) else ""
        raise click.UsageError(
            f"{candidate.label}: say how long to wait: pass --wait-timeout "
            f"SECONDS{either}"
        ) from None


def _check_outputs(candidate: Candidate, io: dict[str, str | None]) -> None:
    """Refuse a --waiter's ready output that does not end its wait, or a pending one
    that does: the runs would measure nothing (every check drawn "ready" and the
    waits running out, or a success before the resource is ready)."""
    label = candidate.label
    name = candidate.waiter_class.definition.name
    ready = first_check_end(candidate, candidate.ready_output)
    pending = first_check_end(candidate, candidate.pending_output)
    why = None
    if isinstance(ready, (WaiterMaxAttemptsError, WaiterTimeoutError)):
        flag, output, wanted = "--ready-output", candidate.ready_output, "once ready"
        why = (
            f"does not end a wait of {label}: no success or failure acceptor of "
            f"{name} matches it, so every check would see the resource pending"
        )
    elif ready is not None and not isinstance(ready, WaiterFailureStateError):
        flag, output, wanted = "--ready-output", candidate.ready_output, "once ready"
        why = f"cannot be judged by {label}: {_one_line(ready)}"
    elif isinstance(pending, (WaiterMaxAttemptsError, WaiterTimeoutError)):
        return
    else:
        flag, output = "--pending-output", candidate.pending_output
        wanted = "before the resource is ready"
        why = (
            f"already ends a wait of {label} in success, so every run would "
            "succeed at its first check, before the resource is ready"
            if pending is None
            else f"already ends a wait of {label} at its first check: "
            + _one_line(pending)
        )
    text = json.dumps(output)  # JSON read from the options (or the defaults)
    shown = text if len(text) <= 60 else text[:57] + "..."
    default = " (the default)" if io[flag] is None else ""
    raise click.UsageError(
        f"{flag} {shown}{default} {why}; pass {flag} with what the operation "
        f"returns {wanted}"
    )


def _starts(
    candidate: Candidate,
    *,
    max_wait_time: float | None = None,
    max_attempts: int | None = None,
) -> bool:
    """Whether `candidate`'s waits could start with this deadline or attempts cap added."""
    try:
        wait_limits(candidate, max_wait_time=max_wait_time, max_attempts=max_attempts)
    except WaiterConfigurationError:
        return False
    return True


def _waiter_candidate(
    spec: str,
    strategy: str | None,
    shared: dict[str, float],
    common: dict[str, Any],
    io: dict[str, str | None],
) -> Candidate:
    """A --waiter class's candidate: with --strategy its backoff is replaced, else
    --min-delay/--max-delay set its own backoff's delay bounds."""
    cls = _waiter_class(spec)
    settings: tuple[tuple[str, Any], ...] = (("waiter", spec),)
    if strategy is not None:
        _check_parameters(shared, PARAMETERS[strategy], f"--strategy {strategy}")
        named = named_strategy(strategy, **shared)
        config = WaiterConfig(
            max_attempts=common.get("max_attempts"),
            wait_timeout=common.get("wait_timeout"),
            backoff=named,
        )
        settings += (
            ("strategy", strategy),
            *strategy_settings(strategy, named, cls.definition),
        )
    else:
        what = "--waiter without --strategy (it keeps its own backoff)"
        _check_parameters(shared, OWN_BACKOFF_PARAMETERS, what)
        config = WaiterConfig(
            max_attempts=common.get("max_attempts"),
            wait_timeout=common.get("wait_timeout"),
            min_delay=shared.get("min_delay"),
            max_delay=shared.get("max_delay"),
        )
        settings += tuple(sorted(shared.items()))
    return Candidate(
        spec,
        cls,
        config,
        max_wait_time=common.get("wait_timeout"),
        input=_json_option(io["--input"], {}, "--input"),
        ready_output=_json_option(io["--ready-output"], dict(READY), "--ready-output"),
        pending_output=_json_option(
            io["--pending-output"], dict(PENDING), "--pending-output"
        ),
        call_duration=common.get("call_duration", 0.0),
        settings=settings,
    )
