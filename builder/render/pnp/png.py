"""PNG exports at 300 dpi (recorded in the file): one per component (``png/<slug>/``), one
per card and back (``png/cards/``, and ``png/cards-bleed/`` with a 3 mm bleed for
print-on-demand services, and in its folders ``822x1122/`` and ``825x1125/`` at the sizes card
printers ask of a poker card: :data:`PRESETS`) and a Tabletop Simulator deck sheet per back
design (``png/tts/``). Every PNG carries an sRGB colour profile (:func:`srgb_profile`).

PNG exports are always in full colour (they are for screens and Tabletop Simulator): after a
full-ink build they are cut out of the sheets just written (:func:`pngs_from_sheets`), after
a low-ink build the pieces are drawn once more in colour (:func:`export_pngs`). Card images
are rendered from the vector art of the renderer's card library (:func:`card_images`).
"""

from __future__ import annotations

import logging
import math
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from weasyprint import CSS, HTML

from ...engine.core import full_deck
from .. import cards as cardart
from ..templating import shipped
from . import layout
from .document import Renderer, ref_bleed
from .pieces import CARD_H, CARD_W, Piece, mm

log = logging.getLogger("warbook.render.pnp")

DPI = 300
TTS_COLS, TTS_ROWS, TTS_MAX_W = 10, 7, 4096

#: The sizes (px at 300 dpi) card printers ask of a poker card's art with its bleed, by the
#: folder under ``cards-bleed/`` that holds them: 2.74 x 3.74 in (MakePlayingCards and
#: PrinterStudio's template) and 2.75 x 3.75 in, 1/8 in round 2.5 x 3.5 in (The Game
#: Crafter, DriveThruCards). The card keeps its size and sits in the middle; its 3 mm bleed
#: runs on, mirrored at its edge, into the few pixels more (docs/kit.md).
PRESETS: dict[str, tuple[int, int]] = {"822x1122": (822, 1122), "825x1125": (825, 1125)}
#: the card those sizes are for (mm): a poker card, 2.5 x 3.5 in; they are written for a
#: card within PRESET_NEAR of it (the French 52's 63 x 88 mm, a deck of size poker)
PRESET_CARD, PRESET_NEAR = (63.5, 88.9), 1.0


def export_pngs(renderer: Renderer, exports: list[tuple[Path, Piece]]) -> list[Path]:
    """Each piece drawn by ``renderer`` alone on a page the size of its trim (or of its
    ``png_box``), rasterised at 300 dpi."""
    if not exports:
        return []
    pages, css = [], []
    for i, (_, p) in enumerate(exports):
        box = p.png_box or layout.Box(0, 0, p.w, p.h)
        css.append(f"@page p{i} {{ size: {mm(box.w)} {mm(box.h)}; margin: 0; }}"
                   f" .p{i} {{ page: p{i}; }}")
        pages.append(
            f'<section class="page p{i}" style="width:{mm(box.w)};height:{mm(box.h)}">'
            f'<div class="item" style="left:{mm(-box.x)};top:{mm(-box.y)};width:{mm(p.w)};'
            f'height:{mm(p.h)}">{p.html((0.0, 0.0, 0.0, 0.0))}</div></section>')
    body = "".join(pages)
    html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>png</title></head>'
            f'<body class="{"low" if renderer.ink.low else "full"}">{body}</body></html>')
    stylesheet = CSS(string=renderer.base_css + "\n".join(css), font_config=renderer.font_config,
                     url_fetcher=renderer.fetcher)
    doc = HTML(string=html, base_url=str(shipped()), url_fetcher=renderer.fetcher).render(
        stylesheets=[stylesheet], font_config=renderer.font_config, cache=renderer.image_cache)
    data = doc.write_pdf()
    images = rasterise(data, [(p.png_box or layout.Box(0, 0, p.w, p.h), p.round)
                              for _, p in exports])
    out = []
    for (path, _), img in zip(exports, images):
        path.parent.mkdir(parents=True, exist_ok=True)
        save_png(img, path, DPI)
        out.append(path)
    return out

