"""Adapters for particular kinds of client (smithy-python: async, snake_case, dataclasses).

boto3, aiobotocore and plain callables need none: a generated waiter takes them
as they are. A smithy-python client goes through `smithy_python_waiter`; the
errors such a client wraps come out as the `SmithyPython...Error` classes here
(transport failures as `OSError`s, unmodeled errors with their `code`).
"""

from .smithy_errors import (
    SmithyPythonConnectionError,
    SmithyPythonTimeoutError,
    SmithyPythonTransportError,
    SmithyPythonUnmodeledError,
)
from .smithy_python import (
    SmithyPythonAdapterError,
    SmithyPythonOperation,
    smithy_python_waiter,
)

__all__ = [
    "SmithyPythonAdapterError",
    "SmithyPythonConnectionError",
    "SmithyPythonOperation",
    "SmithyPythonTimeoutError",
    "SmithyPythonTransportError",
    "SmithyPythonUnmodeledError",
    "smithy_python_waiter",
]
