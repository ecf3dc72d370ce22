"""The look belongs to the content: index.yaml's ``book:`` and game.yaml's colours and
cover cards are validated during the check, each mistake a located error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]


def errors_for(tmp_path: Path, index: str, game_extra: str = "") -> list[str]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "peace", content / "peace")
    game = content / "peace" / "game.yaml"
    text = game.read_text().replace('accent: "#4f6d3a"\n', "").replace(
        "cover_cards: [2S, 2H, AC, KD]\n", "")
    game.write_text(text + game_extra)
    (content / "index.yaml").write_text(index)
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "") for d in report.diagnostics]


def test_the_shipped_look_is_read(tmp_path: Path):
    report = run_check(ROOT / "content")
    book = report.content.book
    assert (book.title, book.paper, book.accent) == ("The Book of War", "a4", "#8c1c22")
    war = report.content.game("war")
    assert (war.accent, war.cover_cards) == ("#7a4b1e", ["8S", "8H", "AC", "KD"])
    battle = report.content.game("battle")
    assert battle.player_colours["p3"] == "#d0573c"


def test_defaults_when_the_content_says_nothing(tmp_path: Path):
    assert errors_for(tmp_path, "games: [peace]\n") == []
    report = run_check(tmp_path / "content")
    book, peace = report.content.book, report.content.games[0]
    assert (book.title, book.paper, book.accent) == ("Rules", "a4", None)
    assert peace.accent == "#5b554e" and peace.cover_cards == ["AS", "KH", "QC", "JD"]
    assert peace.player_colours == {"p1": "#5b554e", "p2": "#5b554e"}


@pytest.mark.parametrize("index, expected", [
    ("book:\n  titel: X\ngames: [peace]\n",
     "index.yaml:2:3: error: index.yaml book: unknown key 'titel' (allowed: accent, credits, "
     "date, fonts, logo, paper, subtitle, title, version); did you mean 'title'?"),
    ("book:\n  paper: a5\ngames: [peace]\n",
     "index.yaml:2:10: error: book.paper must be one of a4, letter, got 'a5'"),
    ("book:\n  accent: red\ngames: [peace]\n",
     "index.yaml:2:11: error: book.accent must be a colour written #rrggbb (such as \"#7a4b1e\"), "
     "got 'red'"),
    ("book:\n  title: ''\ngames: [peace]\n",
     "index.yaml:2:10: error: book.title must be some text, got ''"),
    ("book: The Book\ngames: [peace]\n",
     "index.yaml:1:7: error: book must be a mapping (title, subtitle, credits, accent, paper, "
     "logo, fonts, version, date)"),
    ("boook: {}\ngames: [peace]\n",
     "index.yaml:1:1: error: index.yaml: unknown key 'boook' (allowed: book, games, intro, words); "
     "did you mean 'book'?"),
])
def test_a_bad_book_is_a_located_error(tmp_path: Path, index: str, expected: str):
    assert errors_for(tmp_path, index) == [expected]


@pytest.mark.parametrize("extra, expected", [
    ('accent: "#12345"\n', "peace/game.yaml:{line}:9: error: accent must be a colour written "
                           "#rrggbb (such as \"#7a4b1e\"), got '#12345'"),
    ('player_colours: {p3: "#123456"}\n',
     "peace/game.yaml:{line}:18: error: player_colours: no player 'p3' (players: p1, p2)"),
    ("player_colours: red\n",
     "peace/game.yaml:{line}:17: error: player_colours must map player ids (p1, p2, ...) to colours"),
    ("player_colours: {p1: red}\n",
     "peace/game.yaml:{line}:22: error: player_colours.p1 must be a colour written #rrggbb "
     "(such as \"#7a4b1e\"), got 'red'"),
    ("cover_cards: [2S, 1H]\n", "peace/game.yaml:{line}:14: error: cover_cards: "),
    ("cover_cards: [2S, 3S, 4S, 5S, 6S]\n",
     "peace/game.yaml:{line}:14: error: cover_cards must list one to four card codes, such as [AS, KH]"),
])
def test_a_bad_game_look_is_a_located_error(tmp_path: Path, extra: str, expected: str):
    got = errors_for(tmp_path, "games: [peace]\n", extra)
    line = len((tmp_path / "content" / "peace" / "game.yaml").read_text().splitlines())
    assert len(got) == 1 and got[0].startswith(expected.format(line=line)), got


LOGO = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
        '<rect width="40" height="20" fill="#123456"/></svg>')


@pytest.mark.parametrize("svg, problem", [
    (LOGO.replace("<rect", "<script>alert(1)</script><rect"), "holds a <script> element"),
    (LOGO.replace("<rect", "<foreignObject><p>hi</p></foreignObject><rect"),
     "holds a <foreignobject> element"),
    (LOGO.replace("<rect", '<iframe src="x.html"/><rect'), "holds a <iframe> element"),
    (LOGO.replace("<rect", '<object data="x.swf"/><rect'), "holds a <object> element"),
    (LOGO.replace("<rect", '<embed src="x.swf"/><rect'), "holds a <embed> element"),
    (LOGO.replace("<rect", '<rect onclick="x()"'), "has an event handler (onclick)"),
    (LOGO.replace("<rect", '<image href="http://example.com/x.png"/><rect'),
     "links to 'http://example.com/x.png'"),
    ('<!DOCTYPE svg [<!ENTITY a "b">]>' + LOGO, "declares a DOCTYPE or entities"),
    (LOGO.replace('fill="#123456"', 'fill="url(http://example.com/p.svg#g)"'),
     "refers to an outside resource in 'fill'"),
    (LOGO.replace('fill="#123456"', 'style="fill: URL( https://example.com/p.png )"'),
     "refers to an outside resource in 'style'"),
])
def test_a_logo_that_could_run_or_fetch_is_refused(tmp_path: Path, svg: str, problem: str):
    content = tmp_path / "content"
    content.mkdir()
    (content / "logo.svg").write_text(svg)
    got = errors_for(tmp_path, "book:\n  logo: logo.svg\ngames: [peace]\n")
    assert got == [f"index.yaml:2:9: error: book.logo: 'logo.svg' {problem}; a logo may hold "
                   f"only drawing (no scripts, event handlers or outside links)"]


def test_a_logo_may_refer_to_its_own_parts(tmp_path: Path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "logo.svg").write_text(LOGO.replace(
        "<rect", '<defs><linearGradient id="g"/></defs><rect').replace(
        'fill="#123456"', 'fill="url(#g)"'))
    assert errors_for(tmp_path, "book:\n  logo: logo.svg\ngames: [peace]\n") == []


def test_one_cover_card_is_enough(tmp_path: Path):
    assert errors_for(tmp_path, "games: [peace]\n", "cover_cards: [AS]\n") == []
    assert run_check(tmp_path / "content").content.games[0].cover_cards == ["AS"]


def test_the_players_are_called_by_their_names(tmp_path: Path):
    """players.names (game.yaml) name the players everywhere; unnamed ones are Player n."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "peace", content / "peace")
    (content / "index.yaml").write_text("games: [peace]\n")
    game = content / "peace" / "game.yaml"
    game.write_text(game.read_text().replace("names: {p1: North, p2: South}",
                                             "names: {p1: '  Ann   Lee '}"))
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    assert report.content.games[0].player_names == {"p1": "Ann Lee", "p2": "Player 2"}


