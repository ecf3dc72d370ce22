"""Benchmark: in ``warbook serve``, a designer's engine edit to a reloaded page (issue 26).

    python3 bench/serve_edit.py [--runs 3]

A copy of the test fixture High Five (a game with its own ``engine.py``) is served from a
temporary folder; once its first figures are measured and the page built, ``engine.py`` is
edited ``--runs`` times. Each time: the seconds from the save to the server's "reloading
the page" (the website rebuilt, the figures those of the previous version, marked), and to
the page's figures measured again and shown unmarked. Target: the reload under 10 s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="warbook-serve-edit-") as tmp:
        work = Path(tmp)
        content = work / "content"
        shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
        (content / "index.yaml").write_text("games: [high-five]\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("WARBOOK_")}
        env["PYTHONUNBUFFERED"] = "1"
        proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content",
                                 str(content), "--out", str(work / "out"), "--port", "0"],
                                cwd=work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        threading.Thread(target=lambda: [lines.append(ln) for ln in proc.stdout],
                         daemon=True).start()

        def wait(text: str, after: int, timeout: float = 600) -> int:
            end = time.time() + timeout
            while time.time() < end:
                for i, ln in enumerate(lines[after:], after):
                    if text in ln:
                        return i + 1
                time.sleep(0.02)
            sys.exit(f"bench: serve never said {text!r}:\n{''.join(lines)}")

        engine = content / "high-five" / "engine.py"
        reloads, fresh = [], []
        try:
            n = wait("serving ", 0)
            port = re.search(r"127\.0\.0\.1:(\d+)/", lines[n - 1]).group(1)
            page = f"http://127.0.0.1:{port}/site/high-five.html"
            n = wait("measured the balance", n)
            n = wait("built in", n)
            print(f"load {os.getloadavg()[0]:.1f}; first figures measured", flush=True)
            for run in range(args.runs):
                time.sleep(1)
                with open(engine, "a") as f:
                    f.write(f"\n# edit {run}\n")
                t0 = time.perf_counter()
                n = wait("reloading the page", n)
                reloads.append(time.perf_counter() - t0)
                marked = 'class="numbers-stale"' in urllib.request.urlopen(page).read().decode()
                n = wait("measured the balance", n)
                n = wait("built in", n)
                fresh.append(time.perf_counter() - t0)
                unmarked = 'class="numbers-stale"' not in urllib.request.urlopen(page).read().decode()
                print(f"edit {run + 1}: reloaded in {reloads[-1]:.2f} s (figures marked: "
                      f"{marked}); measured figures shown after {fresh[-1]:.1f} s (unmarked: "
                      f"{unmarked})", flush=True)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    med = statistics.median(reloads)
    print(f"engine edit to reloaded page: median {med:.2f} s of {len(reloads)} (target under "
          f"10 s: {'met' if med < 10 else 'NOT met'}); to measured figures: median "
          f"{statistics.median(fresh):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
