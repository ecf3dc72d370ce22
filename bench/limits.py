"""The largest content the limits allow (builder/limits.py), built: time and peak memory.

Writes a content folder holding one game at every limit at once (a copy of War: 40
examples, 400 diagrams, three examples of 100 steps, 300 rules, 300 glossary terms of
60,000 characters, 300,000 characters of text in the rulebook, 40 quickref lines, a kit
of 6 components with a 52-card deck), then runs ``warbook check`` and a clean
``warbook build`` on it, each in a child process, and reports wall time, processor time and
the peak of the whole process tree's memory (every descendant's proportional set size
summed, sampled from /proc every 50 ms), and the rulebook's pages. ``--content DIR``
measures an existing content folder instead (the shipped one, to compare).

    python3 bench/limits.py [--out DIR] [--keep] [--content DIR]

(Not reached here: limits an engine bounds first (War has one deck, so a setup holds at
most 52 cards of the 520 allowed, and two players of the 12), and the kit's 520-card deck,
which the build refuses as "text does not fit" on the kit's contents sheet.)
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

limits = importlib.import_module("builder.limits")     # from this checkout

WORDS = ("the general turns up a card and the higher card takes the trick while the other "
         "player watches the pile grow under the deck").split()


def prose(n: int, seed: int) -> str:
    """About ``n`` characters of words in paragraphs of at most 600 characters."""
    rng = random.Random(seed)
    paras, para = [], []
    size = 0
    while size < n:
        w = rng.choice(WORDS)
        para.append(w)
        size += len(w) + 1
        if sum(len(x) + 1 for x in para) > 600:
            paras.append(" ".join(para) + ".")
            para = []
    if para:
        paras.append(" ".join(para) + ".")
    return "\n\n".join(paras)


def indent(text: str, by: str) -> str:
    return "\n".join(by + ln if ln else "" for ln in text.splitlines())


def long_war(seed_from: int, tricks: int):
    """A War deal (seed) whose game lasts more than ``tricks`` forced tricks."""
    from builder.engine.core import full_deck
    from builder.engine.registry import find_engine

    g = find_engine("war", None)
    options = g.resolve({})
    for seed in range(seed_from, seed_from + 500):
        deck = [str(c) for c in full_deck()]
        random.Random(seed).shuffle(deck)
        setup = {"piles": {"p1.deck": deck[:26], "p2.deck": deck[26:]}}
        state = g.from_setup(options, setup)
        n = 0
        while n < tricks and state.pending() is not None:
            state.apply(state.forced_decisions())
            n += 1
        if n == tricks and state.pending() is not None:
            return setup
    raise SystemExit("no War deal lasts that long")


def make_content(root: Path) -> dict[str, int]:
    """The game at every limit; returns what it holds."""
    shutil.copytree(ROOT / "content" / "war", root / "limits")
    game = root / "limits"
    (root / "index.yaml").write_text("games: [limits]\n")
    text = (game / "game.yaml").read_text().replace("slug: war", "slug: limits", 1)
    text = text.replace("\nquickref:", "\nquickref:\n" + "".join(
        f"  - Quick line {i}; turn up, compare, take.\n" for i in range(
            limits.MAX_QUICKREF - 6)).rstrip("\n"), 1)  # War has 6 lines
    # the kit: MAX_KIT components, the deck's 52 cards and five kinds of tokens. Not the
    # 520 cards MAX_DECK_CARDS allows: the kit's contents sheet lists one print step per
    # two-sided pair of sheets and overflows past about a hundred cards ("text does not
    # fit", exit 1); nor a player aid, whose default text is the quickref, and 40 lines do
    # not fit on it
    kit = ["kit:", "  - {kind: deck, cards: all}"]
    kit += [f"  - {{kind: tokens, name: Token {i}, stem: token-{i}, count: 30}}"
            for i in range(limits.MAX_KIT - 1)]
    text = re.sub(r"\nkit:\n(?:[ -].*\n)*", "\n", text)           # War's own kit out
    (game / "game.yaml").write_text(text.rstrip("\n") + "\n" + "\n".join(kit) + "\n")

    rules = (game / "rules.md").read_text()
    heads = sum(1 for ln in rules.splitlines() if ln.startswith("#"))
    extra = limits.MAX_RULES - heads - 1
    per = (limits.MAX_RULES_CHARS - len(rules) - 2_000) // extra
    filler = "\n# Appendix {#appendix}\n\n" + "".join(
        f"## Note {i} {{#note-{i}}}\n\n{prose(per - 30, i)}\n\n" for i in range(extra))
    rules += filler
    (game / "rules.md").write_text(rules)

    per_term = limits.MAX_GLOSSARY_CHARS // limits.MAX_TERMS - 1
    gl = []
    for i in range(limits.MAX_TERMS):
        term = f"Term {i:03d}"
        definition = prose(per_term - len(term) - 10, 1000 + i)[:per_term - len(term)].strip()
        gl.append(f"- term: {term}\n  definition: {definition}\n")
    (game / "glossary.yaml").write_text("".join(gl))

    for old in (game / "examples").glob("*.yaml"):
        old.unlink()
    used = len(rules) + limits.MAX_GLOSSARY_CHARS
    words_left = limits.MAX_BOOK_CHARS - used - 6_000
    setup = long_war(1, limits.MAX_STEPS)
    piles = ("setup:\n  piles:\n    p1.deck: [" + ", ".join(setup["piles"]["p1.deck"])
             + "]\n    p2.deck: [" + ", ".join(setup["piles"]["p2.deck"]) + "]\n")
    diagrams, steps_total = 0, 0
    # three examples of 100 steps, then 37 of 1 or 2 steps: 400 diagrams
    plan = [limits.MAX_STEPS] * 3
    rest = limits.MAX_EXAMPLES - 3
    left = limits.MAX_DIAGRAMS - 3 * (limits.MAX_STEPS + 1) - rest * 2
    plan += [2] * left + [1] * (rest - left)
    for n, steps in enumerate(plan):
        comment_each = (min(words_left // 3, limits.MAX_EXAMPLE_CHARS - 200) // steps
                        if n < 3 else 0)
        lines = [f"id: limits-{n:02d}", f"title: Example {n} at the limits", piles.rstrip("\n"),
                 "steps:"]
        for k in range(steps):
            lines.append("  - {}" if not comment_each else
                         "  - comment: " + prose(comment_each - 20, n * 1000 + k)
                         .replace("\n\n", " ")[:comment_each - 20])
        (game / "examples" / f"{n + 1:02d}-limits.yaml").write_text("\n".join(lines) + "\n")
        diagrams += steps + 1
        steps_total += steps
    return {"examples": len(plan), "steps": steps_total, "diagrams": diagrams,
            "rules": limits.MAX_RULES, "terms": limits.MAX_TERMS}


def measure(cmd: list[str], cwd: Path) -> dict[str, float]:
    """Run ``cmd``; its wall time, processor time (children) and the peak summed RSS of its
    process tree."""
    before = os.times()
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.05)
    out = proc.stdout.read()
    wall = time.monotonic() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    return {"rc": proc.returncode, "wall": wall, "cpu": cpu, "peak_mib": peak / 1024,
            "out": out}


def tree_rss(pid: int) -> int:
    """The memory (KiB) of ``pid`` and all its descendants: each one's proportional set size
    (PSS: a page shared by n processes, as a forked worker shares its parent's, counts 1/n
    to each), so the sum is what the tree holds; RSS where PSS cannot be read."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += memory_of(p)
        todo += children.get(p, [])
    return total


