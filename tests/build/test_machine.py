"""The machine's failures said as such (issue 22, item 5): ``builder/machine.py``.

Real failures of a real file system: a small tmpfs mounted for the test (full, or
remounted read-only), and ``chattr +i``, which stops root too. These need root and
``mount``; CI runs as root on the same kind of machine, so a missing capability fails the
test, it is never skipped. Whole builds on a full or read-only disk:
tests/build/test_build_failures.py.
"""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest

from builder import machine


@pytest.fixture
def disk(tmp_path: Path):
    """A 64 KB tmpfs of the test's own."""
    where = tmp_path / "disk"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_full_disk_names_the_file_being_written_as_the_output_names_it(disk):
    staging = disk / ".output.staging-123"
    (staging / "pdf").mkdir(parents=True)
    machine.track_writes()
    machine.naming(staging, Path("output"))
    with pytest.raises(OSError) as e:
        with open(staging / "pdf" / "war-rules.pdf", "wb") as f:
            f.write(b"%PDF" + b"x" * 200_000)  # more than the disk holds: fails in write()
    assert e.value.errno == errno.ENOSPC and e.value.filename is None
    assert machine.is_machine(e.value)
    assert machine.describe(e.value) == (
        "no space left on device while writing output/pdf/war-rules.pdf; free some space on "
        "that disk (or build into another with --out) and build again")


def test_a_file_object_as_the_file_name_is_named_by_its_path(disk):
    """Python's own buffered file, failing as it is flushed on close, names the file object
    itself (seen in a real build: ``<_io.BufferedWriter name='...'>``)."""
    staging = disk / ".output.staging-9"
    staging.mkdir()
    machine.naming(staging, Path("out"))
    with open(staging / "x.png", "wb") as f:
        e = OSError(errno.ENOSPC, "No space left on device", f)
    assert machine.describe(e).startswith("no space left on device: out/x.png; ")


def test_a_read_only_file_system_is_named_with_the_output_path(disk):
    staging = disk / ".output.staging-7"
    machine.naming(staging, Path("site-out"))
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    with pytest.raises(OSError) as e:
        staging.mkdir()
    assert machine.describe(e.value) == (
        "read-only file system: site-out; that file system is mounted read-only: build into "
        "another folder with --out")
    with pytest.raises(OSError) as e:
        (disk / "elsewhere.txt").write_text("x")  # not under the staging folder: as it is
    assert machine.describe(e.value).startswith(f"read-only file system: {disk}/elsewhere.txt; ")


def test_an_immutable_folder_is_a_permission_error(tmp_path):
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    subprocess.run(["chattr", "+i", str(frozen)], check=True)
    try:
        with pytest.raises(OSError) as e:
            os.rename(frozen, tmp_path / "moved")
    finally:
        subprocess.run(["chattr", "-i", str(frozen)], check=True)
    assert machine.describe(e.value) == (
        f"operation not permitted: {frozen} -> {tmp_path / 'moved'}; check the folder's owner "
        f"and permissions (an immutable folder: lsattr, chattr -i), or build into another "
        f"folder with --out")


def test_only_errors_of_the_system_are_the_machines():
    """Pillow and others raise OSError without an error number for a file they cannot read
    (a fault of the file, or of warbook): not the machine's."""
    from PIL import Image, UnidentifiedImageError

    assert not machine.is_machine(OSError("cannot identify image file"))
    assert not machine.is_machine(UnidentifiedImageError("cannot identify image file"))
    assert not machine.is_machine(ValueError("embedded null byte"))
    assert machine.is_machine(FileNotFoundError(errno.ENOENT, "No such file or directory", "f"))
    with pytest.raises(OSError) as e:
        Image.open(__file__)
    assert not machine.is_machine(e.value)


def test_paths_in_and_outside_the_staging_folder(tmp_path):
    staging = tmp_path / ".out.staging-5"
    machine.naming(staging, Path("out"))
    assert machine.shown(staging) == "out"
    assert machine.shown(staging / "pdf" / "a.pdf") == "out/pdf/a.pdf"
    assert machine.shown(os.fsencode(staging / "b")) == "out/b"
    assert machine.shown(tmp_path / ".out.staging-55" / "b") == str(tmp_path / ".out.staging-55" / "b")
    assert machine.shown("/usr/share/fonts/x.otf") == "/usr/share/fonts/x.otf"


def test_the_last_file_opened_for_writing_is_remembered(tmp_path):
    machine.track_writes()
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    assert machine.last_written() == str(a)
    a.read_text()  # reading changes nothing
    assert machine.last_written() == str(a)
    fd = os.open(b, os.O_WRONLY | os.O_CREAT)
    os.close(fd)
    assert machine.last_written() == str(b)
    with open(a, "r+"):
        pass
    assert machine.last_written() == str(a)


def test_a_failure_of_the_machine_outside_a_build_is_a_plain_error(tmp_path):
    """Any command, not only build: ``warbook new example`` into an immutable folder is the
    cause and the path, exit status 1, not an internal error."""
    import shutil
    import sys

    root = Path(__file__).resolve().parents[2]
    content = tmp_path / "content"
    shutil.copytree(root / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    examples = content / "war" / "examples"
    before = sorted(p.name for p in examples.iterdir())
    subprocess.run(["chattr", "+i", str(examples)], check=True)
    try:
        proc = subprocess.run([sys.executable, "-m", "builder", "new", "example", "war",
                               "--content", str(content)], capture_output=True, text=True,
                              cwd=root, timeout=120)
    finally:
        subprocess.run(["chattr", "-i", str(examples)], check=True)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"error: operation not permitted: {examples}/"), proc.stderr
    assert proc.stderr.count("\n") == 1
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in examples.iterdir()) == before
