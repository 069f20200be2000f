"""Docs that cannot drift: the code blocks of README.md and docs/*.md, run or checked."""
