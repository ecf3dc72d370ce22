"""The website's pictures for other programs: a preview image per page (Open Graph and
Twitter cards: 1200 x 630, the site's name, the game's title and tagline in the book's
typefaces) and the PNG icons (favicon and touch icon) made from the site's mark.

They are laid out as HTML pages by WeasyPrint (the same engine as the rulebooks, so the
text is set by HarfBuzz in the book's faces) and rasterised by pdfium; no page of the
site loads them, so they weigh nothing on a page.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from markupsafe import escape

from ..fonts import find as find_font

PREVIEW = (1200, 630)
ICONS = {"icon-32.png": 32, "apple-touch-icon.png": 180, "icon-192.png": 192}


@dataclass
class Preview:
    name: str      # file name, "war.png"
    kicker: str    # the site's name
    title: str
    line: str      # the tagline
    accent: str    # a CSS colour


def _font(family: str, weight: int, style: str, file: str) -> str:
    return (f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
            f'src: url("{find_font(file).as_uri()}"); }}')


def _html(previews: list[Preview], mark: Path) -> str:
    fonts = "\n".join([_font("EB Garamond", 400, "italic", "EBGaramond-Italic.ttf"),
                       _font("Cabin", 600, "normal", "Cabin-SemiBold.otf"),
                       _font("Cabin", 700, "normal", "Cabin-Bold.otf")])
    mark_uri = escape(mark.resolve().as_uri())
    pages = []
    for p in previews:
        size = 86 if len(p.title) <= 24 else 64
        pages.append(f"""<section class="preview" style="--accent: {escape(p.accent)}">
  <div class="band"></div>
  <p class="kicker"><img src="{mark_uri}" alt="">{escape(p.kicker)}</p>
  <h1 style="font-size: {size}px">{escape(p.title)}</h1>
  <p class="line">{escape(p.line)}</p>
</section>""")
    pages.append(f'<section class="icon"><img src="{mark_uri}" alt=""></section>')
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
{fonts}
@page {{ size: {PREVIEW[0]}px {PREVIEW[1]}px; margin: 0; }}
@page icon {{ size: 192px 192px; margin: 0; }}
html, body {{ margin: 0; }}
.preview {{ page: auto; width: {PREVIEW[0]}px; height: {PREVIEW[1]}px; box-sizing: border-box;
  padding: 88px 96px 0 110px;
  background: #fbf8f2; color: #1e1b17; position: relative; break-after: page; overflow: hidden; }}
.band {{ position: absolute; left: 0; top: 0; bottom: 0; width: 28px; background: var(--accent); }}
.kicker {{ font: 600 34px "Cabin"; color: #5d564c; margin: 0 0 40px; display: flex; align-items: center; }}
.kicker img {{ width: 64px; height: 64px; margin-right: 22px; }}
h1 {{ font-family: "Cabin"; font-weight: 700; line-height: 1.05; margin: 0 0 30px; letter-spacing: -1px; }}
.line {{ font: italic 44px/1.3 "EB Garamond"; color: #3d372f; margin: 0; max-width: 960px; }}
.icon {{ page: icon; width: 192px; height: 192px; break-after: page; background: #fbf8f2; }}
.icon img {{ display: block; width: 160px; height: 160px; margin: 16px; }}
</style></head><body>{''.join(pages)}</body></html>"""


def render(previews: list[Preview], mark: Path) -> dict[str, bytes]:
    """File name -> PNG bytes: each preview, then the icons."""
    import pypdfium2 as pdfium
    from weasyprint import HTML

    pdf_bytes = HTML(string=_html(previews, mark)).write_pdf()
    pdf = pdfium.PdfDocument(pdf_bytes)
    out: dict[str, bytes] = {}
    try:
        for i, p in enumerate(previews):
            img = pdf[i].render(scale=96 / 72).to_pil().convert("RGB")
            if img.size != PREVIEW:
                img = img.resize(PREVIEW)
            out[p.name] = _png(img)
        base = len(previews)
        icon = pdf[base].render(scale=96 / 72 * 4).to_pil().convert("RGB")
        for name, px in ICONS.items():
            out[name] = _png(icon.resize((px, px), 1))  # LANCZOS
    finally:
        pdf.close()
    return out


def _png(img) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
