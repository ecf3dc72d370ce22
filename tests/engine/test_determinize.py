"""``determinize`` (the search bot's view of the hidden cards) for every game with decisions.

For each game, games are played from seeds and stopped at decisions where a player has a
real choice; there the state is dealt again from that player's seat. What a player can see
is written here from the rules (content/<slug>/rules.md, RULINGS.md), not read from the
engine: the cards revealed so far are gathered from the events of the game as it is played
(a card is known once an event turned it face up), and the full supply of cards is spelled
out from the rulebook's "What you need". The tests check that a determinized state

* holds exactly the game's cards, pile by pile as the rules deal them (nothing lost, made or
  moved between players' decks);
* shows the deciding player exactly what the real state shows them (their own hand, every
  face-up card, every count, and which cards an opponent may hold where that can be
  deduced);
* really deals the hidden cards again: they differ from seed to seed;
* is a state the engine plays on to the end (every step checked for legality, every card
  kept), and leaves the real state untouched.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

import pytest

from builder.engine import battle, battle_lines, deck_management, winning_the_battle
from builder.engine.core import Card, random_bot

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
#: one 52-card deck, from the rulebooks' "What you need"
DECK = Counter(Card(r, s) for s in "CDHS" for r in RANKS)


def suit_cards(suits: str, copies: int = 1) -> Counter:
    return Counter({Card(r, s): copies for s in suits for r in RANKS})


# --------------------------------------------------------------------------- driving games
def decisions(gamedef, options: dict, seed: str, observe: Callable, every: int = 1,
              mix: float = 0.3):
    """Play one game (heuristic bots, now and then a random move for variety) and yield
    ``(state, player)`` at every ``every``-th decision where ``player`` has a real choice.
    ``observe(events)`` is fed every step's events as they happen."""
    rng = random.Random(seed)
    state = gamedef.new_game(options, rng)
    observe(getattr(state, "opening_events", []))
    seen = 0
    while not state.is_terminal():
        node = state.node()
        if node.kind == "chance":
            observe(state.apply_chance(node.choice.sample(rng)))
            continue
        for p, choice in node.choices.items():
            if not choice.is_forced():
                seen += 1
                if seen % every == 0:
                    yield state, p
        bot = random_bot if rng.random() < mix else gamedef.heuristic
        observe(state.apply({p: bot(state, p, rng) for p in node.choices}))


def play_on(gamedef, state, supply: Callable[[Any], Any], seed: int) -> None:
    """Play a determinized state to its end: every step legal, every card kept."""
    rng = random.Random(seed)
    want = supply(state)
    bound = gamedef.max_steps(state.options)
    for _ in range(bound + 1):
        if state.is_terminal():
            return
        node = state.node()
        if node.kind == "chance":
            state.apply_chance(node.choice.sample(rng))
        else:
            state.apply({p: gamedef.heuristic(state, p, rng) for p in node.choices})
        assert supply(state) == want
    raise AssertionError("the determinized game did not end within its bound")


def check_positions(gamedef, options, seeds, observer, visible, hidden, supply, full,
                    every=3, worlds=24, min_varied=2, positions=None):
    """The four properties at the decisions of the games played from ``seeds``."""
    checked = varied = 0
    for seed in seeds:
        known = observer()
        for state, p in (positions or decisions)(gamedef, options, seed, known.observe,
                                                 every=every):
            before = state.view()
            assert supply(state) == full(state.options)
            mine = visible(state, p, known)
            dealt = set()
            for k in range(worlds):
                world = gamedef.determinize(state, p, random.Random(k))
                assert world is not state
                assert supply(world) == full(state.options), "cards lost or made"
                assert visible(world, p, known) == mine, "the player's view changed"
                dealt.add(hidden(world, p, known))
            # the hidden cards are dealt again: they differ between seeds wherever more
            # than one arrangement is possible
            if any(len(set(group)) > 1 for group in hidden(state, p, known)):
                assert len(dealt) > 1, "the hidden cards never change"
                varied += 1
            play_on(gamedef, gamedef.determinize(state, p, random.Random(99)), supply, 5)
            assert state.view() == before, "determinize changed the real state"
            checked += 1
    assert checked >= 10 and varied >= min_varied, (checked, varied)


