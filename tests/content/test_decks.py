"""A game's own cards: the engine's decks (builder/engine/decks.py) and a game that plays
one, read and replayed from a content folder outside the repository (High Colours,
tests/fixtures/high-colours: High Five played with 24 coloured cards, two of each). The
deck files' located errors are cases of tests/content/test_content_errors.py."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, warbook_here

from builder.check import run_check
from builder.engine import FRENCH, Card, CardError, Deck, GameDef, full_deck

ROWS = [{"code": "R7", "name": "Red seven", "colour": "red", "number": 7, "count": 2},
        {"code": "RW", "name": "Red wager", "colour": "red", "number": None, "count": 3},
        {"code": "B10", "colour": "blue", "number": 10}]


def test_a_deck_holds_its_rows_in_order_with_their_counts_and_fields():
    deck = Deck("expeditions", ROWS, key="test/expeditions")
    assert deck.codes == ["R7", "RW", "B10"]
    assert deck.fields == ("colour", "number")
    assert [str(c) for c in deck.all()] == ["R7", "R7", "RW", "RW", "RW", "B10"]
    assert deck.size() == 6 and len(deck) == 3
    r7 = deck.card("R7")
    assert (r7.colour, r7.number, r7.name()) == ("red", 7, "Red seven")
    assert deck.card("B10").name() == "B10"          # no name: the code
    assert r7.fields() == {"colour": "red", "number": 7}
    assert deck.supply()[r7] == 2
    assert sorted([deck.card("B10"), r7, deck.card("RW")]) == list(deck.cards)
    with pytest.raises(AttributeError):
        r7.colour = "blue"


def test_a_code_names_one_card_in_any_case_and_a_wrong_one_says_the_nearest():
    deck = Deck("expeditions", ROWS, key="test/expeditions")
    assert deck.parse("R7") is deck.card("R7") and deck.parse(" r7 ") is deck.card("R7")
    assert deck.parse_all(["b10", "RW"]) == [deck.card("B10"), deck.card("RW")]
    with pytest.raises(CardError, match=r"^unknown card 'R77' \(not in the expeditions deck\); "
                                        r"did you mean 'R7'\?$"):
        deck.parse("R77")
    with pytest.raises(CardError, match="expected a card code"):
        deck.parse(["R7"])


def test_cards_are_interned_and_come_back_from_a_worker_as_the_same_object():
    deck = Deck("expeditions", ROWS, key="test/expeditions-pickled")
    r7 = deck.card("R7")
    assert pickle.loads(pickle.dumps(r7)) is r7
    assert pickle.loads(pickle.dumps(deck.all())) == deck.all()
    import copy
    assert copy.deepcopy([r7])[0] is r7


def test_a_deck_refuses_a_code_twice_and_a_field_named_like_an_attribute():
    with pytest.raises(ValueError, match="the code 'R7' is on two rows"):
        Deck("d", [{"code": "R7"}, {"code": "R7"}])
    with pytest.raises(ValueError, match="a field named 'deck'"):
        Deck("d", [{"code": "R7", "deck": "x"}])


def test_a_field_misspelt_on_a_card_says_the_cards_fields_and_the_nearest():
    deck = Deck("expeditions", ROWS, key="test/expeditions-fields")
    r7 = deck.card("R7")
    assert r7.colour == "red" and not hasattr(r7, "nubmer")
    with pytest.raises(AttributeError, match=r"^card 'R7' of deck 'expeditions' has no field "
                                             r"'nubmer' \(its fields: colour, number\); "
                                             r"did you mean 'number'\?$"):
        r7.nubmer  # the access is the test
    with pytest.raises(AttributeError, match=r"^__getstate_x__$"):  # protocols still probe
        r7.__getstate_x__


def test_the_french_deck_is_the_52_as_the_engines_deal_them():
    assert FRENCH.all() == full_deck()
    assert FRENCH.parse("10h") is Card("10", "H")
    assert FRENCH.card("QS").name() == "queen of spades"
    assert len(FRENCH.codes) == 52 and FRENCH.size() == 52


def _gamedef(**kw) -> GameDef:
    import dataclasses

    from builder.engine.war import GAME
    fields = {f.name: getattr(GAME, f.name) for f in dataclasses.fields(GameDef)}
    fields.update(kw)
    return GameDef(**fields)


def test_an_engine_says_which_cards_it_plays():
    with pytest.raises(TypeError, match="cards= must be 'french'.*or 'own'"):
        _gamedef(cards="tarot")
    french = _gamedef()
    assert french.deck is FRENCH and french.decks == {"french": FRENCH}
    with pytest.raises(ValueError, match="plays the French 52"):
        french.use_decks({"d": Deck("d", ROWS)})
    own = _gamedef(cards="own", slug="own-war")
    with pytest.raises(RuntimeError, match="plays its own decks, and none was given"):
        own.deck
    a, b = Deck("a", ROWS, key="x/a"), Deck("b", [{"code": "Z1"}], key="x/b")
    own.use_decks({"a": a, "b": b})
    assert own.deck is a and own.parse_card("z1") is b.card("Z1")
    assert own.copies_of(a.card("RW")) == 3 and own.card_codes() == ["R7", "RW", "B10", "Z1"]
    with pytest.raises(CardError, match="not in the decks a, b.*did you mean 'Z1'"):
        own.parse_card("Z2")
    own.use_decks({"a": a, "b": b})            # the same decks again (serve reads again)
    with pytest.raises(ValueError, match="already plays the decks a, b of another game"):
        own.use_decks({"c": Deck("c", ROWS, key="y/c")})


# --------------------------------------------------------------------------- a game
@pytest.fixture()
def colours(tmp_path, monkeypatch) -> Path:
    """High Colours in a content folder outside the repository."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    monkeypatch.chdir(tmp_path)
    return content


