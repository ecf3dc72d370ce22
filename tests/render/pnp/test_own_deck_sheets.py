"""A game's own cards on the print-and-play sheets, the gutter fold, the PNG exports and the
Tabletop Simulator sheets, read back from the files written (the placed forms of the PDF's
content streams, renders of them, the PNG files), with High Colours (48 mini cards, 24
distinct, two of each) copied into a content folder of the test's own."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from helpers import FIXTURES
from PIL import Image, ImageChops, ImageStat
from test_prepress import is_srgb, pdf_version

from builder.check import run_check
from builder.render.pnp import layout
from builder.render.pnp.document import Renderer
from builder.render.pnp.kinds import game_sheets
from builder.render.pnp.owncards import OwnDeck, fold_document, own_code, own_duplex_sheets
from builder.render.pnp.pieces import ComponentError
from builder.render.pnp.png import write_own_pngs
from builder.settings import PAPERS

K = 72 / 25.4          # PDF points per mm
TOL = 0.1              # mm
PLACED = re.compile(r"q (\S+) (\S+) (\S+) (\S+) re W n (-?1) 0 0 (-?1) (\S+) (\S+) cm "
                     r"(/WbCard\d+) Do Q")


def content_with(tmp: Path, kit: str) -> Path:
    content = tmp / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    game = content / "high-colours" / "game.yaml"
    game.write_text(game.read_text() + kit)
    return content


def checked(content: Path):
    report = run_check(content)
    return report, [d.format().splitlines()[0] for d in report.diagnostics.errors]


#: seven cards, two copies each: 14 cards, so that the last sheet is not full and a back
#: out of its mirror place shows (a full grid is its own mirror image)
SOME = "    cards: [R1, R2, R3, B1, B2, G1, G2]\n"


def written(tmp: Path, extra: str):
    content = content_with(tmp, "kit:\n  - kind: deck\n" + extra)
    report, errors = checked(content)
    assert errors == []
    game = report.games[0].game
    out = {}
    for name in ("a4", "letter"):
        paper = PAPERS[name]
        r = Renderer(paper, "full", content_root=content)
        sheets, kit = game_sheets(r, game, paper)
        pdf = tmp / f"{name}.pdf"
        r.write_pdf(sheets, pdf, title="t", subject="s", duplex=True)
        fold = fold_document(r, game, kit.own, paper)
        fold_pdf = tmp / f"{name}-fold.pdf"
        r.write_pdf(fold, fold_pdf, title="t", subject="s")
        out[name] = {"r": r, "pdf": pdf, "sheets": sheets, "kit": kit, "fold": fold_pdf,
                     "fold_sheets": fold}
    return game, out, tmp


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    """High Colours with a kit deck of all its cards, its sheets and gutter fold written on
    A4 and Letter."""
    return written(tmp_path_factory.mktemp("own-deck"), "")


@pytest.fixture(scope="module")
def some(tmp_path_factory):
    """The same with seven of its cards (14 copies: a sheet not full)."""
    return written(tmp_path_factory.mktemp("own-some"), SOME)


def counts(game) -> dict[str, int]:
    deck = game.decks[0].deck
    return {c.code: deck.counts[c] for c in deck.cards}


def placements(pdf: Path) -> list[list[dict]]:
    """Every form placed on every page, read from the content streams: its clip (the art
    box), its trim box (in mm from the top-left), whether it is turned, and which artwork
    (the form's name, mapped back to its library code by the order place_forms names them)."""
    reader = pypdf.PdfReader(str(pdf))
    pages = []
    for page in reader.pages:
        h = float(page.mediabox.height)
        data = page.get_contents().get_data().decode("latin-1")
        got = []
        for m in PLACED.finditer(data):
            cx, cy, cw, ch = (float(v) / K for v in m.group(1, 2, 3, 4))
            turned = m.group(5) == "-1"
            got.append({"clip": layout.Box(cx, h / K - cy - ch, cw, ch), "turned": turned,
                        "e": float(m.group(7)) / K, "f": float(m.group(8)) / K,
                        "form": m.group(9), "page_h": h / K})
        pages.append(got)
    return pages


def form_codes(sheets) -> dict[str, str]:
    refs = sorted({it.ref for s in sheets for it in s.items if it.ref})
    return {f"/WbCard{i}": code for i, code in enumerate(refs)}


def trim_of(p: dict, size: tuple[float, float]) -> layout.Box:
    """The card's trim from the form's placement (origin at the art's corner, 3 mm out)."""
    w, h = size
    b = layout.BLEED
    if p["turned"]:   # -1 0 0 -1 e f: the form's far corner at (e, f)
        x0, y0 = p["e"] - (w + 2 * b), p["f"] - (h + 2 * b)
    else:
        x0, y0 = p["e"], p["f"]
    return layout.Box(x0 + b, p["page_h"] - (y0 + b) - h, w, h)


SIZE = (44.5, 63.5)   # High Colours: mini cards


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_copy_is_placed_once_as_its_own_face(own, paper):
    game, out, _ = own
    o = out[paper]
    pages = placements(o["pdf"])
    names = form_codes(o["sheets"])
    want = counts(game)
    faces: dict[str, int] = {}
    per_page = []
    for page in pages:
        codes = [names[p["form"]] for p in page if not names[p["form"]].endswith("/_back")]
        per_page.append(len(codes))
        for c in codes:
            key = c.rsplit("/", 1)[1]
            faces[key] = faces.get(key, 0) + 1
    assert faces == want
    per = max(per_page)
    assert per >= 12                          # mini cards: at least 4 x 3 a sheet
    assert len(pages) == 1 + 2 * math.ceil(sum(want.values()) / per)
    # each distinct face is one form, drawn once and reused
    reader = pypdf.PdfReader(str(o["pdf"]))
    assert len([n for n in names.values() if "/_back" not in n]) == len(want)
    assert len(reader.pages) == len(o["sheets"])


@pytest.mark.parametrize("which", ["own", "some"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_back_lies_behind_its_face_for_a_long_edge_flip(request, which, paper):
    _, out, _ = request.getfixturevalue(which)
    o = out[paper]
    names = form_codes(o["sheets"])
    pages = placements(o["pdf"])
    w_page = o["sheets"][0].size[0]
    pairs = 0
    for i, s in enumerate(o["sheets"]):
        if s.side != "front":
            continue
        fronts = [trim_of(p, SIZE) for p in pages[i] if "/_back" not in names[p["form"]]]
        backs = [trim_of(p, SIZE) for p in pages[i + 1] if names[p["form"]].endswith("/_back")]
        assert len(fronts) == len(backs) > 0
        for f in fronts:
            m = f.mirrored(w_page)
            assert any(abs(m.x - b.x) < TOL and abs(m.y - b.y) < TOL for b in backs), (i, f)
            assert abs(f.w - SIZE[0]) < TOL and abs(f.h - SIZE[1]) < TOL
        pairs += 1
        # the backs bleed 3 mm at the block's outside: their clips reach 3 mm past the trims
        clips = layout.union(p["clip"] for p in pages[i + 1])
        trims = layout.union(backs)
        assert abs(trims.x - clips.x - layout.BLEED) < TOL
        assert abs(clips.bottom - trims.bottom - layout.BLEED) < TOL
    assert pairs == (3 if which == "own" else 1)


def _render(pdf_bytes: bytes, page: int, dpi: float) -> Image.Image:
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _changed(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ by more than 60 in a channel (edges' antialiasing
    aside, none for the same picture; the digits of two cards differ in a few percent)."""
    d = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 60 else 0)
    return ImageStat.Stat(d).mean[0] / 255


def _alone(r: Renderer, content: Path, game, code: str, dpi: float) -> Image.Image:
    """The card ``code`` drawn on its own, by a Faces of the test's own (not the renderer's
    library), at trim size."""
    import base64

    from builder.render.faces import Faces

    faces = Faces(content)
    faces.add(game)
    b = layout.BLEED   # as the sheets draw it: the art runs into the bleed
    svg = faces.face(f"{game.decks[0].deck.key}/{code}", "full", bleed_mm=b)
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    w, h = SIZE[0] + 2 * b, SIZE[1] + 2 * b
    data = r.pages_pdf(f'<section style="width:{w}mm;height:{h}mm"><img src="{uri}" '
                       f'style="display:block;width:{w}mm;height:{h}mm"></section>',
                       f"@page {{ size: {w}mm {h}mm; margin: 0 }}")
    px = round(b / 25.4 * dpi)
    return _render(data, 0, dpi).crop((px, px, px + round(SIZE[0] / 25.4 * dpi),
                                       px + round(SIZE[1] / 25.4 * dpi)))


def test_the_face_in_a_slot_is_that_cards(own):
    game, out, tmp = own
    o = out["a4"]
    r = o["r"]
    names = form_codes(o["sheets"])
    page = 3   # the second sheet of faces (0-based: cover, faces, backs, faces)
    dpi = 100
    sheet_img = _render(o["pdf"].read_bytes(), page, dpi)
    placed = [p for p in placements(o["pdf"])[page] if "/_back" not in names[p["form"]]]
    items = o["sheets"][page].items
    alone: dict[str, Image.Image] = {}
    seen: list[tuple[int, int, str]] = []
    for p in placed[:6]:
        t = trim_of(p, SIZE)
        # the card the layout put in this slot, and the artwork the PDF draws there
        item = next(it for it in items if abs(it.box.x - t.x) < TOL and abs(it.box.y - t.y) < TOL)
        code = item.name.rsplit("/", 1)[1]
        assert names[p["form"]].endswith("/" + code)
        if code not in alone:
            alone[code] = _alone(r, tmp / "content", game, code, dpi)
        x, y = round(t.x / 25.4 * dpi), round(t.y / 25.4 * dpi)

        def best(img: Image.Image) -> float:   # the slot's pixels against img, within 1 px
            return min(_changed(sheet_img.crop((x + dx, y + dy, x + dx + img.width,
                                                y + dy + img.height)), img)
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))

        own_diff = best(alone[code])
        assert own_diff < 0.005, (code, own_diff)
        seen.append((x, y, code))
    assert len(alone) >= 2
    # and another card's face is told apart from it
    x, y, code = seen[0]
    other = next(c for c in alone if c != code)
    assert min(_changed(sheet_img.crop((x + dx, y + dy, x + dx + alone[other].width,
                                        y + dy + alone[other].height)), alone[other])
               for dx in (-1, 0, 1) for dy in (-1, 0, 1)) > 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_cover_row_says_count_size_and_sheets(own, paper):
    _, out, _ = own
    o = out[paper]
    text = " ".join(pypdf.PdfReader(str(o["pdf"])).pages[0].extract_text().split())
    n = len(o["sheets"])
    assert "High Colours cards, 24 faces and their backs 48 44.5 x 63.5 mm (mini) " \
           f"2 to {n}" in text, text
    row = o["kit"].rows[0]
    assert (row.count, row.size, row.sheets) == ("48", "44.5 x 63.5 mm (mini)", f"2 to {n}")


@pytest.mark.parametrize("which", ["own", "some"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_gutter_fold_puts_each_back_across_the_fold_from_its_face(request, which, paper):
    game, out, _ = request.getfixturevalue(which)
    o = out[paper]
    names = form_codes(o["fold_sheets"])
    pages = placements(o["fold"])
    faces_seen = 0
    for i, s in enumerate(o["fold_sheets"]):
        if s.side != "fold":
            continue
        fold = s.fold_y
        fronts = [trim_of(p, SIZE) for p in pages[i] if "/_back" not in names[p["form"]]]
        backs = [(trim_of(p, SIZE), p["turned"]) for p in pages[i]
                 if names[p["form"]].endswith("/_back")]
        assert len(fronts) == len(backs) > 0 and all(t for _, t in backs)
        for f in fronts:
            want_y = 2 * fold - f.bottom
            assert any(abs(b.x - f.x) < TOL and abs(b.y - want_y) < TOL for b, _ in backs)
        faces_seen += len(fronts)
    assert faces_seen == (sum(counts(game).values()) if which == "own" else 14)


def test_pngs_and_tabletop_simulator_sheets(own):
    game, out, tmp = own
    r = out["a4"]["r"]
    png = tmp / "png"
    paths = write_own_pngs(r, game, png)
    base = png / "high-colours"
    want = counts(game)
    w, h = layout.px(SIZE[0]), layout.px(SIZE[1])
    assert (w, h) == (526, 750)   # 44.5 x 63.5 mm at 300 dpi
    for folder, size in (("cards", (w, h)),
                         ("cards-bleed", (layout.px(SIZE[0] + 6), layout.px(SIZE[1] + 6)))):
        files = sorted(p.stem for p in (base / folder / "colours").glob("*.png"))
        assert files == sorted(list(want) + ["_back"])
        for stem in ("R1", "_back"):
            img = Image.open(base / folder / "colours" / f"{stem}.png")
            assert img.size == size
            assert round(img.info["dpi"][0]) == 300
    # the printers' sizes (test_prepress.py) are a poker card's: a mini deck has none
    assert [p for p in (base / "cards-bleed" / "colours").iterdir() if p.is_dir()] == []
    for path in paths:
        with Image.open(path) as img:
            assert is_srgb(img), path
    sheets = sorted((base / "tts").glob("colours-[0-9]*.png"))
    copies = [c for c, n in want.items() for _ in range(n)]
    assert len(sheets) == math.ceil(len(copies) / 69)
    back = Image.open(base / "tts" / "colours-back.png").convert("RGB")
    cw, ch = back.size
    assert cw == 409 and ch == round(409 * SIZE[1] / SIZE[0])
    sheet = Image.open(sheets[0]).convert("RGB")
    assert sheet.size == (10 * cw, 7 * ch) and sheet.width <= 4096
    last = sheet.crop((9 * cw, 6 * ch, 10 * cw, 7 * ch))
    assert _diff(last, back) < 1
    # slot k holds copy k: the first two slots the same card (R1 twice), the third R2
    slot = [sheet.crop((k * cw, 0, (k + 1) * cw, ch)) for k in range(3)]
    assert _diff(slot[0], slot[1]) < 1 and _diff(slot[0], slot[2]) > 3
    small = Image.open(base / "cards" / "colours" / "R1.png").convert("RGB").resize((cw, ch))
    assert _diff(slot[0], small) < 6
    # the slots past the copies are empty (white), the back's slot excepted
    empty = sheet.crop((8 * cw, 6 * ch, 9 * cw, 7 * ch))
    assert ImageStat.Stat(empty).mean == [255.0, 255.0, 255.0]
    assert all(p.is_file() for p in paths)


def test_the_sheets_and_the_gutter_fold_say_pdf_1_7(own):
    """The forms placed by pypdf keep WeasyPrint's header (pypdf's own is %PDF-1.3, older
    than the transparency and object streams the files may hold)."""
    _, out, _ = own
    for name in ("a4", "letter"):
        for pdf in (out[name]["pdf"], out[name]["fold"]):
            assert pdf_version(pdf) >= (1, 7), pdf.name


def test_the_kit_chooses_a_deck_and_cards(tmp_path):
    content = content_with(tmp_path, "kit:\n  - kind: deck\n    deck: colours\n"
                                     "    cards: [R1, b2]\n")
    report, errors = checked(content)
    assert errors == []
    game = report.games[0].game
    r = Renderer(PAPERS["a4"], "full", content_root=content)
    sheets, kit = game_sheets(r, game, PAPERS["a4"])
    assert [d.copies for d in kit.own] == [["R1", "R1", "B2", "B2"]]
    assert kit.rows[0].count == "4" and "2 faces" in kit.rows[0].name
    assert len(sheets) == 3


@pytest.mark.parametrize("kit, message", [
    ("    deck: shapes\n", "{line}:11: error: deck.deck: the game has no deck 'shapes'"),
    ("    back: b\n", "{line}:11: error: deck.back chooses a back of the French 52"),
    ("    cards: [R1, Q9]\n", "{line}:12: error: deck.cards: unknown card 'Q9'"),
])
def test_the_kit_refuses_what_a_games_own_deck_cannot_print(tmp_path, kit, message):
    content = content_with(tmp_path, "kit:\n  - kind: deck\n" + kit)
    line = len((FIXTURES / "high-colours" / "game.yaml").read_text().splitlines()) + 3
    _, errors = checked(content)
    assert len(errors) == 1 and f"game.yaml:{message.format(line=line)}" in errors[0], errors


def test_a_card_too_big_for_the_paper_is_a_located_error():
    from builder.diagnostics import Located

    deck = OwnDeck("g/big", "big", (205.0, 150.0), ["A"], Located("content/g/game.yaml", 31))
    with pytest.raises(ComponentError, match=r"^content/g/game.yaml:31: deck 'big': a card of "
                                             r"205 x 150 mm does not fit a US Letter sheet"):
        own_duplex_sheets(PAPERS["letter"], deck, False, "cards")


def test_low_ink_cards_are_grey(own):
    game, out, tmp = own
    r = Renderer(PAPERS["a4"], "low", content_root=out["a4"]["r"].fetcher.faces.root)
    r.fetcher.faces.add(game)
    code = own_code(f"{game.decks[0].deck.key}/R1", True)
    reader, idx = r.library([code])[code]
    img = _render(r.library_data(reader), idx, 50)
    grey = img.convert("L").convert("RGB")
    assert max(hi for _, hi in ImageChops.difference(img, grey).getextrema()) < 3
    full = _render(*(lambda lib: (out["a4"]["r"].library_data(lib[0]), lib[1]))(
        out["a4"]["r"].library([own_code(f"{game.decks[0].deck.key}/R1", False)])[
            own_code(f"{game.decks[0].deck.key}/R1", False)]), 50)
    assert max(hi for _, hi in ImageChops.difference(full, full.convert("L").convert("RGB"))
               .getextrema()) > 40   # the full-colour one is not
