"""The balance lab on a real Dask distributed cluster (issue 28, item 1): a scheduler and
two workers started here as separate processes on 127.0.0.1 (``--nworkers 1 --nthreads 1
--no-nanny``, free ports, their own folders outside the repository), torn down at the end.

``warbook simulate --cluster`` must print the same bytes as the local pool for the same
seed; a worker killed mid-run changes nothing; a designer's ``engine.py`` from a folder
outside the repository reaches the workers with the work (they have warbook, never the
game) and its faults come back said at its line; a scheduler that cannot be reached is a
clear error within seconds. Dask missing is a failure here, never a skip
(``scripts/setup --test`` installs the ``cluster`` extra)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import distributed  # noqa: F401 - missing Dask fails the file (it is never skipped)
import pytest

from builder import __version__, faults
from builder.content import load_content
from builder.lab import cluster as lab_cluster
from builder.lab.bots import LabError
from builder.lab.run import Lineup, play_local

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"

#: a line a worker logs once the scheduler has taken it on
REGISTERED = "Registered to:"


class Cluster:
    """A scheduler and its workers, each a process of its own (its own session, so that
    it and anything it starts can be ended together)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.procs: dict[str, subprocess.Popen] = {}
        self.address = ""

    def start(self, name: str, args: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", *args], cwd=self.folder,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                env=dict(os.environ, **(env or {}),
                                         # scratch folders here, even of a killed process
                                         DASK_TEMPORARY_DIRECTORY=str(self.folder)))
        log.close()
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def scheduler(self) -> None:
        file = self.folder / "scheduler.json"
        proc = self.start("scheduler", ["distributed.cli.dask_scheduler", "--host",
                                        "127.0.0.1", "--port", "0", "--no-dashboard",
                                        "--scheduler-file", str(file)])
        self.wait(lambda: file.exists() and file.stat().st_size > 0, proc, "scheduler")
        time.sleep(0.1)  # written whole
        self.address = json.loads(file.read_text())["address"]

    def worker(self, name: str, env: dict | None = None) -> subprocess.Popen:
        (self.folder / name).mkdir(exist_ok=True)
        proc = self.start(name, ["distributed.cli.dask_worker", self.address, "--nworkers",
                                 "1", "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                                 "--no-dashboard", "--name", name, "--local-directory",
                                 str(self.folder / name)], env)
        self.wait(lambda: REGISTERED in self.log(name), proc, name)
        return proc

    def wait(self, ready, proc: subprocess.Popen, name: str, within: float = 30) -> None:
        end = time.monotonic() + within
        while not ready():
            assert proc.poll() is None, f"{name} stopped:\n{self.log(name)}"
            assert time.monotonic() < end, f"{name} not ready in {within} s:\n{self.log(name)}"
            time.sleep(0.05)

    def stop(self, name: str) -> None:
        """End the process and everything in its session: TERM, then KILL."""
        proc = self.procs.pop(name)
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        try:  # what the process may have started (nothing, without a nanny)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop_all(self) -> None:
        for name in [n for n in self.procs if n != "scheduler"] + ["scheduler"]:
            if name in self.procs:
                self.stop(name)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        c.scheduler()
        for name in ("worker-1", "worker-2"):
            c.worker(name)
        yield c
    finally:
        procs = list(c.procs.values())
        c.stop_all()
        assert all(p.poll() is not None for p in procs), "a cluster process was left running"


