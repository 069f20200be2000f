"""`waitable simulate`: run the real waiter engine on a virtual clock against a simulated resource.

It answers "which configuration should I pick?": how many calls a strategy
makes, how late it notices the resource is ready, and how often it gives up.
The core (`resource`, `simulation`, `summary`) needs only the standard library;
the command line (`cli`) needs click, installed by `waitable[simulate]`.
"""

from __future__ import annotations

from .resource import ResourceModel
from .simulation import (
    Candidate,
    Check,
    Run,
    simulate,
    simulate_run,
    strategy_candidate,
)
from .summary import Summary, percentile, summarize

__all__ = [
    "Candidate",
    "Check",
    "ResourceModel",
    "Run",
    "Summary",
    "percentile",
    "simulate",
    "simulate_run",
    "strategy_candidate",
    "summarize",
]
