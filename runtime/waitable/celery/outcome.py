"""What `on_done` receives: the wait's result, or its error, as JSON data.

`{"wait_id", "waiter", "started_at", "deadline", "ok": True, "result": {...},
"error": None}` on success; `"ok": False, "result": None, "error": {"type",
"message", "result"}` when the wait failed, timed out, ran out of attempts, or
could not run. `started_at` and `deadline` are wall-clock (epoch) seconds.
"""

from __future__ import annotations

from typing import Any

from ..errors import WaiterError
from ..results import WaiterResult
from ..steps import SavedWait, result_to_data

__all__ = ["error_outcome", "result_outcome"]


def _head(wait_id: str, waiter: str, saved: SavedWait | None) -> dict[str, Any]:
    return {
        "wait_id": wait_id,
        "waiter": waiter,
        "started_at": None if saved is None else saved.started_at,
        "deadline": None if saved is None else saved.to_data()["deadline"],
    }


def result_outcome(
    wait_id: str, waiter: str, saved: SavedWait, result: WaiterResult[Any]
) -> dict[str, Any]:
    """The outcome of a wait that reached success."""
    to_data = getattr(result, "to_data", None)
    data = to_data() if callable(to_data) else result_to_data(result)
    return {**_head(wait_id, waiter, saved), "ok": True, "result": data, "error": None}


def error_outcome(
    wait_id: str, waiter: str, saved: SavedWait | None, error: BaseException
) -> dict[str, Any]:
    """The outcome of a wait that ended in `error` (a `WaiterError` or any other)."""
    to_data = getattr(error, "to_data", None)
    if isinstance(error, WaiterError) and callable(to_data):
        data = to_data()
    else:
        result = getattr(error, "result", None)
        data = {
            "type": type(error).__name__,
            "message": str(error),
            "result": (
                result_to_data(result) if isinstance(result, WaiterResult) else None
            ),
        }
    return {**_head(wait_id, waiter, saved), "ok": False, "result": None, "error": data}
