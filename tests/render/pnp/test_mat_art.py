"""The play mats an engine draws (``GameDef.art``) for every mat of the shipped kits, each
player's and each copy's, read back as SVG: what is drawn stays on the mat inside its
frame and off the panel kept for the rules text, the card spaces hold a card and do not
overlap, and no text is empty.

The mat sizes, panels and params come from each game.yaml's kit; the card-space size from
the poker card (63 x 88 mm) plus the 0.5 mm the docs give around it."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from builder.check import run_check
from builder.render.pnp import art
from builder.render.pnp.art import FRAME_INSET, FRAME_LINE
from builder.render.pnp.kinds import MAT_DRAW, ArtContext

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"
CARD_W, CARD_H = 63.0, 88.0
PT = 25.4 / 72           # mm in a point


def mats():
    for gr in run_check(ROOT / "content").games:
        game = gr.game
        for c in game.kit:
            p = c.params
            if c.kind != "mat" or not p.get("art"):
                continue
            fn = game.gamedef.art[p["art"]]
            if p.get("per") == "player":
                variants = [(pid, {}) for pid in (p.get("players") or sorted(game.player_names))]
            else:
                variants = [(None, v.get("params") or {}) for v in (p.get("copies") or [{}])]
            for pid, extra in variants:
                params = dict(p.get("params") or {})
                params.update(extra)
                colour = game.player_colours.get(pid, game.accent) if pid else game.accent
                w, h = p["size"]
                # the drawing helpers as the build gives them to a mat (no word under 9 pt)
                ctx = ArtContext(MAT_DRAW, art.Ink("full"), w, h, colour, game.accent,
                                 dict(game.player_colours), dict(game.player_names), pid, params)
                which = pid or "-".join(f"{k}={v}" for k, v in sorted(extra.items())) or "one"
                yield pytest.param(fn, ctx, p.get("panel"), id=f"{game.slug}-{p['art']}-{which}")


def _rotate(x, y, a, cx, cy):
    t = math.radians(a)
    dx, dy = x - cx, y - cy
    return cx + dx * math.cos(t) - dy * math.sin(t), cy + dx * math.sin(t) + dy * math.cos(t)


def _rotation(el) -> tuple[float, float, float] | None:
    m = re.match(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", el.get("transform", ""))
    return tuple(map(float, m.groups())) if m else None


def shapes(body: str):
    """(kind, x0, y0, x1, y1, element) of every rect and text on the mat, in mat mm, with
    rotations applied (a text's box from its anchor, size and a narrow 0.45 em a letter)."""
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>')

    def walk(el):
        tag = el.tag.replace(SVG, "")
        if tag == "rect":
            x, y = float(el.get("x")), float(el.get("y"))
            corners = [(x, y), (x + float(el.get("width")), y + float(el.get("height")))]
            yield "rect", corners, el
        elif tag == "text":
            x, y, size = float(el.get("x")), float(el.get("y")), float(el.get("font-size"))
            width = 0.45 * size * len(el.text or "")
            left = {"start": x, "end": x - width}.get(el.get("text-anchor"), x - width / 2)
            yield "text", [(left, y - 0.7 * size), (left + width, y + 0.2 * size)], el
        for child in el:
            yield from walk(child)

    for kind, corners, el in walk(root):
        pts = [corners[0], corners[1], (corners[0][0], corners[1][1]),
               (corners[1][0], corners[0][1])]
        for holder in _ancestors(root, el):   # its own rotation first, then its groups'
            turn = _rotation(holder)
            if turn:
                pts = [_rotate(x, y, *turn) for x, y in pts]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        yield kind, min(xs), min(ys), max(xs), max(ys), el


def _ancestors(root, target):
    """``target`` and the elements above it, innermost first."""
    path = []

    def find(el):
        if el is target:
            path.append(el)
            return True
        for child in el:
            if find(child):
                path.append(el)
                return True
        return False

    find(root)
    return path


@pytest.mark.parametrize("fn,ctx,panel", list(mats()))
def test_a_mat_is_drawn_on_itself_and_leaves_room(fn, ctx, panel):
    drawn = list(shapes(fn(ctx)))
    assert drawn
    tol = 0.05
    spaces = []
    for kind, x0, y0, x1, y1, el in drawn:
        where = f"{kind} {el.text or ''!r} at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f})"
        assert x0 >= -tol and y0 >= -tol and x1 <= ctx.w + tol and y1 <= ctx.h + tol, \
            f"off the {ctx.w} x {ctx.h} mat: {where}"
        # the frame (and a ground filling the whole mat) spans the mat; everything else
        # stays inside the frame line, which stands 3 mm inside the trim (issue 27, item 3)
        frame = (x1 - x0 > ctx.w - 2 * FRAME_INSET - 1) and (y1 - y0 > ctx.h - 2 * FRAME_INSET - 1)
        if not frame:
            k = FRAME_INSET + FRAME_LINE / 2
            assert x0 >= k - tol and y0 >= k - tol and x1 <= ctx.w - k + tol \
                and y1 <= ctx.h - k + tol, f"over the frame: {where}"
        if panel and not frame:
            px, py, pw, ph = panel
            assert x1 <= px + tol or x0 >= px + pw - tol or y1 <= py + tol \
                or y0 >= py + ph - tol, f"on the rules panel {panel}: {where}"
        short, long = sorted((x1 - x0, y1 - y0))
        if kind == "rect" and not frame and CARD_W - 2 < short < CARD_W + 8 \
                and CARD_H - 2 < long < CARD_H + 8:   # a space for one card
            assert short >= CARD_W + 0.5 and long >= CARD_H + 0.5, f"too small: {where}"
            spaces.append((x0, y0, x1, y1))
    for i, a in enumerate(spaces):
        for b in spaces[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]) > tol and \
                min(a[3], b[3]) - max(a[1], b[1]) > tol
            assert not overlap, f"card spaces overlap: {a} and {b}"
    assert all((el.text or "").strip() for kind, *_, el in drawn if kind == "text")


# --------------------------------------------------------------------------- reviewed drawings
SNAPSHOTS = ROOT / "tests" / "snapshots" / "mats"


@pytest.mark.parametrize("fn,ctx,panel", list(mats()))
def test_each_mat_is_drawn_as_reviewed(fn, ctx, panel, request):
    """Each mat's drawing is the one a person last looked at (insta-style recorded
    expectations): ``WARBOOK_RECORD=1 pytest tests/render/pnp/test_mat_art.py`` records the drawings
    after a change to an art hook, ``python scripts/review_mats.py`` prints them all on one
    PDF to look at, and the diff of tests/snapshots/mats/ goes in the same commit."""
    import os

    name = request.node.callspec.id + ".svg"
    drawn = art.svg(ctx.w, ctx.h, fn(ctx))
    path = SNAPSHOTS / name
    if os.environ.get("WARBOOK_RECORD"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(drawn + "\n")
    assert path.exists(), f"no reviewed drawing {path.name}: record it (WARBOOK_RECORD=1)"
    assert drawn + "\n" == path.read_text(), (
        f"{name} is not the drawing last reviewed: look at it (scripts/review_mats.py) and "
        f"record it if it is right (WARBOOK_RECORD=1)")
