"""Card faces and backs from templates (render/faces.py): a game's own deck drawn from its
``face:`` template or the shipped default face, the located errors a designer sees (a
field the deck lacks, text too long for its box, an unsafe icon, a sandbox escape), the
French 52 drawn as it always was, and the rulebook and the website drawing a game's own
cards.

The SVG is read back as XML (its text elements), the rulebook as a PDF (its text, with
pdfplumber), the website as its files; the fixture is tests/fixtures/high-colours (24
cards in four colours, a ``number`` field, mini cards, no face template of its own)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from builder.check import run_check
from builder.content import load_content
from builder.diagnostics import Diagnostic
from builder.engine.cards import RANKS, SUITS, Card
from builder.render import cards as french
from builder.render.faces import Faces, card_ref, check_faces, fit_text, split_ref
from builder.render.fetch import CardFetcher, card_url

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-colours"
SVG = "{http://www.w3.org/2000/svg}"
DECK_LINE = "  colours: {cards: cards.csv, size: mini}"


def colours(tmp_path: Path, *, deck: str = DECK_LINE, cards: str | None = None,
            files: dict[str, str | bytes] | None = None) -> Path:
    """A content folder holding High Colours, its deck line, deck file and extra files
    replaced as given; returns the content folder."""
    content = tmp_path / "content"
    game = content / "high-colours"
    shutil.copytree(FIXTURE, game)
    (content / "index.yaml").write_text("games: [high-colours]\n")
    yaml = (game / "game.yaml").read_text()
    assert DECK_LINE in yaml
    (game / "game.yaml").write_text(yaml.replace(DECK_LINE, deck))
    if cards is not None:
        (game / "cards.csv").write_text(cards)
    for name, data in (files or {}).items():
        path = game / name
        path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data)
    return content


def faces_of(content: Path) -> tuple[Faces, str]:
    """The faces of the content's High Colours, and its deck's key."""
    loaded, diags = load_content(content)
    assert not diags.errors, [d.format() for d in diags.errors]
    game = loaded.game("high-colours")
    faces = Faces(loaded.root)
    (art,) = faces.add(game)
    return faces, art.key


def texts(svg: str) -> list[str]:
    """The words of every <text> element of an SVG, in order."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]


def problem(fn) -> Diagnostic:
    with pytest.raises(Diagnostic) as e:
        fn()
    return e.value


def with_text(rows: dict[str, str]) -> str:
    """High Colours' deck file with a ``text`` column (the given cards' texts)."""
    lines = (FIXTURE / "cards.csv").read_text().splitlines()
    out = [lines[0] + ",text"]
    for line in lines[1:]:
        code = line.split(",")[0]
        out.append(line + "," + (f'"{rows[code]}"' if code in rows else ""))
    return "\n".join(out) + "\n"


def row_of(csv_text: str, code: str) -> int:
    return next(i for i, ln in enumerate(csv_text.splitlines(), 1) if ln.startswith(code + ","))


# ---------------------------------------------------------------- references
def test_references_name_the_deck_for_own_cards_and_stay_codes_for_french(tmp_path):
    faces, key = faces_of(colours(tmp_path))
    card = faces.decks[key].spec.deck.card("R6")
    assert key == "high-colours/colours"
    assert card_ref(card) == "high-colours/colours/R6"
    assert card_ref(card, up=False) == "high-colours/colours/_back"
    assert split_ref("high-colours/colours/R6") == ("high-colours/colours", "R6")
    assert split_ref("high-colours/colours/_back") == ("high-colours/colours", None)
    assert card_ref(Card("Q", "D")) == "QD" and card_ref(Card("Q", "D"), up=False) == "back"
    assert card_url("QD") == "card:QD" and card_url("QD", "full") == "card:full-QD"
    assert card_url("high-colours/colours/R6", "full") == "card:high-colours/colours/R6@full"


