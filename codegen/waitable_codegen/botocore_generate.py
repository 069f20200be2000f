"""`generate(botocore=[...])`: waiter packages from the installed botocore's data.

The services' `service-2.json` and `waiters-2.json` (read through botocore's own
loader) become one Smithy JSON AST document (`botocore_model`), which goes through
the usual load → plan → render → write. Smithy's waiter validation is not run:
botocore's acceptors are not Smithy matchers (botocore's `expected` may be a
number or a boolean; `status` has no Smithy counterpart); each acceptor is
checked by the plan's trait reader instead, as botocore needs it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from .api import GenerationResult, render_and_write
from .botocore_model import botocore_loader, botocore_services, smithy_document
from .errors import GenerationError, UsageError
from .fingerprint import inputs_fingerprint
from .model import Model, ModelError
from .model.loader import parse_document
from .model.resolve import build_shapes
from .plan.search import JMESPATH_MODES, effective_mode

__all__ = ["generate_botocore"]


def _source_name(services: Sequence[str]) -> str:
    """How the generated files' header names the input: botocore, its version, services."""
    try:
        version = str(importlib.import_module("botocore").__version__)
    except ImportError:  # botocore_loader() has already refused this
        version = "?"
    shown = ", ".join(services) if len(services) <= 3 else f"{len(services)} services"
    return f"botocore {version} data: {shown}"


def generate_botocore(
    services: Iterable[str],
    out_dir: str | Path,
    *,
    check: bool = False,
    force: bool = False,
    jmespath: str = "compiled",
) -> GenerationResult:
    """Generate the waiter package for botocore `services` (names, or `all`) into `out_dir`.

    One service makes a package at `out_dir`; several make one subpackage each,
    named as boto3 names the client (`cognito-idp` → `cognito_idp`).
    """
    if jmespath not in JMESPATH_MODES:
        raise UsageError(
            f"unknown jmespath mode {jmespath!r}; use one of {', '.join(JMESPATH_MODES)}"
        )
    target = Path(out_dir)
    loader = botocore_loader()
    chosen = botocore_services(loader, services)
    source = _source_name(chosen)
    text = json.dumps(smithy_document(loader, chosen), sort_keys=True)
    mode = effective_mode(jmespath)
    fingerprint = inputs_fingerprint(
        [(source, text.encode())], {"botocore": tuple(chosen), "jmespath": mode}
    )
    try:
        shapes, metadata = build_shapes([parse_document(text, source)])
    except ModelError as exc:  # its message names `source` already: not twice
        message = str(exc)
        if not message.startswith(f"{source}: "):
            message = f"{source}: {message}"
        raise GenerationError(message) from None
    del text
    model = Model(shapes, metadata, (source,))
    from .plan import plan_generation

    plan = plan_generation(model, [source], jmespath=jmespath)
    del model
    return render_and_write(plan, target, fingerprint, (), check, force, mode)
