"""Suite-wide settings: hypothesis draws the same examples on every CI run, and a
clone without the shared corpora skips what needs them with one clear reason.

Under `CI=true` (what `.ci/run` runs with) the "ci" profile derandomizes hypothesis,
so a submission's result does not depend on the examples a random seed happened to
draw; a developer's run keeps exploring new examples, and a failure it finds is
kept in `.hypothesis/` and becomes an `@example` in the test. Neither profile
times examples (no timing assertions: a loaded machine must not fail a test).

A test or fixture that fails only because a `../shared` file is missing is
reported as skipped with `shared_corpora.missing_reason`; modules that read the
corpora while being collected use `shared_corpora.shared_path`/`has_shared`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from shared_corpora import missing_reason, missing_shared_file

# No test times anything: hypothesis's per-example deadline and its "input generation
# is slow" health check measure the machine's load, not the code, so both are off.
_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("dev", **_UNTIMED)
settings.register_profile("ci", derandomize=True, print_blob=True, **_UNTIMED)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """A test or fixture that fails only because a ../shared file is missing is
    reported as skipped, with `missing_reason`, not as a failure or an error."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not report.failed or call.excinfo is None:
        return None
    parts = missing_shared_file(call.excinfo.value)
    if parts is not None:
        report.outcome = "skipped"
        line = item.location[1] or 0
        report.longrepr = (str(item.path), line, f"Skipped: {missing_reason(*parts)}")
    return None
