"""Print-and-play components: measured, not trusted.

The sizes are read back from the PDFs that a build writes (the drawing's coordinates, through
a small content-stream interpreter, and a render at a known resolution) and from the PNG
files, never from the layout that produced them.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image

from builder.engine.core import full_deck
from builder.render.pnp import layout, render_all
from builder.render.pnp.cover import duplex_file
from builder.render.pnp.deck import deck_sheets
from builder.render.pnp.document import Renderer, overflows
from builder.render.pnp.kinds import game_sheets
from builder.settings import PAPERS, Settings

ROOT = Path(__file__).resolve().parents[3]
K = 72 / 25.4                      # PDF points per mm
TOL = 0.1                          # mm
GAMES = yaml.safe_load((ROOT / "content" / "index.yaml").read_text())["games"]  # the shipped games


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def build(built):
    """The session's real `warbook build` (A4, full ink; tests/conftest.py)."""
    return built, None


@pytest.fixture(scope="module")
def letter(report, tmp_path_factory):
    """The deck and the Winning the Battle sheets on US Letter, low ink (no PNGs), in the
    page order render_all writes (blank pages where a whole duplex print needs them)."""
    out = tmp_path_factory.mktemp("pnp-letter")
    r = Renderer(PAPERS["letter"], "low")
    game = report.content.game("winning-the-battle")
    sheets, _ = game_sheets(r, game, PAPERS["letter"])
    sheets = duplex_file(r, sheets)
    r.write_pdf(sheets, out / "wtb.pdf", title="t", subject="s")
    duplex, fold = deck_sheets(r, PAPERS["letter"], "Test deck")
    r.write_pdf(duplex, out / "deck.pdf", title="t", subject="s", duplex=True)
    r.write_pdf(fold, out / "fold.pdf", title="t", subject="s")
    return out


# --------------------------------------------------------------------------- a tiny PDF interpreter
class Shape:
    def __init__(self, kind, pts, width, fill, stroke, evenodd=False, subpaths=None):
        self.kind = kind            # "fill", "stroke", "both"
        self.pts = pts              # device points in mm, from the page's top-left
        self.width = width          # stroke width in mm
        self.fill = fill
        self.stroke = stroke
        self.evenodd = evenodd
        self.subpaths = subpaths or []

    @property
    def bbox(self):
        xs = [p[0] for p in self.pts]
        ys = [p[1] for p in self.pts]
        return min(xs), min(ys), max(xs), max(ys)

    def area(self) -> float:
        """The filled area (largest subpath less the holes in it)."""
        areas = sorted((abs(_shoelace(sp)) for sp in self.subpaths if len(sp) > 2), reverse=True)
        if not areas:
            return 0.0
        return areas[0] - sum(areas[1:]) if self.evenodd else sum(areas)


def _shoelace(pts):
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))


