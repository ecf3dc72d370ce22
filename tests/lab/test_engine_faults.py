"""A fault in a designer's own engine is the designer's, said at its line, and nothing
hangs (issue 24, items 1 and 2).

High Five (tests/fixtures/high-five) is copied outside the repository and broken on
purpose, one fault at a time: an exception in its ``_apply``, a heuristic that returns a
card its player does not hold, a step bound too low, a worker process killed by a signal.
Each run of ``warbook simulate`` (one worker and two) and ``warbook check`` must end within
10 s, exit 1, and name the engine file and the line of the fault, with what was being
done; never "internal error", never a traceback, and no worker process left behind."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"

#: (what, the line of engine.py to replace, its replacement, the line the fault is on)
APPLY_LINE = "        self.round += 1\n"
FAULTS = {
    "key-error": (APPLY_LINE, "        self.round += 1\n"
                  "        if self.round == 2:\n"
                  "            {}['no-such-key']\n", "{}['no-such-key']"),
    "illegal-heuristic": (
        "    return max(state.hands[player], key=lambda c: ACE_HIGH[c.rank])\n",
        "    held = state.hands[player]\n"
        "    return next(c for c in full_deck() if c not in held)\n",
        "def heuristic("),
    # an exception that cannot be rebuilt from its args (pickle would fail in the parent)
    "unpicklable": (APPLY_LINE, "        self.round += 1\n"
                    "        class Odd(Exception):\n"
                    "            def __init__(self, a, b):\n"
                    "                super().__init__(f'odd {a}')\n"
                    "        if self.round == 2:\n"
                    "            raise Odd(1, 2)\n", "raise Odd(1, 2)"),
    # the engine refuses in _apply a card its own choice offered
    "refuses-offered": ("        for p in PLAYERS:\n            self.hands[p].remove(decisions[p])\n",
                        "        for p in PLAYERS:\n"
                        "            if self.round == 1:\n"
                        "                raise IllegalDecision('play', 'not in round 2', p)\n"
                        "            self.hands[p].remove(decisions[p])\n",
                        "raise IllegalDecision('play'"),
    "runaway": ("heuristic=heuristic, max_steps=lambda options: options[\"hand\"],\n",
                "heuristic=heuristic, max_steps=lambda options: 2,\n", "max_steps=lambda"),
}


def broken(tmp: Path, fault: str) -> tuple[Path, int]:
    content = tmp / "content"
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    old, new, marker = FAULTS[fault]
    text = engine.read_text()
    assert text.count(old) == 1, fault
    text = text.replace(old, new)
    engine.write_text(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if marker in ln)
    return content, line


def warbook(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)
    return proc, time.monotonic() - start


def assert_located(proc, took: float, line: int, *words: str) -> str:
    err = proc.stderr
    assert proc.returncode == 1, proc.stdout + err
    assert took < 10, f"{took:.1f} s"
    assert "Traceback" not in err and "internal error" not in err, err
    found = [ln for ln in err.splitlines() if ln.startswith("content/high-five/engine.py:")]
    assert found, err
    assert found[0].startswith(f"content/high-five/engine.py:{line}: error: "), found[0]
    for word in words:
        assert word in found[0], found[0]
    return found[0]


def no_orphans(tmp: Path) -> None:
    """No process is left running from the content folder (a worker of the run)."""
    time.sleep(0.3)
    ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    left = [ln for ln in ps.splitlines() if str(tmp) in ln and "ps -eo" not in ln]
    assert not left, left


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_exception_in_the_engine_is_the_designers(tmp_path: Path, workers: str):
    content, line = broken(tmp_path, "key-error")
    proc, took = warbook("simulate", "high-five", "--games", "40", "--workers", workers,
                         "--content", str(content), cwd=tmp_path)
    said = assert_located(proc, took, line, "KeyError: 'no-such-key' in _apply()",
                          "playing high-five, game '0:", ", step 2")
    assert re.search(r"game '0:[^']+:\d+', step 2\)$", said), said
    no_orphans(tmp_path)


def test_an_exception_while_an_example_replays_names_the_example(tmp_path: Path):
    content, line = broken(tmp_path, "key-error")
    proc, took = warbook("check", "--content", str(content), cwd=tmp_path)
    assert_located(proc, took, line, "KeyError: 'no-such-key' in _apply()",
                   "replaying example 'high-five-short-game', step 2 of "
                   "content/high-five/examples/01-a-short-game.yaml:")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_exception_that_does_not_pickle_ends_the_run_too(tmp_path: Path, workers: str):
    content, line = broken(tmp_path, "unpicklable")
    proc, took = warbook("simulate", "high-five", "--games", "40", "--workers", workers,
                         "--content", str(content), cwd=tmp_path)
    assert_located(proc, took, line, "Odd: odd 1 in _apply()", ", step 2)")
    no_orphans(tmp_path)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_illegal_decision_of_the_heuristic_is_the_designers(tmp_path: Path, workers: str):
    content, line = broken(tmp_path, "illegal-heuristic")
    proc, took = warbook("simulate", "high-five", "--games", "40", "--workers", workers,
                         "--bots", "random,heuristic", "--content", str(content), cwd=tmp_path)
    assert_located(proc, took, line, "the heuristic bot made an illegal decision: p",
                   "which the engine refuses", "(in heuristic)", "step 1)")
    no_orphans(tmp_path)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_refusal_of_what_the_engine_offered_is_the_engines(tmp_path: Path, workers: str):
    content, line = broken(tmp_path, "refuses-offered")
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text().replace("from builder.engine import (",
                                                 "from builder.engine import (\n"
                                                 "    IllegalDecision,", 1))
    proc, took = warbook("simulate", "high-five", "--games", "40", "--workers", workers,
                         "--bots", "random", "--content", str(content), cwd=tmp_path)
    assert_located(proc, took, line + 1, "the engine refused a decision its own choice "
                   "offered (the random bot picked it from the legal ones): p1 chose ",
                   "not in round 2, in _apply()", "step 2)")
    no_orphans(tmp_path)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_game_past_its_step_bound_is_the_designers(tmp_path: Path, workers: str):
    content, line = broken(tmp_path, "runaway")
    proc, took = warbook("simulate", "high-five", "--games", "40", "--workers", workers,
                         "--content", str(content), cwd=tmp_path)
    assert_located(proc, took, line, "the game passed its bound of 2 steps (max_steps) "
                   "without a result (in <lambda>)", "step 3)")
    no_orphans(tmp_path)


def test_a_worker_killed_by_a_signal_ends_the_run(tmp_path: Path):
    """A worker that dies without a word (here SIGKILL from the engine itself, as the
    kernel's out-of-memory killer would) ends the run at once: exit 1, said plainly."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text().replace(APPLY_LINE, APPLY_LINE +
        "        import os, signal\n"
        "        if os.getpid() != int(os.environ['MAIN_PID']) and self.round == 4:\n"
        "            os.kill(os.getpid(), signal.SIGKILL)\n"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c",
                             "import os, sys; os.environ['MAIN_PID'] = str(os.getpid()); "
                             "from builder.cli import main; sys.exit(main(sys.argv[1:]))",
                             "simulate", "high-five", "--games", "400", "--workers", "2",
                             "--content", str(content)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - start < 10
    assert proc.returncode == 1, out + err
    assert "error: a worker process playing the games stopped without a word" in err, err
    assert "Traceback" not in err
    no_orphans(tmp_path)


def test_a_fault_in_a_plugins_engine_is_said_in_the_plugins_file(tmp_path: Path):
    """A plugin's package is the designer's code too (installed offline here: its module
    and its .dist-info with the entry point in a folder on PYTHONPATH)."""
    site = tmp_path / "site-packages"
    (site / "warbook_high_five").mkdir(parents=True)
    plugin = site / "warbook_high_five" / "__init__.py"
    plugin.write_text((FIXTURE / "engine.py").read_text().replace(APPLY_LINE, FAULTS[
        "key-error"][1]))
    line = next(i for i, ln in enumerate(plugin.read_text().splitlines(), 1)
                if "{}['no-such-key']" in ln)
    info = site / "warbook_high_five-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: warbook-high-five\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text("[warbook.engines]\nhigh-five = "
                                           "warbook_high_five:GAME\n")
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "high-five", ignore=shutil.ignore_patterns("engine.py"))
    (content / "index.yaml").write_text("games: [high-five]\n")
    game_yaml = content / "high-five" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("title: High Five\n",
                                                       "title: High Five\nengine: high-five\n"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    proc = subprocess.run([sys.executable, "-m", "builder", "check", "--content",
                           str(content)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"site-packages/warbook_high_five/__init__.py:{line}: error: KeyError: " \
           f"'no-such-key' in _apply() (replaying example" in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr
