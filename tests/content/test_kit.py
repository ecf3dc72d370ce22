"""The print-and-play kit is data (game.yaml ``kit:``), checked during the check: every
mistake is an error at its line and column, with "did you mean" where a name is close."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, GAME

from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]


def errors_with_kit(tmp_path: Path, slug: str, kit: str) -> tuple[list[str], int]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / slug, content / slug)
    (content / "index.yaml").write_text(f"games: [{slug}]\n")
    game = content / slug / "game.yaml"
    text = game.read_text()
    start = text.index("\nkit:\n") + 1
    end = text.index("\ncompare:")
    game.write_text(text[:start] + kit + text[end:])
    first = text[:start].count("\n") + 1   # the line "kit:" is on
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "")
            for d in report.diagnostics.errors], first


@pytest.mark.parametrize("kit, where, message", [
    ("kit:\n  - kind: player-ayd\n", (1, 11),
     "unknown kind of component 'player-ayd' (kinds: player-aid, tokens, score-track, mat, "
     "round-tracker, deck); did you mean 'player-aid'?"),
    ("kit:\n  - kind: deck\n    cards: [QS, ZZ]\n", (2, 12),
     "deck.cards: unknown card 'ZZ' (a card is a rank A 2-10 J Q K then a suit C D H S, e.g. "
     "QD or 10H)"),
    ("kit:\n  - kind: tokens\n    cuont: 5\n", (2, 5),
     "tokens: unknown key 'cuont' (allowed: back, count, diameter, front, how, label, "
     "name, row, stem); did you mean 'count'?"),
    ("kit:\n  - kind: tokens\n    count: many\n", (2, 12),
     "tokens.count must be a whole number from 1 to 30, got 'many'"),
    ("kit:\n  - kind: tokens\n    count: -1\n", (2, 12),
     "tokens.count must be a whole number from 1 to 30, got -1"),
    ("kit:\n  - kind: tokens\n    count: 1000000000000000000000000000000\n", (2, 12),
     "tokens.count must be a whole number from 1 to 30, got 1000000000000000000000000000000"),
    ("kit:\n  - kind: score-track\n    to: 10\n    from: 20\n", (2, 9),
     "score-track: 'to' (10) must be above 'from' (20)"),
    ("kit:\n  - kind: score-track\n    to: 50\n    layout: spiral\n", (3, 13),
     "score-track.layout must be one of grid, snake, ring, got 'spiral'"),
    ("kit:\n  - kind: score-track\n", (1, 5), "score-track: 'to' is missing"),
    ("kit:\n  - kind: score-track\n    to: 50\n    row: " + "x" * 121 + "\n", (3, 10),
     "score-track.row must be at most 120 characters (it is printed as a row of the cover's "
     "table), got 121"),
    ("kit:\n  - kind: tokens\n    label: |\n      Tokens\n      and more\n", (2, 12),
     "tokens.label must be one line of text (it is printed as a sheet's title), got 2 lines"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [.nan, 10]\n", (3, 11),
     "mat.size must be 20 to 400 mm each way, got [nan, 10]"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [100, 60]\n    art: dragons\n", (4, 10),
     "mat: the game's engine draws no art named 'dragons' (see docs/kit.md, the art hook)"),
    ("kit:\n  - kind: player-aid\n    sections:\n      - {title: X, rule: wra}\n", (3, 26),
     "player-aid.sections.rule: unknown rule id 'wra'; did you mean 'war'?"),
    ("kit:\n  - kind: player-aid\n    sections:\n      - {title: X, lines: some}\n", (3, 27),
     "player-aid.sections.lines must be all, [from] or [from, to] over the quick reference's "
     "lines (from 0; to not included; negative counts from the end), got 'some'"),
    ("kit:\n  - kind: player-aid\n    sections:\n      - {titel: X}\n", (3, 10),
     "player-aid.sections: unknown key 'titel' (allowed: lines, option, paragraphs, "
     "ref, rule, text, title); did you mean 'title'?"),
    # issue 13: a list or mapping where a name belongs, and an engine art's params
    ("kit:\n  - kind: [mat]\n", (1, 11),
     "unknown kind of component [mat] (kinds: player-aid, tokens, score-track, mat, "
     "round-tracker, deck)"),
    ("kit:\n  - kind: player-aid\n    sections:\n      - {title: X, rule: [[war]]}\n", (3, 26),
     "player-aid.sections.rule: unknown rule id [war]"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [100, 60]\n    params: {cards: [a, b]}\n",
     (4, 13), "mat.params cards: each value must be a text or number, or a mapping of player "
     "ids to texts, got [a, b]"),
    ("kit:\n" + "  - kind: player-aid\n" * 7, (7, 5),
     "kit has 7 components; at most 6 components per kit; this component is the first "
     "past it"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies: [x]\n", (4, 14),
     "mat.copies: each variant must be a mapping"),
    ("kit:\n" + "  - kind: player-aid\n" * 7, (7, 5),
     "kit has 7 components; at most 6 components per kit; this component is the first "
     "past it"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies: [x]\n", (4, 14),
     "mat.copies: each variant must be a mapping"),
    ("kit:\n  - kind: player-aid\n    sections:\n      - just words\n", (3, 9),
     "player-aid.sections: a section must be a mapping"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n"
     "      - {panel: [1, 2]}\n", (5, 17),
     "mat.copies.panel must be [x, y, width, height] in millimetres, got [1, 2]"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n"
     "      - {stem: ''}\n", (5, 16), "mat.copies.stem must be some text, got ''"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n"
     "    players: [p1, p9]\n", (5, 14),
     "mat.players must list player ids of this game (p1, p2), got [p1, p9]"),
    ("kit: {kind: mat}\n", (0, 6),
     "kit must be a list of components, each with a kind (player-aid, tokens, score-track, "
     "mat, round-tracker, deck)"),
    # a mutation sample (scripts/mutation.py content --seed 9): a component without a kind;
    # 201 spaces (-1 to 199; 200 fit, see below)
    ("kit:\n  - player-aid\n", (1, 5),
     "a kit component must be a mapping with a kind, such as {kind: player-aid}"),
    ("kit:\n  - kind: score-track\n    from: -1\n    to: 199\n", (3, 9),
     "score-track: at most 200 spaces fit one sheet"),
    # a mutation sample (scripts/mutation.py content --seed 11): a mat's size that is no
    # list at all; a deck's deck: in a game of the French 52
    ("kit:\n  - kind: mat\n    name: M\n    size: 5\n", (3, 11),
     "mat.size must be [width, height] in millimetres, got 5"),
    ("kit:\n  - kind: deck\n    deck: main\n", (2, 11),
     "deck.deck names one of the game's own decks (decks: in game.yaml); this game plays the "
     "French 52"),
    # a deck's cards that are neither all nor a list (a mutation run of KitReader.cards)
    ("kit:\n  - kind: deck\n    cards: some\n", (2, 12),
     "deck.cards must be all, a list of suits such as [C, S, D], or a list of cards, got "
     "'some'"),
    ("kit:\n  - kind: deck\n    cards: []\n", (2, 12),
     "deck.cards must be all, a list of suits such as [C, S, D], or a list of cards, got []"),
    # 521 cards, each written on a line of its own: the 521st is the first past the limit
    ("kit:\n  - kind: deck\n    cards:\n" + "      - AC\n" * 521, (523, 9),
     "deck.cards has 521 cards; at most 520 cards per deck; this card is the first past it"),
    # a mat's copies and players, sections that are no list (a mutation run of
    # KitReader.value)
    ("kit:\n  - kind: player-aid\n    sections: words\n", (2, 15),
     "player-aid.sections must be a list of sections, each a mapping such as {title: Every "
     "trick, lines: all}"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies: x\n", (4, 13),
     "mat.copies must be a list of variants, each a mapping of params (and who, text)"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies: []\n", (4, 13),
     "mat.copies must be a list of variants, each a mapping of params (and who, text)"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n" + "      - {stem: s}\n" * 25, (29, 9),
     "mat.copies has 25 copies; at most 24 copies per component; this copy is the first past "
     "it"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n      - {who: ''}\n", (5, 15),
     "mat.copies.who must be some text, got ''"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n      - {who: "
     + "w" * 81 + "}\n", (5, 15),
     "mat.copies.who must be at most 80 characters (it is printed on a mat, under its name), "
     "got 81"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n      - {cards: [a]}\n", (5, 17),
     "mat.copies.cards: each value must be a text or number, or a mapping of player ids to "
     "texts, got [a]"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n      - {text: [{titel: X}]}\n", (5, 18),
     "mat.copies.text: unknown key 'titel' (allowed: lines, option, paragraphs, ref, rule, "
     "text, title); did you mean 'title'?"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n    players: []\n", (5, 14),
     "mat.players must list player ids of this game (p1, p2), got []"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n    players: p1\n", (5, 14),
     "mat.players must list player ids of this game (p1, p2), got 'p1'"),
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n    players: [1]\n", (5, 14),
     "mat.players must list player ids of this game (p1, p2), got [1]"),
    # a mutation sample (scripts/mutation.py content --seed 12): a copy's text that is no
    # list of sections, said at the copy's text
    ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    copies:\n"
     "      - {text: words}\n", (5, 16),
     "mat.copies.text must be a list of sections, each a mapping such as {title: Every trick, "
     "lines: all}"),
])
def test_a_bad_kit_is_a_located_error(tmp_path: Path, kit: str, where, message: str):
    got, first = errors_with_kit(tmp_path, "war", kit)
    line, col = where
    assert got == [f"war/game.yaml:{first + line}:{col}: error: {message}"]


def test_a_deck_component_naming_a_deck_in_a_game_of_the_french_52_is_not_kept(tmp_path: Path):
    """Said (the table above), and the component left out of the model, not kept with a
    deck the game does not have."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: deck\n    deck: main\n")
    assert len(got) == 1 and "deck.deck names one of the game's own decks" in got[0]
    assert run_check(tmp_path / "content").content.games[0].kit == []