def rasterise(pdf_bytes: bytes, specs: list[tuple[layout.Box, bool]], dpi: int = DPI):
    """PIL images of the PDF's pages at ``dpi``, each exactly round(mm / 25.4 * dpi) px."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    pdf = pdfium.PdfDocument(pdf_bytes)
    images = []
    try:
        for i, (box, rnd) in enumerate(specs):
            page = pdf[i]
            fill = (255, 255, 255, 0) if rnd else (255, 255, 255, 255)
            bmp = page.render(scale=dpi / 72, fill_color=fill, rev_byteorder=True)
            img = bmp.to_pil()
            want = (layout.px(box.w) if dpi == 300 else round(box.w / 25.4 * dpi),
                    layout.px(box.h) if dpi == 300 else round(box.h / 25.4 * dpi))
            if img.size != want:
                if abs(img.size[0] - want[0]) <= 1 and abs(img.size[1] - want[1]) <= 1 \
                        and img.size[0] >= want[0] and img.size[1] >= want[1]:
                    img = img.crop((0, 0) + want)
                else:
                    img = img.resize(want, Image.LANCZOS)
            if rnd:
                img = img.convert("RGBA")
                k = 4
                mask = Image.new("L", (want[0] * k, want[1] * k), 0)
                ImageDraw.Draw(mask).ellipse((0, 0, want[0] * k - 1, want[1] * k - 1), fill=255)
                mask = mask.resize(want, Image.LANCZOS)
                img.putalpha(mask)
            elif img.mode != "RGB":
                img = img.convert("RGB")
            images.append(img)
            page.close()
    finally:
        pdf.close()
    return images


def pngs_from_sheets(pdf_bytes: bytes, sheets: list[layout.Sheet],
                     wanted: list[tuple[Path, Piece]]) -> list[Path]:
    """Each wanted piece rasterised at 300 dpi from its first appearance on the sheets: the
    page cropped to the item's trim (or to the piece's ``png_box`` inside it)."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    where: dict[str, tuple[int, layout.Item]] = {}
    for i, sh in enumerate(sheets):
        for it in sh.items:
            where.setdefault(it.name, (i, it))
            where.setdefault(it.name.split(":")[0], (i, it))    # backs: "stone-back:..."
    pdf = pdfium.PdfDocument(pdf_bytes)
    out = []
    k = layout.PT_PER_MM
    try:
        for path, piece in wanted:
            i, it = where[piece.name]
            W, H = sheets[i].size
            sub = piece.png_box or layout.Box(0, 0, piece.w, piece.h)
            box = layout.Box(it.box.x + sub.x, it.box.y + sub.y, sub.w, sub.h)
            page = pdf[i]
            fill = (255, 255, 255, 0) if piece.round else (255, 255, 255, 255)
            spare = 2 * 72 / DPI      # two pixels more on the right and at the bottom
            img = page.render(scale=DPI / 72, fill_color=fill, rev_byteorder=True,
                              crop=(box.x * k, max((H - box.bottom) * k - spare, 0),
                                    max((W - box.right) * k - spare, 0), box.y * k)).to_pil()
            page.close()
            want = (layout.px(box.w), layout.px(box.h))
            img = _exact(img, want)
            if piece.round:
                img = img.convert("RGBA")
                mask = Image.new("L", (want[0] * 4, want[1] * 4), 0)
                ImageDraw.Draw(mask).ellipse((0, 0, want[0] * 4 - 1, want[1] * 4 - 1), fill=255)
                img.putalpha(mask.resize(want, Image.LANCZOS))
            else:
                img = img.convert("RGB")
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            out.append(path)
    finally:
        pdf.close()
    return out


