"""Ultimate Game of All Skill: War meets Stratego, a relative of Goofspiel.

Rulings (RULINGS.md, "Ultimate Game of All Skill", and R0.1-R0.3):

* Player 1 holds the 13 clubs, Player 2 the 13 spades, each visible to its owner only.
  The 13 diamonds are shuffled face down as the prize pile; that shuffle is the game's one
  chance event (R0.1). Hearts are not used.
* K is high and A is low, both for play and for points (A = 1 ... K = 13).
* Each round a diamond is turned up; both players choose a card of their hand at the same
  time, in one joint step (R0.2). The higher card takes the **pot** (every diamond turned up
  and not yet won) together with every card played for it.
* A tie leaves the diamonds, and the two played cards, in the pot; the next diamond is
  turned up and the round is played again; its winner takes the whole pot.
* A tie on the last diamond leaves the pot unclaimed: nobody scores it.
* After the last diamond, more diamond points wins; equal points is a draw.

Flow of a game. A new game starts with the shuffle (a :class:`ChanceNode` whose outcome is
the prize pile's order, top first); as soon as the prize pile is in place its top diamond
is turned up. Each round is then ONE joint decision step: both players choose a card of
their hand (:class:`HandChoice`); the step reveals the two cards, settles the round (take,
tie, or an unclaimed last tie) and, if diamonds remain, turns up the next diamond, so the
pending decision always names the diamond it is for. An example's setup writes the prize
pile out (top first); its first diamond is turned up before the first step. With the setup
key ``shuffle: true`` the written pile is shuffled first, as a chance step.

Step bound: one shuffle plus one step per diamond, since every decision step uses up one
diamond of the prize pile and no step puts one back: at most 1 + 13 = 14 steps.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from .core import (
    ACE_LOW,
    RANKS,
    Card,
    CardError,
    ChanceNode,
    DecisionFormatError,
    DecisionNode,
    Event,
    GameDef,
    OneOf,
    OrderOf,
    Result,
    SetupError,
    State,
    Zone,
    cards_str,
    full_deck,
    lead_of,
)

PLAYERS = ("p1", "p2")
SUIT_OF = {"p1": "C", "p2": "S"}
SUIT_WORD = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
DIAMONDS = 13

OPTIONS: dict = {}

RULES = frozenset({
    "shuffle-written", "turn-up", "play", "simultaneous", "higher-takes", "ace-low",
    "tie", "tie-won", "last-tie", "scoring", "equal-points",
})

EVENT_KINDS = {
    "shuffle": "the diamonds are shuffled face down into the prize pile (a chance event)",
    "turn-up": "the top diamond of the prize pile is turned up into the pot "
               "(data: points = the diamond's points, pot = the pot's points)",
    "play": "a player lays the chosen card face down (cards: the card)",
    "reveal": "both played cards are turned up together (cards: Player 1's, then Player 2's)",
    "take": "the higher card takes the pot and every card played for it "
            "(cards: the packet taken; data: points, diamonds, count)",
    "tie": "the played cards tie: pot and played cards stay for the next diamond "
           "(data: points = the pot's points)",
    "unclaimed": "the played cards tie on the last diamond: nobody takes the pot "
                 "(data: points = the points left unclaimed)",
    "game-over": "the game ends (data: winner, p1 = Player 1's points, p2 = Player 2's points)",
}

VIEW_KEYS = {
    "{p}.hand": "the cards in the player's hand, lowest first (A low, K high)",
    "{p}.played": "the card the player played in the last round (none before the first)",
    "{p}.won": "the player's winnings pile, top first: each pot taken is laid on top as a "
               "packet (its diamonds in the order turned up, then the played cards round by "
               "round, Player 1's before Player 2's)",
    "{p}.score": "the diamond points in the player's winnings pile",
    "diamonds": "the prize pile of face-down diamonds, top first",
    "turned": "the diamond turned up for the round now being played (none when over)",
    "pot": "the turned-up diamonds not yet won, in the order turned up (after a tie on the "
           "last diamond: the diamonds left unclaimed)",
    "pot.played": "the played cards lying in the pot from tied rounds, in the order played",
    "pot.points": "the points of the diamonds in the pot",
    "round": "the number of rounds played: 13 less the cards left in a hand",
    "round.winner": "who took the last round's pot: p1, p2, tie, or none before the first",
    "result": "p1, p2 or draw once the game is over; none before",
}


#: every card's value, its rank for play and its points as a diamond alike: A = 1 ...
#: K = 13 (ruling ace-low); a table, since the engine asks for it a great deal
VALUE = {card: ACE_LOW[card.rank] for card in full_deck()}
#: what a card scores in a winnings pile (or the pot): a diamond its value, others nothing
POINTS = {card: VALUE[card] if card.suit == "D" else 0 for card in full_deck()}


def value(card: Card) -> int:
    """Rank for play and diamond points alike: A = 1 ... K = 13 (ruling ace-low)."""
    return VALUE[card]


def points(cards) -> int:
    return sum([POINTS[c] for c in cards])


def by_rank(cards) -> list[Card]:
    return sorted(cards, key=VALUE.__getitem__)


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


class HandChoice(OneOf):
    """One card of the player's hand, lowest first (the state keeps its hands so). Explains
    a refusal: a card of the wrong suit, or one that was already played."""

    def __init__(self, cards, player: str):
        OneOf.__init__(self, cards, "play")
        self.player = player

    def parse(self, raw: Any) -> Any:
        try:
            return Card.parse(raw)
        except CardError as e:
            raise DecisionFormatError(str(e)) from None

    def why_illegal(self, value_: Any) -> str:
        name = "Player 1" if self.player == "p1" else "Player 2"
        hand = cards_str(self.values)
        if isinstance(value_, Card) and value_.suit != SUIT_OF[self.player]:
            return (f"{name} plays only {SUIT_WORD[SUIT_OF[self.player]]}; {value_} is not in "
                    f"their hand ({hand})")
        return f"{value_} is not in {name}'s hand (it holds {hand})"

    def describe(self) -> str:
        return "one card of the hand: " + cards_str(self.values)


def _points_word(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


class UltimateState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], hands: dict[str, list[Card]],
                 diamonds: list[Card], won: dict[str, list[Card]] | None = None,
                 pot: list[Card] | None = None, pot_played: list[Card] | None = None,
                 shuffle: bool = False):
        super().__init__(options)
        self.hands = {p: by_rank(hands[p]) for p in PLAYERS}  # kept lowest first
        self.diamonds = list(diamonds)
        self.won = {p: list((won or {}).get(p, [])) for p in PLAYERS}
        self.pot = list(pot or [])  # diamonds, in the order turned up
        self.pot_played = list(pot_played or [])  # played cards of tied rounds
        self.on_table: dict[str, Card | None] = {p: None for p in PLAYERS}
        self.last_played: dict[str, Card | None] = {p: None for p in PLAYERS}
        self.turned: Card | None = None
        self.last_winner = "none"
        self.to_shuffle = shuffle
        if not shuffle:
            self._start([])

    # ----------------------------------------------------------------- flow
    def _start(self, ev: list[Event]) -> list[Event]:
        """Turn up the first diamond, or end the game if there is none."""
        if self.diamonds:
            self._turn_up(ev)
        else:
            self._finish(ev)
        return ev

    def _turn_up(self, ev: list[Event]) -> None:
        d = self.diamonds.pop(0)
        self.pot.append(d)
        self.turned = d
        if self.recording:
            pot_pts = points(self.pot)
            text = f"{d} is turned up ({value(d)} point{'s' if value(d) != 1 else ''})"
            if len(self.pot) > 1:
                text += f"; the pot now holds {cards_str(self.pot)}, {_points_word(pot_pts)}"
            ev.append(Event("turn-up", "turn-up", text + ".", None, (d,),
                            {"points": value(d), "pot": pot_pts}))

    def pending(self) -> DecisionNode | ChanceNode | None:
        if self.result is not None:
            return None
        if self.to_shuffle:
            return ChanceNode(OrderOf(self.diamonds, rule="shuffle-written", what="diamonds"),
                              what="shuffle the diamonds face down as the prize pile")
        return DecisionNode({p: HandChoice(self.hands[p], p) for p in PLAYERS},
                            what=self._what() if self.recording else "")

    def _what(self) -> str:
        """The decision in words, for the check's messages."""
        d = self.turned
        pot = (f"the pot holds {cards_str(self.pot)}, {_points_word(points(self.pot))}"
               if len(self.pot) > 1 else _points_word(value(d)))
        return f"{d} is turned up ({pot}); both choose a card to play face down"

    def _apply_chance(self, outcome: Any) -> list[Event]:
        self.diamonds = list(outcome)
        self.to_shuffle = False
        ev = []
        if self.recording:
            ev.append(Event("shuffle", "shuffle-written",
                            "The diamonds are shuffled face down into the prize pile.", None,
                            (), {"count": len(self.diamonds)}))
        return self._start(ev)

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        # the events are the narration: built only when recording (the lab's lean play
        # reads none of them); every change of the state is made either way
        say = self.recording
        ev: list[Event] = []
        for p in PLAYERS:
            self.hands[p].remove(decisions[p])
        c1, c2 = decisions["p1"], decisions["p2"]
        self.last_played = {"p1": c1, "p2": c2}
        if say:
            self._reveal(c1, c2, ev)
        self.pot_played += (c1, c2)
        v1, v2 = VALUE[c1], VALUE[c2]
        if v1 == v2:
            self.last_winner = "tie"
            if not self.diamonds:
                if say:
                    pot_pts = points(self.pot)
                    ev.append(Event(
                        "unclaimed", "last-tie",
                        f"{c1} ties {c2} on the last diamond: nobody takes the pot "
                        f"({cards_str(self.pot)}, {_points_word(pot_pts)}).", None,
                        tuple(self.pot), {"points": pot_pts}))
                self.turned = None
                self._finish(ev)
                return ev
            if say:
                pot_pts = points(self.pot)
                ev.append(Event("tie", "tie",
                                f"{c1} ties {c2}: the pot ({cards_str(self.pot)}, "
                                f"{_points_word(pot_pts)}) and both cards stay for the next "
                                f"diamond.", None, (c1, c2), {"points": pot_pts}))
            self._turn_up(ev)
            return ev
        winner = "p1" if v1 > v2 else "p2"
        packet = self.pot + self.pot_played
        if say:
            ev.append(self._take(winner, decisions, packet))
        self.won[winner] = packet + self.won[winner]
        self.last_winner = winner
        self.pot = []
        self.pot_played = []
        if self.diamonds:
            self._turn_up(ev)
        else:
            self.turned = None
            self._finish(ev)
        return ev

    def _reveal(self, c1: Card, c2: Card, ev: list[Event]) -> None:
        """The two cards laid face down and turned up together: their events, and the
        table at the reveal (both cards face up beside the pot) for the step's diagram."""
        self.on_table = {"p1": c1, "p2": c2}
        for p, card in self.on_table.items():
            ev.append(Event("play", "play", f"{{{p}}} lays a card face down.", p, (card,)))
        ev.append(Event("reveal", "simultaneous",
                        f"Both cards are turned up together: {{p1}}'s {c1} against "
                        f"{{p2}}'s {c2}.", None, (c1, c2)))
        self.show()
        self.on_table = {p: None for p in PLAYERS}

    def _take(self, winner: str, cards: dict[str, Card], packet: list[Card]) -> Event:
        """The event of ``winner`` taking the pot (before it is taken)."""
        loser = other(winner)
        carried = len(self.pot) > 1
        if carried:
            rule = "tie-won"
        elif "A" in (cards["p1"].rank, cards["p2"].rank):
            rule = "ace-low"
        else:
            rule = "higher-takes"
        pot_pts = points(self.pot)
        text = (f"{{{winner}}}'s {cards[winner]} beats {cards[loser]}: {{{winner}}} takes "
                f"{cards_str(self.pot)} ({pot_pts} point{'s' if pot_pts != 1 else ''})")
        if carried:
            text += f", the whole pot, with all {len(self.pot_played)} cards played for it"
        return Event("take", rule, text + ".", winner, tuple(packet),
                     {"points": pot_pts, "diamonds": len(self.pot), "count": len(packet)})

    def _finish(self, ev: list[Event]) -> None:
        s1, s2 = self.score("p1"), self.score("p2")
        if s1 == s2:
            self.result = Result(None, f"both players have {s1} points", "equal-points")
            text = f"The game is a draw: both players have {s1} points."
        else:
            w = "p1" if s1 > s2 else "p2"
            hi, lo = max(s1, s2), min(s1, s2)
            self.result = Result(w, f"{{{w}}} has {hi} points to {lo}", "scoring")
            text = f"{{{w}}} wins with {hi} points to {lo}."
        if self.recording:
            ev.append(Event("game-over", self.result.rule, text, self.result.winner, (),
                            {"winner": self.result.label, "p1": s1, "p2": s2}))

    # ----------------------------------------------------------------- views
    def score(self, p: str) -> int:
        return points(self.won[p])

    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        for p in PLAYERS:
            v[f"{p}.hand"] = list(self.hands[p])
            v[f"{p}.played"] = self.last_played[p] or "none"
            v[f"{p}.won"] = list(self.won[p])
            v[f"{p}.score"] = self.score(p)
        v["diamonds"] = list(self.diamonds)
        v["turned"] = self.turned or "none"
        v["pot"] = list(self.pot)
        v["pot.played"] = list(self.pot_played)
        v["pot.points"] = points(self.pot)
        v["round"] = DIAMONDS - len(self.hands["p1"])
        v["round.winner"] = self.last_winner
        v["result"] = self.result.label if self.result else "none"
        return v

    def table(self) -> list[Zone]:
        """Three rows: Player 2's played card, hand and winnings; the prize pile, the pot
        and the tied cards; Player 1's played card, hand and winnings. (Played cards in
        rows of their own made every diagram two rows taller for one card each.)"""
        zones = [
            Zone("diamonds", "Prize pile", 1, 0,
                 cards=[(c, False) for c in self.diamonds[:1]], count=len(self.diamonds),
                 style="pile"),
            Zone("pot", "Pot", 1, 1, cards=[(c, True) for c in self.pot], style="fan",
                 note=_points_word(points(self.pot)) if self.pot else ""),
            Zone("pot.played", "Tied cards", 1, 2, cards=[(c, True) for c in self.pot_played],
                 style="fan"),
        ]
        for p, row in (("p2", 0), ("p1", 2)):
            zones.append(Zone(f"{p}.played", "Played card", row, 0, owner=p,
                              cards=[(self.on_table[p], True)] if self.on_table[p] else [],
                              style="stack"))
            zones.append(Zone(f"{p}.hand", f"Hand ({SUIT_WORD[SUIT_OF[p]]})",
                              row, 1, owner=p, cards=[(c, True) for c in self.hands[p]],
                              style="fan", seen_by="owner"))
            zones.append(Zone(f"{p}.won", "Winnings", row, 2, owner=p,
                              cards=[(c, True) for c in self.won[p][:1]],
                              count=len(self.won[p]), style="pile",
                              note=_points_word(self.score(p))))
        return zones

    def all_cards(self) -> Counter:
        c = Counter()
        for p in PLAYERS:
            c.update(self.hands[p])
            c.update(self.won[p])
            if self.on_table[p]:
                c[self.on_table[p]] += 1
        c.update(self.diamonds)
        c.update(self.pot)
        c.update(self.pot_played)
        return c


