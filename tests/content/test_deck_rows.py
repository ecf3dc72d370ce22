"""A game's deck file, row by row (builder/content/decks.py, ``DeckReader.check_rows`` and
``DeckReader.deck``): each card's code, count, name and fields checked, every mistake said
at its row and column in one run, and the deck made only when every row is right.

The game is High Colours (tests/fixtures/high-colours), its ``cards.csv`` (or a
``cards.yaml``) written out here line by line, so each line and column is counted from the
text below. Only the deck file's own errors are compared: a deck short of the example's
cards also fails the replay, which is check.py's to say."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, col

from builder.check import run_check

CSV = "content/high-colours/cards.csv"
YAML = "content/high-colours/cards.yaml"
HEADER = "code,name,colour,number,count\n"
#: the rows the example and the cover use (R6, B6, B2, Y6, G5), good as they are
GOOD = "R6,Red 6,red,6,2\nB6,Blue 6,blue,6,2\nB2,Blue 2,blue,2,2\nY6,Yellow 6,yellow,6,2\n" \
       "G5,Green 5,green,5,2\n"
RESERVED_WORDS = "all, any, false, n, no, none, null, off, on, pass, true, y, yes"


@pytest.fixture()
def colours(tmp_path: Path, monkeypatch) -> Path:
    """High Colours in a content folder outside the repository."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    monkeypatch.chdir(tmp_path)
    return content


def with_csv(content: Path, text: str):
    """cards.csv written as ``text``: the errors said in it (first lines), and the report."""
    (content / "high-colours" / "cards.csv").write_text(text)
    return deck_errors(CSV)


def with_yaml(content: Path, text: str):
    game = content / "high-colours" / "game.yaml"
    game.write_text(game.read_text().replace("cards: cards.csv", "cards: cards.yaml"))
    (content / "high-colours" / "cards.yaml").write_text(text)
    return deck_errors(YAML)


def deck_errors(path: str):
    report = run_check(Path("content"))
    lines = [d.format().splitlines()[0] for d in report.diagnostics.errors]
    return [ln for ln in lines if ln.startswith(path + ":")], report


def made(report):
    """The deck the game plays, or None when it was not made."""
    decks = report.games[0].game.decks
    return decks[0].deck if decks else None


# --------------------------------------------------------------------------- codes
def test_every_wrong_row_is_said_in_one_run_and_no_deck_is_made(colours):
    """Each kind of wrong row, one after another: a wrong row is said and the reader goes
    on to the next (one run says them all)."""
    rows = ["R 6,Red six,red,6,2",            # 2: not a code
            "none,Nothing,red,0,1",           # 3: a word YAML reads as nothing
            ",Nameless,red,1,1",              # 4: no code
            "R6,Red six,red,6,0",             # 5: no copies
            "B6,Blue six,blue,6,2",           # 6: good
            "b6,Blue again,blue,6,1",         # 7: B6 again, in another case
            "G6,Green six,green,6,x"]         # 8: a count that is no number
    got, report = with_csv(colours, HEADER + "\n".join(rows) + "\n")
    assert got == [
        f"{CSV}:2:1: error: card code 'R 6' must be letters, digits, '-', '_' or '+' (at most "
        "16, starting with a letter or digit)",
        f"{CSV}:3:1: error: card code 'none' is a word YAML or the decisions read otherwise "
        f"({RESERVED_WORDS}); choose another code",
        f"{CSV}:4:1: error: this card has no code (the name examples use for it, such as R7)",
        f"{CSV}:5:{col(rows[3], ',0') + 1}: error: card 'R6': count must be a whole number "
        "from 1 to 999, got 0",
        f"{CSV}:7:1: error: card code 'b6' is already used at {CSV}:6:1 (codes differ only in "
        "case)",
        f"{CSV}:8:{col(rows[6], ',x') + 1}: error: card 'G6': count must be a whole number "
        "from 1 to 999, got 'x'"]
    assert made(report) is None


@pytest.mark.parametrize("row, said", [
    ("R 6,Wild,grey,0,1", "card code 'R 6' must be letters, digits, '-', '_' or '+' (at most 16, "
                          "starting with a letter or digit)"),
    ("Null,Wild,grey,0,1", f"card code 'Null' is a word YAML or the decisions read otherwise "
                           f"({RESERVED_WORDS}); choose another code"),
    (",Wild,grey,0,1", "this card has no code (the name examples use for it, such as R7)"),
])
def test_one_wrong_code_is_enough_for_no_deck(colours, row, said):
    """The other rows are good: the deck is still not made of them."""
    got, report = with_csv(colours, HEADER + GOOD + row + "\n")
    assert got == [f"{CSV}:7:1: error: {said}"]
    assert made(report) is None