def save_png(img, path: Path, dpi: float) -> None:
    """``img`` as a PNG file at ``dpi``, tagged sRGB (:func:`srgb_profile`), at compression
    level 1 (fast)."""
    img.save(str(path), format="PNG", dpi=(dpi, dpi), compress_level=1,
             icc_profile=srgb_profile())


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The sRGB ICC profile every PNG carries (588 bytes, made once): the colours are sRGB
    (pdfium renders the RGB art as it is), and a print shop or an image program that sees no
    profile may assume another. Its creation date is fixed, so that a PNG is the same bytes
    every build."""
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[24:36] = struct.pack(">6H", 2026, 1, 1, 0, 0, 0)   # ICC header: dateTimeNumber
    return bytes(data)


def card_images(r: Renderer) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Every face and both backs, full colour: at 300 dpi and trim size (744 x 1039 px), at
    Tabletop Simulator size (409 x 571 px), and with bleed (815 x 1110 px: 3 mm), each
    rendered from the vector art, by name (``AS``, ``back-a``); the printers' sizes are
    made from the bleed images as they are written (:func:`write_presets`)."""
    import pypdfium2 as pdfium

    faces = [f"pnp-face-{c}" for c in full_deck()]
    backs = [f"pnp-back-{d}" for d in cardart.BACK_DESIGNS]
    bleed_faces = [f"pnp-bleedface-{c}" for c in full_deck()]
    lib = r.library(faces + backs + bleed_faces)
    sizes = {"print": (layout.px(CARD_W), layout.px(CARD_H)), "tts": tts_card_size()}
    #: print-on-demand card services take the art with 3 mm (1/8 in) bleed on every side
    bleed_size = (layout.px(CARD_W + 2 * layout.BLEED), layout.px(CARD_H + 2 * layout.BLEED))
    bleed_scale = bleed_px_per_pt((CARD_W, CARD_H))
    docs: dict[int, Any] = {}
    out: dict[str, dict[str, Any]] = {"print": {}, "tts": {}, "bleed": {}}
    codes = faces + backs + bleed_faces
    try:
        for code in codes:
            reader, idx = lib[code]
            doc = docs.get(id(reader))
            if doc is None:
                doc = docs[id(reader)] = pdfium.PdfDocument(r.library_data(reader))
            page = doc[idx]
            b = ref_bleed(code) * layout.PT_PER_MM
            name = code.rsplit("-", 1)[1] if "face-" in code else "back-" + code[-1]
            if code.startswith("pnp-bleedface-"):
                kinds = {}
            else:
                kinds = sizes
            for kind, want in kinds.items():
                scale = want[0] / (CARD_W * layout.PT_PER_MM)
                img = page.render(scale=scale, crop=(b, b, b, b), rev_byteorder=True).to_pil()
                out[kind][name] = _exact(img, want).convert("RGB")
            if code.startswith(("pnp-bleedface-", "pnp-back-")):
                img = page.render(scale=bleed_scale, rev_byteorder=True).to_pil()
                out["bleed"][name] = _exact(img, bleed_size).convert("RGB")
            page.close()
    finally:
        for d in docs.values():
            d.close()
    return out["print"], out["tts"], out["bleed"]


def _exact(img, want: tuple[int, int]):
    from PIL import Image

    if img.size == want:
        return img
    if img.size[0] >= want[0] and img.size[1] >= want[1] and \
            max(img.size[0] - want[0], img.size[1] - want[1]) <= 3:
        return img.crop((0, 0) + want)
    return img.resize(want, Image.LANCZOS)


def bleed_size_text() -> str:
    w, h = layout.px(CARD_W + 2 * layout.BLEED), layout.px(CARD_H + 2 * layout.BLEED)
    presets = presets_for((CARD_W, CARD_H))
    sizes = " and ".join(f"{pw} x {ph} px in {name}/" for name, (pw, ph) in presets.items())
    return f"{w} x {h} px" + (f"; for card printers {sizes}" if sizes else "")


# --------------------------------------------------------------------------- printers' sizes
def presets_for(size: tuple[float, float]) -> dict[str, tuple[int, int]]:
    """The printers' sizes (:data:`PRESETS`) a card of ``size`` (its trim, mm) is exported
    at: every one for a poker card, none for another size (a printer's template for a
    bridge or a mini card is another size: the 3 mm export is the one to start from)."""
    w, h = size
    if abs(w - PRESET_CARD[0]) > PRESET_NEAR or abs(h - PRESET_CARD[1]) > PRESET_NEAR:
        return {}
    bw, bh = layout.px(w + 2 * layout.BLEED), layout.px(h + 2 * layout.BLEED)
    return {name: (pw, ph) for name, (pw, ph) in PRESETS.items() if pw >= bw and ph >= bh}


def bleed_px_per_pt(size: tuple[float, float]) -> float:
    """The scale of the 3 mm bleed export of a card of ``size`` (mm): pixels a point, its
    width in whole pixels over its width in points (its height at the same scale)."""
    return layout.px(size[0] + 2 * layout.BLEED) / ((size[0] + 2 * layout.BLEED)
                                                    * layout.PT_PER_MM)


def preset_offsets(size: tuple[float, float], presets: dict[str, tuple[int, int]]
                   ) -> dict[str, tuple[int, int]]:
    """Where the 3 mm bleed export of a card of ``size`` (mm) lies in each of ``presets``:
    its top left corner, in whole pixels, so that its pixels are kept as they are (the
    card's centre within half a pixel of the image's)."""
    w, h = size
    k = bleed_px_per_pt(size) * layout.PT_PER_MM               # pixels a millimetre
    cx, cy = (layout.BLEED + w / 2) * k, (layout.BLEED + h / 2) * k   # the card's centre
    return {name: (math.floor(pw / 2 - cx + 0.5), math.floor(ph / 2 - cy + 0.5))
            for name, (pw, ph) in presets.items()}


