"""The PDF rulebooks and compendium, checked with a PDF library, not by eye."""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, run_warbook
from pypdf import PdfReader

pytestmark = [pytest.mark.slow, pytest.mark.build]

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
#: the shipped games, in book order, as the content lists them
SLUGS = yaml.safe_load((ROOT / "content" / "index.yaml").read_text())["games"]


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2010", "-").replace("\u00ad", "")
    # the books print typographic quotes (issue 14): an apostrophe in content is a
    # right single quote in print, on either side of the comparison
    text = text.replace("'", "\u2019")
    # and double quotes are curly in print: compared as straight ones
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split())


@functools.lru_cache(maxsize=None)
def reader(path: Path) -> PdfReader:
    """One reader per built PDF for the whole module: the tests only read them."""
    return PdfReader(str(path))


@functools.lru_cache(maxsize=None)
def page_text(path: Path, index: int) -> str:
    """The text of one page of a built PDF, extracted once (the slow part of reading a
    book: several tests read the same pages)."""
    return reader(path).pages[index].extract_text()


def page_texts(path: Path) -> list[str]:
    return [page_text(path, i) for i in range(len(reader(path).pages))]


def outline(reader: PdfReader):
    out = []

    def walk(items, depth):
        for it in items:
            if isinstance(it, list):
                walk(it, depth + 1)
            else:
                out.append((depth, norm(it.title), reader.get_destination_page_number(it)))

    walk(reader.outline, 0)
    return out


def expected_bookmarks(game) -> list[str]:
    names = ["Contents"]
    for top in game.rules:
        names.append(norm(f"{top.number} {top.title}"))
        names += [norm(f"{c.number} {c.title}") for c in top.children]
    names.append("Worked examples")
    names += [norm(f"Example {i} {e.title}") for i, e in enumerate(game.examples, 1)]
    names += ["By the numbers"]  # the balance lab's figures (every shipped game has them)
    names += ["Glossary", norm(f"Quick reference: {game.title}")]
    if game.changes:   # game.yaml's changes: [...] (Winning the Battle's)
        names.append("Changes to the rules")
    return names


@pytest.mark.parametrize("slug", SLUGS)
def test_rulebook_structure(built, report, slug):
    path = built / "pdf" / f"{slug}-rules.pdf"
    r = reader(path)
    game = report.content.game(slug)
    # A4 by default
    box = r.pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == A4
    # bookmarks match the headings (every section, rule and example, nothing else)
    marks = outline(r)
    assert sorted(t for _, t, _ in marks) == sorted(expected_bookmarks(game))
    # metadata
    meta = r.metadata
    assert game.title in meta.title and meta.author and meta.subject and meta.keywords
    # every example's title is printed
    texts = page_texts(path)
    text = norm(" ".join(texts))
    for ex in game.examples:
        assert norm(ex.title) in text, ex.title
    # the quick reference is the last page
    assert norm(f"Quick reference: {game.title}") in norm(texts[-1])


@pytest.mark.parametrize("slug", SLUGS)
def test_contents_page_numbers_are_right(built, slug):
    path = built / "pdf" / f"{slug}-rules.pdf"
    r = reader(path)
    landed = {t: page + 1 for _, t, page in outline(r)}  # folio = page index + 1
    # the quick reference's bookmark names the game ("Quick reference: War"); its contents
    # entry does not
    landed.update({t.split(":")[0]: p for t, p in list(landed.items())
                   if t.startswith("Quick reference:")})
    toc = page_text(path, 1)
    assert toc.startswith("Contents")
    assert re.search(r"^Quick reference\s+\d+\s*$", toc, re.M), "the contents runs over its page"
    # the leader dots are a drawn rule, not text: an entry reads "title page"
    entries = re.findall(r"^(.+?)\s+(\d+)\s*$", toc, re.M)
    assert len(entries) >= 10
    unmatched = []
    for label, page in entries:
        label = norm(label)
        if label.startswith("Example"):
            label = re.sub(r"^Example (\d+): ", r"Example \1 ", label)
        if label in landed:
            assert int(page) == landed[label], f"{label}: contents says {page}, heading is on {landed[label]}"
        else:
            unmatched.append(label)
    assert unmatched == [], unmatched


