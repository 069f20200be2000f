"""The runtime's error messages in the command line's words.

A `WaiterError` or `WaiterConfigurationError` says what a Python caller can do:
`pass a larger max_wait_time`, `retry_on=(...)`, `min_delay=300`. Printed by
`waitable wait`, that advice names arguments the command does not have, so the
command says it with its own options instead (`--max-wait`, `--max-attempts`,
`--delay`; the command makes the client, so a call's retries are botocore's).
The runtime's messages are left as they are: this maps them where they are printed.
`option_rewrites` and `rewrite` are the mechanism, for any command with options of
its own (`waitable simulate` names `--wait-timeout`, `--min-delay`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = [
    "CREDENTIALS_ADVICE",
    "RETRY_ADVICE",
    "Rewrites",
    "for_cli",
    "for_credentials",
    "is_credentials_error",
    "option_rewrites",
    "rewrite",
]

Rewrites = tuple[tuple[re.Pattern[str], str], ...]
"""Patterns and their replacements, applied in order (`rewrite`)."""


def option_rewrites(
    options: Mapping[str, str],
    *,
    seconds: Iterable[str] = (),
    alone: Iterable[str] | None = None,
) -> Rewrites:
    """Rewrites that name a command's options where a message names Python arguments.

    `options` maps each argument to its option (`{"max_attempts": "--max-attempts"}`):
    `argument=value` becomes `--option value`; for the arguments in `seconds`,
    `argument=30s` becomes `--option 30`. Then each argument named alone becomes its
    option: every one of `options`, or only those in `alone` (leave out a name that is
    also an English word, such as `delay`).
    """
    named_alone = list(options) if alone is None else list(alone)
    return tuple(
        (re.compile(pattern), replacement)
        for pattern, replacement in (
            *(
                (rf"\b{re.escape(name)}=([^\s)]+?)s\b", rf"{options[name]} \1")
                for name in seconds
            ),
            *(
                (rf"\b{re.escape(name)}=", f"{option} ")
                for name, option in options.items()
            ),
            *((rf"\b{re.escape(name)}\b", options[name]) for name in named_alone),
        )
    )


def rewrite(message: str, rewrites: Rewrites) -> str:
    """`message` with each of `rewrites` applied in turn."""
    for pattern, replacement in rewrites:
        message = pattern.sub(replacement, message)
    return message


RETRY_ADVICE = (
    "waitable wait does not retry it: check --endpoint-url, --region and "
    "--profile, or raise the client's own retries of each call "
    "(AWS_MAX_ATTEMPTS, AWS_RETRY_MODE)"
)
"""What the command says instead of the runtime's `retry_on=` / `retry=` advice."""

INPUT_ADVICE = "check the input (the --MEMBER options, --input or --input-file)"
"""What the command says instead of "check the input, or pass retry_on=..."."""

CREDENTIALS_ADVICE = (
    "check the credentials (--profile or AWS_PROFILE, AWS_ACCESS_KEY_ID and "
    "AWS_SECRET_ACCESS_KEY, or the profile's expired login: aws sso login)"
)
"""What the command says instead of `INPUT_ADVICE` when botocore found no credentials."""

#: botocore's errors for credentials (or tokens) it could not find or load: names of
#: `botocore.exceptions`, matched on the error's classes so that a botocore without
#: some of them (LoginError is recent) needs no import here.
CREDENTIAL_ERRORS = frozenset(
    {
        "NoCredentialsError",
        "PartialCredentialsError",
        "CredentialRetrievalError",
        "UnknownCredentialError",
        "NoAuthTokenError",
        "TokenRetrievalError",
        "UnknownTokenProviderError",
        "SSOError",
        "LoginError",
    }
)


def is_credentials_error(error: BaseException | None) -> bool:
    """Whether `error` is (a subclass of) one of botocore's `CREDENTIAL_ERRORS`."""
    return error is not None and any(
        cls.__module__ == "botocore.exceptions" and cls.__name__ in CREDENTIAL_ERRORS
        for cls in type(error).__mro__
    )


def is_input_refused(error: BaseException | None) -> bool:
    """Whether `error` is botocore's refusing the input before sending it
    (`ParamValidationError`: an unknown member, a wrong type): bad usage of the
    command, as the same mistake in an input option is, not an operation's error."""
    return error is not None and any(
        cls.__module__ == "botocore.exceptions"
        and cls.__name__ == "ParamValidationError"
        for cls in type(error).__mro__
    )


def for_credentials(message: str, cause: BaseException | None) -> str:
    """`message` (already `for_cli`'s) advising to check the credentials, not the
    input, when the operation's error `cause` is botocore's finding none: the input
    has nothing to do with it."""
    if not is_credentials_error(cause):
        return message
    return message.replace(INPUT_ADVICE, CREDENTIALS_ADVICE)


_REWRITES: Rewrites = tuple(
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
    )
) + option_rewrites(
    {
        "max_wait_time": "--max-wait",
        "max_attempts": "--max-attempts",
        "min_delay": "--delay",
        "max_delay": "--delay",
    },
    seconds=("max_wait_time",),
)

_ATTEMPTS_LEFT = re.compile(r"^(.*? reached .*?), (?:with|as) [^;]*(?:;.*)?$", re.S)

_TIMED_OUT = re.compile(
    r"\(max_wait_time=([^\s)]+?)s\)(.*?); pass a larger max_wait_time to wait longer",
    re.S,
)


def for_cli(
    message: str, *, deadline_given: bool = True, default_deadline: str | None = None
) -> str:
    """`message` (a runtime error's text) with its advice in the command's options.

    `deadline_given` is False when the user gave `--max-attempts` and no `--max-wait`:
    the command's deadline is then no limit of the user's, so a max-attempts message
    says to raise `--max-attempts` instead of weighing a deadline the user never set.
    `default_deadline` says where the deadline came from when the user gave no
    `--max-wait` (botocore's delay × max attempts, "5 s × 20"): a timeout then names
    it, not a `--max-wait 100` the user never passed.
    """
    if not deadline_given and "max_attempts=" in message:
        message = _ATTEMPTS_LEFT.sub(r"\1; raise max_attempts to keep waiting", message)
    if default_deadline is not None:
        message = _TIMED_OUT.sub(
            lambda found: f"({default_deadline} = {found[1]} s){found[2]}; pass a "
            f"--max-wait above {found[1]} to wait longer",
            message,
        )
    return rewrite(message, _REWRITES)
