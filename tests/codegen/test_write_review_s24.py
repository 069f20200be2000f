"""Writer fixes of session 24: a FIFO (or any special file) with a lock file's name,
beside OUT_DIR or anywhere inside it, is looked at and never opened (opening it
released a writer blocked on the FIFO, as the manifest's once did); the
directories carried into the new package keep their POSIX ACLs; what Python would
import instead of a generated module stops the run and `--check`."""

from __future__ import annotations

import errno
import os
import struct
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

from waitable_codegen import GenerationError, generate
from waitable_codegen import lock
from waitable_codegen.staging import OutputSite

from .helpers import SPEC_EXAMPLES, thing_shapes, write_model
from .test_write_ownership import other_model


def _spy_on_open(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every name `os.open` is given from now on (relative names as given)."""
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    return opened


def test_a_fifo_at_the_lock_files_name_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    fifo = tmp_path / ".pkg.generate-waiters.lock"
    os.mkfifo(fifo)
    opened = _spy_on_open(monkeypatch)
    with pytest.raises(GenerationError, match="the lock file is not a regular file"):
        generate(SPEC_EXAMPLES, out)
    assert lock.wait_for_writer(OutputSite.of(out)) is False  # --check's wait
    monkeypatch.undo()
    assert fifo.name not in opened and str(fifo) not in opened
    assert not out.exists()


def test_a_fifo_with_a_lock_files_name_inside_out_dir_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No run holds it (it is no lock file): the run goes on, and carries it."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "deep").mkdir()
    os.mkfifo(out / "deep" / ".inner.generate-waiters.lock")
    os.mkfifo(out / ".top.generate-waiters.lock")
    opened = _spy_on_open(monkeypatch)
    generate(other_model(tmp_path), out)
    monkeypatch.undo()
    assert ".inner.generate-waiters.lock" not in opened
    assert ".top.generate-waiters.lock" not in opened
    assert (out / "deep" / ".inner.generate-waiters.lock").is_fifo()


def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A POSIX ACL as Linux stores it in `system.posix_acl_*` (version 2, then
    tag, permissions and id of each entry, in tag order)."""
    return struct.pack("<I", 2) + b"".join(
        struct.pack("<HHI", tag, perms, uid) for tag, perms, uid in entries
    )


_ANY = 0xFFFFFFFF
#: Owner rwx, the user nobody nothing, group r-x, mask r-x, others r-x.
_NOBODY_KEPT_OUT = _acl(
    (0x01, 7, _ANY), (0x02, 0, 65534), (0x04, 5, _ANY), (0x10, 5, _ANY), (0x20, 5, _ANY)
)


def _set_acl_or_skip(path: Path, name: str, value: bytes) -> None:
    try:
        os.setxattr(path, name, value)
    except (AttributeError, OSError) as exc:
        pytest.skip(f"no POSIX ACLs here ({exc})")


def _acls(path: Path) -> dict[str, bytes]:
    return {
        name: os.getxattr(path, name)
        for name in os.listxattr(path)
        if name.startswith("system.posix_acl_")
    }


def test_the_acls_of_out_dir_and_its_directories_are_kept(tmp_path: Path) -> None:
    """Directories are rebuilt in the new package: they came back with their mode
    alone, so a directory whose ACL kept a user out became readable to that user
    (its mode lets others in), and OUT_DIR lost its default ACL."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "private" / "inner").mkdir(parents=True)
    (out / "private" / "notes.txt").write_text("mine")
    _set_acl_or_skip(out / "private", "system.posix_acl_access", _NOBODY_KEPT_OUT)
    _set_acl_or_skip(out, "system.posix_acl_default", _NOBODY_KEPT_OUT)
    before = {path: _acls(out / path) for path in ("", "private", "private/inner")}
    generate(other_model(tmp_path), out)
    after = {path: _acls(out / path) for path in ("", "private", "private/inner")}
    assert after == before
    assert _acls(out / "waiters.py") == {}  # nothing made in the build inherits


#: Owner rwx, owning group r-x, the group 4242 r-x, mask r-x, others nothing.
_GROUP_LET_IN = _acl(
    (0x01, 7, _ANY), (0x04, 5, _ANY), (0x08, 5, 4242), (0x10, 5, _ANY), (0x20, 0, _ANY)
)


def test_a_directory_without_acls_gets_none_from_out_dirs_parent(
    tmp_path: Path,
) -> None:
    """The new package is built beside OUT_DIR: its directories inherited the
    parent's default ACL, so a directory with none (mode 0750, the group 4242
    kept out) came back letting that group in, and with a default ACL."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "private").mkdir(mode=0o750)
    os.chmod(out / "private", 0o750)
    _set_acl_or_skip(tmp_path, "system.posix_acl_default", _GROUP_LET_IN)
    generate(other_model(tmp_path), out)
    assert _acls(out) == {} and _acls(out / "private") == {}
    assert (out / "private").stat().st_mode & 0o777 == 0o750


#: The extension suffix of another Python version than this one (3.99): the
#: package is imported by other versions than the one that checks it.
_OTHER_PYTHON = EXTENSION_SUFFIXES[0].replace(
    sys.implementation.cache_tag, "cpython-399"
)


