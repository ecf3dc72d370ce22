"""Where a file the build reads from the content folder really is: the one resolver.

Content is untrusted, so every file a build reads from the content folder (YAML and
Markdown, template overrides, stylesheets and site assets, fonts, logos) is found through
:func:`resolve`: the content root and a path inside it become the real path of a regular
file inside the root, or a located :class:`Diagnostic`. A link whose target stays inside
the folder is followed; a link (or a linked folder on the way) that leads outside it, a
link loop, a folder, a FIFO or a device is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .diagnostics import Diagnostic


class Refused(Diagnostic):
    """A file the build may not read; ``reason`` says why: ``missing``, ``outside``,
    ``loop``, ``special`` (a folder, FIFO or device) or ``error`` (the system's own)."""

    def __init__(self, shown: str, message: str, reason: str):
        super().__init__(shown, 1, 1, message)
        self.reason = reason


def resolve(root: str | Path, path: str | Path, shown: str, what: str = "",
            kind: str = "plain text files") -> Path:
    """The real path of ``path`` (a path such as ``root / "logo.svg"``) if it is a regular file
    inside ``root`` once every link is followed; else a :class:`Refused` (a located
    :class:`Diagnostic`) at ``shown``, line 1, column 1. ``what`` starts the message
    ("book.logo: "); ``kind`` names what content files must be."""
    lead = f"{what}: " if what else ""
    try:
        top = Path(root).resolve(strict=True)
    except (OSError, RuntimeError) as e:
        raise Refused(shown, f"{lead}cannot read the content folder: "
                      f"{getattr(e, 'strerror', None) or e}", "error") from None
    candidate = Path(path)
    try:
        real = candidate.resolve(strict=True)
    except RuntimeError:  # Python's own loop detection
        raise Refused(shown, f"{lead}cannot read: a link that leads back to itself "
                      f"(a symlink loop)", "loop") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise Refused(shown, f"{lead}cannot read: a link that leads back to itself "
                          f"(a symlink loop)", "loop") from None
        missing = e.errno in (errno.ENOENT, errno.ENOTDIR)
        raise Refused(shown, f"{lead}cannot read: {e.strerror or e}",
                      "missing" if missing else "error") from None
    if not real.is_relative_to(top):
        raise Refused(shown, f"{lead}this is a link to a file outside the content folder; "
                      f"put the file itself inside the folder", "outside")
    try:
        mode = os.stat(real).st_mode
    except OSError as e:
        raise Refused(shown, f"{lead}cannot read: {e.strerror or e}", "error") from None
    if not stat.S_ISREG(mode):
        raise Refused(shown, f"{lead}not a regular file (a folder, FIFO or device); "
                      f"content files must be {kind}", "special")
    return real


def inside(root: str | Path, path: str | Path) -> bool:
    """Whether ``path`` leads (links followed) to somewhere inside ``root``; a path that
    does not exist counts as inside when its nearest existing parent is."""
    try:
        top = Path(root).resolve(strict=True)
        return Path(path).resolve().is_relative_to(top)
    except (OSError, RuntimeError):
        return False


def rel(path: Path, root: Path) -> str:
    """A path as shown in messages: relative to the working folder when possible."""
    try:  # the path as written (a link is shown as the link, not where it leads)
        return str(Path(os.path.abspath(path)).relative_to(os.path.abspath(Path.cwd())))
    except ValueError:
        pass
    try:
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a link loop
        return str(path)
