"""Render: the plan through the jinja2 templates into file contents, already in
black's layout.

The templates come from `waitable_codegen/templates` in an installed wheel, or from
the repository's top-level `templates/` in an editable install. The templates and
the layout helpers (`plan.layout`, `jmespath.layout`) write code the way black
(`black_mode()`) lays it out, so black is not run at generation time: a file that a
cheap check cannot call certainly stable is formatted by black on its own, and
counted (`stats`). A template may place only a `Source` or an `Identifier` (the
plan's safe values): the environment refuses any other value, so model text cannot
reach a file through a template.
"""

from __future__ import annotations

import functools
import logging
import re
from itertools import accumulate, compress, count, repeat
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import jinja2

from .errors import GenerationError, safe_text
from .literals import Source
from .locations import templates_dir
from .naming import Identifier
from .plan import GenerationPlan, PackagePlan
from .widths import LINE_LENGTH, most_width

_log = logging.getLogger(__name__)

_STRING = r"""(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')"""
# A line over LINE_LENGTH that black leaves alone: one string literal, alone or as
# a keyword argument or a key, or a name as a keyword argument, in an argument
# list (nothing there black can split).
_UNSPLITTABLE = re.compile(rf" *(?:(?:\w+=|{_STRING}: )?{_STRING}|\w+=\w+),?")
_DOCSTRING_QUOTES = '"""'


@dataclass
class RenderStats:
    """How often rendering fell back to black: `functions` compiled path functions
    and `files` modules that the layout helpers could not lay out for certain."""

    functions: int = 0
    files: int = 0
    fallback_names: list[str] = field(default_factory=list)

    @property
    def fallbacks(self) -> int:
        """Functions and files formatted by black (0 on every corpus we know)."""
        return self.functions + self.files


stats = RenderStats()


def __getattr__(name: str) -> Any:
    """`BLACK_MODE`, built (and black imported) only when asked for."""
    if name == "BLACK_MODE":
        return black_mode()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def black_mode() -> Any:
    """The pinned black mode the output matches (black imported only here)."""
    from black.mode import Mode, TargetVersion

    return Mode(target_versions={TargetVersion.PY311}, line_length=LINE_LENGTH)


def only_safe(value: Any) -> Source | Identifier:
    """The `finalize` hook: every `{{ ... }}` must be a `Source` or an `Identifier`;
    anything else (a plain `str`, a number, a `None`) is a generator bug, stopped."""
    if type(value) is Source or type(value) is Identifier:
        return value
    raise GenerationError(
        f"internal error: a template placed a {type(value).__name__} "
        f"({safe_text(value)}), not a value the plan made safe; please report this"
    )


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment: plain text (no HTML escaping), undefined names fail,
    and only the plan's safe values (`only_safe`) can be placed. Templates are
    compiled once per process (no stat of each template file on every render)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        auto_reload=False,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=only_safe,
    )


def format_source(source: str, name: str) -> str:
    """`source` formatted by black (imported only now); a failure means a
    generator bug, said plainly. Without black installed (it is an extra,
    `waitable-codegen[black]`), `source` as the templates wrote it: valid Python,
    in black's layout but for the lines black would split, with a warning."""
    try:
        import black
    except ImportError:
        _log.warning(
            "%s: a line the generator cannot lay out as black would; the file is "
            "written as is (valid Python): pip install 'waitable-codegen[black]' "
            "to have black format it",
            name,
        )
        return source
    try:
        return black.format_str(source, mode=black_mode())
    except Exception as exc:  # black reports invalid code with its own exceptions
        raise GenerationError(
            f"internal error: generated {name} is not valid Python ({exc}); "
            "please report this with the model"
        ) from None