@pytest.mark.parametrize("slug", SLUGS)
def test_cross_reference_pages_are_right(built, report, slug):
    path = built / "pdf" / f"{slug}-rules.pdf"
    r = reader(path)
    game = report.content.game(slug)
    landed = {t: page + 1 for _, t, page in outline(r)}
    by_number = {}
    for top in game.rules:
        for rule in top.walk():
            by_number[rule.number.rstrip(".")] = rule
    checked = 0
    pages = [norm(t) for t in page_texts(path)]
    # every page-number placeholder was filled in (render/book/pagerefs.py)
    assert not [i for i, t in enumerate(pages, 1) if re.search(r"p\. ?00\b", t)]
    for top in game.rules:
        for rule in top.walk():
            key = norm(f"{rule.number} {rule.title}")
            if key not in landed:  # a level-3 rule has no bookmark
                continue
            pattern = re.compile(re.escape(key) + r", p\. ?(\d+)")
            for i, text in enumerate(pages[2:], start=3):
                for page_no in pattern.findall(text):
                    assert int(page_no) == landed[key], (
                        f"page {i}: '{key}' printed as p. {page_no}, but it is on p. {landed[key]}")
                    checked += 1
    assert checked >= 3


def pdf_fonts(r: PdfReader) -> dict[str, bool]:
    fonts = {}

    def visit(resources):
        if not resources:
            return
        res = resources.get_object()
        for _, f in (res.get("/Font") or {}).items():
            f = f.get_object()
            assert f.get("/Subtype") != "/Type3", f"a Type 3 font: {f.get('/Name')}"
            descs = []
            if "/DescendantFonts" in f:
                descs = [d.get_object().get("/FontDescriptor") for d in f["/DescendantFonts"]]
            else:
                descs = [f.get("/FontDescriptor")]
            for d in descs:
                d = d.get_object() if d is not None else {}
                embedded = any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                fonts[str(f.get("/BaseFont"))] = embedded
        for _, x in (res.get("/XObject") or {}).items():
            x = x.get_object()
            if "/Resources" in x:
                visit(x["/Resources"])

    for p in r.pages:
        visit(p.get("/Resources"))
    return fonts


@pytest.mark.parametrize("name", [f"{s}-rules.pdf" for s in SLUGS] + ["compendium.pdf"])
def test_fonts_embedded_and_chosen(built, name):
    fonts = pdf_fonts(reader(built / "pdf" / name))
    assert fonts and all(fonts.values()), fonts
    names = {re.sub(r"^/?[A-Z]{6}\+", "", n) for n in fonts}
    # Warbook-Signs: the suits and arrows (DejaVu Sans, named and embedded on purpose);
    # nothing else, and no face a machine happened to have
    assert all(n.startswith(("EB-Garamond", "EBGaramond", "Cabin", "Warbook-Signs")) for n in names), names
    assert any(n.startswith("Cabin") for n in names) and any(n.startswith("EB") for n in names)


def test_compendium(built, report):
    path = built / "pdf" / "compendium.pdf"
    r = reader(path)
    marks = outline(r)
    top = [t for d, t, _ in marks if d == 0]
    for g in report.content.games:
        assert g.title in top
    assert "Introduction" in top and "The games side by side" in top
    text = norm(" ".join(page_text(path, i) for i in range(8)))  # the table runs on
    assert "The games side by side" in text
    for g in report.content.games:
        assert norm(g.compare["win"]) in text
    # the contents' part page numbers are the folios printed on the parts
    labels = r.page_labels
    titles = {g.title for g in report.content.games}
    toc_pages = [t for t in (page_text(path, i) for i in range(1, 5)) if "Golden rules" in t]
    toc_lines = "\n".join(toc_pages).splitlines()
    found = 0
    current = None
    for line in toc_lines:
        line = norm(line)
        if line == "Index Index \u00b7 1":  # the index, the book's last part
            current = None
            continue
        part = [t for t in titles if line == f"{t} {t} \u00b7 1"]
        if part:  # a part's heading and its first page: the numbers below are its pages
            current = part[0]
            continue
        m = re.match(r"^(.+?)\s+(\d+)$", line)
        if not m or current is None:
            continue
        title, num = m.group(1), m.group(2)
        if title == "Quick reference":  # the heading names the game
            title = f"Quick reference: {current}"
        # the page this part's heading landed on, and the label printed there
        hits = [page for d, t, page in marks
                if t == title and labels[page].rsplit(" ", 1)[0] == current]
        assert hits, (current, title)
        assert labels[hits[0]] == f"{current} {num}", (current, title, num, labels[hits[0]])
        found += 1
    assert found >= 30
    assert labels[0] == "i"
    # the front matter's printed folios are its page labels: i, ii, iii ...
    for i in range(1, 4):
        assert page_text(path, i).split()[-1] == labels[i], i
    meta = r.metadata
    assert meta.title and meta.author and meta.subject and meta.keywords


