"""Benchmark: the check, the clean build of all the PDFs (every rulebook and the compendium),
and pages per second.

    python3 bench/build.py [--runs 5] [--full]

Each measurement is the median of ``--runs`` runs, each from a clean state in a fresh
process (so no cache or warm font configuration carries over). ``--full`` also times the
whole ``warbook build`` (PDFs, component sheets, PNG exports and the website).

Reported for the PDFs: the wall time (what a user waits), its spread over the runs, and
the processor time of the build and the process it forks (user + system), which says how
much work there is whatever else the machine is doing. The build's two processes share the
machine's two cores. Peak memory is the largest resident set of the measured processes (the
build forks: the largest of the parent and its children).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
import os
from builder.check import run_check
report = run_check(Path({root!r}) / "content")
t_check = time.perf_counter() - t0
assert report.ok
out = Path({out!r})
mode = {mode!r}
from builder.settings import Settings
settings = Settings(content_root=Path({root!r}) / "content", output=out)
c0 = os.times()
if mode == "pdf":
    from builder.build import render_pdfs
    t1 = time.perf_counter()
    render_pdfs(report, report.games, out, settings)
    import pikepdf
    pages = sum(len(pikepdf.open(f).pages) for f in out.glob("*.pdf"))
    t_pdf = time.perf_counter() - t1
elif mode == "full":
    from builder.build import build
    t1 = time.perf_counter()
    assert build(report, settings) == 0
    t_pdf = time.perf_counter() - t1
    pages = 0
else:
    t_pdf, pages = 0.0, 0
c1 = os.times()
cpu = ((c1.user - c0.user) + (c1.system - c0.system)
       + (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system))
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
print(json.dumps({{"check": t_check, "build": t_pdf, "cpu": cpu, "pages": pages, "rss_mib": rss}}))
"""


def run(mode: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        code = CHILD.format(root=str(ROOT), out=tmp, mode=mode)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(proc.stderr)
        return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    checks = [run("check") for _ in range(args.runs)]
    pdfs = [run("pdf") for _ in range(args.runs)]
    med = statistics.median
    pages = pdfs[0]["pages"]
    build_s = med(r["build"] for r in pdfs)
    rows = {
        "check_s": round(med(r["check"] for r in checks), 2),
        "pdf_build_s": round(build_s, 2),
        "pdf_build_s_range": [round(min(r["build"] for r in pdfs), 2),
                              round(max(r["build"] for r in pdfs), 2)],
        "pdf_cpu_s": round(med(r["cpu"] for r in pdfs), 2),
        "pdf_pages": pages,
        "pages_per_s": round(pages / build_s, 1),
        "peak_rss_mib": round(max(r["rss_mib"] for r in pdfs), 0),
    }
    if args.full:
        fulls = [run("full") for _ in range(args.runs)]
        rows["full_build_s"] = round(med(r["build"] for r in fulls), 2)
        rows["full_peak_rss_mib"] = round(max(r["rss_mib"] for r in fulls), 0)
    print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
