"""Quick-start demo: import a generated waiter and watch it wait on a simulated resource.

Run after `generate-waiters examples/spec_examples.json -o build/demo_waiters`:
the "client" is a plain callable standing in for a service whose thing takes three
polls to be created, so the waiter's retries, delays and result are all visible.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from waitable import Attempt


def main(package_dir: str = "build/demo_waiters") -> None:
    """Generate-then-wait: ThingExists polls GetThing until its status is "success"."""
    sys.path.insert(0, str(Path(package_dir).resolve().parent))
    module = __import__(Path(package_dir).name)
    logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s")

    statuses = iter(["pending", "pending", "success"])

    def get_thing(request: Any) -> dict[str, Any]:
        status = next(statuses, "success")
        print(f"  GetThing({dict(request)}) -> status={status!r}")
        return {"status": status}

    def show(attempt: Attempt) -> None:
        print(f"  attempt {attempt.number} matched: {attempt.state.value}")

    waiter = module.ThingExistsWaiter(get_thing, on_attempt=show)
    print(
        f"{type(waiter).__name__}: {module.ThingExistsWaiter.__doc__.splitlines()[0]}"
    )
    result = waiter.wait(
        {"name": "my-thing"}, max_wait_time=10, min_delay=0.2, max_delay=0.5
    )
    print(
        f"done: state={result.state.value} after {result.attempts} attempts "
        f"in {result.elapsed:.2f}s, output={result.output}"
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