# --------------------------------------------------------------------------- setup
PILES = ("p1.hand", "p2.hand", "diamonds", "p1.won", "p2.won", "pot", "pot.played")
ALLOWED_SUITS = {
    "p1.hand": "C", "p2.hand": "S", "diamonds": "D", "pot": "D",
    "p1.won": "CDS", "p2.won": "CDS", "pot.played": "CS",
}
PILE_WORDS = {
    "p1.hand": "Player 1's hand holds only clubs",
    "p2.hand": "Player 2's hand holds only spades",
    "diamonds": "the prize pile holds only diamonds",
    "pot": "the pot holds only diamonds (the tied cards go in pot.played)",
    "p1.won": "a winnings pile holds diamonds, clubs and spades",
    "p2.won": "a winnings pile holds diamonds, clubs and spades",
    "pot.played": "pot.played holds only clubs and spades",
}


def new_game(options: dict[str, Any], rng: random.Random) -> UltimateState:
    """A full game: 13 clubs, 13 spades, and the 13 diamonds waiting to be shuffled (the
    shuffle is the first, chance, step; play_game draws it from the seeded generator)."""
    del rng  # the shuffle is a chance node, drawn by the caller
    return UltimateState(
        options,
        {"p1": full_deck(("C",)), "p2": full_deck(("S",))},
        full_deck(("D",)), shuffle=True,
    )


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> UltimateState:
    for key in setup:
        if key not in ("piles", "shuffle"):
            raise SetupError(f"Ultimate's setup has 'piles' and 'shuffle', not '{key}'", (key,))
    shuffle = setup.get("shuffle", False)
    if not isinstance(shuffle, bool):
        raise SetupError("shuffle must be true or false", ("shuffle",))
    piles = setup.get("piles") or {}
    if not isinstance(piles, dict):
        raise SetupError("piles must map pile names to lists of cards, top first", ("piles",))
    got: dict[str, list[Card]] = {}
    for name, cards in piles.items():
        if name not in PILES:
            raise SetupError(f"unknown pile '{name}' (Ultimate has: {', '.join(PILES)})",
                             ("piles", name))
        cards = cards or []
        if not isinstance(cards, list):
            raise SetupError(f"pile '{name}' must be a list of cards, top first", ("piles", name))
        out = []
        for i, raw in enumerate(cards):
            try:
                card = Card.parse(raw)
            except CardError as e:
                raise SetupError(str(e), ("piles", name, i)) from None
            if card.suit == "H":
                raise SetupError(f"{card}: the hearts are not used in this game",
                                 ("piles", name, i))
            if card.suit not in ALLOWED_SUITS[name]:
                raise SetupError(f"{card} cannot lie here: {PILE_WORDS[name]}", ("piles", name, i))
            out.append(card)
        got[name] = out
    hands = {p: got.get(f"{p}.hand", []) for p in PLAYERS}
    diamonds = got.get("diamonds", [])
    for p in PLAYERS:
        if len(hands[p]) != len(diamonds):
            raise SetupError(
                f"{p}.hand has {len(hands[p])} cards but the prize pile has {len(diamonds)} "
                f"diamonds: each round uses one diamond and one card from each hand, so they "
                f"must be equal", ("piles", f"{p}.hand"))
    pot, pot_played = got.get("pot", []), got.get("pot.played", [])
    n1 = sum(1 for c in pot_played if c.suit == "C")
    if n1 * 2 != len(pot_played) or len(pot_played) != 2 * len(pot):
        raise SetupError(
            "pot.played must hold one club and one spade for each diamond in the pot "
            f"(pot has {len(pot)} diamonds, pot.played {len(pot_played)} cards)",
            ("piles", "pot.played" if "pot.played" in got else "pot"))
    if shuffle and (pot or not diamonds):
        raise SetupError("shuffle: true starts a game: the pot must be empty and the prize "
                         "pile must hold diamonds", ("shuffle",))
    return UltimateState(options, hands, diamonds,
                         won={p: got.get(f"{p}.won", []) for p in PLAYERS},
                         pot=pot, pot_played=pot_played, shuffle=shuffle)


