"""Generation's two ways of reading the models, side by side.

    python benchmarks/bench_json_readers.py [--repeat N]

Generation keeps only the shapes its waiters and services reach
(`waitable_codegen.model.reachable`: about 15% of the AWS models' JSON). Over the
57 files of `../shared/models/api-models-aws`, best of N, collector paused as
during a generation, each way producing the same cut documents (checked equal):

- json (the way taken when the text reader declines a document): `json.loads` of
  every file, `reachable_documents`, the full documents freed;
- text (generation's way): `reachable_texts`, where msgspec checks the whole text
  and outlines every shape in the same pass without building its body, and only
  the kept shapes' raw parts are decoded (but for the values of traits generation
  never reads: checked equal once decoded).

Each file is read on its own, as `generate` reads one model file.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from waitable_codegen.model.reachable import reachable_documents
from waitable_codegen.model.reachable_text import reachable_texts, with_unread_decoded

PROJECT_ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted(
    (PROJECT_ROOT.parent / "shared" / "models" / "api-models-aws").glob("*.json")
)


def with_json(datas: list[bytes]) -> list[dict[str, Any]]:
    """The cut documents as the json way makes them, one file at a time."""
    cut: list[dict[str, Any]] = []
    for data in datas:
        parsed = [json.loads(data.decode("utf-8"))]
        cut += reachable_documents(parsed) or parsed
        del parsed  # the full document freed, as generation frees it
    return cut


def with_text(datas: list[bytes]) -> list[dict[str, Any]]:
    """The cut documents as generation makes them, one file at a time."""
    cut: list[dict[str, Any]] = []
    for data in datas:
        documents = reachable_texts([data])
        assert documents is not None, "every AWS model takes the text reader"
        cut += documents
    return cut


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
    assert with_json(datas) == with_unread_decoded(with_text(datas)), "cuts differ"
    json_ms = text_ms = float("inf")
    for _ in range(3):  # alternating blocks: a machine that drifts moves both alike
        json_ms = min(json_ms, best_ms(args.repeat, lambda: with_json(datas)))
        text_ms = min(text_ms, best_ms(args.repeat, lambda: with_text(datas)))
    print(f"{len(datas)} AWS model files, {sum(map(len, datas)) / 1e6:.1f} MB")
    print(f"json.loads + cut + free     {json_ms:7.1f} ms   1.00x")
    print(f"text reader (msgspec)       {text_ms:7.1f} ms   {text_ms / json_ms:.2f}x")
    print(f"saved per cold generation   {json_ms - text_ms:7.1f} ms")


if __name__ == "__main__":
    main()
