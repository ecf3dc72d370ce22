"""Each engine's setup mistakes (docs/games.md, "Setup" of each game) are errors at the value
of the setup entry they are about, with the engine's words. One edit to a shipped example's
setup per case; the expected place is where the edit put the bad value (found in the edited
text, line and column counted from 1), and the words are the rule the setup broke. Then
the mistakes every setup can make whatever its engine (a card twice in one player's cards,
a pile that is not a list, an unknown option or a value it does not take), and where the
check points when the engine names a place deeper than the example writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import copy_shipped_game, edit_once

from builder.check import Replayer, run_check
from builder.diagnostics import Diagnostics
from builder.engine.core import Card

CONTENT = Path(__file__).resolve().parents[2] / "content"

CASES = [
    # id, game, example, old, new, the bad value, a word on its line, words of the message
    ("war-unknown-pile", "war", "01-a-plain-trick.yaml",
     "    p2.deck: [7H, 9C]\n", "    p2.deck: [7H, 9C]\n    p3.deck: [2C]\n", "[2C]", "p3.deck",
     "unknown pile 'p3.deck' (War has: p1.deck, p2.deck)"),
    ("war-unknown-key", "war", "01-a-plain-trick.yaml",
     "setup:\n  piles:", "setup:\n  stones: 3\n  piles:", "3", "stones:",
     "War's setup has only 'piles', not 'stones'"),
    ("battle-hand-too-big", "battle", "01-plain-turns.yaml",
     "p1.hand: [KH, 4D]", "p1.hand: [KH, 4D, 5D]", "[KH, 4D, 5D]", None,
     "p1's hand holds at most 2 cards, not 3"),
    ("battle-hand-not-refilled", "battle", "01-plain-turns.yaml",
     "p1.hand: [KH, 4D]", "p1.hand: [KH]", "[KH]", None,
     "p1's hand has 1 card(s) while their deck is not empty: a turn starts with the hand "
     "refilled to 2"),
    ("battle-unknown-pile", "battle", "01-plain-turns.yaml",
     "    p2.deck: [10C, 3S]\n", "    p2.deck: [10C, 3S]\n    p3.deck: [5S]\n", "[5S]",
     "p3.deck", "unknown pile 'p3.deck' (Battle with 2 players has: "),
    ("battle-a-card-of-the-other-player", "battle", "01-plain-turns.yaml",
     "p1.deck: [9H, 2D, 7H]", "p1.deck: [9H, 2D, 7H, 5S]", "5S", "p1.deck",
     "5S is not p1's card: p1 owns the H/D cards"),
    ("battle-lines-unknown-pile", "battle-lines", "01-a-turn-of-battle.yaml",
     "    p2.deck: [AC, 2D, 8S, 9H, 3S]\n", "    p2.deck: [AC, 2D, 8S, 9H, 3S]\n    p3.hand: [4S]\n",
     "[4S]", "p3.hand", "unknown pile 'p3.hand' (Battle Lines has: p1.captured, p1.deck, p1.hand, "
     "p2.captured, p2.deck, p2.hand)"),
    ("battle-lines-hand-too-big", "battle-lines", "01-a-turn-of-battle.yaml",
     "p1.hand: [KS, 9C, 4D, 2H]", "p1.hand: [KS, 9C, 4D, 2H, 6D]", "6D", "p1.hand",
     "p1.hand holds 5 cards; a hand holds at most 4"),
    ("deck-management-round", "deck-management", "01-plain-tricks.yaml",
     "setup:\n", "setup:\n  round: 0\n", "0", "round:",
     "round must be a whole number of at least 1, got 0"),
    ("deck-management-out", "deck-management", "01-plain-tricks.yaml",
     "setup:\n", "setup:\n  out: [p9]\n", "[p9]", "out:", "out must list players among p1, p2"),
    ("deck-management-start", "deck-management", "01-plain-tricks.yaml",
     "setup:\n", "setup:\n  start: middle\n", "middle", "start:",
     "start must be 'trick' or 'round', got 'middle'"),
    ("deck-management-uneven-stacks", "deck-management", "01-plain-tricks.yaml",
     "p2.stack: [7H, 9C, 2S]", "p2.stack: [7H, 9C]", "[7H, 9C]", "p2.stack",
     "with two players both face-down stacks always hold the same number of cards"),
    ("deck-management-round-start-empty-stack", "deck-management", "01-plain-tricks.yaml",
     "    p2.stack: [7H, 9C, 2S]\n    p1.won: [5C]\n", "    p2.stack: []\n  start: round\n",
     "[]", "p2.stack", "p2 has no cards, so would be out"),
    ("winning-the-battle-not-a-card", "winning-the-battle", "01-plain-battles.yaml",
     "p1.deck: [9H, 4C, QS, 7D, 2C, JH, 5S, 10D]", "p1.deck: [9H, 4C, QS, 7D, 2C, JH, 5S, 1D]",
     "1D", "p1.deck",
     "unknown card '1D' (a card is a rank A 2-10 J Q K then a suit C D H S, e.g. QD or 10H)"),
    ("ultimate-shuffle", "ultimate", "01-the-seed-example.yaml",
     "setup:\n", "setup:\n  shuffle: maybe\n", "maybe", "shuffle:",
     "shuffle must be true or false"),
    ("ultimate-club-among-the-diamonds", "ultimate", "01-the-seed-example.yaml",
     "QC, KC]\n", "KC]\n", "QC", "diamonds", "QC cannot lie here: "),
    ("ultimate-a-heart", "ultimate", "01-the-seed-example.yaml",
     "QC, KC]\n    p2.hand", "QC, KH]\n    p2.hand", "KH", "p1.hand",
     "KH: the hearts are not used in this game"),
    ("winning-the-battle-unknown-key", "winning-the-battle", "01-plain-battles.yaml",
     "  stones: {middle: 3, p1: 0, p2: 0}\n", "  stones: {middle: 3, p1: 0, p2: 0}\n  turn: 2\n",
     "2", "turn:", "this game's setup has 'piles' and 'stones', not 'turn'"),
]


@pytest.mark.parametrize("game,example,old,new,bad,line_has,words",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_setup_mistake_is_located_at_its_value(tmp_path, game, example, old, new, bad,
                                                 line_has, words):
    root = tmp_path / "content"
    shutil.copytree(CONTENT / game, root / game)
    (root / "index.yaml").write_text(f"games: [{game}]\n")
    path = root / game / "examples" / example
    text = path.read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    if game == "ultimate" and bad == "QC":    # the club moves to the prize pile
        text = text.replace("diamonds: [QD,", "diamonds: [QC,")
    path.write_text(text)
    want = next((row, ln.index(bad, ln.index(line_has or bad)) + 1)
                for row, ln in enumerate(text.splitlines(), 1)
                if (line_has or bad) in ln and bad in ln[ln.index(line_has or bad):])
    errors = run_check(root).diagnostics.errors
    assert len(errors) == 1, [e.format() for e in errors]
    (e,) = errors
    assert Path(e.path) == path
    assert (e.line, e.col) == want, e.format()
    assert words in e.message, e.message


def test_every_pile_a_setup_writes_is_where_the_game_starts():
    """For every shipped example, the piles its setup writes are the state's piles, card
    for card, top first, as the replay starts from them (and the setup's other keys, such
    as Winning the Battle's stones, are in the view as written)."""
    from builder.engine.core import parse_cards

    report = run_check(CONTENT)
    checked = 0
    for gr in report.games:
        gamedef = gr.game.gamedef
        for rep in gr.replays:
            piles = rep.example.setup.get("piles") or {}
            view = rep.initial_view
            for name, cards in piles.items():
                if gamedef.cards == "own":   # a game's own deck (Happy Families)
                    written = [str(gamedef.parse_card(c)) for c in cards or []]
                else:
                    written = [str(c) for c in parse_cards(cards or [])]
                if gr.game.engine == "ultimate" and name == "diamonds" and "pot" not in piles:
                    if rep.example.setup.get("shuffle"):    # shuffled by the first step
                        continue
                    # Ultimate turns up the first diamond as it loads the setup (docs/games.md)
                    assert [str(c) for c in view["pot"]] == written[:1], rep.example.id
                    written = written[1:]
                if name in view and isinstance(view[name], (list, tuple)):
                    assert [str(c) for c in view[name]] == written, (rep.example.id, name)
                    checked += 1
            for key, value in (rep.example.setup.get("stones") or {}).items():
                assert view[f"{key}.stones"] == value, (rep.example.id, key)
    assert checked > 100


# --------------------------------------------------------------------------- cards, piles and options
# Where a setup's own mistakes point, whatever the engine: a card twice in one player's cards,
# a pile that is not a list, an option the game does not have or a value it does not take.
def test_each_player_has_their_own_cards_where_the_game_says_so(tmp_path):
    """Winning the Battle gives each player a deck of their own (its engine's supply
    groups): the same card in both decks is right, twice in one player's cards is not."""
    root = copy_shipped_game(tmp_path, "winning-the-battle")
    path = root / "winning-the-battle" / "examples" / "01-plain-battles.yaml"
    edit_once(path, "p2.deck: [6S, 8D,", "p2.deck: [9H, 8D,")
    # (the battles now go otherwise, so the step expectations fail: not the setup)
    assert not any("in the setup more than" in d.message for d in run_check(root).diagnostics)
    edit_once(path, "p1.deck: [9H, 4C,", "p1.deck: [9H, 9H,")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (10, 19)           # the second 9H
    assert "card 9H is in the setup more than once (the game has one of each card) in p1's " \
           "cards: here in p1.deck, and first in p1.deck" in e.message

def test_each_player_may_have_their_own_count_of_a_card(tmp_path):
    """A game's ``card_supply`` is asked per supply group (docs/writing-an-engine.md): here
    p1's cards may hold two nines of hearts and p2's only one."""
    import dataclasses

    from builder.check import card_supply

    wtb = run_check(copy_shipped_game(tmp_path, "winning-the-battle")).games[0].game
    ex = next(x for x in wtb.examples if x.id.endswith("plain-battles"))
    gd = dataclasses.replace(wtb.gamedef, card_supply=lambda o, group, card: 2 if group == "p1"
                             else 1)
    supply = card_supply(gd, {})
    king = Card("K", "S")
    assert (supply("p1", king), supply("p2", king)) == (2, 1)
    ex.setup["piles"]["p1.deck"][1] = "9H"          # a second 9H among p1's cards
    rp = Replayer(wtb, gd, Diagnostics())
    assert rp.check_setup_cards(ex, supply) is True
    ex.setup["piles"]["p2.deck"][0] = "8D"          # p2 already has an 8D
    assert rp.check_setup_cards(ex, supply) is False
    (e,) = rp.diags.errors
    assert "card 8D is in the setup more than once" in e.message

def test_every_pile_of_a_setup_is_read(tmp_path):
    """A pile that is not a list is an error, and the piles after it are still read: a card
    written twice there is an error too."""
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "    p1.deck: [KS, 4D]\n    p2.deck: [7H, 9C]\n",
         "    p1.deck: KS\n    p2.deck: [7H, 7H]\n")
    errors = run_check(root).diagnostics.errors
    assert [(e.line, e.col) for e in errors] == [(8, 14), (9, 19)], [e.format() for e in errors]
    assert errors[0].message == "pile 'p1.deck' must be a list of cards, top first"
    assert "card 7H is in the setup more than once" in errors[1].message

