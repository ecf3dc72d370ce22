"""The kit vocabulary made into pieces and sheets: one builder per kind of component.

A game's ``kit`` (read and checked by :mod:`builder.content.kit`) lists components; each builder
here turns one into its pieces (what is cut out, and exported as PNG), the sheets they are
laid out on, its row of the cover's table and any cutting instructions. Nothing here knows
a game: words come from the game's quick reference and rules (:class:`Words`), colours from
its ``accent`` and ``player_colours``, and drawings the vocabulary cannot express from its
engine's art hook (``GameDef.art``), called with an :class:`ArtContext`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from ...content.kit import Section
from ...engine.core import Card
from ...engine.drawing import ArtContext
from ...settings import Paper
from . import art, layout
from .cover import cover_sheet, print_steps
from .deck import duplex_card_sheets
from .document import Renderer
from .owncards import chosen_decks, own_duplex_sheets, size_text
from .pieces import (
    AID_H,
    AID_W,
    CARD_H,
    CARD_W,
    ComponentError,
    CoverRow,
    Kit,
    Piece,
    back_sheet,
    number_sheets,
    sheet_grid,
)
from .words import Words


class _MatDraw:
    """The :class:`~builder.engine.drawing.Drawing` an art hook gets: the helpers of
    :mod:`.art`, exactly those the interface declares, except that ``text`` sets no word
    under ``art.MAT_MIN_PT`` (what a player reads across the table)."""

    SPACE_W, SPACE_H, RED, SERIF = art.SPACE_W, art.SPACE_H, art.RED, art.SERIF
    rect = staticmethod(art.rect)
    line = staticmethod(art.line)
    suit = staticmethod(art.suit)
    card_space = staticmethod(art.card_space)
    mat_frame = staticmethod(art.mat_frame)
    arrow_up = staticmethod(art.arrow_up)

    @staticmethod
    def text(x: float, y: float, s: str, size_pt: float, *, fill: str = art.INK,
             anchor: str = "middle", weight: int = 400, family: str = art.FONT,
             italic: bool = False, rotate: float = 0, spacing: float = 0) -> str:
        return art.text(x, y, s, max(size_pt, art.MAT_MIN_PT), fill=fill, anchor=anchor,
                        weight=weight, family=family, italic=italic, rotate=rotate,
                        spacing=spacing)


MAT_DRAW = _MatDraw()


# --------------------------------------------------------------------------- words
def section_views(words: Words, sections) -> list[dict[str, Any]]:
    """Sections as the templates print them: a title, its rule reference and its parts,
    each (kind, value) with the value ready to print."""
    quick = words.quick
    out = []
    for s in sections:
        parts = []
        for kind, value in s.parts:
            if kind in ("lines", "paragraphs"):
                start, stop = value
                parts.append((kind, quick[start:stop]))
            elif kind == "rule":
                parts.append(("html", Markup("").join(words.body(r) for r in value)))
            elif kind == "option":
                parts.append(("paragraphs", [words.option_text(value)]))
            else:
                parts.append(("html", words.block(value)))
        out.append({"title": s.title, "ref": words.ref(s.ref) if s.ref else "",
                    "parts": parts})
    return out


def _default_sections():
    return [Section(title="Quick reference", parts=[("lines", (0, None))])]


def rows_of(per_sheet: int) -> tuple[int, int]:
    return (1, 1) if per_sheet == 1 else (2, 1) if per_sheet == 2 else (2, 2)


def sheet_numbers(first: int, count: int) -> str:
    return ", ".join(str(first + i) for i in range(count))


# --------------------------------------------------------------------------- kinds
def player_aid(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    names = game.player_names
    sections = section_views(words, p["sections"] or _default_sections())
    aids = []
    for pid in sorted(names):
        who = f"Player aid · {names[pid]}"
        aids.append(Piece(f"aid-{pid}", f"Player aid ({who})", AID_W, AID_H, 0.0,
                          lambda bl, who=who: str(r.texts.aid_sections(
                              words.card, who, r.ink.c(game.accent), AID_W, AID_H, bl, sections))))
    per = p["per_sheet"]
    cols, rows = rows_of(per)
    label = p["label"] or "player aids"
    sheets = [sheet_grid(paper, False, label, aids[i:i + per], cols, rows, 0.0, "aid")
              for i in range(0, len(aids), per)]
    row = CoverRow(p["row"] or "Player aid (the quick reference)", str(len(aids)),
                   f"{AID_W:g} x {AID_H:g} mm", sheet_numbers(first, len(sheets)))
    return Kit(sheets, [row], aids, [p["how"]] if p["how"] else [])


def tokens(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    d = float(p["diameter"])
    box = art.token_box(d)
    off = (box - d) / 2
    stem = p["stem"]

    def token(side: str, label: str, name: str) -> Piece:
        return Piece(name, f"{p['name']}, {side}", box, box, 0.0,
                     lambda bl: art.svg(box, box, art.stone_token(r.ink, side, label, d), bl),
                     png_box=layout.Box(off, off, d, d), round=True)

    fronts = [token("front", p["front"], f"{stem}-front" if i == 1 else f"{stem}-front-{i}")
              for i in range(1, p["count"] + 1)]
    back = token("back", p["back"], f"{stem}-back") if p["back"] is not None else None
    label = p["label"] or f"{p['name'].lower()}s"
    sheets = []
    for i in range(0, len(fronts), 6):
        front_sheet = sheet_grid(paper, False, f"{label}, fronts" if back else label,
                                 fronts[i:i + 6], 3, 2, 6.0, "token",
                                 side="front" if back else "single")
        sheets.append(front_sheet)
        if back is not None:
            sheets.append(back_sheet(front_sheet, f"{label}, backs", lambda it: back))
    row = CoverRow(p["row"] or p["name"], str(p["count"]),
                   f"{d:g} mm round, in a {box:g} mm square cut box",
                   sheet_numbers(first, len(sheets)))
    pieces = [fronts[0]] + ([back] if back else [])
    return Kit(sheets, [row], pieces, [p["how"]] if p["how"] else [])


TRACK_W, TRACK_H = 267.0, 180.0


def track_cells(count: int, layout: str) -> tuple[int, int, list[tuple[int, int]]]:
    """(columns, rows, the grid position of each space in order) for a one-sheet track:
    ``grid`` reads left to right on every row, ``snake`` turns at each row's end, ``ring``
    runs clockwise round the edge of the board from its top left corner."""
    if layout == "ring":
        cols = max(3, math.ceil((count + 4) / 4 * 1.3))
        rows = max(3, math.ceil((count + 4) / 2 - cols))
        while 2 * (cols + rows) - 4 < count:
            rows += 1
        ring = ([(c, 0) for c in range(cols)] + [(cols - 1, r) for r in range(1, rows)]
                + [(c, rows - 1) for c in range(cols - 2, -1, -1)]
                + [(0, r) for r in range(rows - 2, 0, -1)])
        return cols, rows, ring[:count]
    cols = 10
    rows = math.ceil(count / cols)
    cells = []
    for i in range(count):
        row, col = divmod(i, cols)
        if layout == "snake" and row % 2:
            col = cols - 1 - col
        cells.append((col, row))
    return cols, rows, cells


def score_track_svg(r: Renderer, game, p: dict, w: float, h: float) -> str:
    ink = r.ink
    accent = game.accent
    values = list(range(p["from"], p["to"] + 1))
    cols, rows, cells = track_cells(len(values), p["layout"])
    top, margin = 16.0, 6.0
    cell = min((w - 2 * margin) / cols, (h - top - margin) / rows)
    x0 = (w - cols * cell) / 2
    out = [art.mat_frame(ink, w, h, accent),
           art.text(margin + 2, 10.5, game.title, 12, anchor="start", weight=700,
                    family=art.SERIF, fill=ink.c(accent)),
           art.text(w - margin - 2, 10.5, p["name"].upper(), art.MAT_MIN_PT, anchor="end", weight=700,
                    fill=ink.c("#444444"), spacing=0.5)]
    for k, (value, (col, row)) in enumerate(zip(values, cells)):
        x, y = x0 + col * cell, top + row * cell
        strong = value % 5 == 0
        out.append(art.rect(x + 0.5, y + 0.5, cell - 1, cell - 1, rx=1.5,
                            fill=ink.tint(accent, 0.22 if strong else 0.08),
                            stroke=ink.c(accent), sw=0.3))
        out.append(art.text(x + cell / 2, y + cell / 2 + 2.4, str(value), min(12, cell * 0.9),
                            weight=700 if strong else 400, fill=ink.c(art.INK)))
        if k == 0:
            out.append(art.text(x + cell / 2, y + cell - 2, "START", art.MAT_MIN_PT,
                                fill=ink.c("#444444"), spacing=0.3))
    return "".join(out)


def score_track(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    piece = Piece("score-track", p["name"], TRACK_W, TRACK_H, 0.0,
                  lambda bl: art.svg(TRACK_W, TRACK_H, score_track_svg(r, game, p, TRACK_W,
                                                                        TRACK_H), bl))
    sheet = sheet_grid(paper, True, p["label"] or p["name"].lower(), [piece], 1, 1, 0.0, "track")
    row = CoverRow(p["row"] or f"{p['name']} ({p['from']} to {p['to']}, one sheet)", "1",
                   f"{TRACK_W:g} x {TRACK_H:g} mm (landscape)", str(first))
    how = p["how"] or (f"{p['name']}: a coin or counter for each of the {p['players']} "
                       f"players, on its first space at the start.")
    return Kit([sheet], [row], [piece], [how])


def mat(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    names = game.player_names
    w, h = p["size"]
    if p["per"] == "player":
        variants = [{"player": pid, "stem": f"{p['stem']}-{pid}", "params": {},
                     "who": p["who"], "text": None, "panel": None}
                    for pid in (p["players"] or sorted(names))]
    else:
        variants = [dict(v, player=None, stem=v["stem"] or p["stem"])
                    for v in (p["copies"] or [{"params": {}, "who": p["who"], "text": None,
                                               "stem": None, "panel": None}])]
    pieces = []
    for v in variants:
        pid = v["player"]
        colour = game.player_colours.get(pid, game.accent) if pid else game.accent
        params = dict(p["params"] or {})
        params.update(v["params"])
        ctx = ArtContext(MAT_DRAW, r.ink, w, h, colour, game.accent, dict(game.player_colours),
                         dict(names), pid, params)
        who = (v["who"] or p["who"] or "").replace("{name}", names.get(pid, "") if pid else "")
        sections = section_views(words, v["text"] or p["text"] or [])
        title = f"{p['name']} ({names[pid]})" if pid else p["name"]
        panel = v["panel"] or p["panel"]
        # ``bleed: true``: the art colours the mat to its trim (a ground), and runs on past it
        pieces.append(Piece(v["stem"], title, w, h, layout.BLEED if p["bleed"] else 0.0,
                            lambda bl, ctx=ctx, who=who, sections=sections, panel=panel:
                            draw_mat(r, game, words, p, ctx, who, sections, panel, bl)))
    per = p["per_sheet"]
    label = p["label"] or f"{p['name'].lower()}s"
    sheets = []
    for i in range(0, len(pieces), per):
        chunk = pieces[i:i + per]
        shown = [names[v["player"]] for v in variants[i:i + per] if v["player"]]
        sheets.append(sheet_grid(paper, p["landscape"], label + (f" ({', '.join(shown)})"
                                                                   if shown else ""),
                                 chunk, 1, per, 0.0, "mat"))
    size = f"{w:g} x {h:g} mm" + (" (landscape)" if p["landscape"] else "")
    row = CoverRow(p["row"] or p["name"], str(len(pieces)), size,
                   sheet_numbers(first, len(sheets)))
    return Kit(sheets, [row], pieces, [p["how"]] if p["how"] else [])


def draw_mat(r: Renderer, game, words: Words, p: dict, ctx: ArtContext, who: str,
             sections: list, panel, bleed: tuple) -> str:
    if p["art"]:
        body = game.gamedef.art[p["art"]](replace(ctx, bleed=tuple(bleed)))
    else:
        body = art.mat_frame(ctx.ink, ctx.w, ctx.h, ctx.colour)
    out = art.svg(ctx.w, ctx.h, body, bleed)
    if sections or who:
        x, y, pw, ph = panel or (6.0, 6.0, ctx.w - 12.0, ctx.h - 12.0)
        out += str(r.texts.panel(words.card, ctx.ink.c(ctx.colour), bleed[0] + x, bleed[1] + y,
                                 pw, ph, sections, p["title"], who))
    return out


def round_tracker_svg(r: Renderer, game, p: dict, w: float, h: float) -> str:
    ink, accent = r.ink, game.accent
    out = [art.mat_frame(ink, w, h, accent),
           art.text(7, 11, game.title, 12, anchor="start", weight=700, family=art.SERIF,
                    fill=ink.c(accent)),
           art.text(w - 7, 11, "ROUND TRACKER", art.MAT_MIN_PT, anchor="end", weight=700,
                    fill=ink.c("#444444"), spacing=0.5)]
    per_row = 10
    rounds = p["rounds"]
    cw, ch = 17.0, 15.0
    x0 = (w - per_row * cw) / 2
    lines = math.ceil(rounds / per_row)
    for row in range(lines):
        y = 16 + row * (ch + 2)
        for k in range(min(per_row, rounds - row * per_row)):
            v = row * per_row + k + 1
            x = x0 + k * cw
            out.append(art.rect(x + 0.5, y, cw - 1, ch, fill=ink.tint(accent, 0.10 if v % 5 else 0.22),
                                stroke=ink.c(accent), sw=0.3, rx=1.5))
            out.append(art.text(x + cw / 2, y + ch / 2 + 2.2, str(v), 12,
                                weight=700 if v % 5 == 0 else 400, fill=ink.c(art.INK)))
    y = 16 + lines * (ch + 2) + 5
    out.append(art.text(x0, y - 1.2, "LAPS (add)", art.MAT_MIN_PT, anchor="start", weight=700,
                        fill=ink.c("#444444")))
    for k in range(p["laps"]):
        x = x0 + k * cw
        out.append(art.rect(x + 0.5, y, cw - 1, 12, stroke=ink.c("#777777"), sw=0.3, rx=1.5,
                            fill=ink.tint("#777777", 0.06)))
        out.append(art.text(x + cw / 2, y + 8, f"+{k * rounds}", 9, fill=ink.c("#333333")))
    return "".join(out)


def round_tracker(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    tw = 184.0
    lines = math.ceil(p["rounds"] / 10)
    th = 16 + lines * 17 + 5 + 12 + (24 if p["text"] else 6)
    sections = section_views(words, p["text"] or [])

    def draw(bl):
        out = art.svg(tw, th, round_tracker_svg(r, game, p, tw, th), bl)
        if sections:
            y = 16 + lines * 17 + 5 + 14
            out += str(r.texts.panel(words.card, r.ink.c(game.accent), bl[0] + 7.0, bl[1] + y,
                                     tw - 14.0, th - y - 4, sections, False, ""))
        return out

    piece = Piece("round-tracker", "Round tracker", tw, th, 0.0, draw)
    sheet = sheet_grid(paper, False, p["label"] or "round tracker", [piece], 1, 1, 0.0,
                       "tracker")
    total = p["rounds"] * p["laps"]
    row = CoverRow(p["row"] or f"Round tracker (rounds 1 to {total})", "1",
                   f"{tw:g} x {th:g} mm", str(first))
    return Kit([sheet], [row], [piece], [p["how"]] if p["how"] else [])


def deck(r: Renderer, game, words: Words, p: dict, paper: Paper, first: int) -> Kit:
    """The game's own cards (``cards``: all 52, some suits, or a list), nine a sheet, each
    sheet of faces followed by its backs (design ``back``) for a long-edge duplex print."""
    if getattr(game, "decks", None):
        return own_deck(r, game, p, paper, first)
    cards = [Card.parse(c) for c in p["cards"]]
    sheets = duplex_card_sheets(paper, cards, p["back"], r.ink.low, p["label"] or "cards")
    row = CoverRow(p["row"] or f"Playing cards, {len(cards)} faces and their backs",
                   str(len(cards)), f"{CARD_W:g} x {CARD_H:g} mm (poker)",
                   f"{first} to {first + len(sheets) - 1}")
    # how to print them is the cover's first steps (the whole file, double-sided): here only
    # what is the cards' own
    how = p["how"] or "Cards: cut from the face side, along the fronts' crop marks."
    return Kit(sheets, [row], [], [how])


def own_deck(r: Renderer, game, p: dict, paper: Paper, first: int) -> Kit:
    """A game's own cards (``decks:``): the decks the component chooses (``deck``, else
    all), each card as many times as its count, drawn by Faces at the deck's size
    (:mod:`.owncards`); a cover row per deck."""
    r.fetcher.faces.add(game)
    decks = chosen_decks(game, p)
    sheets: list[layout.Sheet] = []
    rows = []
    for d in decks:
        named = f"{game.title}, {d.name}" if len(game.decks) > 1 else game.title
        label = p["label"] or (f"{d.name} cards" if len(game.decks) > 1 else "cards")
        if p["label"] and len(decks) > 1:
            label = f"{p['label']} ({d.name})"
        part = own_duplex_sheets(paper, d, r.ink.low, label)
        n = len(d.distinct)
        rows.append(CoverRow(
            p["row"] if p["row"] and len(decks) == 1 else
            f"{named} cards, {n} {'face' if n == 1 else 'faces'} and their backs",
            str(len(d.copies)), size_text(d.size),
            f"{first + len(sheets)} to {first + len(sheets) + len(part) - 1}"))
        sheets += part
    how = p["how"] or ("Cards: cut from the face side, along the fronts' crop marks. "
                       f"Rather fold than print double-sided? {game.slug}-cards-gutterfold.pdf "
                       "holds the same cards, each face beside its back, to fold and glue.")
    return Kit(sheets, rows, [], [how], own=decks)


BUILDERS = {"player-aid": player_aid, "tokens": tokens, "score-track": score_track,
            "mat": mat, "round-tracker": round_tracker, "deck": deck}


def game_kit(r: Renderer, game, paper: Paper) -> Kit:
    """The game's whole kit, its components in the order game.yaml lists them; sheet 1 is
    the cover, so the components' sheets are numbered from 2."""
    words = Words(game)
    kit = Kit([], [], [], [])
    for c in game.kit:
        builder = BUILDERS.get(c.kind)
        if builder is None:  # the loader lets no other kind through
            raise ComponentError(f"{c.where.path}:{c.where.line}: no builder for '{c.kind}'")
        part = builder(r, game, words, c.params, paper, len(kit.sheets) + 2)
        kit.sheets += part.sheets
        kit.rows += part.rows
        kit.pieces += part.pieces
        kit.steps += part.steps
        kit.own += part.own
    if not kit.sheets:
        raise ComponentError(f"{game.slug}: the kit makes no sheets")
    kit.sheets, number = pack(kit.sheets)
    if any(len(layout.bands(s.items)) > 1 for s in kit.sheets):
        kit.steps.append("A sheet holding two blocks of pieces: cut it in two first, along "
                         "the line between them, then cut each block on its own lines.")
    for row in kit.rows:  # the sheets' numbers as packed (the cover is sheet 1)
        row.sheets = _renumber(row.sheets, {old + 2: new + 2 for old, new in number.items()})
    return kit