class Revealed:
    """The cards events have shown face up so far (per player where decks are separate)."""

    def __init__(self, kinds: tuple[str, ...], per_player: bool = False):
        self.kinds, self.per_player = kinds, per_player
        self.cards: dict[str | None, set] = {}

    def observe(self, events) -> None:
        for e in events:
            if e.kind in self.kinds:
                key = e.player if self.per_player else None
                self.cards.setdefault(key, set()).update(e.cards)

    def of(self, player: str | None = None) -> set:
        return self.cards.get(player if self.per_player else None, set())


# --------------------------------------------------------------------------- Winning the Battle
def wtb_supply(st) -> tuple:
    """Each player's own deck's cards: deck, extras in hand, out of the game, and the lines
    while a battle is on (once it is settled its cards are out; the lines stay in view)."""
    return tuple(Counter(st.decks[p] + st.hands[p] + st.out[p]
                         + [c for stack in st.lines[p] for c in stack] * st.live)
                 for p in ("p1", "p2"))


def wtb_full(options) -> tuple:
    return (DECK, DECK)  # a full deck each (rules: What you need)


def wtb_visible(st, player, known) -> tuple:
    # nobody peeks: a card is seen once played to a line or as a cover; discarded extras
    # go out unseen; deck and hand are seen only as counts
    return (dict(st.stones), dict(st.drew), st.outflanker, st.battles, st.live,
            {p: [list(s) for s in st.lines[p]] for p in ("p1", "p2")},
            {p: (len(st.decks[p]), len(st.hands[p]),
                 [c if c in known.of(p) else "?" for c in st.out[p]]) for p in ("p1", "p2")})


def wtb_hidden(st, player, known) -> tuple:
    """The cards ``player`` cannot see, in place order, in groups that may be mixed."""
    return tuple(tuple(st.decks[p] + st.hands[p] + [c for c in st.out[p] if c not in known.of(p)])
                 for p in ("p1", "p2"))


def test_winning_the_battle_determinize():
    game = winning_the_battle.GAME
    check_positions(game, game.resolve({}), [f"wtb{i}" for i in range(6)],
                    lambda: Revealed(("line", "cover"), per_player=True),
                    wtb_visible, wtb_hidden, wtb_supply, wtb_full)


def test_winning_the_battle_deals_the_unseen_discards_too():
    """Extras discarded unseen may be any of the player's unseen cards."""
    game = winning_the_battle.GAME
    for seed in range(40):
        known = Revealed(("line", "cover"), per_player=True)
        for state, p in decisions(game, game.resolve({}), f"stop{seed}", known.observe):
            unseen = [(q, c) for q in ("p1", "p2") for c in state.unseen_out[q]]
            if not unseen:
                continue
            q, card = unseen[0]
            spot = state.out[q].index(card)
            dealt = {game.determinize(state, p, random.Random(k)).out[q][spot]
                     for k in range(20)}
            assert len(dealt) > 1
            return
    pytest.fail("no game discarded an extra unseen")


# --------------------------------------------------------------------------- Battle Lines
def bl_supply(st) -> Counter:
    c = Counter()
    for p in ("p1", "p2"):
        c.update(st.decks[p] + st.hands[p] + st.captured[p])
        c.update(x for x in st.line[p].values() if x is not None)
        c.update(x for x in (st.reserve[p], st.boost[p]) if x is not None)
    return c


def bl_visible(st, player, known) -> tuple:
    q = "p2" if player == "p1" else "p1"
    shown = known.of()
    mask = lambda c: c if c is None or c in shown else "?"  # noqa: E731
    return (list(st.hands[player]), st.reserve[player], st.phase, st.turns, st.last_turn,
            {p: dict(st.line[p]) for p in ("p1", "p2")}, dict(st.boost), dict(st.reinforced),
            {p: list(st.captured[p]) for p in ("p1", "p2")},
            {p: len(st.decks[p]) for p in ("p1", "p2")},
            [mask(c) for c in st.hands[q]], mask(st.reserve[q]), list(st.legal[player]))


