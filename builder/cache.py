"""Where warbook keeps what it can work out again.

``$WARBOOK_CACHE`` names a folder (the tests and CI set it): the lab's figures are written
there instead of beside each game's content (:mod:`builder.lab.figures`), and the
conformance kit's verdicts (:mod:`builder.check`) are kept there, each in a file named by a
hash of everything it depends on (so a stale file is never read, only left behind).

Without it nothing is written outside the content and output folders: the figures go
beside each game's content, and the kit's verdicts into the output folder's
``.cache/kit/`` (:func:`keep_in`, which the command line calls with ``--out``), and only
when that folder already exists (a check never makes an output folder); with no output
folder the kit simply runs again next time.

Other stages keep what they can work out again in a folder of their own beside those
(:func:`folder`): the website's subset fonts, for one (:mod:`builder.render.site.webfonts`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

#: a hidden part-written file older than this (seconds) was left by a stopped run
STALE_TMP_S = 600


def env_cache() -> Path | None:
    """The folder ``$WARBOOK_CACHE`` names, or None when it is unset or empty."""
    env = os.environ.get("WARBOOK_CACHE")
    return Path(env) if env else None


_kept_in: Path | None = None


def keep_in(output: Path | str) -> None:
    """Keep the kit's verdicts in ``output/.cache/kit`` (where the output folder exists)."""
    global _kept_in
    _kept_in = Path(output) / ".cache" / "kit"


def _in_output(kind: str) -> Path | None:
    """``<output>/.cache/kind`` when :func:`keep_in` named an output folder that exists."""
    if _kept_in is not None and _kept_in.parent.parent.is_dir():
        return _kept_in.parent / kind
    return None


def cache_dir() -> Path | None:
    """The conformance kit's verdicts' folder: ``$WARBOOK_CACHE``, else the output
    folder's ``.cache/kit`` if :func:`keep_in` named an output folder that exists, else
    None (nothing kept)."""
    env = env_cache()
    return env if env is not None else _in_output("kit")


def folder(kind: str) -> Path | None:
    """Where ``kind`` (a stage's own word, such as ``"webfonts"``) keeps what it can work
    out again: ``$WARBOOK_CACHE/kind``; else ``<output>/.cache/kind`` when :func:`keep_in`
    named an output folder that exists (a build keeps the output's hidden folders); else
    None, and nothing is kept."""
    env = env_cache()
    return env / kind if env is not None else _in_output(kind)


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a hidden file beside it
    (``.tmp-<pid>-<name>``), then renamed over it in one step. An :class:`OSError` is
    raised after the hidden file is removed; :func:`prune` removes one a killed run left."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def prune(where: Path, suffix: str, keep: int) -> None:
    """Keep the ``keep`` most recently used files named ``*suffix`` in ``where`` (a reader
    touches what it uses), and remove the hidden part-written files of runs that stopped
    (older than :data:`STALE_TMP_S`). A folder that cannot be pruned is no error."""
    try:
        found = []
        for e in os.scandir(where):
            st = e.stat(follow_symlinks=False)
            if e.name.startswith(".tmp-"):
                if time.time() - st.st_mtime > STALE_TMP_S:
                    os.unlink(e.path)
            elif e.name.endswith(suffix):
                found.append((st.st_mtime_ns, e.path))
        found.sort(reverse=True)
        for _, path in found[keep:]:
            os.unlink(path)
    except OSError:
        pass