def _mul(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def interpret(page, page_h_pt: float, recurse: bool = False):
    """Shapes drawn on a page, and the forms placed on it ((name, bbox in mm), ...)."""
    shapes, forms = [], []

    def run(content_ops, resources, ctm):
        stack = []
        gs = {"ctm": ctm, "lw": 1.0, "fill": (0, 0, 0), "stroke": (0, 0, 0)}
        path, sub = [], []

        def dev(x, y):
            m = gs["ctm"]
            X, Y = x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]
            return X / K, (page_h_pt - Y) / K

        def flush(kind, evenodd=False):
            nonlocal path, sub
            if sub:
                path.append(sub)
            pts = [p for sp in path for p in sp]
            if pts and kind:
                m = gs["ctm"]
                scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
                shapes.append(Shape(kind, pts, gs["lw"] * scale / K, gs["fill"], gs["stroke"],
                                    evenodd, [list(sp) for sp in path]))
            path, sub = [], []

        for operands, op in content_ops:
            op = op.decode() if isinstance(op, bytes) else op
            if op == "q":
                stack.append(dict(gs))
            elif op == "Q":
                gs = stack.pop()
            elif op == "cm":
                gs["ctm"] = _mul([float(v) for v in operands], gs["ctm"])
            elif op == "w":
                gs["lw"] = float(operands[0])
            elif op == "rg":
                gs["fill"] = tuple(float(v) for v in operands)
            elif op == "RG":
                gs["stroke"] = tuple(float(v) for v in operands)
            elif op == "g":
                gs["fill"] = (float(operands[0]),) * 3
            elif op == "G":
                gs["stroke"] = (float(operands[0]),) * 3
            elif op == "m":
                if sub:
                    path.append(sub)
                sub = [dev(*map(float, operands))]
            elif op == "l":
                sub.append(dev(*map(float, operands)))
            elif op in ("c", "v", "y"):
                vals = list(map(float, operands))
                for i in range(0, len(vals), 2):
                    sub.append(dev(vals[i], vals[i + 1]))
            elif op == "h":
                pass
            elif op == "re":
                x, y, w, h = map(float, operands)
                if sub:
                    path.append(sub)
                sub = [dev(x, y), dev(x + w, y), dev(x + w, y + h), dev(x, y + h)]
                path.append(sub)
                sub = []
            elif op in ("f", "F"):
                flush("fill")
            elif op == "f*":
                flush("fill", True)
            elif op in ("S", "s"):
                flush("stroke")
            elif op in ("B", "b"):
                flush("both")
            elif op in ("B*", "b*"):
                flush("both", True)
            elif op == "n":
                flush(None)
            elif op == "Do":
                name = operands[0]
                xobj = resources["/XObject"][name].get_object()
                if xobj.get("/Subtype") == "/Form":
                    bbox = [float(v) for v in xobj["/BBox"]]
                    m = [float(v) for v in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    inner = _mul(m, gs["ctm"])
                    save = gs["ctm"]
                    gs["ctm"] = inner
                    corners = [dev(bbox[0], bbox[1]), dev(bbox[2], bbox[3])]
                    gs["ctm"] = save
                    x0, x1 = sorted(c[0] for c in corners)
                    y0, y1 = sorted(c[1] for c in corners)
                    if str(name).startswith("/WbCard"):       # the placed card artworks
                        forms.append((str(name), (x0, y0, x1, y1), inner))
                    if recurse:
                        sub_res = xobj.get("/Resources", resources).get_object()
                        ops = pypdf.generic.ContentStream(xobj, page.pdf).operations
                        run(ops, sub_res, inner)

    ops = page.get_contents().operations
    run(ops, page["/Resources"].get_object(), [1, 0, 0, 1, 0, 0])
    return shapes, forms


def component_pdfs(out: Path) -> list[Path]:
    """The files this stage writes (the folder also holds the rulebooks)."""
    return sorted(list((out / "pdf").glob("*-components.pdf"))
                  + list((out / "pdf").glob("pnp-deck*.pdf")))


def page_info(reader, i, recurse: bool = False):
    page = reader.pages[i]
    h = float(page.mediabox.height)
    shapes, forms = interpret(page, h, recurse)
    return page, shapes, forms


def marks_of(shapes):
    """Crop marks: black stroked straight lines 0.15 to 0.25 mm thick, outside the art."""
    out = []
    for s in shapes:
        if s.kind not in ("stroke", "both") or s.stroke != (0, 0, 0) or len(s.pts) != 2:
            continue
        if not 0.14 <= s.width <= 0.26:
            continue
        (x0, y0), (x1, y1) = s.pts
        if abs(x0 - x1) < 1e-3 or abs(y0 - y1) < 1e-3:
            out.append(s)
    return out


def pdf_box_mm(page, key, page_h_pt):
    b = [float(v) for v in page[key]]
    return b[0] / K, (page_h_pt - b[3]) / K, b[2] / K, (page_h_pt - b[1]) / K


def near(a, b, tol=TOL):
    return abs(a - b) <= tol


# --------------------------------------------------------------------------- layout numbers
def test_px_at_300_dpi():
    assert layout.px(63) == 744
    assert layout.px(88) == 1039
    assert layout.px(25) == 295


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_deck_grid_fits_and_backs_mirror(paper):
    r = Renderer(PAPERS[paper], "full")
    duplex, fold = deck_sheets(r, PAPERS[paper], "Test deck")
    w = PAPERS[paper].width
    # the cover, the blank page behind it (issue 27: a whole-file duplex print), then the
    # sheets of faces, each followed by its backs
    assert duplex[1].side == "blank" and not duplex[1].items
    for front, back in zip(duplex[2::2], duplex[3::2]):
        assert front.side == "front" and back.side == "back"
        faces = {it.name: it.box for it in front.items}
        for it in back.items:
            face = faces[it.name.removeprefix("back of ")]
            # duplex, flipped on the long edge: the back of a card at x is at w - x - width
            assert near(it.box.x, w - face.x - face.w, 1e-9) and near(it.box.y, face.y, 1e-9)
            assert (it.box.w, it.box.h) == (face.w, face.h)
            # a back bleeds on its outer edges only (shared cut lines elsewhere)
            assert it.art.w >= 63 and it.art.w <= 69 + 1e-9
        for it in front.items:
            assert it.box.inside(front.printable)
    for s in fold[1:]:
        faces = [it for it in s.items if it.kind == "card"]
        backs = [it for it in s.items if it.kind == "card-back"]
        for f, b in zip(faces, backs):
            assert near(f.box.x, b.box.x, 1e-9)
            assert near(f.box.y + f.box.h / 2 + b.box.y + b.box.h / 2, 2 * s.fold_y, 1e-9)
            assert b.rotate == 180


def test_a_layout_that_cannot_fit_is_refused():
    # 3 x 3 cards, each with its own 3 mm bleed (207 x 282 mm), on US Letter
    s = layout.Sheet(PAPERS["letter"], False, "too big")
    w, h = s.size
    for box, bleed in layout.grid(w, h, 9, 3, 3, 63, 88, gap=6, bleed=3):
        s.items.append(layout.Item(box, "card", "c", bleed))
    s.number = s.total = 1
    with pytest.raises(layout.LayoutError):
        layout.finish(s)


def test_marks_are_outside_every_trim_and_bleed(report):
    r = Renderer(PAPERS["letter"], "full")
    for game in report.content.games:
        sheets, _ = game_sheets(r, game, PAPERS["letter"])
        for s in sheets:
            for m in s.marks:
                assert 0.15 <= layout.MARK_WIDTH <= 0.25
                for it in s.items:
                    assert not m.box().overlaps(it.art)
                    assert not m.box().overlaps(it.box)


# --------------------------------------------------------------------------- the PDFs
def test_every_pdf_has_boxes_and_print_scaling_none(build):
    out, _ = build
    files = component_pdfs(out)
    names = {f.name for f in files}
    assert {f"{g}-components.pdf" for g in GAMES} | {"pnp-deck.pdf"} <= names
    for f in files:
        reader = pypdf.PdfReader(str(f))
        prefs = reader.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"
        if f.name == "pnp-deck.pdf":
            assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
        for page in reader.pages:
            media = [float(v) for v in page.mediabox]
            assert sorted(map(round, media[2:])) == [595, 842]          # A4 either way round
            trim = [float(v) for v in page["/TrimBox"]]
            bleed = [float(v) for v in page["/BleedBox"]]
            assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
            assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]


