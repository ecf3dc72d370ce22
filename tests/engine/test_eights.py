"""Crazy Eights (tests/fixtures/eights), a game from outside the War family written only
against the public engine API (issue 24, item 12): two to four players, hidden hands, a
decision of parts (an eight and the suit it names), a turn of parts (draw, then play the
drawn card or pass), a reshuffled stock as chance, and no ``determinize`` of its own.

It must check and build from a content folder outside the repository, hold the conformance
kit, and play as its rules and its heuristic's docstring say: the positions below are
worked out by hand from tests/fixtures/eights/rules.md and the heuristic's docstring."""

from __future__ import annotations

import ast
import dataclasses
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from helpers import house_style_problems

from builder.engine import (
    ACE_HIGH,
    Card,
    CardError,
    DecisionFormatError,
    IllegalDecision,
    SetupError,
    full_deck,
    parse_cards,
    play_game,
)
from builder.engine.registry import load_engine_file
from builder.testing import assert_conforms, conformance

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "eights"
ENGINE = FIXTURE / "engine.py"
GAME = load_engine_file(ENGINE)


def position(players: int = 2, turn: str = "p1", suit: str | None = None, **piles):
    """A state from a setup written as the examples write it: ``p1_hand=[...]`` for the
    pile ``p1.hand``, ``discard=[...]``, ``stock=[...]``."""
    setup = {"piles": {name.replace("_", "."): cards for name, cards in piles.items()},
             "turn": turn}
    if suit is not None:
        setup["suit"] = suit
    return GAME.from_setup(GAME.resolve({"players": players}), setup)


def offered(state, player: str) -> list:
    """The first part of the player's decision: the cards they may play, draw or pass."""
    return state.node().choices[player].part(0, ()).enumerate()


def c(code: str) -> Card:
    return Card.parse(code)


def parts(*written: str) -> tuple:
    """A decision as written (``"8C", "spades"``): its cards as cards, its words as words."""
    out = []
    for x in written:
        try:
            out.append(Card.parse(x))
        except CardError:
            out.append(x)
    return tuple(out)


# --------------------------------------------------------------------------- from outside
def warbook(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def package_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "builder/", "templates/"],
                          cwd=ROOT, capture_output=True, text=True).stdout


@pytest.mark.slow
def test_checks_and_builds_from_a_folder_outside_the_repository(tmp_path: Path):
    """As test_bring_your_own.assert_builds does for High Five (copied, not imported: no
    test file imports another), with few lab games and a cache of the test's own."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "eights")
    (content / "index.yaml").write_text("games: [eights]\n")
    env = dict(os.environ, WARBOOK_LAB_GAMES="20", WARBOOK_CACHE=str(tmp_path / "cache"))
    before = package_status()
    check = warbook("check", "--content", str(content), cwd=tmp_path, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert ("eights: 5/5 examples replay; every rule the engine applies is exercised"
            in check.stdout), check.stdout
    out = tmp_path / "output"
    build = warbook("build", "--content", str(content), "--out", str(out), cwd=tmp_path,
                    env=env)
    assert build.returncode == 0, build.stdout + build.stderr
    for made in ("pdf/eights-rules.pdf", "pdf/eights-components.pdf", "site/eights.html"):
        assert (out / made).is_file() and (out / made).stat().st_size > 1000, made
    assert package_status() == before


# --------------------------------------------------------------------------- the API only
def test_the_engine_imports_only_the_public_api_and_is_short():
    tree = ast.parse(ENGINE.read_text())
    from_builder = set()
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        from_builder |= {n for n in names if n.split(".")[0] == "builder"}
    assert from_builder == {"builder.engine"}
    assert "determinize" not in ENGINE.read_text()
    assert len(ENGINE.read_text().splitlines()) < 300


def test_the_player_counts_come_from_the_engine():
    assert GAME.player_counts() == (2, 3, 4)
    assert GAME.declares_piles() and GAME.determinize is None   # redeal, from seen_by


# --------------------------------------------------------------------------- the kit
@pytest.mark.slow
def test_the_engine_conforms():
    assert_conforms(GAME, games=60)
    # the cap's path too: a turn cap of five ends most games in a draw
    assert_conforms(GAME, games=12, printed={"max_turns": 5})


def test_a_heuristic_that_reads_another_hand_is_caught():
    def peeking(state, player, rng):
        """Picks among its choices by the other hands' ranks: it reads hidden cards."""
        choices = state.node().choices[player].enumerate()
        seen = sum(ACE_HIGH[card.rank] for p in state.players if p != player
                   for card in state.hands[p])
        return choices[seen % len(choices)]

    found = conformance(dataclasses.replace(GAME, heuristic=peeking), games=6)
    assert "peek" in {b.kind for b in found}, [str(b) for b in found]


# --------------------------------------------------------------------------- the heuristic
@pytest.mark.parametrize("hand, discard, expected", [
    # 9H and 9C follow by rank; hearts (3H, 9H) outnumber clubs (9C) in the hand
    pytest.param(["3H", "KS", "9H", "5S", "9C"], ["9D"], ("9H",), id="suit-held-most"),
    # 4D and KD follow the suit, 5C the rank; diamonds are held most, and KD is higher
    pytest.param(["4D", "KD", "5C"], ["5D"], ("KD",), id="then-the-higher-card"),
    # QD and QC: two diamonds, two clubs, both queens: clubs come first
    pytest.param(["4D", "QD", "2C", "QC"], ["QH"], ("QC",), id="then-clubs-first"),
    # nothing but eights fits the 6H: the eight of clubs (first suit), naming spades
    # (2S, JS against 3D; the eights not counted); an eight rather than a draw
    pytest.param(["8S", "2S", "8C", "JS", "3D"], ["6H"], ("8C", "spades"),
                 id="an-eight-only-when-nothing-else"),
    # 7C fits too: an eight is kept while another card is legal
    pytest.param(["8S", "7C", "JS"], ["7H"], ("7C",), id="keeps-its-eight"),
    # nothing fits: draw
    pytest.param(["2S", "QC"], ["9H"], ("draw",), id="draws"),
])
def test_the_heuristic_plays_as_its_docstring_says(hand, discard, expected):
    state = position(p1_hand=hand, p2_hand=["AH"], discard=discard, stock=["KH"])
    decided = GAME.heuristic(state, "p1", random.Random(0))
    assert decided == parts(*expected)


@pytest.mark.parametrize("drawn, expected", [
    pytest.param("7H", ("7H",), id="plays-the-drawn-card"),
    pytest.param("3C", ("pass",), id="passes"),
    # an eight drawn: spades (2S) and clubs (QC) tie, so clubs is named
    pytest.param("8D", ("8D", "clubs"), id="plays-a-drawn-eight"),
])
def test_the_heuristic_after_a_draw(drawn, expected):
    state = position(p1_hand=["2S", "QC"], p2_hand=["AH"], discard=["9H"], stock=[drawn])
    state.apply({"p1": ("draw",)})
    decided = GAME.heuristic(state, "p1", random.Random(0))
    assert decided == parts(*expected)


def test_the_heuristic_follows_the_suit_an_eight_named():
    state = position(turn="p2", suit="hearts", p1_hand=["2C"], p2_hand=["QS", "4H", "8C"],
                     discard=["8S"], stock=["KD"])
    assert GAME.heuristic(state, "p2", random.Random(0)) == (c("4H"),)


# --------------------------------------------------------------------------- the rules
def test_an_eights_suit_binds_the_next_player():
    state = position(p1_hand=["8S", "10D"], p2_hand=["QS", "JD", "4H", "8C"],
                     discard=["9C"], stock=["2H"])
    events = state.apply({"p1": (c("8S"), "hearts")})
    assert [(e.kind, e.rule, e.data) for e in events] == [("play", "eights",
                                                           {"suit": "hearts"})]
    assert state.view()["suit"] == "hearts" and state.view()["turn"] == "p2"
    # the eight's own suit (spades) does not count, nor does the nine's rank or suit
    assert offered(state, "p2") == [c("4H"), c("8C"), "draw"]
    with pytest.raises(IllegalDecision) as refused:
        state.apply({"p2": (c("QS"),)})
    assert refused.value.rule == "match" and refused.value.player == "p2"
    state.apply({"p2": (c("4H"),)})
    assert state.view()["suit"] == "none"   # spent once the eight is covered


def test_a_suit_part_that_is_no_suit_is_refused_by_the_eights_rule():
    state = position(p1_hand=["8S", "10D"], p2_hand=["QS"], discard=["9C"], stock=[])
    choice = state.node().choices["p1"]
    assert choice.parse("8S purple") == (c("8S"), "purple")
    with pytest.raises(IllegalDecision) as refused:
        state.apply({"p1": (c("8S"), "purple")})
    assert refused.value.rule == "eights" and "the suit: purple" in refused.value.message