def warbook(*args: str, cwd: Path, env: dict | None = None,
            timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    """``warbook ARGS`` in a process of its own (as a designer runs it), from ``cwd``."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})),
                          capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - start


def ok(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


@pytest.fixture
def my_game(tmp_path: Path) -> Path:
    """A designer's game with an engine of its own, scaffolded outside the repository
    (``warbook new game my-game --engine``): its content folder."""
    content = tmp_path / "content"
    ok(warbook("new", "game", "my-game", "--engine", "--content", str(content),
               cwd=tmp_path)[0])
    assert (content / "my-game" / "engine.py").is_file()
    return content


def edit(engine: Path, old: str, new: str) -> int:
    """Replace one line of the engine; the number of the first line of the new text."""
    text = engine.read_text()
    assert text.count(old) == 1, old
    engine.write_text(text.replace(old, new))
    return text[:text.index(old)].count("\n") + 1


def marks_where_it_plays(my_game: Path) -> None:
    """The designer's engine, edited to touch the file $PLAYED_MARK names (where a worker
    is given one) when it starts a game, and to take a few milliseconds more a game, so
    that a run is still going when a test acts on it."""
    edit(my_game / "my-game" / "engine.py",
         "def new_game(options: dict[str, Any], rng: random.Random) -> GameState:\n",
         "def new_game(options: dict[str, Any], rng: random.Random) -> GameState:\n"
         "    import os, pathlib, time\n"
         "    if os.environ.get('PLAYED_MARK'):\n"
         "        pathlib.Path(os.environ['PLAYED_MARK']).touch()\n"
         "    time.sleep(0.003)\n")


def started(args: tuple[str, ...], address: str, my_game: Path) -> subprocess.Popen:
    """``warbook ARGS --cluster ADDRESS`` started (not waited for), beside the game."""
    return subprocess.Popen([sys.executable, "-m", "builder", *args, "--cluster", address],
                            cwd=my_game.parent, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(mark: Path, run: subprocess.Popen, nothing: str) -> None:
    """Until ``mark`` exists (a worker has started playing), at most 30 s; the run must
    still be going."""
    end = time.monotonic() + 30
    while not mark.exists():
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < end, nothing
        time.sleep(0.02)


# --------------------------------------------------------------------------- the tests
@pytest.mark.slow
def test_the_same_bytes_as_the_local_pool(cluster: Cluster, tmp_path: Path):
    """A shipped game, every option value: the JSON of the
    cluster's run is the local pool's (two forked workers), byte for byte."""
    args = ("simulate", "war", "--games", "600", "--seed", "1", "--json",
            "--content", str(ROOT / "content"))
    local = ok(warbook(*args, "--workers", "2", cwd=tmp_path)[0])
    there = warbook(*args, "--cluster", cluster.address, cwd=tmp_path)[0]
    assert ok(there) == local
    report = json.loads(local)
    assert len(report["variants"]) > 1
    # the progress is on standard error, never in the JSON
    assert "games played on 2 workers" in there.stderr, there.stderr
    assert cluster.address in there.stderr


@pytest.mark.slow
def test_a_sweep_on_the_cluster_is_the_same_ranking(cluster: Cluster, tmp_path: Path):
    """``warbook sweep --cluster``: the same JSON as the local pool's, for a seed."""
    args = ("sweep", "winning-the-battle", "--vary", "stones=3,5", "--vary",
            "clean_sweep=extra,none", "--games", "200", "--seed", "3", "--json",
            "--content", str(ROOT / "content"))
    local = ok(warbook(*args, "--workers", "2", cwd=tmp_path)[0])
    assert ok(warbook(*args, "--cluster", cluster.address, cwd=tmp_path)[0]) == local
    assert len(json.loads(local)["settings"]) == 4


@pytest.mark.slow
def test_a_designers_engine_outside_the_repository_is_played_on_the_workers(
        cluster: Cluster, my_game: Path):
    """The game is in no package the workers have: its folder travels with the work (the
    workers run in a folder of their own, never the content's)."""
    args = ("simulate", "my-game", "--games", "200", "--seed", "7", "--bots",
            "random,heuristic", "--json", "--content", str(my_game))
    local = ok(warbook(*args, cwd=my_game.parent)[0])
    there = ok(warbook(*args, "--cluster", cluster.address, cwd=my_game.parent)[0])
    assert there == local
    assert json.loads(there)["engine"] == "my-game"
    for name in ("worker-1", "worker-2"):  # each unpacked it in its own scratch folder
        assert list((cluster.folder / name).rglob("my-game/engine.py")), name


