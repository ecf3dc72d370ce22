"""The shipped game with a deck of its own (Happy Families: 44 cards, 11 families of four,
faces from its own template content/happy-families/face.svg.j2) in every product, read back
from what a build of it writes: the rulebook's and the components' text and placed
faces, the card PNGs against the Tabletop Simulator sheet, the website's card pictures.
Read from the session's whole build of the shipped content (``built``, tests/conftest.py):
a game's files are the same in it as in a build of the game alone."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
SLUG = "happy-families"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def families(built: Path) -> tuple[Path, list[dict[str, str]]]:
    """The session's build (its output folder) and the game's deck file's rows."""
    with open(ROOT / "content" / SLUG / "cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return built, rows


def words(pdf: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(pdf).pages]


def test_the_rulebook_draws_the_games_own_cards(families):
    out, rows = families
    text = " ".join(words(out / "pdf" / f"{SLUG}-rules.pdf"))
    # the cover's cards and the examples' diagrams are the deck's faces: its names, which
    # no French card has, are in the book's text as the faces' own lines
    shown = [r["name"] for r in rows if r["name"] in text]
    assert len(shown) >= 8, shown


def test_the_components_print_every_card_once_with_its_back(families):
    out, rows = families
    pages = words(out / "pdf" / f"{SLUG}-components.pdf")
    faces = [i for i, t in enumerate(pages) if "faces" in t.splitlines()[0]]
    backs = [i for i, t in enumerate(pages) if "backs" in t.splitlines()[0]]
    assert len(faces) == 5 and backs == [i + 1 for i in faces]   # 44 cards, nine a sheet
    on_faces = " ".join(pages[i] for i in faces)
    for r in rows:   # each card's name and text on a face sheet, once (count 1 each)
        assert on_faces.count(r["text"].split()[0] + " " + r["text"].split()[1]) >= 1, r["code"]
    names = re.findall(r"\b(Mr|Mrs|Master|Miss) ([A-Z][a-z]+)\b", on_faces)
    assert {f"{a} {b}" for a, b in names} >= {r["name"] for r in rows}
    cover = pages[0]
    assert "44" in cover and "63.5 x 88.9 mm (poker)" in cover


def test_the_pngs_and_the_tabletop_sheet_are_the_same_faces(families):
    out, rows = families
    png = out / "png" / SLUG
    cards = {r["code"]: Image.open(png / "cards" / "families" / f"{r['code']}.png").convert("RGB")
             for r in rows}
    assert {im.size for im in cards.values()} == {(750, 1050)}     # 63.5 x 88.9 mm, 300 dpi
    bleed = Image.open(png / "cards-bleed" / "families" / f"{rows[0]['code']}.png")
    assert bleed.size == (821, 1121)                                # 3 mm round it
    sheet = Image.open(png / "tts" / "families-1.png").convert("RGB")
    assert sheet.size[0] <= 4096 and not (png / "tts" / "families-2.png").exists()
    cw, ch = sheet.size[0] // 10, sheet.size[1] // 7
    # each slot is its card (the deck file's order), not another family's: the slot is
    # nearer its own card's PNG than any other card's
    def slot(k: int) -> Image.Image:
        r, c = divmod(k, 10)
        return sheet.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch))

    small = {code: im.resize((cw, ch)) for code, im in cards.items()}

    def distance(a: Image.Image, b: Image.Image) -> float:
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean)

    for k, r in enumerate(rows[:12]):
        got = slot(k)
        nearest = min(small, key=lambda code: distance(got, small[code]))
        assert nearest == r["code"], (k, r["code"], nearest)
    back = Image.open(png / "tts" / "families-back.png").convert("RGB").resize((cw, ch))
    assert distance(slot(69), back) < 6                           # the last slot: the back
    assert distance(slot(44), back) > 6 and distance(slot(45), slot(46)) == 0   # then empty


def test_the_website_shows_the_faces_of_the_games_deck(families):
    out, rows = families
    page = (out / "site" / f"{SLUG}.html").read_text()
    used = set(re.findall(r"cards/happy-families/families/([A-Z-]+)\.svg", page))
    assert used and used <= {r["code"] for r in rows}
    for code in sorted(used)[:5]:
        svg = (out / "site" / "cards" / SLUG / "families" / f"{code}.svg").read_text()
        name = next(r["name"] for r in rows if r["code"] == code)
        assert "<script" not in svg and name.split()[-1] in svg