def test_an_option_error_points_at_the_option_or_else_the_options(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "setup:\n", "options:\n  aces: high\n  wins: higher\nsetup:\n")
    report = run_check(root)
    war = report.games[0].game
    ex = next(x for x in war.examples if x.id == "war-plain-trick")
    rp = Replayer(war, war.gamedef, Diagnostics())
    at = rp.setup_error_where(ex, ("options", "wins"))
    assert (Path(at.path).name, at.line, at.col) == ("01-a-plain-trick.yaml", 8, 3)
    at = rp.setup_error_where(ex, ("options", "war_cards"))  # not written: all the options
    assert (at.line, at.col) == (7, 3)
    at = rp.setup_error_where(ex, ("options",))
    assert (at.line, at.col) == (7, 3)

def test_an_option_with_a_wrong_value_says_so_without_a_hint(tmp_path):
    """A known option with a value the game does not have: the error is the engine's
    words, nothing after them; the example is an error (not replayed at all)."""
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "setup:\n", "options:\n  aces: sideways\nsetup:\n")
    report = run_check(root)
    (e,) = report.diagnostics.errors
    assert e.message.startswith("example 'war-plain-trick': ")
    assert e.message.endswith("'sideways'") or e.message.endswith(")"), e.message
    assert "None" not in e.message, e.message
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.status == "error" and rep.steps == []

def test_a_setup_error_points_at_the_deepest_place_written(tmp_path):
    """A setup error names a path such as ("piles", "p1.deck", 3); it points at the deepest
    part of it the example writes: the card, else its pile, else the setup."""
    root = copy_shipped_game(tmp_path, "war")
    report = run_check(root)
    war = report.games[0].game
    ex = next(x for x in war.examples if x.id == "war-plain-trick")
    rp = Replayer(war, war.gamedef, Diagnostics())

    def at(where):
        loc = rp.setup_error_where(ex, where)
        return loc.line, loc.col

    assert at(("piles", "p1.deck", 1)) == (8, 19)      # 4D in "    p1.deck: [KS, 4D]"
    assert at(("piles", "p1.deck", 9)) == (8, 14)      # no tenth card: the pile's value
    assert at(("piles", "p1.deck", "top")) == (8, 14)
    assert at(("piles", "p3.deck")) == (8, 5)          # no such pile: the piles' value
    assert at(()) == (7, 3)                            # nothing more: the setup's value
