"""`install(app, import_from=(...))` and the part of a name after ':', which is
read attribute by attribute: a trusted module's own modules, imported
functions and objects must not lead a forged name out of the trusted packages
(`myapp:os.abort` killed the worker as `os:abort` did). No Redis needed."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from waitable import WaiterConfigurationError
from waitable.celery.names import resolve_client_factory, resolve_waiter

TRUSTED_MODULE = """\
import os
from os import getcwd

from fake_service import ThingReadyWaiter, make_client


class Factories:
    @staticmethod
    def make():
        return make_client()

    @classmethod
    def made(cls):
        return make_client()


class Holder:
    def __call__(self):
        return make_client()

    def method(self):
        return make_client()


holder = Holder()
"""

OUTSIDE = "outside the packages this app imports names from"


@pytest.fixture()
def trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A trusted package `trusted_<uuid>` whose module imports other packages."""
    package = f"trusted_{uuid.uuid4().hex}"
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "clients.py").write_text(TRUSTED_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return package


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("os.getcwd", "reaches {m}:os, the module os"),
        ("getcwd", "reaches {m}:getcwd, defined in posix"),
        ("holder.method", "reaches {m}:holder, a Holder, which is not gone through"),
        ("make_client", "reaches {m}:make_client, defined in fake_service"),
        (
            "Factories.make.__call__",
            "reaches {m}:Factories.make, a function, which is not gone through",
        ),
    ],
)
def test_a_trusted_module_does_not_lead_out_of_the_trusted_packages(
    trusted: str, path: str, said: str
) -> None:
    module = f"{trusted}.clients"
    with pytest.raises(WaiterConfigurationError) as refused:
        resolve_client_factory(f"{module}:{path}", (trusted,))
    assert said.format(m=module) in str(refused.value)
    assert OUTSIDE in str(refused.value)
    # Without import_from, as before: any importable name.
    assert callable(resolve_client_factory(f"{module}:{path}"))


def test_a_waiter_imported_into_a_trusted_module_is_named_where_it_is_defined(
    trusted: str,
) -> None:
    with pytest.raises(WaiterConfigurationError, match="defined in fake_service"):
        resolve_waiter(f"{trusted}.clients:ThingReadyWaiter", (trusted,))
    assert resolve_waiter(
        f"{trusted}.clients:ThingReadyWaiter", (trusted, "fake_service")
    )


@pytest.mark.parametrize("path", ["Factories.make", "Factories.made", "holder"])
def test_what_a_trusted_module_defines_is_used(trusted: str, path: str) -> None:
    factory = resolve_client_factory(f"{trusted}.clients:{path}", (trusted,))
    assert callable(factory)
