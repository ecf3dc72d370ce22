"""Details of the engines that a printed page or a designer's error message shows, each
stated from outside the code: from docs/games.md, from the rules, or worked by hand.

* every decision cites a rule id of its game (docs/games.md, "Rule ids"): a refusal in a
  rulebook's example or in ``warbook check`` points the reader at that rule;
* every place on a diagram has an id in plain lower case and a style the renderers draw,
  and a deck is drawn face down;
* an event whose narration names one player, who acts in it ("{p1} takes ..."), belongs
  to that player (the site and the books mark the player an event belongs to);
* the small helpers' words: values are written as a designer writes them in YAML, and each
  choice's refusals say what is wrong, in agreement ("is" for one card, "are" for two).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
import yaml
from helpers import documented_events_and_rules

from builder.engine.core import Card, DecisionFormatError, fmt_value, play_game, random_bot
from builder.engine.registry import registered_engines

GAMES = registered_engines()
STYLES = {"stack", "fan", "pile", "tokens"}   # core.Zone's docstring: what the renderers draw


def each_step(slug: str, seeds: int = 4):
    """(state, pending node, events) after every step of a few seeded games of every option
    set, half with random players and half with the heuristic."""
    game = GAMES[slug]
    for opts in game.option_sets:
        for seed in range(seeds):
            steps = []
            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=lambda s, node, d, ev: steps.append((s.table(), node, list(ev))))
            yield from steps


def each_game(slug: str, seeds: int):
    """The events of each of a few seeded games of every option set (half with random
    players, half with the heuristic), one list a game."""
    game = GAMES[slug]
    for opts in game.option_sets:
        for seed in range(seeds):
            events = []
            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=lambda s, n, d, ev: events.extend(ev))
            yield events


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_decision_cites_a_documented_rule(slug):
    _events, rules = documented_events_and_rules(slug)
    cited = Counter()
    for _table, node, _ev in each_step(slug):
        if node.kind == "decision":
            for p, choice in node.choices.items():
                assert choice.rule in rules, (slug, node.what, p, type(choice).__name__,
                                              choice.rule)
                cited[choice.rule] += 1
        else:
            assert node.choice.rule in rules or not node.choice.rule, (slug, node.what)
    assert all(r in rules for r in cited)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_place_on_a_diagram_is_drawable(slug):
    seen = 0
    for table, _node, _ev in each_step(slug, seeds=2):
        for z in table:
            assert re.fullmatch(r"[a-z0-9]+(?:[.-][a-z0-9]+)*", z.id), (slug, z.id)
            assert z.style in STYLES, (slug, z.id, z.style)
            if z.id.endswith(".deck") or z.id == "deck":
                assert not any(up for _c, up in z.cards), (slug, z.id, "a deck face up")
            seen += 1
    assert seen


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_an_event_about_one_player_belongs_to_them(slug):
    checked = 0
    for _table, _node, events in each_step(slug, seeds=16):
        for e in events:
            named = set(re.findall(r"\{(p\d)\}", e.text))
            if len(named) == 1 and re.match(r"\{p\d\} ", e.text):   # the player acts
                assert e.player == named.pop(), (slug, e.kind, e.player, e.text)
                checked += 1
    assert checked


def test_battle_compares_cards_around_the_middle():
    """Battle's diagrams (docs/games.md): the cards being compared lie around the Killed pile
    in the middle, touching it (one step along a row or a column); with four players, each
    player's cards in play also touch their hand (they lie between the hand and the
    middle)."""
    game = GAMES["battle"]
    for opts in game.option_sets:
        state = game.new_game(game.resolve(opts), random.Random(0))
        zones = {z.id: (z.row, z.col) for z in state.table()}
        near = [zones["killed"]]
        for p in state.players:
            play = zones[f"{p}.play"]
            for other in near + ([zones[f"{p}.hand"]] if len(state.players) == 4 else []):
                assert abs(play[0] - other[0]) + abs(play[1] - other[1]) == 1, (opts, p, zones)
        assert len(set(zones.values())) == len(zones), zones


@pytest.mark.parametrize("value, written, loaded", [
    ([Card("K", "S"), Card("4", "D")], "[KS, 4D]", ["KS", "4D"]),
    ({"left": Card("4", "D"), "right": Card("10", "H")}, "{left: 4D, right: 10H}",
     {"left": "4D", "right": "10H"}),
    ((1, "stop"), "[1, stop]", [1, "stop"]),
    (Card("10", "H"), "10H", "10H"),
])
def test_a_value_is_written_as_a_designer_writes_it(value, written, loaded):
    """``fmt_value`` writes a decision the way an example's YAML does (flow style), so a
    message can say "write it with decide: [KS, 4D]" and the designer can paste it."""
    assert fmt_value(value) == written
    assert yaml.safe_load(written) == loaded


def test_a_player_placeholder_reads_as_the_player():
    from builder.engine.core import Event

    e = Event("take", "x", "{p1} takes; {p3} waits; {board} stays.", "p1")
    assert e.narrate() == "Player 1 takes; Player 3 waits; {board} stays."
    assert e.narrate({"p1": "North"}) == "North takes; Player 3 waits; {board} stays."


# --------------------------------------------------------------------------- Battle Lines
def test_a_deployment_names_what_is_wrong():
    """Battle Lines (rules.md, Deploy): three cards of the hand, one to each of left, centre
    and right; the words worked by hand."""
    from builder.engine.battle_lines import Deployment, Line

    hand = [Card("K", "S"), Card("9", "C"), Card("4", "D"), Card("2", "H")]
    d = Deployment(hand, 3, "deploy")
    assert d.rule == "deploy"
    with pytest.raises(DecisionFormatError) as e:
        d.parse({"middle": "KS"})
    assert str(e.value) == "unknown position 'middle' (the positions are left, centre and right)"
    assert d.parse({"Center": "KS", "left": "empty"}) == Line(None, Card("K", "S"), None)
    one = Line(Card("K", "S"), Card("5", "H"), Card("4", "D"))
    assert d.why_illegal(one) == "5H is not in hand (the hand is KS 9C 4D 2H)"
    two = Line(Card("K", "S"), Card("5", "H"), Card("6", "D"))
    assert d.why_illegal(two).startswith("5H 6D are not in hand")
    short = Line(Card("K", "S"), None, None)
    assert d.why_illegal(short) == ("1 card deployed; one card goes to each of left, centre "
                                    "and right")
    last = Deployment(hand[:2], 2, "short-deployment")
    assert last.refusal(short) == ("short-deployment", "1 card deployed, but with 2 in hand "
                                   "exactly 2 must be")
    assert last.refusal(Line(None, None, None))[1].startswith("0 cards deployed")
    assert d.describe() == ("one card of KS 9C 4D 2H to each of left, centre and right (the "
                            "last one stays as the reserve)")
    assert last.describe() == "2 cards of KS 9C, at most one per position (left, centre, right)"
    assert Deployment(hand[:1], 1, "short-deployment").describe() == \
        "1 card of KS, at most one per position (left, centre, right)"


def test_a_refused_reinforcement_says_why():
    from builder.engine.battle_lines import ReinforceChoice, Reinforcement

    c = ReinforceChoice(["left"], {"right": ("reinforce-own", "the right flank is empty")})
    assert c.why_illegal(Reinforcement(("right",))) == "the right flank is empty"
    assert c.why_illegal(Reinforcement(("left", "right"))) == \
        "a player reinforces at most one flank per turn"
    assert c.why_illegal(Reinforcement(("centre",))) == "the centre flank cannot be reinforced now"
    assert c.contains(Reinforcement(("left",))) and c.contains(Reinforcement(()))


# --------------------------------------------------------------------------- Winning the Battle
def test_an_outflank_refusal_names_the_positions():
    from builder.engine.winning_the_battle import OutflankChoice

    c = OutflankChoice(4)
    assert c.why_illegal(7) == ("there is no position 7: the lines face each other at positions "
                                "1 to 4; name one of them or stop")
    assert c.why_illegal(True) == "True is neither a position (1 to 4) nor 'stop'"
    assert c.why_illegal("go") == "'go' is neither a position (1 to 4) nor 'stop'"


def test_a_settled_battle_says_who_beat_whom_where():
    """Winning the Battle (rules.md, Settling a battle): each position's pair is compared;
    the narration numbers the positions 1 to n from the left, names the winner's card first
    (the higher: kings high, aces low), and says when covered cards go to the out piles too."""
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]   # ace lowest

    covered = positions = 0
    for events in each_game("winning-the-battle", 6):
        numbers, cover = [], False
        for e in events:
            m = re.fullmatch(r"Position (\d+): \{(p\d)\}'s (\w+) beats (\w+)\.", e.text)
            if m:
                hi, lo = Card.parse(m.group(3)), Card.parse(m.group(4))
                assert order.index(hi.rank) > order.index(lo.rank), e.text
                assert e.player == m.group(2), e.text
            if e.text.startswith("Position "):
                numbers.append(int(e.text.split()[1].rstrip(":")))
            cover = cover or e.kind == "cover"
            if e.kind == "clear":
                assert ("covered cards" in e.text) == cover, e.text
                covered += cover
                assert numbers == list(range(1, len(numbers) + 1)), numbers
                positions += bool(numbers)
                numbers, cover = [], False
    assert positions and covered, (positions, covered)


# --------------------------------------------------------------------------- War
@pytest.mark.parametrize("empty, winner", [("p1", "p2"), ("p2", "p1")])
def test_war_set_up_with_one_empty_deck_is_already_won(empty, winner):
    game = GAMES["war"]
    other = "p2" if empty == "p1" else "p1"
    s = game.from_setup(game.resolve({}), {"piles": {f"{other}.deck": ["5H", "9C"],
                                                     f"{empty}.deck": []}})
    assert s.result is not None and s.result.winner == winner
    assert s.result.rule == "out-of-cards" and s.view()["result"] == winner


# --------------------------------------------------------------------------- Battle
def test_battle_says_why_a_player_is_out():
    """Battle (rules.md, Out of the game): a player is out when all their cards are killed
    (rule all-killed: "has no cards left") or when they cannot supply a battle (rule
    cannot-supply)."""
    seen = Counter()
    for events in each_game("battle", 12):
        for e in events:
            if e.kind == "out":
                want = {"all-killed": "has no cards left",
                        "cannot-supply": "cannot supply a battle"}[e.rule]
                assert e.text == f"{{{e.player}}} {want} and is out of the game.", e.text
                seen[e.rule] += 1
    assert seen["all-killed"] and seen["cannot-supply"], seen


@pytest.mark.parametrize("slug, pile, good", [
    ("war", "p1.deck", "5H"), ("battle", "p1.deck", "5H"), ("battle-lines", "p1.deck", "5H"),
    ("deck-management", "p1.stack", "5H"), ("ultimate", "p1.hand", "5C"),
    ("winning-the-battle", "p1.deck", "5H")])
def test_a_setup_pile_with_a_bad_card_is_refused_with_the_cards_words(slug, pile, good):
    """An engine reached without the content loader (a designer's script, ``warbook
    record``) refuses a card it cannot read with the card's own words; an engine that
    raises a SetupError for it points at the card's index in its pile (the check itself
    reads every setup card before the engine sees it)."""
    from builder.engine.core import CardError, SetupError

    game = GAMES[slug]
    with pytest.raises((SetupError, CardError)) as e:
        game.from_setup(game.resolve({}), {"piles": {pile: [good, "1D"]}})
    assert str(e.value) == ("unknown card '1D' (a card is a rank A 2-10 J Q K then a suit "
                            "C D H S, e.g. QD or 10H)")
    if isinstance(e.value, SetupError):
        assert e.value.where == ("piles", pile, 1)


def test_battle_lines_says_whose_deck_ran_out():
    """Battle Lines (rules.md, The last turn): the last deployment begins when a deck is
    empty after drawing up; the narration names the empty decks in agreement: "{p1}'s deck
    is empty", "{p1}'s and {p2}'s decks are empty"."""
    seen = set()
    for events in each_game("battle-lines", 16):
        for e in events:
            if e.kind == "last-turn":
                empty = e.data["empty"].split()
                who = " and ".join(f"{{{p}}}'s" for p in empty)
                verb = "decks are" if len(empty) == 2 else "deck is"
                assert e.text.startswith(f"{who} {verb} empty after drawing up"), e.text
                seen.add(len(empty))
    assert seen == {1, 2}, seen


