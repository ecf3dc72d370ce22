"""One whole, successful build, read from the outside: every product where the docs say it
goes, on the paper the content asked for, with the content's own logo and templates, and
what the build prints matching what it wrote (page counts read back from the PDFs).

The content is War and Peace (two games: the rulebooks are shared with a forked process and
bound into a compendium) on US Letter, with an SVG logo that says "Zanzibar" and the
compendium's front page overridden by the content to carry a line of its own."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from builder.build import build, up_to_date
from builder.check import run_check
from builder.incremental import MANIFEST
from builder.settings import PAPERS, Settings

ROOT = Path(__file__).resolve().parents[2]
LETTER = (612.0, 792.0)   # points: 8.5 x 11 in
LOGO = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">'
        '<rect width="120" height="40" fill="#335"/>'
        '<text x="8" y="27" font-size="20" fill="#fff">Zanzibar</text></svg>')
OWN_LINE = "Printed for the Tuesday club"
BOOK_LINE = "House rules are welcome at the Tuesday club"   # the content's own book template

pytestmark = [pytest.mark.slow, pytest.mark.build]


def letter(content: Path, out: Path, **kw) -> Settings:
    """The build's settings: US Letter, as the content's index.yaml asks."""
    return Settings(content_root=content, output=out, paper=PAPERS["letter"], **kw)


class Printed:
    """What the build says (its ``warbook`` loggers), written to a file as it is said: the
    forked child inherits the handler and its line-buffered file in append mode, so the
    lines of both processes land whole."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        import logging

        self.file = open(self.path, "a", buffering=1)
        self.handler = logging.StreamHandler(self.file)
        self.logger = logging.getLogger("warbook")
        self.level = self.logger.level
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self.level)
        self.file.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("whole")
    content = tmp / "content"
    for slug in ("war", "peace"):
        shutil.copytree(ROOT / "content" / slug, content / slug)
    (content / "logo.svg").write_text(LOGO)
    (content / "index.yaml").write_text(
        "book:\n  title: Two Wars\n  paper: letter\n  logo: logo.svg\ngames: [war, peace]\n")
    front = (ROOT / "templates" / "book" / "front.html.j2").read_text()
    assert front.count("</body>") == 1
    (content / "templates" / "book").mkdir(parents=True)
    (content / "templates" / "book" / "front.html.j2").write_text(
        front.replace("</body>", f"<p>{OWN_LINE}</p></body>"))
    book = (ROOT / "templates" / "book" / "book.html.j2").read_text()
    assert book.count("</body>") == 1
    (content / "templates" / "book" / "book.html.j2").write_text(
        book.replace("</body>", f"<p>{BOOK_LINE}</p></body>"))
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    out = tmp / "output"
    # what both processes say
    log = tmp / "printed.txt"
    with Printed(log):
        status = build(report, letter(content, out))
    return content, out, status, log.read_text()


def pages(pdf: Path) -> int:
    return len(PdfReader(pdf).pages)


def check_the_build_succeeds_and_writes_each_product(built):
    _, out, status, _ = built
    assert status == 0
    names = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    for want in ("pdf/war-rules.pdf", "pdf/peace-rules.pdf", "pdf/compendium.pdf",
                 "site/index.html", "site/war.html", "site/peace.html",
                 "site/pdf/war-rules.pdf", "site/pdf/compendium.pdf", MANIFEST):
        assert want in names, (want, sorted(names)[:30])
    assert any(n.startswith("pdf/") and "war" in n and "rules" not in n for n in names), \
        "no component sheets for War"
    assert not [p for p in out.parent.iterdir() if ".staging-" in p.name]
    assert not (out / ".replace-dirs").exists()       # the build's own marker stays behind


def check_the_website_ships_the_pdfs_as_they_are(built):
    _, out, _, _ = built
    for p in (out / "site" / "pdf").glob("*.pdf"):
        assert hashlib.sha256(p.read_bytes()).digest() == \
            hashlib.sha256((out / "pdf" / p.name).read_bytes()).digest()


def check_every_pdf_is_on_the_paper_asked_for(built):
    """Rulebooks and the compendium are trimmed to Letter; the sheets are printed on it
    (their trim boxes are the components')."""
    _, out, _, _ = built
    for pdf in sorted((out / "pdf").glob("*.pdf")):
        book = pdf.name.endswith("-rules.pdf") or pdf.name == "compendium.pdf"
        for i, page in enumerate(PdfReader(pdf).pages):
            box = page.trimbox if book else page.mediabox
            size = (round(float(box.width), 1), round(float(box.height), 1))
            assert size in (LETTER, LETTER[::-1]), (pdf.name, i + 1, size)