def _calibration(shapes):
    return [s for s in shapes if s.kind == "fill" and s.evenodd
            and near(s.bbox[2] - s.bbox[0], 50, 1) and near(s.bbox[3] - s.bbox[1], 50, 1)]


def test_calibration_square_is_50_mm_in_the_drawing(build):
    out, _ = build
    for f in component_pdfs(out):
        reader = pypdf.PdfReader(str(f))
        _, shapes, _ = page_info(reader, 0)
        squares = _calibration(shapes)
        assert len(squares) == 1, f.name
        x0, y0, x1, y1 = squares[0].bbox
        assert near(x1 - x0, 50) and near(y1 - y0, 50), (f.name, x1 - x0, y1 - y0)
        text = reader.pages[0].extract_text()
        assert "50 mm" in text and "ruler" in text


def test_calibration_square_is_50_mm_in_a_render(build):
    out, _ = build
    dpi = 600
    pdf = pdfium.PdfDocument(str(out / "pdf" / "war-components.pdf"))
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("L")
    reader = pypdf.PdfReader(str(out / "pdf" / "war-components.pdf"))
    _, shapes, _ = page_info(reader, 0)
    x0, y0, x1, y1 = _calibration(shapes)[0].bbox
    # scan the frame's middle row and column for its dark outer edges
    px = dpi / 25.4
    row = int((y0 + 25) * px)
    cols = [x for x in range(int((x0 - 3) * px), int((x1 + 3) * px)) if img.getpixel((x, row)) < 128]
    col = int((x0 + 25) * px)
    rows = [y for y in range(int((y0 - 3) * px), int((y1 + 3) * px)) if img.getpixel((col, y)) < 128]
    assert near((cols[-1] - cols[0] + 1) / px, 50, 0.1)
    assert near((rows[-1] - rows[0] + 1) / px, 50, 0.1)


