"""Compiled JMESPath against the interpreter, botocore and hand-written Python.

Run: ``.venv/bin/python benchmarks/bench_jmespath.py`` (about half a minute).

The workload is EC2's ``InstanceRunning`` waiter on ``DescribeInstances``
responses of 10, 200 and 2,000 instances, every instance still ``pending``, so
that each poll tries every acceptor and none matches (what most polls do):

- success, pathAll ``Reservations[].Instances[].State.Name`` == "running";
- failure, pathAny on the same path == "shutting-down", "terminated", "stopping";
- retry on the error ``InvalidInstanceID.NotFound``.

Two tables, all figures measured side by side in this one process:

1. the path alone, evaluated once: the compiled function
   (`waitable_codegen.jmespath.compile`, the same source the generator
   writes), the ``jmespath`` interpreter, and hand-written Python doing the
   same null-safe work;
2. one poll's acceptor evaluation: botocore's own acceptors
   (``botocore.waiter.SingleWaiterConfig``), the interpreter and the compiled
   function each in the same acceptor loop (the path once per acceptor, as
   botocore does, compared with waitable's comparators), the compiled path
   evaluated once per poll, a hand-written check, and waitable's engine
   (``waitable.matching.match_output``, which first converts the response to
   the Smithy JMESPath data model).

Each figure is the best of several timed runs; ratios are what the tables are
for, absolute times depend on the machine.
"""

from __future__ import annotations

import functools
import sys
import timeit
from collections.abc import Callable
from typing import Any

import botocore.loaders  # type: ignore[import-untyped]
import botocore.waiter  # type: ignore[import-untyped]
import jmespath

from waitable.comparators import compare
from waitable.definition import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    OutputMatcher,
    WaiterDefinition,
)
from waitable.matching import match_output
from waitable_codegen.jmespath import compile as compile_jmespath

from ec2_responses import describe_instances

PATH = "Reservations[].Instances[].State.Name"
SIZES = (10, 200, 2000)
ACCEPTORS = (
    (AcceptorState.SUCCESS, Comparator.ALL_STRING_EQUALS, "running"),
    (AcceptorState.FAILURE, Comparator.ANY_STRING_EQUALS, "shutting-down"),
    (AcceptorState.FAILURE, Comparator.ANY_STRING_EQUALS, "terminated"),
    (AcceptorState.FAILURE, Comparator.ANY_STRING_EQUALS, "stopping"),
)
Search = Callable[[Any], Any]


# --- the contenders ---------------------------------------------------------------


def hand_written_states(response: Any) -> list[Any] | None:
    """``Reservations[].Instances[].State.Name`` by hand, null-safe like JMESPath."""
    reservations = response.get("Reservations") if isinstance(response, dict) else None
    if not isinstance(reservations, list):
        return None
    names = []
    for reservation in reservations:
        instances = (
            reservation.get("Instances") if isinstance(reservation, dict) else None
        )
        if not isinstance(instances, list):
            continue
        for instance in instances:
            state = instance.get("State") if isinstance(instance, dict) else None
            name = state.get("Name") if isinstance(state, dict) else None
            if name is not None:
                names.append(name)
    return names


def hand_written_poll(response: Any) -> str | None:
    """InstanceRunning's acceptors by hand: the states once, then the tests."""
    states = hand_written_states(response)
    if not isinstance(states, list):
        return None
    if states and all(state == "running" for state in states):
        return "success"
    if any(state in ("shutting-down", "terminated", "stopping") for state in states):
        return "failure"
    return None


def acceptor_loop(search: Search) -> Callable[[Any], str | None]:
    """The acceptors tried in order, the path evaluated for each, as botocore does."""

    def poll(response: Any) -> str | None:
        for state, comparator, expected in ACCEPTORS:
            if compare(comparator, search(response), expected):
                return state.value
        return None

    return poll


def shared_path_loop(search: Search) -> Callable[[Any], str | None]:
    """The acceptors tried in order on one evaluation of their common path."""

    def poll(response: Any) -> str | None:
        value = search(response)
        for state, comparator, expected in ACCEPTORS:
            if compare(comparator, value, expected):
                return state.value
        return None

    return poll


