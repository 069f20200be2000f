"""Seed 003's Jenkins waiter, with no Smithy model: wait until a Jenkins build finishes.

`JenkinsBuildDone` succeeds when the build's `result` is `SUCCESS`, fails on
`FAILURE` or `ABORTED` (seed 003's acceptors) and on Jenkins's two other final
results, `UNSTABLE` and `NOT_BUILT` (seed 003 lists none: its waiter kept polling
a finished build for the rest of its 30 minutes), polls every 15 seconds, at most
120 times, and makes its first check after the first delay (the Go SDK's
`ExecuteAfterFirstDelay`). A build that is still queued answers 404, which is
retried.

    python examples/jenkins_waiter.py --url http://jenkins:8080 --job deploy --build 42
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from waitable import Clock, FixedDelay, WaiterError
from waitable.custom import custom_waiter, error_type, failure, path, retry, success

__all__ = ["JenkinsBuildDone", "JenkinsError", "build_fetcher", "main"]


class JenkinsError(Exception):
    """Jenkins answered with an HTTP error; `code` is what `errorType` compares with."""

    def __init__(self, status: int, url: str) -> None:
        super().__init__(f"Jenkins answered HTTP {status} for {url}")
        self.status = status
        self.code = "NotFound" if status == 404 else f"Http{status}"


def build_url(base_url: str, job: str, build: int | str) -> str:
    """The JSON API address of one build; `job` may name folders (`team/deploy`)."""
    parts = "/".join(
        f"job/{urllib.parse.quote(part, safe='')}" for part in job.split("/")
    )
    return f"{base_url.rstrip('/')}/{parts}/{urllib.parse.quote(str(build))}/api/json"


def build_fetcher(
    base_url: str, *, timeout: float = 10.0
) -> Callable[[Mapping[str, Any]], Any]:
    """The waiter's operation: `get_build({"job": ..., "build": ...})` → the build's JSON."""

    def get_build(input: Mapping[str, Any]) -> Any:
        url = build_url(base_url, str(input["job"]), input["build"])
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            error.close()
            raise JenkinsError(error.code, url) from None

    return get_build


JenkinsBuildDone = custom_waiter(
    "JenkinsBuildDone",
    acceptors=[
        success(path("result") == "SUCCESS"),
        failure(path("result") == "FAILURE"),
        failure(path("result") == "ABORTED"),
        retry(error_type("NotFound")),
        failure(path("result") == "UNSTABLE"),
        failure(path("result") == "NOT_BUILT"),
    ],
    min_delay=15,
    max_delay=15,
    backoff=FixedDelay(),
    max_attempts=120,
    delay_before_first_attempt=True,
    documentation="Wait until a Jenkins build has finished successfully.",
)


def main(argv: list[str] | None = None, *, clock: Clock | None = None) -> int:
    """Wait for one build; exit 0 on SUCCESS, 1 otherwise, printing why.

    `clock` (e.g. `waitable.testing.VirtualClock()`) replaces the real clock.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="Jenkins base URL")
    parser.add_argument("--job", required=True, help="job name (folders: a/b)")
    parser.add_argument("--build", required=True, type=int, help="build number")
    args = parser.parse_args(argv)
    waiter = JenkinsBuildDone(build_fetcher(args.url), clock=clock)
    try:
        result = waiter.wait({"job": args.job, "build": args.build})
    except WaiterError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"build {args.job} #{args.build}: SUCCESS after {result.attempts} checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