def bl_hidden(st, player, known) -> tuple:
    q = "p2" if player == "p1" else "p1"
    unknown = [c for c in st.hands[q] + [st.reserve[q]] if c is not None and c not in known.of()]
    return (tuple(st.decks["p1"] + st.decks["p2"] + unknown),)


def test_battle_lines_determinize():
    check_positions(battle_lines.GAME, {"max_turns": 100}, [f"bl{i}" for i in range(4)],
                    lambda: Revealed(("reveal",)), bl_visible, bl_hidden, bl_supply,
                    lambda o: DECK)


def test_battle_lines_keeps_the_opponents_known_hand_cards():
    """A card back in hand from a tie was seen by both: it stays where it is."""
    game = battle_lines.GAME
    for seed in range(60):
        known = Revealed(("reveal",))
        for state, p in decisions(game, {"max_turns": 100}, f"tie{seed}", known.observe):
            q = "p2" if p == "p1" else "p1"
            back = [i for i, c in enumerate(state.hands[q]) if c in known.of()]
            if not back or state.phase != "deploy":
                continue
            for k in range(10):
                world = game.determinize(state, p, random.Random(k))
                assert [world.hands[q][i] for i in back] == [state.hands[q][i] for i in back]
            return
    pytest.fail("no position with a tied card back in hand")


# --------------------------------------------------------------------------- Deck Management
def dm_supply(st) -> Counter:
    c = Counter(st.middle + st.discards)
    for p in st.players:
        c.update(st.stack[p] + st.won[p] + [x for x, _ in st.play[p]])
    return c


def dm_visible(st, player, known) -> tuple:
    # won piles, the middle, the discards and face-up cards in play are open; a stack is
    # seen as a count and, from round 2 on, as the set of its owner's won pile it was made
    # from (round 1: only all stacks together can be deduced); with arranged stacks the
    # player knows their own stack card for card
    open_ = (st.round, st.phase, list(st.middle), list(st.discards), sorted(st.out),
             {p: list(st.won[p]) for p in st.players},
             {p: [c if up else "?" for c, up in st.play[p]] for p in st.players},
             {p: len(st.stack[p]) for p in st.players})
    arranged = st.options["deck_order"] == "arranged"
    hiding = [p for p in st.players if p not in st.out and not (arranged and p == player)]
    sets = {p: Counter(st.stack[p] + [c for c, up in st.play[p] if not up]) for p in hiding}
    if st.round == 1:
        sets = sum(sets.values(), Counter())
    own = list(st.stack[player]) if arranged else None
    return open_ + (sets, own)


def dm_hidden(st, player, known) -> tuple:
    arranged = st.options["deck_order"] == "arranged"
    hiding = [p for p in st.players if p not in st.out and not (arranged and p == player)]
    groups = [tuple(st.stack[p] + [c for c, up in st.play[p] if not up]) for p in hiding]
    return (sum(groups, ()),) if st.round == 1 else tuple(groups)


def dm_positions(gamedef, options, seed, observe, every=1):
    """Deck Management's only real choices are between tricks, when nothing is hidden in
    play; the tricks' ``turn`` steps are decisions too (forced), so stop there as well."""
    rng = random.Random(seed)
    state = gamedef.new_game(options, rng)
    n = 0
    while not state.is_terminal():
        node = state.node()
        if node.kind == "chance":
            state.apply_chance(node.choice.sample(rng))
            continue
        n += 1
        if n % 7 == 0 or any(not ch.is_forced() for ch in node.choices.values()):
            yield state, next(iter(node.choices))
        state.apply({p: gamedef.heuristic(state, p, rng) for p in node.choices})


