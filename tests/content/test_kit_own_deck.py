"""A kit's ``deck`` component in a game that plays its own cards (``decks:`` in game.yaml):
``deck:`` chooses one of the game's decks by name (left out, all of them), ``cards:`` is
``all`` or card codes of that deck, and ``back:`` belongs to the French 52 alone
(builder/content/kit.py, ``KitReader.own_deck`` and ``KitReader.cards``).

The game is High Colours (tests/fixtures/high-colours: 24 cards R1..Y6 in ``colours``),
here given a second deck, ``extras`` (Z1, Z2), so that a card can be in the game and not in
the deck a component names. Every message is located at the key it is about."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES

from builder.check import run_check

COLOURS = [f"{c}{n}" for c in "RBGY" for n in range(1, 7)]     # cards.csv, row by row
DECK_LINE = "  colours: {cards: cards.csv, size: mini}\n"
EXTRAS = "  extras: {cards: extras.csv, size: mini}\n"


@pytest.fixture()
def colours(tmp_path: Path, monkeypatch) -> Path:
    """High Colours with a second deck of two cards, in a content folder of its own."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    folder = content / "high-colours"
    (folder / "extras.csv").write_text("code,name,colour,number\nZ1,Wild one,grey,0\n"
                                       "Z2,Wild two,grey,0\n")
    game = folder / "game.yaml"
    text = game.read_text()
    assert text.count(DECK_LINE) == 1
    game.write_text(text.replace(DECK_LINE, DECK_LINE + EXTRAS))
    monkeypatch.chdir(tmp_path)
    return content


def with_kit(content: Path, kit: str):
    """game.yaml with ``kit`` added at its end: the check's errors (first lines, paths from
    the content folder), the kit read, and the line "kit:" is on."""
    game = content / "high-colours" / "game.yaml"
    text = game.read_text()
    game.write_text(text + kit)
    report = run_check(Path("content"))
    errors = [d.format().splitlines()[0] for d in report.diagnostics.errors]
    return errors, report.content.games[0].kit, text.count("\n") + 1


def test_the_fixture_is_a_game_of_two_decks(colours):
    errors, kit, _ = with_kit(colours, "")
    assert errors == []
    report = run_check(Path("content"))
    assert [d.name for d in report.games[0].game.decks] == ["colours", "extras"]
    assert [c.kind for c in kit] == ["player-aid"]          # no kit: a player aid


def test_a_deck_of_all_cards_without_a_deck_is_every_deck_in_order(colours):
    errors, kit, _ = with_kit(colours, "kit:\n  - kind: deck\n")
    assert errors == []
    assert kit[0].kind == "deck" and kit[0].params["cards"] == COLOURS + ["Z1", "Z2"]


def test_a_deck_of_all_cards_of_one_named_deck_is_that_decks(colours):
    errors, kit, _ = with_kit(colours, "kit:\n  - kind: deck\n    deck: extras\n    cards: all\n"
                                       "  - kind: deck\n    deck: colours\n")
    assert errors == []
    assert [c.params["cards"] for c in kit] == [["Z1", "Z2"], COLOURS]
    assert [c.params["deck"] for c in kit] == ["extras", "colours"]


def test_cards_of_a_named_deck_are_kept_once_each_in_the_order_written(colours):
    """A code names its card in any case; a card written twice is one card of the list."""
    errors, kit, _ = with_kit(colours, "kit:\n  - kind: deck\n    deck: colours\n"
                                       "    cards: [y6, R1, Y6, b2]\n")
    assert errors == []
    assert kit[0].params["cards"] == ["Y6", "R1", "B2"]


def test_cards_of_every_deck_may_be_listed_when_no_deck_is_named(colours):
    errors, kit, _ = with_kit(colours, "kit:\n  - kind: deck\n    cards: [Z2, R6, z2]\n")
    assert errors == []
    assert kit[0].params["cards"] == ["Z2", "R6"]


def test_a_deck_the_game_does_not_have_is_refused_with_the_nearest(colours):
    errors, kit, first = with_kit(colours, "kit:\n  - kind: deck\n    deck: extra\n")
    assert errors == [f"content/high-colours/game.yaml:{first + 2}:11: error: deck.deck: the "
                      "game has no deck 'extra' (its decks: colours, extras); did you mean "
                      "'extras'?"]
    assert kit == []


def test_a_card_of_another_deck_is_refused_at_the_cards(colours):
    """Z1 is a card of the game (of extras), not of the deck the component names."""
    errors, kit, first = with_kit(colours, "kit:\n  - kind: deck\n    deck: colours\n"
                                           "    cards: [R6, Z1]\n")
    assert errors == [f"content/high-colours/game.yaml:{first + 3}:12: error: deck.cards: "
                      "card 'Z1' is not in the colours deck"]
    assert kit == []


def test_a_card_of_no_deck_of_the_game_says_so_at_the_cards(colours):
    """QS is a card of the French 52: a game of its own cards has none. The error is the
    first deck's (the nearest card of colours, R6... is too far from QS to suggest)."""
    errors, kit, first = with_kit(colours, "kit:\n  - kind: deck\n    cards: [R6, QS]\n")
    assert errors == [f"content/high-colours/game.yaml:{first + 2}:12: error: deck.cards: "
                      "unknown card 'QS' (not in the colours deck)"]
    assert kit == []


def test_suits_are_no_cards_of_a_games_own_deck(colours):
    """[C, S] picks suits of the French 52; in a game of its own cards they are codes, and
    the game has no such cards."""
    errors, kit, first = with_kit(colours, "kit:\n  - kind: deck\n    cards: [C, S]\n")
    assert errors == [f"content/high-colours/game.yaml:{first + 2}:12: error: deck.cards: "
                      "unknown card 'C' (not in the colours deck)"]


def test_a_deck_component_of_a_games_own_cards_refuses_a_back(colours):
    errors, kit, first = with_kit(colours, "kit:\n  - kind: deck\n    deck: extras\n"
                                           "    back: a\n")
    assert errors == [f"content/high-colours/game.yaml:{first + 3}:11: error: deck.back "
                      "chooses a back of the French 52; a game's own cards print with their "
                      "deck's back (back: under decks: in game.yaml)"]
    assert kit == []