def test_a_reinforcement_names_the_card_the_reserve_matches():
    """Battle Lines (rules.md, Reinforcing): a reserve reinforces a lower flank card when
    it shares the suit of that card or of the card facing it; the narration names the card
    whose suit it shares ("both cards" when the two share a suit)."""
    seen = 0
    for events in each_game("battle-lines", 30):
        for e in events:
            m = re.search(r"the reserve (\w+) shares the suit of (both cards|\w+):", e.text)
            if e.kind != "may-reinforce" or not m:
                continue
            reserve = Card.parse(m.group(1))
            mine, theirs = e.cards
            if m.group(2) == "both cards":
                assert mine.suit == theirs.suit == reserve.suit, e.text
            else:
                named = Card.parse(m.group(2))
                assert named in (mine, theirs) and named.suit == reserve.suit, e.text
                assert mine.suit != theirs.suit, e.text
            seen += 1
    assert seen


# --------------------------------------------------------------------------- describe
@pytest.mark.parametrize("slug, key, says", [
    ("winning-the-battle", "battle.sweep", {True: "winning every pair"}),
    ("winning-the-battle", "battle.winner", {"tie": "the last battle was a tie"}),
    ("battle-lines", "last-turn", {True: "this is the last turn"}),
])
def test_the_state_lines_say_what_the_view_holds(slug, key, says):
    """The state lines under a diagram (``describe``) say a fact exactly when the view
    holds it (docs/games.md): Winning the Battle's clean sweep ("winning every pair") and
    its tied last battle, Battle Lines' last turn."""
    game = GAMES[slug]
    said = Counter()
    for opts in game.option_sets:
        for seed in range(10):
            def on_step(state, node, decided, events):
                view = state.view()
                text = dict(game.describe(view, state.options))[""]
                for value, words in says.items():
                    assert (words in text) == (view[key] == value), (view[key], text)
                    said[view[key] == value] += 1

            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=on_step)
    assert said[True] and said[False], said