def first_errors(content: Path) -> list[str]:
    report = run_check(Path(content.name))
    return [d.format().splitlines()[0] for d in report.diagnostics.errors]


def test_an_engine_reading_a_field_the_cards_lack_is_told_where_and_the_nearest(colours):
    engine = colours / "high-colours" / "engine.py"
    text = engine.read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if ".number for p in" in t)
    engine.write_text(text.replace(".number for p in", ".numbr for p in"))
    proc = warbook_here("check", "--content", "content", cwd=colours.parent)
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"content/high-colours/engine.py:{line}: error: "), proc.stderr
    assert "card 'R6' of deck 'colours' has no field 'numbr' (its fields: colour, number); " \
           "did you mean 'number'?" in first
    assert "Traceback" not in proc.stderr


def test_a_game_with_its_own_deck_is_read_and_replayed(colours):
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics] == []
    game = report.games[0].game
    assert [r.status for r in report.games[0].replays] == ["pass"]
    assert [d.name for d in game.decks] == ["colours"]
    assert game.decks[0].size_mm == (44.5, 63.5)                      # mini
    assert game.gamedef.deck is game.decks[0].deck
    assert game.cover_cards == ["R6", "B6"]
    assert game.decks[0].rows["B6"].line == 13 and game.decks[0].file.endswith("cards.csv")


def test_an_example_names_the_games_own_cards_and_events_match_them(colours):
    ex = colours / "high-colours" / "examples" / "01-a-short-game.yaml"
    text = ex.read_text()
    ex.write_text(text.replace("events: [reveal, reveal, tie]",
                               "events: [{kind: reveal, cards: [r6]}, {kind: reveal, cards: [Y6]}, tie]"))
    assert first_errors(colours) == []
    ex.write_text(text.replace("events: [reveal, reveal, tie]",
                               "events: [{kind: reveal, cards: [R5]}, reveal, tie]"))
    assert first_errors(colours)[0].startswith(
        "content/high-colours/examples/01-a-short-game.yaml:13:")


def test_a_wrong_card_in_a_setup_says_the_nearest_of_the_games_deck(colours):
    ex = colours / "high-colours" / "examples" / "01-a-short-game.yaml"
    ex.write_text(ex.read_text().replace("p1: [R6, B2]", "p1: [R6, B9]"))
    # said at the setup's hands (the check locates each card of a setup's piles: only)
    assert first_errors(colours) == [
        "content/high-colours/examples/01-a-short-game.yaml:7:3: error: example "
        "'high-colours-short-game': unknown card 'B9' (not in the colours deck); did you "
        "mean 'B6'?"]