def _renumber(text: str, number: dict[int, int]) -> str:
    """A cover row's sheet numbers ("2, 3", "4 to 9") after packing, repeats dropped."""
    if " to " in text:
        a, b = (int(v) for v in text.split(" to "))
        a, b = number.get(a, a), number.get(b, b)
        return str(a) if a == b else f"{a} to {b}"
    seen: list[str] = []
    for v in text.split(", "):
        v = str(number.get(int(v), int(v))) if v.strip().isdigit() else v
        if v not in seen:
            seen.append(v)
    return ", ".join(seen)


def _shift(sheet: layout.Sheet, dy: float, band: int | None = None) -> None:
    for it in sheet.items:
        it.box = layout.Box(it.box.x, it.box.y + dy, it.box.w, it.box.h)
        if band is not None:
            it.band = band


def pack(sheets: list[layout.Sheet]) -> tuple[list[layout.Sheet], dict[int, int]]:
    """Put a single-sided sheet's pieces on the sheet before it (a single sheet, or the
    front of a duplex pair, whose back then has nothing behind them) when both blocks fit
    one above the other, :data:`layout.BAND_GAP` apart, the stack centred on the page; returns
    the sheets and, for each sheet given (by index), the index of the sheet it went onto.
    Five stone tokens no longer take a whole sheet, nor a round tracker."""
    out: list[layout.Sheet] = []
    number: dict[int, int] = {}
    for i, s in enumerate(sheets):
        host = None
        if out and out[-1].side in ("single", "front"):
            host = -1
        elif len(out) > 1 and out[-1].side == "back" and out[-2].side == "front":
            host = -2
        if (host is not None and s.side == "single" and s.items and not s.html
                and out[host].landscape == s.landscape and not out[host].html
                and out[host].fold_y is None and s.fold_y is None and _stack(out, host, s)):
            number[i] = len(out) + host
        else:
            out.append(s)
            number[i] = len(out) - 1
    return out, number


