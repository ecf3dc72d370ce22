"""Incremental builds: change one input of each kind and exactly the outputs that depend on
it are rewritten; everything else keeps its file (same modification time, same bytes).

The expected sets come from the dependency table in docs/authoring.md (what each
output is made from), worked out here by hand for a two-game project (War and Peace), not
from the build's own manifest. A rewritten file has a new modification time; a file whose
text must change (the rulebook whose comment changed) must also have new bytes."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from builder import incremental
from builder.build import build, up_to_date
from builder.check import run_check
from builder.cli import book_paper
from builder.incremental import MANIFEST
from builder.settings import PAPERS, Settings

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.build]


def snapshot(out: Path) -> dict[str, tuple[int, str]]:
    return {str(p.relative_to(out)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in out.rglob("*") if p.is_file() and p.name != MANIFEST}


def rewritten(before: dict, after: dict) -> set[str]:
    return {k for k in set(before) | set(after) if before.get(k) != after.get(k)}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("incremental")
    content = tmp / "content"
    content.mkdir()
    for slug in ("war", "peace"):
        shutil.copytree(ROOT / "content" / slug, content / slug)
    index = (ROOT / "content" / "index.yaml").read_text()
    (content / "index.yaml").write_text(re.sub(r"(?m)^games:.*$", "games: [war, peace]", index))
    out = tmp / "output"
    return content, out


def settings(content: Path, out: Path, paper: str = "a4", **kw) -> Settings:
    return Settings(content_root=content, output=out, paper=PAPERS[paper], **kw)


def run(content: Path, out: Path, paper: str = "a4", **kw) -> dict:
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    before = snapshot(out) if out.exists() else {}
    build(report, settings(content, out, paper), **kw)
    after = snapshot(out)
    for name, (_, digest) in after.items():  # the website's copy of a PDF is that PDF
        if name.startswith("site/pdf/"):
            assert digest == after[name[len("site/"):]][1], name
    CHANGED_BYTES.clear()
    CHANGED_BYTES.update(k for k in after if k in before and after[k][1] != before[k][1])
    return rewritten(before, after)


#: the files whose bytes the last run() changed
CHANGED_BYTES: set[str] = set()


def shipped_if_new(pdfs: set[str]) -> set[str]:
    """The website's copies (site/pdf/) of the PDFs rewritten with new bytes: a PDF
    rewritten with the same bytes leaves the website's copy as it was."""
    return {f"site/{p}" for p in pdfs if p.startswith("pdf/") and p in CHANGED_BYTES}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def test_each_kind_of_input_rewrites_exactly_its_outputs(project, monkeypatch):
    content, out = project
    first = run(content, out)
    files = set(snapshot(out))
    site = {f for f in files if f.startswith("site/")}
    war_png = {f for f in files if f.startswith("png/war/")}
    peace_png = {f for f in files if f.startswith("png/peace/")}
    deck = {f for f in files if f.startswith(("png/cards/", "png/cards-bleed/", "png/tts/",
                                                 "pdf/pnp-deck"))}
    # the website ships the PDFs (site/pdf/, hard links): a PDF rewritten is rewritten there
    shipped = {f"site/{p}" for p in files if p.startswith("pdf/")}
    assert shipped <= site
    assert first == files and war_png and peace_png and deck and "site/war.html" in site
    pdfs = {"pdf/war-rules.pdf", "pdf/peace-rules.pdf", "pdf/compendium.pdf",
            "pdf/war-components.pdf", "pdf/peace-components.pdf"}
    assert pdfs <= files

    # nothing changed: nothing rewritten, and the command line would not even check
    assert run(content, out) == set()
    assert up_to_date(settings(content, out, "a4")) == len(files)
    assert up_to_date(settings(content, out, book_paper(content))) == len(files)  # index.yaml: a4
    assert up_to_date(settings(content, out, "letter")) is None
    old = snapshot(out)

    # one worked example's comment: its rulebook, the compendium, its site page and the
    # search index (which holds the comments)
    edit(content / "war" / "examples" / "02-one-war.yaml", "are never compared.",
         "are never compared by anyone.")
    got = run(content, out)
    assert got == {"pdf/war-rules.pdf", "pdf/compendium.pdf", "site/war.html",
                   "site/assets/search-index.js"} \
        | shipped_if_new({"pdf/war-rules.pdf", "pdf/compendium.pdf"})
    new = snapshot(out)
    assert new["pdf/war-rules.pdf"][1] != old["pdf/war-rules.pdf"][1]
    assert new["site/war.html"][1] != old["site/war.html"][1]

    # a glossary line: the rulebook, the compendium, the game's print-and-play kit (made
    # from the game's folder but its examples), its site page and the search index
    glossary = content / "peace" / "glossary.yaml"
    text = glossary.read_text()
    m = re.search(r"(?m)^(\s+definition: )(.+)$", text) or re.search(r"(?m)^(\s*\S+: )(\S.+)$", text)
    glossary.write_text(text[:m.end()] + " Truly." + text[m.end():])
    assert run(content, out) == {"pdf/peace-rules.pdf", "pdf/compendium.pdf",
                                 "pdf/peace-components.pdf", "site/peace.html",
                                 "site/assets/search-index.js"} | peace_png \
        | shipped_if_new({"pdf/peace-rules.pdf", "pdf/compendium.pdf",
                          "pdf/peace-components.pdf"})

    # the content's own site stylesheet: the website's copy of it, and the 404 page, which
    # holds the stylesheet itself (a static host shows it at any depth: issue 27)
    (content / "templates" / "site").mkdir(parents=True)
    css = (ROOT / "templates" / "site" / "site.css").read_text() + "\n.x-incremental { }\n"
    (content / "templates" / "site" / "site.css").write_text(css)
    assert run(content, out) == {"site/assets/site.css", "site/404.html"}

    # the content's own rulebook stylesheet: every rulebook and the compendium
    (content / "templates" / "book").mkdir(parents=True)
    css = (ROOT / "templates" / "book" / "book.css").read_text() + "\n.x-incremental { }\n"
    (content / "templates" / "book" / "book.css").write_text(css)
    books = {"pdf/war-rules.pdf", "pdf/peace-rules.pdf", "pdf/compendium.pdf"}
    assert run(content, out) == books | shipped_if_new(books)

    # an output deleted by hand: its part is made again, nothing else
    victim = sorted(war_png)[0]
    (out / victim).unlink()
    assert run(content, out) == {"pdf/war-components.pdf"} | war_png \
        | shipped_if_new({"pdf/war-components.pdf"})

    # the package (a new version, or any edit to its source): every PDF and PNG; the
    # website's pages come out the same here (they print the imported version) and keep
    # their files
    monkeypatch.setattr(incremental, "__version__", "0.0.0-test")
    got = run(content, out)
    assert got == files - site | shipped_if_new(files)
    monkeypatch.undo()

    # an option: letter paper remakes every PDF and PNG, and the website stays
    assert run(content, out, paper="letter") == files - site | shipped_if_new(files)

    # --clean (reuse=False) renders everything again
    assert run(content, out, paper="letter", reuse=False) >= files - site


