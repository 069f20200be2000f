"""Tests of the waitable runtime: definitions, the engine, both drivers, delays, errors."""