def test_a_logo_outside_the_content_folder_is_refused(tmp_path: Path):
    (tmp_path / "secret.svg").write_text(LOGO)
    got = errors_for(tmp_path, "book:\n  logo: ../secret.svg\ngames: [peace]\n")
    assert got == ["index.yaml:2:9: error: book.logo: '../secret.svg' is outside the content "
                   "folder (or a link); put the file inside it"]
    got = errors_for(tmp_path / "b", "book:\n  logo: nope.png\ngames: [peace]\n")
    assert got == ["index.yaml:2:9: error: book.logo: no file 'nope.png' in the content folder"]


def test_installed_font_families_are_found_by_their_own_names(tmp_path: Path):
    """book.fonts may name an installed family (fonts-dejavu-core is set up with warbook):
    each face is the installed file whose name table gives that family and style."""
    assert errors_for(tmp_path, "book:\n  fonts:\n    text: {family: DejaVu Serif}\n"
                                "    headings: {family: dejavu sans}\ngames: [peace]\n") == []
    fonts = run_check(tmp_path / "content").content.book.fonts
    assert Path(fonts["EBGaramond-Regular.ttf"]).name == "DejaVuSerif.ttf"
    assert Path(fonts["EBGaramond-Bold.ttf"]).name == "DejaVuSerif-Bold.ttf"
    assert Path(fonts["Cabin-BoldItalic.otf"]).name == "DejaVuSans-BoldOblique.ttf"
    # no Medium or SemiBold in DejaVu: they stand in with Regular and Bold
    assert Path(fonts["Cabin-Medium.otf"]).name == "DejaVuSans.ttf"
    assert Path(fonts["Cabin-SemiBold.otf"]).name == "DejaVuSans-Bold.ttf"


def test_an_unknown_font_family_is_a_located_error(tmp_path: Path):
    got = errors_for(tmp_path, "book:\n  fonts:\n    text: {family: DejaVu Serf}\n"
                               "games: [peace]\n")
    assert got == ["index.yaml:3:20: error: book.fonts.text: no installed font family "
                   "'DejaVu Serf' with a regular face; did you mean 'DejaVu Serif'? (or give "
                   "font files inside the content folder)"]