# ---------------------------------------------------------------- the default face
def test_the_default_face_shows_the_cards_name_and_number(tmp_path):
    faces, key = faces_of(colours(tmp_path))
    full = faces.svg(f"{key}/R6", "full")
    words = texts(full)
    assert "Red 6" in words and "6" in words, words
    assert 'viewBox="0 0 44.5 63.5"' in full  # the deck's size, in millimetres
    assert "#c62f3a" in full  # "red" from the palette, not the accent
    compact = faces.svg(f"{key}/Y4", "compact")
    assert texts(compact) == ["4"]
    back = faces.svg(f"{key}/_back", "full")
    assert "High Colours" in texts(back)  # the game's title on the shipped back
    assert "#5b554e" in back  # in the game's accent


def test_a_colour_the_palette_lacks_takes_the_games_accent(tmp_path):
    csv = (FIXTURE / "cards.csv").read_text() + "X1,Odd one,plaid,1,1\n"
    content = colours(tmp_path, cards=csv)
    yaml = content / "high-colours" / "game.yaml"
    yaml.write_text(yaml.read_text() + 'accent: "#123456"\n')
    faces, key = faces_of(content)
    assert "#123456" in faces.svg(f"{key}/X1", "full")


def test_a_face_is_drawn_once_per_card_and_style(tmp_path):
    faces, key = faces_of(colours(tmp_path))
    first = faces.svg(f"{key}/B2", "full")
    assert faces.svg(f"{key}/B2", "full") is first
    assert faces.svg(f"{key}/B2", "compact") is not first


# ---------------------------------------------------------------- a face template
FACE = """\
<rect width="{{ width }}" height="{{ height }}" fill="{{ colour(card.colour, accent) }}"/>
<text x="1" y="5">{{ card.name }}</text>
<text x="1" y="9">{{ card.number }} of {{ card.fields.colour }} ({{ card.count }}, {{ style }})</text>
<text x="1" y="13">{{ game.title }} {{ deck.name }} {{ safe.x }} {{ bleed }}</text>
"""


def test_a_face_templates_fields_reach_the_svg(tmp_path):
    content = colours(tmp_path, deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                      files={"face.svg.j2": FACE})
    faces, key = faces_of(content)
    svg = faces.svg(f"{key}/G5", "full", bleed_mm=3)
    assert texts(svg) == ["Green 5", "5 of green (2, full)", "High Colours colours 3.0 3.0"]
    assert 'viewBox="-3 -3 50.5 69.5"' in svg
    assert '<rect width="44.5" height="63.5" fill="#2f8f4e"/>' in svg


def test_an_unknown_field_in_a_template_is_a_located_error(tmp_path):
    face = FACE.replace("{{ card.fields.colour }}", "{{ card.power }}")
    content = colours(tmp_path, deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                      files={"face.svg.j2": face})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/R1", "full"))
    assert d.path.endswith("high-colours/face.svg.j2") and d.line == 3, d.format()
    assert "card 'R1' (Red 1)" in d.message
    assert "the card has no field 'power'" in d.message and "colour, number" in d.message
    # the check says it once, for the first card, and how many more it stops
    (said,) = check_faces(run_check(content))
    assert said.line == 3 and said.message.endswith("(and 23 more cards the same way)")


def test_an_unknown_field_given_to_a_helper_is_a_located_error(tmp_path):
    """A misspelt field passed to a helper (``colour(card.colr, accent)``) is said, not
    taken for an empty value and drawn in the default colour."""
    face = FACE.replace("colour(card.colour, accent)", "colour(card.colr, accent)")
    content = colours(tmp_path, deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                      files={"face.svg.j2": face})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/R1", "full"))
    assert d.path.endswith("high-colours/face.svg.j2") and d.line == 1, d.format()
    assert "the card has no field 'colr'" in d.message and "did you mean 'colour'?" in d.message


