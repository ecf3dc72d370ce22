"""Happy Families (builder/engine/happy_families.py), the first shipped game played with a
deck of its own: eleven families of four, hidden hands, an ask of two parts (a player, then
a card), and a heuristic that remembers what the table heard.

The engine holds the conformance kit (the ``peek`` probe among it: its heuristic reads no
other hand); the positions below are worked out by hand from
content/happy-families/rules.md and the heuristic's docstring; the shipped deck beside the
engine is the content's deck file; and the lab's games end long before the ask cap."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from builder.engine import IllegalDecision, SetupError, play_game, random_bot
from builder.engine import happy_families as hf
from builder.engine.core import redeal
from builder.engine.happy_families import GAME
from builder.lab.bots import seat_view
from builder.testing import assert_conforms

ROOT = Path(__file__).resolve().parents[2]


def card(code: str):
    return hf.deck().parse(code)


def codes(cards) -> list[str]:
    return [str(c) for c in cards]


def position(piles: dict, players: int = 3, turn: str = "p1", **options):
    return GAME.from_setup(GAME.resolve({"players": players, **options}),
                           {"piles": piles, "turn": turn})


def ask(state, asker: str, asked: str, code: str) -> list:
    return state.apply({asker: (asked, card(code))})


def refusal(state, asker: str, asked: str, code: str) -> str:
    with pytest.raises(IllegalDecision) as e:
        ask(state, asker, asked, code)
    return e.value.rule


#: three families among three players (rules.md: a setup holds whole families)
THREE = {"p1.hand": ["CRUMB-MR", "WICK-SON", "KIPPER-MRS"],
         "p2.hand": ["CRUMB-MRS", "WICK-MR", "KIPPER-MR", "KIPPER-GIRL"],
         "p3.hand": ["CRUMB-SON", "CRUMB-GIRL", "WICK-MRS", "WICK-GIRL", "KIPPER-SON"]}


# --------------------------------------------------------------------------- the kit
def test_the_engine_conforms():
    """Every option set (3 to 6 players, a short cap): cards kept, the bound, every bot
    decision legal, events and views declared, seeds repeat, and no peek."""
    assert_conforms(GAME, games=24)


def test_the_shipped_deck_is_the_contents_deck_of_eleven_families():
    shipped = ROOT / "builder" / "engine" / "happy_families.csv"
    content = ROOT / "content" / "happy-families" / "cards.csv"
    assert shipped.read_bytes() == content.read_bytes()
    fams = hf.families(hf.SHIPPED)
    assert len(fams) == 11 and hf.SHIPPED.size() == 44
    for name, members in fams.items():
        assert [c.member for c in members] == ["father", "mother", "son", "daughter"], name
        assert [c.name().split()[0] for c in members] == ["Mr", "Mrs", "Master", "Miss"]
        assert len({c.colour for c in members}) == 1 and all(len(str(c)) <= 16 for c in members)


def test_two_players_are_not_offered():
    assert GAME.player_counts() == (3, 4, 5, 6)
    with pytest.raises(SetupError, match="must be one of 3, 4, 5, 6"):
        GAME.resolve({"players": 2})


# --------------------------------------------------------------------------- the deal
class Arranged(random.Random):
    """A generator whose shuffle lays the deck in a given order (top first)."""

    def __init__(self, order: list[str]):
        super().__init__(0)
        self.order = order

    def shuffle(self, x):
        x[:] = [card(c) for c in self.order]


def test_every_card_is_dealt_one_at_a_time_from_p1():
    state = GAME.new_game(GAME.resolve({"players": 3}), random.Random(5))
    sizes = [len(state.hands[p]) for p in state.players]
    assert sizes == [15, 15, 14]                     # 44 cards: p1 and p2 get the extra ones
    assert sum(state.all_cards().values()) == 44 and state.turn == "p1"
    assert all(state.hands[p] == sorted(state.hands[p]) for p in state.players)


def test_a_family_dealt_whole_is_laid_down_before_the_first_ask():
    order = [c for c in hf.SHIPPED.codes]
    crumb = order[:4]
    rest = order[4:]
    # three players: p1 gets cards 0, 3, 6, 9, ... of the deck as dealt
    dealt = [None] * 44
    p1_slots = list(range(0, 44, 3))
    for slot, code in zip(p1_slots, crumb):
        dealt[slot] = code
    others = iter(rest)
    dealt = [c if c is not None else next(others) for c in dealt]
    state = GAME.new_game(GAME.resolve({"players": 3}), Arranged(dealt))
    assert codes(state.laid["p1"]) == crumb
    assert not any(str(c).startswith("CRUMB") for c in state.hands["p1"])
    assert len(state.hands["p1"]) == 15 - 4 and state.turn == "p1"
    assert state.view()["p1.families"] == ["Crumb"]


# --------------------------------------------------------------------------- asking
def test_a_held_card_is_handed_over_and_the_asker_asks_again():
    state = position(THREE)
    events = ask(state, "p1", "p2", "CRUMB-MRS")
    assert [e.kind for e in events] == ["ask", "hand-over"]
    assert codes(state.hands["p1"]) == ["CRUMB-MR", "CRUMB-MRS", "WICK-SON", "KIPPER-MRS"]
    assert codes(state.hands["p2"]) == ["WICK-MR", "KIPPER-MR", "KIPPER-GIRL"]
    assert state.turn == "p1" and state.asks == 1
    assert codes(state.view()["p1.known"]) == ["CRUMB-MRS"]   # everyone saw it go


def test_a_miss_passes_the_turn_to_the_player_asked():
    state = position(THREE)
    events = ask(state, "p1", "p3", "KIPPER-GIRL")            # Owen holds her, not Ruby
    assert [(e.kind, e.player, e.rule) for e in events] == [
        ("ask", "p1", "ask"), ("not-at-home", "p3", "not-at-home"),
        ("turn", "p3", "not-at-home")]
    assert state.turn == "p3" and len(state.hands["p1"]) == 3 and len(state.hands["p3"]) == 5


def test_a_whole_family_is_laid_down_at_once():
    state = position({"p1.hand": ["CRUMB-MR", "CRUMB-SON", "CRUMB-GIRL", "WICK-MR"],
                      "p2.hand": ["CRUMB-MRS", "WICK-MRS"],
                      "p3.hand": ["WICK-SON", "WICK-GIRL"]})
    events = ask(state, "p1", "p2", "CRUMB-MRS")
    lay = events[-1]
    assert (lay.kind, lay.player, lay.data) == ("lay-down", "p1",
                                                {"family": "Crumb", "families": 1})
    assert codes(lay.cards) == ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL"]
    assert codes(state.hands["p1"]) == ["WICK-MR"] and state.turn == "p1"
    view = state.view()
    assert view["p1.families"] == ["Crumb"] and view["leaders"] == ["p1"]
    assert view["families.left"] == 1 and view["p1.known"] == []


def test_the_asks_the_rules_forbid_are_refused_by_their_rule():
    state = position({"p1.hand": ["WICK-MR"],
                      "p1.laid": ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL"],
                      "p2.hand": ["WICK-MRS", "KIPPER-MR", "KIPPER-MRS"],
                      "p3.hand": [],
                      "p4.hand": ["WICK-SON", "WICK-GIRL", "KIPPER-SON", "KIPPER-GIRL"]},
                     players=4)
    assert refusal(state, "p1", "p2", "KIPPER-MR") == "ask-family"    # holds no Kipper
    assert refusal(state, "p1", "p2", "CRUMB-MRS") == "ask-family"    # laid down
    assert refusal(state, "p1", "p2", "WICK-MR") == "ask-not-own"
    assert refusal(state, "p1", "p1", "WICK-MRS") == "ask-whom"
    assert refusal(state, "p1", "p3", "WICK-MRS") == "no-cards"       # Ruby holds nothing
    assert refusal(state, "p1", "p7", "WICK-MRS") == "ask-whom"
    assert state.asks == 0 and codes(state.hands["p1"]) == ["WICK-MR"]   # nothing happened
    node = state.node().choices["p1"]
    assert node.part(0, ()).values == ["p2", "p4"]
    assert codes(node.part(1, ("p2",)).values) == ["WICK-MRS", "WICK-SON", "WICK-GIRL"]


def test_an_asker_left_without_cards_passes_the_turn_to_the_next_on_the_left_who_has_some():
    state = position({"p1.hand": ["KIPPER-MR", "KIPPER-MRS", "KIPPER-SON"],
                      "p2.hand": [],
                      "p2.laid": ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL"],
                      "p3.hand": ["CHIME-MR", "CHIME-MRS", "KIPPER-GIRL"],
                      "p4.hand": ["CHIME-SON", "CHIME-GIRL"]}, players=4)
    events = ask(state, "p1", "p3", "KIPPER-GIRL")
    assert [e.kind for e in events] == ["ask", "hand-over", "lay-down", "turn"]
    assert (events[-1].player, events[-1].rule) == ("p3", "no-cards")   # Owen skipped
    assert state.turn == "p3" and state.hands["p1"] == [] and state.result is None


# --------------------------------------------------------------------------- the end
def test_the_most_families_wins():
    state = position({"p1.hand": ["FLEECE-MR", "FLEECE-MRS", "FLEECE-SON"],
                      "p1.laid": ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL"],
                      "p2.hand": ["FLEECE-GIRL"],
                      "p3.laid": ["CLAY-MR", "CLAY-MRS", "CLAY-SON", "CLAY-GIRL"]})
    events = ask(state, "p1", "p2", "FLEECE-GIRL")
    end = events[-1]
    assert (end.kind, end.rule, end.player) == ("game-over", "most-families", "p1")
    assert (state.result.winner, state.result.rule) == ("p1", "most-families")
    assert state.view()["result"] == "p1" and state.view()["turn"] == "none"
    assert state.node() is None


def test_a_tie_for_the_most_families_is_a_shared_win_recorded_as_a_draw():
    state = position({"p1.laid": ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL"],
                      "p2.hand": ["FLEECE-GIRL"],
                      "p3.hand": ["FLEECE-MR", "FLEECE-MRS", "FLEECE-SON"]}, turn="p3")
    events = ask(state, "p3", "p2", "FLEECE-GIRL")
    end = events[-1]
    assert (end.kind, end.rule, end.data["leaders"], end.data["families"]) == (
        "game-over", "shared-win", "p1 p3", 1)
    assert state.result.winner is None and state.result.rule == "shared-win"
    assert state.result.reason == "{p1} and {p3} share the win with 1 family each"
    assert state.view()["result"] == "draw" and state.view()["leaders"] == ["p1", "p3"]


def test_the_ask_cap_ends_the_game_in_a_draw():
    state = position(THREE, max_asks=2)
    ask(state, "p1", "p3", "KIPPER-GIRL")                     # a miss: Ruby's turn
    events = ask(state, "p3", "p1", "WICK-MR")                # another: Hazel's turn
    assert (events[-1].kind, events[-1].rule) == ("game-over", "ask-cap")
    assert state.result.winner is None and state.result.rule in GAME.cap_rules
    assert GAME.max_steps(state.options) == 2


def test_a_setup_holds_whole_families_and_no_hand_holds_one():
    with pytest.raises(SetupError, match="the Crumb family is only partly in the setup"):
        position({"p1.hand": ["CRUMB-MR"], "p2.hand": ["CRUMB-MRS"]})
    with pytest.raises(SetupError, match="p1.hand holds the whole Crumb family"):
        position({"p1.hand": ["CRUMB-MR", "CRUMB-MRS", "CRUMB-SON", "CRUMB-GIRL", "WICK-MR"],
                  "p2.hand": ["WICK-MRS", "WICK-SON", "WICK-GIRL"]})
    with pytest.raises(SetupError, match="unknown pile 'p4.hand'"):
        position({"p4.hand": ["CRUMB-MR"]})


# --------------------------------------------------------------------------- the heuristic
def test_the_heuristic_asks_for_a_card_everyone_saw_taken():
    """Docstring: chance 1 for the player everyone saw take the card."""
    state = position({"p1.hand": ["SPROUT-MR", "FLEECE-SON"],
                      "p2.hand": ["SPROUT-MRS", "ANVIL-MR", "ANVIL-GIRL"],
                      "p3.hand": ["SPROUT-SON", "FLEECE-MR", "FLEECE-MRS", "ANVIL-SON"],
                      "p4.hand": ["SPROUT-GIRL", "FLEECE-GIRL", "ANVIL-MRS"]}, players=4)
    ask(state, "p1", "p4", "FLEECE-GIRL")        # everyone sees Hazel take Miss Fleece
    ask(state, "p1", "p3", "SPROUT-GIRL")        # a miss: Ruby's turn
    assert GAME.heuristic(state, "p3", random.Random(1)) == ("p1", card("FLEECE-GIRL"))


def test_the_heuristic_never_asks_a_player_known_not_to_hold_the_card():
    """Ruby asked Hazel for Mr Chime and missed: Ruby lacks him (she asked) and so does
    Hazel (she said "Not at home"), so Hazel, whose turn it is, asks Owen: the only player
    left with a chance of holding him."""
    state = position({"p1.hand": ["CHIME-MRS", "CHIME-SON"],
                      "p2.hand": ["CHIME-MR", "KIPPER-MR", "KIPPER-MRS"],
                      "p3.hand": ["CHIME-GIRL", "KIPPER-SON", "KIPPER-GIRL"]}, turn="p3")
    ask(state, "p3", "p1", "CHIME-MR")
    assert state.turn == "p1"
    for seed in range(20):
        assert GAME.heuristic(state, "p1", random.Random(seed)) == ("p2", card("CHIME-MR"))


def test_the_heuristic_weighs_a_player_who_asked_for_the_family_three_times():
    """Owen asked Ruby for Mr Wick (Hazel holds him) and missed: everyone knows Owen holds a
    Wick nobody saw him take. Hazel holds Mr Wick; for each other Wick, Owen's weight is his
    3 cards x 3 = 9, Ruby's 3, Felix's 4: a chance of 9/16, better than any Anvil's (at
    most Felix's 4/10). The three Wicks tie (one Wick held, Owen's 3 cards each time), so
    the generator picks among them."""
    state = position({"p1.hand": ["WICK-MR", "ANVIL-MR"],
                      "p2.hand": ["WICK-SON", "ANVIL-MRS", "ANVIL-SON"],
                      "p3.hand": ["WICK-GIRL", "ANVIL-GIRL", "KIPPER-MR"],
                      "p4.hand": ["WICK-MRS", "KIPPER-MRS", "KIPPER-SON", "KIPPER-GIRL"]},
                     players=4, turn="p2")
    ask(state, "p2", "p3", "WICK-MR")            # Ruby lacks Mr Wick: her turn
    ask(state, "p3", "p1", "KIPPER-MRS")         # Hazel lacks Mrs Kipper: her turn
    picks = {GAME.heuristic(state, "p1", random.Random(seed)) for seed in range(40)}
    assert picks == {("p2", card("WICK-MRS")), ("p2", card("WICK-SON")),
                     ("p2", card("WICK-GIRL"))}


def test_a_claim_outlasts_handing_over_a_card_everyone_saw_go_in():
    """As in worked example 02: Hazel asked for Miss Fleece before she held her, so she
    holds a Fleece nobody saw her take, and handing Miss Fleece on (seen going in) leaves
    that one. Ruby's chance for Master Fleece with Hazel: 3 unseen cards x 3 = 9 against
    Owen's 3 and Felix's 3, 9/15; the same for Mr or Mrs Sprout (Hazel asked for a Sprout
    too), but Ruby holds three Fleeces and one Sprout; Miss Sprout is at best 3/6 (Hazel
    lacks her). So she asks Hazel for Master Fleece."""
    state = position({"p1.hand": ["SPROUT-MR", "FLEECE-SON", "KIPPER-SON"],
                      "p2.hand": ["SPROUT-MRS", "ANVIL-MR", "ANVIL-GIRL"],
                      "p3.hand": ["SPROUT-SON", "FLEECE-MR", "FLEECE-MRS", "ANVIL-SON",
                                  "KIPPER-MRS", "KIPPER-GIRL"],
                      "p4.hand": ["SPROUT-GIRL", "FLEECE-GIRL", "ANVIL-MRS", "KIPPER-MR"]},
                     players=4)
    ask(state, "p1", "p4", "FLEECE-GIRL")
    ask(state, "p1", "p3", "SPROUT-GIRL")
    ask(state, "p3", "p1", "FLEECE-GIRL")
    assert state.claims["p1"] == ["Fleece", "Sprout"]
    assert GAME.heuristic(state, "p3", random.Random(0)) == ("p1", card("FLEECE-SON"))
    ask(state, "p3", "p1", "FLEECE-SON")         # the Fleeces are whole: no longer claimed
    assert state.claims["p1"] == ["Sprout"] and state.view()["p3.families"] == ["Fleece"]


def test_handing_over_a_card_nobody_saw_go_in_spends_the_claim():
    state = position(THREE)
    ask(state, "p1", "p3", "KIPPER-GIRL")        # Hazel shows a Kipper; Ruby's turn
    assert state.claims["p1"] == ["Kipper"]
    ask(state, "p3", "p1", "KIPPER-MRS")         # it may have been the one she showed
    assert state.claims["p1"] == [] and state.claims["p3"] == ["Kipper"]


def test_the_heuristic_decides_the_same_when_the_other_hands_are_dealt_again():
    """The kit's peek probe, by hand: mid-game positions of heuristic games, the cards
    hidden from the asker dealt again (builder.engine.core.redeal), the same generator."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_game(GAME.resolve({}), rng)
        for step in range(30):
            if state.result is not None:
                break
            p = state.turn
            luck = rng.getstate()
            chosen = GAME.heuristic(state, p, rng)
            for k in range(3):
                again = random.Random()
                again.setstate(luck)
                world = redeal(state, p, random.Random(f"{seed}:{step}:{k}"))
                assert GAME.heuristic(world, p, again) == chosen
                checked += 1
            state.apply({p: chosen})
    assert checked > 500


