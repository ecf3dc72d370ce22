"""Rulebooks that read like published ones (issue 14): each mechanism pinned, on the built
PDFs read back with pdfplumber and pdftotext, and on the presenter's objects where the
mechanism is there.

Expected values are worked out by hand from the rules (player counts, what a card code
reads as), never copied from the code's output.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from builder.render.markup import Markdown, prose, smart
from builder.render.present import Links, Presenter, players_text

CODE = re.compile(r"(?<![\w\-/.])(10|[2-9AJQK])[CDHS](?![\w\-/])")

#: words a state line must never print: the engines' view keys and values as they are
FORBIDDEN = {
    "war": [r"trick\.", "trick wars", "trick cards", "winner:", "result", " none"],
    "peace": [r"trick\.", "trick wars", "trick cards", "winner:", "result", " none"],
    "battle": ["status", "fighters", "battle round", "turn winner", ": in ", " none"],
    "battle-lines": ["phase", "last-turn", "deploy-", "reinforced:", "battle left", "battle centre",
                     "battle right", " none"],
    "deck-management": ["status", "phase", "discard count", "discarder", "trick wars",
                        "trick cards", " none", "playing"],
    "winning-the-battle": ["battle pairs", "battle ties", "battle sweep", "middle stones",
                           "outflanker", "drew", "covered", " none", ": yes ", ": no "],
    "ultimate": ["pot played", "pot points", "round winner", "turned:", " none"],
    "happy-families": [r"families\.left", "leaders", r"\.known", r"\.laid", "asks: ", "result",
                       " none"],
}


def _links() -> Links:
    return Links(anchor=lambda s, r: f"{s}--{r}", href=lambda s, r: f"#{s}--{r}",
                 card=lambda c: f"card:{c}")


@pytest.fixture(scope="module")
def views(report):
    return {gr.game.slug: Presenter(_links()).game(gr) for gr in report.games}


# ---------------------------------------------------------------- the mechanisms, quickly
def test_card_codes_print_as_cards_in_markdown_and_in_plain_text():
    html = str(prose("North's KS beats 10H, a 8D"))
    assert "KS" not in html and "10H" not in html and "8D" not in html
    assert "K<span class=\"suit\">\u2660</span>" in html
    assert re.search(r'10<span class="suit" style="color: #[0-9a-f]{6}">\u2665</span>', html)
    assert "suit-red" in html and "suit-black" in html
    assert "North\u2019s" in html and "an " in html  # "an 8", said "an eight"
    md = str(Markdown(lambda r: None).block("Play *QC* or `2H`; 2-4 players, \"quoted\"."))
    assert not CODE.search(re.sub(r"<[^>]+>", "", md))
    assert 'Q<span class="suit">\u2663</span>' in md and "2\u20134" in md and "&ldquo;" in md
    # words that only look like codes stay words
    assert str(prose("AS-IS 3Cs HS")) == "AS-IS 3Cs HS"


def test_smart_typesets_titles_without_markup():
    assert smart("Players' hands 2-4") == "Players\u2019 hands 2\u20134"
    assert smart('"Go"') == "\u201cGo\u201d"


def test_player_counts_come_from_the_engine(views):
    # Battle: two players (one deck) or four (two decks), never three (rules 3.1 and 3.2)
    assert views["battle"].players == "2 or 4"
    assert views["battle"].compare["players"] == "2 or 4"
    assert views["deck-management"].players == "2\u20134"
    assert views["war"].players == "2"
    assert players_text((2, 3, 4)) == "2\u20134" and players_text((4, 2)) == "2 or 4"


def test_no_internal_name_reaches_a_state_line(views):
    for slug, v in views.items():
        for e in v.examples:
            lines = list(e.setup_state) + [line for s in e.steps for line in s.state]
            for who, text in lines:
                plain = re.sub(r"<[^>]+>", "", str(text)).lower()
                for word in FORBIDDEN[slug]:
                    assert not re.search(word, f" {plain} "), (slug, e.id, who, plain, word)
                assert not re.search(r"\bp\d\b", plain), (slug, who, plain)
                # the old strip's "key value · key value" form
                assert "\u00b7" not in plain, (slug, who, plain)


def test_a_reveal_is_labelled_and_what_moved_is_marked(views):
    # War, example 1, step 1: North turns up KS, South 7H; North takes both (rule 4.2).
    # The diagram is the reveal (both cards in play), the lines the table after it:
    # North 3 cards, South 1.
    step = views["war"].examples[0].steps[0]
    assert step.at_reveal and step.diagram.moment == "reveal"
    in_play = [c for row in step.diagram.rows for z in row if z and z.cards and z.style != "pile"
               for c in z.cards]
    assert sorted(c.code for c in in_play) == ["7H", "KS"]
    assert all(c.moved for c in in_play)
    text = {who: re.sub(r"<[^>]+>", "", str(t)) for who, t in step.state}
    assert text["North"].startswith("3 cards") and text["South"].startswith("1 card ")


def test_stones_are_drawn_as_tokens(views):
    zones = [z for e in views["winning-the-battle"].examples
             for row in e.setup.rows for z in row if z and z.style == "tokens"]
    assert zones and any(z.tokens > 0 for z in zones)
    # each token placed inside its place
    for e in views["winning-the-battle"].examples:
        for p in e.setup.geometry().zones:
            if p.zone.style == "tokens":
                assert len(p.tokens) == p.zone.tokens
                for cx, cy, r in p.tokens:
                    assert p.x <= cx - r and cx + r <= p.x + p.w


# ---------------------------------------------------------------- the built books
SLUGS = ("war", "battle", "winning-the-battle")


@pytest.fixture(scope="module")
def books(built) -> Path:
    """The rulebooks of the session's whole build (conftest.py): a ``--game`` build of one
    of these games writes the same book (the same text, page for page), so these tests read
    the session's copies instead of building the three games again. Read only: what a test
    makes of them goes to its own tmp_path."""
    for slug in SLUGS:
        assert (built / "pdf" / f"{slug}-rules.pdf").is_file(), slug
    return built / "pdf"


@pytest.fixture(scope="module")
def plumbed(books):
    """The three rulebooks opened once with pdfplumber, for the tests that read their
    characters: a page keeps its characters once read (the slow part), so the second test
    to read a page does not read it again. Closed when the module's tests are done."""
    import pdfplumber

    docs = {slug: pdfplumber.open(books / f"{slug}-rules.pdf") for slug in SLUGS}
    yield docs
    for doc in docs.values():
        doc.close()