def test_a_template_syntax_error_and_a_sandbox_escape_are_located(tmp_path):
    broken = colours(tmp_path / "a", deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                     files={"face.svg.j2": "<g>\n{% if card.name %}\n</g>\n"})
    faces, key = faces_of(broken)
    d = problem(lambda: faces.svg(f"{key}/R1", "full"))
    assert d.path.endswith("face.svg.j2") and d.line == 3
    assert d.message.startswith("card 'R1' (Red 1): template syntax")
    escape = colours(tmp_path / "b", deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                     files={"face.svg.j2": "<g/>\n<text>{{ card.name.__class__ }}</text>\n"})
    faces, key = faces_of(escape)
    d = problem(lambda: faces.svg(f"{key}/B3", "compact"))
    assert d.path.endswith("face.svg.j2") and d.line == 2
    assert "card 'B3'" in d.message and "not allowed in a template" in d.message


def test_a_template_that_writes_a_script_is_refused(tmp_path):
    content = colours(tmp_path, deck=DECK_LINE[:-1] + ", face: face.svg.j2}",
                      files={"face.svg.j2": "<script>alert(1)</script>\n"})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/R2", "full"))
    assert d.path.endswith("face.svg.j2") and "card 'R2'" in d.message
    assert "<script>" in d.message


# ---------------------------------------------------------------- fitting text
def test_text_too_long_for_its_box_is_an_error_at_the_cards_row(tmp_path):
    words = " ".join(["Draw two cards, then discard one of them face up."] * 12)
    csv = with_text({"R3": words, "B1": "Play this card on any other."})
    faces, key = faces_of(colours(tmp_path, cards=csv))
    assert "Play this card on any other." in " ".join(texts(faces.svg(f"{key}/B1", "full")))
    d = problem(lambda: faces.svg(f"{key}/R3", "full"))
    assert d.path.endswith("high-colours/cards.csv") and d.line == row_of(csv, "R3"), d.format()
    assert "card 'R3' (Red 3)" in d.message and "field 'text'" in d.message
    assert "does not fit its box" in d.message and "5.5 pt" in d.message


def test_fitting_shrinks_text_to_its_box_measured_with_cabin():
    short, why = fit_text("Red 6", 0, 0, 30, 5, size=9, min_size=6, weight="bold")
    assert why is None and short.pt == 9 and len(short.lines) == 1
    long, why = fit_text("Captain of the Guard", 0, 0, 20, 5, size=9,
                         min_size=6, weight="bold")
    assert why is None and 6 <= long.pt < 9 and len(long.lines) == 1  # smaller, one line
    # the largest quarter point at which the line fits 20 mm, by Cabin Bold's advances
    from fontTools.ttLib import TTFont

    from builder.render.fonts import FONT_DIRS

    font = TTFont(str(next(d / "Cabin-Bold.otf" for d in FONT_DIRS
                           if (d / "Cabin-Bold.otf").exists())))
    units = sum(font["hmtx"][font.getBestCmap()[ord(ch)]][0] for ch in "Captain of the Guard")
    largest = 20 / (units / font["head"].unitsPerEm * 25.4 / 72)  # in points, kerning aside
    assert long.pt <= largest + 0.1 and long.pt > largest - 0.35, (long.pt, largest)


def test_check_faces_reports_every_card_that_does_not_fit(tmp_path):
    words = " ".join(["Draw two cards, then discard one of them face up."] * 12)
    csv = with_text({"R3": words, "G4": words})
    content = colours(tmp_path, cards=csv)
    report = run_check(content)
    assert report.ok
    found = check_faces(report)
    assert not report.ok
    assert sorted(d.line for d in found) == [row_of(csv, "R3"), row_of(csv, "G4")]
    assert all(d in report.diagnostics for d in found)


