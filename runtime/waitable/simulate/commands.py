"""The click commands of `waitable`: `waitable simulate` and its options (and `wait`)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import click

from ..config import STRATEGY_NAMES, WaiterConfig, named_strategy
from ..errors import WaiterConfigurationError, WaiterError
from ..wait_cli.command import wait
from .data import render_json
from .html import render_html
from .report import build_report
from .resource import ResourceModel
from .simulation import PENDING, READY, Candidate, SimulationError, strategy_candidate
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
ITEM_KEYS = (
    "delay",
    "base_delay",
    "max_delay",
    "min_delay",
    "max_attempts",
    "call_duration",
    "label",
)


@click.group()
def waitable() -> None:
    """waitable: tools for Smithy waiters built with the waitable runtime."""


waitable.add_command(wait)


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise click.BadParameter(
            f"{what} must be a number of seconds, got {text!r}"
        ) from None
    return int(value) if value.is_integer() else value


def _compare_item(
    item: str, shared: dict[str, float], common: dict[str, Any]
) -> Candidate:
    """`name[:key=value...]`, e.g. `fixedDelayWithoutJitter:delay=15:max_attempts=40:label=botocore`."""
    name, *pairs = item.strip().split(":")
    if name not in PARAMETERS:
        raise click.BadParameter(
            f"unknown strategy {name!r} in --compare; use one of {', '.join(STRATEGY_NAMES)}",
            param_hint="--compare",
        )
    params: dict[str, Any] = {k: v for k, v in shared.items() if k in PARAMETERS[name]}
    options = dict(common)
    label = None
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in ITEM_KEYS:
            raise click.BadParameter(
                f"{item!r}: write NAME:key=value with keys {', '.join(ITEM_KEYS)}",
                param_hint="--compare",
            )
        if key == "label":
            label = value
        elif key == "max_attempts":
            options["max_attempts"] = int(_number(value, key))
        elif key == "call_duration":
            options["call_duration"] = _number(value, key)
        elif key not in PARAMETERS[name]:
            raise click.BadParameter(
                f"{item!r}: {name} takes {', '.join(PARAMETERS[name]) or 'no parameters'}",
                param_hint="--compare",
            )
        else:
            params[key] = _number(value, key)
    return strategy_candidate(name, label=label or item.strip(), **options, **params)


def _json_option(text: str | None, default: Any, option: str) -> Any:
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError as exc:
        raise click.BadParameter(f"not valid JSON ({exc})", param_hint=option) from None


def _waiter_class(spec: str) -> type[Any]:
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise click.BadParameter(
            f"{spec!r}: write module:Class, e.g. my_waiters.ec2:InstanceRunningWaiter",
            param_hint="--waiter",
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise click.BadParameter(
            f"cannot import module {module_name!r} ({exc}); check the name and that it is "
            "on PYTHONPATH",
            param_hint="--waiter",
        ) from None
    found: Any = module
    for part in attribute.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type) or not hasattr(found, "definition"):
        raise click.BadParameter(
            f"{spec!r} is not a waiter class (a generated class or custom_waiter(...))",
            param_hint="--waiter",
        )
    return found


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
        if text.startswith("@"):
            try:
                text = Path(text[1:]).read_text(encoding="utf-8")
            except OSError as exc:
                raise click.BadParameter(
                    f"cannot read {text[1:]} ({exc})", param_hint="--ready-samples"
                ) from None
        samples = [s for s in text.replace("\n", ",").split(",") if s.strip()]
        if not samples:
            raise click.BadParameter("no samples given", param_hint="--ready-samples")
        return ResourceModel(
            samples=tuple(_number(s.strip(), "a sample") for s in samples)
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
@click.option("--delay", type=float, help="Delay of the fixed strategies (seconds).")
@click.option(
    "--base-delay", type=float, help="Base delay of the exponential strategies."
)
@click.option(
    "--max-delay", type=float, help="Cap of the exponential and smithy delays."
)
@click.option("--min-delay", type=float, help="Smithy's minimum delay.")
@click.option("--max-attempts", type=click.IntRange(min=1), help="Cap on checks.")
@click.option(
    "--wait-timeout",
    "--max-wait-time",
    "wait_timeout",
    type=click.FloatRange(min=0, min_open=True),
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
    default=0.0,
    show_default=True,
    help="Seconds each check takes.",
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
    call_duration: float,
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
        key: (int(value) if float(value).is_integer() else value)
        for key, value in (
            ("delay", delay),
            ("base_delay", base_delay),
            ("max_delay", max_delay),
            ("min_delay", min_delay),
        )
        if value is not None
    }
    common: dict[str, Any] = {
        "max_attempts": max_attempts,
        "wait_timeout": None if wait_timeout is None else _whole(wait_timeout),
        "call_duration": call_duration,
    }
    try:
        resource = _resource(ready_after, ready_uniform, ready_samples)
        if compare is not None and (waiter is not None or strategy is not None):
            raise click.UsageError(
                "--compare takes the place of --strategy and --waiter"
            )
        if compare is not None:
            candidates = [
                _compare_item(item, shared, common)
                for item in compare.split(",")
                if item
            ]
        elif waiter is not None:
            candidates = [
                _waiter_candidate(
                    waiter,
                    strategy,
                    shared,
                    common,
                    input_json,
                    ready_output,
                    pending_output,
                )
            ]
        else:
            candidates = [_compare_item(strategy or "smithy", shared, common)]
        for candidate in candidates:
            if (
                candidate.max_wait_time is None
                and candidate.config.wait_timeout is None
                and candidate.config.max_attempts is None
            ):
                raise click.UsageError(
                    f"{candidate.label}: say how long to wait: pass --wait-timeout "
                    "SECONDS (or --max-attempts N)"
                )
        report = build_report(candidates, resource, runs=runs, seed=seed)
    except (WaiterConfigurationError, SimulationError, WaiterError) as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(render_json(report) if as_json else render_text(report), nl=False)
    for target, render in ((svg_path, render_svg), (html_path, render_html)):
        if target is not None:
            try:
                Path(target).write_bytes(render(report).encode("utf-8"))
            except OSError as exc:
                raise click.UsageError(f"cannot write {target} ({exc})") from None


def _whole(value: float) -> float:
    return int(value) if float(value).is_integer() else value


def _waiter_candidate(
    spec: str,
    strategy: str | None,
    shared: dict[str, float],
    common: dict[str, Any],
    input_json: str | None,
    ready_output: str | None,
    pending_output: str | None,
) -> Candidate:
    cls = _waiter_class(spec)
    backoff = None
    settings: tuple[tuple[str, Any], ...] = (("waiter", spec),)
    if strategy is not None:
        params = {k: v for k, v in shared.items() if k in PARAMETERS[strategy]}
        backoff = named_strategy(strategy, **params)
        settings += (("strategy", strategy), *sorted(params.items()))
    config = WaiterConfig(
        max_attempts=common["max_attempts"],
        wait_timeout=common["wait_timeout"],
        backoff=backoff,
    )
    return Candidate(
        spec,
        cls,
        config,
        max_wait_time=common["wait_timeout"],
        input=_json_option(input_json, {}, "--input"),
        ready_output=_json_option(ready_output, dict(READY), "--ready-output"),
        pending_output=_json_option(pending_output, dict(PENDING), "--pending-output"),
        call_duration=common["call_duration"],
        settings=settings,
    )
