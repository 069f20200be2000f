"""How the engine's messages and log lines name the front end a wait runs for.

One engine (`waitable.flow`) runs generated and custom waiters, seed 002's
pollers and `StandardRetryStrategy.retry`. Its errors and log lines used to say
"waiter NAME" and give a waiter's advice (acceptors, `max_wait_time`,
`cancel_saved`) whatever the front end; a `WaitPlan` now carries the
`Wording` of its front end, and every message the engine builds for a wait
takes its words from there. `WAITER` is the default, and words exactly as the
engine always did (tests, the `waitable wait` CLI's rewrites and users' log
filters match on those texts); each other front end defines its own `Wording`
next to its code (`waitable.poller.POLLER_WORDING`, the retry strategy's).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WAITER", "Wording"]


@dataclass(frozen=True, slots=True)
class Wording:
    """The words of one front end, as the engine's messages use them.

    `noun`: what the front end is called ("waiter", "poller"); with `named`,
    messages say "NOUN NAME" (the definition's name), else just `noun` (a
    front end whose definition is internal, such as
    "StandardRetryStrategy.retry"). `deadline_option`: the option that sets the
    deadline. `cancelled_by`: what cancels a wait, as the cancel error says it
    (only APIs the front end has). `verdicts`: how a front end whose own judge
    decides each attempt words the judge's (met, unmet) answers; None for the
    acceptors of a waiter. `call`: what each attempt calls; `attempt`: what one
    attempt is called; `going_on`: what the front end does while it keeps going.
    `raised_advice`: what to do about an exception the call raised that ended
    the wait, with `{name}` for its class (None: the waiter's own advice about
    acceptors, transport errors and `retry=`); `unlisted`: why such an exception
    ended it.
    """

    noun: str
    named: bool = True
    deadline_option: str = "max_wait_time"
    cancelled_by: str = (
        "its cancel event was set, or cancel_saved / cancel_wait ended it between polls"
    )
    verdicts: tuple[str, str] | None = None
    call: str = "the operation"
    attempt: str = "poll"
    going_on: str = "waiting"
    raised_advice: str | None = None
    unlisted: str = "which no acceptor matches"

    def owner(self, name: str) -> str:
        """Who a message is about: "waiter NAME", "poller NAME", or the bare noun."""
        return f"{self.noun} {name}" if self.named else self.noun

    def attempt_of(self, name: str, number: int) -> str:
        """Who a DEBUG line about one attempt is about: "waiter NAME attempt N"; a
        front end without a name makes one attempt only, so just its noun."""
        return f"{self.noun} {name} attempt {number}" if self.named else self.noun

    def verdict(self, met: bool) -> str:
        """The judge's answer for an attempt, in this front end's words (needs `verdicts`)."""
        assert self.verdicts is not None
        return self.verdicts[0] if met else self.verdicts[1]


#: A waiter's words: the engine's texts as they always were.
WAITER = Wording("waiter")
