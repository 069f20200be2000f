"""The runtime's version (from its package metadata) and `waitable.require`, the
check a generated package runs at import against the runtime it needs."""

from __future__ import annotations

from importlib import metadata

import pytest
from hypothesis import given
from hypothesis import strategies as st

import waitable
from waitable import version

releases = st.tuples(*[st.integers(0, 30)] * 3)


def text(release: tuple[int, ...]) -> str:
    return ".".join(str(number) for number in release)


def test_the_version_is_the_installed_metadata() -> None:
    assert waitable.__version__ == metadata.version("waitable")
    assert waitable.require is version.require


def test_a_checkout_without_metadata_still_has_a_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert version._installed_version() == version._SOURCE_CHECKOUT


@given(releases, releases)
def test_require_passes_exactly_when_the_runtime_is_new_enough(
    installed: tuple[int, int, int], minimum: tuple[int, int, int]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(waitable, "__version__", text(installed))
        if installed >= minimum:
            version.require(text(minimum), "pkg")
        else:
            with pytest.raises(ImportError) as raised:
                version.require(text(minimum), "pkg")
            message = str(raised.value)
            assert "\n" not in message
            assert message == (
                f"package pkg was generated for waitable >= {text(minimum)} but "
                f"waitable {text(installed)} is installed; run pip install "
                f"'waitable>={text(minimum)}'"
            )


@pytest.mark.parametrize(
    ("written", "release"),
    [
        ("0.2.0", (0, 2, 0)),
        ("1", (1, 0, 0)),
        ("0.10", (0, 10, 0)),
        ("0.2.0rc1", (0, 2, 0)),
        ("1.2.3.4", (1, 2, 3, 4)),
        ("dev", (0, 0, 0)),
    ],
)
def test_version_tuple_reads_the_release_numbers(
    written: str, release: tuple[int, ...]
) -> None:
    assert version.version_tuple(written) == release


def test_numbers_compare_as_numbers_not_text() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(waitable, "__version__", "0.10.0")
        version.require("0.9.0", "pkg")
        patch.setattr(waitable, "__version__", "0.9.9")
        with pytest.raises(ImportError, match=r"waitable>=0\.10\.0"):
            version.require("0.10.0", "pkg")
