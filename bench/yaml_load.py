"""Benchmark: reading the content's YAML, libyaml against the pure Python loader.

    python3 bench/yaml_load.py [--runs 7]

warbook reads every alias-free YAML document with libyaml's parser and composer (through
PyYAML's C binding) and keeps PyYAML's pure Python loader for documents with anchors or
aliases and for saying what is wrong with one (``builder/yamlsrc.py``). Both build the same
located values; this times them side by side on the shipped content (every ``*.yaml`` under
``content/``), then ``run_check`` of the shipped content (load, validate, replay) in
process. Each figure is the median of ``--runs`` runs in this one process, after one warm-up.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder import yamlsrc  # noqa: E402
from builder.check import run_check  # noqa: E402


def pure(text: str) -> object:
    loader = yamlsrc._Loader(text)
    loader.src_path, loader.source = "x", yamlsrc.Source(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def median_s(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    texts = [p.read_text() for p in sorted((ROOT / "content").rglob("*.yaml"))]
    size = sum(len(t) for t in texts)
    slow = median_s(lambda: [pure(t) for t in texts], args.runs)
    fast = median_s(lambda: [yamlsrc.load_yaml_text(t, "x") for t in texts], args.runs)
    check = median_s(lambda: run_check(ROOT / "content"), args.runs)
    print(f"{len(texts)} files, {size:,} characters")
    print(f"pure Python loader  {slow * 1000:7.1f} ms")
    print(f"libyaml (warbook)   {fast * 1000:7.1f} ms   {slow / fast:.1f}x")
    print(f"run_check, shipped  {check * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
