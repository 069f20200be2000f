"""The benchmark compares like with like: every contender gives the same answers."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest
from jmespath_cases import PROJECT_ROOT


def _bench() -> ModuleType:
    benchmarks = PROJECT_ROOT / "benchmarks"
    if str(benchmarks) not in sys.path:
        sys.path.insert(0, str(benchmarks))  # as when the script runs: its helpers
    path = benchmarks / "bench_jmespath.py"
    spec = importlib.util.spec_from_file_location("bench_jmespath", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()


def _with_states(response: dict[str, Any], *states: str) -> dict[str, Any]:
    instances = [i for r in response["Reservations"] for i in r["Instances"]]
    for instance, state in zip(instances, states * len(instances)):
        instance["State"]["Name"] = state
    return response


@pytest.mark.parametrize(
    ("states", "verdict"),
    [
        (("pending",), None),
        (("running",), "success"),
        (("running", "terminated"), "failure"),
        (("pending", "stopping", "pending"), "failure"),
    ],
)
def test_every_contender_reaches_the_same_verdict(
    states: tuple[str, ...], verdict: str | None
) -> None:
    paths, polls = bench.contenders()
    response = _with_states(bench.describe_instances(23), *states)
    expected = paths["jmespath"](response)
    assert len(expected) == 23
    for name, path in paths.items():
        assert path(response) == expected, name
    for name, poll in polls.items():
        assert poll(response) == verdict, name


def test_responses_look_like_describe_instances() -> None:
    response = bench.describe_instances(200)
    reservations = response["Reservations"]
    assert sum(len(r["Instances"]) for r in reservations) == 200
    assert 200 / 3 <= len(reservations) < 200
    assert bench.describe_instances(200) == response
