"""Classic War, the baseline every variant is measured against, and the engine of games
that vary it only in what options express.

Rulings (RULINGS.md, "Classic War"): 26 cards each, ace high; a tie is a war of three
face-down cards and one face-up card each, repeated while the face-up cards tie; a player
who cannot complete a war plays what they have, the last card face up; won cards go to the
bottom of the winner's deck, the winner's own cards first, each player's in the order
played; all 52 cards win; a draw after ``max_tricks`` tricks (R0.3).

There are no decisions in War: each trick is one step in which both players' only legal
decision is ``turn``. A whole trick, wars included, is one step.

Options a designer may set in ``game.yaml`` to make another game of it without code:
``wins`` (``higher`` or ``lower``: which face-up card takes the trick; with ``lower`` the
engine cites ``lower-takes`` where classic War cites ``higher-takes``), ``aces`` (``high``
or ``low``), ``war_cards`` (how many cards each player lays face down in a war) and
``max_tricks`` (the cap). Peace (``content/peace``) is War with ``wins: lower``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .core import (
    ACE_HIGH,
    ACE_LOW,
    Card,
    DecisionNode,
    Event,
    GameDef,
    OneOf,
    Option,
    Result,
    SetupError,
    State,
    Zone,
    cards_str,
    full_deck,
    parse_cards,
)
from .words import a_rank, count, trick_marks

PLAYERS = ("p1", "p2")

OPTIONS = {
    "max_tricks": Option(
        "max_tricks", 5000, "The game is a draw after this many tricks (ruling R0.3).",
        minimum=1, maximum=100000,
    ),
    "wins": Option("wins", "higher", "Which face-up card takes the trick: the higher or "
                   "the lower.", choices=("higher", "lower")),
    "aces": Option("aces", "high", "Whether the ace ranks above the king or below the two.",
                   choices=("high", "low")),
    "war_cards": Option("war_cards", 3, "How many cards each player lays face down in a war.",
                        minimum=0, maximum=10),
}

#: the rule that awards a plain trick, by the ``wins`` option
TAKES_RULE = {"higher": "higher-takes", "lower": "lower-takes"}
COMMON_RULES = frozenset({
    "turn-up", "war", "war-short", "collect", "win-all-cards", "out-of-cards", "both-out",
    "trick-cap",
})
RULES = COMMON_RULES | {TAKES_RULE["higher"]}


def rules_for(options: dict[str, Any]) -> frozenset[str]:
    return COMMON_RULES | {TAKES_RULE[options["wins"]]}

EVENT_KINDS = {
    "reveal": "a player turns a card face up (data: role = trick or general)",
    "soldiers": "a player lays cards face down in a war",
    "war": "the face-up cards tie and a war begins",
    "take": "a player takes the cards of the trick (data: count)",
    "collect": "the won cards go under the winner's deck, own cards first",
    "game-over": "the game ends (data: winner, reason)",
}

VIEW_KEYS = {
    "{p}.deck": "the player's deck, top first",
    "tricks": "tricks played so far",
    "trick.winner": "who took the last trick (p1, p2 or none)",
    "trick.wars": "how many wars the last trick needed",
    "trick.cards": "how many cards the last trick's winner took",
    "result": "p1, p2 or draw once the game is over; none before",
}


class WarState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], decks: dict[str, list[Card]]):
        super().__init__(options)
        self.decks = {p: list(decks[p]) for p in PLAYERS}
        self.in_play: dict[str, list[tuple[Card, bool]]] = {p: [] for p in PLAYERS}
        self.tricks = 0
        self.last_winner: str | None = None
        self.last_wars = 0
        self.last_taken = 0
        self._check_end_at_start()

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | None:
        if self.result is not None:
            return None
        return DecisionNode(
            {p: OneOf(["turn"], rule="turn-up") for p in PLAYERS},
            what="both turn up their top card",
        )

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        ev: list[Event] = []
        self.in_play = {p: [] for p in PLAYERS}
        played: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        up = {}
        for p in PLAYERS:
            c = self.decks[p].pop(0)
            played[p].append(c)
            self.in_play[p].append((c, True))
            up[p] = c
            ev.append(Event("reveal", "turn-up", f"{{{p}}} turns up {c}.", p, (c,),
                            {"role": "trick"}))
        wars = 0
        rank = ACE_HIGH if self.options["aces"] == "high" else ACE_LOW
        lower_wins = self.options["wins"] == "lower"
        need = self.options["war_cards"] + 1     # face down, then one face up
        while rank[up["p1"].rank] == rank[up["p2"].rank]:
            wars += 1
            ev.append(Event("war", "war",
                            f"Both show {a_rank(up['p1'].rank)}: war!", None,
                            (up["p1"], up["p2"]), {"number": wars}))
            out = [p for p in PLAYERS if not self.decks[p]]
            if out:
                self.show()
                self._finish_trick(None, played, wars)
                if len(out) == 2:
                    self._end(None, "both players ran out of cards in a war", "both-out", ev)
                else:
                    w = "p2" if out[0] == "p1" else "p1"
                    self._end(w, f"{{{out[0]}}} has no cards left for the war", "out-of-cards", ev)
                    # the war's cards stay where they lie: the game is over
                return ev
            for p in PLAYERS:
                n = min(need, len(self.decks[p]))
                cards = self.decks[p][:n]
                del self.decks[p][:n]
                down, general = cards[:-1], cards[-1]
                played[p].extend(cards)
                if down:
                    self.in_play[p].extend((c, False) for c in down)
                    rule = "war" if n == need else "war-short"
                    ev.append(Event("soldiers", rule,
                                    f"{{{p}}} lays {len(down)} card{'s' if len(down) != 1 else ''} face down"
                                    + ("" if n == need else " (all they can spare)") + ".",
                                    p, tuple(down), {"count": len(down)}))
                elif n < need:
                    ev.append(Event("soldiers", "war-short",
                                    f"{{{p}}} has only one card left and turns it up at once.",
                                    p, (), {"count": 0}))
                self.in_play[p].append((general, True))
                up[p] = general
                ev.append(Event("reveal", "war" if n == need else "war-short",
                                f"{{{p}}} turns up {general}.", p, (general,), {"role": "general"}))
        p1_higher = rank[up["p1"].rank] > rank[up["p2"].rank]
        winner = "p1" if p1_higher != lower_wins else "p2"
        loser = "p2" if winner == "p1" else "p1"
        self.show()
        taken = played[winner] + played[loser]
        self.decks[winner].extend(taken)
        self.in_play = {p: [] for p in PLAYERS}  # they left the table (drawn so at this event)
        ev.append(Event("take", "war" if wars else TAKES_RULE[self.options["wins"]],
                        f"{{{winner}}}'s {up[winner]} beats {up[loser]}: "
                        f"{{{winner}}} takes {len(taken)} cards.",
                        winner, tuple(taken), {"count": len(taken)}))
        ev.append(Event("collect", "collect",
                        f"{{{winner}}} puts them under their deck, their own cards first.",
                        winner, tuple(taken), {"count": len(taken)}))
        self._finish_trick(winner, played, wars)
        self.last_taken = len(taken)
        if not self.decks[loser]:
            self._end(winner, f"{{{winner}}} holds all 52 cards" if len(self.decks[winner]) == 52
                      else f"{{{loser}}} has no cards left", "win-all-cards"
                      if len(self.decks[winner]) == 52 else "out-of-cards", ev)
        elif self.tricks >= self.options["max_tricks"]:
            self._end(None, f"no winner after {count(self.tricks, 'trick')}", "trick-cap", ev)
        return ev

    def _finish_trick(self, winner: str | None, played: dict, wars: int) -> None:
        self.tricks += 1
        self.last_winner = winner
        self.last_wars = wars
        self.last_taken = 0
        # a winner's take has cleared the middle already
        if winner is None:
            # nobody takes a war that ended the game: the cards stay on the table
            self.in_play = {p: [(c, True) for c in played[p]] for p in PLAYERS}

    def _end(self, winner: str | None, reason: str, rule: str, ev: list[Event]) -> None:
        self.result = Result(winner, reason, rule)
        text = ("{%s} wins: " % winner if winner else "The game is a draw: ") + reason + "."
        ev.append(Event("game-over", rule, text, winner, (), {"winner": winner or "draw",
                                                                 "reason": reason}))

    def _check_end_at_start(self) -> None:
        empty = [p for p in PLAYERS if not self.decks[p]]
        if len(empty) == 2:
            self.result = Result(None, "neither player has a card", "both-out")
        elif empty:
            w = "p2" if empty[0] == "p1" else "p1"
            self.result = Result(w, f"{{{empty[0]}}} has no cards", "out-of-cards")

    # ----------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {f"{p}.deck": list(self.decks[p]) for p in PLAYERS}
        v["tricks"] = self.tricks
        v["trick.winner"] = self.last_winner or "none"
        v["trick.wars"] = self.last_wars
        v["trick.cards"] = self.last_taken
        v["result"] = self.result.label if self.result else "none"
        return v

    def table(self) -> list[Zone]:
        zones = []
        for row, p in ((0, "p2"), (1, "p1")):
            zones.append(Zone(f"{p}.deck", "Deck", row, 0, owner=p,
                              cards=[(c, False) for c in self.decks[p][:1]],
                              count=len(self.decks[p]), style="pile"))
            zones.append(Zone(f"{p}.play", "In play", row, 1, owner=p,
                              cards=list(self.in_play[p]), style="fan"))
        return zones

    def all_cards(self) -> Counter:
        c = Counter()
        for p in PLAYERS:
            c.update(self.decks[p])
            c.update(card for card, _ in self.in_play[p])
        return c


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> WarState:
    deck = full_deck()
    rng.shuffle(deck)
    return WarState(options, {"p1": deck[:26], "p2": deck[26:]})


def fast_random_game(options: dict[str, Any], rng: random.Random, trace: list | None = None,
                     ) -> tuple[int, int, str | None, bool, int, int, int, int]:
    """A whole game between random bots, played on rank numbers instead of states: the
    lab's fast path. It draws from ``rng`` exactly what the reference loop draws (the
    deal's shuffle, then each trick both players' one-way choice of "turn", which still
    draws from the generator), and follows :meth:`WarState._apply` trick for trick;
    tests/lab/test_lab.py proves it equal to the engine on thousands of seeded games. Returns
    (steps, tricks, winner or None, capped) and the design metrics' counts as the lab's
    loop reads them (``GameDef.fast_random``): every trick is one decision of two one-way
    choices, and the lead (:func:`lead`, more cards) is read after the deal and after each
    trick but the last; with ``trace`` a list, appends (p1's deck, p2's deck) as rank
    numbers, top first, after each trick."""
    rank = ACE_HIGH if options["aces"] == "high" else ACE_LOW
    deck = [rank[c.rank] for c in full_deck()]
    rng.shuffle(deck)
    d1, d2 = deck[:26], deck[26:]
    lower_wins = options["wins"] == "lower"
    need = options["war_cards"] + 1
    cap = options["max_tricks"]
    choice, turn = rng.choice, ("turn",)
    tricks = 0
    leader, since = None, 0   # 26 cards each after the deal: nobody leads

    def end(winner: str | None, capped: bool):
        led = -1 if winner is None else (since if leader == winner else tricks)
        return tricks, tricks, winner, capped, 2 * tricks, 2 * tricks, 0, led

    while True:
        choice(turn)
        choice(turn)
        u1, u2 = d1.pop(0), d2.pop(0)
        p1, p2 = [u1], [u2]
        tricks += 1
        while u1 == u2:
            if not d1 or not d2:
                if trace is not None:
                    trace.append((list(d1), list(d2)))
                return end(None if not d1 and not d2 else ("p2" if not d1 else "p1"), False)
            n1, n2 = min(need, len(d1)), min(need, len(d2))
            p1.extend(d1[:n1])
            p2.extend(d2[:n2])
            u1, u2 = d1[n1 - 1], d2[n2 - 1]
            del d1[:n1], d2[:n2]
        if (u1 > u2) != lower_wins:
            d1.extend(p1 + p2)
        else:
            d2.extend(p2 + p1)
        if trace is not None:
            trace.append((list(d1), list(d2)))
        if not d1 or not d2:
            return end("p1" if d1 else "p2", False)
        if tricks >= cap:
            return end(None, True)
        now = "p1" if len(d1) > len(d2) else "p2" if len(d2) > len(d1) else None
        if now != leader:
            leader, since = now, tricks


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> WarState:
    piles = setup.get("piles") or {}
    known = {f"{p}.deck" for p in PLAYERS}
    for name in piles:
        if name not in known:
            raise SetupError(f"unknown pile '{name}' (War has: {', '.join(sorted(known))})",
                             ("piles", name))
    for key in setup:
        if key != "piles":
            raise SetupError(f"War's setup has only 'piles', not '{key}'", (key,))
    decks = {p: parse_cards(piles.get(f"{p}.deck") or []) for p in PLAYERS}
    return WarState(options, decks)


def heuristic(state: State, player: str, rng: random.Random) -> Any:
    return "turn"  # War leaves nothing to decide


def max_steps(options: dict[str, Any]) -> int:
    return options["max_tricks"]



__all__ = ["GAME", "WarState", "cards_str"]


def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import count, result_line, who

    lines = [(p, count(len(view[f"{p}.deck"]), "card") + " in deck") for p in ("p1", "p2")]
    game = []
    winner = who(view.get("trick.winner"))
    if winner:
        wars = view.get("trick.wars", 0)
        after = f", after {count(wars, 'war', words=True)}" if wars else ""
        game.append(f"{{{winner}}} took the last trick ({count(view['trick.cards'], 'card')}{after})")
    elif view.get("tricks", 0):
        game.append("nobody took the last trick")
    end = result_line(view)
    if end:
        game.append(end)
    if game:
        lines.append(("", "; ".join(game)))
    return lines






def lead(state: WarState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): more cards in deck."""
    a, b = len(state.decks["p1"]), len(state.decks["p2"])
    return "p1" if a > b else "p2" if b > a else None


GAME = GameDef(
    slug="war", title="War", options=OPTIONS, rule_ids=RULES, event_kinds=EVENT_KINDS,
    view_keys=VIEW_KEYS, new_game=new_game, from_setup=from_setup, heuristic=heuristic,
    max_steps=max_steps, supply=lambda options: Counter(full_deck()),  # one 52-card deck
    option_sets=[{}, {"max_tricks": 200}, {"wins": "lower"},
                 {"aces": "low", "war_cards": 1, "max_tricks": 500}],
    rules_for=rules_for,
    round_key="tricks", round_word="trick", cap_rules=frozenset({"trick-cap"}),
    fast_random=fast_random_game,
    lead=lead,
    describe=describe,
    marks=trick_marks,
)
