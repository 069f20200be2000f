"""An acceptor's `message` reads the operation's output (the spec: "extracts a
human-readable message from the operation output"), whatever its matcher reads:
an `inputOutput` acceptor's message was run on `{"input": ..., "output": ...}`, so
a message the validator accepted (it checks it against the output) gave none."""

from __future__ import annotations

import pytest

from waitable import WaiterDefinition, WaiterFailureStateError

from .harness import DRIVERS

OUTPUT = {"State": "Stopped", "Reason": "disk full", "Codes": ["E1", "E2"]}


def definition(matcher: str, path: str, message: str) -> WaiterDefinition:
    return WaiterDefinition.from_trait(
        "InstanceRunning",
        "ns#DescribeInstance",
        {
            "acceptors": [
                {
                    "state": "failure",
                    "matcher": {
                        matcher: {
                            "path": path,
                            "expected": "Stopped",
                            "comparator": "stringEquals",
                        }
                    },
                    "message": message,
                },
                {"state": "success", "matcher": {"success": True}},
            ]
        },
    )


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize(
    ("matcher", "path"), [("output", "State"), ("inputOutput", "output.State")]
)
@pytest.mark.parametrize(
    ("message", "reason"),
    [("Reason", "disk full"), ("Codes", "E1; E2"), ("input.Id", None)],
)
def test_the_message_reads_the_output(
    driver: str, matcher: str, path: str, message: str, reason: str | None
) -> None:
    run = DRIVERS[driver](
        definition(matcher, path, message), [OUTPUT], {"Id": "i-1"}, max_wait_time=60
    )
    assert isinstance(run.error, WaiterFailureStateError)
    assert run.error.reason == reason
