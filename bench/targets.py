"""Benchmark: issue 26's targets for a user's day, in one run, beside an older revision.

    python3 bench/targets.py [--before REV] [--runs 3] [--skip-clone]

For this checkout (and, with ``--before``, for the revision REV, cloned the same way):

1. **Fresh clone**: ``git clone`` into a temporary folder, then the README's first command,
   ``bash scripts/setup && .venv/bin/warbook build``, with an empty ``HOME`` (no pip cache,
   no ``~/.cache/warbook``) and no ``WARBOOK_*`` variables. Set-up and the first build are
   timed apart; the build's log says whether it played balance games ("simulating").
   Target: both together under 60 s on two cores.
2. **Clean render**: ``warbook build --clean`` in that clone, figures current (the median
   of ``--runs``). Target: under 15 s.
3. **No-op build**: ``warbook build`` again with nothing changed (median, after one such
   run). Target: under 0.5 s.
4. **Check**: ``warbook check``, warm (median, after one run that fills the check's cache).
   Target: under 0.3 s.

Wall times, with the load average at the start of each step (the machine should be quiet:
these are a user's waits, not processor time). ``serve``'s engine edit to a reloaded page
is measured by ``bench/serve_edit.py``; the lab's speed by ``bench/lab.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"fresh": 60.0, "clean": 15.0, "noop": 0.5, "check": 0.3}


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed in {cwd} ({p.returncode}):\n"
                 f"{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return took, p.stdout + p.stderr


def clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("WARBOOK_") and k not in ("XDG_CACHE_HOME", "VIRTUAL_ENV")}
    env["HOME"] = str(home)
    return env


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def measure(rev: str | None, runs: int, work: Path, skip_clone: bool) -> dict:
    name = rev or "HEAD"
    clone = work / (rev or "head").replace("/", "_")
    home = work / f"home-{clone.name}"
    home.mkdir()
    env = clean_env(home)
    out: dict = {"name": name}
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    if rev:  # else this checkout's HEAD, as committed
        subprocess.run(["git", "checkout", "-q", rev], cwd=clone, check=True)
    if skip_clone and (ROOT / ".venv").is_dir():
        shutil.copytree(ROOT / ".venv", clone / ".venv", symlinks=True)
    print(f"\n== {name} (load {load()})", flush=True)
    setup, _ = timed(["bash", "scripts/setup"], clone, env)
    out["setup"] = setup
    print(f"   set-up: {setup:.1f} s", flush=True)
    print(f"   first build (load {load()}) ...", flush=True)
    first, log = timed([".venv/bin/warbook", "build"], clone, env)
    out["first"] = first
    out["played"] = "simulating" in log
    print(f"   first build: {first:.1f} s; balance games played: "
          f"{'yes' if out['played'] else 'none'}", flush=True)
    print(f"   fresh clone to output: {setup + first:.1f} s (target under "
          f"{TARGETS['fresh']:.0f} s: {'met' if setup + first < TARGETS['fresh'] else 'NOT met'})")
    for key, cmd in (("clean", ["build", "--clean"]), ("noop", ["build"]), ("check", ["check"])):
        if key != "clean":  # one run first: the check's cache is made by the first check
            timed([".venv/bin/warbook", *cmd], clone, env)
        times = []
        for _ in range(runs):
            times.append(timed([".venv/bin/warbook", *cmd], clone, env)[0])
        med = statistics.median(times)
        out[key] = med
        print(f"   warbook {' '.join(cmd)}: median {med:.2f} s of {runs} (spread "
              f"{min(times):.2f}-{max(times):.2f}, load {load()}); target under "
              f"{TARGETS[key]:g} s: {'met' if med < TARGETS[key] else 'NOT met'}", flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", metavar="REV", help="also measure this older revision")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-clone", action="store_true",
                    help="copy this checkout's .venv instead of setting up from nothing "
                         "(the set-up time is then not a fresh machine's)")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores; load {load()}")
    with tempfile.TemporaryDirectory(prefix="warbook-targets-") as tmp:
        work = Path(tmp)
        rows = []
        if args.before:
            rows.append(measure(args.before, args.runs, work, args.skip_clone))
        rows.append(measure(None, args.runs, work, args.skip_clone))
    print("\n| step | " + " | ".join(r["name"] for r in rows) + " | target |")
    print("|---|" + "---|" * len(rows) + "---|")
    for key, label in (("setup", "set-up (`bash scripts/setup`)"),
                       ("first", "first `warbook build`"),
                       ("clean", "`warbook build --clean`"), ("noop", "no-op `warbook build`"),
                       ("check", "`warbook check`")):
        target = {"first": f"set-up + first under {TARGETS['fresh']:.0f} s",
                  "setup": ""}.get(key, f"under {TARGETS.get(key, 0):g} s")
        print(f"| {label} | " + " | ".join(f"{r[key]:.2f} s" for r in rows) + f" | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