def botocore_poll() -> Callable[[Any], str | None]:
    """botocore's own acceptors for ec2's InstanceRunning."""
    model = botocore.loaders.create_loader().load_service_model("ec2", "waiters-2")
    config = botocore.waiter.SingleWaiterConfig(model["waiters"]["InstanceRunning"])
    acceptors = config.acceptors

    def poll(response: Any) -> str | None:
        for acceptor in acceptors:
            if acceptor.matcher_func(response):
                return str(acceptor.state)
        return None

    return poll


def engine_poll(search: Search) -> Callable[[Any], str | None]:
    """waitable's engine (``match_output``) with the compiled path."""
    acceptors = tuple(
        Acceptor(state, OutputMatcher(PATH, expected, comparator, search=search))
        for state, comparator, expected in ACCEPTORS
    ) + (
        Acceptor(AcceptorState.RETRY, ErrorTypeMatcher("InvalidInstanceID.NotFound")),
    )
    definition = WaiterDefinition("InstanceRunning", "DescribeInstances", acceptors)

    def poll(response: Any) -> str | None:
        verdict = match_output(definition, response, None)
        return None if verdict.acceptor_index is None else verdict.state.value

    return poll


# --- timing -------------------------------------------------------------------------


def best_times(
    contenders: dict[str, Callable[[Any], Any]], argument: Any, rounds: int = 7
) -> dict[str, float]:
    """Seconds per call of each contender, the best of interleaved rounds.

    Each round times every contender once (for at least ~20 ms), so a burst of
    load on a shared machine hurts all of them alike.
    """
    timers = {
        name: timeit.Timer(functools.partial(function, argument))
        for name, function in contenders.items()
    }
    numbers = {
        name: max(1, timer.autorange()[0] // 10) for name, timer in timers.items()
    }
    best = {name: float("inf") for name in contenders}
    for _ in range(rounds):
        for name, timer in timers.items():
            seconds = timer.timeit(numbers[name]) / numbers[name]
            best[name] = min(best[name], seconds)
    return best


def micro(seconds: float) -> str:
    """Microseconds, for the tables."""
    return f"{seconds * 1e6:,.1f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---:|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def contenders() -> tuple[dict[str, Search], dict[str, Callable[[Any], str | None]]]:
    """The path evaluators and the poll evaluators, by the names the tables use."""
    compiled = compile_jmespath(PATH)
    interpreted = jmespath.compile(PATH).search
    paths: dict[str, Search] = {
        "compiled": compiled,
        "jmespath": interpreted,
        "hand-written": hand_written_states,
    }
    polls = {
        "botocore": botocore_poll(),
        "jmespath": acceptor_loop(interpreted),
        "compiled": acceptor_loop(compiled),
        "compiled, path once": shared_path_loop(compiled),
        "hand-written": hand_written_poll,
        "waitable engine": engine_poll(compiled),
    }
    return paths, polls


def main() -> None:
    """Check that every contender agrees, then time them and print the tables."""
    paths, polls = contenders()
    interpreted = paths["jmespath"]
    path_rows, poll_rows, ratio_rows = [], [], []
    for size in SIZES:
        response = describe_instances(size)
        states = interpreted(response)
        assert len(states) == size
        assert all(path(response) == states for path in paths.values())
        verdicts = {name: poll(response) for name, poll in polls.items()}
        assert set(verdicts.values()) == {None}, verdicts
        t = best_times(paths, response)
        path_rows.append(
            [f"{size:,}"]
            + [micro(t[name]) for name in paths]
            + [
                f"{t['jmespath'] / t['compiled']:.1f}x",
                f"{t['compiled'] / t['hand-written']:.2f}x",
            ]
        )
        p = best_times(polls, response)
        poll_rows.append([f"{size:,}"] + [micro(p[name]) for name in polls])
        ratio_rows.append(
            [f"{size:,}"]
            + [f"{p['botocore'] / p[name]:.1f}x" for name in list(polls)[1:]]
        )

    print(f"Python {sys.version.split()[0]}; times in microseconds, best of 7 rounds.")
    print()
    print(f"Path `{PATH}`, one evaluation:")
    print()
    header = ["instances", *paths, "jmespath / compiled", "compiled / hand-written"]
    print(table(header, path_rows))
    print()
    print("InstanceRunning's acceptors, one poll of a response still pending:")
    print()
    print(table(["instances", *polls], poll_rows))
    print()
    print("Speed-up over botocore's acceptors (botocore's time / the contender's):")
    print()
    print(table(["instances", *list(polls)[1:]], ratio_rows))


if __name__ == "__main__":
    main()
