"""waitable_codegen: generate typed waiter classes from Smithy models.

`generate(models, out_dir, ...)` is the Python API (`generate-waiters` is its CLI).
"""

from .api import GenerationResult, ReportedEvent, generate
from .errors import GenerationError, UsageError, ValidationFailed
from .version import MINIMUM_RUNTIME
from .version import __version__ as __version__

__all__ = [
    "MINIMUM_RUNTIME",
    "GenerationError",
    "GenerationResult",
    "ReportedEvent",
    "UsageError",
    "ValidationFailed",
    "generate",
]
