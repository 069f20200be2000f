"""What is already in OUT_DIR is untrusted (review of 2026-11-28): a tampered
manifest, `link/..`, a mount point, other users' directories, a lock file that is
a hard link, names no file system holds. Each case once changed or lost files."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from waitable_codegen import GenerationError, UsageError, generate
from waitable_codegen.write import MANIFEST_NAME, read_manifest
from waitable_codegen.write_manifest import parse_manifest, safe_relative

from .helpers import SPEC_EXAMPLES
from .test_write_ownership import HEADER, other_model, sha


def rewrite_manifest(out: Path, change: Any) -> None:
    """Edit OUT_DIR's manifest as someone who can write OUT_DIR could."""
    document = json.loads((out / MANIFEST_NAME).read_text())
    change(document)
    (out / MANIFEST_NAME).write_text(json.dumps(document, indent=1, sort_keys=True))


def seen_otherwise(monkeypatch: pytest.MonkeyPatch, path: Path, field: int) -> None:
    """Make `os.fstat` report the directory `path` with `field` (a device, an owner)
    one more than it is, as a mount point or another user's directory would be."""
    inode = os.stat(path).st_ino
    real_fstat = os.fstat

    def fstat(descriptor: int) -> os.stat_result:
        found = real_fstat(descriptor)
        if found.st_ino != inode:
            return found
        fields = list(found)
        fields[field] += 1
        return os.stat_result(fields)

    monkeypatch.setattr(os, "fstat", fstat)


def test_check_is_not_fooled_by_a_manifest_edited_along_with_a_file(
    tmp_path: Path,
) -> None:
    """`--check` trusted the manifest's fingerprint and hashes: code added to
    `waiters.py`, with its hash put in the manifest, passed as "up to date"."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    waiters = out / "waiters.py"
    tampered = waiters.read_text() + "\nimport os\n"
    waiters.write_text(tampered)

    def vouch(document: dict[str, Any]) -> None:
        document["files"]["waiters.py"] = sha(tampered.encode())

    rewrite_manifest(out, vouch)
    checked = generate(SPEC_EXAMPLES, out, check=True)
    assert checked.stale and checked.written == (waiters,) and not checked.reused
    assert waiters.read_text() == tampered, "--check writes nothing"


def test_check_sees_a_generated_file_deleted_and_dropped_from_the_manifest(
    tmp_path: Path,
) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "waiters.py").unlink()
    rewrite_manifest(out, lambda document: document["files"].pop("waiters.py"))
    checked = generate(SPEC_EXAMPLES, out, check=True)
    assert checked.stale and checked.written == (out / "waiters.py",)


def test_without_a_valid_manifest_an_edited_generated_file_needs_force(
    tmp_path: Path,
) -> None:
    """With the manifest gone (or made invalid by one bad entry), a file with our
    header was overwritten: the header alone vouched for it."""
    for spoil in ("delete", "bad entry"):
        out = tmp_path / spoil.replace(" ", "_")
        generate(SPEC_EXAMPLES, out)
        waiters = out / "waiters.py"
        edited = waiters.read_text() + "# my local edit\n"
        waiters.write_text(edited)
        if spoil == "delete":
            (out / MANIFEST_NAME).unlink()
        else:
            rewrite_manifest(
                out, lambda document: document["files"].update({"../x": "0" * 64})
            )
        assert read_manifest(out) is None
        with pytest.raises(GenerationError) as refused:
            generate(other_model(tmp_path), out)
        assert str(refused.value).startswith(f"{out}/")  # the first file to change
        assert "file has the generate-waiters header, but no manifest" in str(
            refused.value
        )
        assert "--force" in str(refused.value)
        assert waiters.read_text() == edited
        generate(other_model(tmp_path), out, force=True)
        assert "my local edit" not in waiters.read_text()


def test_without_a_manifest_files_that_would_not_change_need_no_force(
    tmp_path: Path,
) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / MANIFEST_NAME).unlink()
    result = generate(SPEC_EXAMPLES, out)
    assert result.written == () and read_manifest(out) is not None


def test_a_path_through_a_link_and_up_is_inspected_where_it_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o link/..` was checked in the link target's parent and swapped beside
    the link: a user's `waiters.py` there was overwritten, a file deleted."""
    project = tmp_path / "proj"
    elsewhere = tmp_path / "elsewhere" / "deep"
    elsewhere.mkdir(parents=True)
    project.mkdir()
    (project / "waiters.py").write_text("my own waiters module\n")
    (project / "notes.txt").write_text("precious\n")
    (project / "link").symlink_to(elsewhere)
    monkeypatch.chdir(project)
    with pytest.raises(GenerationError, match="was not written by generate-waiters"):
        generate(SPEC_EXAMPLES, "link/..")
    assert (project / "waiters.py").read_text() == "my own waiters module\n"
    assert (project / "notes.txt").read_text() == "precious\n"
    assert not (tmp_path / "elsewhere" / MANIFEST_NAME).exists()