def test_warbook_check_says_the_card_that_does_not_fit(tmp_path):
    words = " ".join(["Draw two cards, then discard one of them face up."] * 12)
    csv = with_text({"Y2": words})
    content = colours(tmp_path, cards=csv)
    run = subprocess.run([sys.executable, "-m", "builder", "check", "--content", str(content)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert re.search(rf"content/high-colours/cards.csv:{row_of(csv, 'Y2')}:\d+: error: card "
                     rf"'Y2' \(Yellow 2\): field 'text' does not fit", run.stderr), run.stderr
    assert "Traceback" not in run.stderr


# ---------------------------------------------------------------- icons
STAR = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<path d="M5 0L6 4L10 5L6 6L5 10L4 6L0 5L4 4Z" fill="#222"/></svg>')


def with_icons(icons: dict[str, str]) -> str:
    lines = (FIXTURE / "cards.csv").read_text().splitlines()
    out = [lines[0] + ",icon"]
    for line in lines[1:]:
        out.append(line + "," + icons.get(line.split(",")[0], ""))
    return "\n".join(out) + "\n"


def test_an_icon_is_drawn_on_the_face(tmp_path):
    content = colours(tmp_path, cards=with_icons({"R1": "star.svg"}), files={"star.svg": STAR})
    faces, key = faces_of(content)
    svg = faces.svg(f"{key}/R1", "full")
    assert "M5 0L6 4L10 5" in svg and 'viewBox="0 0 10 10"' in svg
    assert "M5 0L6 4L10 5" not in faces.svg(f"{key}/R2", "full")


@pytest.mark.parametrize("icon, why", [
    (STAR.replace("<path", '<script>alert(1)</script><path'), "<script>"),
    (STAR.replace('fill="#222"', 'fill="#222" onclick="alert(1)"'), "event handler"),
    (STAR.replace('<path', '<image href="https://example.org/x.png"/><path'), "links to"),
])
def test_an_icon_that_is_not_safe_svg_is_refused(tmp_path, icon, why):
    csv = with_icons({"B4": "evil.svg"})
    content = colours(tmp_path, cards=csv, files={"evil.svg": icon})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/B4", "full"))
    assert d.path.endswith("cards.csv") and d.line == row_of(csv, "B4"), d.format()
    assert "card 'B4'" in d.message and "field 'icon'" in d.message and why in d.message


def test_a_missing_icon_is_said_at_the_cards_row(tmp_path):
    csv = with_icons({"G2": "sun.svg"})
    content = colours(tmp_path, cards=csv, files={"star.svg": STAR})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/G2", "compact"))
    assert d.line == row_of(csv, "G2") and "no picture 'sun.svg'" in d.message


# ---------------------------------------------------------------- backs
def test_a_back_of_the_decks_own_is_sanitised_like_a_logo(tmp_path):
    good = colours(tmp_path / "a", deck=DECK_LINE[:-1] + ", back: back.svg}",
                   files={"back.svg": STAR})
    faces, key = faces_of(good)
    assert "M5 0L6 4L10 5" in faces.svg(f"{key}/_back", "full", bleed_mm=3)
    bad = colours(tmp_path / "b", deck=DECK_LINE[:-1] + ", back: back.svg}",
                  files={"back.svg": STAR.replace("<path", "<script>x</script><path")})
    loaded, _ = load_content(bad)
    d = problem(lambda: Faces(loaded.root).add(loaded.game("high-colours")))
    assert d.path.endswith("back.svg") and "<script>" in d.message


# ---------------------------------------------------------------- the French 52
def test_the_french_faces_are_the_built_in_drawers_unchanged():
    faces = Faces()
    fetcher = CardFetcher()
    for suit in SUITS:
        for rank in RANKS:
            code = rank + suit
            assert faces.svg(code, "compact") == french.card_face(code, style="compact")
            assert faces.svg(code, "full") == french.card_face(code, style="full")
            assert fetcher.svg(code).decode() == french.card_face(code, style="compact")
            assert fetcher.svg("full-" + code).decode() == french.card_face(code, style="full")
    assert faces.svg("back", "compact") == french.face_down()
    assert fetcher.svg("back").decode() == french.face_down()
    assert fetcher.svg("back-b").decode() == french.card_back("b")
    four = Faces(four_colour=True)
    assert four.svg("QC", "full") == french.card_face("QC", style="full", four_colour=True)
    # four-colour suits are the French deck's own: the books' fetcher draws them through it
    for fetch in (CardFetcher(four_colour=True), CardFetcher(faces=four)):
        assert fetch.svg("QC").decode() == french.card_face("QC", style="compact",
                                                            four_colour=True)
        assert fetch.svg("full-QC").decode() == french.card_face("QC", style="full",
                                                                 four_colour=True)
    assert fetch.svg("QC") != fetcher.svg("QC")


# ---------------------------------------------------------------- the book and the site
@pytest.fixture(scope="module")
def colours_report(tmp_path_factory):
    content = colours(tmp_path_factory.mktemp("colours"))
    report = run_check(content)
    assert report.ok and not check_faces(report)
    return report


def test_the_diagrams_draw_the_decks_own_cards_in_its_shape(colours_report):
    from builder.render.book.pdf import book_links, diagrams_of
    from builder.render.present import Presenter

    view = Presenter(book_links()).game(colours_report.games[0])
    arts = {c.art for d in diagrams_of(view) for row in d.rows for z in row if z
            for c in z.cards}
    assert "high-colours/colours/R6" in arts and "high-colours/colours/G5" in arts
    setup = view.examples[0].setup
    assert setup.ratio == pytest.approx(63.5 / 44.5, abs=1e-3)
    geo = setup.geometry()
    assert geo.card_h / geo.card == pytest.approx(63.5 / 44.5, abs=1e-3)
    assert view.cover_cards == ["high-colours/colours/R6", "high-colours/colours/B6"]


def test_the_website_writes_the_decks_own_faces(colours_report, tmp_path):
    from builder.render.site.pages import SiteRenderer

    site = SiteRenderer()
    views = site.views(colours_report)
    faces = Faces(colours_report.content.root)
    faces.add(colours_report.games[0].game)
    assert site.write_cards(tmp_path / "cards", views, faces) == 4
    r6 = (tmp_path / "cards" / "high-colours" / "colours" / "R6.svg").read_text()
    assert texts(r6) == ["6"] and 'aria-label="Red 6"' in r6


@pytest.mark.slow
def test_a_high_colours_rulebook_carries_the_own_faces(colours_report, tmp_path):
    import pdfplumber

    from builder.render.book.pdf import BookRenderer
    from builder.settings import Settings

    root = Path(colours_report.content.root)
    books = BookRenderer(Settings(content_root=root, output=tmp_path), content_root=root)
    g, html = books.book_html(colours_report.games[0])
    info = books.write_book(g, html, tmp_path / "high-colours-rules.pdf")
    with pdfplumber.open(info.path) as pdf:
        cover = pdf.pages[0].extract_text()
        # the cover's cards, whole (pdfplumber reads the bold names' spaces as none)
        assert re.search(r"Red ?6", cover) and re.search(r"Blue ?6", cover), cover
        example = next(p for p in pdf.pages if "AT THE START" in (p.extract_text() or ""))
        # the diagrams' cards: each number large (5.7 mm on a card 10 mm wide), the
        # numbers of the example's cards (R6, B2; Y6, G5)
        big = {c["text"] for c in example.chars if c["size"] > 14 and c["text"].isdigit()}
    assert {"2", "5", "6"} <= big, big


# ---------------------------------------------------------------- raster art, print checks
def raster(width: int, height: int, kind: str = "PNG") -> bytes:
    """A picture of ``width`` x ``height`` pixels, as a PNG or JPEG file."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), "#3a7bd5").save(out, kind)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header says it is ``width`` x ``height`` pixels (a bomb's way)."""
    import struct
    import zlib

    data = bytearray(raster(4, 4))
    data[16:24] = struct.pack(">II", width, height)  # IHDR's width and height
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))  # and its checksum
    return bytes(data)


