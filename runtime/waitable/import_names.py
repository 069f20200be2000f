"""Importing what a user names: a module (`my_waiters.ec2`) or an object in one
(`my_waiters.ec2:InstanceRunningWaiter`, `my_app.waiters:Jenkins.Async`).

One reading for every place that takes such a name (`waitable wait --package`,
`waitable simulate --waiter`, `waitable.celery`'s waiter and client names): the
module path is absolute and dotted, each part an identifier; anything else, a
module that is not there, or one whose own code raises as it is imported, is an
`ImportNameError` saying which, for the caller to word as its own error.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["ImportNameError", "import_module_named", "import_object", "name_problem"]


class ImportNameError(ValueError):
    """Why a name does not import. `kind` is "malformed" (no module path, or no
    `module:Name`), "missing" (no such module or attribute) or "raised" (the
    module's own code failed as it was imported: its error is the `__cause__`);
    the message says the rest."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def name_problem(name: str, *, with_object: bool) -> str | None:
    """What keeps `name` from being `package.module` (or, `with_object`,
    `package.module:Name`); None when it is one."""
    module_name, colon, attribute = name.partition(":")
    if with_object and not colon:
        return "no ':' between the module and the name in it"
    if not with_object and colon:
        return "a module path has no ':'"
    if not module_name:
        return "the module path is empty"
    if module_name.startswith("."):
        return "a relative module path, which has nothing to be relative to here"
    if with_object and not attribute:
        return "the name after ':' is empty"
    parts = [("module path", module_name)]
    if with_object:
        parts.append(("name", attribute))
    for label, path in parts:
        if not all(part.isidentifier() for part in path.split(".")):
            return f"the {label} {path!r} is not dotted Python identifiers"
    return None


def import_module_named(name: str) -> ModuleType:
    """The module `name` (`package.module`), imported."""
    problem = name_problem(name, with_object=False)
    if problem is not None:
        raise ImportNameError("malformed", problem)
    return _import(name)


def import_object(name: str) -> Any:
    """The object `name` (`package.module:Name`, `Name` may be dotted) names."""
    problem = name_problem(name, with_object=True)
    if problem is not None:
        raise ImportNameError("malformed", problem)
    module_name, _, attribute = name.partition(":")
    found: Any = _import(module_name)
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ImportNameError(
                "missing", f"{module_name!r} has no {attribute!r}"
            ) from None
        except Exception as exc:  # a module's __getattr__ that raises otherwise
            raise ImportNameError(
                "raised", f"reading {attribute!r} raised {_first_line(exc)}"
            ) from exc
    return found


def _import(module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportNameError(
            "missing",
            f"cannot import module {module_name!r} ({_first_line(exc, named=False)})",
        ) from None
    except Exception as exc:  # the module's own code failed as it was imported
        raise ImportNameError(
            "raised", f"importing module {module_name!r} raised {_first_line(exc)}"
        ) from exc  # kept: where the module failed is the caller's to show


def _first_line(exc: BaseException, *, named: bool = True) -> str:
    """`exc`'s message, its first line only (errors here are one line), after its
    class name when `named`."""
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else "(no message)"
    return f"{type(exc).__name__}: {text}" if named else text