def test_a_code_written_twice_the_same_is_not_said_to_differ_in_case(colours):
    """z9 twice is the same code twice (it was said to "differ only in case")."""
    got, _ = with_csv(colours, HEADER + GOOD + "z9,Wild,grey,0,1\nz9,Wild,grey,0,1\n")
    assert got == [f"{CSV}:8:1: error: card code 'z9' is already used at {CSV}:7:1"]


def test_a_wrong_code_does_not_end_the_reading(colours):
    """Two wrong codes in two rows: both said (the first does not end the reading)."""
    got, _ = with_csv(colours, HEADER + "R-,ok,red,1,1\n-R,bad,red,1,1\nR+_1,ok,red,1,1\n"
                      "yes,bad,red,1,1\n" + GOOD)
    assert got == [
        f"{CSV}:3:1: error: card code '-R' must be letters, digits, '-', '_' or '+' (at most "
        "16, starting with a letter or digit)",
        f"{CSV}:5:1: error: card code 'yes' is a word YAML or the decisions read otherwise "
        f"({RESERVED_WORDS}); choose another code"]


def test_a_yaml_card_without_a_code_is_said_at_its_row(colours):
    got, report = with_yaml(colours, "- {code: R6, number: 6}\n- {name: Nameless, number: 1}\n")
    assert got == [f"{YAML}:2:3: error: this card has no code (the name examples use for it, "
                   "such as R7)"]
    assert made(report) is None


def test_an_empty_code_is_no_code(colours):
    got, report = with_yaml(colours, "- {code: R6, number: 6}\n- {code: '', number: 1}\n")
    assert got == [f"{YAML}:2:10: error: this card has no code (the name examples use for it, "
                   "such as R7)"]
    assert made(report) is None


def test_a_code_of_sixteen_characters_is_the_longest(colours):
    got, report = with_csv(colours, HEADER + GOOD + "A" * 16 + ",Long,red,1,1\n")
    assert got == [] and made(report).codes[-1] == "A" * 16
    got, _ = with_csv(colours, HEADER + GOOD + "A" * 17 + ",Longer,red,1,1\n")
    assert got == [f"{CSV}:7:1: error: card code '{'A' * 17}' must be letters, digits, '-', "
                   "'_' or '+' (at most 16, starting with a letter or digit)"]


def test_a_code_that_is_a_number_is_its_digits(colours):
    """YAML reads ``code: 7`` as a number; the card's code is "7"."""
    got, report = with_yaml(colours, "- {code: R6, number: 6}\n- {code: B6, number: 6}\n"
                                     "- {code: B2, number: 2}\n- {code: Y6, number: 6}\n"
                                     "- {code: G5, number: 5}\n- {code: 7, number: 7}\n")
    assert got == []
    assert made(report).codes == ["R6", "B6", "B2", "Y6", "G5", "7"]


# --------------------------------------------------------------------------- counts
@pytest.mark.parametrize("count, copies", [("1", 1), ("", 1), ("7", 7)])
def test_a_count_is_its_copies_and_1_when_left_empty(colours, count, copies):
    got, report = with_csv(colours, HEADER + GOOD + f"Z1,Wild,grey,0,{count}\n")
    assert got == []
    deck = made(report)
    assert deck.supply()[deck.card("Z1")] == copies and deck.supply()[deck.card("R6")] == 2


def test_a_count_of_999_is_a_count_but_too_many_cards_for_a_deck(colours):
    """999 copies is the most a row may ask for (1000 is refused below); with the ten
    cards of GOOD the deck then has 1,009 cards, past the 520 a deck may have."""
    got, _ = with_csv(colours, HEADER + GOOD + "Z1,Wild,grey,0,999\n")
    assert got == [f"{CSV}:1:1: error: deck 'colours' has 1,009 cards; at most 520 cards per "
                   "deck, copies counted"]


@pytest.mark.parametrize("count, said", [("1000", "1000"), ("-1", "-1"), ("0", "0")])
def test_a_count_past_the_bounds_is_refused_at_its_cell(colours, count, said):
    row = f"Z1,Wild,grey,0,{count}"
    got, report = with_csv(colours, HEADER + GOOD + row + "\n")
    assert got == [f"{CSV}:7:{len(row) - len(count) + 1}: error: card 'Z1': count must be a whole "
                   f"number from 1 to 999, got {said}"]
    assert made(report) is None


