"""The Python API: `generate(models, out_dir, ...)`, the whole flow in one call.

load → validate → plan → render → write, with a shortcut: when the manifest in
OUT_DIR says the same inputs produced the files that are there, nothing is
parsed or rendered again (a build step runs on every build).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import GenerationError, UsageError, ValidationFailed
from .fingerprint import fingerprint_aside
from .gc_pause import paused_collection
from .model.json_text import check_value_nesting, parse_json
from .model.loader import read_document
from .model.reachable import reachable_documents
from .model.reachable_text import reachable_texts
from .model.resolve import build_shapes
from .model import (
    Model,
    ModelError,
    decode_text,
    expand_paths,
    file_name,
    read_bytes,
    read_capped,
)
from .plan.records import GenerationPlan
from .plan.search import JMESPATH_MODES, effective_mode
from .staging import OutputSite
from .write import (
    MANIFEST_NAME,
    Changes,
    apply_changes,
    exclusive,
    manifest_matches,
    plan_changes,
    read_manifest,
)
from .write_check import check_changes
from .write_manifest import Manifest, new_manifest

STDIN = "-"
STDIN_NAME = "<stdin>"
_MANIFEST = PurePosixPath(MANIFEST_NAME)
BLOCKING = ("ERROR", "DANGER")


@dataclass(frozen=True)
class ReportedEvent:
    """A validation event as generation reports it (and replays it from the manifest).

    `source` is the model file that defines the shape (as given, `<stdin>` for
    standard input); the manifest does not record it, so an event replayed from the
    manifest has it only when the model is one file (else it is empty).
    """

    severity: str
    shape_id: str
    event_id: str
    message: str
    source: str = ""

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return (
            f"{where}[{self.severity}] {self.shape_id}: {self.message} "
            f"| {self.event_id}"
        )

    def record(self) -> dict[str, str]:
        """The event as the manifest records it (without `source`)."""
        return {
            "severity": self.severity,
            "shape_id": self.shape_id,
            "event_id": self.event_id,
            "message": self.message,
        }

    @classmethod
    def from_event(cls, event: Any, source: str = "") -> ReportedEvent:
        """Convert a `waitable_codegen.validation.ValidationEvent`."""
        severity = getattr(event.severity, "name", str(event.severity)).upper()
        return cls(severity, event.shape_id, event.event_id, event.message, source)


@dataclass(frozen=True)
class GenerationResult:
    """What a generation did (or, with `check`, would do) to OUT_DIR.

    `written`: files created or changed; `removed`: generated files no longer
    needed; `unchanged`: generated files already up to date; `kept`: files the
    previous generation wrote that are no longer needed but were left in place,
    because they were edited since (their hash differs from the manifest).
    `waiters` counts the waiters generated (each one sync and one async class);
    0 means the model has none and nothing was written.
    """

    out_dir: Path
    written: tuple[Path, ...] = ()
    removed: tuple[Path, ...] = ()
    unchanged: tuple[Path, ...] = ()
    events: tuple[ReportedEvent, ...] = ()
    waiters: int = 0
    check: bool = False
    jmespath: str = "interpreted"
    reused: bool = False
    files: tuple[Path, ...] = field(default=())
    kept: tuple[Path, ...] = ()

    @property
    def stale(self) -> bool:
        """True when OUT_DIR did not (or, after a write, does no longer) match."""
        return bool(self.written or self.removed)


def generate(
    models: str | Path | Iterable[str | Path],
    out_dir: str | Path,
    *,
    service: str | None = None,
    check: bool = False,
    force: bool = False,
    allow_danger: bool = False,
    jmespath: str = "compiled",
    stdin: bytes | None = None,
    botocore: Sequence[str] | None = None,
) -> GenerationResult:
    """Generate the waiter package for `models` into `out_dir`.

    `models` are JSON AST files, directories (their `*.json`) or `"-"` for standard
    input (`stdin` bytes stand in for it when given). Raises `GenerationError`
    (bad input, files that are not ours in the way) or `ValidationFailed` (ERROR
    events, or DANGER ones without `allow_danger`) before anything is written.
    `botocore` (service names, or `all`) reads the installed botocore's waiter
    data instead of models (see `waitable_codegen.botocore_generate`).
    """
    if not os.fspath(out_dir):  # Path("") would be "." and replace this directory
        raise UsageError(
            "the output directory is empty text; pass the package directory, "
            "e.g. -o src/my_sdk/waiters"
        )
    out_dir = _one_spelling(out_dir)
    if botocore is not None:
        given = [models] if isinstance(models, (str, Path)) else list(models)
        if given or service is not None or allow_danger:
            raise UsageError(
                "--botocore reads botocore's data: pass it without MODEL files, "
                "without --service and without --allow-danger (botocore's waiters "
                "go through no Smithy validation, so there is no DANGER to allow)"
            )
        from .botocore_generate import generate_botocore

        return generate_botocore(
            botocore, out_dir, check=check, force=force, jmespath=jmespath
        )
    if jmespath not in JMESPATH_MODES:
        raise UsageError(
            f"unknown jmespath mode {jmespath!r}; use one of {', '.join(JMESPATH_MODES)}"
        )
    target = Path(out_dir)
    inputs = _read_inputs(models, stdin)
    _refuse_models_inside(target, inputs)
    mode = effective_mode(jmespath)
    options = {"service": service, "jmespath": mode}
    named = [(_display_name(label), data) for label, data in inputs]
    # `--check` and `--force` render and compare whatever the manifest says: it is
    # untrusted (one edited along with a file vouches for that file), and `--force`
    # is how a package the shortcut keeps taking for current is rewritten.
    previous = None if check or force else read_manifest(target)
    # Cold (no manifest): the digest is needed only for the manifest written last.
    fingerprint = fingerprint_aside(named, options, aside=previous is None)
    if previous is not None:
        sole = _source(inputs[0][0]) if len(inputs) == 1 else ""
        reused = _reuse(
            target, previous, fingerprint(), check, allow_danger, mode, sole
        )
        if reused is not None:
            return reused
    from .plan import plan_generation  # the work itself: imported only when needed

    with paused_collection():  # large trees built and dropped, no cycles to find
        model = _load(inputs)
        events = _validate(model)
        _enforce(events, allow_danger)
        names = [_display_name(label) for label, _ in inputs]
        plan = plan_generation(model, names, service=service, jmespath=jmespath)
        events += _left_out(model, plan.left_out)
        del model  # planned: the model's shapes are no longer needed to render
        result = render_and_write(
            plan, target, fingerprint(), events, check, force, mode
        )
        del plan  # gone before the collector resumes: it has nothing left to walk
    return result


def _one_spelling(out_dir: str | Path) -> Path:
    """OUT_DIR with `.` and `..` resolved lexically, as the lock and the swap name
    it: `link/..` would otherwise be inspected through the link (its target's
    parent) and replaced beside the link. Text no file name can hold is refused."""
    text = os.fspath(out_dir)
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        text_ok = False
    else:
        text_ok = "\0" not in text
    if not text_ok:
        raise UsageError(
            f"the output directory {text!r} holds a character no file name can "
            "(a NUL or a lone surrogate); pass another directory with -o"
        )
    return Path(os.path.normpath(text))


def render_and_write(
    plan: GenerationPlan,
    target: Path,
    fingerprint: str,
    events: tuple[ReportedEvent, ...],
    check: bool,
    force: bool,
    mode: str,
) -> GenerationResult:
    """Render a plan and write it into `target` (or, with `check`, only compare).

    The one tail of every generation, from a Smithy model or from botocore's data.
    A plan without packages (a model without waiters) writes nothing, but a
    package an earlier generation wrote into `target` goes (or, with `check`, is
    reported stale), as the model's waiters did; its manifest stays, listing none.
    """
    if not plan.packages:
        if read_manifest(target) is None:
            return GenerationResult(target, events=events, check=check, jmespath=mode)
        files: dict[PurePosixPath, str] = {}
    else:
        from .render import render_plan  # jinja2 loads into the memory the model held

        files = render_plan(plan)
    waiters = plan.waiter_count
    manifest = new_manifest(
        fingerprint, files, [event.record() for event in events], waiters
    )
    if check:
        changes = check_changes(target, files, force=force)
        if changes.previous is None and files and not changes.stale:
            # A run writes the manifest (and, until then, nothing can be told
            # unedited): stale, though every file is as it would be written.
            changes = replace(changes, write=(*changes.write, _MANIFEST))
    else:
        with exclusive(target):
            changes = plan_changes(target, files, force=force)
            if changes.stale or changes.previous != manifest:
                apply_changes(target, files, changes, manifest)
    return _result(target, changes, events, waiters, check, mode, files)


def _result(
    target: Path,
    changes: Changes,
    events: tuple[ReportedEvent, ...],
    waiters: int,
    check: bool,
    mode: str,
    files: Iterable[PurePosixPath],
) -> GenerationResult:
    return GenerationResult(
        out_dir=target,
        written=tuple(target / p for p in changes.write),
        removed=tuple(target / p for p in changes.remove),
        unchanged=tuple(target / p for p in changes.unchanged),
        events=events,
        waiters=waiters,
        check=check,
        jmespath=mode,
        files=tuple(target / p for p in sorted(files)),
        kept=tuple(target / p for p in changes.kept),
    )


def _refuse_models_inside(target: Path, inputs: Sequence[tuple[str, bytes]]) -> None:
    """Stop when a model file lives in OUT_DIR: the package replaces that directory
    (and a later run would read the manifest, a `*.json`, as a model). An
    OUT_DIR that does not exist yet holds nothing: no path is resolved then."""
    if not os.path.exists(target):
        return
    out = Path(os.path.realpath(target))
    for label, _ in inputs:
        if label == STDIN:
            continue
        if Path(os.path.realpath(label)).is_relative_to(out):
            raise GenerationError(
                f"{target}: the output directory holds the model file {label}; "
                "generate-waiters replaces that directory with the package: "
                "pass an output directory of its own with -o"
            )


def _display_name(label: str) -> str:
    return STDIN_NAME if label == STDIN else file_name(label)


def _read_inputs(
    models: str | Path | Iterable[str | Path], stdin: bytes | None
) -> list[tuple[str, bytes]]:
    entries = [models] if isinstance(models, (str, Path)) else list(models)
    if not entries:
        raise UsageError("no model given; pass model files, directories or - (stdin)")
    inputs: list[tuple[str, bytes]] = []
    try:
        for entry in entries:
            if str(entry) == STDIN:
                data = (
                    stdin
                    if stdin is not None
                    else read_capped(sys.stdin.buffer, STDIN_NAME)
                )
                inputs.append((STDIN, data))
            else:
                for path in expand_paths([entry]):
                    inputs.append((str(path), read_bytes(path)))
    except ModelError as exc:
        raise GenerationError(str(exc)) from None
    return inputs


def _load(inputs: list[tuple[str, bytes]]) -> Model:
    """The model of `inputs`, as far as generation reads it (`model.reachable`:
    the waiters, the services and what they reach; the whole model when its
    outline is not plain). The cut is made from the bytes when the text reader
    reads them (`model.reachable_text`: the shapes left out are never built), else
    from each file parsed by json. The files' bytes are dropped as soon as they
    are read. Nesting is checked on what is kept (the cut, or the whole
    documents): the shapes left out reach no code."""
    sources = [_source(label) for label, _ in inputs]
    try:
        if not sources:
            raise ModelError("no model files given")
        parsed: list[Any] | None = reachable_texts([data for _, data in inputs])
        if parsed is None:
            parsed = _parse_whole(inputs, sources)
        else:
            inputs[:] = [(label, b"") for label, _ in inputs]
        documents = []
        for index, source in enumerate(sources):
            check_value_nesting(parsed[index], source)
            documents.append(read_document(parsed[index], source))
            parsed[index] = None
        parsed.clear()
        shapes, metadata = build_shapes(documents)
        documents.clear()
        return Model(shapes, metadata, tuple(sources))
    except ModelError as exc:
        raise GenerationError(str(exc)) from None


def _parse_whole(inputs: list[tuple[str, bytes]], sources: list[str]) -> list[Any]:
    """Every document parsed by Python's json, each file's bytes and text dropped
    as soon as it is parsed; cut when its outline is plain (`model.reachable`)."""
    parsed: list[Any] = []
    for index, ((label, data), source) in enumerate(zip(inputs, sources)):
        inputs[index] = (label, b"")
        text = decode_text(data, source)
        del data
        parsed.append(parse_json(text, source, check_nesting=False))
        del text
    cut = reachable_documents(parsed)
    return parsed if cut is None else [*cut]


def _source(label: str) -> str:
    return STDIN_NAME if label == STDIN else label


def _validate(model: Model) -> tuple[ReportedEvent, ...]:
    """Smithy's waiter validators, when `waitable_codegen.validation` is installed;
    suppressed events are left out, as Smithy leaves them out of its report."""
    if importlib.util.find_spec("waitable_codegen.validation") is None:
        return ()
    module = importlib.import_module("waitable_codegen.validation")
    validate = getattr(module, "validate", None)
    if validate is None:
        return ()
    reported = (
        ReportedEvent.from_event(event, _defined_in(model, event.shape_id))
        for event in validate(model)
    )
    return tuple(event for event in reported if event.severity != "SUPPRESSED")


def _defined_in(model: Model, shape_id: str) -> str:
    """The model file that defines the shape (of the member) `shape_id`, or ""."""
    shape = model.get(shape_id.partition("$")[0])
    return "" if shape is None else shape.source


#: The event that reports an operation whose waiters were left out (a WARNING).
LEFT_OUT_EVENT = "WaitableOperationNotGenerated"


def _left_out(model: Model, operations: Sequence[str]) -> tuple[ReportedEvent, ...]:
    """A WARNING for each operation with waiters that no generated service binds:
    a model whose services bind waiters generates those services' closures (as
    Smithy's code generators do), so these would be left out without a word."""
    return tuple(
        ReportedEvent(
            "WARNING",
            operation,
            LEFT_OUT_EVENT,
            "This operation has waiters, but no service in the model binds it, and "
            "generate-waiters generates the waiters of the model's services: its "
            "waiters are left out. Bind the operation to a service, or generate it "
            "from a model without services",
            _defined_in(model, operation),
        )
        for operation in operations
    )