def test_a_setup_may_hold_a_card_as_often_as_the_deck_has_it(colours):
    from builder.check import card_supply

    report = run_check(Path("content"))
    gamedef = report.games[0].game.gamedef
    allowed = card_supply(gamedef, gamedef.resolve({}))
    assert allowed("all", gamedef.deck.card("R6")) == 2        # two of each in cards.csv
    from builder.engine.war import GAME as WAR
    assert card_supply(WAR, {})("all", Card("Q", "S")) == 1


def test_cover_cards_come_from_the_games_deck(colours):
    game = colours / "high-colours" / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("cover_cards: [R6, B6]\n", ""))
    report = run_check(Path("content"))
    assert report.games[0].game.cover_cards == ["R1", "R2", "R3", "R4"]  # the deck's first four
    game.write_text(text.replace("cover_cards: [R6, B6]", "cover_cards: [R6, QS]"))
    assert first_errors(colours) == [
        "content/high-colours/game.yaml:33:14: error: cover_cards: unknown card 'QS' (not in "
        "the colours deck)"]


def test_a_kit_deck_of_all_cards_is_the_games_deck(colours):
    game = colours / "high-colours" / "game.yaml"
    game.write_text(game.read_text() + "kit:\n  - kind: deck\n    cards: all\n")
    report = run_check(Path("content"))
    errors = [d.format() for d in report.diagnostics.errors]
    deck = [c for c in report.games[0].game.kit if c.kind == "deck"]
    assert errors == [] and deck and deck[0].params["cards"] == [
        str(c) for c in report.games[0].game.gamedef.deck.cards]


def test_two_games_cannot_give_one_engine_two_decks(colours, monkeypatch):
    """Two games that name one installed engine playing its own cards, each with its own
    deck file: the engine can play one set of decks in a run, and the second game is told."""
    from builder.engine import registry
    engine = registry.load_engine_file(FIXTURES / "high-colours" / "engine.py")
    real = registry.find_engine
    monkeypatch.setattr("builder.content.game.find_engine",
                        lambda name, folder=None: engine if name == "high-colours"
                        else real(name, folder))
    for slug in ("one", "two"):
        folder = colours / slug
        shutil.copytree(colours / "high-colours", folder)
        (folder / "engine.py").unlink()
        game = folder / "game.yaml"
        game.write_text(game.read_text().replace("slug: high-colours", f"slug: {slug}")
                        + "engine: high-colours\n")
    (colours / "two" / "cards.csv").write_text("code,number\nZ1,1\n")
    (colours / "index.yaml").write_text("games: [one, two]\n")
    said = [e for e in first_errors(colours) if "decks:" in e]
    assert said == ["content/two/game.yaml:32:3: error: decks: the high-colours engine already "
                    "plays the decks colours of another game"]


def test_a_decks_back_may_be_a_png_or_jpeg_picture_and_is_located(colours):
    game = colours / "high-colours" / "game.yaml"
    text = game.read_text()
    deck = "  colours: {cards: cards.csv, size: mini}"
    game.write_text(text.replace(deck, deck[:-1] + ", back: back.png}"))
    (colours / "high-colours" / "back.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (colours / "high-colours" / "back.gif").write_bytes(b"GIF89a")
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics.errors] == []
    (spec,) = report.games[0].game.decks
    assert spec.back.name == "back.png"
    # where game.yaml names it, for the errors about the picture (a PNG has no lines)
    assert (spec.back_where.path, spec.back_where.line) == ("content/high-colours/game.yaml", 32)
    assert spec.back_where.col == game.read_text().splitlines()[31].index("back.png") + 1
    game.write_text(text.replace(deck, deck[:-1] + ", back: back.gif}"))
    assert first_errors(colours) == [
        "content/high-colours/game.yaml:32:49: error: deck 'colours': back: 'back.gif' must be "
        "a .svg or .png or .jpg or .jpeg or .j2 or .html file"]


def test_a_spreadsheets_csv_with_a_byte_order_mark_and_blank_lines_is_read(colours):
    """A spreadsheet's "CSV UTF-8" export starts with a byte order mark, and a designer
    leaves blank lines between the colours: neither changes the deck."""
    cards = colours / "high-colours" / "cards.csv"
    lines = cards.read_text().splitlines(keepends=True)
    cards.write_text("\ufeff" + lines[0] + "".join(
        ln + ("\n" if k % 6 == 5 else "") for k, ln in enumerate(lines[1:])))
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics.errors] == []
    deck = report.games[0].game.decks[0]
    assert deck.deck.codes == [ln.split(",")[0] for ln in lines[1:]]
    assert deck.rows["B6"].line == 13 + 1          # one blank line above it (after R6)


