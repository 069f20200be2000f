"""Reading the models with msgspec instead of `json`: what it would save generation.

    python benchmarks/bench_json_readers.py [--repeat N]

Generation parses every model file and keeps only the shapes its waiters and
services reach (`waitable_codegen.model.reachable`: 20% of the AWS models' JSON).
msgspec can skip JSON it does not build (still validating it), so the question is
whether reading only what the cut needs beats `json.loads` of everything. Over the
57 files of `../shared/models/api-models-aws`, best of N, collector paused as
during a generation, each way producing the same cut documents (checked equal):

- json: `json.loads` of every file, `reachable_documents`, the full documents freed;
- msgspec: each document with its shapes as raw JSON, each shape's outline (type,
  trait names, targets) as the body generation's own closure reads, that closure,
  then only the kept shapes decoded.

msgspec is not a dependency of the generator; the test extras install it for this
script and its test.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Raw, Struct

from waitable_codegen.model.reachable import _closure, reachable_documents

PROJECT_ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted(
    (PROJECT_ROOT.parent / "shared" / "models" / "api-models-aws").glob("*.json")
)
WAITABLE = "smithy.waiters#waitable"


class Ref(Struct):
    """A `{"target": ...}` reference."""

    target: str | None = None


class Outline(Struct):
    """What the closure reads of a shape; the rest of its body is skipped."""

    type: str
    traits: dict[str, Raw] = {}
    members: dict[str, Ref] = {}
    member: Ref | None = None
    key: Ref | None = None
    value: Ref | None = None
    input: Ref | None = None
    output: Ref | None = None
    errors: list[Ref] = []
    resources: list[Ref] = []
    identifiers: dict[str, Ref] = {}
    properties: dict[str, Ref] = {}
    operations: list[Ref] = []
    collectionOperations: list[Ref] = []
    create: Ref | None = None
    put: Ref | None = None
    read: Ref | None = None
    update: Ref | None = None
    delete: Ref | None = None
    listing: Ref | None = msgspec.field(default=None, name="list")


class Document(Struct):
    """A model file with every shape and metadata entry left as raw JSON."""

    smithy: str
    shapes: dict[str, Raw] = {}
    metadata: dict[str, Raw] = {}


_DOCUMENT = msgspec.json.Decoder(Document)
_OUTLINE = msgspec.json.Decoder(Outline)
_ANY = msgspec.json.Decoder()


def _body(shape: Outline) -> dict[str, Any]:
    """What `reachable`'s closure reads of a shape, as the JSON it would have parsed
    (references as `{"target": ...}`, the traits' names with their raw values)."""
    body: dict[str, Any] = {"type": shape.type, "traits": shape.traits}
    single = ("member", "key", "value", "input", "output")
    for name in (*single, "create", "put", "read", "update", "delete"):
        _put(body, name, getattr(shape, name))
    _put(body, "list", shape.listing)
    for name in ("members", "identifiers", "properties"):
        named = getattr(shape, name)
        if named:
            body[name] = {key: {"target": ref.target} for key, ref in named.items()}
    for name in ("errors", "resources", "operations", "collectionOperations"):
        refs = getattr(shape, name)
        if refs:
            body[name] = [{"target": ref.target} for ref in refs]
    return body


def _put(body: dict[str, Any], name: str, ref: Ref | None) -> None:
    if ref is not None:
        body[name] = {"target": ref.target}


def with_json(datas: list[bytes]) -> list[dict[str, Any]]:
    """The cut documents as generation makes them today."""
    parsed = [json.loads(data) for data in datas]
    cut = reachable_documents(parsed)
    assert cut is not None
    del parsed  # the full documents freed, as generation frees them
    return cut


def with_msgspec(datas: list[bytes]) -> list[dict[str, Any]]:
    """The same cut, decoding only the outlines and the kept shapes; the closure is
    generation's own (`reachable._closure`), run on bodies built from the outlines."""
    documents = [_DOCUMENT.decode(data) for data in datas]
    bodies: dict[str, dict[str, Any]] = {}
    roots: list[str] = []
    for document in documents:
        for shape_id, raw in document.shapes.items():
            shape = _OUTLINE.decode(raw)
            bodies[shape_id] = _body(shape)
            if shape.type == "service" or WAITABLE in shape.traits:
                roots.append(shape_id)
    kept, bare = _closure(bodies, roots)
    cut = []
    for document in documents:
        shapes = {
            shape_id: _ANY.decode(raw) if shape_id in kept else {"type": "operation"}
            for shape_id, raw in document.shapes.items()
            if shape_id in kept or shape_id in bare
        }
        cut.append(
            {
                "smithy": document.smithy,
                "metadata": {k: _ANY.decode(v) for k, v in document.metadata.items()},
                "shapes": shapes,
            }
        )
    return cut


def _normal(cut: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A cut document without an empty metadata entry (the raw reader always has one)."""
    return [{k: v for k, v in d.items() if k != "metadata" or v} for d in cut]


def best_ms(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of `repeat` runs, in milliseconds, collector paused."""
    times = []
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            result = run()
            del result
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    datas = [path.read_bytes() for path in MODELS]
    assert _normal(with_json(datas)) == _normal(with_msgspec(datas)), "cuts differ"
    json_ms = msgspec_ms = float("inf")
    for _ in range(3):  # alternating blocks: a machine that drifts moves both alike
        json_ms = min(json_ms, best_ms(args.repeat, lambda: with_json(datas)))
        msgspec_ms = min(msgspec_ms, best_ms(args.repeat, lambda: with_msgspec(datas)))
    print(f"{len(datas)} AWS model files, {sum(map(len, datas)) / 1e6:.1f} MB")
    print(f"json.loads + cut + free     {json_ms:7.1f} ms   1.00x")
    print(
        f"msgspec outline + kept      {msgspec_ms:7.1f} ms   {msgspec_ms / json_ms:.2f}x"
    )
    print(f"saved per cold generation   {json_ms - msgspec_ms:7.1f} ms")


if __name__ == "__main__":
    main()