def test_a_game_without_a_kit_gets_player_aids(tmp_path: Path):
    got, _ = errors_with_kit(tmp_path, "war", "")
    assert got == []
    game = run_check(tmp_path / "content").content.games[0]
    assert [c.kind for c in game.kit] == ["player-aid"]


def test_the_shipped_kits_are_data():
    report = run_check(ROOT / "content")
    kinds = {g.slug: [c.kind for c in g.kit] for g in report.content.games}
    # read from the game.yaml files by hand: what each game's kit declares
    assert kinds["winning-the-battle"] == ["tokens", "player-aid"]
    assert kinds["ultimate"] == ["score-track", "mat"]
    assert kinds["battle"] == ["mat", "mat", "mat"]
    assert kinds["deck-management"] == ["round-tracker", "player-aid"]


def test_a_deck_component_lays_out_the_cards_it_names(tmp_path: Path):
    """39 cards (clubs, spades, diamonds), nine a sheet: five sheets of faces, each
    followed by its backs (39 = 4 x 9 + 3)."""
    from builder.render.pnp.document import Renderer
    from builder.render.pnp.kinds import game_sheets
    from builder.settings import PAPERS

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "ultimate", content / "ultimate")
    (content / "index.yaml").write_text("games: [ultimate]\n")
    game_yaml = content / "ultimate" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        "kit:\n", "kit:\n  - kind: deck\n    cards: [C, S, D]\n    back: b\n", 1))
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    sheets, kit = game_sheets(Renderer(PAPERS["a4"], "full"), report.content.games[0],
                              PAPERS["a4"])
    deck = [s for s in sheets if any(it.kind in ("card", "card-back") for it in s.items)]
    assert [s.side for s in deck] == ["front", "back"] * 5
    faces = [it.name for s in deck for it in s.items if it.kind == "card"]
    assert len(faces) == 39 and faces[:2] == ["AC", "2C"] and faces[-1] == "KD"
    assert {it.ref for s in deck for it in s.items if it.kind == "card-back"} == {"pnp-back-b"}
    assert kit.rows[0].count == "39" and kit.rows[0].sheets == "2 to 11"