def test_a_decks_face_template_is_the_file_it_names(colours):
    game = colours / "high-colours" / "game.yaml"
    deck = "  colours: {cards: cards.csv, size: mini}"
    game.write_text(game.read_text().replace(deck, deck[:-1] + ", face: face.svg.j2}"))
    (colours / "high-colours" / "face.svg.j2").write_text(
        '<rect width="{{ width }}" height="{{ height }}" fill="#fff"/>\n')
    report = run_check(Path("content"))
    spec = report.games[0].game.decks[0]
    assert spec.face is not None and spec.face.name == "face.svg.j2"
    game.write_text(game.read_text().replace("face: face.svg.j2", "face: fcae.svg.j2"))
    assert first_errors(colours) == [
        "content/high-colours/game.yaml:32:49: error: deck 'colours': face: no file "
        "'fcae.svg.j2' in content/high-colours/; did you mean 'face.svg.j2'?"]


@pytest.mark.parametrize("cards, said", [
    ("- {code: R6, number: 6}\n- B6\n", "cards.yaml:2:3: error: a card must be a mapping"),
    ("- {code: R6, number: 6}\n- {code: B6, number: [6]}\n",
     "cards.yaml:2:22: error: card 'B6': field 'number' must be text or a number"),
    # a mutation sample (scripts/mutation.py content --seed 11): a code twice is not a deck
    # of the first row
    ("- {code: R6, number: 6}\n- {code: R6, number: 7}\n",
     "cards.yaml:2:10: error: card code 'R6' is already used at "
     "content/high-colours/cards.yaml:1:10"),
])
def test_a_deck_with_a_wrong_card_is_not_made_so_nothing_follows_from_it(colours, cards, said):
    """A deck with a card that cannot be read is not made at all (not made of the other
    cards): its one error is said, and no replay or cover card meets a deck short of it."""
    game = colours / "high-colours" / "game.yaml"
    game.write_text(game.read_text().replace("cards: cards.csv", "cards: cards.yaml"))
    (colours / "high-colours" / "cards.yaml").write_text(cards)
    report = run_check(Path("content"))
    errors = [d.format().splitlines()[0] for d in report.diagnostics.errors]
    assert len(errors) == 1 and errors[0].startswith("content/high-colours/" + said), errors
    assert report.games[0].game.decks == [] and report.games[0].game.gamedef is None


def test_cover_cards_are_not_called_wrong_when_the_deck_could_not_be_read(colours):
    (colours / "high-colours" / "cards.csv").write_text(
        "code,name,colour,number,count\nR6,Red six,red,6,2\nB6,Blue,blue,\"6\n")
    assert first_errors(colours) == [
        "content/high-colours/cards.csv:3:1: error: a quote is left open on this line (a cell "
        "may not run over two lines)"]


def test_a_quoted_cell_keeps_its_doubled_quotes_as_one(colours):
    """RFC 4180: "" inside a quoted cell is one quote, and the cell goes on after it."""
    cards = colours / "high-colours" / "cards.csv"
    cards.write_text(cards.read_text().replace("R6,Red 6,", 'R6,"Red ""six"" card",'))
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics.errors] == []
    assert report.games[0].game.gamedef.deck.card("R6").name() == 'Red "six" card'


def test_a_wrong_code_is_located_at_its_own_column(colours):
    """The code need not be the first column: a wrong code is said where it is written."""
    cards = colours / "high-colours" / "cards.csv"
    lines = cards.read_text().splitlines()
    moved = [",".join([c[1], c[0], *c[2:]]) for c in (ln.split(",") for ln in lines)]
    moved[6] = moved[6].replace(",R6,", ",R 6,")
    cards.write_text("\n".join(moved) + "\n")
    assert first_errors(colours)[0] == (
        "content/high-colours/cards.csv:7:7: error: card code 'R 6' must be letters, digits, "
        "'-', '_' or '+' (at most 16, starting with a letter or digit)")