# --------------------------------------------------------------------------- the lab
def test_the_lab_plays_200_games_that_end_before_the_cap():
    """Heuristic players (as the lab seats them) finish every game in well under the cap;
    random players nearly always do (measured: 0.0 % capped at four players, 2 % at six)."""
    heuristic = seat_view(GAME)
    ends = Counter()
    longest = 0
    for i in range(200):
        state, steps = play_game(GAME, {}, i, heuristic)
        ends[state.result.rule] += 1
        longest = max(longest, steps)
    assert ends["ask-cap"] == 0 and longest < 120
    assert ends["shared-win"] and ends["most-families"] > ends["shared-win"]
    capped = sum(play_game(GAME, {}, i, random_bot)[0].result.rule == "ask-cap"
                 for i in range(200))
    assert capped <= 4


def test_the_book_lines_and_marks_say_what_happened():
    state = position({"p1.hand": ["CRUMB-MR", "CRUMB-SON", "CRUMB-GIRL", "WICK-MR"],
                      "p2.hand": ["CRUMB-MRS", "WICK-MRS"],
                      "p3.hand": ["WICK-SON", "WICK-GIRL"]})
    events = ask(state, "p1", "p2", "CRUMB-MRS")
    assert GAME.describe(state.view(), state.options) == [
        ("p1", "1 card in hand, 1 family laid down (Crumb)"),
        ("p2", "1 card in hand"), ("p3", "2 cards in hand"),
        ("", "1 family still in the hands; {p1} asks next")]
    assert GAME.marks(events, state.table()) == {
        "CRUMB-MR": "revealed", "CRUMB-MRS": "won", "CRUMB-SON": "revealed",
        "CRUMB-GIRL": "revealed"}
    assert [e.narrate({"p1": "Hazel", "p2": "Owen"}) for e in events] == [
        "Hazel asks Owen for Mrs Crumb.", "Owen hands Mrs Crumb to Hazel.",
        "Hazel holds the whole Crumb family and lays it down (1 family laid down)."]