@pytest.mark.parametrize("params, message", [
    ("{cards: the red cards, suits: {p1: H, p2: S}}",
     "mat.params.cards must be a mapping of player ids (p1, p2, p3, p4) to texts, got 'the red "
     "cards'"),
    ("{cardz: {p1: red}}",
     "mat: the art 'player-mat' takes no param 'cardz' (it takes: cards, suits); did you mean "
     "'cards'?"),
    ("{cards: {p9: red}}",
     "mat.params.cards must be a mapping of player ids (p1, p2, p3, p4) to texts, got a "
     "mapping"),
])
def test_an_engine_art_gets_only_the_params_it_declares(tmp_path: Path, params, message):
    """Issue 13: Battle's player-mat art reads params.cards and params.suits as player ->
    text (GameDef.art_params); anything else is refused during the check, so the build
    never hands the art what it cannot draw."""
    kit = ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n"
           f"    art: player-mat\n    params: {params}\n")
    got, first = errors_with_kit(tmp_path, "battle", kit)
    assert got == [f"battle/game.yaml:{first + 6}:13: error: {message}"]


def test_a_whole_number_param_is_refused_when_it_is_not_one(tmp_path: Path):
    """Battle's killed-mat art takes ``players`` as a whole number (GameDef.art_params)."""
    kit = ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    art: killed-mat\n"
           "    params: {players: lots}\n")
    got, first = errors_with_kit(tmp_path, "battle", kit)
    assert got == [f"battle/game.yaml:{first + 5}:13: error: mat.params.players must be a "
                   "whole number, got 'lots'"]


