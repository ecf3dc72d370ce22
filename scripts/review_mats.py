"""Print every recorded mat drawing (tests/snapshots/mats/*.svg) on one PDF, a drawing a
page at its real size, to look at before accepting a change to an engine's art:

    .venv/bin/python scripts/review_mats.py [OUT.pdf]     (default /tmp/warbook-mats.pdf)
    pdftoppm -r 40 -png /tmp/warbook-mats.pdf /tmp/mats     (then open the PNGs)
"""

from __future__ import annotations

import html
import sys
from pathlib import Path

from weasyprint import HTML

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("/tmp/warbook-mats.pdf")
    pages = []
    for svg in sorted((ROOT / "tests" / "snapshots" / "mats").glob("*.svg")):
        pages.append(f'<section><h1>{html.escape(svg.stem)}</h1>{svg.read_text()}</section>')
    doc = ("<html><head><style>@page { size: A3 landscape; margin: 10mm } "
           "section { page-break-after: always } h1 { font: 12pt sans-serif }</style></head>"
           f"<body>{''.join(pages)}</body></html>")
    HTML(string=doc).write_pdf(out)
    print(f"{len(pages)} drawings on {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