def certainly_stable(source: str) -> bool:
    """True when every line over LINE_LENGTH is one black cannot split either: a
    docstring's line, or a lone string literal in an argument list. Everything
    else the templates and layout helpers write is already in black's layout.

    Only the long lines are looked at one by one; whether one lies in a docstring
    comes from the docstring quotes on the lines before it: triple quotes that
    open or close one start or end their line (those inside a literal, `'\"\"\"'`,
    do neither, and a docstring's text never holds three quotes in a row)."""
    lines = source.split("\n")
    # Black counts a wide character as two columns: a line is measured at the most
    # it may count (`widths`), so none wider than the limit passes unlooked at.
    lengths = list(map(len if source.isascii() else most_width, lines))
    if max(lengths, default=0) <= LINE_LENGTH:
        return True  # the usual case, decided without looking at any line
    quotes = list(map(str.count, lines, repeat(_DOCSTRING_QUOTES)))
    for index in compress(count(), quotes):  # the few lines holding triple quotes
        quotes[index] = docstring_quotes(lines[index])
    before = list(accumulate(quotes, initial=0))  # docstring quotes on earlier lines
    for index in compress(count(), map(LINE_LENGTH.__lt__, lengths)):
        in_docstring = before[index] % 2 == 1
        if not (in_docstring or quotes[index] or _UNSPLITTABLE.fullmatch(lines[index])):
            return False
    return True


def docstring_quotes(line: str) -> int:
    """How many docstrings `line` opens or closes: triple quotes at its start and
    at its end (a line of only triple quotes counts once)."""
    text = line.strip()
    if text == _DOCSTRING_QUOTES:
        return 1
    return text.startswith(_DOCSTRING_QUOTES) + text.endswith(_DOCSTRING_QUOTES)


def settled(source: str, name: str) -> str:
    """`source` as written when it is certainly stable, else black's (counted)."""
    if certainly_stable(source):
        return source
    stats.files += 1
    stats.fallback_names.append(name)
    _log.debug("%s: not certainly in black's layout; formatted with black", name)
    return format_source(source, name)


@functools.lru_cache(maxsize=4096)
def _settled_function(source: Source) -> Source:
    """One compiled path function as placed: the compiler lays it out as black
    would; one with a line it could not split is formatted by black on its own
    (remembered: the same path recurs across waiters and models)."""
    if certainly_stable(source):
        return source
    stats.functions += 1
    stats.fallback_names.append(source.split("(", 1)[0])
    _log.debug("%s: a line the layout cannot split; formatted with black", source[:60])
    return source.reformatted(
        lambda text: format_source(text, "a compiled JMESPath function").strip("\n")
    )


def clear_caches() -> None:
    """Forget settled functions (for benchmarks that measure a cold start)."""
    _settled_function.cache_clear()


def render_plan(plan: GenerationPlan) -> dict[PurePosixPath, str]:
    """Every file of the plan: relative path → content in black's layout."""
    env = environment()
    files: dict[PurePosixPath, str] = {}
    context = {"header_lines": plan.header_lines, "plan": plan}
    top = PurePosixPath(".")
    files[top / "py.typed"] = env.get_template("py.typed.jinja").render(context)
    if plan.root_docstring_source is not None:
        source = env.get_template("root_init.py.jinja").render(context)
        files[top / "__init__.py"] = settled(source, "__init__.py")
    for package in plan.packages:
        files.update(_render_package(env, plan, package))
    return files


#: How compiled functions call the runtime's JMESPath helpers (`waitable.jmespath_runtime`).
_HELPER_PREFIX = "_jp."
#: A string literal or docstring quote of a compiled function (one line each).
_QUOTED = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")


def calls_runtime_helpers(source: str) -> bool:
    """True when a compiled function calls a runtime helper: `_jp.` outside its
    literals and docstring (a path or literal may hold that text too)."""
    return _HELPER_PREFIX in source and _HELPER_PREFIX in _QUOTED.sub("", source)


def _render_package(
    env: jinja2.Environment, plan: GenerationPlan, package: PackagePlan
) -> dict[PurePosixPath, str]:
    directory = PurePosixPath(*package.path) if package.path else PurePosixPath(".")
    functions = [_settled_function(function.source) for function in package.functions]
    context = {
        "header_lines": package.header_lines,
        "plan": plan,
        "package": package,
        "function_sources": functions,
        # The runtime helpers are imported only where a compiled function calls one
        # (the compiler names them `_jp.NAME`), so linters find no unused import.
        "uses_runtime_helpers": any(map(calls_runtime_helpers, functions)),
    }
    files: dict[PurePosixPath, str] = {}
    for template, name in (
        ("package_init.py.jinja", "__init__.py"),
        ("shapes.py.jinja", "shapes.py"),
        ("waiters.py.jinja", "waiters.py"),
    ):
        path = directory / name
        source = env.get_template(template).render(context)
        files[path] = settled(source, str(path))
    return files