def test_a_drawn_card_that_does_not_fit_is_kept_and_the_turn_passes():
    state = position(p1_hand=["2S", "QC"], p2_hand=["KD", "4S"], discard=["9H"],
                     stock=["3C", "5D"])
    assert offered(state, "p1") == ["draw"]
    events = state.apply({"p1": ("draw",)})
    assert [(e.kind, e.rule, e.cards) for e in events] == [("draw", "draw", (c("3C"),))]
    assert state.view()["turn"] == "p1"             # still p1's turn: its second part
    assert offered(state, "p1") == ["pass"]          # 3C fits neither hearts nor nines
    assert state.forced_decisions() == {"p1": ("pass",)}
    with pytest.raises(IllegalDecision) as refused:  # no other card of the hand now
        state.apply({"p1": (c("2S"),)})
    assert refused.value.rule == "draw"
    events = state.apply({"p1": ("pass",)})
    assert [(e.kind, e.rule) for e in events] == [("pass", "draw")]
    v = state.view()
    assert v["p1.hand"] == parse_cards(["2S", "QC", "3C"]) and v["stock"] == [c("5D")]
    assert (v["turn"], v["turns"]) == ("p2", 1)


def test_a_decision_with_a_part_too_few_or_too_many_is_said_with_its_form():
    state = position(p1_hand=["8S", "7H"], p2_hand=["QS"], discard=["9H"], stock=["2C"])
    choice = state.node().choices["p1"]
    with pytest.raises(DecisionFormatError, match=r"the suit is missing: .*write it as "
                                                  r"'8S clubs'"):
        choice.parse("8S")
    with pytest.raises(DecisionFormatError, match=r"after 7H the decision is complete .*; "
                                                  r"leave out hearts"):
        choice.parse("7H hearts")
    assert choice.parse("8s Hearts") == (c("8S"), "hearts")
    assert choice.parse(["7H"]) == (c("7H"),)


def test_a_new_stock_keeps_every_card():
    deck = full_deck()
    hands = {"p1_hand": [str(x) for x in deck[:7]], "p2_hand": [str(x) for x in deck[7:14]]}
    discard = [str(x) for x in deck[14:]]          # 38 cards: AD on top, 37 under it
    state = position(**hands, discard=discard, stock=[])
    assert state.all_cards() == Counter(deck)
    events = state.apply({"p1": ("draw",)})
    assert [(e.kind, e.rule) for e in events] == [("empty", "reshuffle")]
    node = state.node()
    assert node.kind == "chance" and node.choice.rule == "reshuffle"
    order = list(reversed(parse_cards(discard[1:])))
    events = state.apply_chance(tuple(order))
    assert [e.kind for e in events] == ["reshuffle", "draw"]
    v = state.view()
    assert v["discard"] == [c(discard[0])]           # the top card stays
    assert v["stock"] == order[1:] and v["p1.hand"][-1] == order[0]
    assert state.all_cards() == Counter(deck) and sum(state.all_cards().values()) == 52


def test_with_nothing_to_draw_a_player_who_cannot_play_passes():
    state = position(p1_hand=["2S"], p2_hand=["KD"], discard=["9H"], stock=[])
    assert offered(state, "p1") == ["pass"]
    state = position(p1_hand=["2S", "4H"], p2_hand=["KD"], discard=["9H"], stock=[])
    assert offered(state, "p1") == [c("4H")]          # must play: no draw to take


def test_a_bad_setup_is_said_at_its_key():
    for setup, where in [({"piles": {"p3.hand": ["2C"]}}, ("piles", "p3.hand")),
                         ({"hands": {}}, ("hands",)),
                         ({"piles": {"p1.hand": ["2C"], "p2.hand": ["3C"], "discard": ["4C"]},
                           "suit": "hearts"}, ("suit",)),
                         ({"piles": {"p1.hand": ["2C"], "p2.hand": ["3C"], "discard": ["4C"]},
                           "turn": "p3"}, ("turn",))]:
        with pytest.raises(SetupError) as said:
            GAME.from_setup(GAME.resolve({}), setup)
        assert said.value.where == where, said.value.message


def test_the_narration_and_the_table_in_words_read_well():
    names = {"p1": "Ada", "p2": "Bo", "p3": "Cy", "p4": "Di"}
    said: list[str] = []

    def listen(state, node, decided, events):
        said.extend(e.narrate(names) for e in events)
        said.extend(text.format(**names)[0].upper() + text.format(**names)[1:] + "."
                    for _, text in GAME.describe(state.view(), state.options))

    for players in (2, 3, 4):
        for seed in range(4):
            play_game(GAME, {"players": players}, seed, on_step=listen)
    assert all(any(word in t for t in said) for word in (" plays ", " draws ", " passes."))
    assert [(t, p) for t in said for p in house_style_problems(t)] == []