#: a face that draws the fields ``art`` (a picture 25.4 x 12.7 mm, inside the safe area),
#: ``icon`` (a square 12.7 mm box at x 30: 1.2 mm into the right margin of a mini card,
#: 44.5 mm wide) and ``text`` (a box of 30 x 4 mm)
PRINT_FACE = """\
{% from "cards/_card.svg.j2" import text %}
{{ background(card.bg) }}
{{ picture(card.art, 5, 10, 25.4, 12.7) }}
{{ picture(card.icon, 30, 30, 12.7, 12.7) }}
{{ picture(card.icon, -3, 50, 10, 10, bleed=true) }}
{{ text(fit(card.text, 5, 45, 30, 4, size=8, min_size=6)) }}
"""
PRINT_DECK = DECK_LINE[:-1] + ", face: face.svg.j2}"


def print_deck(tmp_path: Path, rows: dict[str, tuple[str, str, str, str]],
               files: dict[str, str | bytes], face: str = PRINT_FACE) -> tuple[Path, str]:
    """High Colours with the print face and, for the given cards, (art, icon, bg, text)."""
    lines = (FIXTURE / "cards.csv").read_text().splitlines()
    out = [lines[0] + ",art,icon,bg,text"]
    for line in lines[1:]:
        cells = rows.get(line.split(",")[0], ("", "", "", ""))
        out.append(line + "," + ",".join(f'"{c}"' if c else "" for c in cells))
    csv = "\n".join(out) + "\n"
    return colours(tmp_path, deck=PRINT_DECK, cards=csv,
                   files={"face.svg.j2": face, **files}), csv