ART_OF_OUR_OWN = """

def caption_art(ctx):
    return ""


GAME.art["caption-mat"] = caption_art
GAME.art_params["caption-mat"] = {"caption": "text", "rows": "whole"}
GAME.art["plain-mat"] = caption_art
GAME.art_params["plain-mat"] = {}
"""


@pytest.mark.parametrize("params, said, kept", [
    ("{caption: Hello, rows: '12'}", None, {"caption": "Hello", "rows": 12}),
    ("{caption: 7, rows: -3}", None, {"caption": "7", "rows": -3}),
    # a mutation sample (scripts/mutation.py content --seed 12): a negative number quoted
    ("{caption: Hi, rows: '-3'}", None, {"caption": "Hi", "rows": -3}),
    ("{rows: '3-'}", "mat.params.rows must be a whole number, got '3-'", None),
    ("{rows: 'X3'}", "mat.params.rows must be a whole number, got 'X3'", None),
    ("{caption: {a: b}}", "mat.params.caption must be a text, got a mapping", None),
    ("{rows: 10000}", "mat.params.rows must be a whole number, got 10000", None),
    ("{rows: 9999}", None, {"rows": 9999}),
    ("{rows: '-9999'}", None, {"rows": -9999}),
    ("{rows: -10000}", "mat.params.rows must be a whole number, got -10000", None),
    ("{rows: {p1: 3}}", "mat.params.rows must be a whole number, got a mapping", None),
    ("{caption: Hi, rowz: 3}", "mat: the art 'caption-mat' takes no param 'rowz' (it takes: "
     "caption, rows); did you mean 'rows'?", None),
])
def test_a_designers_art_gets_text_and_whole_number_params(tmp_path: Path, params, said, kept):
    """A designer's engine.py declares an art of its own with a text and a whole-number
    param: a text is kept as text (a number written there too), a whole number may be
    written quoted; anything else is refused at the params' line."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text() + ART_OF_OUR_OWN)
    game = content / "high-five" / "game.yaml"
    text = game.read_text()
    first = text.count("\n") + 1
    game.write_text(text + "kit:\n  - kind: mat\n    name: Caption\n    size: [100, 60]\n"
                    f"    art: caption-mat\n    params: {params}\n")
    report = run_check(content)
    got = [d.format().split("\n")[0].replace(str(content) + "/", "")
           for d in report.diagnostics.errors]
    if said is None:
        assert got == []
        mat = report.content.games[0].kit[0]
        assert mat.params["params"] == kept
    else:
        assert got == [f"high-five/game.yaml:{first + 5}:13: error: {said}"]
        assert report.content.games[0].kit == []      # the mat is not kept


def designers_mat(tmp_path: Path, mat: str):
    """High Five with the caption-mat and plain-mat arts of ART_OF_OUR_OWN and a kit of one
    mat, ``mat`` its lines after the kind: the errors, the kit read, and the line "kit:" is
    on."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text() + ART_OF_OUR_OWN)
    game = content / "high-five" / "game.yaml"
    text = game.read_text()
    game.write_text(text + "kit:\n  - kind: mat\n    name: M\n    size: [100, 60]\n" + mat)
    report = run_check(content)
    return ([d.format().split("\n")[0].replace(str(content) + "/", "")
             for d in report.diagnostics.errors], report.content.games[0].kit,
            text.count("\n") + 1)


