"""Benchmark: how full each rulebook page is (issue 27, item 1: "no page in a rulebook is
less than 60 % full except the last of a chapter").

    python3 bench/page_fill.py [OUTPUT] [--json] [--under 0.6]

Reads the built books (``OUTPUT/pdf/*-rules.pdf`` and ``compendium.pdf``; OUTPUT defaults
to ``output/``, the last ``warbook build``) and renders every page at 30 dpi in grey with
pdfium. A page's **fill** is measured inside its text block (the paper table's margins,
recto or verso: the running heads and folios stand outside it): the block is cut into its
two columns, and each column is full down to its last inked row; the page's fill is the
mean of the two. A page whose columns both run to the foot is 1.0; a page whose one
example heading stands at the top, the rest blank, is about 0.1.

A chapter's last page may be short: a page is a **chapter end** when the next page starts
a top-level entry of the book's outline (its bookmarks), or it is the book's last page; in
the compendium, whose top-level entries are its parts (the rulebooks bound), an entry of
the level under them too.
The cover (page 1, a page of its own design) is left out. Reported: per book, its pages,
mean fill, and the pages under ``--under`` (0.6) that are not chapter ends, with their
numbers, and the pages where an example's heading stands in the bottom 15 % of the text
block (issue 27: none should); then the totals.
"""

from __future__ import annotations

import ctypes
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DPI = 30
INK = 225        # a pixel darker than this (0-255 grey) is ink: the paper tint is about 241


def _margins(width_mm: float, height_mm: float):
    from builder.settings import PAPERS

    for paper in PAPERS.values():
        if abs(paper.width - width_mm) < 1 and abs(paper.height - height_mm) < 1:
            return paper.book
    raise SystemExit(f"no paper of {width_mm:.0f} x {height_mm:.0f} mm in builder/settings.py")


def _chapter_starts(pdf, depth: int = 0) -> set[int]:
    """The indexes of the pages that start an entry of the outline at ``depth`` or above
    (0: the top level)."""
    starts = set()
    for item in pdf.get_toc():
        dest = item.get_dest()
        if item.level <= depth and dest is not None and dest.get_index() is not None:
            starts.add(dest.get_index())
    return starts


def column_fill(px, width: int, x0: int, x1: int, y0: int, y1: int) -> float:
    """How far down the column ``x0..x1`` (pixels) of the block ``y0..y1`` ink reaches,
    as a fraction of the block's height."""
    for y in range(y1 - 1, y0 - 1, -1):
        row = px[y * width + x0:y * width + x1]
        if min(row, default=255) < INK:
            return (y + 1 - y0) / (y1 - y0)
    return 0.0


def page_fills(path: Path) -> list[dict]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    # the compendium binds the rulebooks as its parts, their chapters one level down
    starts = _chapter_starts(pdf, 1 if path.name == "compendium.pdf" else 0)
    out = []
    k = DPI / 25.4
    for i in range(len(pdf)):
        page = pdf[i]
        w_pt, h_pt = page.get_size()
        m = _margins(w_pt / 72 * 25.4, h_pt / 72 * 25.4)
        image = page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
        width, height = image.size
        px = image.tobytes()
        number = i + 1
        left = m.inner if number % 2 else m.outer       # recto: the inner margin is left
        x0, x1 = round(left * k), width - round((m.outer + m.inner - left) * k)
        y0, y1 = round(m.top * k), height - round(m.bottom * k)
        mid = (x0 + x1) // 2
        fill = (column_fill(px, width, x0, mid, y0, y1)
                + column_fill(px, width, mid, x1, y0, y1)) / 2
        out.append({"page": number, "fill": round(fill, 3),
                    "chapter_end": i + 1 in starts or i == len(pdf) - 1,
                    "cover": i == 0,
                    "low_heading": _low_heading(page, m.top, h_pt / 72 * 25.4 - m.bottom)})
    return out


#: an example's heading is set at 11.5 pt (book.css .ex-title); the running heads and
#: the text that names an example are smaller
HEADING_PT = 11


def _low_heading(page, top_mm: float, bottom_mm: float) -> bool:
    """Whether an example's heading ("Example 5 ...", at ``HEADING_PT`` or larger) stands
    in the bottom 15 % of the page's text block (issue 27: none should)."""
    import pypdfium2.raw as raw

    text = page.get_textpage()
    h_pt = page.get_size()[1]
    limit = top_mm + 0.85 * (bottom_mm - top_mm)
    found = text.search("Example ", match_case=True)
    matrix = raw.FS_MATRIX()
    while (hit := found.get_next()) is not None:
        index, _ = hit
        # the size printed: pdfium gives the font's own size, which the page then scales
        # (WeasyPrint draws in CSS pixels, three quarters of a point)
        raw.FPDFText_GetMatrix(text.raw, index, ctypes.byref(matrix))
        scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        if raw.FPDFText_GetFontSize(text.raw, index) * scale < HEADING_PT:
            continue
        if re.match(r"Example \d+\s*:", text.get_text_range(index, 14)):
            continue  # an entry of the contents ("Example 9: A round for three")
        _, _, _, y_top = text.get_charbox(index)
        if (h_pt - y_top) / 72 * 25.4 > limit:
            return True
    return False


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    under = 0.6
    if "--under" in argv:
        under = float(argv[argv.index("--under") + 1])
    args = [a for i, a in enumerate(argv) if not a.startswith("--")
            and (i == 0 or argv[i - 1] != "--under")]
    output = Path(args[0]) if args else ROOT / "output"
    books = sorted((output / "pdf").glob("*-rules.pdf"))
    if (output / "pdf" / "compendium.pdf").is_file():
        books.append(output / "pdf" / "compendium.pdf")
    if not books:
        print(f"no rulebooks in {output / 'pdf'}: run warbook build first", file=sys.stderr)
        return 1
    report = {}
    total_pages = total_short = total_low = 0
    total_fill = 0.0
    for path in books:
        pages = [p for p in page_fills(path) if not p["cover"]]
        short = [p["page"] for p in pages if p["fill"] < under and not p["chapter_end"]]
        low = [p["page"] for p in pages if p["low_heading"]]
        total_low += len(low)
        mean = sum(p["fill"] for p in pages) / len(pages)
        report[path.name] = {"pages": len(pages) + 1, "mean_fill": round(mean, 3),
                             "short_pages": short, "low_headings": low, "fills": pages}
        total_pages += len(pages)
        total_short += len(short)
        total_fill += sum(p["fill"] for p in pages)
        if not as_json:
            print(f"{path.name:34} {len(pages) + 1:4} pages  mean fill {mean:5.1%}  "
                  f"under {under:.0%} (not a chapter end): {len(short):3}"
                  + (f"  pp. {', '.join(map(str, short))}" if short else "")
                  + (f"; example headings in the bottom 15 %: pp. {', '.join(map(str, low))}"
                     if low else ""))
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{'all books':34} {total_pages:4} pages (covers left out)  mean fill "
              f"{total_fill / total_pages:5.1%}  under {under:.0%}: {total_short} "
              f"({total_short / total_pages:.0%} of the pages); example headings in the "
              f"bottom 15 % of a page: {total_low}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
