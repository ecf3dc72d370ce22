"""Forked children that end with the process that forked them.

A child forked by the build (the second rulebook process, the component sheets) or by
``warbook serve`` (its server) must not outlive its parent: killed with SIGKILL, the parent
can clean nothing up, and an orphan would go on holding the port, the output lock or the
machine's cores. :func:`die_with_parent` asks Linux to kill the calling child when its
parent ends (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), and ends it at once if the parent is
already gone.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> bool:
    """In a forked child of ``parent``: be killed when the parent ends. Returns False where
    the system has no parent-death signal (then the caller watches a pipe instead)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(1)
    return done