def test_each_copy_of_a_designers_mat_gets_its_params_as_the_art_reads_them(tmp_path: Path):
    got, kit, _ = designers_mat(tmp_path, "    art: caption-mat\n    params: {caption: All}\n"
                                          "    copies:\n      - {caption: Left, rows: '5'}\n"
                                          "      - {rows: 7, who: North}\n")
    assert got == []
    assert kit[0].params["params"] == {"caption": "All"}
    assert [c["params"] for c in kit[0].params["copies"]] == [{"caption": "Left", "rows": 5},
                                                             {"rows": 7}]
    assert [c["who"] for c in kit[0].params["copies"]] == [None, "North"]


def test_a_copys_param_the_art_does_not_take_is_said_at_the_copies(tmp_path: Path):
    """The mat has no params of its own, only its copies: the second copy's rowz is said at
    the copies' list (its first line, 6 of the kit, at the dash)."""
    got, kit, first = designers_mat(tmp_path, "    art: caption-mat\n    copies:\n"
                                              "      - {rows: 1}\n      - {rowz: 2}\n")
    assert got == [f"high-five/game.yaml:{first + 6}:7: error: mat: the art 'caption-mat' takes "
                   "no param 'rowz' (it takes: caption, rows); did you mean 'rows'?"]
    assert kit == []


def test_an_art_that_takes_no_params_says_so(tmp_path: Path):
    got, _, first = designers_mat(tmp_path, "    art: plain-mat\n    params: {rows: 1}\n")
    assert got == [f"high-five/game.yaml:{first + 5}:13: error: mat: the art 'plain-mat' takes "
                   "no param 'rows' (it takes: none)"]
    got, kit, _ = designers_mat(tmp_path / "again", "    art: plain-mat\n")
    assert got == [] and kit[0].params["art"] == "plain-mat" and kit[0].params["params"] is None


def test_an_engine_arts_player_params_are_texts_for_the_players_named(tmp_path: Path):
    kit = ("kit:\n  - kind: mat\n    name: M\n    size: [256, 96]\n    per: player\n"
           "    art: player-mat\n    params: {cards: {p1: the red cards, p2: 7}, suits: {p3: H}}\n")
    got, _ = errors_with_kit(tmp_path, "battle", kit)
    assert got == []
    mat = run_check(tmp_path / "content").content.games[0].kit[0]
    assert mat.params["params"] == {"cards": {"p1": "the red cards", "p2": "7"},
                                    "suits": {"p3": "H"}}


def test_a_mats_copies_are_its_variants(tmp_path: Path):
    """A copy's who, stem, text and params, each read as the mat's own are."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: mat\n    name: M\n"
                             "    size: [256, 96]\n    copies:\n"
                             "      - {who: North, stem: n, text: [{title: Yours}], cards: red}\n")
    assert got == []
    (copy,) = run_check(tmp_path / "content").content.games[0].kit[0].params["copies"]
    assert (copy["who"], copy["stem"], copy["params"], copy["panel"]) == \
        ("North", "n", {"cards": "red"}, None)
    assert [(s.title, s.parts) for s in copy["text"]] == [("Yours", [])]


def test_a_copys_stem_is_any_text_as_the_mats_own(tmp_path: Path):
    """A stem names the copy's files, not a line printed on the mat: 90 characters are
    taken, as they are for the mat's own stem (a who is at most 80: the table above)."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: mat\n    name: M\n"
                             f"    size: [256, 96]\n    stem: {'m' * 90}\n    copies:\n"
                             f"      - {{stem: {'s' * 90}}}\n")
    assert got == []
    mat = run_check(tmp_path / "content").content.games[0].kit[0]
    assert (mat.params["stem"], mat.params["copies"][0]["stem"]) == ("m" * 90, "s" * 90)