def _pages(doc):
    for page in doc.pages:
        yield page, page.extract_text_lines(layout=False, strip=True)


@pytest.mark.slow
@pytest.mark.build
def test_no_card_code_in_printed_prose(books):
    for slug in SLUGS:
        text = subprocess.run(["pdftotext", str(books / f"{slug}-rules.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert not CODE.search(text), (slug, CODE.search(text).group(0))
        assert "\u2660" in text or "\u2665" in text


def _lines(page):
    """A page's printed lines, read from its characters: a row of characters at one height,
    cut wherever a gap wider than 4 mm separates two (the gutter between columns)."""
    gap = 4 / 25.4 * 72
    rows: dict[int, list] = {}
    for c in page.chars:
        rows.setdefault(round(c["top"]), []).append(c)
    for _, chars in sorted(rows.items()):
        chars.sort(key=lambda c: c["x0"])
        line = [chars[0]]
        for a, b in zip(chars, chars[1:]):
            if b["x0"] - a["x1"] > gap:
                yield "".join(c["text"] for c in line)
                line = []
            line.append(b)
        yield "".join(c["text"] for c in line)


@pytest.mark.slow
@pytest.mark.build
def test_rules_lines_are_at_most_80_characters(plumbed):
    """The rules (from the first section to the worked examples): no line over 80
    characters (one column of the page's width held about 120)."""
    for slug in SLUGS:
        for n, page in enumerate(plumbed[slug].pages[2:], start=3):
            # the rules end at the heading "Worked examples" (wherever on its page)
            heads = [line["top"] for line in page.extract_text_lines(strip=True)
                     if line["text"] == "Worked examples"]
            if heads:
                page = page.crop((0, 0, page.width, heads[0]))
            for line in _lines(page):
                assert len(line) <= 80, (slug, n, line)
            if heads:
                break


@pytest.mark.slow
@pytest.mark.build
def test_no_page_under_40_percent_full_but_the_last(books):
    """Fill read from the rendered page (20 dpi, grey): the lowest inked row of the text
    block. Rendered with PDFium (pypdfium2, as tests/render/book/test_stamp.py and the
    component tests render): poppler's pdftoppm spends seconds on each contents page (its
    leader dots are tiling patterns) for the same 166 x 234 pixels.

    "By the numbers" opens a page of its own, so the worked examples' last page ends a
    section as the book's last page ends the book: it holds at least a quarter of a page
    (a whole step, never a split step's last lines alone: Battle once left two lines on a
    4 %-full page there)."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    for slug in SLUGS:
        pdf = pdfium.PdfDocument(str(books / f"{slug}-rules.pdf"))
        texts = [p.extract_text() for p in PdfReader(str(books / f"{slug}-rules.pdf")).pages]
        try:
            pages = len(pdf)
            assert pages > 1, slug
            for n in range(1, pages):  # every page but the last
                if texts[n].startswith("Quick reference:"):
                    continue  # the glossary's end, the book's last page of text (the quick
                    # reference, on a page of its own, is the back cover)
                least = 0.25 if texts[n].startswith("By the numbers\n") else 0.40
                im = pdf[n - 1].render(scale=20 / 72, grayscale=True).to_pil().convert("L")
                w, h = im.size
                mm = h / 297
                top, bottom = int(19 * mm), int((297 - 21) * mm)
                px = im.load()
                last = max((y for y in range(top, bottom)
                            if any(px[x, y] < 235 for x in range(int(15 * mm), w - int(15 * mm)))),
                           default=top)
                assert (last - top) / (bottom - top) >= least, (slug, n)
        finally:
            pdf.close()


@pytest.mark.slow
@pytest.mark.build
def test_no_hyphenation_in_cells_headings_and_covers(plumbed):
    """A word broken at a line end is a line ending in letter + hyphen whose next line goes
    on in lower case. Only the running text (EB Garamond at 10.6 pt) may break words."""
    for slug in SLUGS:
        for n, (page, lines) in enumerate(_pages(plumbed[slug]), start=1):
            for a, b in zip(lines, lines[1:]):
                if not (re.search(r"[a-z]-$", a["text"]) and re.match(r"[a-z]", b["text"])):
                    continue
                last = a["chars"][-1]
                body = "Garamond" in last["fontname"] and abs(last["size"] - 10.6) < 0.3
                assert body and n > 1, (slug, n, a["text"], last["fontname"], last["size"])


# ---------------------------------------------------------------- print and play
@pytest.mark.slow
@pytest.mark.build
def test_the_score_track_is_one_sheet(built):
    """Ultimate's diamond points run 0 to 91 (13 diamonds, A=1 .. K=13: 91 in all): every
    number of the track is printed on one and the same sheet."""
    pdf = built / "pdf" / "ultimate-components.pdf"
    from pypdf import PdfReader

    n = len(PdfReader(pdf).pages)
    holders = []
    for i in range(1, n + 1):
        text = subprocess.run(["pdftotext", "-f", str(i), "-l", str(i), str(pdf), "-"],
                              capture_output=True, text=True, check=True).stdout
        numbers = {int(t) for t in re.findall(r"(?m)^\s*(\d{1,2})\s*$", text)}
        if set(range(0, 92)) <= numbers:
            holders.append(i)
    assert len(holders) == 1, holders


@pytest.mark.slow
@pytest.mark.build
def test_card_fronts_have_no_line_near_a_cut(built):
    """On the deck's first sheet of fronts (nine poker cards abutting, 63 x 88 mm), the
    paper within 0.5 mm either side of each cut line between two cards is blank, and no
    frame line stands within 3 mm of a card's edge: a cut a little off its line leaves the
    same card on both sides. Cut lines are read from the
    page's TrimBox (the union of the trims)."""
    from PIL import Image
    from pypdf import PdfReader

    pdf = built / "pdf" / "pnp-deck.pdf"
    page = PdfReader(pdf).pages[2]   # page 3: page 2 is the cover's blank back (issue 27)
    x0, y0, x1, y1 = (float(v) for v in page.trimbox)
    height_pt = float(page.mediabox.height)
    mm = 72 / 25.4
    assert abs((x1 - x0) - 3 * 63 * mm) < 1 and abs((y1 - y0) - 3 * 88 * mm) < 1
    dpi = 150
    out = built / "keyline"
    subprocess.run(["pdftoppm", "-f", "3", "-l", "3", "-r", str(dpi), "-gray", "-png",
                    str(pdf), str(out)], check=True)
    im = Image.open(next(built.glob("keyline*.png"))).convert("L")
    px = im.load()
    k = dpi / 72
    top, bottom = int((height_pt - y1) * k), int((height_pt - y0) * k)
    for col in (1, 2):
        cut = (x0 + col * 63 * mm) * k
        for dx in range(-int(0.5 * mm * k), int(0.5 * mm * k) + 1):
            x = int(round(cut + dx))
            dark = sum(px[x, y] < 200 for y in range(top + 10, bottom - 10))
            assert dark < 0.02 * (bottom - top), (col, dx, dark)
    # and no frame line stands within 3 mm of a trim (issue 27, item 3): halfway down the
    # cards (between their corner indices) the first 3 mm inside each card's left and right
    # edges are blank paper
    mid = (top + bottom) // 2
    for col in range(3):
        for edge, sign in ((x0 + col * 63 * mm, 1), (x0 + (col + 1) * 63 * mm, -1)):
            band = [px[int(round(edge * k + sign * d)), y] for d in range(2, int(3 * mm * k))
                    for y in range(mid - 20, mid + 20)]
            assert min(band) > 200, (col, sign, min(band))
