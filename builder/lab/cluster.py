"""The lab's games on a Dask distributed cluster (``--cluster ADDRESS``).

The same chunks as the local pool (:func:`.run.tasks_of`), each game seeded by its index
alone, the records put back in task order: a seed gives the same figures, byte for byte,
on a cluster of any size as on this machine.

**The game goes with the work.** A worker has warbook installed (as it has Dask), never
the game: the game's content folder (``game.yaml``, its cards and, above all, a
designer's own ``engine.py``) is packed here into one deterministic tar (at most
:data:`MAX_FOLDER` bytes), scattered once to every worker, and each task names it by its
SHA-256. A worker unpacks it once per process into its scratch folder, loads the game the
way ``check`` and ``build`` do (:class:`builder.content.game.GameReader`: the folder's
``engine.py`` first, else an installed engine by name), and plays the chunk with the
local pool's code (:func:`.run.play_chunk`), its bots made there.

**Faults** of the game's own code come back as the local pool's do, a
:class:`builder.faults.Carried`, its file mapped from the worker's copy back to the
designer's folder here: ``content/my-game/engine.py:42: error: KeyError ...``.

**Lost workers**: the scheduler gives a lost worker's chunks to the others (a chunk's
games are the same wherever they are played); only a chunk that kills
``distributed.scheduler.allowed-failures`` workers in turn ends the run. **Ctrl-C** cancels
the run's tasks on the cluster. Progress (games played, games a second) goes to standard
error, every few seconds, unless ``--quiet``.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import os
import socket
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .. import __version__, faults
from ..errors import InternalError
from .bots import LabError
from .executor import Executor
from .run import Job, Lineup, Record, Task, play_chunk

log = logging.getLogger("warbook.lab.cluster")

#: seconds to wait for the scheduler to answer, and for a first worker
CONNECT_TIMEOUT = 5.0
#: the largest game folder shipped to the workers (its files, unpacked)
MAX_FOLDER = 32 * 2 ** 20
#: seconds between progress lines
PROGRESS_EVERY = 3.0
#: what a game folder holds that is never shipped (Python's caches, the editor's litter)
SKIPPED = ("__pycache__", ".git", ".DS_Store")

HINT = ("start one with `dask scheduler` and give it workers with `dask worker ADDRESS` "
        "(docs/balance.md, \"On a cluster\")")


# --------------------------------------------------------------------------- the client
def _scheduler_identity(address: str, timeout: float) -> dict:
    """Ask the process at ``address`` who it is, within ``timeout`` seconds: a Dask
    scheduler says ``{"type": "Scheduler", ...}``. (Asked before a Client is made: a
    Client that never connected takes seconds more to let go, and says so at exit.)"""
    from distributed.comm import connect

    async def ask() -> dict:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    _check_address(address, timeout)

    def whole() -> dict:  # the whole exchange in time (what is no scheduler may never answer)
        return asyncio.run(asyncio.wait_for(ask(), timeout))

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return whole()
    # called where an event loop runs (a notebook): asked from a thread of its own
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as asking:
        return asking.submit(whole).result()


def _check_address(address: str, timeout: float) -> None:
    """That the address is one Dask knows and, where it is a TCP one, that something
    listens there: a port nothing listens on is said at once (Dask's own connect tries
    again until its time is up)."""
    from distributed.comm import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, where = parse_address(address)
        get_backend(scheme)
        host, port = parse_host_port(where) if scheme in ("tcp", "tls") else (None, None)
    except ValueError as e:  # no port, an unknown scheme ...
        raise LabError(f"--cluster {address}: not a Dask scheduler's address ({e}); give "
                       f"one such as tcp://10.0.0.5:8786") from None
    if host is None:
        return
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except ConnectionRefusedError:
        raise LabError(f"--cluster {address}: nothing listens there (the connection was "
                       f"refused); {HINT}") from None
    except socket.gaierror as e:
        raise LabError(f"--cluster {address}: no such host ({e.strerror})") from None
    except OSError as e:  # timed out, no route ...
        raise LabError(f"--cluster {address}: cannot be reached within {timeout:g} s ("
                       f"{e.strerror or type(e).__name__}); {HINT}") from None


class DaskCluster(Executor):
    """A Dask distributed scheduler's workers, through one client for the command."""

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT):
        try:
            from distributed import Client
        except ImportError:
            raise LabError("--cluster needs Dask distributed, which is not installed here: "
                           "pip install 'warbook[cluster]'") from None
        self.address = address
        self.name = f"the cluster at {address}"
        self.client = None
        self._shipped: dict[str, Any] = {}    # the scattered folders, by their SHA-256
        self._played = 0                      # games played, and the seconds it took
        self._seconds = 0.0
        if not logging.getLogger("warbook").isEnabledFor(logging.DEBUG):
            # Dask's own notes only with --verbose: "Couldn't gather 1 keys, rescheduling"
            # when a worker is lost (nothing changes: the chunk is played again), a client's
            # traceback when the scheduler goes away (said here in a line, exit 1)
            for name in ["distributed", *logging.root.manager.loggerDict]:
                if name.split(".")[0] == "distributed":  # each sets its own level
                    logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            who = _scheduler_identity(address, timeout)
        except LabError:
            raise
        except (OSError, asyncio.TimeoutError) as e:
            raise LabError(f"--cluster {address}: no Dask scheduler answered within "
                           f"{timeout:g} s" + (f" ({_first_line(e)})" if _first_line(e) else "")
                           + f"; {HINT}") from None
        except Exception as e:  # noqa: BLE001 - what answered does not speak Dask's protocol
            raise LabError(f"--cluster {address}: what answers there is not a Dask scheduler "
                           f"(its answer made no sense to Dask: {type(e).__name__}); "
                           f"{HINT}") from None
        if not isinstance(who, dict) or who.get("type") != "Scheduler":
            what = who.get("type") if isinstance(who, dict) else None
            raise LabError(f"--cluster {address}: what answers there is not a Dask scheduler"
                           + (f" but a {what}" if what else "") + f"; {HINT}")
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, asyncio.TimeoutError) as e:
            raise LabError(f"--cluster {address}: the scheduler answered, then could not be "
                           f"connected to ({_first_line(e)})") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, asyncio.TimeoutError):
            self.close()
            raise LabError(f"--cluster {address}: the scheduler has no workers (none came "
                           f"within {timeout:g} s); start some with `dask worker {address} "
                           f"--nthreads 1`") from None
        log.debug(f"connected to {address}: "
                  f"{len(self.client.scheduler_info()['workers'])} workers")

    def for_game(self, game) -> Executor:
        return _GameOnCluster(self, game)

    def play(self, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]:
        raise InternalError("the cluster plays a game's jobs only once bound to its game "
                            "(Executor.for_game)")

    def ship(self, folder: Path) -> tuple[str, Any]:
        """The game's folder on every worker: its SHA-256 and the scattered bytes."""
        packed, digest = pack(folder)
        if digest not in self._shipped:
            self._shipped[digest] = self.client.scatter(packed, broadcast=True, hash=False)
        return digest, self._shipped[digest]

    def run(self, folder: Path, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]:
        """Each task's records, in task order. A chunk that fails ends the run with the
        fault of the first failing chunk in task order (the chunks before it are waited
        for, the ones after it cancelled), so the cluster names the same game as the
        local pool whichever worker failed first."""
        from distributed import as_completed
        from distributed.utils import CancelledError

        digest, packed = self.ship(folder)
        args = [(jobs[j][1], jobs[j][2], jobs[j][3], start, stop) for j, start, stop in tasks]
        futures = self.client.map(play_shipped, args, packed=packed, digest=digest,
                                  slug=folder.name, version=__version__, pure=False)
        where = {f.key: i for i, f in enumerate(futures)}
        out: list[list[Record] | None] = [None] * len(tasks)
        total = sum(stop - start for _, start, stop in tasks)
        done, started, shown = 0, time.monotonic(), time.monotonic()
        first: int | None = None        # the first failing chunk in task order, so far
        fault: BaseException | None = None
        finished = False
        try:
            for future in as_completed(futures, loop=self.client.loop):
                i = where[future.key]
                if first is not None and i > first:
                    continue  # after the fault: cancelled, or played for nothing
                try:
                    out[i] = future.result()
                except (CancelledError, OSError) as e:
                    why = getattr(e, "reason", None) or _first_line(e) or type(e).__name__
                    raise LabError(f"{self.name}: the scheduler went away mid-run ({why}); "
                                   f"nothing was measured") from None
                except Exception as e:  # noqa: BLE001 - a chunk's fault, said once ordered
                    first, fault = i, e
                    self.client.cancel(futures[i + 1:], force=True)
                if first is not None:
                    if all(out[k] is not None for k in range(first)):
                        break
                    continue
                done += tasks[i][2] - tasks[i][1]
                now = time.monotonic()
                if now - shown >= PROGRESS_EVERY and done < total:
                    shown = now
                    self._progress(f"{self._played + done:,} games played, {total - done:,} "
                                   f"to go in this round", self._played + done,
                                   self._seconds + now - started)
            finished = first is None
        finally:
            if not finished:  # a fault, Ctrl-C, the scheduler gone: nothing more is played
                try:
                    self.client.cancel(futures, force=True)
                except Exception:  # noqa: BLE001 - already going away; the error says why
                    pass
        if fault is not None:
            raise self._said(fault, folder, tasks[first]) from None
        self._played += total
        self._seconds += time.monotonic() - started
        return out  # type: ignore[return-value]

    def _said(self, fault: BaseException, folder: Path, task: Task) -> BaseException:
        """A chunk's fault as the local pool raises it."""
        from distributed.scheduler import KilledWorker

        if isinstance(fault, ShippedFault):
            return fault.error(folder)
        if isinstance(fault, faults.Carried):
            return fault.error()
        if isinstance(fault, KilledWorker):
            return LabError(f"{self.name}: the workers playing games {task[1]} to "
                            f"{task[2] - 1} of a line-up died each time they played them "
                            f"(killed, or out of memory); nothing was measured")
        return fault  # warbook's own: an internal error

    def _progress(self, what: str, games: int, seconds: float) -> None:
        """A progress line on standard error (standard output may be JSON), unless the
        command is quiet."""
        if not logging.getLogger("warbook").isEnabledFor(logging.INFO):
            return
        rate = games / seconds if seconds > 0 else 0.0
        print(f"{self.address}: {what} ({rate:,.0f} games/s)", file=sys.stderr, flush=True)

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is None:
            return
        self.client = None
        if self._played:
            self._progress(f"{self._played:,} games played on "
                           f"{len(self._workers(client))} workers in {self._seconds:.1f} s",
                           self._played, self._seconds)
        try:
            client.close(timeout=CONNECT_TIMEOUT)
        except Exception:  # noqa: BLE001 - letting go of a scheduler that went away
            pass

    @staticmethod
    def _workers(client) -> dict:
        try:
            return client.scheduler_info()["workers"]
        except Exception:  # noqa: BLE001 - only for the last progress line
            return {}