def test_a_mat_for_some_players_lists_them(tmp_path: Path):
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: mat\n    name: M\n"
                             "    size: [256, 96]\n    per: player\n    players: [p2]\n")
    assert got == []
    assert run_check(tmp_path / "content").content.games[0].kit[0].params["players"] == ["p2"]


def test_a_score_track_of_200_spaces_fits_one_sheet(tmp_path: Path):
    """From 0 to 199 is 200 spaces, the most one sheet holds (one more is refused: the
    table above)."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: score-track\n    from: 0\n"
                             "    to: 199\n")
    assert got == []
    track = run_check(tmp_path / "content").content.games[0].kit[0]
    assert (track.kind, track.params["from"], track.params["to"]) == ("score-track", 0, 199)


def test_a_section_with_a_mistake_is_not_kept_half_read(tmp_path: Path):
    """A section with an unknown key is said (see the table above) and its component left
    out of the model, rather than kept with the key read as a part of the section."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: player-aid\n    sections:\n"
                             "      - {title: X, lines: all}\n      - {titel: X}\n")
    assert len(got) == 1 and "unknown key 'titel'" in got[0]
    game = run_check(tmp_path / "content").content.games[0]
    assert game.kit == []


def test_a_deck_of_all_the_cards(tmp_path: Path):
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: deck\n    cards: all\n")
    assert got == []
    deck = run_check(tmp_path / "content").content.games[0].kit[0]
    assert len(deck.params["cards"]) == 52 and deck.params["cards"][:2] == ["AC", "2C"]


