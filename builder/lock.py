"""One build at a time per output folder.

``warbook build`` and ``warbook serve`` hold a lock on the output folder while they build
into it (``serve``: for its whole life, since it rebuilds on every save): the file
``.<name>.lock`` beside the output folder (where the staging folder is made), locked with
``flock`` and holding the holder's process id and command. The system releases an
``flock`` when its process ends, however it ends (``kill -9`` included), so the lock of a
dead process is free: its file, if left behind, is simply taken over. A second build or
serve into a locked output does not wait: it stops at once with :class:`Busy`, naming the
process that holds the lock.

The lock is held per process: the build inside ``serve`` (or inside ``warbook build``,
which takes the lock before its check) finds it already held by its own process and goes
on. Forked children close their copy of the lock's file (:func:`close_inherited`), so that
only the process that took the lock holds it.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import WarbookError

log = logging.getLogger("warbook.lock")

#: lock file path -> (file descriptor, the process that holds it)
_held: dict[str, tuple[int, int]] = {}


class CannotLock(WarbookError):
    """The lock file cannot be made or opened (a read-only or immutable folder): ``error``
    is the system's error (see :func:`builder.machine.describe`)."""

    def __init__(self, out: Path, error: OSError):
        from .machine import describe

        super().__init__(f"cannot lock the output {out}: {describe(error)}")
        self.out, self.error = out, error


class Busy(WarbookError):
    """Another live process holds the output's lock; the message names it."""

    def __init__(self, out: Path, pid: int | None, command: str):
        self.out, self.pid, self.command = out, pid, command
        name = str(out).rstrip("/") + "/"
        who = f"process {pid} ({command})" if pid else "another process"
        if command == "warbook serve":
            what = (f"{name} is being served by {who}, which rebuilds it on every save; "
                    f"stop it (Ctrl-C) or use another folder with --out")
        else:
            what = f"{name} is being built by {who}; wait for it or stop it"
        super().__init__(what)


def lock_path(out: Path) -> Path:
    """The lock file of the output folder ``out`` (beside it; a link to a folder is
    followed, so two names of one folder share one lock)."""
    real = Path(out).resolve()
    return real.parent / f".{real.name}.lock"


@contextmanager
def hold(out: Path, command: str) -> Iterator[None]:
    """Hold the lock of ``out`` for the ``with`` block, as ``command`` (such as "warbook
    build"); raises :class:`Busy` at once if another process holds it, and
    :class:`CannotLock` if the lock file cannot be made (a read-only folder, say)."""
    path = lock_path(out)
    key = str(path)
    mine = _held.get(key)
    if mine is not None and mine[1] == os.getpid():
        yield  # this process holds it already (the build inside serve)
        return
    try:
        fd = _acquire(path, Path(out), command)
    except OSError as e:
        raise CannotLock(Path(out), e) from None
    _held[key] = (fd, os.getpid())
    log.debug(f"locked {out} ({path}) for {command}")
    try:
        yield
    finally:
        _held.pop(key, None)
        _release(path, fd)


def _acquire(path: Path, out: Path, command: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid, holder = _holder(fd)
            os.close(fd)
            raise Busy(out, pid, holder) from None
        # The previous holder removes the file as it lets go: if that happened between our
        # open and our lock, we locked a file no one else will ever open; open it again.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n{command}\n".encode())
    return fd


def _holder(fd: int) -> tuple[int | None, str]:
    """The holder's process id and command, as it wrote them (it writes them right after
    taking the lock: wait a moment for them)."""
    for _ in range(20):
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", errors="replace").split("\n")
        if len(text) >= 2 and text[0].isdigit():
            return int(text[0]), text[1].strip() or "warbook"
        time.sleep(0.025)
    return None, "warbook"


def _release(path: Path, fd: int) -> None:
    try:
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            os.unlink(path)  # still locked: whoever opened it meanwhile will open it again
    except OSError:
        pass
    os.close(fd)


def close_inherited() -> None:
    """In a forked child: close the lock files inherited from the parent (the lock stays
    the parent's, and ends with it)."""
    for key, (fd, pid) in list(_held.items()):
        if pid != os.getpid():
            try:
                os.close(fd)
            except OSError:
                pass
            del _held[key]