def _sorted_positions(values, tol=0.01):
    out = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def test_deck_cards_measure_63_by_88_between_the_marks(build):
    out, _ = build
    reader = pypdf.PdfReader(str(out / "pdf" / "pnp-deck.pdf"))
    # sheet 3: the first faces (sheet 2 is the blank back of the cover, issue 27)
    page, shapes, forms = page_info(reader, 2)
    h = float(page.mediabox.height)
    marks = marks_of(shapes)
    xs = _sorted_positions(m.pts[0][0] for m in marks if near(m.pts[0][0], m.pts[1][0], 1e-3))
    ys = _sorted_positions(m.pts[0][1] for m in marks if near(m.pts[0][1], m.pts[1][1], 1e-3))
    assert len(xs) == 4 and len(ys) == 4
    assert all(near(b - a, 63) for a, b in zip(xs, xs[1:]))
    assert all(near(b - a, 88) for a, b in zip(ys, ys[1:]))
    # the faces drawn are 63 x 88 and sit exactly between the marks
    faces = [bb for _, bb, _ in forms]
    assert len(faces) == 9
    for x0, y0, x1, y1 in faces:
        assert near(x1 - x0, 63) and near(y1 - y0, 88)
        assert any(near(x0, x) for x in xs) and any(near(y0, y) for y in ys)
    # marks: thickness, and outside the trim and the bleed
    trim = pdf_box_mm(page, "/TrimBox", h)
    for m in marks:
        assert 0.15 <= m.width <= 0.25
        (ax, ay), (bx, by) = m.pts
        inside = (trim[0] < max(ax, bx) and min(ax, bx) < trim[2]
                  and trim[1] < max(ay, by) and min(ay, by) < trim[3])
        assert not inside
    assert near(trim[2] - trim[0], 189) and near(trim[3] - trim[1], 264)


def crop_mark_gaps(page, shapes) -> list[float]:
    """The clear paper (mm) between each crop mark and the art, both read from the page: the
    marks are the black hairlines drawn outside the BleedBox (the union of the art, bleed
    included); a line that runs into the box (a fold line) is no crop mark."""
    h = float(page.mediabox.height)
    x0, y0, x1, y1 = pdf_box_mm(page, "/BleedBox", h)
    gaps = []
    for m in marks_of(shapes):
        (ax, ay), (bx, by) = m.pts
        vertical = near(ax, bx, 1e-3)
        lo, hi = sorted((ay, by) if vertical else (ax, bx))
        start, end = (y0, y1) if vertical else (x0, x1)
        if hi <= start + 1e-6:
            gaps.append(start - hi)
        elif lo >= end - 1e-6:
            gaps.append(lo - end)
    return gaps


