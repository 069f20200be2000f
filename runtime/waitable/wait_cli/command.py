"""`waitable wait SERVICE WAITER [--input-member VALUE...]`: one wait from the shell, with a
live status line, a deadline, `--output json` and an exit status per outcome (`ExitCode`).
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from typing import Any

import click

from ..backoff import FixedDelay
from ..errors import (
    WaiterConfigurationError,
    WaiterError,
    WaiterOperationError,
    service_text,
)
from ..files import UnreadableFile, read_text
from ..seconds import MAX_SECONDS
from ..standard_output import echo_out
from .advice import for_cli, for_credentials, is_input_refused
from .exit_codes import ExitCode, exit_code_of
from .input_options import InputError, input_shape, load_json, parse_input_options
from ..printable import printable
from .sources import (
    BotocoreSource,
    ModelSource,
    PackageSource,
    SourceError,
    WaiterEntry,
    WaiterSource,
)
from .status import Status, StatusClock, monotonic

__all__ = ["wait"]

EPILOG = """\b
Exit status: 0 success, 1 failure state reached,
2 bad usage (also input botocore refuses before sending it),
3 timeout (the deadline passed: --max-wait, else botocore's
delay × max attempts), 4 attempts exhausted (--max-attempts),
5 the operation raised an error no acceptor matches, 6 unexpected error,
130 interrupted (Ctrl-C).
"""


def _source(package: str | None, model: str | None) -> WaiterSource:
    if package is not None and model is not None:
        raise click.UsageError("give one of --package and --model")
    try:
        importlib.import_module("boto3")
    except ImportError:
        raise click.UsageError(
            "waitable wait needs boto3; install it with pip install 'waitable[cli]' "
            "(from a clone of the project, pip install './runtime[cli]')"
        ) from None
    try:
        if package is not None:
            return PackageSource(package)
        if model is not None:
            return ModelSource(model)
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None
    return BotocoreSource()


def _list(source: WaiterSource, service: str | None) -> None:
    """The services, or the waiters of `service`, one a line; a model's or package's
    text is printed escaped (`printable`), never as terminal escapes or line breaks.
    A waiter that cannot be used is not listed: a line on stderr says why."""
    try:
        if service is None:
            for name in source.services():
                echo_out(printable(name))
            return
        for entry in sorted(source.waiters(service).values(), key=lambda e: e.cli_name):
            if entry.unusable is not None:
                click.echo(
                    f"waitable wait: {printable(service)} {printable(entry.cli_name)} "
                    f"cannot be used: {printable(entry.unusable)}",
                    err=True,
                )
                continue
            echo_out(
                f"{printable(entry.cli_name):<36} {printable(entry.operation):<28} "
                f"{printable(entry.summary)}"
            )
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None


def _entry(source: WaiterSource, service: str, name: str) -> WaiterEntry:
    try:
        entries = source.waiters(service)
    except SourceError as exc:
        raise click.UsageError(str(exc)) from None
    usable = sorted(key for key, entry in entries.items() if entry.unusable is None)
    if name not in entries:
        raise click.UsageError(
            f"{service} has no waiter {name!r}; its waiters: "
            f"{', '.join(usable)} (waitable wait --list {service})"
        )
    entry = entries[name]
    if entry.unusable is not None:
        raise click.UsageError(
            f"{service} {name} cannot be used: {entry.unusable} "
            f"(waitable wait --list {service})"
        )
    return entry


def _input(
    entry: WaiterEntry,
    service: str,
    options: list[str],
    input_json: str | None,
    input_file: str | None,
) -> dict[str, Any]:
    """The operation's input from the options, `--input` or `--input-file`, checked
    against the input shape of botocore's service (`entry.service`, else `service`)."""
    where = f"{service} {entry.cli_name} ({entry.operation})"
    if input_json is not None and input_file is not None:
        raise click.UsageError("give one of --input and --input-file")
    text, origin = input_json, "--input"
    if input_file is not None:
        origin = f"--input-file {input_file}"
        try:
            text = read_text(input_file)
        except UnreadableFile as exc:
            raise click.UsageError(f"cannot read {input_file} ({exc})") from None
    data: dict[str, Any] = {}
    if text is not None:
        try:
            given = load_json(text)
        except ValueError as exc:
            raise click.UsageError(f"{origin}: not valid JSON ({exc})") from None
        if not isinstance(given, dict):
            raise click.UsageError(
                f"{origin}: the input must be a JSON object of {entry.operation}'s members"
            )
        data = given
    shape = input_shape(entry.service or service, entry.operation)
    try:
        data.update(parse_input_options(options, shape, where))
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    if shape is not None:
        missing = [m for m in shape.required_members if m not in data]
        if missing:
            from .sources import kebab

            raise click.UsageError(
                f"{where}: missing "
                + ", ".join(f"--{kebab(m)}" for m in missing)
                + " (required by the operation)"
            )
    return data


