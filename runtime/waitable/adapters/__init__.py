"""Adapters for particular kinds of client (smithy-python: async, snake_case, dataclasses)."""
