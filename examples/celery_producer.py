"""Start three waits on the worker of `celery_worker.py`, then exit: the waits go on without us.

Run: `PYTHONPATH=build:examples .venv/bin/python examples/celery_producer.py`
"""

from __future__ import annotations

from celery_worker import app, report

from waitable.celery import start_wait


def main() -> None:
    """Each wait is one message now; `report` hears how each ended."""
    for name in ("alpha", "beta", "gamma"):
        wait_id = start_wait(
            app,
            "demo_waiters:ThingExistsWaiter",  # a generated class, by importable name
            {"name": name},
            client="celery_worker:thing_client",  # a client factory, by name
            max_wait_time=3600,  # a wall-clock deadline that travels with the wait
            min_delay=1,
            max_delay=10,
            on_done=report.s(label=name),
        )
        print(f"started {name}: wait {wait_id}")


if __name__ == "__main__":
    main()
