"""`generate-waiters MODEL... -o OUT_DIR`: the command line over `generate(...)`.

Also runs as smithy-build's `run` plugin: with `SMITHY_PLUGIN_DIR` set and no `-o`,
it writes there, and with no MODEL it reads the model from standard input.
Exit status: 0 done (or up to date), 1 bad input / validation failed / `--check`
found OUT_DIR stale, 2 bad usage.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .api import GenerationResult, generate
from .errors import GenerationError, UsageError, ValidationFailed
from .plan.search import JMESPATH_MODES

PLUGIN_DIR_VARIABLE = "SMITHY_PLUGIN_DIR"


@click.command(
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="MODEL is a Smithy JSON AST file, a directory of them, or - for stdin.",
)
@click.argument("models", nargs=-1, metavar="MODEL...")
@click.option(
    "-o",
    "--out-dir",
    type=click.Path(path_type=Path),
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
def main(
    models: tuple[str, ...],
    out_dir: Path | None,
    service: str | None,
    check: bool,
    force: bool,
    allow_danger: bool,
    jmespath: str,
) -> None:
    """Generate typed waiter classes from the smithy.waiters#waitable traits of
    Smithy models."""
    plugin_dir = os.environ.get(PLUGIN_DIR_VARIABLE)
    if out_dir is None:
        if not plugin_dir:
            raise click.UsageError(
                f"no output directory: pass -o OUT_DIR (or set {PLUGIN_DIR_VARIABLE})"
            )
        out_dir = Path(plugin_dir)
    if not models:
        if not plugin_dir:
            raise click.UsageError("no MODEL given: pass model files, or - for stdin")
        models = ("-",)
    try:
        result = generate(
            models,
            out_dir,
            service=service,
            check=check,
            force=force,
            allow_danger=allow_danger,
            jmespath=jmespath,
        )
    except ValidationFailed as exc:
        for event in exc.events:
            click.echo(str(event), err=True)
        _fail(str(exc), exc.exit_status)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    except GenerationError as exc:
        _fail(str(exc), exc.exit_status)
    for event in result.events:
        click.echo(str(event), err=True)
    sys.exit(_report(result))


def _fail(message: str, status: int) -> None:
    click.echo(f"generate-waiters: error: {message}", err=True)
    sys.exit(status)


def _report(result: GenerationResult) -> int:
    """Print what happened; the exit status."""
    out = result.out_dir
    if result.waiters == 0:
        click.echo(
            f"generate-waiters: the model defines no waiters; nothing written to {out}",
            err=True,
        )
        return 0
    if result.check:
        for path in result.written:
            click.echo(f"would write {path}")
        for path in result.removed:
            click.echo(f"would remove {path}")
        if result.stale:
            click.echo(
                f"{out} is stale: run generate-waiters without --check", err=True
            )
            return 1
        click.echo(f"{out} is up to date ({result.waiters} waiters)")
        return 0
    for path in result.written:
        click.echo(f"wrote {path}")
    for path in result.removed:
        click.echo(f"removed {path}")
    click.echo(
        f"{out}: {result.waiters} waiters, {len(result.written)} files written, "
        f"{len(result.removed)} removed, {len(result.unchanged)} unchanged"
    )
    return 0