def test_a_jpeg_and_a_png_of_300_dpi_are_embedded_as_data(tmp_path):
    content, csv = print_deck(tmp_path, {"R1": ("sun.png", "", "sky.jpg", "")},
                              {"sun.png": raster(300, 150), "sky.jpg": raster(600, 850, "JPEG")})
    faces, key = faces_of(content)
    svg = faces.svg(f"{key}/R1", "full", bleed_mm=3)
    assert svg.count('href="data:image/png;base64,') == 1
    assert svg.count('href="data:image/jpeg;base64,') == 1
    assert "sun.png" not in svg and "sky.jpg" not in svg and "file:" not in svg
    # the background fills the card and its bleed, cut to it; the art keeps its proportions
    assert '<svg x="-3" y="-3" width="50.5" height="69.5" viewBox="0 0 600 850" ' \
           'preserveAspectRatio="xMidYMid slice">' in svg
    assert '<image x="5" y="10" width="25.4" height="12.7" preserveAspectRatio="xMidYMid ' \
           'meet" href="data:image/png;base64,' in svg
    assert not check_faces(run_check(content))
    # the shipped face draws a raster icon too
    shipped = colours(tmp_path / "shipped", cards=with_icons({"G3": "moon.jpg"}),
                      files={"moon.jpg": raster(400, 400, "JPEG")})
    faces, key = faces_of(shipped)
    assert 'href="data:image/jpeg;base64,' in faces.svg(f"{key}/G3", "full")
    assert not check_faces(run_check(shipped))


def test_a_raster_picture_of_72_dpi_is_an_error_at_the_cards_row(tmp_path):
    content, csv = print_deck(tmp_path, {"R2": ("sun.png", "", "", "")},
                              {"sun.png": raster(72, 36)})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/R2", "full"))
    assert d.path.endswith("high-colours/cards.csv") and d.line == row_of(csv, "R2"), d.format()
    assert d.message == ("card 'R2': field 'art': 'sun.png' is 72 dpi where it is printed "
                         "(72 x 36 px over 25.4 x 12.7 mm); print needs 300 dpi: at least "
                         "300 x 150 px")
    # the diagrams draw a card 10 mm wide: their compact face is not printed at size
    assert "data:image/png" in faces.svg(f"{key}/R2", "compact")


