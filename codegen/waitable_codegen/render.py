"""Render: the plan through the jinja2 templates, then black, into file contents.

The templates come from `waitable_codegen/templates` in an installed wheel, or from
the repository's top-level `templates/` in an editable install. Output is formatted
in-process with black, so the same plan always gives the same bytes. A template may
place only a `Source` or an `Identifier` (the plan's safe values): the environment
refuses any other value, so model text cannot reach a file through a template.
"""

from __future__ import annotations

import functools
from pathlib import PurePosixPath
from typing import Any

import black
from black.mode import Mode, TargetVersion
import jinja2

from .errors import GenerationError, safe_text
from .literals import Source
from .locations import templates_dir
from .naming import Identifier
from .plan import GenerationPlan, PackagePlan

BLACK_MODE = Mode(target_versions={TargetVersion.PY311}, line_length=88)


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
    and only the plan's safe values (`only_safe`) can be placed."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=only_safe,
    )


def format_source(source: str, name: str) -> str:
    """`source` formatted by black; a failure means a generator bug, said plainly."""
    try:
        return black.format_str(source, mode=BLACK_MODE)
    except Exception as exc:  # black reports invalid code with its own exceptions
        raise GenerationError(
            f"internal error: generated {name} is not valid Python ({exc}); "
            "please report this with the model"
        ) from None


@functools.lru_cache(maxsize=4096)
def _format_function(source: Source) -> Source:
    """One compiled path function, formatted on its own (and remembered: the same
    path recurs across waiters and models), so the module around it formats in
    one black pass."""
    return source.reformatted(
        lambda text: format_source(text, "a compiled JMESPath function").strip("\n")
    )


def clear_caches() -> None:
    """Forget formatted functions (for benchmarks that measure a cold start)."""
    _format_function.cache_clear()


def render_plan(plan: GenerationPlan) -> dict[PurePosixPath, str]:
    """Every file of the plan: relative path → formatted content."""
    env = environment()
    files: dict[PurePosixPath, str] = {}
    context = {"header_lines": plan.header_lines, "plan": plan}
    top = PurePosixPath(".")
    files[top / "py.typed"] = env.get_template("py.typed.jinja").render(context)
    if plan.root_docstring_source is not None:
        source = env.get_template("root_init.py.jinja").render(context)
        files[top / "__init__.py"] = format_source(source, "__init__.py")
    for package in plan.packages:
        files.update(_render_package(env, plan, package))
    return files


def _render_package(
    env: jinja2.Environment, plan: GenerationPlan, package: PackagePlan
) -> dict[PurePosixPath, str]:
    directory = PurePosixPath(*package.path) if package.path else PurePosixPath(".")
    functions = [_format_function(function.source) for function in package.functions]
    context = {
        "header_lines": package.header_lines,
        "plan": plan,
        "package": package,
        "function_sources": functions,
    }
    files: dict[PurePosixPath, str] = {}
    for template, name in (
        ("package_init.py.jinja", "__init__.py"),
        ("shapes.py.jinja", "shapes.py"),
        ("waiters.py.jinja", "waiters.py"),
    ):
        path = directory / name
        source = env.get_template(template).render(context)
        files[path] = format_source(source, str(path))
    return files
