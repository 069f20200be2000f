"""`generate-waiters MODEL... -o OUT_DIR`: the command line over `generate(...)`.

Also runs as smithy-build's `run` plugin: with `SMITHY_PLUGIN_DIR` set and no `-o`,
it writes there, and with no MODEL it reads the model from standard input.
Exit status: 0 done (or up to date), 1 bad input / validation failed / `--check`
found OUT_DIR stale, 2 bad usage. Whatever the model holds, the output is lines of
escaped text (`safe_text`) and never a traceback; standard input is read up to the
same cap as a model file.
"""

from __future__ import annotations

import logging
import os
import sys

import click
from waitable.standard_output import echo_out

from .api import GenerationResult, generate
from .errors import GenerationError, UsageError, ValidationFailed, safe_text
from .model import ModelError, read_capped
from .plan.search import JMESPATH_MODES
from .version import MINIMUM_RUNTIME, __version__, runtime_version

PLUGIN_DIR_VARIABLE = "SMITHY_PLUGIN_DIR"
LINE_LIMIT = 2000
"""The longest line (an event, an error) printed; longer ones are cut."""
STDIN = "-"


@click.command(
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="MODEL is a Smithy JSON AST file, a directory of them, or - for stdin.",
)
@click.version_option(
    __version__,
    "-V",
    "--version",
    message=(
        f"generate-waiters %(version)s (waitable runtime {runtime_version()}; "
        f"generated code needs waitable >= {MINIMUM_RUNTIME})"
    ),
)
@click.argument("models", nargs=-1, metavar="MODEL...")
@click.option(
    "-o",
    "--out-dir",
    type=click.Path(path_type=str),  # kept as text: Path("") would be "."
    help=f"Package directory to write (default: ${PLUGIN_DIR_VARIABLE}).",
)
@click.option("--service", metavar="SHAPE_ID", help="Generate only this service.")
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; list what would change and exit 1 if OUT_DIR is stale.",
)
@click.option(
    "--force", is_flag=True, help="Overwrite files in OUT_DIR that we did not write."
)
@click.option(
    "--allow-danger", is_flag=True, help="Generate despite DANGER validation events."
)
@click.option(
    "--jmespath",
    type=click.Choice(JMESPATH_MODES),
    default="compiled",
    show_default=True,
    help="Compile paths to Python, or leave them to the jmespath package at run time.",
)
@click.option(
    "--botocore",
    "botocore_services",
    multiple=True,
    metavar="SERVICE",
    help="Read the installed botocore's waiters for SERVICE (repeatable, or all) "
    "instead of MODEL files.",
)
def main(
    models: tuple[str, ...],
    out_dir: str | None,
    service: str | None,
    check: bool,
    force: bool,
    allow_danger: bool,
    jmespath: str,
    botocore_services: tuple[str, ...],
) -> None:
    """Generate typed waiter classes from the smithy.waiters#waitable traits of
    Smithy models."""
    _show_progress()
    plugin_dir = os.environ.get(PLUGIN_DIR_VARIABLE)
    if out_dir is None:
        if not plugin_dir:
            raise click.UsageError(
                f"no output directory: pass -o OUT_DIR (or set {PLUGIN_DIR_VARIABLE})"
            )
        out_dir = plugin_dir
    if not models and not botocore_services:
        if not plugin_dir:
            raise click.UsageError("no MODEL given: pass model files, or - for stdin")
        models = (STDIN,)
    try:
        # Usage generate() refuses before it reads any model (a MODEL with
        # --botocore, an empty -o) is refused with stdin unread.
        reads_stdin = STDIN in models and not botocore_services and out_dir != ""
        stdin = read_capped(sys.stdin.buffer, "<stdin>") if reads_stdin else None
        result = generate(
            models,
            out_dir,
            service=service,
            check=check,
            force=force,
            allow_danger=allow_danger,
            jmespath=jmespath,
            stdin=stdin,
            botocore=list(botocore_services) if botocore_services else None,
        )
    except ValidationFailed as exc:
        for event in exc.events:
            _echo(str(event))
        _fail(str(exc), exc.exit_status)
    except UsageError as exc:
        raise click.UsageError(safe_text(str(exc), LINE_LIMIT)) from None
    except (GenerationError, ModelError) as exc:
        _fail(str(exc), getattr(exc, "exit_status", 1))
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        _fail(
            f"internal error ({type(exc).__name__}: {safe_text(str(exc))}); this is "
            "a bug in generate-waiters: please report it with the model that caused it",
            1,
        )
    for event in result.events:
        _echo(str(event))
    sys.exit(_report(result))


class _Progress(logging.Handler):
    """The generator's INFO and higher log lines (a run waiting for another's lock,
    a file left for black) on standard error, as the CLI's own lines are."""

    def emit(self, record: logging.LogRecord) -> None:
        _echo(f"generate-waiters: {record.getMessage()}")


def _show_progress() -> None:
    """Print the generator's log lines (once per process: `main` may run again)."""
    logger = logging.getLogger("waitable_codegen")
    if not any(isinstance(handler, _Progress) for handler in logger.handlers):
        logger.addHandler(_Progress(logging.INFO))
        if logger.level == logging.NOTSET or logger.level > logging.INFO:
            logger.setLevel(logging.INFO)


def _echo(line: str) -> None:
    """One line to standard error, model text in it escaped; a line too long is cut
    in the middle (a long path first, the reason and the advice last: both stay)."""
    if len(line) > LINE_LIMIT:
        half = LINE_LIMIT // 2
        cut = len(line) - 2 * half
        line = f"{line[:half]}... ({cut} characters left out) ...{line[-half:]}"
    click.echo(safe_text(line, 2 * LINE_LIMIT), err=True)


def _fail(message: str, status: int) -> None:
    _echo(f"generate-waiters: error: {message}")
    sys.exit(status)


def _report(result: GenerationResult) -> int:
    """Print what happened; the exit status."""
    out = result.out_dir
    if result.waiters == 0 and not (result.written or result.removed or result.kept):
        _echo(
            f"generate-waiters: the model defines no waiters; nothing written to {out}"
        )
        return 0
    if result.check:
        for path in result.written:
            _say(f"would write {path}")
        for path in result.removed:
            _say(f"would remove {path}")
        for path in result.kept:
            _echo(f"would keep {path}: edited since generate-waiters wrote it")
        if result.stale:
            _echo(f"{out} is stale: run generate-waiters without --check")
            return 1
        _say(f"{out} is up to date ({result.waiters} waiters)")
        return 0
    for path in result.written:
        _say(f"wrote {path}")
    for path in result.removed:
        _say(f"removed {path}")
    for path in result.kept:
        _echo(
            f"kept {path}: edited since generate-waiters wrote it, so not removed; "
            "delete it yourself if it is no longer wanted"
        )
    _say(
        f"{out}: {result.waiters} waiters, {len(result.written)} files written, "
        f"{len(result.removed)} removed, {len(result.unchanged)} unchanged"
    )
    return 0


def _say(line: str) -> None:
    """One line to standard output, escaped like every other line printed. A reader
    that has gone (`generate-waiters ... | head -1`) wants no more lines: the rest
    go nowhere and the exit status stays the run's (it exited 1, saying nothing)."""
    echo_out(safe_text(line, LINE_LIMIT))