def test_a_background_is_measured_with_the_bleed_it_is_printed_with(tmp_path):
    # 540 x 750 px is 300 dpi over the mini card alone, 271 over it and its 3 mm bleed
    content, csv = print_deck(tmp_path, {"B2": ("", "", "sky.jpg", "")},
                              {"sky.jpg": raster(540, 750, "JPEG")})
    faces, key = faces_of(content)
    assert "data:image/jpeg" in faces.svg(f"{key}/B2", "full")
    d = problem(lambda: faces.svg(f"{key}/B2", "full", bleed_mm=3))
    assert d.line == row_of(csv, "B2")
    assert d.message == ("card 'B2': field 'bg': 'sky.jpg' is 271 dpi where it is printed "
                         "(540 x 750 px over 50.5 x 70.1 mm); print needs 300 dpi: at least "
                         "597 x 829 px")
    (said,) = check_faces(run_check(content))  # the check draws the full face with bleed
    assert said.line == row_of(csv, "B2") and "271 dpi" in said.message


def test_an_icon_outside_the_safe_area_is_an_error_and_bleed_art_is_not(tmp_path):
    content, csv = print_deck(tmp_path, {"Y3": ("", "star.svg", "", "")}, {"star.svg": STAR})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/Y3", "full"))
    assert d.path.endswith("high-colours/cards.csv") and d.line == row_of(csv, "Y3"), d.format()
    assert d.message.startswith(
        "card 'Y3': field 'icon' reaches 1.2 mm into the 3 mm margin on the right; keep text "
        "and icons inside the safe area (x 3-41.5 mm, y 3-60.5 mm) in ")
    assert "bleed=true" in d.message  # how to mark art meant to run to the cut
    # the same icon placed with bleed=true (the template's line 5) is not said; nor in the
    # compact style, a diagram's
    assert not d.detail
    assert texts(faces.svg(f"{key}/Y3", "compact")) == []


def test_text_placed_outside_the_safe_area_says_how_far(tmp_path):
    face = PRINT_FACE.replace("fit(card.text, 5, 45,", "fit(card.text, 1, 62,")
    content, csv = print_deck(tmp_path, {"G6": ("", "", "", "Go again.")}, {}, face=face)
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/G6", "full"))
    assert d.line == row_of(csv, "G6")
    assert d.message.startswith("card 'G6': field 'text' runs 2.5 mm past the cut at the "
                                "bottom (and on the left); keep text and icons inside the "
                                "safe area"), d.message
    # a template that places every card's name outside it is said once, for the first card
    everyone = colours(tmp_path / "all", deck=PRINT_DECK, files={
        "face.svg.j2": "{{ fit(card.name, 1, 1, 20, 8).text }}"})
    (said,) = check_faces(run_check(everyone))
    assert said.line == 2 and said.message.startswith(
        "card 'R1': its name reaches 2.0 mm into the 3 mm margin on the left (and at the top)")
    assert said.message.endswith("(and 23 more cards the same way)")


def test_text_that_cannot_fit_in_a_print_face_is_said_with_its_measure(tmp_path):
    content, csv = print_deck(tmp_path, {"B5": ("", "", "", "A rule far too long " * 8)}, {})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/B5", "full"))
    assert d.line == row_of(csv, "B5")
    assert d.message.startswith("card 'B5' (Blue 5): field 'text' does not fit its box on the "
                                "full face (30.0 x 4.0 mm) even at 6 pt: it needs ")