def _enforce(events: Sequence[ReportedEvent], allow_danger: bool) -> None:
    blocking = ("ERROR",) if allow_danger else BLOCKING
    failed = [event for event in events if event.severity in blocking]
    if failed:
        kinds = " or ".join(sorted({event.severity for event in failed}))
        hint = "" if allow_danger or "ERROR" in kinds else " (or pass --allow-danger)"
        files = sorted({event.source for event in failed if event.source})
        where = f" in {', '.join(files)}" if files else ""
        raise ValidationFailed(
            f"validation found {len(failed)} {kinds} event(s); nothing was written: "
            f"fix the model{where}{hint}",
            events,
        )


def _reuse(
    target: Path,
    manifest: Manifest,
    fingerprint: str,
    check: bool,
    allow_danger: bool,
    mode: str,
    source: str,
) -> GenerationResult | None:
    """The result of the previous generation (its `manifest`) when it came from the
    same inputs and its files are untouched; None when the work has to be done.
    `source`: the model file the replayed events name (the only one; "" for several)."""
    if manifest.fingerprint != fingerprint:
        return None
    if OutputSite.of(target).leftovers() or not manifest_matches(target, manifest):
        return None
    events = tuple(ReportedEvent(**event, source=source) for event in manifest.events)
    waiters = manifest.waiters
    _enforce(events, allow_danger)
    files = tuple(target / name for name in sorted(manifest.files))
    return GenerationResult(
        out_dir=target,
        unchanged=files,
        events=events,
        waiters=waiters,
        check=check,
        jmespath=mode,
        reused=True,
        files=files,
    )
