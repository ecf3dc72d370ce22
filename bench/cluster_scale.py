"""Benchmark: games per second of ``warbook simulate`` on the local pool and on a local Dask
cluster of 1, 2 and 4 workers (issue 28, item 5, "scale on paper").

    python3 bench/cluster_scale.py [--workloads random,issue,search] [--sizes 1,2,4] [--json]

Three fixed workloads of Ultimate, seed 1, each run as a designer runs it (``warbook
simulate ... --json`` in a process of its own, from this checkout):

* ``random``: ``--bots random --games 200000``: one line-up, 1,000 chunks of 200 games,
  each a few milliseconds (the fast path): what a cluster's cost per chunk weighs most on.
* ``issue``: ``--games 20000`` with the default bots (random and heuristic): three line-ups
  (each bot's seats and heuristic against random), 60,000 games in 300 chunks; the command
  issue 28 checks for the same bytes.
* ``search``: ``--bots search --games 120``: one line-up of the search bot, 24 chunks of 5
  games, each chunk about a second: the heavy end.

Each workload is played on the local pool with ``--workers 1`` (in the command's own
process) and ``--workers 2`` (forked workers), then with ``--cluster`` on a Dask cluster
started here on 127.0.0.1 for each size: ``dask scheduler`` and ``dask worker ADDRESS
--nworkers N --nthreads 1`` (with its nannies), each in a session of its own, stopped in a
``finally`` (only the processes started here); then on the local pool of 2 once more, as
the load of a shared machine drifts. The cluster's start-up (scheduler up, all N workers
registered) is timed and reported apart; it is in no run's time.

Reported per run: the wall time of the whole command (interpreter start, content loading,
connecting, shipping the game folder, the games, the JSON; nothing subtracted), games per
second from it, the seconds the cluster itself says it spent playing (its last progress
line), and processor seconds: of the command and its waited-for children (on the local
pool all the work; on a cluster the client's share), of the cluster's worker processes and
of its scheduler (read from them through a client of the benchmark's own). A one-chunk run
(``--bots random --games 200``) per executor gives each executor's fixed cost, shown apart;
from it, the processor time a chunk costs on the cluster beyond the local pool. The JSON of
every run of a workload must be the same bytes; the benchmark says so, or fails.

Everything runs this checkout's code (``PYTHONPATH``, checked on the workers): to measure a
commit while others edit the working tree, run the file from an export of it (``git archive
HEAD | tar -x -C /tmp/snap``). The machine may be shared: the load average is printed before
every run. On a two-core machine 4 workers are twice as many processes as cores, and a local
cluster's client and scheduler are two more: read those rows as oversubscribed.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = "ultimate"
SEED = 1

#: name: (the simulate flags, games played, chunks)
WORKLOADS = {
    "random": (["--bots", "random", "--games", "200000"], 200_000, 1000),
    "issue": (["--games", "20000"], 60_000, 300),
    "search": (["--bots", "search", "--games", "120"], 120, 24),
}
#: the fixed cost of a command on an executor: one chunk of random games
ONE_CHUNK = (["--bots", "random", "--games", "200"], 200, 1)
#: the cluster's closing progress line: "... 60,000 games played on 2 workers in 12.3 s"
PLAYED = re.compile(r"([\d,]+) games played on (\d+) workers in ([\d.]+) s")


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def warbook(flags: list[str], where: list[str]) -> dict:
    """``warbook simulate ultimate FLAGS --seed 1 --json WHERE`` (the progress kept, for the
    cluster's own timing): its wall and processor time, its JSON's digest."""
    cmd = [sys.executable, "-m", "builder", "simulate", GAME, *flags, "--seed", str(SEED),
           "--json", "--content", str(ROOT / "content"), *where]
    cpu, t = children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    wall, cpu = time.perf_counter() - t, children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n"
                         f"{proc.stderr.decode(errors='replace')}")
    m = None
    for m in PLAYED.finditer(proc.stderr.decode(errors="replace")):
        pass
    return {"wall": wall, "cpu": cpu, "sha": hashlib.sha256(proc.stdout).hexdigest(),
            "out": proc.stdout,
            "bytes": len(proc.stdout), "played_s": float(m.group(3)) if m else None,
            "seen_workers": int(m.group(2)) if m else None}


class LocalCluster:
    """A Dask scheduler and ``n`` worker processes of one thread on 127.0.0.1, each command
    in a session of its own, in a scratch folder of its own."""

    def __init__(self, n: int):
        self.n = n
        self.folder = Path(tempfile.mkdtemp(prefix=f"warbook-bench-dask{n}-"))
        self.procs: list[subprocess.Popen] = []
        self.address = ""
        self.client = None   # the benchmark's own, to read the processes' processor time

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        dask = Path(sys.executable).with_name("dask")
        with open(self.folder / f"{name}.log", "w") as log:
            proc = subprocess.Popen([str(dask), *args], cwd=self.folder, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    env=dict(os.environ, PYTHONPATH=str(ROOT),
                                             DASK_TEMPORARY_DIRECTORY=str(self.folder)))
        self.procs.append(proc)
        return proc

    def start(self, within: float = 90) -> float:
        """Start it; the seconds until every worker has registered with the scheduler."""
        from distributed import Client

        def warbook_root() -> str:  # on a worker (local: sent by value, not by name)
            import builder

            return str(Path(builder.__file__).resolve().parent.parent)

        t = time.perf_counter()
        file = self.folder / "scheduler.json"
        sched = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                          "--no-dashboard", "--scheduler-file", str(file)])
        end = time.monotonic() + within
        while not (file.exists() and file.stat().st_size > 0):
            if sched.poll() is not None or time.monotonic() > end:
                raise SystemExit(f"the scheduler did not start:\n{self.log('scheduler')}")
            time.sleep(0.05)
        time.sleep(0.1)  # written whole
        self.address = json.loads(file.read_text())["address"]
        self._start("workers", ["worker", self.address, "--nworkers", str(self.n),
                                "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                                "--local-directory", str(self.folder / "workers")])
        self.client = Client(self.address, timeout=within)
        self.client.wait_for_workers(self.n, timeout=within)
        took = time.perf_counter() - t
        where = set(self.client.run(warbook_root).values())
        if where != {str(ROOT)}:  # the workers must play this checkout's code
            raise SystemExit(f"the workers import warbook from {where}, not {ROOT}")
        return took

    def cpu(self) -> tuple[float, float]:
        """Processor seconds so far of the worker processes (together; not their nannies,
        which only watch them) and of the scheduler."""

        def used() -> float:  # run there (local: sent by value, not by name)
            import resource

            r = resource.getrusage(resource.RUSAGE_SELF)
            return r.ru_utime + r.ru_stime

        return sum(self.client.run(used).values()), self.client.run_on_scheduler(used)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """TERM each session started here (workers first), then KILL what is left."""
        if self.client is not None:
            self.client.close()
            self.client = None
        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
            try:  # the session: the nannies' workers too
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if proc.poll() is None:
                proc.wait(timeout=10)
        self.procs.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workloads", default="random,issue,search",
                    help=f"which of {', '.join(WORKLOADS)} (comma-separated)")
    ap.add_argument("--sizes", default="1,2,4", help="the local cluster's worker counts")
    ap.add_argument("--json", action="store_true", help="also print every run as JSON")
    args = ap.parse_args()
    names = [w for w in args.workloads.split(",") if w]
    for w in names:
        if w not in WORKLOADS:
            raise SystemExit(f"unknown workload {w} (known: {', '.join(WORKLOADS)})")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    try:
        import distributed
    except ImportError:
        raise SystemExit("Dask is not installed: pip install 'warbook[cluster]'") from None

    print(f"{os.cpu_count()} cores; Dask distributed {distributed.__version__}; Python "
          f"{sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f} at the start")
    for w in names:
        flags, games, chunks = WORKLOADS[w]
        print(f"  {w}: warbook simulate {GAME} {' '.join(flags)} --seed {SEED} --json  "
              f"({games:,} games, {chunks:,} chunks)")
    runs: list[dict] = []

    def run(executor: str, where: list[str], cluster: LocalCluster | None = None) -> None:
        for w, (flags, games, chunks) in [("one chunk", ONE_CHUNK),
                                          *((w, WORKLOADS[w]) for w in names)]:
            load = os.getloadavg()[0]
            before = cluster.cpu() if cluster else (0.0, 0.0)
            r = warbook(flags, where)
            after = cluster.cpu() if cluster else (0.0, 0.0)
            r.update(executor=executor, workload=w, games=games, chunks=chunks, load=load,
                     workers_cpu=after[0] - before[0], scheduler_cpu=after[1] - before[1])
            r["total_cpu"] = r["cpu"] + r["workers_cpu"] + r["scheduler_cpu"]
            runs.append(r)
            print(f"  {executor}: {w} {r['wall']:.1f} s ({games / r['wall']:,.0f} games/s; "
                  f"load {load:.1f} before)", flush=True)

    print("\nrunning")
    for n in (1, 2):
        run(f"local pool, {n} worker{'s' if n > 1 else ''}", ["--workers", str(n)])
    startups: dict[int, float] = {}
    for n in sizes:
        cluster = LocalCluster(n)
        try:
            startups[n] = cluster.start()
            print(f"  Dask cluster of {n}: started in {startups[n]:.1f} s", flush=True)
            run(f"Dask, {n} worker{'s' if n > 1 else ''}", ["--cluster", cluster.address],
                cluster)
        finally:
            cluster.stop()
    # the local pool once more: the load of a shared machine drifts during a run
    run("local pool, 2 (again)", ["--workers", "2"])
    load_end = os.getloadavg()[0]

    executors = list(dict.fromkeys(r["executor"] for r in runs))
    print("\nwall: the whole command (nothing subtracted); games/s from it; x1: the local pool"
          "\nof 1 worker's wall over this one's; played: the seconds the cluster says it"
          "\nspent on the games; processor seconds of the command (its forked workers too),"
          "\nof the cluster's workers and of its scheduler, and all three; load: the load"
          "\naverage before the run\n")
    print(f"{'executor':<22}{'workload':<10}{'games':>8}{'chunks':>7}{'wall s':>7}"
          f"{'games/s':>8}{'x1':>6}{'played':>7}{'cmd':>6}{'wkrs':>6}{'sched':>6}"
          f"{'cpu s':>6}{'load':>5}")
    base = {r["workload"]: r["wall"] for r in runs if r["executor"] == executors[0]}
    for w in ["one chunk", *names]:
        for r in (r for r in runs if r["workload"] == w):
            played = f"{r['played_s']:.1f}" if r["played_s"] is not None else "-"
            print(f"{r['executor']:<22}{w:<10}{r['games']:>8,}{r['chunks']:>7,}"
                  f"{r['wall']:>7.1f}{r['games'] / r['wall']:>8,.0f}{base[w] / r['wall']:>6.2f}"
                  f"{played:>7}{r['cpu']:>6.1f}{r['workers_cpu']:>6.1f}"
                  f"{r['scheduler_cpu']:>6.1f}{r['total_cpu']:>6.1f}{r['load']:>5.1f}")
        print()

    # what a chunk costs on the cluster beyond the local pool: the processor time of the
    # workload less that of the one-chunk run on the same executor (the fixed costs cancel),
    # against the same difference on the local pool of one worker, per chunk after the first
    print("processor time a chunk costs on the cluster beyond the local pool (ms; the "
          "workload's less the\none-chunk run's on the same executor, against the same on "
          "the local pool of 1 worker):")
    cost = {(r["executor"], r["workload"]): r["total_cpu"] for r in runs}
    local = executors[0]
    for w in names:
        chunks = WORKLOADS[w][2]
        ref = cost[(local, w)] - cost[(local, "one chunk")]
        said = []
        for e in executors:
            if e.startswith("Dask"):
                extra = (cost[(e, w)] - cost[(e, "one chunk")] - ref) / (chunks - 1)
                said.append(f"{e[6:]} {extra * 1000:,.0f}")
        print(f"  {w} ({chunks:,} chunks, {ref / chunks * 1000:,.0f} ms of play each): "
              + ", ".join(said))
    print()
    print("cluster start-up (scheduler, then N workers registered; not in the times above): "
          + ", ".join(f"{n} worker{'s' if n > 1 else ''} {s:.1f} s"
                      for n, s in startups.items()))

    print("\nthe same JSON bytes on every executor:")
    same = True
    for w in ["one chunk", *names]:
        shas = {r["sha"] for r in runs if r["workload"] == w}
        ok = len(shas) == 1
        same &= ok
        print(f"  {w}: {'yes' if ok else 'NO'} ({len(executors)} runs, sha256 "
              f"{', '.join(sorted(s[:12] for s in shas))})")
        if not ok:  # where they part, against the first executor's
            first = next(r for r in runs if r["workload"] == w)
            for r in runs:
                if r["workload"] == w and r["sha"] != first["sha"]:
                    diff = difflib.unified_diff(first["out"].decode().splitlines(),
                                                r["out"].decode().splitlines(),
                                                first["executor"], r["executor"], lineterm="")
                    print("\n".join(f"    {line}" for line in list(diff)[:12]))
    print(f"\nload average {load_end:.2f} at the end (the machine is shared: compare figures "
          f"measured together)")
    if args.json:
        for r in runs:
            del r["out"]
        print(json.dumps({"runs": runs, "startup": startups, "same_json": same,
                          "load_end": load_end}, indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
