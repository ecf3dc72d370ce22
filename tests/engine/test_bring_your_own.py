"""A designer brings a game of their own without touching the package (issue 10).

Three routes, each built from a content folder outside the repository: (a) Peace, War's
engine with options and no Python; (b) a game whose engine is ``engine.py`` in its own
folder; (c) a game whose engine an installed plugin package registers under the
``warbook.engines`` entry-point group. Each must pass ``check`` and ``build`` must write
its rulebook, its component sheets and its site page, with ``builder/`` and
``templates/`` unchanged."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"


def warbook(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def package_unchanged() -> str:
    return subprocess.run(["git", "status", "--porcelain", "builder/", "templates/"],
                          cwd=ROOT, capture_output=True, text=True).stdout


def content_with(tmp: Path, slug: str, source: Path, engine_file: bool = True) -> Path:
    content = tmp / "content"
    shutil.copytree(source, content / slug,
                    ignore=None if engine_file else shutil.ignore_patterns("engine.py"))
    (content / "index.yaml").write_text(f"games: [{slug}]\n")
    return content


def assert_builds(tmp: Path, content: Path, slug: str, env: dict | None = None) -> None:
    before = package_unchanged()
    check = warbook("check", "--content", str(content), cwd=tmp, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    out = tmp / "output"
    build = warbook("build", "--content", str(content), "--out", str(out), cwd=tmp, env=env)
    assert build.returncode == 0, build.stdout + build.stderr
    for made in (f"pdf/{slug}-rules.pdf", f"pdf/{slug}-components.pdf", f"site/{slug}.html"):
        assert (out / made).is_file() and (out / made).stat().st_size > 1000, made
    assert package_unchanged() == before


@pytest.mark.slow
def test_peace_is_content_only(tmp_path: Path):
    """Peace (options only) built beside a game of ``new game --engine`` (an engine.py of
    its own), in one build: both games' rulebooks, components and pages appear."""
    peace = ROOT / "content" / "peace"
    assert not list(peace.rglob("*.py")), "Peace must need no Python"
    content = content_with(tmp_path, "peace", peace)
    both = warbook("new", "game", "x", "--engine", "--from", "y", "--content", str(content),
                   cwd=tmp_path)
    assert both.returncode == 1 and "choose one" in both.stderr
    made = warbook("new", "game", "crazy-match", "--engine", "--content", str(content),
                   cwd=tmp_path)
    assert made.returncode == 0 and "next: edit " in made.stderr + made.stdout, made.stderr
    check = warbook("check", "--content", str(content), cwd=tmp_path)
    assert "peace: 6/6 examples replay" in check.stdout, check.stdout + check.stderr
    assert "crazy-match: 2/2 examples replay" in check.stdout, check.stdout + check.stderr
    assert_builds(tmp_path, content, "peace", env=dict(os.environ, WARBOOK_LAB_GAMES="20"))
    out = tmp_path / "output"
    for made in ("pdf/crazy-match-rules.pdf", "pdf/crazy-match-components.pdf",
                 "site/crazy-match.html"):
        assert (out / made).is_file() and (out / made).stat().st_size > 1000, made


def test_peace_plays_the_lower_card(tmp_path: Path):
    """Peace's engine is War's with ``wins: lower``: a seven beats a king."""
    from builder.check import run_check

    content = content_with(tmp_path, "peace", ROOT / "content" / "peace")
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    game = report.content.games[0]
    assert game.gamedef.slug == "war" and game.settings["wins"] == "lower"
    state = game.gamedef.from_setup(game.gamedef.resolve(game.option_defaults()),
                                    {"piles": {"p1.deck": ["KS"], "p2.deck": ["7H", "2C"]}})
    events = state.apply({"p1": "turn", "p2": "turn"})
    take = next(e for e in events if e.kind == "take")
    assert (take.player, take.rule) == ("p2", "lower-takes")


@pytest.mark.slow
def test_a_game_with_its_own_engine_file(tmp_path: Path):
    content = content_with(tmp_path, "high-five", FIXTURE)
    assert_builds(tmp_path, content, "high-five")