def assert_marks_stand_clear(reader) -> int:
    """Every crop mark on every sheet (the cover, with its ruler, aside) starts 1 mm outside
    the art (pnp conventions: "crop marks start 1 mm clear of the bleed"); returns how many.
    A page with nothing drawn on it is the blank back of a one-sided sheet (issue 27;
    test_duplex.py holds those to their label alone)."""
    count = 0
    for i in range(1, len(reader.pages)):
        page, shapes, forms = page_info(reader, i)
        if not shapes and not forms:
            continue
        gaps = crop_mark_gaps(page, shapes)
        assert gaps, f"page {i + 1}: no crop marks"
        assert all(near(g, 1.0, 0.01) for g in gaps), (i + 1, sorted(set(round(g, 3) for g in gaps)))
        count += len(gaps)
    return count


def assert_backs_mirror_faces(reader) -> int:
    """Duplex deck sheets (face sheet, then its backs), from the placed card forms: the back
    of a card drawn at x, width w, on a page W wide sits at W - x - w, at the same height,
    and its art form is the card plus a 3 mm bleed all round (clipped where the paper's margin
    leaves no room for it). Returns the cards checked. The faces are pages 3, 5, ... (page
    2 is the cover's blank back, so that a whole-file duplex print pairs them: issue 27)."""
    width = float(reader.pages[2].mediabox.width) / K
    checked = 0
    for i in range(2, len(reader.pages), 2):
        _, _, faces = page_info(reader, i)
        _, _, backs = page_info(reader, i + 1)
        assert len(faces) == len(backs) > 0
        expected = []
        for _, (x0, y0, x1, y1), _ in faces:
            assert near(x1 - x0, 63) and near(y1 - y0, 88)
            expected.append((width - x0 - (x1 - x0), y0))
        got = []
        for _, (x0, y0, x1, y1), _ in backs:
            assert near(x1 - x0, 63 + 2 * 3) and near(y1 - y0, 88 + 2 * 3)
            got.append((x0 + 3, y0 + 3))                      # the back's trim
        for (a, b), (c, d) in zip(sorted(expected), sorted(got)):
            assert near(a, c, 0.01) and near(b, d, 0.01), ((a, b), (c, d))
        checked += len(faces)
    return checked


def test_letter_deck_backs_mirror_their_faces(letter):
    # the deck twice, once with each back design
    assert assert_backs_mirror_faces(pypdf.PdfReader(str(letter / "deck.pdf"))) == 2 * 52


def test_crop_marks_stand_1_mm_clear_of_the_art(letter):
    for name in ("wtb.pdf", "deck.pdf", "fold.pdf"):
        assert assert_marks_stand_clear(pypdf.PdfReader(str(letter / name))) > 0, name


def test_crop_marks_stand_clear_on_every_built_sheet(build):
    out, _ = build
    for f in component_pdfs(out):
        assert assert_marks_stand_clear(pypdf.PdfReader(str(f))) > 0, f.name


def test_deck_backs_land_behind_their_faces(build):
    out, _ = build
    reader = pypdf.PdfReader(str(out / "pdf" / "pnp-deck.pdf"))
    assert assert_backs_mirror_faces(reader) == 2 * 52
    width = float(reader.pages[0].mediabox.width) / K
    for i in range(2, len(reader.pages), 2):     # faces on pages 3, 5, ...: issue 27
        _, _, faces = page_info(reader, i)
        page, shapes, backs = page_info(reader, i + 1)
        h = float(page.mediabox.height)
        centres = sorted(((x0 + x1) / 2, (y0 + y1) / 2) for _, (x0, y0, x1, y1), _ in faces)
        mirrored = sorted((width - (x0 + x1) / 2, (y0 + y1) / 2)
                          for _, (x0, y0, x1, y1), _ in backs)
        assert len(centres) == len(mirrored)
        for (a, b), (c, d) in zip(centres, mirrored):
            assert near(a, c, 0.01) and near(b, d, 0.01)
        # a back's art is 63 x 88 plus a 3 mm bleed (clipped where cards abut)
        for _, (x0, y0, x1, y1), _ in backs:
            assert near(x1 - x0, 69) and near(y1 - y0, 94)
        bleed = pdf_box_mm(page, "/BleedBox", h)
        trim = pdf_box_mm(page, "/TrimBox", h)
        assert near(trim[0] - bleed[0], 3) and near(bleed[3] - trim[3], 3)