def check_what_the_build_prints_is_what_it_wrote(built):
    _, out, _, printed = built
    said = dict(re.findall(r"wrote (pdf/\S+\.pdf) \((\d+) pages\)", printed))
    assert set(said) >= {"pdf/war-rules.pdf", "pdf/peace-rules.pdf", "pdf/compendium.pdf"}
    for name, n in said.items():
        assert int(n) == pages(out / name), name
    m = re.search(r"built (.+) into (\S+) \((\d+) files in place\) in ([\d.]+) s", printed)
    assert m, printed
    assert Path(m.group(2)) == out
    files = [p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST]
    assert int(m.group(3)) == len(files)
    assert {"book:war", "book:peace", "compendium", "site"} <= set(m.group(1).split(", "))


def check_the_manifest_records_each_book_as_written(built):
    _, out, _, _ = built
    units = json.loads((out / MANIFEST).read_text())["units"]
    for slug in ("war", "peace"):
        book = units[f"book:{slug}"]
        assert f"pdf/{slug}-rules.pdf" in book["files"]
        assert book["book"]["count"] == pages(out / "pdf" / f"{slug}-rules.pdf")


def check_the_compendium_carries_the_contents_logo_and_templates(built):
    _, out, _, _ = built
    reader = PdfReader(out / "pdf" / "compendium.pdf")
    text = " ".join((reader.pages[i].extract_text() or "") for i in range(min(4, len(reader.pages))))
    assert "Zanzibar" in text           # the logo, drawn on the cover
    assert OWN_LINE in text             # the content's own front template
    assert "Two Wars" in text
    book = PdfReader(out / "pdf" / "war-rules.pdf")
    words = " ".join(p.extract_text() or "" for p in book.pages)
    assert OWN_LINE not in words
    assert BOOK_LINE in " ".join(words.split())      # the rulebook's own template, too
    assert "By the numbers" in words     # the figures stage's figures reach the rulebooks


def check_the_next_build_finds_nothing_to_do(built):
    content, out, _, _ = built
    n = up_to_date(letter(content, out))
    assert n == len([p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST])
    assert up_to_date(Settings(content, out, PAPERS["a4"])) is None  # another paper: another build
    assert up_to_date(letter(content, out, four_colour=True)) is None   # so is CMYK
    assert up_to_date(letter(content, out, ink="low")) is None
    assert up_to_date(letter(content, out, site_url="https://example.org/rules/")) is None


CHECKS = [check_the_build_succeeds_and_writes_each_product,
          check_the_website_ships_the_pdfs_as_they_are, check_every_pdf_is_on_the_paper_asked_for,
          check_what_the_build_prints_is_what_it_wrote, check_the_manifest_records_each_book_as_written,
          check_the_compendium_carries_the_contents_logo_and_templates,
          check_the_next_build_finds_nothing_to_do]


def test_one_whole_build_read_from_outside(built):
    """Every check above on the one build. (One test, not seven: the build runs in the
    module's fixture, and the mutation tests run, for a mutant of the build, only the test
    that first ran it, so the checks must all be in that test to guard it.)"""
    for check in CHECKS:
        check(built)


def test_a_game_build_into_the_output_keeps_the_other_game_whole(built, tmp_path):
    """A second build of War alone, rendering everything of War again (no reuse), into a
    copy of the first output: War's rulebook is written anew, Peace's files are the very
    same files (linked, not copied: same inode), the website is rendered again, and
    nothing is left beside the output."""
    import os

    _, first, _, _ = built
    out = tmp_path / "output"
    shutil.copytree(first, out, copy_function=os.link)    # the same files, linked
    (out / "site" / "stale.html").write_text("a page the new website does not have")
    content = built[0]
    report = run_check(content)
    peace_before = (out / "pdf" / "peace-rules.pdf").stat()
    war_before = (out / "pdf" / "war-rules.pdf").stat()
    kept = {p: p.stat().st_ino for p in [out / "pdf" / "compendium.pdf",
                                         *(out / "pdf").glob("pnp-deck*.pdf")]}
    assert build(report, letter(content, out), game="war", reuse=False) == 0
    # the parts a game build does not make are carried over as they are
    assert {p: p.stat().st_ino for p in kept} == kept and len(kept) >= 2
    peace = (out / "pdf" / "peace-rules.pdf").stat()
    assert (peace.st_ino, peace.st_mtime_ns) == (peace_before.st_ino, peace_before.st_mtime_ns)
    war = (out / "pdf" / "war-rules.pdf").stat()
    assert war.st_ino != war_before.st_ino
    assert pages(out / "pdf" / "war-rules.pdf") == pages(first / "pdf" / "war-rules.pdf")
    assert (out / "site" / "peace.html").exists() and (out / "site" / "war.html").exists()
    assert not (out / "site" / "stale.html").exists()    # the website is replaced whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