def _flat(node) -> list:
    out = []
    for key in ("/Nums", "/Names"):
        if key in node:
            out.extend(node[key])
    for kid in node.get("/Kids", []):
        out.extend(_flat(kid))
    return out


def test_compendium_is_one_tagged_navigable_book(built, report):
    """The bound compendium keeps what the rulebooks had: one tag tree, links that land,
    and parts that start on right-hand pages."""
    import pikepdf

    with pikepdf.open(built / "pdf" / "compendium.pdf") as pdf:
        struct = pdf.Root.StructTreeRoot
        (document,) = list(struct.K) if isinstance(struct.K, pikepdf.Array) else [struct.K]
        assert document.S == "/Document"
        kinds = [str(k.S) for k in document.K]
        # the front matter, then the parts: each game, and the index last
        assert kinds == ["/Sect"] + ["/Part"] * (len(report.content.games) + 1), kinds
        assert all(k.P.objgen == document.objgen for k in document.K)

        nums = _flat(struct.ParentTree)
        keys = [int(k) for k in nums[0::2]]
        assert len(keys) == len(set(keys))
        assert int(struct.ParentTreeNextKey) > max(keys)
        tree = dict(zip(keys, nums[1::2]))
        page_ids = {p.obj.objgen: i for i, p in enumerate(pdf.pages)}
        flat = _flat(pdf.Root.Names.Dests)
        dests = {str(k): v for k, v in zip(flat[0::2], flat[1::2])}
        assert list(dests) == sorted(dests, key=lambda n: n.encode())
        links = 0
        for i, page in enumerate(pdf.pages):
            if "/StructParents" in page.obj:
                marked = tree[int(page.obj.StructParents)]
                # the page's marked content belongs to elements that name this page
                for el in marked:
                    if isinstance(el, pikepdf.Dictionary) and "/Pg" in el:
                        assert page_ids[el.Pg.objgen] == i
            for annot in page.obj.get("/Annots", []):
                if annot.get("/Subtype") != "/Link":
                    continue
                assert int(annot.StructParent) in tree
                assert "/A" not in annot or not str(annot.A.get("/URI", "")).startswith("warbook-dest:")
                if "/Dest" in annot:
                    links += 1
                    assert str(annot.Dest) in dests, annot.Dest
        assert links > 500

        # every part starts on a right-hand page, and its first page is labelled "<game> 1"
        labels = _flat(pdf.Root.PageLabels)
        starts = {int(k): v for k, v in zip(labels[0::2], labels[1::2])}
        parts = [(k, str(v.P).strip()) for k, v in starts.items() if "/P" in v]
        assert [t for _, t in parts] == [g.title for g in report.content.games] + ["Index"]
        assert all(k % 2 == 0 for k, _ in parts), parts
        # the contents' links land on the pages whose headings they name
        first = {t: k for k, t in parts}
        for annot in pdf.pages[1].obj.get("/Annots", []):
            name = str(annot.get("/Dest", ""))
            if name.endswith("--_cover"):
                slug = name[:-len("--_cover")]
                game = next(g for g in report.content.games if g.slug == slug)
                assert page_ids[dests[name][0].objgen] == first[game.title]