@pytest.mark.parametrize("cards, kept", [
    ("[H]", [f"{r}H" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                               "K")]),
    ("[D, C]", [f"{r}{s}" for s in "DC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                   "10", "J", "Q", "K")]),
    ("[QS, 10h, ad]", ["QS", "10H", "AD"]),
    ("[" + "AC, " * 519 + "AC]", ["AC"] * 520),
])
def test_a_deck_of_the_french_52_is_suits_or_cards(tmp_path: Path, cards: str, kept):
    """Suit letters are those suits' cards, ace to king, in the order written; card codes
    are read in any case; 520 cards are the most a deck component may list."""
    got, _ = errors_with_kit(tmp_path, "war", f"kit:\n  - kind: deck\n    cards: {cards}\n")
    assert got == []
    deck = run_check(tmp_path / "content").content.games[0].kit[0]
    assert deck.params["cards"] == kept


def test_a_deck_of_a_games_own_cards_has_no_back_of_its_own(tmp_path: Path):
    """A game's own cards print with their deck's back: a kit deck's back: is the French
    52's, and is refused at its line."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    game = content / "high-colours" / "game.yaml"
    text = game.read_text()
    game.write_text(text + "kit:\n  - kind: deck\n    cards: all\n    back: b\n")
    report = run_check(content)
    got = [d.format().split("\n")[0].replace(str(content) + "/", "")
           for d in report.diagnostics.errors]
    assert got == [f"high-colours/game.yaml:{text.count(chr(10)) + 4}:11: error: deck.back "
                   "chooses a back of the French 52; a game's own cards print with their "
                   "deck's back (back: under decks: in game.yaml)"]
    assert report.content.games[0].kit == []


def test_a_sections_ref_is_its_rule_reference_not_a_part(tmp_path: Path):
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: player-aid\n    sections:\n"
                             "      - {title: X, ref: war, lines: all}\n")
    assert got == []
    (section,) = run_check(tmp_path / "content").content.games[0].kit[0].params["sections"]
    assert (section.title, section.ref, section.parts) == ("X", "war", [("lines", (0, None))])


def test_a_mat_copy_without_a_panel_takes_the_mats(tmp_path: Path):
    """Each copy of a mat is its params, who, text, stem and panel; a copy that gives no
    panel has none (None: the mat's own, or no panel)."""
    got, _ = errors_with_kit(tmp_path, "war", "kit:\n  - kind: mat\n    name: M\n"
                             "    size: [256, 96]\n    copies:\n      - {stem: left}\n"
                             "      - {panel: [1, 2, 30, 40]}\n")
    assert got == []
    mat = run_check(tmp_path / "content").content.games[0].kit[0]
    assert mat.params["copies"] == [
        {"params": {}, "who": None, "text": None, "stem": "left", "panel": None},
        {"params": {}, "who": None, "text": None, "stem": None, "panel": (1.0, 2.0, 30.0, 40.0)}]


# --------------------------------------------------------------------------- next to the kit
# The mutation sample scripts/mutation.py content --seed 12 left these survivors in the
# readers of game.yaml and index.yaml around the kit (balance:, book.fonts, book.logo and the
# rulebook's size); the content folder is High Five (tests/helpers.py), line by line.
def test_a_draws_claim_without_a_bound_is_said_at_the_claim(content):
    """High Five's game.yaml has six lines: balance: is line 7, the claim line 9."""
    from helpers import GAME_FILE, errors

    (content / "high-five" / "game.yaml").write_text(
        GAME + "balance:\n  claims:\n    - {claim: draws}\n")
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:9:7: error: a draws claim needs at_most or at_least"]


def test_a_font_with_one_damaged_outline_names_the_glyph(content):
    """Cabin with the outline of its A made a call of a subroutine with no number: every
    table reads, and drawing the A fails; the error names the glyph."""
    from fontTools.ttLib import TTFont
    from helpers import errors

    cabin = Path("/usr/share/fonts/opentype/cabin/Cabin-Regular.otf")
    if not cabin.exists():
        pytest.skip(f"{cabin} is not installed (scripts/setup installs it)")
    font = TTFont(str(cabin), recalcBBoxes=False)
    cff = font["CFF "].cff
    outline = cff[cff.fontNames[0]].CharStrings["A"]
    outline.decompile()
    outline.program = ["callsubr"]
    font.save(str(content / "bad.otf"))
    line = "    headings: {regular: bad.otf}"
    (content / "index.yaml").write_text(f"book:\n  fonts:\n{line}\ngames: [high-five]\n")
    got = errors(content, "content/index.yaml")
    assert len(got) == 1 and got[0].startswith(
        "content/index.yaml:3:25: error: 'bad.otf' is not a font file fontTools can read (a "
        "damaged outline of the glyph 'A': "), got


def test_a_logo_may_refer_to_its_own_parts_with_spaces_in_url(content):
    """CSS lets url( #g ) hold spaces: still a part of the logo itself, not an outside
    resource."""
    from helpers import errors

    (content / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><defs>'
        '<linearGradient id="g"/></defs><rect width="40" height="20" fill="url( #g)"/></svg>')
    (content / "index.yaml").write_text("book:\n  logo: logo.svg\ngames: [high-five]\n")
    assert errors(content) == []


def test_the_rulebook_text_is_said_where_it_passes_the_limit(content, monkeypatch):
    """With the limit at exactly game.yaml's words (its one quickref line), game.yaml is
    within it and the first rule ('# Playing', rules.md line 1) passes it."""
    from helpers import RULES_FILE, errors

    from builder import limits

    quickref = "Play a card; the higher card scores."
    monkeypatch.setattr(limits, "MAX_BOOK_CHARS", len(quickref))
    titles = ("Playing", "A round", "Scoring", "Equal cards", "The end", "More points")
    bodies = ("Both players choose a card from their hand and reveal the two together.",
              "The higher card (ace high) scores its player a point.",
              "If the two cards are equal, nobody scores.",
              "When the hands are empty, the player with more points wins; equal points is "
              "a draw.")
    glossary = len("Point") + len("What the higher card of a round scores.")
    total = len(quickref) + sum(map(len, titles)) + sum(map(len, bodies)) + glossary \
        + len("A two-round game")
    assert errors(content) == [
        f"{RULES_FILE}:1:1: error: the rulebook of 'high-five' has {total:,} characters; at "
        f"most {len(quickref)} characters of text per rulebook (rules, glossary, examples' "
        "words); the text here passes it"]