def test_a_count_of_true_is_no_number(colours):
    got, _ = with_yaml(colours, "- {code: R6, number: 6}\n- {code: B6, count: true}\n")
    assert got == [f"{YAML}:2:21: error: card 'B6': count must be a whole number from 1 to "
                   "999, got true"]


def test_a_count_left_out_of_a_yaml_card_is_said_at_the_code(colours):
    """A YAML card without count: is one copy; a wrong count where the row has none of
    its own columns is said at its key."""
    got, _ = with_yaml(colours, "- code: R6\n  number: 6\n- code: B6\n  count: 0\n")
    assert got == [f"{YAML}:4:10: error: card 'B6': count must be a whole number from 1 to "
                   "999, got 0"]


def test_a_deck_of_520_cards_is_the_largest(colours):
    """GOOD is five rows of two copies (10 cards): 510 more make 520, one more is too many,
    said at the deck file's first line."""
    got, report = with_csv(colours, HEADER + GOOD + "Z1,Wild,grey,0,510\n")
    assert got == [] and made(report).size() == 520
    got, report = with_csv(colours, HEADER + GOOD + "Z1,Wild,grey,0,511\n")
    assert got == [f"{CSV}:1:1: error: deck 'colours' has 521 cards; at most 520 cards per "
                   "deck, copies counted"]
    assert made(report) is None


def test_a_deck_without_cards_is_said_at_its_first_line(colours):
    got, report = with_csv(colours, HEADER)
    assert got == [f"{CSV}:1:1: error: deck 'colours' has no cards"]
    assert made(report) is None


# --------------------------------------------------------------------------- names
def test_a_cards_name_is_its_text_or_its_code_when_left_out(colours):
    got, report = with_yaml(colours, "- {code: R6, name: Red six, number: 6}\n"
                                     "- {code: B6, number: 6}\n- {code: B2, name: 2}\n")
    assert got == []
    deck = made(report)
    assert [deck.card(c).name() for c in ("R6", "B6", "B2")] == ["Red six", "B6", "2"]


@pytest.mark.parametrize("name, said", [("[Red, six]", "must be text, got [Red, six]"),
                                        ("true", "must be text, got true"),
                                        ("' '", "has no visible character (only spaces or "
                                                "invisible characters)")])
def test_a_cards_name_must_be_text_that_can_be_seen(colours, name, said):
    got, report = with_yaml(colours, f"- {{code: R6, number: 6}}\n- {{code: B6, name: {name}}}\n")
    assert got == [f"{YAML}:2:20: error: card 'B6': name {said}"]
    assert made(report) is None


def test_a_wrong_name_does_not_end_the_reading(colours):
    got, _ = with_yaml(colours, "- {code: R6, name: [a]}\n- {code: B6, name: ' '}\n"
                                "- {code: B2, count: 0}\n")
    assert got == [f"{YAML}:1:20: error: card 'R6': name must be text, got [a]",
                   f"{YAML}:2:20: error: card 'B6': name has no visible character (only spaces "
                   "or invisible characters)",
                   f"{YAML}:3:21: error: card 'B2': count must be a whole number from 1 to 999, "
                   "got 0"]


def test_a_name_with_an_invisible_character_is_said_at_its_cell(colours):
    row = "B6,Blue\u200bsix,blue,6,2"
    got, _ = with_csv(colours, HEADER + "R6,Red 6,red,6,2\n" + row + "\n")
    assert got == [f"{CSV}:3:4: error: card 'B6': name holds an invisible character (U+200B "
                   "ZERO WIDTH SPACE); delete it"]


# --------------------------------------------------------------------------- fields
def test_the_cards_fields_are_their_columns_and_reach_the_engine(colours):
    got, report = with_csv(colours, HEADER + GOOD + "Z1,,grey,,3\n")
    assert got == []
    deck = made(report)
    z1 = deck.card("Z1")
    assert deck.fields == ("colour", "number")
    assert (z1.name(), z1.colour, z1.number, deck.supply()[z1]) == ("Z1", "grey", None, 3)
    assert made(report).card("R6").fields() == {"colour": "red", "number": 6}


