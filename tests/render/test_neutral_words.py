"""The shipped templates speak of no game (issue 24, item 10): what the website's home page
and the compendium say around the games comes from index.yaml (``intro``, ``words``), with
neutral defaults, and a content folder without an introduction prints none."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from builder.check import run_check
from builder.render.book.pdf import BookRenderer
from builder.render.site.pages import render_site
from builder.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_TITLES = ("War", "Peace", "Winning the Battle", "Battle Lines", "Deck Management",
                  "Battle", "Ultimate")
#: the words a template must not say of its own
WAR_WORDS = re.compile(r"\b(?:War|war|variants?|Variants?|classic)\b|"
                       + "|".join(re.escape(t) for t in SHIPPED_TITLES))


def test_no_shipped_render_template_names_a_game():
    """Every template that renders a product (the books, the sheets, the website) and the
    site's scripts, their comments aside (lunr's minified library is not ours); the
    scaffolding of ``warbook new game`` (templates/new/) starts a game as War by design."""
    found = []
    for path in sorted((ROOT / "templates").rglob("*")):
        if not path.is_file() or "new" in path.relative_to(ROOT / "templates").parts \
                or path.name.endswith(".min.js"):
            continue
        if path.suffix not in (".j2", ".js"):  # what prints words (not the stylesheets)
            continue
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)  # comments aside
        if path.suffix == ".js":
            text = re.sub(r"/\*.*?\*/|^\s*//[^\n]*", "", text, flags=re.S | re.M)
        for m in WAR_WORDS.finditer(text):
            found.append(f"{path.relative_to(ROOT)}: {m.group(0)!r}")
    assert not found, found


def high_five_alone(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    return content


def test_a_collection_without_an_introduction_prints_none(tmp_path: Path):
    content = high_five_alone(tmp_path)
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    site = render_site(report, tmp_path / "build", Settings(content, tmp_path / "out"))
    home = (site / "index.html").read_text()
    text = re.sub(r"<[^>]+>", " ", home)
    assert "The full numbered rules of each game, a glossary, and worked examples" in text
    assert "How the games differ" in text
    assert 'id="about"' not in home and "About these games" not in text
    assert not re.search(r"\b(?:War|variants?|classic)\b", text), text
    renderer = BookRenderer(Settings(content, tmp_path / "out"))
    views = [renderer.view(gr) for gr in report.games]
    front = renderer.front_html(views, report.content.intro, report.content.book)
    assert 'id="introduction"' not in front and ">Introduction<" not in front
    assert not re.search(r"\b(?:War|variants?|classic)\b", re.sub(r"<[^>]+>", " ", front))


def test_the_words_come_from_index_yaml(tmp_path: Path):
    content = high_five_alone(tmp_path)
    (content / "index.yaml").write_text(
        "games: [high-five]\nintro: Two quick games.\nwords:\n  lead: Games of one hand.\n"
        "  intro_title: Why these?\n  compare_title: Side by side\n"
        "  compare_note: Each against the last.\n")
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    site = render_site(report, tmp_path / "build", Settings(content, tmp_path / "out"))
    home = (site / "index.html").read_text()
    for said in ("Games of one hand.", "Why these?", "Two quick games.", "Side by side",
                 "Each against the last."):
        assert said in home, said
    renderer = BookRenderer(Settings(content, tmp_path / "out"))
    views = [renderer.view(gr) for gr in report.games]
    front = renderer.front_html(views, report.content.intro, report.content.book,
                                report.content.words.compare_note)
    assert 'id="introduction"' in front and "Each against the last." in front
