"""`python -m waitable_codegen` runs `generate-waiters`."""

from .cli import main

main()
