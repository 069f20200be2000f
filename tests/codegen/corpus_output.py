"""Every generation the corpus checks cover, and the sha256 of each output file.

Cases: each shared model file alone, the AWS models together (one subpackage per
service, compiled and interpreted paths), the three models the client tests
generate together, the spec examples, Smithy's valid conformance models and the
`generated_examples/` inputs. `python -m tests.codegen.corpus_output` rewrites
`corpus_checksum.json` (only after a reviewed, intended change of the output).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from waitable_codegen import generate

from .helpers import AWS_MODELS, ERRORFILES, PROJECT_ROOT, SPEC_EXAMPLES, corpus_files

CHECKSUM_FILE = Path(__file__).with_name("corpus_checksum.json")
MANIFEST = ".generate-waiters.json"
CLIENT_MODELS = (
    "s3-2006-03-01.json",
    "dynamodb-2012-08-10.json",
    "dsql-2018-05-10.json",
)


def _case_name(model: Path) -> str:
    return re.sub(r"\W", "_", f"{model.parent.name}_{model.stem}")


def cases() -> Iterator[tuple[str, list[Path], str]]:
    """(case name, model files, jmespath mode) for every generation checked."""
    for model in corpus_files():
        yield _case_name(model), [model], "compiled"
    aws = sorted(AWS_MODELS.glob("*.json"))
    yield "aws_together", aws, "compiled"
    yield "aws_together_interpreted", aws, "interpreted"
    yield "clients_together", [AWS_MODELS / name for name in CLIENT_MODELS], "compiled"
    yield "spec_examples", [SPEC_EXAMPLES], "compiled"
    for model in sorted(ERRORFILES.glob("*.json")):
        if not model.with_suffix(".errors").read_text().strip():
            yield f"conformance_{_case_name(model)}", [model], "compiled"
    sys.path.insert(0, str(PROJECT_ROOT / "generated_examples"))
    try:
        from regenerate import EXAMPLES
    finally:
        sys.path.pop(0)
    for package, model in EXAMPLES.items():
        yield f"generated_examples_{package}", [model], "compiled"


def generate_cases(root: Path) -> Iterator[tuple[str, Path, object]]:
    """Generate every case under `root`: (case name, its output directory, result)."""
    for name, models, mode in cases():
        out = root / name
        result = generate(models, out, jmespath=mode)
        yield name, out, result


def output_files(out: Path) -> dict[str, bytes]:
    """The generated files under `out` (no manifest), keyed by relative path."""
    return {
        path.relative_to(out).as_posix(): path.read_bytes()
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != MANIFEST and "__pycache__" not in path.parts
    }


def checksums(root: Path) -> dict[str, str]:
    """`case/path` → sha256 of every file of every case, generated under `root`."""
    sums: dict[str, str] = {}
    for name, out, _ in generate_cases(root):
        for path, data in output_files(out).items():
            sums[f"{name}/{path}"] = hashlib.sha256(data).hexdigest()
    return sums


def main() -> None:
    """Rewrite `corpus_checksum.json` from what the generator makes now."""
    with tempfile.TemporaryDirectory() as scratch:
        sums = checksums(Path(scratch))
    CHECKSUM_FILE.write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
    print(f"{len(sums)} files recorded in {CHECKSUM_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