@pytest.mark.parametrize("options", [
    {"players": 2, "deck_order": "shuffled", "max_rounds": 200},
    {"players": 3, "deck_order": "shuffled", "max_rounds": 200},
    {"players": 2, "deck_order": "arranged", "max_rounds": 200},
    {"players": 4, "deck_order": "arranged", "max_rounds": 200},
])
def test_deck_management_determinize(options):
    check_positions(deck_management.GAME, options, [f"dm{i}" for i in range(3)],
                    lambda: Revealed(()), dm_visible, dm_hidden, dm_supply,
                    lambda o: DECK, worlds=12, positions=dm_positions)


def test_deck_management_round_one_mixes_the_stacks():
    """In round 1 nobody knows whose stack an unseen card is in: cards cross stacks."""
    game = deck_management.GAME
    st = game.new_game(game.resolve({}), random.Random(3))
    st.apply({p: "turn" for p in st.node().choices})
    crossed = set()
    for k in range(10):
        w = game.determinize(st, "p1", random.Random(k))
        crossed |= set(w.stack["p1"]) & set(st.stack["p2"])
    assert crossed


# --------------------------------------------------------------------------- Battle
#: who owns which suits (rules: "What you need"): two players, red against black; four
#: players, a suit each from two decks
OWNED = {2: {"p1": "HD", "p2": "CS"}, 4: {"p1": "H", "p2": "S", "p3": "D", "p4": "C"}}


def battle_supply(st) -> tuple:
    """Each player's cards (deck, hand, discard pile, play area) with the killed cards of
    their suits: every card stays with the player of its colour or suit."""
    owned = OWNED[st.options["players"]]
    return tuple(Counter(st.deck[p] + st.hand[p] + st.discard[p] + [c for c, _ in st.play[p]]
                         + [c for c in st.killed if c.suit in owned[p]])
                 for p in st.players)


def battle_full(options) -> tuple:
    n = options["players"]
    return tuple(suit_cards(OWNED[n][p], 2 if n == 4 else 1) for p in OWNED[n])


def battle_visible(st, player, known) -> tuple:
    # the hand is the player's own; discard piles, the Killed pile and face-up battle cards
    # lie open; each opponent's hand and deck are known together as a set (their colour
    # less what lies open), the player's own deck as a set too
    return ((list(st.hand[player]), list(st.killed), sorted(st.out), st.turns,
             list(st.battle["fighters"]) if st.battle else [])
            + tuple((list(st.discard[p]), [c if up else "?" for c, up in st.play[p]],
                     len(st.deck[p]), len(st.hand[p]),
                     Counter(st.deck[p] + st.hand[p] + [c for c, up in st.play[p] if not up]),
                     Counter(st.deck[p]) if p == player else None)
                    for p in st.players))


def battle_hidden(st, player, known) -> tuple:
    return tuple(tuple(st.deck[p]) if p == player else
                 tuple(st.hand[p] + st.deck[p] + [c for c, up in st.play[p] if not up])
                 for p in st.players)


@pytest.mark.parametrize("options", [{"players": 2, "aces": "high"},
                                     {"players": 4, "aces": "low"}])
def test_battle_determinize(options):
    check_positions(battle.GAME, options, [f"b{i}" for i in range(3)], lambda: Revealed(()),
                    battle_visible, battle_hidden, battle_supply, battle_full, every=4)


def test_battle_decisions_never_leave_face_down_cards_in_play():
    """The rule the determinize docstring leans on: a real choice is open only before a
    battle lays its cards, so no card lies face down in play then."""
    game = battle.GAME
    for seed in range(30):
        for state, p in decisions(game, {"players": 2 + 2 * (seed % 2), "aces": "high"},
                                  f"down{seed}", lambda ev: None):
            assert all(up for q in state.players for _, up in state.play[q])


# --------------------------------------------------------------------------- the ladder
@pytest.mark.parametrize("module", [winning_the_battle, battle_lines, deck_management, battle,
                                    pytest.param(None, id="ultimate")])
def test_every_game_with_decisions_has_a_search_bot(module):
    from builder.engine import ultimate
    from builder.lab.bots import ladder
    game = (module or ultimate).GAME
    assert ladder(game, game.resolve({})) == ["random", "heuristic", "search"]