def write_presets(img, size: tuple[float, float], folder: Path, name: str) -> list[Path]:
    """``img``, the 3 mm bleed export of a card of ``size`` (mm), written at each printers'
    size :func:`presets_for` gives, as ``folder/<preset>/<name>.png``; returns the paths.
    The card is not scaled: the 3 mm export is kept pixel for pixel in the middle
    (:func:`preset_offsets`), and the few pixels more round it (a fraction of a millimetre,
    all past the 3 mm bleed, so cut away) are its own edge mirrored, as print shops extend a
    bleed: no art is drawn again, and each image is written as it is made, not held."""
    presets = presets_for(size)
    at = preset_offsets(size, presets)
    paths = []
    for preset, (pw, ph) in presets.items():
        dx, dy = at[preset]
        path = folder / preset / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_png(mirror_pad(img, dx, dy, pw - img.width - dx, ph - img.height - dy), path, DPI)
        paths.append(path)
    return paths


def mirror_pad(img, left: int, top: int, right: int, bottom: int):
    """``img`` with ``left``, ``top``, ``right`` and ``bottom`` pixels more, each its edge's
    pixels mirrored (the rows or columns nearest the edge, in reverse order)."""
    from PIL import Image

    w, h = img.size
    if min(left, top, right, bottom) < 0 or max(left, right) > w or max(top, bottom) > h:
        raise ValueError(f"cannot mirror {left}, {top}, {right}, {bottom} px round {w} x {h}")
    wide = Image.new(img.mode, (w + left + right, h))
    wide.paste(img, (left, 0))
    if left:
        wide.paste(img.crop((0, 0, left, h)).transpose(Image.FLIP_LEFT_RIGHT), (0, 0))
    if right:
        wide.paste(img.crop((w - right, 0, w, h)).transpose(Image.FLIP_LEFT_RIGHT),
                   (left + w, 0))
    W = wide.width
    out = Image.new(img.mode, (W, h + top + bottom))
    out.paste(wide, (0, top))
    if top:
        out.paste(wide.crop((0, 0, W, top)).transpose(Image.FLIP_TOP_BOTTOM), (0, 0))
    if bottom:
        out.paste(wide.crop((0, h - bottom, W, h)).transpose(Image.FLIP_TOP_BOTTOM),
                  (0, top + h))
    return out


def tts_card_size() -> tuple[int, int]:
    cw = TTS_MAX_W // TTS_COLS                      # 409
    return cw, round(cw * CARD_H / CARD_W)          # 571


def tts_sheet(images: dict[str, Any], back: str) -> tuple[Any, float]:
    """A Tabletop Simulator deck sheet: 10 x 7 cards, at most 4096 px wide; the 52 faces in
    deck order and, in the last slot, the back (TTS shows that slot for hidden cards).
    Returns the image and its resolution in dpi."""
    from PIL import Image

    cw, ch = tts_card_size()
    sheet = Image.new("RGB", (cw * TTS_COLS, ch * TTS_ROWS), (255, 255, 255))
    for k, card in enumerate(full_deck()):
        r, c = divmod(k, TTS_COLS)
        sheet.paste(images[str(card)], (c * cw, r * ch))
    r, c = divmod(TTS_COLS * TTS_ROWS - 1, TTS_COLS)
    sheet.paste(images[back], (c * cw, r * ch))
    return sheet, cw / (CARD_W / 25.4)



# --------------------------------------------------------------------------- a game's own cards
def own_card_images(r: Renderer, game) -> dict[str, dict[str, Any]]:
    """Every distinct card and the back of each of ``game``'s own decks, full colour, from
    the vector art Faces draws (``r``'s library): by deck name, ``{"print": {code: image at
    trim size}, "bleed": {code: with 3 mm bleed}, "tts": {code: at Tabletop Simulator size},
    "back": (print, bleed, tts) images of the back, "size": (w, h) mm, "copies": [codes],
    "key": the deck's key}``."""
    import pypdfium2 as pdfium

    from ..faces import back_ref
    from .owncards import own_code

    r.fetcher.faces.add(game)
    out: dict[str, dict[str, Any]] = {}
    docs: dict[int, Any] = {}
    try:
        for spec in game.decks:
            key, size = spec.deck.key, tuple(float(v) for v in spec.size_mm)
            codes = [c.code for c in spec.deck.cards]
            refs = [own_code(f"{key}/{c}", False) for c in codes] + [
                own_code(back_ref(key), False)]
            lib = r.library(refs)
            w, h = size
            want = {"print": (layout.px(w), layout.px(h)),
                    "bleed": (layout.px(w + 2 * layout.BLEED), layout.px(h + 2 * layout.BLEED)),
                    "tts": own_tts_size(size)}
            imgs: dict[str, Any] = {"print": {}, "bleed": {}, "tts": {}, "size": size,
                                    "copies": [c.code for c in spec.deck.all()], "key": key}
            for code, ref in zip(codes + ["_back"], refs):
                reader, idx = lib[ref]
                doc = docs.get(id(reader))
                if doc is None:
                    doc = docs[id(reader)] = pdfium.PdfDocument(r.library_data(reader))
                page = doc[idx]
                b = layout.BLEED * layout.PT_PER_MM
                for kind, px in want.items():
                    if kind == "bleed":
                        img = page.render(scale=bleed_px_per_pt(size),
                                          rev_byteorder=True).to_pil()
                    else:
                        scale = px[0] / (w * layout.PT_PER_MM)
                        img = page.render(scale=scale, crop=(b, b, b, b),
                                          rev_byteorder=True).to_pil()
                    imgs[kind][code] = _exact(img, px).convert("RGB")
                page.close()
            imgs["back"] = tuple(imgs[k].pop("_back") for k in ("print", "bleed", "tts"))
            out[spec.name] = imgs
    finally:
        for d in docs.values():
            d.close()
    return out