@pytest.mark.parametrize("name", ["a\0b", "x/\ud800"])
def test_an_output_directory_no_file_system_can_name_is_a_usage_error(
    tmp_path: Path, name: str
) -> None:
    with pytest.raises(UsageError, match="holds a character no file name can"):
        generate(SPEC_EXAMPLES, tmp_path / name)


def test_a_mount_point_inside_the_output_directory_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The carry rebuilt the mounted directory as a plain one and the old tree's
    removal reached into the mounted file system. Here the directory `vol` is
    reported on another device, as a mount point is."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "vol" / "inner").mkdir(parents=True)
    (out / "vol" / "inner" / "data.txt").write_text("on the volume\n")
    before = os.stat(out).st_ino
    seen_otherwise(monkeypatch, out / "vol", stat.ST_DEV)  # another device
    with pytest.raises(GenerationError) as refused:
        generate(other_model(tmp_path), out)
    monkeypatch.undo()
    assert str(refused.value).startswith(
        f"{out / 'vol'}: a file system is mounted here, inside the output directory"
    )
    assert os.stat(out).st_ino == before, "OUT_DIR was not replaced"
    assert (out / "vol" / "inner" / "data.txt").read_text() == "on the volume\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.json", "pkg"]


def test_something_that_is_no_file_at_the_manifest_name_is_kept(
    tmp_path: Path,
) -> None:
    """A directory named `.generate-waiters.json` was deleted with its contents."""
    out = tmp_path / "pkg"
    (out / MANIFEST_NAME / "sub").mkdir(parents=True)
    (out / MANIFEST_NAME / "data.txt").write_text("precious\n")
    with pytest.raises(GenerationError) as refused:
        generate(SPEC_EXAMPLES, out, force=True)
    assert str(refused.value) == (
        f"{out / MANIFEST_NAME}: a directory stands where generate-waiters keeps its "
        "manifest; move it away"
    )
    assert (out / MANIFEST_NAME / "data.txt").read_text() == "precious\n"
    target = tmp_path / "target.json"
    target.write_text("mine\n")
    (out / MANIFEST_NAME / "data.txt").unlink()
    (out / MANIFEST_NAME / "sub").rmdir()
    (out / MANIFEST_NAME).rmdir()
    (out / MANIFEST_NAME).symlink_to(target)
    with pytest.raises(GenerationError, match="a symbolic link stands where"):
        generate(SPEC_EXAMPLES, out)
    generate(SPEC_EXAMPLES, out, force=True)
    assert not (out / MANIFEST_NAME).is_symlink() and target.read_text() == "mine\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory away needs root")
def test_a_run_as_root_keeps_the_owners_of_the_directories_it_carries(
    tmp_path: Path,
) -> None:
    """Run as root (sudo, a Docker build), OUT_DIR and a user's 0700 directory in
    it came back root's, and the user was locked out of their own files."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    private = out / "alice"
    private.mkdir()
    (private / "a.txt").write_text("a\n")
    nobody = 65534
    for path in (out, private, private / "a.txt"):
        os.chown(path, nobody, nobody)
    private.chmod(0o700)
    generate(other_model(tmp_path), out, force=True)
    for path in (out, private):
        found = os.stat(path)
        assert (found.st_uid, found.st_gid) == (nobody, nobody), path
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o700


def test_a_directory_that_cannot_be_given_back_to_its_owner_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "shared").mkdir()
    seen_otherwise(monkeypatch, out / "shared", stat.ST_UID)  # another user's

    def fchown(descriptor: int, uid: int, gid: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", fchown)
    with pytest.raises(GenerationError) as refused:
        generate(other_model(tmp_path), out)
    monkeypatch.undo()
    assert str(refused.value).startswith(
        f"{out / 'shared'}: this directory belongs to another user or group"
    )
    assert "run as its owner" in str(refused.value)
    assert (out / "shared").is_dir() and (out / "waiters.py").exists()


def test_only_a_pycache_of_compiled_modules_is_left_behind(tmp_path: Path) -> None:
    """Anything named `__pycache__` made its directory disposable: a user's notes
    file of that name, or a README in such a directory, were lost."""
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "notes").mkdir()
    (out / "notes" / "__pycache__").write_text("my notes\n")
    (out / "tools" / "__pycache__").mkdir(parents=True)
    (out / "tools" / "__pycache__" / "README.txt").write_text("hand-written\n")
    (out / "gone" / "__pycache__").mkdir(parents=True)
    (out / "gone" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\0")
    generate(other_model(tmp_path), out, force=True)
    assert (out / "notes" / "__pycache__").read_text() == "my notes\n"
    assert (out / "tools" / "__pycache__" / "README.txt").exists()
    assert not (out / "gone").exists(), "only compiled modules: not carried"


def test_a_lock_file_that_is_a_hard_link_is_never_widened(tmp_path: Path) -> None:
    private = tmp_path / "id_rsa"
    private.write_text("PRIVATE KEY\n")
    private.chmod(0o600)
    os.link(private, tmp_path / ".pkg.generate-waiters.lock")
    generate(SPEC_EXAMPLES, tmp_path / "pkg")
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert private.read_text() == "PRIVATE KEY\n"


def test_a_read_only_output_directory_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    out.chmod(0o555)
    try:
        generate(other_model(tmp_path), out, force=True)
        assert stat.S_IMODE(os.stat(out).st_mode) == 0o555
    finally:
        out.chmod(0o755)


@pytest.mark.parametrize(
    "name", ["\ud800.py", "a" * 300, "sub/" + "b" * 256 + "/x.py", "é" * 128]
)
def test_a_name_no_file_system_holds_makes_the_manifest_invalid(name: str) -> None:
    """A lone surrogate raised an internal error, a part past 255 bytes blocked every
    run with an error naming only that entry."""
    assert safe_relative(name) is None
    document = {"generator": "generate-waiters", "fingerprint": "x"}
    document["files"] = {name: "0" * 64}  # type: ignore[assignment]
    assert parse_manifest(json.dumps(document).encode()) is None


def test_a_manifest_naming_every_run_with_an_error_is_no_manifest() -> None:
    """A run that met an ERROR event wrote nothing, so a manifest recording one was
    edited: it blocked every run, telling the user to fix their model."""
    event = {"shape_id": "ex#Fake", "event_id": "Pwned", "message": "broken"}
    for severity, valid in (("ERROR", False), ("DANGER", True), ("WARNING", True)):
        document = {
            "generator": "generate-waiters",
            "fingerprint": "x",
            "files": {},
            "events": [{**event, "severity": severity}],
        }
        parsed = parse_manifest(json.dumps(document).encode())
        assert (parsed is not None) is valid, severity


def test_a_fifo_at_the_manifest_name_is_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening it released a writer blocked on the FIFO."""
    out = tmp_path / "pkg"
    out.mkdir()
    os.mkfifo(out / MANIFEST_NAME)
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    assert read_manifest(out) is None
    with pytest.raises(GenerationError, match="a special file stands where"):
        generate(SPEC_EXAMPLES, out, check=True)
    monkeypatch.undo()
    assert MANIFEST_NAME not in opened