def test_two_back_designs_and_the_gutter_fold(build):
    out, _ = build
    reader = pypdf.PdfReader(str(out / "pdf" / "pnp-deck.pdf"))
    # the cover, its blank back (issue 27: a whole-file duplex print pairs every face sheet
    # with its backs only if the faces are odd pages), then 6 sheets of faces and 6 of backs
    # for each design
    assert len(reader.pages) == 2 + 2 * 2 * 6
    designs = set()
    for i in (3, 15):                                    # pages 4 and 16: backs
        _, _, backs = page_info(reader, i)
        designs |= {name for name, _, _ in backs}
    assert len(designs) == 2
    fold = pypdf.PdfReader(str(out / "pdf" / "pnp-deck-gutterfold.pdf"))
    assert len(fold.pages) == 1 + 2 * 13   # four cards a landscape page (issue 14)
    page, shapes, forms = page_info(fold, 1)
    h = float(page.mediabox.height) / K
    faces = [bb for _, bb, m in forms if m[0] > 0]
    backs = [bb for _, bb, m in forms if m[0] < 0]       # turned half round
    assert len(faces) == len(backs) == 4
    for (fx0, fy0, fx1, fy1), (bx0, by0, bx1, by1) in zip(sorted(faces), sorted(backs)):
        assert near((fx0 + fx1) / 2, (bx0 + bx1) / 2, 0.01)
        assert near((fy0 + fy1) / 2 + (by0 + by1) / 2, h, 0.01)   # mirrored across the fold


def test_stone_tokens_measure(build):
    out, _ = build
    reader = pypdf.PdfReader(str(out / "pdf" / "winning-the-battle-components.pdf"))
    page, shapes, _ = page_info(reader, 2)     # page 3: page 2 is the cover's blank back
    marks = marks_of(shapes)
    # the sheet also holds the player aids, in a band below the tokens (issue 14: five
    # tokens no longer fill a sheet): the tokens' marks are those above the tokens (their
    # vertical lines) and those level with them (their horizontal lines); y runs down
    ring_y = [(s.bbox[1] + s.bbox[3]) / 2 for s in shapes if s.kind in ("stroke", "both")
              and near(s.bbox[2] - s.bbox[0], 25) and near(s.bbox[3] - s.bbox[1], 25)]
    lo, hi = min(ring_y) - 16.5, max(ring_y) + 16.5
    xs = _sorted_positions(m.pts[0][0] for m in marks if near(m.pts[0][0], m.pts[1][0], 1e-3)
                           and max(m.pts[0][1], m.pts[1][1]) < lo)
    ys = _sorted_positions(m.pts[0][1] for m in marks if near(m.pts[0][1], m.pts[1][1], 1e-3)
                           and lo - 0.5 <= m.pts[0][1] <= hi + 0.5)
    # three columns and two rows of 33 mm cut boxes, 6 mm apart
    assert len(xs) == 6 and len(ys) == 4
    assert [round(b - a, 1) for a, b in zip(xs, xs[1:])] == [33, 6, 33, 6, 33]
    assert [round(b - a, 1) for a, b in zip(ys, ys[1:])] == [33, 6, 33]
    for a, b in zip(xs, xs[1:]):
        assert near(b - a, 33) or near(b - a, 6)
    # five 25 mm tokens (the cut guide ring)
    rings = [s for s in shapes if s.kind in ("stroke", "both") and near(s.bbox[2] - s.bbox[0], 25)
             and near(s.bbox[3] - s.bbox[1], 25)]
    assert len(rings) == 5
    # the backs sheet mirrors the fronts
    _, shapes_b, _ = page_info(reader, 3)
    width = float(page.mediabox.width) / K
    rings_b = [s for s in shapes_b if s.kind in ("stroke", "both") and near(s.bbox[2] - s.bbox[0], 25)]
    fronts = sorted(((s.bbox[0] + s.bbox[2]) / 2, (s.bbox[1] + s.bbox[3]) / 2) for s in rings)
    backs = sorted((width - (s.bbox[0] + s.bbox[2]) / 2, (s.bbox[1] + s.bbox[3]) / 2)
                   for s in rings_b)
    assert all(near(a, c, 0.01) and near(b, d, 0.01) for (a, b), (c, d) in zip(fronts, backs))