def test_no_acl_is_removed_from_a_copy_that_has_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an ACL a copy inherited is removed: a file system that refuses to
    remove one it does not hold (EPERM from a FUSE one) must not stop every run."""
    if not hasattr(os, "removexattr"):
        pytest.skip("no extended attributes here")
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "private").mkdir()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "removexattr", refuse)
    assert generate(other_model(tmp_path), out).written
    assert _acls(out / "private") == {}


def test_an_acl_that_cannot_be_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system refusing to read a directory's ACL (EACCES, EIO: anything but
    "none here") stopped the run saying generated files could not be written and
    to make OUT_DIR writable."""
    if not hasattr(os, "getxattr"):
        pytest.skip("no extended attributes here")
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "private").mkdir()
    real = os.getxattr

    def refuse(path: Any, name: str, *args: Any, **kwargs: Any) -> bytes:
        if os.path.basename(os.readlink(f"/proc/self/fd/{path}")) == "private":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(path, name, *args, **kwargs)

    monkeypatch.setattr(os, "getxattr", refuse)
    with pytest.raises(GenerationError) as caught:
        generate(other_model(tmp_path), out)
    assert str(caught.value).startswith(
        f"{out / 'private'}: cannot read this directory's access control list"
    )


SHADOWS = {
    "another Python's extension module": (f"waiters{_OTHER_PYTHON}", None),
    "another Python's extension package": ("shapes", f"__init__{_OTHER_PYTHON}"),
    "a package of the module's name": ("waiters", "__init__.py"),
    "a compiled package": ("waiters", "__init__.pyc"),
    "an extension module": (f"shapes{EXTENSION_SUFFIXES[0]}", None),
    "a stable-ABI extension module": ("waiters.abi3.so", None),
    "one shadowing __init__.py": (f"__init__{EXTENSION_SUFFIXES[0]}", None),
}


@pytest.mark.parametrize("name,inner", SHADOWS.values(), ids=SHADOWS.keys())
def test_what_python_would_import_instead_of_a_generated_module_is_refused(
    tmp_path: Path, name: str, inner: str | None
) -> None:
    """Every generated file was byte for byte as written, so `--check` said "up to
    date" (and a rerun reused the package) while `import pkg.waiters` ran the
    planted package. Not ours: no run removes it, `--force` included."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    shadow = out / name
    if inner is None:
        shadow.write_text("")
    else:
        shadow.mkdir()
        (shadow / inner).write_text("raise SystemExit('planted')\n")
    for options in ({"check": True}, {}, {"force": True}):
        with pytest.raises(GenerationError, match="Python would import this") as e:
            generate(SPEC_EXAMPLES, out, **options)  # type: ignore[arg-type]
        assert str(e.value).startswith(f"{shadow}: ")
    assert shadow.exists()


def test_a_directory_python_would_not_import_as_the_module_is_no_shadow(
    tmp_path: Path,
) -> None:
    """Without an `__init__` a directory is a namespace package, which comes after
    the module: `import pkg.waiters` still finds waiters.py."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "waiters" / "data").mkdir(parents=True)
    (out / "waiters" / "notes.txt").write_text("mine")
    assert generate(SPEC_EXAMPLES, out, check=True).stale is False
    assert generate(other_model(tmp_path), out).written
    assert (out / "waiters" / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("target", ["plain directory", "file", "nothing", "itself"])
def test_a_link_python_would_not_import_as_the_module_is_no_shadow(
    tmp_path: Path, target: str
) -> None:
    """A symbolic link at a module's name counted as a package whatever it led
    to: a link to a plain directory (a namespace portion, which Python tries after
    the module), to a file or to nothing stopped every run, though `import
    pkg.waiters` found waiters.py."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    there = tmp_path / "elsewhere"
    if target == "plain directory":
        there.mkdir()
        (there / "notes.txt").write_text("mine")
    elif target == "file":
        there.write_text("mine")
    elif target == "itself":
        there = out / "waiters"
    (out / "waiters").symlink_to(there)
    assert generate(SPEC_EXAMPLES, out, check=True).stale is False
    assert generate(other_model(tmp_path), out).written
    assert (out / "waiters").is_symlink()


def test_a_link_to_a_package_at_a_modules_name_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (tmp_path / "planted").mkdir()
    (tmp_path / "planted" / "__init__.py").write_text("raise SystemExit('planted')")
    (out / "waiters").symlink_to(tmp_path / "planted")
    with pytest.raises(GenerationError, match="Python would import this"):
        generate(SPEC_EXAMPLES, out, check=True)


def _service(name: str, sdk_id: str) -> dict[str, Any]:
    return {
        "type": "service",
        "version": "1",
        "operations": [{"target": "smithy.example#GetThing"}],
        "traits": {"aws.api#service": {"sdkId": sdk_id}},
    }


def test_a_subpackage_an_earlier_generation_wrote_is_no_shadow(tmp_path: Path) -> None:
    """Two services, one of them `Shapes`, made the subpackage `shapes/`; with one
    service left the package has `shapes.py`, and the run removes `shapes/`."""
    two = thing_shapes()
    two["smithy.example#A"] = _service("A", "Shapes")
    two["smithy.example#B"] = _service("B", "Other")
    one = thing_shapes()
    one["smithy.example#A"] = _service("A", "Shapes")
    out = tmp_path / "pkg"
    generate(write_model(tmp_path / "two.json", two), out)
    assert (out / "shapes" / "__init__.py").is_file()
    result = generate(write_model(tmp_path / "one.json", one), out)
    assert out / "shapes" / "__init__.py" in result.removed
    assert (out / "shapes.py").is_file() and not (out / "shapes").exists()
