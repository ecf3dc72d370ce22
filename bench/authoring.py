"""Benchmark: the authoring loop (issue 11), on a copy of the shipped content (seven games).

    python3 bench/authoring.py [--runs 3] [--idle 30]

Measured, each the median of ``--runs`` (wall time, what the designer waits):

* ``warbook build`` after a full build with nothing changed (the target: under 0.5 s),
  beside ``warbook build --clean`` (what every build cost before: everything rendered);
* ``warbook build`` after one example's comment is edited (that game's rulebook, the
  compendium and the website; target: under 5 s);
* with ``warbook serve`` running: from saving an example's comment to the page's reload
  event, and to the end of the rebuild of the PDFs; from saving a glossary line to the
  reload event (target: under 1 s); from the end of the site's rebuild (the terminal's
  line) to the page's reload event (target: under 1 s);
* ``warbook serve`` idle, one page connected: processor time of both its processes over
  ``--idle`` seconds, as a share of one core (target: under 1 %).

The machine's two cores are shared, so compare figures measured together.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "war/examples/02-one-war.yaml"
GLOSSARY = "peace/glossary.yaml"


def warbook(*args: str) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "builder", *args], cwd=ROOT,
                          capture_output=True, text=True)
    took = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)
    return took


def edit_comment(content: Path, n: int) -> None:
    path = content / EXAMPLE
    text = re.sub(r"never compared[^\n]*\n", f"never compared (edit {n}).\n", path.read_text(), 1)
    path.write_text(text)


def edit_glossary(content: Path, n: int) -> None:
    path = content / GLOSSARY
    text = re.sub(r"(takes the war\.)[^\n]*\n", rf"\1 (edit {n})\n", path.read_text(), 1)
    path.write_text(text)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--idle", type=float, default=30)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="warbook-authoring-"))
    content, out = tmp / "content", tmp / "output"
    shutil.copytree(ROOT / "content", content)
    common = ["--content", str(content), "--out", str(out)]
    res: dict[str, object] = {}
    try:
        res["clean build s"] = round(warbook("build", *common, "--clean"), 2)
        noop = [warbook("build", *common) for _ in range(args.runs)]
        res["no-op build s"] = round(statistics.median(noop), 3)
        comment = []
        for n in range(args.runs):
            edit_comment(content, n)
            comment.append(warbook("build", *common))
        res["one comment edited, build s"] = round(statistics.median(comment), 2)
        res.update(serve_loop(content, out, args.runs, args.idle))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(res, indent=2))


def serve_loop(content: Path, out: Path, runs: int, idle: float) -> dict:
    proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content", str(content),
                             "--out", str(out), "--port", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put((time.perf_counter(), ln)) for ln in proc.stdout],
                     daemon=True).start()
    events: queue.Queue = queue.Queue()
    try:
        while True:
            _, ln = lines.get(timeout=600)
            m = re.search(r"127\.0\.0\.1:(\d+)/", ln)
            if m:
                port = int(m.group(1))
                break
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", "/__warbook/events")
        resp = conn.getresponse()

        def read() -> None:
            for raw in resp:
                if raw.startswith(b"event: reload"):
                    events.put(time.perf_counter())

        threading.Thread(target=read, daemon=True).start()
        time.sleep(1)

        def measure(edit, n: int) -> tuple[float, float]:
            while not lines.empty():
                lines.get()
            while not events.empty():
                events.get()
            t0 = time.perf_counter()
            edit(content, 100 + n)
            reload_at = events.get(timeout=120)
            site_done = None
            while True:
                t, ln = lines.get(timeout=300)
                if "site rebuilt" in ln:
                    site_done = t
                if ln.startswith("built in"):
                    lag.append(reload_at - site_done)
                    return reload_at - t0, t - t0

        lag: list[float] = []
        comment = [measure(edit_comment, n) for n in range(runs)]
        glossary = [measure(edit_glossary, 10 + n) for n in range(runs)]
        time.sleep(2)
        pids = [proc.pid] + children(proc.pid)
        c0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
        time.sleep(idle)
        c1, t1 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
        return {
            "serve: comment saved -> page reload s": round(statistics.median(a for a, _ in comment), 2),
            "serve: comment saved -> PDFs rebuilt s": round(statistics.median(b for _, b in comment), 2),
            "serve: glossary line saved -> page reload s": round(statistics.median(a for a, _ in glossary), 2),
            "serve: glossary line saved -> PDFs rebuilt s": round(statistics.median(b for _, b in glossary), 2),
            "serve: site rebuilt -> reload event s (max)": round(max(lag), 3),
            "serve idle, % of one core": round(100 * (c1 - c0) / (t1 - t0), 2),
            "serve processes": len(pids),
        }
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
