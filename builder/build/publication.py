"""Publication: staged files become the output in one atomic step.

A build renders into a staging folder beside the output (``.<name>.staging-<pid>``,
:func:`make_staging`); :func:`publish` completes it with the previous output's other files
(hard links) and exchanges it with the output folder in one step, so at every moment, a
``kill -9`` included, the output is the whole previous one or the whole new one. The next
build removes what an interrupted one left (:func:`clean_leftovers`).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import sys
from pathlib import Path

from .. import machine


def staging_folder(out: Path) -> Path:
    """This process's staging folder for ``out``: ``.<name>.staging-<pid>`` beside it."""
    out = output_folder(out)
    return out.parent / f".{out.name}.staging-{os.getpid()}"


def make_staging(out: Path) -> Path:
    """A fresh staging folder beside ``out`` (``.<name>.staging-<pid>``), after cleaning up
    whatever an earlier, interrupted build left there."""
    machine.naming(staging_folder(out), out)  # a failure in it names the output's path
    out = output_folder(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(out)
    d = staging_folder(out)
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    return d


def output_folder(out: Path) -> Path:
    """The folder the output really is (a link to a folder is followed, so the link stays)."""
    return out.resolve() if out.is_symlink() else out


def _test_point(name: str) -> None:
    """For the interrupted-build tests only: WARBOOK_TEST_KILL_AT=<name> kills this process
    (SIGKILL, which nothing can catch) when publication reaches the point ``name``."""
    if os.environ.get("WARBOOK_TEST_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_leftovers(out: Path) -> list[Path]:
    """Remove what interrupted builds left, and put the previous output back if a build was
    stopped between moving it aside and moving the new one in (only where the exchange of
    two folders in one step is not available): ``.<name>.staging-<pid>`` and
    ``.<name>.old-<pid>`` beside ``out`` and ``.<dir>.old-<pid>`` inside it (left by
    earlier versions), of processes that have ended. Returns what was removed."""
    removed: list[Path] = []
    pattern = re.compile(rf"^\.{re.escape(out.name)}\.(staging|old)-(\d+)$")
    if out.parent.is_dir():
        for d in sorted(out.parent.iterdir()):
            m = pattern.match(d.name)
            if not m or _alive(int(m.group(2))) and int(m.group(2)) != os.getpid():
                continue
            if m.group(1) == "old" and not out.exists():
                os.rename(d, out)  # the previous output, moved aside by a stopped build
                continue
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    if out.is_dir():
        for d in out.iterdir():
            m = re.match(r"^\..+\.old-(\d+)$", d.name)
            if m and d.is_dir() and not _alive(int(m.group(1))):
                shutil.rmtree(d, ignore_errors=True)
                removed.append(d)
    return removed


def publish(staging: Path, out: Path) -> list[Path]:
    """Make the staged files the output, all at once. The staging folder is first completed
    into a whole output: every file of the previous output the build did not write is
    linked into it (hard links: no copy, and the old files are never written to), except
    inside the folders named in a ``.replace-dirs`` list, which the new build replaces
    whole. Then the staging folder and ``out`` exchange places in one atomic step, so that
    at every moment, a kill included, ``out`` is the whole previous output or the whole
    new one; the previous output is removed last. Returns the paths of the files the build
    wrote, as they are named in ``out``."""
    out = output_folder(out)
    whole = set()
    marker = staging / ".replace-dirs"
    if marker.exists():
        whole = {line.strip() for line in marker.read_text().splitlines() if line.strip()}
        marker.unlink()
    written = sorted(out / p.relative_to(staging) for p in staging.rglob("*") if not p.is_dir())
    _test_point("staged")
    if out.is_dir():
        complete_from(out, staging, whole)
    _test_point("completed")
    swap_in(staging, out)
    return written


def complete_from(previous: Path, staging: Path, whole: set[str]) -> None:
    """Link into ``staging`` every file of ``previous`` it lacks (not the folders in
    ``whole``, and not leftovers of interrupted builds)."""
    count = 0
    for folder, dirs, files in os.walk(previous):
        rel = Path(folder).relative_to(previous)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d not in whole and not re.match(r"^\..+\.old-\d+$", d)]
        for name in files:
            src, dst = Path(folder) / name, staging / rel / name
            if rel == Path(".") and name in whole or dst.exists() or dst.is_symlink():
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, dst, follow_symlinks=False)
            except OSError:  # another file system, or no hard links: copy
                shutil.copy2(src, dst, follow_symlinks=False)
            count += 1
            if count == 10:
                _test_point("completing")


def swap_in(staging: Path, out: Path) -> None:
    """Put the complete ``staging`` folder in the place of ``out`` and remove the previous
    output: one atomic exchange where the system has it (Linux renameat2), else two
    renames, with the previous output put back by the next build if one is stopped in
    between (see :func:`clean_leftovers`)."""
    if not out.exists():
        os.rename(staging, out)
        _test_point("swapped")
        return
    if _exchange(staging, out):
        _test_point("swapped")
        shutil.rmtree(staging, ignore_errors=True)  # now the previous output
        return
    aside = out.parent / f".{out.name}.old-{os.getpid()}"
    os.rename(out, aside)
    _test_point("moved-aside")
    os.rename(staging, out)
    _test_point("swapped")
    shutil.rmtree(aside, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Exchange two folders in one atomic step (Linux renameat2 RENAME_EXCHANGE); False
    where the system or the file system cannot (then nothing was changed)."""
    if os.environ.get("WARBOOK_TEST_NO_EXCHANGE") or not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    done = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    if done == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # not on this file system
        return False
    # the output cannot be replaced (busy, immutable, read-only): the two renames could not
    # either; say why, naming the output
    raise OSError(err, os.strerror(err), str(b))
