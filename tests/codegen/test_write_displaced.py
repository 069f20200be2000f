"""A portable swap (two renames) interrupted by another program that makes OUT_DIR
between them: neither package is removed, and every run says where both are until
the user moves that directory away. Real generation processes, stopped (SIGSTOP)
or killed between the renames."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

from waitable_codegen import generate

from .helpers import AWS_MODELS, SPEC_EXAMPLES
from .test_write_crash import (
    USER_FILES,
    add_user_files,
    command,
    stopped_at,
    tree,
)

RENAME = {"GENERATE_WAITERS_SWAP": "rename"}
NEW = AWS_MODELS / "acm-2015-12-08.json"
THEIRS = {"theirs.txt": b"made by another program"}


class Site:
    """OUT_DIR holding a generation of the spec examples and user files; the tree
    the new model gives over it."""

    def __init__(self, root: Path) -> None:
        self.out = root / "site" / "pkg"
        generate([SPEC_EXAMPLES], self.out)
        add_user_files(self.out)
        self.old_tree = tree(self.out)
        self.inodes = inodes(self.out)
        reference = root / "reference" / "pkg"
        shutil.copytree(self.out, reference, symlinks=True)
        generate([NEW], reference)
        self.new_tree = tree(reference)
        self.retired = self.out.parent / ".pkg.generate-waiters.old"
        self.staging = self.out.parent / ".pkg.generate-waiters.new"

    def run(self) -> subprocess.CompletedProcess[str]:
        """A generation of the new model into OUT_DIR, portable swap."""
        return subprocess.run(
            command([NEW], self.out),
            env=dict(os.environ, **RENAME),
            capture_output=True,
            text=True,
        )

    def stop_between_renames(self, root: Path) -> subprocess.Popen[bytes]:
        """A generation of the new model, stopped (SIGSTOP) between its renames."""
        return stopped_at(root, NEW, self.out, "retired the old package", **RENAME)

    def make_theirs(self, files: dict[str, bytes]) -> None:
        """What another program does between the renames: OUT_DIR made anew."""
        self.out.mkdir()
        for name, data in files.items():
            (self.out / name).write_bytes(data)

    def assert_both_kept(self) -> None:
        assert tree(self.retired) == self.old_tree
        assert inodes(self.retired) == self.inodes, "the user's files themselves"
        assert tree(self.staging) == self.new_tree
        assert tree(self.out) == THEIRS

    def assert_new_package_alone(self) -> None:
        """OUT_DIR is the new package with the user's own files, nothing beside it."""
        assert tree(self.out) == self.new_tree
        assert inodes(self.out) == self.inodes, "the user's files themselves"
        assert listing(self.out.parent) == ["pkg"]

    def assert_refused(self, done: subprocess.CompletedProcess[str]) -> None:
        assert done.returncode == 1
        message = done.stderr.strip()
        assert message.startswith(f"generate-waiters: error: {self.out}: another ")
        assert str(self.retired) in message and str(self.staging) in message
        assert f"move {self.out} away and run again" in message
        assert "Traceback" not in done.stderr


def interrupted(tmp_path: Path) -> Site:
    """A site whose run failed: another program made OUT_DIR between its renames."""
    site = Site(tmp_path)
    writer = site.stop_between_renames(tmp_path)
    site.make_theirs(THEIRS)
    writer.send_signal(signal.SIGCONT)
    assert writer.wait() == 1
    return site


def inodes(package: Path) -> dict[str, int]:
    return {name: (package / name).stat().st_ino for name in USER_FILES}


def listing(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


def test_a_directory_made_between_the_renames_keeps_both_packages(
    tmp_path: Path,
) -> None:
    site = interrupted(tmp_path)
    site.assert_both_kept()
    site.assert_refused(site.run())  # and again, until the user acts
    site.assert_both_kept()
    site.out.rename(tmp_path / "theirs")
    done = site.run()
    assert done.returncode == 0, done.stderr
    site.assert_new_package_alone()
    assert tree(tmp_path / "theirs") == THEIRS


def test_removing_both_packages_keeps_what_the_other_program_made(
    tmp_path: Path,
) -> None:
    site = interrupted(tmp_path)
    shutil.rmtree(site.retired)
    shutil.rmtree(site.staging)
    done = site.run()
    assert done.returncode == 0, done.stderr
    reference = tmp_path / "theirs-reference" / "pkg"
    reference.mkdir(parents=True)
    (reference / "theirs.txt").write_bytes(THEIRS["theirs.txt"])
    generate([NEW], reference)
    assert tree(site.out) == tree(reference)
    assert listing(site.out.parent) == ["pkg"]


def test_an_empty_directory_made_between_the_renames_is_replaced(
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    writer = site.stop_between_renames(tmp_path)
    site.make_theirs({})
    writer.send_signal(signal.SIGCONT)
    assert writer.wait() == 0
    site.assert_new_package_alone()


def test_a_kill_between_the_renames_then_a_directory_made_keeps_both(
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    writer = site.stop_between_renames(tmp_path)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    site.make_theirs(THEIRS)
    site.assert_refused(site.run())
    site.assert_both_kept()
    site.out.rename(tmp_path / "theirs")
    done = site.run()
    assert done.returncode == 0, done.stderr
    assert tree(site.out) == site.new_tree
    assert listing(site.out.parent) == ["pkg"]


def test_a_kill_between_the_renames_then_an_empty_directory_made_is_replaced(
    tmp_path: Path,
) -> None:
    """As a build step's `mkdir -p OUT_DIR` before the next run would make it: the
    swap is finished as its second rename would have done it."""
    site = Site(tmp_path)
    writer = site.stop_between_renames(tmp_path)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    site.make_theirs({})
    done = site.run()
    assert done.returncode == 0, done.stderr
    site.assert_new_package_alone()