@pytest.mark.slow
def test_a_game_whose_engine_a_plugin_registers(tmp_path: Path):
    """The plugin is made visible offline: its module and its ``.dist-info`` (with the
    entry point) in a folder on PYTHONPATH, as pip would install them."""
    site = tmp_path / "site-packages"
    (site / "warbook_high_five").mkdir(parents=True)
    shutil.copyfile(FIXTURE / "engine.py", site / "warbook_high_five" / "__init__.py")
    info = site / "warbook_high_five-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: warbook-high-five\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[warbook.engines]\nhigh-five = warbook_high_five:GAME\n")
    content = content_with(tmp_path, "high-five", FIXTURE, engine_file=False)
    game_yaml = content / "high-five" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("title: High Five\n",
                                                       "title: High Five\nengine: high-five\n"))
    env = dict(os.environ, PYTHONPATH=str(site))
    # without the plugin the engine is unknown, and said so at its line
    bare = warbook("check", "--content", str(content), cwd=tmp_path)
    assert bare.returncode == 1
    assert "high-five/game.yaml:3:9: error: unknown engine 'high-five'" in bare.stderr
    assert "0/0" not in bare.stdout
    assert_builds(tmp_path, content, "high-five", env=env)


@pytest.mark.slow
def test_an_unknown_engine_names_the_line_and_the_engines_available(tmp_path: Path):
    content = content_with(tmp_path, "peace", ROOT / "content" / "peace")
    game_yaml = content / "peace" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("engine: war", "engine: wra"))
    line = next(i for i, t in enumerate(game_yaml.read_text().splitlines(), 1)
                if t.startswith("engine:"))
    proc = warbook("check", "--content", str(content), cwd=tmp_path)
    assert proc.returncode == 1
    assert (f"peace/game.yaml:{line}:9: error: unknown engine 'wra' (available: battle, "
            f"battle-lines, deck-management, happy-families, ultimate, war, winning-the-battle); did you "
            f"mean 'war'?") in proc.stderr
    assert "peace: not checked: its engine or its cards could not be loaded" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_an_engine_file_that_fails_is_reported_at_its_line(tmp_path: Path):
    content = content_with(tmp_path, "high-five", FIXTURE)
    engine = content / "high-five" / "engine.py"
    engine.write_text('"""A broken engine."""\n\nraise RuntimeError("not finished")\n')
    proc = warbook("check", "--content", str(content), cwd=tmp_path)
    assert proc.returncode == 1
    assert ("high-five/engine.py:3:1: error: the engine file failed to load: RuntimeError: "
            "not finished") in proc.stderr
    assert "Traceback" not in proc.stderr
    engine.write_text("GAME = 3\n")
    proc = warbook("check", "--content", str(content), cwd=tmp_path)
    assert "engine.py's GAME must be a GameDef" in proc.stderr