class _GameOnCluster(Executor):
    """The cluster, bound to one game: its jobs are that game's, its folder shipped."""

    def __init__(self, cluster: DaskCluster, game):
        self.cluster, self.game = cluster, game
        self.name = cluster.name

    def play(self, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]:
        if any(job[0] is not self.game.gamedef for job in jobs):
            raise InternalError(f"the cluster was given jobs of another game than "
                                f"{self.game.slug}")
        if not tasks:
            return []
        return self.cluster.run(Path(self.game.dir), jobs, tasks)

    def close(self) -> None:
        pass  # the cluster's client is the command's, closed by it


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else ""


# --------------------------------------------------------------------------- the folder
def pack(folder: Path) -> tuple[bytes, str]:
    """The game's folder as one tar (the same bytes for the same files: sorted, no owners,
    no times) and its SHA-256; :class:`LabError` past :data:`MAX_FOLDER`."""
    folder = Path(folder)
    files: list[Path] = []
    size = 0
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in SKIPPED for part in rel.parts) or path.suffix == ".pyc":
            continue
        if path.is_symlink():
            raise LabError(f"{faults.shown(path)}: a link; a game folder shipped to a "
                           f"cluster holds its files themselves")
        if path.is_file():
            size += path.stat().st_size
            if size > MAX_FOLDER:
                raise LabError(f"{faults.shown(folder)}: the game's folder is over "
                               f"{MAX_FOLDER // 2 ** 20} MB, the most shipped to a cluster's "
                               f"workers with the work (what makes it so large: "
                               f"{faults.shown(path)}?)")
        files.append(path)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in files:
            info = tarfile.TarInfo(str(Path(folder.name) / path.relative_to(folder)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if path.is_dir():
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                data = path.read_bytes()
                info.size, info.mode = len(data), 0o644
                tar.addfile(info, io.BytesIO(data))
    packed = buffer.getvalue()
    return packed, hashlib.sha256(packed).hexdigest()


# --------------------------------------------------------------------------- the worker
#: on a worker: each shipped folder unpacked and its game loaded, by SHA-256
_UNPACKED: dict[str, tuple[Path, Any]] = {}
_LOCK = threading.Lock()
#: on a worker: the bots made, per thread (a bot may keep state between its calls)
_BOTS = threading.local()


def play_shipped(task: tuple[dict, int, Lineup, int, int], packed: bytes, digest: str,
                 slug: str, version: str) -> list[Record]:
    """On a worker: games ``start`` to ``stop - 1`` of a line-up of the shipped game. A
    fault is raised as a :class:`ShippedFault` (plain strings, the file relative to the
    game's folder)."""
    folder = None
    try:
        if version != __version__:
            raise LabError(f"this worker runs warbook {__version__}, the client {version}: "
                           f"install the same warbook on every worker")
        folder, gamedef = _unpacked(packed, digest, slug)
        options, seed, lineup, start, stop = task
        cache: dict[str, Callable] = getattr(_BOTS, digest[:16], None) or {}
        setattr(_BOTS, digest[:16], cache)
        return play_chunk(gamedef, options, seed, lineup, start, stop, cache)
    except Exception as e:  # noqa: BLE001 - carried to the client, which raises it
        raise ShippedFault.of(faults.Carried.of(e), folder) from None


def _unpacked(packed: bytes, digest: str, slug: str) -> tuple[Path, Any]:
    """The shipped game folder, unpacked once per worker process into the worker's scratch
    folder (Dask removes it with the worker), and its game loaded as ``check`` loads it."""
    with _LOCK:
        got = _UNPACKED.get(digest)
        if got is not None:
            return got
        if hashlib.sha256(packed).hexdigest() != digest:
            raise LabError("the game's folder arrived damaged (its SHA-256 differs)")
        root = Path(tempfile.mkdtemp(prefix=f"warbook-{digest[:12]}-", dir=_scratch()))
        with tarfile.open(fileobj=io.BytesIO(packed), mode="r") as tar:
            tar.extractall(root, filter="data")
        from ..content.game import GameReader
        from ..diagnostics import Diagnostics

        diags = Diagnostics()
        game = GameReader(root, diags).read(root / slug)
        if game is None or game.gamedef is None:
            said = "; ".join(d.format() for d in diags.errors[:3]) or "no game"
            raise LabError(f"the game {slug} could not be loaded on a worker: {said}")
        _UNPACKED[digest] = (root / slug, game.gamedef)
        return _UNPACKED[digest]


def _scratch() -> str | None:
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError):  # not on a Dask worker (a test calling it here)
        return None


class ShippedFault(faults.Carried):
    """A :class:`~builder.faults.Carried` from a worker: where it names a file of the
    shipped folder, the file is given relative to the folder (``inside``), so that the
    client says it in the designer's folder."""

    def __init__(self, path: str, line: int, message: str, notes: tuple[str, ...],
                 internal: bool, inside: bool = False, copy: str = ""):
        super().__init__(path, line, message, notes, internal)
        self.args = (path, line, message, tuple(notes), internal, inside, copy)
        self.inside, self.copy = inside, copy

    @classmethod
    def of(cls, carried: faults.Carried, folder: Path | None) -> ShippedFault:
        path, inside, copy = carried.path, False, ""
        if folder is not None:
            copy = str(folder)
            if path:
                where = Path(path) if os.path.isabs(path) else Path.cwd() / path
                try:
                    path = where.resolve().relative_to(folder.resolve()).as_posix()
                    inside = True
                except ValueError:
                    pass
        return cls(path, carried.line, carried.message, carried.notes_, carried.internal,
                   inside, copy)

    def error(self, folder: Path | None = None):  # type: ignore[override]
        """The error to raise on the client, the game's folder there being ``folder``."""
        if folder is None:
            return super().error()
        here = faults.shown(folder)
        message = self.message.replace(self.copy, here) if self.copy else self.message
        path = faults.shown(folder / self.path) if self.inside else self.path
        return faults.Carried(path, self.line, message, self.notes_, self.internal).error()