def _write_own_presets(imgs: dict[str, Any], where: Path) -> list[Path]:
    """A poker-size deck's cards and back at the printers' sizes, ``where/<preset>/``."""
    paths = []
    for code, img in dict(imgs["bleed"], _back=imgs["back"][1]).items():
        paths += write_presets(img, imgs["size"], where, code)
    return paths


def own_tts_size(size: tuple[float, float]) -> tuple[int, int]:
    """A card's size on a Tabletop Simulator sheet: 409 px wide (ten to 4096 px), its
    height in proportion."""
    cw = TTS_MAX_W // TTS_COLS
    return cw, round(cw * size[1] / size[0])


def own_tts_sheets(images: dict[str, Any], back: Any, copies: list[str],
                   size: tuple[float, float]) -> list[tuple[Any, float]]:
    """Tabletop Simulator deck sheets of a game's own deck: 10 x 7 slots, at most 4096 px
    wide, one slot per copy (so that the deck TTS imports holds each card as many times as
    its count) in the deck file's order, 69 a sheet; the last slot of every sheet is the
    back (TTS shows it for hidden cards). Returns each image and its resolution in dpi."""
    from PIL import Image

    cw, ch = own_tts_size(size)
    per = TTS_COLS * TTS_ROWS - 1
    out = []
    for k in range(0, len(copies), per):
        sheet = Image.new("RGB", (cw * TTS_COLS, ch * TTS_ROWS), (255, 255, 255))
        for i, code in enumerate(copies[k:k + per]):
            r, c = divmod(i, TTS_COLS)
            sheet.paste(images[code], (c * cw, r * ch))
        r, c = divmod(per, TTS_COLS)
        sheet.paste(back, (c * cw, r * ch))
        out.append((sheet, cw / (size[0] / 25.4)))
    return out


def write_own_pngs(r: Renderer, game, png_dir: Path) -> list[Path]:
    """``png/<slug>/cards/<deck>/<code>.png`` (300 dpi, trim size), ``cards-bleed/`` (3 mm
    bleed; a poker-size deck's also at the printers' sizes, in ``cards-bleed/<deck>/822x1122/``
    and ``825x1125/``), their backs (``_back.png``), and ``png/<slug>/tts/<deck>-<n>.png``
    with ``<deck>-back.png``, for each of the game's own decks."""
    paths: list[Path] = []
    base = png_dir / game.slug
    for name, imgs in own_card_images(r, game).items():
        for kind, folder in (("print", "cards"), ("bleed", "cards-bleed")):
            where = base / folder / name
            where.mkdir(parents=True, exist_ok=True)
            for code, img in imgs[kind].items():
                save_png(img, where / f"{code}.png", DPI)
                paths.append(where / f"{code}.png")
            back = imgs["back"][0 if kind == "print" else 1]
            save_png(back, where / "_back.png", DPI)
            paths.append(where / "_back.png")
        paths += _write_own_presets(imgs, base / "cards-bleed" / name)
        tts = base / "tts"
        tts.mkdir(parents=True, exist_ok=True)
        dpi = DPI
        for n, (sheet, dpi) in enumerate(own_tts_sheets(imgs["tts"], imgs["back"][2],
                                                        imgs["copies"], imgs["size"]), 1):
            save_png(sheet, tts / f"{name}-{n}.png", dpi)
            paths.append(tts / f"{name}-{n}.png")
        save_png(imgs["back"][2], tts / f"{name}-back.png", dpi)
        paths.append(tts / f"{name}-back.png")
    return paths