@pytest.mark.parametrize("header, said", [
    ("Shade", "a field is named in lower-case letters, digits and _, starting with a letter"),
    ("suit", "a card's own attribute"),
    ("title", "a card's own attribute"),
    ("2nd", "a field is named in lower-case letters, digits and _, starting with a letter")])
def test_a_column_that_cannot_name_a_field_is_said_once_at_the_first_row(colours, header, said):
    got, report = with_csv(colours, HEADER.replace("colour", header) + GOOD)
    assert got == [f"{CSV}:2:{col(GOOD, ',red') + 1}: error: '{header}' cannot name a field "
                   f"of the cards ({said})"]
    assert made(report) is None


def test_a_capitalised_name_key_says_the_nearest_and_is_said_once(colours):
    """Said at the first card's value of the key (a YAML card's keys are placed at their
    values), once for the deck."""
    got, _ = with_yaml(colours, "- {code: R6, Name: Red six}\n- {code: B6, Name: Blue six}\n")
    assert got == [f"{YAML}:1:20: error: 'Name' cannot name a field of the cards (a field is "
                   "named in lower-case letters, digits and _, starting with a letter); did you "
                   "mean 'name'?"]


def test_a_card_may_have_30_fields_and_no_more(colours):
    fields = ",".join(f"f{i}" for i in range(28))          # with colour and number: 30
    got, report = with_csv(colours, HEADER.rstrip("\n") + "," + fields + "\n" + GOOD)
    assert got == [] and len(made(report).fields) == 30
    fields = ",".join(f"f{i}" for i in range(29))          # 31
    got, report = with_csv(colours, HEADER.rstrip("\n") + "," + fields + "\n" + GOOD)
    assert got == [f"{CSV}:2:1: error: deck 'colours' has 31 fields; at most 30 fields per "
                   "card"]
    assert made(report) is None


def test_a_yaml_card_with_a_field_too_many_is_said_at_its_row(colours):
    """The fields are counted over the whole deck: the row that brings the 31st is said."""
    first = "{" + ", ".join(f"f{i}: 1" for i in range(30)) + "}"
    got, _ = with_yaml(colours, "- {code: R6, number: 6}\n- {code: B6, extra: 1}\n")
    assert got == []
    got, _ = with_yaml(colours, f"- {{code: R6, {first[1:]}\n- {{code: B6, extra: 1}}\n")
    assert got == [f"{YAML}:2:3: error: deck 'colours' has 31 fields; at most 30 fields per "
                   "card"]


def test_a_field_of_600_characters_is_the_longest(colours):
    got, report = with_csv(colours, HEADER + GOOD + "Z1,Wild," + "g" * 600 + ",0,1\n")
    assert got == [] and made(report).card("Z1").colour == "g" * 600
    row = "Z1,Wild," + "g" * 601 + ",0,1"
    got, report = with_csv(colours, HEADER + GOOD + row + "\n")
    assert got == [f"{CSV}:7:9: error: card 'Z1': field 'colour' has 601 characters; at most "
                   "600"]
    assert made(report) is None


def test_a_card_name_is_bounded_as_a_field_is(colours):
    got, report = with_csv(colours, HEADER + GOOD + "Z1," + "W" * 600 + ",green,0,1\n")
    assert got == [] and made(report).card("Z1").name() == "W" * 600
    got, report = with_csv(colours, HEADER + GOOD + "Z1," + "W" * 601 + ",green,0,1\n")
    assert got == [f"{CSV}:7:4: error: card 'Z1': name has 601 characters; at most 600"]
    assert made(report) is None


def test_a_field_that_is_a_list_or_a_mapping_is_refused_with_its_card(colours):
    got, report = with_yaml(colours, "- {code: R6, number: 6}\n- {code: B6, number: {n: 6}}\n"
                                     "- {code: B2, colour: [blue]}\n")
    assert got == [f"{YAML}:2:22: error: card 'B6': field 'number' must be text or a number, "
                   "got a mapping",
                   f"{YAML}:3:22: error: card 'B2': field 'colour' must be text or a number, "
                   "got [blue]"]
    assert made(report) is None


# --------------------------------------------------------------------------- the deck
def test_a_plain_svg_face_is_a_face(colours):
    """A deck's face may be an SVG picture (.svg), not only a template."""
    game = colours / "high-colours" / "game.yaml"
    deck = "  colours: {cards: cards.csv, size: mini}"
    game.write_text(game.read_text().replace(deck, deck[:-1] + ", face: face.svg}"))
    (colours / "high-colours" / "face.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n')
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics.errors] == []
    assert report.games[0].game.decks[0].face.name == "face.svg"


