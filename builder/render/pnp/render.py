"""Stage 3b's entry point: a build's print-and-play components, deck and PNG exports.

For every game built, ``pdf/<slug>-components.pdf`` (its cover and its kit's sheets:
:mod:`builder.render.pnp.kinds`, in the page order of a whole-file double-sided print when
it has backs: :func:`builder.render.pnp.cover.duplex_file`); for a whole build also
``pdf/pnp-deck.pdf`` (duplex, ordered the same way) and ``pdf/pnp-deck-gutterfold.pdf``
(:mod:`builder.render.pnp.deck`); and the PNG files of :mod:`builder.render.pnp.png`. Each
sheet is laid out by :mod:`builder.render.pnp.layout`, proved sound there, and drawn by
:mod:`builder.render.pnp.document`. Progress is logged to ``warbook.render.pnp``.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from ...settings import Settings
from .. import cards as cardart
from ..templating import overrides_of
from .cover import duplex_file
from .deck import deck_sheets
from .document import Renderer
from .kinds import game_sheets
from .owncards import fold_document
from .pieces import CARD_H, CARD_W, ComponentError, Piece
from .png import (
    DPI,
    bleed_size_text,
    card_images,
    export_pngs,
    pngs_from_sheets,
    save_png,
    tts_sheet,
    write_own_pngs,
    write_presets,
)

log = logging.getLogger("warbook.render.pnp")


def render_all(report, games, staging: Path, settings: Settings, *, whole: bool) -> dict:
    """Write the component PDFs of ``games`` (and, for a ``whole`` build, the deck) and the
    PNG exports into ``staging``, on ``settings.paper`` in ``settings.ink``. Returns timings
    in seconds."""
    import importlib.util

    if importlib.util.find_spec("pypdfium2") is None:
        raise ComponentError("the Python package pypdfium2 is missing (it renders the PNG "
                             "exports); run 'bash scripts/setup'")
    t0 = time.perf_counter()
    paper = settings.paper
    templates = overrides_of(settings.content_root)
    r = Renderer(paper, settings.ink, templates=templates, content_root=settings.content_root)
    pdf_dir = staging / "pdf"
    png_dir = staging / "png"
    pdf_dir.mkdir(parents=True, exist_ok=True)
    exports: list[tuple[Path, Piece]] = []
    written: list[Path] = []
    t_png = 0.0
    for checked in games:
        game = checked.game
        sheets, kit = game_sheets(r, game, paper)
        sheets = duplex_file(r, sheets)   # blank pages where a whole duplex print needs them
        target = pdf_dir / f"{game.slug}-components.pdf"
        n = r.write_pdf(sheets, target,
                        title=f"{game.title}: print-and-play components",
                        subject=f"Print-and-play components for {game.title}, "
                                f"{paper.label}",
                        author=game.designer, alts={p.name: p.title for p in kit.pieces})
        log.info(f"wrote pdf/{game.slug}-components.pdf ({n} sheets)")
        if kit.own:   # a game's own cards: their gutter fold, a file of its own
            fold = fold_document(r, game, kit.own, paper)
            n = r.write_pdf(fold, pdf_dir / f"{game.slug}-cards-gutterfold.pdf",
                            title=f"{game.title}: the cards, gutter fold",
                            subject=f"The cards of {game.title}, gutter fold, {paper.label}",
                            author=game.designer)
            log.info(f"wrote pdf/{game.slug}-cards-gutterfold.pdf ({n} sheets)")
        wanted = [(png_dir / game.slug / f"{p.name}.png", p) for p in kit.pieces]
        if r.ink.low:
            exports += wanted
        else:
            # full ink: cut each component out of the sheets just written
            t1 = time.perf_counter()
            written += pngs_from_sheets(target.read_bytes(), sheets, wanted)
            t_png += time.perf_counter() - t1
    # PNGs are always full colour (they are for screens and Tabletop Simulator): after a
    # low-ink build the components are drawn once more, in colour, one to a page
    pr = r
    if r.ink.low:
        pr = Renderer(paper, "full", share=r, templates=templates)
        t1 = time.perf_counter()
        written += export_pngs(pr, exports)
        t_png += time.perf_counter() - t1
    # a game's own cards: png/<slug>/cards/, cards-bleed/ and tts/ (always full colour)
    for checked in games:
        if getattr(checked.game, "decks", None):
            t1 = time.perf_counter()
            written += write_own_pngs(pr, checked.game, png_dir)
            t_png += time.perf_counter() - t1
            log.info(f"wrote png/{checked.game.slug}/cards, cards-bleed and tts (its own cards)")
    r.timings["png components"] = t_png
    if whole:
        book_title = report.content.book.title
        duplex, fold = deck_sheets(r, paper, book_title)
        n = r.write_pdf(duplex, pdf_dir / "pnp-deck.pdf",
                        title=f"{book_title}: print-and-play deck",
                        subject="52 poker-size cards, 63 x 88 mm, 9 a page, two back designs, "
                                "for a whole-file long-edge duplex print", duplex=True)
        log.info(f"wrote pdf/pnp-deck.pdf ({n} sheets)")
        n = r.write_pdf(fold, pdf_dir / "pnp-deck-gutterfold.pdf",
                        title=f"{book_title}: print-and-play deck, gutter fold",
                        subject="52 poker-size cards, 63 x 88 mm, gutter fold, two back designs")
        log.info(f"wrote pdf/pnp-deck-gutterfold.pdf ({n} sheets)")
        t1 = time.perf_counter()
        by_code, tts, bleed = card_images(pr)
        paths = []
        for name, img in by_code.items():
            path = png_dir / "cards" / f"{name}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            paths.append(path)
        for name, img in bleed.items():
            path = png_dir / "cards-bleed" / f"{name}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            paths.append(path)
            # and at the card printers' poker sizes, each written as it is made
            paths += write_presets(img, (CARD_W, CARD_H), png_dir / "cards-bleed", name)
        (png_dir / "tts").mkdir(parents=True, exist_ok=True)
        for d in cardart.BACK_DESIGNS:
            sheet, dpi = tts_sheet(tts, f"back-{d}")
            save_png(sheet, png_dir / "tts" / f"deck-{d}.png", dpi)
            save_png(tts[f"back-{d}"], png_dir / "tts" / f"back-{d}.png", dpi)
            paths += [png_dir / "tts" / f"deck-{d}.png", png_dir / "tts" / f"back-{d}.png"]
        written += paths
        r.timings["png cards + tts"] = time.perf_counter() - t1
        log.info(f"wrote png/cards ({len(by_code)} cards), png/cards-bleed (the same with 3 mm bleed,"
            f" {bleed_size_text()}) and png/tts (2 deck sheets, 2 backs)")
    log.info(f"wrote {len(written)} component and card PNGs at {DPI} dpi")
    total = time.perf_counter() - t0
    r.timings.update({k: v for k, v in pr.timings.items() if k not in r.timings})
    r.timings["total"] = total
    log.info(f"components: {r.pages} sheets in {total:.1f} s")
    return r.timings