def test_compendium_index_names_the_pages_its_links_land_on(built, report):
    """Issue 27, item 6: the compendium ends with an index of every glossary term and
    numbered rule. Each reference is a link; the page it prints ("3.2 · 4") is the folio of
    the page it lands on (the page label "Battle Lines 4"), and the part its entry names
    is that page's part."""
    import pdfplumber
    import pikepdf

    path = built / "pdf" / "compendium.pdf"
    labels = reader(path).page_labels
    first = next(i for i, label in enumerate(labels) if label == "Index 1")
    assert labels[-1].startswith("Index ")
    with pikepdf.open(path) as pdf, pdfplumber.open(path) as plumb:
        page_ids = {p.obj.objgen: i for i, p in enumerate(pdf.pages)}
        flat = _flat(pdf.Root.Names.Dests)
        dests = {str(k): v for k, v in zip(flat[0::2], flat[1::2])}
        checked, games = 0, set()
        for i in range(first, len(pdf.pages)):
            height = float(pdf.pages[i].mediabox[3])
            chars = plumb.pages[i].chars
            widest: dict[str, tuple] = {}  # a link's whole box (its page number has one too)
            for annot in pdf.pages[i].obj.get("/Annots", []):
                if "/Dest" in annot:
                    xs = sorted(float(v) for v in annot.Rect[0::2])
                    ys = sorted(height - float(v) for v in annot.Rect[1::2])
                    box = (xs[0], ys[0], xs[1], ys[1])
                    name = str(annot.Dest)
                    if name not in widest or box[2] - box[0] > widest[name][2] - widest[name][0]:
                        widest[name] = box
            for name, (x0, top, x1, bottom) in widest.items():
                said = "".join(c["text"] for c in chars
                               if x0 < (c["x0"] + c["x1"]) / 2 < x1 and top < (c["top"] + c["bottom"]) / 2 < bottom)
                m = re.fullmatch(r"(glossary|[\dG][\d.]*)\s*\u00b7\s*(\d+)", norm(said))
                assert m, (said, name)
                landed = labels[page_ids[dests[name][0].objgen]]
                game, folio = landed.rsplit(" ", 1)
                assert folio == m.group(2), (said, landed)
                games.add(game)
                checked += 1
    assert checked > 300
    assert games == {g.title for g in report.content.games}
    # an entry two games share is one entry: Dealing is a rule of War and of Peace
    text = norm(" ".join(page_text(path, i) for i in range(first, len(labels))))
    assert text.count("Dealing War 3.1") == 1 and "Peace 3.1" in text


@pytest.mark.parametrize("slug", ["war", "battle"])
def test_every_diagram_is_a_described_figure(built, report, slug):
    """A step's table is one picture in the tag tree, whose alternative text says what
    lies where, zone by zone."""
    import pikepdf

    game = report.content.game(slug)
    alts = []

    def walk(el):
        if isinstance(el, pikepdf.Dictionary) and ("/S" in el or el.get("/Type") == "/StructTreeRoot"):
            if el.get("/S") == "/Figure" and "/Alt" in el:
                alts.append(str(el.Alt))
            kids = el.get("/K")
            for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                walk(kid)

    with pikepdf.open(built / "pdf" / f"{slug}-rules.pdf") as pdf:
        walk(pdf.Root.StructTreeRoot)
    tables = [a for a in alts if a.startswith("The table")]
    assert len(tables) >= sum(1 + len(e.steps) for e in game.examples)
    first = tables[0]
    # a hand says who sees it (it is drawn face up for the reader)
    zones = {"war": ["Deck:", "In play:"], "battle": ["Hand (seen by Jet only):", "Killed:"]}[slug]
    assert all(z in first for z in zones), first
    assert first.endswith(".") and "cards" in first


def test_letter_paper(war_letter):
    """``build --game war --paper letter`` (the session's shared build of it, conftest.py:
    test_publish.py needs the same one)."""
    r = PdfReader(str(war_letter / "pdf" / "war-rules.pdf"))
    box = r.pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == LETTER


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_broken_example_stops_the_build_and_keeps_the_old_output(tmp_path, war_alone):
    """The old output: a good build of War alone (the session's shared build of that
    content, conftest.py, copied with its files' times, and the content beside it
    copied)."""
    content = tmp_path / "content"
    shutil.copytree(war_alone[0], content)
    assert (content / "index.yaml").read_text() == "games: [war]\n"
    out = tmp_path / "out"
    shutil.copytree(war_alone[1], out, symlinks=True)
    before = digest(out)
    assert "pdf/war-rules.pdf" in before
    ex = content / "war" / "examples" / "02-one-war.yaml"
    ex.write_text(ex.read_text().replace("trick.cards: 10", "trick.cards: 9"))
    proc = run_warbook("build", "--content", str(content), "--out", str(out))
    assert proc.returncode == 1
    assert "02-one-war.yaml" in proc.stderr and "Traceback" not in proc.stderr
    assert digest(out) == before
    assert not list(tmp_path.glob(".out.staging-*"))