def test_a_game_build_renders_its_site_page_and_carries_the_rest(project):
    content, out = project
    if not out.exists():  # run alone: the output the test before leaves (on letter paper)
        run(content, out, paper="letter")
    edit(content / "peace" / "examples" / sorted(p.name for p in (content / "peace" / "examples").glob("*.yaml"))[0],
         "title: ", "title: Quietly, ")
    got = run(content, out, game="peace", paper="letter")
    assert got == {"pdf/peace-rules.pdf", "site/peace.html", "site/assets/search-index.js"} \
        | shipped_if_new({"pdf/peace-rules.pdf"})
    # the compendium was not rebuilt, so a whole build rebuilds it (and only what is stale)
    got = run(content, out, paper="letter")
    assert got == {"pdf/compendium.pdf"} | shipped_if_new({"pdf/compendium.pdf"})


def test_the_input_hash_counts_links_without_following_them(tmp_path, monkeypatch):
    """A link in the content is hashed by where it points: a new link (a loop, or one that
    leads out of the folder) changes the hash, so the build runs the check, which refuses
    it, instead of saying "nothing changed"; and the file outside is never read."""
    content, outside = tmp_path / "content", tmp_path / "outside"
    (content / "templates" / "site").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.css").write_text("secret")
    (content / "templates" / "site" / "site.css").write_text("body {}")
    read: list[Path] = []
    real_read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self) or real_read(self))

    def key() -> str:
        return incremental.tree_hash(content / "templates" / "site", within=content)

    plain = key()
    (content / "templates" / "site" / "loop.css").symlink_to("loop.css")
    with_loop = key()
    (content / "templates" / "site" / "out.css").symlink_to(outside / "secret.css")
    with_out = key()
    assert len({plain, with_loop, with_out}) == 3
    # a linked folder on the way out: hashed by where it leads, not read
    (content / "templates" / "book").symlink_to(outside, target_is_directory=True)
    assert incremental.tree_hash(content / "templates" / "book", within=content) \
        != incremental.tree_hash(content / "templates" / "site", within=content)
    assert all(outside not in p.parents for p in read), read
