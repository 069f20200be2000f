"""The runtime's error messages in the command line's words.

A `WaiterError` or `WaiterConfigurationError` says what a Python caller can do:
`pass a larger max_wait_time`, `retry_on=(...)`, `min_delay=300`. Printed by
`waitable wait`, that advice names arguments the command does not have, so the
command says it with its own options instead (`--max-wait`, `--max-attempts`,
`--delay`; the command makes the client, so a call's retries are botocore's).
The runtime's messages are left as they are: this maps them where they are printed.
"""

from __future__ import annotations

import re

__all__ = ["RETRY_ADVICE", "for_cli"]

RETRY_ADVICE = (
    "waitable wait does not retry it: check --endpoint-url, --region and "
    "--profile, or raise the client's own retries of each call "
    "(AWS_MAX_ATTEMPTS, AWS_RETRY_MODE)"
)
"""What the command says instead of the runtime's `retry_on=` / `retry=` advice."""

INPUT_ADVICE = "check the input (the --MEMBER options, --input or --input-file)"
"""What the command says instead of "check the input, or pass retry_on=..."."""

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # the advice for an operation's error (waitable.flow): the command has no
        # retry_on= or retry=; the client it makes retries as botocore is configured
        (
            r"pass retry_on=\([^)]*\) to retry it, or retry= a "
            r"waitable\.retry\.StandardRetryStrategy\(\) to retry it with backoff",
            RETRY_ADVICE,
        ),
        (
            r"pass retry= a waitable\.retry\.StandardRetryStrategy\(\) to retry it "
            r"with backoff \(it retries awscrt's network failures by name\)",
            RETRY_ADVICE,
        ),
        (r"check the input, or pass retry_on= to retry this error type", INPUT_ADVICE),
        # any other advice to pass retry_on= or retry= (up to the clause's end)
        (r"pass (?:retry_on|retry)=[^;]*", RETRY_ADVICE),
        # argument=value as the option and its value
        (r"\bmax_wait_time=([^\s)]+?)s\b", r"--max-wait \1"),
        (r"\bmax_wait_time=", "--max-wait "),
        (r"\bmax_attempts=", "--max-attempts "),
        (r"\b(?:min|max)_delay=", "--delay "),
        # the arguments named alone
        (r"\bmax_wait_time\b", "--max-wait"),
        (r"\bmax_attempts\b", "--max-attempts"),
        (r"\b(?:min|max)_delay\b", "--delay"),
    )
)

_ATTEMPTS_LEFT = re.compile(r"^(.*? reached .*?), (?:with|as) [^;]*(?:;.*)?$", re.S)


def for_cli(message: str, *, deadline_given: bool = True) -> str:
    """`message` (a runtime error's text) with its advice in the command's options.

    `deadline_given` is False when the user gave `--max-attempts` and no `--max-wait`:
    the command's deadline is then no limit of the user's, so a max-attempts message
    says to raise `--max-attempts` instead of weighing a deadline the user never set.
    """
    if not deadline_given and "max_attempts=" in message:
        message = _ATTEMPTS_LEFT.sub(r"\1; raise max_attempts to keep waiting", message)
    for pattern, replacement in _REWRITES:
        message = pattern.sub(replacement, message)
    return message
