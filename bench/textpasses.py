"""How long each pass over content text takes on a pathological line (issue 13: a heading
of 120,000 spaces ran for minutes, 20,000 '[[' for 7.5 s).

    python3 bench/textpasses.py [--size BYTES]

Every pass the loader and the renderers run over a line of content text is fed lines of
about ``--size`` bytes (1 MB by default) built to trip a backtracking pattern: long runs of
spaces, and thousands of openers with no closer ('[[', '![', '<a ', '{#', '](' ...). For
each pass and line it prints the time of one run; with linear passes every figure grows in
proportion to the size (try --size 250000 and compare). Beside it, the patterns the loader
used before issue 13, on a line 1/50 the size, show what quadratic time looks like.

The passes: the loader's heading parse (rules.md), its link, picture and raw-HTML check
(check_markdown: the bounds below, then links, code spans and raw HTML), its
cross-reference check (check_xrefs) and the renderer's plain-text reduction (markup.plain).

The renderer's Markdown (Python-Markdown) is not linear: some of its passes grow with the
square of a paragraph's '[' or length, and it recurses once per nested list marker. The
loader therefore refuses a paragraph over content.MAX_PARAGRAPH characters or
content.MAX_BRACKETS '[' (and a line of more than content.MAX_MARKERS nested markers), so
the Markdown pass is timed on the largest paragraph of each kind the loader lets through.
"""

from __future__ import annotations

import argparse
import re
import time

from builder.content import (
    CODE_SPAN_RE,
    HEADING_RE,
    HTML_RE,
    MAX_BRACKETS,
    MAX_PARAGRAPH,
    Loader,
    heading_id,
)
from builder.diagnostics import Diagnostics, Located
from builder.render.markup import Markdown, plain

#: the patterns of builder/content.py before issue 13 (for comparison only)
OLD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
OLD_HEADING_ID = re.compile(r"^(.*?)\s*\{#([^}\s]*)\}$")
OLD_XREF = re.compile(r"\[\[([^\]]*)\]\]")
OLD_IMAGE = re.compile(r"!\[[^\]]*\]\s*[(\[]")


def lines(size: int) -> dict[str, str]:
    def fill(unit: str) -> str:
        return unit * (size // len(unit))

    return {
        "heading + spaces": "# x" + " " * size + "y {#zz}",
        "'[[' x n": fill("[["),
        "'![' x n": fill("!["),
        "'<a ' x n": fill("<a "),
        "'{#' x n": "# " + fill("{#"),
        "'](' x n": fill("]("),
        "'`' x n": fill("`a"),
        "'*' x n": fill("*a"),
        "'[x](' x n": fill("[x]("),
    }


def heading_pass(line: str) -> None:
    m = HEADING_RE.match(line)
    if m:
        heading_id(m.group(2))


def old_heading_pass(line: str) -> None:
    m = OLD_HEADING.match(line)
    if m:
        OLD_HEADING_ID.match(m.group(2))


def loader_passes():
    loader = Loader(None, Diagnostics())  # type: ignore[arg-type]
    where = Located("bench", 1, 1)
    return {
        "heading": heading_pass,
        "budget": lambda line: loader.within_budget(line, where, 1),
        "links": lambda line: loader.check_links(line, where),
        "code, raw HTML": lambda line: HTML_RE.search(CODE_SPAN_RE.sub(" ", line)),
        "check_xrefs": lambda line: loader.check_xrefs(line, where, set()),
        "plain": plain,
    }


def timed(fn, arg) -> float:
    t = time.perf_counter()
    fn(arg)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=1_000_000)
    args = ap.parse_args()
    passes = loader_passes()
    print(f"each line about {args.size:,} bytes; seconds for one run")
    print(f"{'line':18} " + " ".join(f"{name:>16}" for name in passes))
    for label, line in lines(args.size).items():
        print(f"{label:18} " + " ".join(f"{timed(fn, line):16.3f}" for fn in passes.values()))
    md = Markdown(lambda rid: None)
    print(f"\nthe renderer's Markdown on the largest paragraph the loader accepts "
          f"({MAX_PARAGRAPH:,} characters, {MAX_BRACKETS} '['):")
    for label, line in lines(MAX_PARAGRAPH).items():
        line = line[:MAX_PARAGRAPH]
        extra = line.count("[") - MAX_BRACKETS
        if extra > 0:  # keep MAX_BRACKETS of them, the rest of the length in spaces
            line = line.replace("[", " ", extra)
        print(f"{label:18} {timed(md.block, line):16.3f}")
    small = args.size // 50
    print(f"\nfor comparison, the patterns before issue 13 on {small:,}-byte lines:")
    old = {"heading": old_heading_pass,
           "xref": lambda line: list(OLD_XREF.finditer(line)),
           "picture": lambda line: list(OLD_IMAGE.finditer(line))}
    for label, line in lines(small).items():
        if label in ("heading + spaces", "'[[' x n", "'![' x n"):
            print(f"{label:18} " + " ".join(f"{name} {timed(fn, line):.3f}"
                                            for name, fn in old.items()))


if __name__ == "__main__":
    main()