@pytest.mark.parametrize("slug", ["war", "deck-management"])
def test_no_trick_has_been_taken_before_the_first(slug):
    """``trick.cards`` (docs/games.md): how many cards the last trick's winner took, 0 if
    nobody took it; before the first trick, nobody has."""
    game = GAMES[slug]
    for opts in game.option_sets:
        state = game.new_game(game.resolve(opts), random.Random(1))
        assert state.view()["trick.cards"] == 0
        assert state.view()["trick.winner"] == "none"


def test_a_decision_out_of_turn_is_refused_citing_the_rule():
    """Applying a decision where the game does not ask for it: a player who has no
    decision now, or a decision where a chance event is pending, is refused with the rule
    of what is pending (printed in ``warbook check``'s message)."""
    from builder.engine.core import IllegalDecision

    game = GAMES["battle-lines"]
    state = game.new_game(game.resolve({}), random.Random(3))
    node = state.node()
    assert node.kind == "decision"
    rule = next(iter(node.choices.values())).rule
    with pytest.raises(IllegalDecision) as e:
        state.apply({**{p: c.sample(random.Random(0)) for p, c in node.choices.items()},
                     "p3": "anything"})
    assert (e.value.rule, e.value.player) == (rule, "p3")
    assert str(e.value.message).startswith("p3 has no decision to make now (")


def test_a_number_choice_describes_itself_as_a_number():
    from builder.engine.core import IntRange

    assert IntRange(1, 5, "draw").describe() == "a number from 1 to 5"
    assert IntRange(2, 2, "draw").describe() == "2"


def test_an_engine_file_may_define_dataclasses(tmp_path):
    """A designer's engine.py is an ordinary module (docs/writing-an-engine.md): with
    ``from __future__ import annotations`` a dataclass looks its module up by name while
    the file loads, so the file is a registered module by then."""
    from pathlib import Path

    from builder.engine.registry import load_engine_file

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "high-five" / "engine.py"
    text = fixture.read_text()
    anchor = "PLAYERS = (\"p1\", \"p2\")\n"
    assert text.count(anchor) == 1
    text = text.replace(anchor, anchor + "\n\nfrom dataclasses import dataclass\n\n\n"
                        "@dataclass\nclass Tally:\n    points: int = 0\n    note: str = ''\n\n\n"
                        "ZERO = Tally()\n")
    (tmp_path / "tally").mkdir()
    (tmp_path / "tally" / "engine.py").write_text(text)
    game = load_engine_file(tmp_path / "tally" / "engine.py")
    assert game.slug == "high-five"