def game_errors(report) -> list[str]:
    return [ln for ln in (d.format().splitlines()[0] for d in report.diagnostics.errors)
            if ln.startswith("content/high-colours/game.yaml:")]


def with_deck_line(content: Path, line: str):
    """game.yaml's deck (line 32, ``  colours: {cards: cards.csv, size: mini}``) written
    as ``line``; the report."""
    game = content / "high-colours" / "game.yaml"
    lines = game.read_text().split("\n")
    assert lines[31].startswith("  colours: {")
    lines[31] = line
    game.write_text("\n".join(lines))
    return run_check(Path("content"))


DECK = "  colours: {cards: cards.csv, size: mini}"


def test_a_deck_is_its_file_size_and_where_it_is_declared(colours):
    report = with_deck_line(colours, DECK)
    assert [d.format() for d in report.diagnostics.errors] == []
    (spec,) = report.games[0].game.decks
    assert (spec.name, spec.size_mm, spec.face, spec.back, spec.back_where) == \
        ("colours", (44.5, 63.5), None, None, None)
    assert (spec.where.path, spec.where.line) == ("content/high-colours/game.yaml", 32)
    assert spec.file == CSV and (spec.rows["R1"].line, spec.rows["Y6"].line) == (2, 25)
    assert spec.deck.name == "colours" and len(spec.deck.codes) == 24


def test_a_deck_without_its_cards_file_is_said_at_its_name(colours):
    report = with_deck_line(colours, "  colours: {size: mini}")
    assert game_errors(report) == [
        "content/high-colours/game.yaml:32:12: error: deck 'colours': 'cards' is missing (the "
        "deck file: one row per card, .csv or .yaml)"]
    assert report.games[0].game.decks == []


def test_a_deck_of_a_wrong_size_is_not_made_and_its_rows_are_still_read(colours):
    """A size that is not one is said, and so is a wrong row of its file (one run says
    both); the deck is not made."""
    (colours / "high-colours" / "cards.csv").write_text(HEADER + GOOD + "-Z,Wild,grey,0,1\n")
    report = with_deck_line(colours, "  colours: {cards: cards.csv, size: pokr}")
    assert game_errors(report) == [
        "content/high-colours/game.yaml:32:37: error: deck 'colours': unknown card size 'pokr' "
        "(sizes: poker, bridge, mini, tarot, square, or [width, height] in mm); did you mean "
        "'poker'?"]
    assert [ln for ln in (d.format().splitlines()[0] for d in report.diagnostics.errors)
            if ln.startswith(CSV)] == [
        f"{CSV}:7:1: error: card code '-Z' must be letters, digits, '-', '_' or '+' (at most "
        "16, starting with a letter or digit)"]
    assert report.games[0].game.decks == []


def test_a_deck_of_a_wrong_size_with_good_rows_is_not_made(colours):
    report = with_deck_line(colours, "  colours: {cards: cards.csv, size: [10, 63]}")
    assert game_errors(report) == [
        "content/high-colours/game.yaml:32:37: error: deck 'colours': a card of 10 x 63 mm; "
        "each side must be 20 to 210 mm"]
    assert report.games[0].game.decks == []


@pytest.mark.parametrize("name", ["cards.CSV", "cards.Csv"])
def test_a_deck_file_in_capitals_is_read_as_what_it_is(colours, name):
    (colours / "high-colours" / "cards.csv").rename(colours / "high-colours" / name)
    report = with_deck_line(colours, DECK.replace("cards.csv", name))
    assert [d.format() for d in report.diagnostics.errors] == []
    assert report.games[0].game.decks[0].deck.card("R6").number == 6


def test_a_yml_deck_file_is_a_yaml_deck_file(colours):
    (colours / "high-colours" / "cards.yml").write_text(
        "cards:\n  - {code: R6, number: 6, count: 2}\n  - {code: B6, number: 6, count: 2}\n"
        "  - {code: B2, number: 2, count: 2}\n  - {code: Y6, number: 6, count: 2}\n"
        "  - {code: G5, number: 5, count: 2}\n")  # two of each: five cards a hand
    report = with_deck_line(colours, DECK.replace("cards.csv", "cards.yml"))
    assert [d.format() for d in report.diagnostics.errors] == []
    (spec,) = report.games[0].game.decks
    assert spec.deck.codes == ["R6", "B6", "B2", "Y6", "G5"]
    assert spec.rows["B6"].line == 3 and spec.file == "content/high-colours/cards.yml"