def _client(
    service: str, profile: str | None, region: str | None, endpoint_url: str | None
) -> Any:
    boto3 = importlib.import_module("boto3")
    exceptions = importlib.import_module("botocore.exceptions")
    try:
        session = boto3.Session(profile_name=profile, region_name=region)
        return session.client(service, endpoint_url=endpoint_url)
    except (exceptions.BotoCoreError, ValueError) as exc:
        raise click.UsageError(
            f"cannot make a {service} client ({exc}); check --profile, --region "
            "and --endpoint-url"
        ) from None


def _fail(message: str, code: ExitCode) -> None:
    """End with `code`, saying why on stderr (even with --quiet: a script that sees
    only an exit status still leaves its reader the reason in the log)."""
    click.echo(f"waitable wait: {printable(message)}", err=True)
    sys.exit(code)


@click.command(
    epilog=EPILOG,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument(
    "words",
    nargs=-1,
    type=click.UNPROCESSED,
    metavar="SERVICE WAITER [--MEMBER VALUE...]",
)
@click.option(
    "--list",
    "list_only",
    is_flag=True,
    help="List the services with waiters, or the waiters of SERVICE.",
)
@click.option("--package", metavar="PACKAGE", help="Waiters of a generated package.")
@click.option(
    "--model",
    metavar="FILE",
    help="Waiters of a Smithy JSON AST model file.",
)
@click.option(
    "--input", "input_json", metavar="JSON", help="The operation's input as JSON."
)
@click.option(
    "--input-file", metavar="FILE", help="The operation's input from a JSON file."
)
@click.option(
    "--max-wait",
    type=click.FloatRange(min=0, min_open=True, max=MAX_SECONDS),
    help="Give up after this many seconds (botocore waiters: delay × max attempts).",
)
@click.option(
    "--max-attempts", type=click.IntRange(min=1), help="Give up after N polls."
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0, min_open=True, max=MAX_SECONDS),
    help="Poll every SECONDS instead of the waiter's own delays.",
)
@click.option("--profile", help="The AWS profile (as in the AWS CLI).")
@click.option("--region", help="The AWS region (as in the AWS CLI).")
@click.option("--endpoint-url", help="Send requests to this URL (as in the AWS CLI).")
@click.option(
    "--quiet",
    is_flag=True,
    help="Show no progress and no success line; a failure still prints its reason.",
)
@click.option(
    "--output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: print the WaiterResult at the end.",
)
def wait(**options: Any) -> None:
    """Wait until an AWS resource is ready: SERVICE WAITER [--member VALUE ...].

    Names as in the AWS CLI: waitable wait ec2 instance-running --instance-ids
    i-123 --max-wait 600. The input members are options (lists take several
    values, structures JSON or shorthand such as Name=env,Values=ci), or --input
    JSON / --input-file FILE.
    """
    began = monotonic()
    words, list_only = options["words"], options["list_only"]
    label = " ".join(words[:2]) if words and not list_only else "--list"
    status = None
    if not options["quiet"]:
        status = Status(
            sys.stderr,
            label,
            None,
            live=sys.stderr.isatty(),
            columns=shutil.get_terminal_size().columns,
        )
    try:
        _command(status, **options)  # click's parameters, typed there
    except click.UsageError as exc:
        # its message may quote a model's names (waiters, operations, services):
        # escaped here, once for every error, as `_fail` escapes its messages
        raise click.UsageError(printable(exc.message), exc.ctx) from None
    except KeyboardInterrupt:
        # Ctrl-C at any moment, loading the waiters as much as polling: the same
        # line and status (click would say "Aborted!" and exit 1, a failure state).
        if status is not None:
            status.interrupted(monotonic() - began)
        sys.exit(ExitCode.INTERRUPTED)


def _deadline(
    entry: WaiterEntry,
    label: str,
    max_wait: float | None,
    max_attempts: int | None,
    delay: float | None = None,
) -> float:
    """The wait's `max_wait_time`: `--max-wait`; else, with `--max-attempts`, no limit
    of its own (those attempts are the limit, as boto3's `WaiterConfig` `MaxAttempts`
    makes them); else the source's deadline (botocore's delay × max attempts), with
    `--delay` as the delay (botocore's attempts are kept, as boto3's `Delay` keeps
    them)."""
    if max_wait is not None:
        return max_wait
    if entry.default_max_wait is None:
        raise click.UsageError(
            f"{label}: say how long to wait: pass --max-wait SECONDS"
        )
    if max_attempts is not None:
        return MAX_SECONDS
    if delay is not None and entry.attempts is not None:
        return min(delay * entry.attempts, MAX_SECONDS)
    return entry.default_max_wait


def _default_deadline(
    entry: WaiterEntry,
    max_wait: float | None,
    max_attempts: int | None,
    delay: float | None,
) -> str | None:
    """Where the deadline `_deadline` gave came from, when the user set none (no
    `--max-wait`, no `--max-attempts`): botocore's delay (or `--delay`) × its max
    attempts, "5 s × 20"; None when the deadline is the user's (or no limit)."""
    if max_wait is not None or max_attempts is not None:
        return None
    if entry.attempts is None or entry.default_max_wait is None:
        return None
    if delay is not None:
        return f"--delay × botocore's max attempts, {delay:g} s × {entry.attempts}"
    botocore_delay = entry.default_max_wait / entry.attempts
    return f"botocore's delay × max attempts, {botocore_delay:g} s × {entry.attempts}"