def memory_of(pid: int) -> int:
    for name, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            with open(f"/proc/{pid}/{name}") as f:
                for line in f:
                    if line.startswith(key):
                        return int(line.split()[1])
        except (OSError, ValueError):
            continue
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="where to write the content and output "
                    "(default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the folder")
    ap.add_argument("--content", type=Path, help="measure this content folder instead of "
                    "the generated one")
    args = ap.parse_args()
    work = args.out or Path(tempfile.mkdtemp(prefix="warbook-limits-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.content:
        content = args.content.resolve()
        print("content:", content)
    else:
        content = work / "content"
        if content.exists():
            shutil.rmtree(content)
        held = make_content(content)
        print("content:", ", ".join(f"{v:,} {k}" for k, v in held.items()))
    warbook = [sys.executable, "-m", "builder"]
    check = measure(warbook + ["check", "--content", str(content)], ROOT)
    print(f"check: exit {check['rc']}, {check['wall']:.1f} s wall, {check['cpu']:.1f} s "
          f"processor, peak {check['peak_mib']:.0f} MiB (process tree, PSS)")
    if check["rc"] != 0:
        print(check["out"][-3000:])
        raise SystemExit(1)
    build = measure(warbook + ["build", "--clean", "--content", str(content), "--out",
                               str(work / "output")], ROOT)
    print(f"build: exit {build['rc']}, {build['wall']:.1f} s wall, {build['cpu']:.1f} s "
          f"processor, peak {build['peak_mib']:.0f} MiB (process tree, PSS)")
    for line in build["out"].splitlines():
        if "pages" in line or "sheets" in line or "built" in line or "error" in line:
            print("   ", line)
    if not args.keep and args.out is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