@pytest.mark.slow
def test_a_fault_in_the_designers_engine_on_a_worker_is_said_at_its_line(
        cluster: Cluster, my_game: Path):
    """Raised on a worker in the unpacked copy, said in the designer's own file, as the
    local pool says it: the same line, word for word."""
    engine = my_game / "my-game" / "engine.py"
    line = edit(engine, "    def _apply(self, decisions: dict[str, Any]) -> list[Event]:\n",
                "    def _apply(self, decisions: dict[str, Any]) -> list[Event]:\n"
                "        if self.turns == 3:\n"
                "            {}['no-such-key']\n") + 2
    args = ("simulate", "my-game", "--games", "400", "--bots", "random", "--no-options",
            "--content", str(my_game))
    there, took = warbook(*args, "--cluster", cluster.address, cwd=my_game.parent)
    local, _ = warbook(*args, cwd=my_game.parent)
    assert there.returncode == 1 and local.returncode == 1, there.stderr + local.stderr
    assert took < 10, f"{took:.1f} s"
    assert "Traceback" not in there.stderr and "internal error" not in there.stderr
    said = [ln for ln in there.stderr.splitlines() if ln.startswith("content/my-game/")]
    assert said and said[0].startswith(
        f"content/my-game/engine.py:{line}: error: KeyError: 'no-such-key' in _apply() "
        f"(playing my-game, game '0:0/seat/random:"), there.stderr
    assert said[0] in local.stderr.splitlines(), local.stderr