@pytest.mark.slow
def test_new_game_passes_check_and_refuses_to_overwrite(tmp_path: Path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "index.yaml").write_text("# my games\ngames: []\nintro: Mine.\n")
    made = warbook("new", "game", "my-war", "--content", str(content), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (content / "index.yaml").read_text() == "# my games\ngames: [my-war]\nintro: Mine.\n"
    check = warbook("check", "--content", str(content), cwd=tmp_path)
    assert check.returncode == 0 and "my-war: 1/1 examples replay" in check.stdout, \
        check.stdout + check.stderr
    before = (content / "my-war" / "rules.md").read_text()
    again = warbook("new", "game", "my-war", "--content", str(content), cwd=tmp_path)
    assert again.returncode == 1 and "already exists; nothing was written" in again.stderr
    assert (content / "my-war" / "rules.md").read_text() == before
    bad = warbook("new", "game", "My War", "--content", str(content), cwd=tmp_path)
    assert bad.returncode == 1 and "is not a usable game name" in bad.stderr


@pytest.mark.slow
def test_new_game_from_another_and_new_example(tmp_path: Path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "battle", content / "battle")
    (content / "index.yaml").write_text("games:\n  - battle\n")
    made = warbook("new", "game", "my-battle", "--from", "battle", "--content", str(content),
                   cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (content / "index.yaml").read_text() == "games:\n  - battle\n  - my-battle\n"
    ex = warbook("new", "example", "my-battle", "--content", str(content), cwd=tmp_path)
    assert ex.returncode == 0, ex.stderr
    last = max(int(p.name[:2]) for p in (content / "battle" / "examples").glob("*.yaml"))
    draft = content / "my-battle" / "examples" / f"{last + 1:02d}-new-example.yaml"
    assert draft.is_file()
    assert f"id: my-battle-example-{last + 1:02d}" in draft.read_text()
    check = warbook("check", "--content", str(content), cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"my-battle: {last + 1}/{last + 1} examples replay" in check.stdout
    again = warbook("new", "example", "nope", "--content", str(content), cwd=tmp_path)
    assert again.returncode == 1 and "no game 'nope'" in again.stderr


def test_the_engine_in_the_guide_is_the_one_tested():
    doc = (ROOT / "docs" / "writing-an-engine.md").read_text()
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert block == (FIXTURE / "engine.py").read_text()


@pytest.mark.slow
def test_the_look_and_the_templates_belong_to_the_content(tmp_path: Path):
    """index.yaml's book: names the book; a template in content/templates/ overrides the
    shipped one of the same name (a page template and a stylesheet)."""
    from pypdf import PdfReader

    content = content_with(tmp_path, "peace", ROOT / "content" / "peace")
    (content / "index.yaml").write_text(
        "book:\n  title: The Tiny Tome\n  subtitle: One game, upside down\n  paper: letter\n"
        "  logo: art/logo.svg\ngames: [peace]\n")
    (content / "art").mkdir()
    (content / "art" / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><circle cx="10" '
        'cy="10" r="8" fill="#0a7"/><text x="20" y="15">TT</text></svg>')
    site_templates = content / "templates" / "site"
    site_templates.mkdir(parents=True)
    index = (ROOT / "templates" / "site" / "index.html.j2").read_text()
    assert "{% endblock %}" in index
    head, end, tail = index.rpartition("{% endblock %}")
    (site_templates / "index.html.j2").write_text(
        head + "<p>MARKER-FROM-CONTENT</p>" + end + tail)
    (site_templates / "site.css").write_text("/* CSS-MARKER */ body { color: #111; }\n")
    out = tmp_path / "output"
    proc = warbook("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    home = (out / "site" / "index.html").read_text()
    assert "MARKER-FROM-CONTENT" in home and "The Tiny Tome" in home
    assert "CSS-MARKER" in (out / "site" / "assets" / "site.css").read_text()
    assert 'class="brand-mark" src="assets/logo.svg"' in home
    assert (out / "site" / "assets" / "logo.svg").read_bytes() == \
        (content / "art" / "logo.svg").read_bytes()
    compendium = PdfReader(out / "pdf" / "compendium.pdf")
    assert compendium.metadata.title == "The Tiny Tome: One game, upside down"
    width, height = (float(v) for v in compendium.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (612, 792)  # US Letter, from book.paper
    assert PdfReader(out / "pdf" / "pnp-deck.pdf").metadata.title.startswith("The Tiny Tome")
    for page in (out / "site").glob("*.html"):
        assert "Book of War" not in page.read_text(), page.name


@pytest.mark.slow
def test_the_typefaces_belong_to_the_content(tmp_path: Path):
    """book.fonts: the content's own font files (DejaVu, from the machine's fonts-dejavu-core,
    copied into the content folder) are the ones the rulebook embeds; no EB Garamond and no
    Cabin remain."""
    content = content_with(tmp_path, "peace", ROOT / "content" / "peace")
    # DejaVu is wider than the shipped faces: Peace's aid would not fit (the build says so),
    # so this game keeps the default aid, the quick reference alone
    game_yaml = content / "peace" / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text[:text.index("kit:\n")] + text[text.index("compare:"):])
    fonts = content / "fonts"
    fonts.mkdir()
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    for name in ("DejaVuSerif.ttf", "DejaVuSerif-Italic.ttf", "DejaVuSerif-Bold.ttf",
                 "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        shutil.copyfile(dejavu / name, fonts / name)
    (content / "index.yaml").write_text(
        "book:\n  fonts:\n"
        "    text: {regular: fonts/DejaVuSerif.ttf, italic: fonts/DejaVuSerif-Italic.ttf,"
        " bold: fonts/DejaVuSerif-Bold.ttf}\n"
        "    headings: {regular: fonts/DejaVuSans.ttf, bold: fonts/DejaVuSans-Bold.ttf}\n"
        "games: [peace]\n")
    out = tmp_path / "output"
    proc = warbook("build", "--content", str(content), "--out", str(out), "--game", "peace",
                   cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the family each embedded font program says it is (its own name table)
    families = embedded_families(out / "pdf" / "peace-rules.pdf")
    assert {"DejaVu Serif", "DejaVu Sans"} <= set(families), families
    assert "EB Garamond" not in families, families
    # Cabin stays only as the lettering of the card faces in the diagrams (the cards' art)
    assert families.count("Cabin") <= 1, families


def embedded_families(pdf_path: Path) -> list[str]:
    import io

    import pikepdf
    from fontTools.ttLib import TTFont

    out = []
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                for key in ("/FontFile2", "/FontFile3"):
                    if key in obj:
                        data = obj[key].read_bytes()
                        try:
                            out.append(TTFont(io.BytesIO(data))["name"].getDebugName(1))
                        except Exception:  # noqa: BLE001 - a bare CFF program: named below
                            out.append(str(obj.get("/FontName")).split("+")[-1].split("-")[0])
    return out


def test_new_game_with_an_engine_of_its_own(tmp_path: Path):
    """``new game SLUG --engine`` writes a game with its own engine.py (a small shedding
    game: a deck, hands, a pile, one decision a turn, a reshuffle as chance): its examples
    replay, every rule but the turn cap is exercised, and the conformance kit holds on
    more games than check plays."""
    from builder.check import run_check
    from builder.engine.registry import load_engine_file
    from builder.scaffold import new_game
    from builder.testing import assert_conforms

    content = tmp_path / "content"
    content.mkdir()
    (content / "index.yaml").write_text("games: []\n")
    written = new_game(content, "crazy-match", engine=True)
    assert {p.name for p in written} == {"engine.py", "game.yaml", "rules.md", "glossary.yaml",
                                         "01-a-few-turns.yaml", "02-going-out.yaml"}
    assert "engine:" not in (content / "crazy-match" / "game.yaml").read_text()
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    game = report.games[0]
    assert [r.status for r in game.replays] == ["pass", "pass"]
    assert game.uncovered == ["turn-cap"]
    assert [s.kind for s in game.replays[0].steps] == ["refused", "decision", "decision",
                                                       "forced", "chance", "forced"]
    engine = load_engine_file(content / "crazy-match" / "engine.py")
    assert engine.slug == "crazy-match" and engine.title == "Crazy Match"
    assert_conforms(engine, games=60)


def test_new_game_with_a_deck_of_its_own(tmp_path: Path):
    """``new game SLUG --deck`` is the same shedding game played with cards of its own: a
    deck file (four colours, 1 to 9, two of each) beside an engine made with
    ``cards="own"``, whose examples name those cards; it replays, conforms and says so."""
    from builder.check import run_check
    from builder.engine.registry import load_engine_file
    from builder.scaffold import new_game
    from builder.testing import assert_conforms

    content = tmp_path / "content"
    content.mkdir()
    (content / "index.yaml").write_text("games: []\n")
    written = new_game(content, "colour-match", deck=True)
    assert {p.name for p in written} == {"engine.py", "game.yaml", "rules.md", "glossary.yaml",
                                         "cards.csv", "face.svg.j2", "01-a-few-turns.yaml", "02-going-out.yaml"}
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    game = report.games[0]
    assert [r.status for r in game.replays] == ["pass", "pass"]
    assert game.uncovered == ["turn-cap"]
    deck = game.game.gamedef.deck
    assert deck.size() == 72 and deck.card("R7").colour == "red" and deck.card("R7").number == 7
    # the faces come from the face template written beside the deck file, and every one
    # (both styles, with and without bleed) passes the print checks
    from builder.render.faces import Faces, check_faces
    assert game.game.decks[0].face.name == "face.svg.j2"
    assert [d.format() for d in check_faces(report)] == []
    faces = Faces(content)
    faces.add(game.game)
    svg = faces.face(deck.card("R7"))
    assert ">Red 7</text>" in svg and ">7</text>" in svg
    assert "cards=\"own\"" in (content / "colour-match" / "engine.py").read_text()
    engine = load_engine_file(content / "colour-match" / "engine.py")
    engine.use_decks(game.game.gamedef.decks)
    assert_conforms(engine, games=60)
    both = warbook("new", "game", "x", "--deck", "--from", "colour-match", "--content",
                   str(content), cwd=tmp_path)
    assert both.returncode == 1 and "--deck writes a game with an engine of its own" in both.stderr


def test_new_game_writes_into_the_working_folder_never_the_checkout(tmp_path: Path):
    """In a folder without content/, `new game` makes ./content there (the checkout's own
    content, which check and build fall back on, is left alone)."""
    before = subprocess.run(["git", "status", "--porcelain", "content/"], cwd=ROOT,
                            capture_output=True, text=True).stdout
    proc = warbook("new", "game", "knock", "--engine", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "content" / "knock" / "engine.py").is_file()
    assert (tmp_path / "content" / "index.yaml").read_text().count("knock") == 1
    assert not (ROOT / "content" / "knock").exists()
    assert subprocess.run(["git", "status", "--porcelain", "content/"], cwd=ROOT,
                          capture_output=True, text=True).stdout == before
    proc = warbook("new", "example", "knock", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(list((tmp_path / "content" / "knock" / "examples").glob("*.yaml"))) == 3
