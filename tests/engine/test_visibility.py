"""Who sees what (issue 24, item 5): zones say who may see their cards; the lab gives each
bot only its seat's view; the search bot's re-deal comes from the zones, so an engine that
declares them gets a search bot without writing ``determinize``."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.engine import Zone, parse_cards
from builder.engine.core import redeal
from builder.engine.registry import load_engine_file
from builder.lab.bots import ladder, make_bot, seat_view

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"


@pytest.fixture(scope="module")
def high_five():
    return load_engine_file(FIXTURE / "engine.py")


def test_a_seat_keeps_what_it_sees_and_the_rest_is_dealt_again(high_five):
    state = high_five.new_game(high_five.resolve({}), random.Random(7))
    before = {p: list(state.hands[p]) for p in ("p1", "p2")}
    box = list(state.box)
    seen = []
    for k in range(5):
        world = redeal(state, "p1", random.Random(k))
        assert world.hands["p1"] == before["p1"]            # p1's own hand: as it is
        assert len(world.hands["p2"]) == 5 and len(world.box) == len(box)
        assert world.all_cards() == state.all_cards()       # the same cards, moved about
        seen.append(tuple(world.hands["p2"]))
    assert len(set(seen)) == 5 and tuple(before["p2"]) not in seen
    # and the real state is untouched
    assert state.hands["p2"] == before["p2"] and state.box == box


def test_an_engine_that_says_who_sees_what_gets_a_search_bot(high_five):
    assert high_five.determinize is None
    assert high_five.determinizer() is redeal
    assert ladder(high_five, high_five.resolve({})) == ["random", "heuristic", "search"]
    bot = make_bot("search", high_five)
    state = high_five.new_game(high_five.resolve({"hand": 2}), random.Random(1))
    assert bot(state, "p1", random.Random(0)) in state.hands["p1"]


def test_the_lab_gives_a_peeking_heuristic_only_its_seats_view(high_five):
    """A heuristic that reads the other hand, played by the lab, sees a hand dealt again
    from the cards it cannot see, not the real one; its own hand is the real one."""
    looked: list[tuple] = []

    def peeking(state, player, rng):
        looked.append((list(state.hands[player]), list(state.hands["p2"])))
        return state.hands[player][0]

    import dataclasses
    game = dataclasses.replace(high_five, heuristic=peeking)
    bot = seat_view(game)
    assert bot.__wrapped__ is peeking
    state = game.new_game(game.resolve({}), random.Random(3))
    real = {"p2": list(state.hands["p2"]), "box": list(state.box)}
    bot(state, "p1", random.Random(0))
    own, other = looked[0]
    assert own == state.hands["p1"]
    assert other != real["p2"] and len(other) == len(real["p2"])
    # dealt again in place for the decision, then put back as it was
    assert state.hands["p2"] == real["p2"] and state.box == real["box"]


def test_a_game_that_says_nothing_of_who_sees_what_is_played_as_it_is():
    from builder.engine.registry import find_engine
    war = find_engine("war")
    assert war.determinizer() is None
    assert seat_view(war) is war.heuristic


@pytest.mark.parametrize("kwargs, says", [
    ({"seen_by": "owners", "owner": "p1"}, "seen_by='owners' is not one of everyone, owner, "
                                           "nobody (did you mean 'owner'?)"),
    ({"seen_by": "owner"}, "seen_by='owner' needs owner= (the player who may look at it)"),
])
def test_a_visibility_that_is_not_one_of_the_three_is_refused(kwargs, says):
    with pytest.raises(ValueError) as e:
        Zone("p1.hand", "Hand", 0, 0, **kwargs)
    assert says in str(e.value)


def test_who_may_see_a_zone():
    hand = Zone("p1.hand", "Hand", 0, 0, owner="p1", seen_by="owner",
                cards=[(c, True) for c in parse_cards(["KS"])])
    stock = Zone("stock", "Stock", 0, 1, seen_by="nobody",
                 cards=[(c, True) for c in parse_cards(["2C"])])
    deck = Zone("deck", "Deck", 0, 2, cards=[(c, False) for c in parse_cards(["3C", "4C"])])
    pile = Zone("pile", "Pile", 0, 3, cards=[(c, True) for c in parse_cards(["5C"])])
    assert [z.hidden_from("p1") for z in (hand, stock, deck, pile)] == [False, True, True, False]
    assert [z.hidden_from("p2") for z in (hand, stock, deck, pile)] == [True, True, True, False]
    assert [z.secret() for z in (hand, stock, deck, pile)] == [True, True, False, False]


def test_a_bad_visibility_in_a_designers_engine_is_said_at_their_line(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text().replace('seen_by="owner"', 'seen_by="player"'))
    proc = subprocess.run([sys.executable, "-m", "builder", "check", "--content", str(content)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    line = next(i for i, text in enumerate(engine.read_text().splitlines(), 1)
                if 'seen_by="player"' in text)
    assert f"content/high-five/engine.py:{line}:" in proc.stderr, proc.stderr
    assert "seen_by='player' is not one of everyone, owner, nobody" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_hidden_zone_piles_does_not_give_is_said(high_five):
    state = high_five.new_game(high_five.resolve({}), random.Random(0))

    class Partial(type(state)):
        def piles(self):
            return {"p1.hand": self.hands["p1"]}

    state.__class__ = Partial
    with pytest.raises(ValueError, match="zone 'p2.hand' is hidden from p1 .* piles\\(\\) does "
                                         "not give its cards"):
        redeal(state, "p1", random.Random(0))


def test_a_designers_heuristic_is_played_from_its_seat_even_with_its_own_determinize(high_five):
    """A designer's engine with a determinize of its own (no piles needed) gets the seat
    view on a copy; warbook's own engines, held to their seats by the kit's peek check,
    are played as they are (the figures' cost: bench/seat_view.py)."""
    import dataclasses

    from builder.engine.registry import find_engine
    own = dataclasses.replace(high_five, determinize=redeal)
    bot = seat_view(own)
    assert bot.__wrapped__ is high_five.heuristic
    state = own.new_game(own.resolve({}), random.Random(5))
    assert bot(state, "p1", random.Random(0)) in state.hands["p1"]
    battle = find_engine("battle")
    assert battle.determinize is not None and seat_view(battle) is battle.heuristic
