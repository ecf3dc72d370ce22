"""Where warbook keeps what it can work out again: the lab's figures and the conformance
kit's verdicts, each in a file named by a hash of everything it depends on (so a stale
file is never read, only left behind). ``$WARBOOK_CACHE`` names the folder; by default
``$XDG_CACHE_HOME/warbook/figures`` (``~/.cache/warbook/figures``)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    env = os.environ.get("WARBOOK_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warbook" / "figures"