@pytest.mark.slow
def test_check_balance_on_the_cluster(cluster: Cluster, tmp_path: Path):
    """``check --balance --cluster``: War's claims judged on the same games as locally."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war",
                    ignore=shutil.ignore_patterns("figures.json"))
    (content / "index.yaml").write_text("games: [war]\n")
    args = ("check", "--balance", "--games", "400", "--no-cache", "--content", str(content))
    local = ok(warbook(*args, cwd=tmp_path)[0])
    there = ok(warbook(*args, "--cluster", cluster.address, cwd=tmp_path)[0])
    assert there == local
    assert "war: holds: no seat wins more than 53.0%" in there, there


@pytest.mark.slow
def test_a_worker_killed_mid_run_changes_nothing(cluster: Cluster, my_game: Path):
    """A third worker joins, starts playing, and is killed (SIGKILL, as a machine that
    goes away): the scheduler gives its chunks to the other two, and the figures are the
    local pool's. (The engine marks when it plays on that worker, and each game takes a
    few milliseconds longer, so the run is still going when it is killed.)"""
    mark = my_game.parent / "played-on-the-third-worker"
    marks_where_it_plays(my_game)
    args = ("simulate", "my-game", "--games", "1000", "--seed", "3", "--bots", "random",
            "--no-options", "--json", "--content", str(my_game))
    third = cluster.worker("worker-3", env={"PLAYED_MARK": str(mark)})
    run = started(args, cluster.address, my_game)
    try:
        wait_for(mark, run, "the third worker was given nothing to play")
        os.kill(third.pid, signal.SIGKILL)
        assert run.poll() is None, "the run ended before the worker was killed"
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
        cluster.stop("worker-3")
    assert third.wait(timeout=10) == -signal.SIGKILL
    assert run.returncode == 0, err
    assert "Traceback" not in err, err
    local = ok(warbook(*args, cwd=my_game.parent)[0])
    assert out == local
    assert "worker-3" in cluster.log("scheduler")  # it did join, and was lost
    assert "Remove worker" in cluster.log("scheduler")


@pytest.mark.slow
def test_a_scheduler_that_goes_away_mid_run_is_a_clear_error(tmp_path: Path, my_game: Path):
    """A cluster of its own (one scheduler, one worker), its scheduler killed mid-run: the
    run ends at once, exit 1, said in a line, no figures printed."""
    mark = my_game.parent / "playing"
    marks_where_it_plays(my_game)
    own = Cluster(tmp_path / "own")
    own.folder.mkdir()
    try:
        own.scheduler()
        own.worker("worker", env={"PLAYED_MARK": str(mark)})
        run = started(("simulate", "my-game", "--games", "2000", "--bots", "random",
                       "--no-options", "--json", "--content", str(my_game)),
                      own.address, my_game)
        try:
            wait_for(mark, run, "nothing was played")
            os.killpg(own.procs["scheduler"].pid, signal.SIGKILL)
            start = time.monotonic()
            out, err = run.communicate(timeout=60)
            took = time.monotonic() - start
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
    finally:
        own.stop_all()
    assert run.returncode == 1, err
    assert took < 10, f"{took:.1f} s"
    assert out == ""
    assert err.strip().splitlines()[-1].startswith(
        f"error: the cluster at {own.address}: the scheduler went away mid-run ("), err
    assert err.strip().endswith("nothing was measured"), err
    assert "Traceback" not in err, err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_port_nothing_listens_on_is_a_clear_error_at_once(tmp_path: Path):
    port = free_port()
    proc, took = warbook("simulate", "war", "--games", "10", "--content", str(ROOT / "content"),
                         "--cluster", f"tcp://127.0.0.1:{port}", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert took < 5, f"{took:.1f} s"
    assert proc.stderr.startswith(f"error: --cluster tcp://127.0.0.1:{port}: nothing listens "
                                  f"there"), proc.stderr
    assert "dask scheduler" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


@pytest.mark.slow
def test_a_listener_that_is_no_scheduler_is_a_clear_error_within_seconds(tmp_path: Path):
    """Something listens but never answers (a firewall's tar pit, a hung process): the
    wait is bounded, the message says no scheduler answered."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        proc, took = warbook("simulate", "war", "--games", "10", "--content",
                             str(ROOT / "content"), "--cluster", address, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert took < 12, f"{took:.1f} s"
    assert proc.stderr.startswith(f"error: --cluster {address}: no Dask scheduler answered "
                                  f"within 5 s; start one with `dask scheduler`"), proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("address, why", [
    ("127.0.0.1", "missing port number"),
    ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
])
def test_an_address_that_is_no_schedulers_is_said_so(tmp_path: Path, address: str, why: str):
    proc, _ = warbook("simulate", "war", "--games", "10", "--content", str(ROOT / "content"),
                      "--cluster", address, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: --cluster {address}: not a Dask scheduler's "
                                  f"address ("), proc.stderr
    assert why in proc.stderr and "Traceback" not in proc.stderr


def test_workers_and_cluster_together_are_refused(tmp_path: Path):
    proc, _ = warbook("simulate", "war", "--games", "10", "--workers", "2", "--cluster",
                      "tcp://127.0.0.1:8786", "--content", str(ROOT / "content"), cwd=tmp_path)
    assert proc.returncode == 1
    assert "--workers is the local pool's" in proc.stderr


# --------------------------------------------------------------------------- here, no cluster
def a_game(tmp_path: Path, name: str = "content") -> Path:
    """High Five (a designer's engine.py) copied outside the repository: its folder."""
    content = tmp_path / name
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    return content / "high-five"


def test_the_packed_folder_is_the_same_bytes_for_the_same_files(tmp_path: Path):
    one, two = a_game(tmp_path, "one"), a_game(tmp_path, "two")
    os.utime(two / "engine.py", (0, 0))  # times and owners are not packed
    (two / "__pycache__").mkdir()  # nor Python's caches
    (two / "__pycache__" / "engine.cpython-311.pyc").write_bytes(b"\0")
    packed, digest = lab_cluster.pack(one)
    assert lab_cluster.pack(two) == (packed, digest)
    (two / "engine.py").write_text((two / "engine.py").read_text() + "# edited\n")
    assert lab_cluster.pack(two)[1] != digest  # an edit is a new game for the workers


def test_a_folder_too_large_to_ship_is_refused(tmp_path: Path, monkeypatch):
    folder = a_game(tmp_path)
    monkeypatch.setattr(lab_cluster, "MAX_FOLDER", 4000)
    with pytest.raises(LabError, match=r"the game's folder is over 0 MB, the most shipped to "
                                       r"a cluster's workers"):
        lab_cluster.pack(folder)


@pytest.fixture
def worker_here(tmp_path: Path, monkeypatch) -> Path:
    """play_shipped called in this process, as a worker calls it: its scratch folder."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(lab_cluster, "_scratch", lambda: str(scratch))
    monkeypatch.setattr(lab_cluster, "_UNPACKED", {})
    return scratch


def test_a_shipped_chunk_plays_the_local_pools_games(tmp_path: Path, worker_here: Path):
    folder = a_game(tmp_path)
    content, diags = load_content(folder.parent)
    assert not diags.errors
    gamedef = content.game("high-five").gamedef
    options = gamedef.resolve({})
    lineup = Lineup("0/skill/heuristic/random", ("heuristic", "random"), rotate=True)
    packed, digest = lab_cluster.pack(folder)
    there = lab_cluster.play_shipped((options, 5, lineup, 20, 60), packed, digest,
                                     "high-five", __version__)
    assert there == play_local([(gamedef, options, 5, lineup)], [(0, 20, 60)], 1)[0]
    (unpacked,) = worker_here.glob(f"warbook-{digest[:12]}-*")
    assert (unpacked / "high-five" / "engine.py").is_file()
    with pytest.raises(lab_cluster.ShippedFault) as caught:  # another warbook: refused
        lab_cluster.play_shipped((options, 5, lineup, 0, 1), packed, digest, "high-five",
                                 "0.0.1")
    assert "install the same warbook on every worker" in str(caught.value.error(folder))


def test_a_fault_in_a_shipped_engine_is_said_in_the_designers_file(tmp_path: Path,
                                                                  worker_here: Path,
                                                                  monkeypatch):
    folder = a_game(tmp_path)
    line = edit(folder / "engine.py", "        ev = []\n",
                "        ev = []\n        {}['no-such-key']\n") + 1
    content, _ = load_content(folder.parent)
    options = content.game("high-five").gamedef.resolve({})
    packed, digest = lab_cluster.pack(folder)
    with pytest.raises(lab_cluster.ShippedFault) as caught:
        lab_cluster.play_shipped((options, 0, Lineup("0/seat/random", ("random",) * 2), 0, 9),
                                 packed, digest, "high-five", __version__)
    carried = caught.value
    assert (carried.path, carried.line, carried.inside) == ("engine.py", line, True)
    monkeypatch.chdir(tmp_path)
    error = carried.error(folder)
    assert isinstance(error, faults.EngineFault)
    assert str(error) == (f"content/high-five/engine.py:{line}: error: KeyError: "
                          f"'no-such-key' in _apply() (playing high-five, game "
                          f"'0:0/seat/random:0', step 1)")


@pytest.mark.slow
def test_build_measures_stale_figures_on_the_cluster(cluster: Cluster, my_game: Path,
                                                     tmp_path: Path, monkeypatch):
    """``warbook build --cluster``: the figures a build measures are played on the
    cluster, and are the ones this machine measures; a build with nothing to measure never
    reaches for the cluster, and one that must and cannot stops with the output whole."""
    out = tmp_path / "out"
    cache = tmp_path / "figures-cache"   # where the tests keep measured figures
    cap = {"WARBOOK_LAB_GAMES": "200", "WARBOOK_CACHE": str(cache)}
    proc = warbook("build", "--content", str(my_game), "--out", str(out),
                   "--cluster", cluster.address, cwd=tmp_path, env=cap, timeout=900)[0]
    ok(proc)
    assert "games played on 2 workers" in proc.stderr, proc.stderr
    (kept,) = cache.glob("my-game-*.json")
    made = json.loads(kept.read_text())
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "200")
    from builder.content import load_content
    from builder.lab import figures

    content, _ = load_content(my_game)
    here = figures.measure(content.game("my-game"), workers=1)
    assert made["figures"] == here["figures"] and made["key"] == here["key"]

    dead = f"tcp://127.0.0.1:{free_port()}"
    ok(warbook("build", "--content", str(my_game), "--out", str(out), "--cluster", dead,
               cwd=tmp_path, env=cap, timeout=600)[0])   # all current: no cluster needed
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    edit(my_game / "my-game" / "engine.py", "def new_game(options: dict[str, Any], "
         "rng: random.Random) -> GameState:\n", "def new_game(options: dict[str, Any], "
         "rng: random.Random) -> GameState:  # edited: the figures are stale\n")
    proc = warbook("build", "--content", str(my_game), "--out", str(out), "--cluster", dead,
                   cwd=tmp_path, env=cap, timeout=600)[0]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert dead in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