# --------------------------------------------------------------------------- the search bot
def mid_game_positions(seeds, players: int = 4, every: int = 3):
    """Positions of heuristic games (now and then a random ask), every ``every``-th ask."""
    for seed in seeds:
        rng = random.Random(f"mid:{seed}")
        state = GAME.new_game(GAME.resolve({"players": players}), rng)
        step = 0
        while state.result is None:
            p = state.turn
            if step % every == 0:
                yield state, p
            bot = random_bot if rng.random() < 0.3 else GAME.heuristic
            state.apply({p: bot(state, p, rng)})
            step += 1


def test_determinize_deals_only_what_the_table_heard():
    """The other hands dealt again keep their sizes and everything the table heard: a card
    seen going into a hand stays there, no card goes to a player known to lack it, a claim
    (a family asked for while not seen holding any) is answered by a card nobody saw go
    in, and no hand holds a whole family. The asker's own hand, the laid families and the
    memory are unchanged, the real state is untouched, the worlds differ, and the engine
    plays each to its end."""
    checked = varied = 0
    for players in (3, 4, 6):
        for state, p in mid_game_positions(range(6), players):
            before = state.view()
            memory = (dict(state.seen), {q: set(v) for q, v in state.lacks.items()},
                      {q: list(v) for q, v in state.claims.items()})
            dealt = set()
            for k in range(6):
                world = hf.determinize(state, p, random.Random(k))
                assert world is not state and world.all_cards() == state.all_cards()
                assert world.hands[p] == state.hands[p] and world.laid == state.laid
                assert (world.seen, world.lacks, world.claims) == memory
                for q in state.players:
                    assert len(world.hands[q]) == len(state.hands[q])
                    assert world.hands[q] == sorted(world.hands[q])
                    if q == p:
                        continue
                    assert all(c in world.hands[q] for c, who in state.seen.items() if who == q)
                    assert not set(world.hands[q]) & state.lacks[q]
                    for family in state.claims[q]:
                        assert any(str(c.family) == family and state.seen.get(c) != q
                                   for c in world.hands[q]), (q, family)
                    held = Counter(str(c.family) for c in world.hands[q])
                    assert all(n < len(hf.families(hf.deck())[f]) for f, n in held.items())
                dealt.add(tuple(tuple(world.hands[q]) for q in state.players))
            varied += len(dealt) > 1
            world = hf.determinize(state, p, random.Random(99))
            play_game_on(world)
            assert state.view() == before
            checked += 1
    assert checked > 100 and varied > checked // 2, (checked, varied)