def test_a_face_of_another_type_is_refused_and_a_near_face_suggested(colours):
    (colours / "high-colours" / "face.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n')
    (colours / "high-colours" / "face.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    report = with_deck_line(colours, DECK[:-1] + ", face: face.png}")
    assert game_errors(report) == [
        "content/high-colours/game.yaml:32:49: error: deck 'colours': face: 'face.png' must be "
        "a .j2 or .html or .svg file"]
    report = with_deck_line(colours, DECK[:-1] + ", face: fase.svg}")
    assert game_errors(report) == [
        "content/high-colours/game.yaml:32:49: error: deck 'colours': face: no file 'fase.svg' "
        "in content/high-colours/; did you mean 'face.svg'?"]


def test_text_in_a_field_every_other_card_holds_a_number_is_warned_of_at_its_cell(colours):
    """A typing slip ("lots" for a number) would fail the engine on that card only, far from
    the deck file: the reader warns at the cell, and still makes the deck."""
    row = "B9,Blue 9,blue,lots,2\n"
    errors, report = with_csv(colours, HEADER + GOOD + row)
    warnings = [d.format().splitlines()[0] for d in report.diagnostics if d.severity == "warning"]
    assert warnings == [f"{CSV}:7:{col(row, 'lots')}: warning: card 'B9': number is 'lots', "
                        f"where the other cards' number is a whole number (such as 6); an "
                        f"engine that compares or adds it would fail on this card"]
    # a field that is text on many cards is a field of text: nothing is said
    mixed = "B9,Blue 9,blue,many,2\nB8,Blue 8,blue,few,2\n"
    _, report = with_csv(colours, HEADER + GOOD + mixed)
    assert not [d for d in report.diagnostics if d.severity == "warning"]


def test_a_fault_of_the_engine_names_the_card_warned_of(colours):
    """The slip's warning stands at its cell, but the error a designer reads first is the
    engine's, at the line that compared the text with a number: that error names the cell
    too, as its likely cause (a designer going to engine.py first would look for a bug that
    is not there)."""
    row = "B9,Blue 9,blue,lots,2\n"
    (colours / "high-colours" / "cards.csv").write_text(HEADER + GOOD + row)
    report = run_check(Path("content"))
    faults = [d.format() for d in report.diagnostics.errors if "TypeError" in d.format()]
    assert faults, [d.format() for d in report.diagnostics.errors]
    note = (f"card 'B9' has number 'lots' at {CSV}:7:{col(row, 'lots')}, where the other "
            f"cards' is a whole number: the fault may come from that card")
    assert all(note in f for f in faults)


def test_a_fault_while_replaying_an_example_names_the_card_warned_of(colours):
    """The same when the engine fails replaying an example that plays the card."""
    row = "B9,Blue 9,blue,lots,2\n"
    (colours / "high-colours" / "cards.csv").write_text(HEADER + GOOD + row)
    example = colours / "high-colours" / "examples" / "01-a-short-game.yaml"
    example.write_text(example.read_text().replace("R6", "B9"))
    with pytest.raises(Exception) as caught:
        run_check(Path("content"))
    from builder import faults

    fault = faults.from_exception(caught.value)
    assert fault is not None and fault.path == "content/high-colours/engine.py"
    assert "TypeError" in fault.message
    assert (f"card 'B9' has number 'lots' at {CSV}:7:{col(row, 'lots')}, where the other "
            f"cards' is a whole number: the fault may come from that card") in fault.notes


def test_the_kits_kept_verdict_counts_the_cards(colours):
    """The conformance kit's verdict is kept (in the cache) by what it depends on; the
    cards of the game's own deck are part of it: a verdict that held with 6 must not hold
    for a deck where a card's number is "lots" (it did, and the engine's fault went
    unsaid while a verdict was kept)."""
    from builder.testing import DEFAULT_GAMES, verdict_key

    report = run_check(Path("content"))
    gamedef = report.games[0].game.gamedef
    held = verdict_key(gamedef, DEFAULT_GAMES, {})
    assert verdict_key(gamedef, DEFAULT_GAMES, {}) == held
    (colours / "high-colours" / "cards.csv").write_text(HEADER + GOOD + "B9,Blue 9,blue,lots,2\n")
    report = run_check(Path("content"))
    assert verdict_key(report.games[0].game.gamedef, DEFAULT_GAMES, {}) != held