def test_every_sheet_is_labelled_and_lists_its_components(build, report):
    out, _ = build
    for slug in GAMES:
        reader = pypdf.PdfReader(str(out / "pdf" / f"{slug}-components.pdf"))
        n = len(reader.pages)
        for i, page in enumerate(reader.pages, 1):
            text = " ".join(page.extract_text().split())
            assert f"Sheet {i} of {n}:" in text, (slug, i)
        first = " ".join(reader.pages[0].extract_text().split())
        assert "Component" in first and "Count" in first
    text = " ".join(pypdf.PdfReader(str(out / "pdf" / "winning-the-battle-components.pdf"))
                    .pages[2].extract_text().split())
    # packed (issue 14); sheet 3 of 4, behind the cover's blank back (issue 27)
    assert "Sheet 3 of 4: stone tokens, fronts; player aids" in text
    deck = pypdf.PdfReader(str(out / "pdf" / "pnp-deck.pdf"))
    for i, page in enumerate(deck.pages, 1):
        assert f"Sheet {i} of {len(deck.pages)}:" in " ".join(page.extract_text().split())


def test_aids_quote_the_quick_reference(build, report):
    out, _ = build
    game = report.content.game("winning-the-battle")
    reader = pypdf.PdfReader(str(out / "pdf" / "winning-the-battle-components.pdf"))
    text = " ".join(reader.pages[2].extract_text().split())  # with the stone tokens, page 3
    for line in game.quickref:
        words = re.findall(r"[A-Za-z]{5,}", line)[:4]
        for w in words:
            assert w in text, w


def test_text_overflow_is_detected():
    from weasyprint import HTML

    # nested absolutely positioned boxes, as on the sheets
    inner = "words " * 80
    html = ('<div style="position:absolute;left:10mm;top:10mm;width:40mm;height:40mm">'
            '<div style="position:absolute;left:2mm;top:2mm;width:30mm;height:30mm">'
            '<div class="fit" style="position:absolute;top:2mm;bottom:2mm;width:20mm">{}</div>'
            '</div></div>')
    assert overflows(HTML(string=html.format(inner)).render())
    assert not overflows(HTML(string=html.format("a few words")).render())


def test_one_game_builds_without_the_deck(report, tmp_path):
    war = [g for g in report.games if g.game.slug == "war"]
    settings = Settings(content_root=ROOT / "content", output=tmp_path,
                        paper=PAPERS["letter"], ink="full")
    timings = render_all(report, war, tmp_path, settings, whole=False)
    assert timings["total"] > 0 and "war-components.pdf" in timings
    assert (tmp_path / "pdf" / "war-components.pdf").exists()
    assert not (tmp_path / "pdf" / "pnp-deck.pdf").exists()
    assert not (tmp_path / "png" / "cards").exists()
    assert sorted(p.name for p in (tmp_path / "png" / "war").iterdir()) == ["aid-p1.png",
                                                                           "aid-p2.png"]