def test_the_clarifications_are_a_part_of_their_own():
    """Winning the Battle's rules.md has a top-level "Clarifications" heading: its sections
    (c-outflank among them) are clarifications, those before it are not."""
    game = run_check(ROOT / "content").content.game("winning-the-battle")
    parts = {}
    todo = list(game.rules)
    while todo:
        rule = todo.pop()
        parts[rule.id] = rule.part
        todo += rule.children
    assert parts["clarifications"] == parts["c-outflank"] == "clarifications"
    assert parts["golden-rules"] == "golden" and parts["battle"] not in ("golden",
                                                                        "clarifications")


def test_a_font_file_of_the_content_is_used_for_its_faces(tmp_path: Path):
    """book.fonts.text.regular names a font file of the content's own: it sets the text's
    regular face, and the faces left out (italic, bold) take it as their stand-in."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copyfile("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", content / "serif.ttf")
    assert errors_for(tmp_path, "book:\n  fonts:\n    text: {regular: serif.ttf}\n"
                                "games: [peace]\n") == []
    fonts = run_check(content).content.book.fonts
    for face in ("EBGaramond-Regular.ttf", "EBGaramond-Italic.ttf", "EBGaramond-Bold.ttf"):
        assert Path(fonts[face]).name == "serif.ttf", fonts
    assert not any(name.startswith("Cabin") for name in fonts)     # headings as shipped


def test_each_games_texts_are_loaded_as_written():
    """What a game.yaml says of itself (designer, time, the options' labels) is what the
    loaded game carries: read here from the YAML files themselves."""
    import yaml

    report = run_check(ROOT / "content")
    for game in report.content.games:
        raw = yaml.safe_load((ROOT / "content" / game.slug / "game.yaml").read_text())
        assert game.designer == raw.get("designer", ""), game.slug
        assert game.time == raw.get("time", ""), game.slug
        labels = {o.name: o.label for o in game.options}
        printed = {n: s for n, s in (raw.get("options") or {}).items() if isinstance(s, dict)}
        assert set(labels) == set(printed), game.slug      # a fixed setting is not printed
        for name, spec in printed.items():
            assert labels[name] == spec.get("label", name), (game.slug, name)


def test_an_index_without_an_introduction_has_empty_text(tmp_path: Path):
    """index.yaml's intro is optional: without it the content's intro is empty text (the
    model's type), which the home page and the compendium print as nothing."""
    assert errors_for(tmp_path, "games: [peace]\n") == []
    assert run_check(tmp_path / "content").content.intro == ""


def test_an_installed_family_of_otf_files_is_found(tmp_path: Path):
    """Installed families come as .ttf or .otf files: Cabin (fonts-cabin, set up with
    warbook) is OpenType, and naming it gives each headings face its own file."""
    assert errors_for(tmp_path, "book:\n  fonts:\n    headings: {family: Cabin}\n"
                                "games: [peace]\n") == []
    fonts = run_check(tmp_path / "content").content.book.fonts
    for face in ("Regular", "Italic", "Medium", "SemiBold", "Bold", "BoldItalic"):
        assert Path(fonts[f"Cabin-{face}.otf"]).name == f"Cabin-{face}.otf", fonts
        assert Path(fonts[f"Cabin-{face}.otf"]).is_file()


def test_a_logo_of_exactly_two_megabytes_is_allowed(tmp_path: Path):
    """The bound is more than 2 MB (content-errors' book-logo-too-large): 2 MB is fine."""
    content = tmp_path / "content"
    content.mkdir()
    png = content / "logo.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * (2 * 1024 * 1024 - 8))
    assert errors_for(tmp_path, "book:\n  logo: logo.png\ngames: [peace]\n") == []


def test_a_font_file_that_is_not_there_is_said_with_its_face(tmp_path: Path):
    got = errors_for(tmp_path, "book:\n  fonts:\n    text: {regular: nope.otf}\n"
                               "games: [peace]\n")
    assert got == ["index.yaml:3:21: error: book.fonts.text.regular: no file 'nope.otf' in "
                   "the content folder"]


def test_the_installed_fonts_are_found_past_files_that_are_not_fonts(tmp_path: Path,
                                                                     monkeypatch):
    """A font folder may hold other files, broken fonts and sub-folders: each is passed
    over, and the fonts after them are still found."""
    from builder.content import fonts

    folder = tmp_path / "fonts"
    (folder / "a-sub").mkdir(parents=True)
    (folder / "a-readme.txt").write_text("not a font\n")
    (folder / "b-broken.ttf").write_bytes(b"not a font at all")
    shutil.copy("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", folder / "c-good.ttf")
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIRS", (tmp_path / "none", folder))
    found = fonts.installed_fonts()
    assert found["dejavu sans"]["regular"] == folder / "c-good.ttf"