def play_game_on(state) -> None:
    rng = random.Random(5)
    cards = state.all_cards()
    for _ in range(GAME.max_steps(state.options) + 1):
        if state.result is not None:
            return
        p = state.turn
        state.apply({p: GAME.heuristic(state, p, rng)})
        assert state.all_cards() == cards
    raise AssertionError("the dealt world did not end within the cap")


def test_determinize_reasons_as_the_table_does():
    """Example 2 (Everyone heard where Miss Fleece went), worked by hand: after Hazel asked
    for Miss Fleece she is known to hold another Fleece. Once Ruby holds Mr, Mrs and Miss
    Fleece, that can only be Master Fleece, and every world Ruby deals gives him to Hazel;
    Felix handed Miss Fleece over and said nothing else, so he keeps his two cards' room."""
    state = position({"p1.hand": ["SPROUT-MR", "FLEECE-SON"],
                      "p2.hand": ["SPROUT-MRS", "ANVIL-MR", "ANVIL-GIRL"],
                      "p3.hand": ["SPROUT-SON", "FLEECE-MR", "FLEECE-MRS", "ANVIL-SON"],
                      "p4.hand": ["SPROUT-GIRL", "FLEECE-GIRL", "ANVIL-MRS"]}, players=4)
    ask(state, "p1", "p4", "FLEECE-GIRL")
    ask(state, "p1", "p3", "SPROUT-GIRL")   # not at home: Ruby's turn
    ask(state, "p3", "p1", "FLEECE-GIRL")
    assert state.claims["p1"] == ["Fleece", "Sprout"]
    for k in range(20):
        world = hf.determinize(state, "p3", random.Random(k))
        assert card("FLEECE-SON") in world.hands["p1"]
        assert card("SPROUT-GIRL") not in world.hands["p3"]


def test_the_search_bot_plays_worlds_of_its_own_determinize():
    from builder.lab.bots import ladder
    assert GAME.determinizer() is hf.determinize
    assert ladder(GAME, GAME.resolve({})) == ["random", "heuristic", "search"]


def test_a_refused_ask_is_said_in_words():
    assert hf.attempt("p1", ("p2", card("THIMBLE-MRS"))) == "ask {p2} for Mrs Thimble"
    # a refused player leaves the card as written
    assert hf.attempt("p1", ("p1", "chime-mrs")) == "ask {p1} for Mrs Chime"
    assert hf.attempt("p1", ("p2", "NOPE")) is None and hf.attempt("p1", "p2") is None