def test_a_build_with_nothing_changed_carries_every_part_over(built, tmp_path):
    """Built again from the same content with reuse (the default), every part is carried
    over: every file is the very same file, and the build says so."""
    import os

    content, first, _, _ = built
    out = tmp_path / "output"
    shutil.copytree(first, out, copy_function=os.link)
    before = {p: p.stat().st_ino for p in out.rglob("*") if p.is_file() and p.name != MANIFEST}
    log = tmp_path / "printed.txt"
    with Printed(log):
        assert build(run_check(content), letter(content, out)) == 0
    after = {p: p.stat().st_ino for p in out.rglob("*") if p.is_file() and p.name != MANIFEST}
    assert after == before
    printed = log.read_text()
    assert re.search(r"reused (\d+) of \1 parts unchanged", printed), printed
    assert "built nothing into" in printed
    # Peace's summary reworded: Peace's rulebook and the compendium are made again, the
    # compendium bound with War's rulebook as carried over (the very same file)
    game = content / "peace" / "game.yaml"
    saved_game = game.read_text()
    assert saved_game.count("Peace is War with its one rule reversed") == 1
    game.write_text(saved_game.replace("Peace is War with its one rule reversed",
                                       "Peace is War with its only rule reversed"))
    try:
        assert build(run_check(content), letter(content, out)) == 0
    finally:
        game.write_text(saved_game)
    war = out / "pdf" / "war-rules.pdf"
    assert war.stat().st_ino == before[war]
    for name in ("peace-rules.pdf", "compendium.pdf"):
        assert (out / "pdf" / name).stat().st_ino != before[out / "pdf" / name], name
    compendium = out / "pdf" / "compendium.pdf"
    text = " ".join(p.extract_text() or "" for p in PdfReader(compendium).pages)
    assert "with its only rule reversed" in text.replace("\n", " ")
    assert pages(compendium) == pages(first / "pdf" / "compendium.pdf")


def test_a_game_build_keeps_the_other_parts_in_its_manifest(built, tmp_path):
    """A game build (reusing what it can) keeps the parts it does not make in the manifest,
    as they were, so a whole build right after it finds nothing to do."""
    import os

    content, first, _, _ = built
    out = tmp_path / "output"
    shutil.copytree(first, out, copy_function=os.link)
    units = json.loads((first / MANIFEST).read_text())["units"]
    assert build(run_check(content), letter(content, out), game="peace") == 0
    after = json.loads((out / MANIFEST).read_text())["units"]
    for part in ("compendium", "deck", "book:war", "components:war"):
        assert after[part] == units[part], part
    assert up_to_date(letter(content, out)) is not None
    # the website, rendered again, still ships the PDFs the game build did not make
    for name in ("compendium.pdf", "war-rules.pdf"):
        assert (out / "site" / "pdf" / name).stat().st_ino == (out / "pdf" / name).stat().st_ino


def test_a_pdf_no_part_owns_does_not_keep_a_build_from_being_up_to_date(built, tmp_path):
    """A PDF left in the output's pdf/ by something else (a build of other content into
    the same output) is no part's file: the website's key never saw it, so it must not make
    every later build look changed (it did: each one checked and rendered nothing)."""
    import os

    content, first, _, _ = built
    out = tmp_path / "output"
    shutil.copytree(first, out, copy_function=os.link)
    n = up_to_date(letter(content, out))
    assert n is not None
    shutil.copy(first / "pdf" / "war-rules.pdf", out / "pdf" / "stray-rules.pdf")
    assert up_to_date(letter(content, out)) == n
    # a PDF a part owns, changed, still counts
    (out / "pdf" / "war-rules.pdf").unlink()
    shutil.copy(first / "pdf" / "peace-rules.pdf", out / "pdf" / "war-rules.pdf")
    assert up_to_date(letter(content, out)) is None


def test_the_rulebooks_alone_are_bound_into_a_compendium(built, tmp_path):
    """``render_pdfs``, the rulebooks and the compendium without the build around them (the
    benchmark's measure): by default it binds the compendium, and the books carry the
    figures it is given."""
    from builder.build import render_pdfs
    from builder.lab.figures import book_figures

    content = built[0]
    report = run_check(content)
    infos = render_pdfs(report, report.games, tmp_path, letter(content, tmp_path),
                        figures=book_figures(report))
    assert sorted(infos) == ["peace", "war"]
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == [
        "compendium.pdf", "peace-rules.pdf", "war-rules.pdf"]
    for slug, info in infos.items():
        assert info.count == pages(tmp_path / f"{slug}-rules.pdf")
    words = " ".join(p.extract_text() or "" for p in PdfReader(tmp_path / "war-rules.pdf").pages)
    assert "By the numbers" in words
    # every rulebook already written: the compendium is still bound from them
    (tmp_path / "compendium.pdf").unlink()
    again = render_pdfs(report, report.games, tmp_path, letter(content, tmp_path), done=infos)
    assert again == infos
    assert pages(tmp_path / "compendium.pdf") > sum(i.count for i in infos.values())


def test_a_build_of_a_game_the_content_does_not_have_says_which_it_has(built, tmp_path):
    from builder.build import BuildError

    content, _, _, _ = built
    with pytest.raises(BuildError) as e:
        build(run_check(content), letter(content, tmp_path / "out"), game="peas")
    assert str(e.value) == "no game 'peas' (games: war, peace); did you mean 'peace'?"
    assert not (tmp_path / "out").exists()
