"""The machine's failures said as such: a full disk, a read-only, immutable or busy folder,
a file missing or refused are not bugs in warbook, and not faults in the content.

An ``OSError`` that carries an error number (``errno``) comes from the operating system;
:func:`describe` turns it into one plain sentence naming the cause and the path the user
knows (a file being written into the staging folder is named as it will be in the output
folder: ``no space left on device while writing output/pdf/war-rules.pdf``), with a hint.
The build reports it as an error, exit status 1, and publishes nothing.

A write that fails for want of space carries no file name (the file was opened long
before): :func:`track_writes` installs an audit hook (:pep:`578`) that remembers the last
file this process opened for writing, which is the file being written when the disk
fills up.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

#: a sentence to add, by error number
HINTS = {
    errno.ENOSPC: "free some space on that disk (or build into another with --out) and build "
                  "again",
    errno.EDQUOT: "your disk quota is used up: free some space and build again",
    errno.EFBIG: "the file grew past the size this system allows",
    errno.EROFS: "that file system is mounted read-only: build into another folder with --out",
    errno.EACCES: "check the folder's owner and permissions, or build into another folder "
                  "with --out",
    errno.EPERM: "check the folder's owner and permissions (an immutable folder: lsattr, "
                 "chattr -i), or build into another folder with --out",
    errno.EBUSY: "the folder is in use (a mount point cannot be replaced): build into a "
                 "folder inside it, or another one, with --out",
    errno.ENOENT: "a file or folder warbook needs went missing during the build (deleted or "
                  "moved meanwhile?); build again",
    errno.EIO: "the disk reported a read or write failure",
    errno.EMFILE: "too many files open at once (ulimit -n)",
    errno.ENFILE: "too many files open on this system",
    errno.ENAMETOOLONG: "the path is too long for this file system",
}

#: errors that happen while writing and name no file: the last file opened for writing
WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}

_names: list[tuple[Path, Path]] = []   # (staging folder, the output folder as the user named it)
_last_written: list[str] = []
_hooked = False


def is_machine(e: BaseException) -> bool:
    """Whether ``e`` is a failure of the machine: an OSError with an error number (Pillow
    and others raise OSError without one for a file they cannot read: not ours to name)."""
    return isinstance(e, OSError) and isinstance(e.errno, int) and e.errno > 0


def naming(staging: Path, out: Path) -> None:
    """Name files under ``staging`` as under ``out`` (the output folder as given) from now
    on in this process and in the children it forks."""
    _names.clear()
    _names.append((Path(os.path.abspath(staging)), Path(out)))


def shown(path: object) -> str:
    """A path as the user knows it: one inside the staging folder as inside the output."""
    if not isinstance(path, (str, bytes, os.PathLike)):  # a file object (Python's close)
        path = getattr(path, "name", path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    text = str(path)
    try:
        p = Path(os.path.abspath(text))
    except (ValueError, OSError):
        return text
    for staging, out in _names:
        if p == staging:
            return str(out)
        if staging in p.parents:
            return str(out / p.relative_to(staging))
    return text


def track_writes() -> None:
    """Remember the last file this process (and its forked children) opened for writing."""
    global _hooked
    if _hooked:
        return
    _hooked = True
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND

    def hook(event: str, args: tuple) -> None:
        if event != "open":
            return
        try:
            path, mode, flags = args
            if isinstance(path, int):
                return
            if isinstance(mode, str) and any(c in mode for c in "wax+") or \
                    mode is None and isinstance(flags, int) and flags & writing:
                _last_written[:] = [os.fsdecode(path)]
        except Exception:  # noqa: BLE001 - an audit hook must never raise
            pass

    sys.addaudithook(hook)


def last_written() -> str | None:
    return _last_written[0] if _last_written else None


def describe(e: OSError, hint: bool = True) -> str:
    """The failure as one sentence, the cause and the path as the user knows it, and (with
    ``hint``, for a build: the hints speak of the output folder) what to do."""
    cause = (e.strerror or os.strerror(e.errno)).lower()
    if e.filename is not None and e.filename2 is not None:
        where = f"{cause}: {shown(e.filename)} -> {shown(e.filename2)}"
    elif e.filename is not None:
        where = f"{cause}: {shown(e.filename)}"
    elif e.errno in WRITE_ERRORS and last_written() is not None:
        where = f"{cause} while writing {shown(last_written())}"
    else:
        where = cause
    said = HINTS.get(e.errno) if hint else None
    return f"{where}; {said}" if said else where