@pytest.mark.parametrize("data, why", [
    (b"this is not a picture at all", "'bad.png' is not a PNG or JPEG image"),
    (raster(8, 8, "GIF"), "'bad.png' is not a PNG or JPEG image"),
    (raster(40, 40)[:-30], "'bad.png' is not a readable image (image file is truncated)"),
    (b"\x89PNG\r\n\x1a\n" + b"\0" * (2 * 1024 * 1024 + 1), "'bad.png' is larger than 2 MB"),
    (png_claiming(8000, 4000), "'bad.png' is 8000 x 4000 px (32 megapixels); a picture may "
                               "hold at most 24 megapixels"),
    (png_claiming(30000, 30000), "'bad.png' claims more pixels than may be opened safely"),
], ids=["text", "gif", "cut", "file-size", "pixels", "bomb"])
def test_a_raster_picture_that_is_not_a_bounded_readable_image_is_refused(tmp_path, data, why):
    content, csv = print_deck(tmp_path, {"B4": ("", "bad.png", "", "")}, {"bad.png": data})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/B4", "compact"))
    assert d.path.endswith("high-colours/cards.csv") and d.line == row_of(csv, "B4"), d.format()
    assert d.message.startswith(f"card 'B4': field 'icon': {why}"), d.message


def test_a_template_may_not_write_a_data_uri_of_its_own(tmp_path):
    import base64

    uri = "data:image/png;base64," + base64.b64encode(raster(4, 4)).decode()
    content = colours(tmp_path, deck=PRINT_DECK,
                      files={"face.svg.j2": f'<image href="{uri}" width="5" height="5"/>'})
    faces, key = faces_of(content)
    d = problem(lambda: faces.svg(f"{key}/R1", "full"))
    assert d.path.endswith("face.svg.j2") and "links to 'data:image/png" in d.message


def test_a_raster_back_fills_the_card_and_its_bleed_and_is_measured(tmp_path):
    good = colours(tmp_path / "a", deck=DECK_LINE[:-1] + ", back: back.jpg}",
                   files={"back.jpg": raster(600, 830, "JPEG")})
    faces, key = faces_of(good)
    back = faces.svg(f"{key}/_back", "full", bleed_mm=3)
    assert 'preserveAspectRatio="xMidYMid slice"><image width="600" height="830" ' \
           'href="data:image/jpeg;base64,' in back
    low = colours(tmp_path / "b", deck=DECK_LINE[:-1] + ", back: back.png}",
                  files={"back.png": raster(200, 280)})
    faces, key = faces_of(low)
    line = next(i for i, ln in enumerate((low / "high-colours" / "game.yaml").read_text()
                                         .splitlines(), 1) if "back: back.png" in ln)
    d = problem(lambda: faces.svg(f"{key}/_back", "full", bleed_mm=3))
    assert d.path.endswith("high-colours/game.yaml") and d.line == line, d.format()
    assert d.message.startswith("deck 'colours': the back: 'back.png' is 100 dpi where it is "
                                "printed (200 x 280 px over 50.5 x 70.7 mm)"), d.message
    broken = colours(tmp_path / "c", deck=DECK_LINE[:-1] + ", back: back.png}",
                     files={"back.png": "not a picture"})
    loaded, _ = load_content(broken)
    d = problem(lambda: Faces(loaded.root).add(loaded.game("high-colours")))
    assert d.path.endswith("game.yaml") and d.line == line
    assert "'back.png' is not a PNG or JPEG image" in d.message


def test_warbook_check_says_the_print_problems_located_without_a_traceback(tmp_path):
    content, csv = print_deck(tmp_path, {"R2": ("sun.png", "", "", ""),
                                         "Y3": ("", "star.svg", "", ""),
                                         "B4": ("", "bad.png", "", "")},
                              {"sun.png": raster(72, 36), "star.svg": STAR,
                               "bad.png": b"not a picture"})
    run = subprocess.run([sys.executable, "-m", "builder", "check", "--content", str(content)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    at = "content/high-colours/cards.csv"
    for code, said in [("R2", r"field 'art': 'sun\.png' is 72 dpi where it is printed"),
                       ("Y3", r"field 'icon' reaches 1\.2 mm into the 3 mm margin"),
                       ("B4", r"field 'icon': 'bad\.png' is not a PNG or JPEG image")]:
        assert re.search(rf"{at}:{row_of(csv, code)}:\d+: error: card '{code}': {said}",
                         run.stderr), run.stderr
    assert "Traceback" not in run.stderr
