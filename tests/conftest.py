"""Suite-wide settings: hypothesis draws the same examples on every CI run.

Under `CI=true` (what `.ci/run` runs with) the "ci" profile derandomizes hypothesis,
so a submission's result does not depend on the examples a random seed happened to
draw; a developer's run keeps exploring new examples, and a failure it finds is
kept in `.hypothesis/` and becomes an `@example` in the test.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