def _stack(out: list[layout.Sheet], host: int, s: layout.Sheet) -> bool:
    """Stack ``s`` under the sheet ``out[host]`` if the two fit and the layout proves sound."""
    import copy

    h = out[host]
    top, low = h.bleed_box(), s.bleed_box()
    _, page_h = h.size
    total = top.h + layout.BAND_GAP + low.h
    y0 = (page_h - total) / 2
    trial, piece = copy.deepcopy(h), copy.deepcopy(s)
    bands = len(layout.bands(trial.items))
    _shift(trial, y0 - top.y)
    _shift(piece, y0 + top.h + layout.BAND_GAP - low.y, band=bands)
    trial.items += piece.items
    # two sheets of one kind stacked read once ("player aids", not "player aids; player aids")
    trial.title = h.title if s.title in h.title.split("; ") else f"{h.title}; {s.title}"
    trial.number, trial.total = 99, 99  # the label's room, at its widest
    try:
        layout.finish(trial)
    except layout.LayoutError:
        return False
    trial.marks, trial.label = [], None
    out[host] = trial
    if host == -2:  # the back stays behind the front's pieces
        back = copy.deepcopy(out[-1])
        _shift(back, y0 - top.y)
        try:
            layout.finish(back)
        except layout.LayoutError:
            out[host] = h
            return False
        back.marks, back.label = [], None
        out[-1] = back
    return True


def game_sheets(r: Renderer, game, paper: Paper) -> tuple[list[layout.Sheet], Kit]:
    """A game's component sheets, numbered, its cover first; and its kit (the pieces
    exported as PNG)."""
    kit = game_kit(r, game, paper)
    duplex = []
    for i, s in enumerate(kit.sheets):
        if s.side == "back":
            duplex.append((i + 1, i + 2))      # the front is the sheet before (cover is 1)
    need = "; ".join(f"{c['name']} × {c['count']}" if int(c.get("count", 1)) != 1
                     else str(c["name"]) for c in game.components)
    cover = cover_sheet(r, paper, game.title, "Print-and-play components", kit.rows, need,
                        print_steps(paper, duplex, kit.steps), "The rules call for:")
    return number_sheets([cover] + kit.sheets), kit