def _command(
    status: Status | None,
    words: tuple[str, ...],
    list_only: bool,
    package: str | None,
    model: str | None,
    input_json: str | None,
    input_file: str | None,
    max_wait: float | None,
    max_attempts: int | None,
    delay: float | None,
    profile: str | None,
    region: str | None,
    endpoint_url: str | None,
    quiet: bool,
    output: str,
) -> None:
    """The command's work; `wait` turns a Ctrl-C anywhere in it into exit 130."""
    source = _source(package, model)
    if list_only:
        if len(words) > 1:
            raise click.UsageError("--list takes at most a SERVICE")
        _list(source, words[0] if words else None)
        return
    if len(words) < 2 or words[0].startswith("-") or words[1].startswith("-"):
        raise click.UsageError(
            "name the SERVICE and WAITER, e.g. waitable wait ec2 instance-running "
            "--instance-ids i-123 (waitable wait --list shows them)"
        )
    service, name, options = words[0], words[1], list(words[2:])
    label = f"{service} {name}"
    entry = _entry(source, service, name)
    data = _input(entry, service, options, input_json, input_file)
    deadline = _deadline(entry, label, max_wait, max_attempts, delay)
    # the deadline is the user's own, or botocore's default, unless --max-attempts
    # alone made it the command's "no limit": messages then speak of attempts only
    deadline_given = max_wait is not None or max_attempts is None
    try:
        client = _client(entry.service or service, profile, region, endpoint_url)
        cls = entry.load()
        if status is not None:
            status.definition = cls.definition
        waiter = cls(
            client,
            clock=StatusClock(status),
            on_attempt=None if status is None else status.attempt,
            backoff=None if delay is None else FixedDelay(delay),
        )
        result = waiter.wait(
            data,
            max_wait_time=deadline,
            max_attempts=max_attempts,
            min_delay=delay,
            max_delay=delay,
        )
    except (click.ClickException, KeyboardInterrupt):
        raise
    except WaiterConfigurationError as exc:
        raise click.UsageError(printable(f"{label}: {for_cli(str(exc))}")) from None
    except WaiterError as exc:
        if status is not None:
            status.finish()
        message = for_cli(
            str(exc),
            deadline_given=deadline_given,
            default_deadline=_default_deadline(entry, max_wait, max_attempts, delay),
        )
        if isinstance(exc, WaiterOperationError):
            message = for_credentials(_with_cause(message, exc), exc.__cause__)
        if output == "json":
            echo_out(json.dumps(_data(exc.result.to_data(), exc, message), indent=2))
        refused = isinstance(exc, WaiterOperationError) and is_input_refused(
            exc.__cause__
        )
        _fail(message, ExitCode.USAGE if refused else exit_code_of(exc))
    except Exception as exc:  # unforeseen: a bug here or in a client library
        if status is not None:
            status.finish()
        _fail(f"{label}: {type(exc).__name__}: {exc}", ExitCode.UNEXPECTED_ERROR)
    else:
        if status is not None:
            status.finish()
        if output == "json":
            echo_out(json.dumps(_data(result.to_data(), None), indent=2))
        elif not quiet:
            click.echo(
                f"waitable wait: {label}: {result.state.value} after "
                f"{result.attempts} attempt{'s' if result.attempts != 1 else ''} "
                f"({result.elapsed:.1f} s)",
                err=True,
            )


#: The most of an operation error's own text that a message quotes.
CAUSE_LIMIT = 500


def _with_cause(message: str, error: WaiterOperationError) -> str:
    """`message` with what the operation's error itself said, after its code:
    botocore's `Error.Message` of a `ClientError`, else the exception's text
    (a `ParamValidationError`'s report, "Unable to locate credentials"). The runtime
    names only the code, which leaves a user of the command guessing."""
    cause = error.__cause__
    if cause is None:
        return message
    try:
        response = getattr(cause, "response", None)
        details = response.get("Error") if isinstance(response, dict) else None
        said = details.get("Message") if isinstance(details, dict) else None
        text = said if isinstance(said, str) and said.strip() else str(cause)
    except Exception:  # a client's error object that does not behave
        return message
    text = " ".join(text.split())
    if not text:
        return message
    quoted = f"({service_text(text, CAUSE_LIMIT)})"
    raised = f"the operation raised {service_text(error.error_code)}"
    if f"{raised}, " in message:
        return message.replace(f"{raised}, ", f"{raised} {quoted}, ", 1)
    return f"{message} {quoted}"


def _data(
    result: dict[str, Any], error: WaiterError | None, message: str = ""
) -> dict[str, Any]:
    """The result's JSON data, with the error's type and `message` (the error's text
    as the command prints it) when the wait failed."""
    if error is not None:
        result["error"] = {"type": type(error).__name__, "message": message}
    return result