# --------------------------------------------------------------------------- PNG
def _dpi(img):
    return img.info.get("dpi", (0, 0))


def test_card_pngs(build):
    out, _ = build
    files = sorted((out / "png" / "cards").glob("*.png"))
    assert len(files) == 52 + 2
    for code in [str(c) for c in full_deck()] + ["back-a", "back-b"]:
        with Image.open(out / "png" / "cards" / f"{code}.png") as img:
            assert img.size == (744, 1039)
            assert all(abs(d - 300) < 0.01 for d in _dpi(img))


def test_component_pngs(build, report):
    out, _ = build
    r = Renderer(PAPERS["a4"], "full")
    for game in report.content.games:
        _, kit = game_sheets(r, game, PAPERS["a4"])
        for piece in kit.pieces:
            path = out / "png" / game.slug / f"{piece.name}.png"
            with Image.open(path) as img:
                box = piece.png_box or layout.Box(0, 0, piece.w, piece.h)
                assert img.size == (layout.px(box.w), layout.px(box.h)), path.name
                assert all(abs(d - 300) < 0.01 for d in _dpi(img))
    with Image.open(out / "png" / "winning-the-battle" / "stone-front.png") as img:
        assert img.size == (295, 295) and img.mode == "RGBA"
        assert img.getpixel((0, 0))[3] == 0            # round: the corner is transparent
        assert img.getpixel((147, 147))[3] == 255


def test_tabletop_simulator_sheet(build):
    out, _ = build
    for d in ("a", "b"):
        with Image.open(out / "png" / "tts" / f"deck-{d}.png") as img:
            w, h = img.size
            assert w <= 4096
            assert w % 10 == 0 and h % 7 == 0
            cw, ch = w // 10, h // 7
            assert abs(cw / ch - 63 / 88) < 0.005
            # the last slot (hidden card) is a back: dark
            px = img.getpixel((9 * cw + cw // 2, 6 * ch + ch // 8))
            assert sum(px) < 3 * 140


# --------------------------------------------------------------------------- Letter and low ink
def test_letter_deck_fits_and_measures(letter):
    reader = pypdf.PdfReader(str(letter / "deck.pdf"))
    page, shapes, forms = page_info(reader, 2)         # the first faces (issue 27: page 3)
    assert [round(float(v), 1) for v in page.mediabox[2:]] == [612.0, 792.0]
    marks = marks_of(shapes)
    xs = _sorted_positions(m.pts[0][0] for m in marks if near(m.pts[0][0], m.pts[1][0], 1e-3))
    ys = _sorted_positions(m.pts[0][1] for m in marks if near(m.pts[0][1], m.pts[1][1], 1e-3))
    assert all(near(b - a, 63) for a, b in zip(xs, xs[1:])) and len(xs) == 4
    assert all(near(b - a, 88) for a, b in zip(ys, ys[1:])) and len(ys) == 4
    h = float(page.mediabox.height) / K
    for m in marks:
        (ax, ay), (bx, by) = m.pts
        for x, y in m.pts:
            assert 5 - 1e-3 <= x <= 215.9 - 5 + 1e-3 and 5 - 1e-3 <= y <= h - 5 + 1e-3


def test_low_ink_is_grey_with_no_large_fills(letter):
    """Greys only, and nothing darker than a light tint fills more than 5 cm² (an ace's big
    pip, about 4.3 cm², is the largest dark fill left)."""
    for name in ("wtb.pdf", "deck.pdf"):
        reader = pypdf.PdfReader(str(letter / name))
        for i in range(len(reader.pages)):
            _, shapes, _ = page_info(reader, i, recurse=True)
            for s in shapes:
                for colour in (s.fill, s.stroke):
                    assert max(colour) - min(colour) < 0.02, (name, i, colour)
                if s.kind in ("fill", "both") and min(s.fill) < 0.9:
                    assert s.area() < 500, (name, i, s.area(), s.fill)
