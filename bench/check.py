"""Benchmark: ``warbook check`` with its cache (issue 26, item 5), on a copy of the shipped
content in a scratch working folder (``content/`` and ``output/``).

    python3 bench/check.py [--runs 5]

Measured, each the median of ``--runs`` (wall time of the whole command, a new process
each time, what the designer waits):

* warm: nothing changed since the last check (every verdict read from
  ``output/.cache/check``; the target: **under 0.3 s**);
* cold: the cache emptied first (every game loaded, replayed and its faces drawn, and the
  verdicts stored);
* one edit: one example's comment changed before each run (that game replayed again, the
  others read);
* the old way, ``--no-cache`` (everything checked, nothing kept), as every check ran
  before the cache.

The engines' conformance verdicts (``~/.cache/warbook/figures``) are warm in every row, as
on a designer's machine after the first check. The lines are checked to be the same in
every row. The machine's two cores are shared, so compare figures measured together.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 0.3
EXAMPLE = "war/examples/02-one-war.yaml"


def check(folder: Path, *args: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "builder", "check", *args], cwd=folder,
                          capture_output=True, text=True, env=env)
    took = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)
    return took, proc.stdout + proc.stderr


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="warbook-check-bench-") as tmp:
        folder = Path(tmp)
        shutil.copytree(ROOT / "content", folder / "content")
        (folder / "output").mkdir()
        cache = folder / "output" / ".cache"
        printed = set()
        times: dict[str, list[float]] = {"warm": [], "cold": [], "edit": [], "old": []}
        check(folder)  # the engines' conformance verdicts, once
        for n in range(runs):
            shutil.rmtree(cache, ignore_errors=True)
            took, out = check(folder)
            times["cold"].append(took)
            printed.add(out)
            took, out = check(folder)
            times["warm"].append(took)
            printed.add(out)
            path = folder / "content" / EXAMPLE
            path.write_text(re.sub(r"never compared[^\n]*\n", f"never compared ({n}).\n",
                                   path.read_text(), count=1))
            took, out = check(folder)
            times["edit"].append(took)
            took, out = check(folder, "--no-cache")
            times["old"].append(took)
            printed.add(out)
        if len(printed) != 1:
            raise SystemExit("the check printed different lines warm and cold")
    med = {k: statistics.median(v) for k, v in times.items()}
    load = os.getloadavg()[0]
    pyc = "off" if sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE") \
        else "on"
    print(f"warbook check on the shipped content, median of {runs} (load {load:.1f}, "
          f"bytecode cache {pyc}):")
    print(f"  warm (nothing changed)      {med['warm']:6.3f} s  "
          f"({min(times['warm']):.3f} to {max(times['warm']):.3f})")
    print(f"  cold (cache emptied)        {med['cold']:6.3f} s")
    print(f"  one example edited          {med['edit']:6.3f} s")
    print(f"  the old way (--no-cache)    {med['old']:6.3f} s")
    print(f"target: a warm check under {TARGET_S} s: "
          + ("met" if med["warm"] < TARGET_S else "NOT met"))


if __name__ == "__main__":
    main()