def test_too_many_directories_for_the_open_file_limit_say_so(tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    for index in range(60):
        (out / f"d{index}").mkdir()
        (out / f"d{index}" / "f").write_text("x\n")
    other = other_model(tmp_path)
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (40, 40))\n"
        "from waitable_codegen.cli import main\n"
        "sys.exit(main([sys.argv[1], '-o', sys.argv[2], '--force']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(other), str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    assert "raise the limit on open files (ulimit -n)" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreadable_directory_of_yours_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said "cannot write generated files ... check that the output directory
    and its parent are writable", naming neither the directory nor the cause."""
    from waitable_codegen import write

    out = tmp_path / "pkg"
    generate(SPEC_EXAMPLES, out)
    (out / "secret").mkdir()
    real_open = write.open_directory

    def refuse(name: Any, dir_fd: int | None = None) -> int:
        if os.fspath(name) == "secret":
            raise PermissionError(13, "Permission denied", name)
        return real_open(name, dir_fd)

    monkeypatch.setattr(write, "open_directory", refuse)
    with pytest.raises(GenerationError) as refused:
        generate(other_model(tmp_path), out, force=True)
    assert str(refused.value).startswith(
        f"{out / 'secret'}: cannot read this directory (Permission denied)"
    )
    assert "make it readable, or move it out" in str(refused.value)


def test_a_file_as_a_parent_of_the_output_directory_is_said_so(tmp_path: Path) -> None:
    model = tmp_path / "m.json"
    model.write_bytes(SPEC_EXAMPLES.read_bytes())
    with pytest.raises(GenerationError) as refused:
        generate(SPEC_EXAMPLES, model / "out")
    assert str(refused.value) == (
        f"{model / 'out'}: a parent of the output directory is a file, not a "
        "directory; pass a directory path with -o"
    )


def test_a_long_error_line_keeps_its_reason_and_advice(tmp_path: Path) -> None:
    """The CLI cut every line at 2000 characters from the end: with a long path,
    the reason and the advice were lost."""
    deep = tmp_path
    for _ in range(9):
        deep = deep / ("c" * 230)
    out = deep / "out"
    out.mkdir(parents=True)
    (out / "waiters.py").write_text("mine\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "waitable_codegen",
            str(SPEC_EXAMPLES),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "characters left out" in line
    assert line.endswith("move it away or pass --force to overwrite it")
    assert line.startswith("generate-waiters: error: /")


def test_a_run_waiting_for_another_runs_lock_says_so(tmp_path: Path) -> None:
    """A run blocked on the lock waited without a word (a hang, to its user)."""
    import fcntl

    lock = tmp_path / ".pkg.generate-waiters.lock"
    holder = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as another run into pkg holds it
    run = subprocess.Popen(
        [sys.executable, "-m", "waitable_codegen", str(SPEC_EXAMPLES)]
        + ["-o", str(tmp_path / "pkg")],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert run.stderr is not None
        said = run.stderr.readline()  # blocks until the run says it waits
        assert said == (
            f"generate-waiters: waiting for another run into {tmp_path / 'pkg'} "
            f"to finish (it holds {lock})\n"
        )
    finally:
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
        run.wait(timeout=60)
    assert run.returncode == 0
    assert (tmp_path / "pkg" / "waiters.py").exists()
