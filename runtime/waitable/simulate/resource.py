"""When the simulated resource becomes ready: after N seconds, uniformly between two times, or a sample."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..errors import WaiterConfigurationError
from ..seconds import describe_value

__all__ = ["ResourceModel"]


@dataclass(frozen=True, slots=True)
class ResourceModel:
    """Ready after `low` seconds; with `high`, uniformly in `[low, high]`; with `samples`, one of them."""

    low: float = 0.0
    high: float | None = None
    samples: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        fixed = "--ready-after 10" if self.high is None else "--ready-uniform 0 600"
        times = [
            (describe_value(t), t, fixed)
            for t in (self.low, self.high)
            if t is not None
        ]
        times += [
            (
                f"{describe_value(t)} (sample {n} of {len(self.samples)})",
                t,
                "--ready-samples 30,45,120",
            )
            for n, t in enumerate(self.samples, 1)
        ]
        for shown, t, example in times:
            if (
                isinstance(t, bool)
                or not isinstance(t, (int, float))
                or not 0 <= t < 1e12
            ):
                raise WaiterConfigurationError(
                    f"resource model: ready times must be seconds >= 0 and below 1e12, "
                    f"got {shown}; pass e.g. {example}"
                )
        if self.high is not None and self.high < self.low:
            raise WaiterConfigurationError(
                f"resource model: uniform range {self.low:g}..{self.high:g} is reversed; "
                "pass --ready-uniform LOW HIGH with LOW <= HIGH"
            )

    def sample(self, rng: random.Random) -> float:
        """One ready time, drawn with `rng` (nothing drawn for a fixed time)."""
        if self.samples:
            return float(rng.choice(self.samples))
        if self.high is not None:
            return rng.uniform(self.low, self.high)
        return float(self.low)

    def describe(self) -> str:
        """The model in words, for reports."""
        if self.samples:
            return f"ready at one of {len(self.samples)} sampled times"
        if self.high is not None:
            return f"ready uniformly between {self.low:g} s and {self.high:g} s"
        return f"ready after {self.low:g} s"

    def to_data(self) -> dict[str, Any]:
        """The model as JSON data."""
        if self.samples:
            return {"kind": "samples", "samples": list(self.samples)}
        if self.high is not None:
            return {"kind": "uniform", "low": self.low, "high": self.high}
        return {"kind": "fixed", "ready_after": self.low}
