"""Waiter names are case-insensitively unique in a service's closure (UniqueWaiterNames)."""

from __future__ import annotations

from typing import Any

from waitable_codegen.validation import validate

from .builders import NS, model, ref, success_acceptor


def operation(*names: str) -> dict[str, Any]:
    waiters = {name: {"acceptors": [success_acceptor()]} for name in names}
    return {"type": "operation", "traits": {"smithy.waiters#waitable": waiters}}


def service(*operations: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "service",
        "version": "1",
        "operations": [ref(op) for op in operations],
        **extra,
    }


def test_names_clashing_case_insensitively_are_errors_on_every_operation() -> None:
    events = validate(
        model(
            {
                "Svc": service("A", "B", "C"),
                "A": operation("Ready"),
                "B": operation("READY", "Other"),
                "C": operation("ReadY"),
            }
        )
    )
    assert [str(e) for e in events] == [
        f"[ERROR] {NS}#{op}: `smithy.waiters#waitable` trait waiter name `ready` "
        "case-insensitively conflicts with waiters on other operations in the closure "
        f"of service, `{NS}#Svc`: [{others}] | UniqueWaiterNames"
        for op, others in [
            ("A", f"{NS}#B, {NS}#C"),
            ("B", f"{NS}#A, {NS}#C"),
            ("C", f"{NS}#A, {NS}#B"),
        ]
    ]


def test_operations_bound_through_resources_are_in_the_closure() -> None:
    events = validate(
        model(
            {
                "Svc": service("A", resources=[ref("Res")]),
                "Res": {"type": "resource", "read": ref("B")},
                "A": operation("Ready"),
                "B": operation("Ready"),
            }
        )
    )
    assert {(e.shape_id, e.event_id) for e in events} == {
        (f"{NS}#A", "UniqueWaiterNames"),
        (f"{NS}#B", "UniqueWaiterNames"),
    }


def test_operations_in_different_services_or_none_do_not_clash() -> None:
    events = validate(
        model(
            {
                "One": service("A"),
                "Two": service("B"),
                "A": operation("Ready"),
                "B": operation("Ready"),
                "Loose": operation("Ready"),
            }
        )
    )
    assert events == []


def test_each_service_reports_its_own_clash() -> None:
    events = validate(
        model(
            {
                "One": service("A", "B"),
                "Two": service("A", "B"),
                "A": operation("Ready"),
                "B": operation("Ready"),
            }
        )
    )
    assert len(events) == 4
    assert {e.message.split("service, ")[1].split(":")[0] for e in events} == {
        f"`{NS}#One`",
        f"`{NS}#Two`",
    }
