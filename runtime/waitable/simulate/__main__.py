"""`python -m waitable.simulate ...`: the `waitable` console script."""

from __future__ import annotations

from .cli import main

main()