# --------------------------------------------------------------------------- bot
def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """Bid in proportion to what the pot is worth, but no higher than it takes.

    The bot uses only what a player at the table knows: its own hand, the opponent's
    remaining cards (every played card has been shown, so they can be counted), the pot,
    and which diamonds are still face down (their values, never their order). It never
    looks at the opponent's choice for this round, which the engine does not even hold yet.

    1. Rate the pot: the share of still-hidden diamonds worth less than the pot (equal ones
       count half). A pot rated 0.5 or more is worth fighting for.
    2. Guess the opponent's bid: the card at about the same share of their remaining hand,
       lowest to highest (an opponent who thinks alike bids alike), give or take one card
       (that card half the time, the one below or above a quarter of the time each).
    3. Worth fighting for: bid the smallest card that beats the guess (never waste a king
       where a nine will do); if nothing beats it, give the round up with the lowest card.
       Not worth it: dump one of the lowest cards on it (any of the lowest third of the
       hand, at random).
    4. Three times in ten, bid one card higher or lower than planned, so as not to be
       read. Without this mixing two such bots holding the same cards tie round after
       round and leave most last pots unclaimed.

    Against the random bot it wins about seven games in ten.
    """
    st: UltimateState = state  # type: ignore[assignment]
    hand = st.hands[player]  # the state keeps hands lowest first
    opp = st.hands[other(player)]
    if len(hand) == 1:
        return hand[0]
    pot = points(st.pot)
    hidden = [value(d) for d in st.diamonds]
    if hidden:
        share = (sum(1 for v in hidden if v < pot) + 0.5 * sum(1 for v in hidden if v == pot)) \
            / len(hidden)
    else:
        share = 1.0
    j = round(share * (len(opp) - 1)) + rng.choice((-1, 0, 0, 1))
    guess = opp[min(max(j, 0), len(opp) - 1)]
    if share >= 0.5:
        beats = [c for c in hand if value(c) > value(guess)]
        i = hand.index(beats[0]) if beats else 0
    else:
        i = rng.randrange(max(1, len(hand) // 3))
    if rng.random() < 0.3:
        i = min(max(i + rng.choice((-1, 1)), 0), len(hand) - 1)
    return hand[i]


def fast_random_game(options: dict[str, Any], rng: random.Random, trace: list | None = None,
                     ) -> tuple[int, int, str | None, bool, int, int, int, int]:
    """A whole game between two random bots, played on numbers instead of states: the
    lab's fast path. It draws from ``rng`` exactly what the reference loop draws (the
    shuffle of the 13 diamonds, then Player 1's and Player 2's card each round, each
    ``rng.choice`` over the hand lowest first), so a seed gives the same game card for
    card; tests/lab/test_lab.py proves it on thousands of seeded games. Returns (steps,
    rounds, winner or None, capped) and the design metrics' counts as the lab's loop reads
    them (``GameDef.fast_random``): each round is one decision of two choices, as many as
    the cards in each hand, and the lead (:func:`lead`, more points) is read after the deal,
    after the shuffle and after each round but the last; with ``trace`` a list, appends
    (p1's card, p2's card, p1's score, p2's score) after each round."""
    del options
    prizes = list(range(1, DIAMONDS + 1))  # the diamonds A..K as their points
    rng.shuffle(prizes)
    h1 = list(range(1, DIAMONDS + 1))
    h2 = list(range(1, DIAMONDS + 1))
    choice = rng.choice
    s1 = s2 = pot = 0
    choices = 0
    leader, since = None, 0   # no points after the deal, nor after the shuffle (step 1)
    for r, d in enumerate(prizes, start=2):   # round r - 1 is step r
        choices += len(h1) + len(h2)
        pot += d
        c1 = choice(h1)
        c2 = choice(h2)
        h1.remove(c1)
        h2.remove(c2)
        if c1 > c2:
            s1 += pot
            pot = 0
        elif c2 > c1:
            s2 += pot
            pot = 0
        if trace is not None:
            trace.append((c1, c2, s1, s2))
        if r <= DIAMONDS:   # the lead after every step but the last
            now = "p1" if s1 > s2 else "p2" if s2 > s1 else None
            if now != leader:
                leader, since = now, r
    winner = "p1" if s1 > s2 else "p2" if s2 > s1 else None
    steps = 1 + DIAMONDS
    led = -1 if winner is None else (since if leader == winner else steps)
    return steps, DIAMONDS, winner, False, choices, 2 * DIAMONDS, 0, led


def determinize(state: State, player: str, rng: random.Random) -> UltimateState:
    """What ``player`` cannot know, dealt again: the order of the face-down diamonds. The
    opponent's hand is known (every played card was shown), so it stays."""
    src: UltimateState = state  # type: ignore[assignment]
    st = copy.copy(src)  # a shallow copy, then fresh containers for all that changes
    st.hands = {p: list(h) for p, h in src.hands.items()}
    st.won = {p: list(w) for p, w in src.won.items()}
    st.diamonds, st.pot, st.pot_played = list(src.diamonds), list(src.pot), list(src.pot_played)
    st.on_table, st.last_played = dict(src.on_table), dict(src.last_played)
    st._node = st._shown = None
    rng.shuffle(st.diamonds)
    return st


def max_steps(options: dict[str, Any]) -> int:
    """One shuffle, then one step per diamond: every round turns up a diamond and none
    returns to the prize pile, so a game has at most 1 + 13 = 14 steps."""
    return 1 + DIAMONDS



__all__ = ["GAME", "UltimateState", "HandChoice", "heuristic"]


# --------------------------------------------------------------------------- print-and-play
def points_reference_art(ctx) -> str:
    """The points reference (``art: points-reference``): every diamond with its points."""
    d, ink = ctx.draw, ctx.ink
    red = d.RED
    left, top, right, bottom = ctx.bleed      # the tint runs into the bleed
    out = [d.rect(-left, -top, ctx.w + left + right, ctx.h + top + bottom,
                  fill=ink.tint(red, 0.06))]
    out.append(d.text(4, 8.5, "Diamond points", 11, anchor="start", weight=700,
                      fill=ink.c(red), family=d.SERIF))
    out.append(d.text(ctx.w - 4, 8.5, "all thirteen: 91 · 46 or more cannot be caught", 7.5,
                      anchor="end", fill=ink.c("#444444")))
    cw = (ctx.w - 8) / 13
    for k, rank in enumerate(RANKS):
        x = 4 + k * cw
        out.append(d.rect(x + 0.6, 11.5, cw - 1.2, 15.5, fill="#ffffff" if not ink.low else "none",
                          stroke=ink.c("#777777"), sw=0.25, rx=1.2))
        out.append(d.text(x + cw / 2, 17.2, rank, 9, weight=700, fill=ink.c(red)))
        out.append(d.suit("D", x + cw / 2, 20.6, 3.6, ink.c(red)))
        out.append(d.text(x + cw / 2, 25.8, f"{k + 1}", 7.5, fill=ink.c("#333333")))
    if ink.low:
        out.append(d.rect(0, 0, ctx.w, ctx.h, stroke="#000000", sw=0.3))
    return "".join(out)




def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import count, result_line, size, who

    lines = []
    for p in PLAYERS:
        text = (f"{count(view[f'{p}.score'], 'point')} won, "
                f"{count(size(view[f'{p}.hand']), 'card')} in hand")
        if view.get(f"{p}.played", "none") != "none":
            text += f"; played {view[f'{p}.played']}"
        lines.append((p, text))
    game = [f"{view['round']} of 13 rounds played" if view["round"] else "no round played yet"]
    last = view.get("round.winner", "none")
    if who(last):
        game.append(f"{{{last}}} took the last pot")
    elif last == "tie":
        game.append("the last round was a tie")
    if size(view.get("pot", [])):
        game.append(f"{count(view['pot.points'], 'point')} in the pot")
    end = result_line(view)
    if end:
        game.append(end)
    elif view.get("turned", "none") != "none":
        game.append(f"{view['turned']} is turned up for the next round")
    lines.append(("", "; ".join(game)))
    return lines




def marks(events, table) -> dict[str, str]:
    """The bid that took the pot: the winner's card played (``GameDef.marks``)."""
    from .words import winner_reveal

    return winner_reveal(events, shown_kinds=("play",))


def lead(state: UltimateState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): more diamond points
    won, what decides the game."""
    return lead_of({p: state.score(p) for p in PLAYERS})


GAME = GameDef(
    slug="ultimate", title="Ultimate Game of All Skill", options=OPTIONS, rule_ids=RULES,
    event_kinds=EVENT_KINDS, view_keys=VIEW_KEYS, new_game=new_game, from_setup=from_setup,
    heuristic=heuristic, max_steps=max_steps, option_sets=[{}],
    supply=lambda options: Counter(full_deck(("C", "S", "D"))),  # the hearts stay in the box
    round_key="round", round_word="round", determinize=determinize,
    fast_random=fast_random_game,
    lead=lead,
    art={"points-reference": points_reference_art},
    describe=describe,
    marks=marks,
)
