"""Regenerate the checked-in examples: `python generated_examples/regenerate.py`.

`tests/codegen/test_golden.py` generates the same packages into a scratch folder
and fails when these files differ; run this after changing the generator (and
review the diff) to update them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parent
AWS_MODELS = PROJECT_ROOT.parent / "shared" / "models" / "api-models-aws"

# package name → model file
EXAMPLES = {
    "spec_examples": PROJECT_ROOT / "examples" / "spec_examples.json",
    "s3": AWS_MODELS / "s3-2006-03-01.json",
    "dynamodb": AWS_MODELS / "dynamodb-2012-08-10.json",
    "dsql": AWS_MODELS / "dsql-2018-05-10.json",
}
MANIFEST = ".generate-waiters.json"


def regenerate(out_root: Path) -> list[Path]:
    """Generate every example package under `out_root`; the files written."""
    from waitable_codegen import generate

    files: list[Path] = []
    for package, model in EXAMPLES.items():
        result = generate(model, out_root / package)
        (out_root / package / MANIFEST).unlink(missing_ok=True)
        files.extend(result.files)
    return files


def main() -> None:
    """Rewrite the example packages in place (removing them first)."""
    for package in EXAMPLES:
        shutil.rmtree(HERE / package, ignore_errors=True)
    files = regenerate(HERE)
    print(f"regenerated {len(files)} files under {HERE}", file=sys.stderr)


if __name__ == "__main__":
    main()
