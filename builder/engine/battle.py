"""Battle: permadeath War for two or four players (seed 003; no designer named).

Rulings (RULINGS.md, "Battle", and R0.1-R0.3), with the project's readings of the gaps
(printed in the rulebook's Clarifications):

* Two players: p1 takes the 26 red cards (hearts and diamonds), p2 the 26 black cards
  (clubs and spades). Four players, two decks: p1 hearts, p2 spades, p3 diamonds, p4
  clubs, two of every rank each. A card always belongs to the player of its colour/suit.
* Each player has a deck (top first), a hand of up to 2, a face-up discard pile and a
  place in the play area; the Killed pile is shared and out of the game.
* A turn: every player still in plays one hand card at the same time (one joint
  decision, R0.2). A single highest card goes on top of its owner's discard pile; the
  others are killed. A tie for highest starts a battle among the tied players; the
  others' cards are killed.
* Battle round 1: a fighter with a hand card chooses ``hand-up`` or ``deck-up`` (one
  joint decision of those fighters) *before* the deck card is taken; the hand card and
  the top deck card are laid, one face down, one face up. A fighter without a hand card,
  and every fighter in later rounds, lays two deck cards: first face down, then face up
  (a forced step). When a deck runs dry while laying, the discard pile is reshuffled (a
  chance node) and laying resumes where it stopped.
* The highest face-up card wins the battle: its owner's battle cards (tied card
  included) go onto their discard pile in the order laid, the last on top; every other
  fighter's battle cards are killed. Fighters below a renewed tie drop out and their
  cards are killed at once; the tied ones fight another round.
* Before each battle round every fighter must be able to supply its two cards from hand,
  deck and discard pile; a fighter who cannot is out, and all of their cards are killed.
  If that leaves one fighter, they win the battle; none, the battle has no winner.
* After a turn, a player with no cards left is out. The game ends when at most one
  player is in: that player wins; if nobody is left (every fighter of a last battle was
  short), the game is a draw.
* Refill, in player order: draw up to 2 from the deck; with deck and hand empty, the
  discard pile is reshuffled (a chance node, outcome = the new order top first) and the
  player draws up to 2; with an empty deck and one card in hand, the player plays on.

Step bound (``max_steps``), with N the number of cards (52 or 104) and P the players:

* every turn kills at least 1 + 2R cards, R being the battle rounds it lays: a plain
  turn has at least one loser; a battle ends with a loser (tied card + 2 per round) or
  with short fighters whose cards (as many) are killed. Decision steps are one per turn
  plus one per battle round, so at most N;
* a reshuffle needs a non-empty discard pile. While a battle is on, nothing reaches a
  discard pile, so a player reshuffles at most once in a battle (the supply check
  guarantees the second card of a round never needs a second reshuffle), and at most
  once while refilling after a turn; plus at most P reshuffles pending in a set-up
  position. Turns are at most N, so chance steps are at most 2PN + P.

Hence at most N + 2PN + P steps: 262 for two players, 940 for four.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Any

from .core import (
    ACE_HIGH,
    ACE_LOW,
    Card,
    ChanceNode,
    DecisionNode,
    Event,
    GameDef,
    OneOf,
    Option,
    OrderOf,
    Result,
    SetupError,
    State,
    Zone,
    cards_str,
    full_deck,
    lead_of,
    parse_cards,
)

OPTIONS = {
    "players": Option("players", 2, "Two players (red against black, one deck) or four "
                      "(a suit each, two decks).", choices=(2, 4)),
    "aces": Option("aces", "high", "Aces rank above kings (high, A=14) or below twos "
                   "(low, A=1).", choices=("high", "low")),
}

#: the suits each player owns, by number of players
SUITS_OF = {
    2: {"p1": ("H", "D"), "p2": ("C", "S")},
    4: {"p1": ("H",), "p2": ("S",), "p3": ("D",), "p4": ("C",)},
}

RULES = frozenset({
    "play-card", "highest-wins", "killed", "refill", "play-on", "reshuffle",
    "battle", "battle-lay", "battle-no-hand", "battle-again", "battle-reshuffle",
    "battle-end", "clar-dropout", "cannot-supply", "clar-out", "clar-all-short",
    "all-killed", "last-standing",
})

EVENT_KINDS = {
    "play": "a player plays a card from hand face up",
    "win": "the single highest card goes onto its owner's discard pile",
    "kill": "cards go to the Killed pile (data: count)",
    "tie": "the highest cards tie and a battle begins (data: fighters)",
    "lay": "a fighter lays two battle cards, cards = face down then face up "
           "(data: how = hand-up, deck-up or from-deck; round)",
    "battle-tie": "the face-up battle cards tie again (data: round, fighters)",
    "battle-win": "a fighter wins the battle and puts their own battle cards onto their "
                  "discard pile (data: count)",
    "reshuffle": "a player shuffles their discard pile into a new deck, cards = the new "
                 "order top first (data: count, during = refill or battle)",
    "must-reshuffle": "a player needs a card from an empty deck; a reshuffle (chance) "
                      "follows (data: during = refill or battle)",
    "draw": "a player draws cards from their deck into their hand (data: count)",
    "play-on": "a player's deck is empty and they play on with the one card in hand",
    "short": "a fighter cannot supply the two cards a battle round needs (data: has)",
    "out": "a player is out of the game",
    "game-over": "the game ends (data: winner, reason)",
}

VIEW_KEYS = {
    "{p}.deck": "the player's deck, top first",
    "{p}.hand": "the player's hand, in the order the cards came into it",
    "{p}.discard": "the player's face-up discard pile, top first",
    "{p}.play": "the player's cards in the play area, in the order laid (face down ones too)",
    "{p}.cards": "how many cards the player still has (deck, hand, discard pile, play area)",
    "{p}.status": "in, or out once the player is out of the game",
    "killed": "the Killed pile, top first",
    "turns": "turns played so far (counted when the cards are played)",
    "turn.winner": "whose card survived the last finished turn (a player, or none)",
    "battle.round": "battle rounds laid in the current or last turn (0: no battle)",
    "fighters": "the players in the battle under way (empty when there is none)",
    "result": "the winner (p1 ... p4), draw once the game is over, none before",
}

HAND_UP, DECK_UP, FROM_DECK = "hand-up", "deck-up", "from-deck"


def players_of(options: dict[str, Any]) -> list[str]:
    return [f"p{i}" for i in range(1, options["players"] + 1)]


def owner_of(options: dict[str, Any], card: Card) -> str:
    for p, suits in SUITS_OF[options["players"]].items():
        if card.suit in suits:
            return p
    raise AssertionError(card)  # pragma: no cover - every suit has an owner


_CARDS_OF: dict[tuple[int, str], tuple[Card, ...]] = {}


def cards_of(options: dict[str, Any], player: str) -> list[Card]:
    """The 26 cards a player starts with (two of each rank of one suit with four players)."""
    key = (options["players"], player)
    if key not in _CARDS_OF:  # worked out once: the bot asks for it every decision
        copies = 2 if options["players"] == 4 else 1
        _CARDS_OF[key] = tuple(full_deck(SUITS_OF[options["players"]][player]) * copies)
    return list(_CARDS_OF[key])


def copies_of(options: dict[str, Any]) -> int:
    return 2 if options["players"] == 4 else 1


def _join(players: list[str]) -> str:
    names = [f"{{{p}}}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _s(n: int, word: str = "card") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _only(n: int, word: str = "card") -> str:
    """"no cards" or "only 1 card": how many a player is short with, read aloud."""
    return f"no {word}s" if n == 0 else f"only {_s(n, word)}"


class BattleState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], decks: dict[str, list[Card]],
                 hands: dict[str, list[Card]], discards: dict[str, list[Card]],
                 killed: list[Card]):
        super().__init__(options)
        self.num_players = options["players"]
        self.rank = ACE_HIGH if options["aces"] == "high" else ACE_LOW
        ps = self.players
        self.deck = {p: list(decks.get(p, [])) for p in ps}
        self.hand = {p: list(hands.get(p, [])) for p in ps}
        self.discard = {p: list(discards.get(p, [])) for p in ps}
        self.play: dict[str, list[tuple[Card, bool]]] = {p: [] for p in ps}
        self.killed = list(killed)
        self.out: set[str] = set()
        self.turns = 0
        self.last_winner: str | None = None
        self.rounds = 0
        # the battle under way: fighters, round, choices, deck cards taken this round (already
        # on the table), who has laid
        self.battle: dict[str, Any] | None = None
        self.refill_queue: list[str] | None = None
        self.reshuffle_for: tuple[str, str] | None = None  # (player, "refill" | "battle")
        self.last_out_rule = "all-killed"
        ev: list[Event] = []
        for p in ps:
            if not self._holding(p):
                self._knock_out(p, "all-killed", ev, quiet=True)
        if not self._check_over(ev):
            self.refill_queue = [p for p in ps if p not in self.out]
            self._refill(ev)

    # ----------------------------------------------------------------- helpers
    def value(self, card: Card) -> int:
        return self.rank[card.rank]

    def live(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def _holding(self, p: str) -> int:
        return (len(self.deck[p]) + len(self.hand[p]) + len(self.discard[p])
                + len(self.play[p]))

    def _kill(self, p: str, cards: list[Card], rule: str, text: str, ev: list[Event]) -> None:
        if not cards:
            return
        for c in cards:
            self.killed.insert(0, c)
        ev.append(Event("kill", rule, text, p, tuple(cards), {"count": len(cards)}))

    def _kill_play(self, p: str, rule: str, why: str, ev: list[Event]) -> None:
        cards = [c for c, _ in self.play[p]]
        self.play[p] = []
        self._kill(p, cards, rule, f"{{{p}}}'s {cards_str(cards)} {'is' if len(cards) == 1 else 'are'} "
                   f"killed{why}.", ev)

    def _knock_out(self, p: str, rule: str, ev: list[Event], quiet: bool = False) -> None:
        """``p`` is out: any card they still have is killed (clar-out)."""
        left = self.hand[p] + self.deck[p] + self.discard[p]
        self.hand[p], self.deck[p], self.discard[p] = [], [], []
        self._kill(p, left, "clar-out",
                   f"{{{p}}} is out, so their remaining {cards_str(left)} "
                   f"{'is' if len(left) == 1 else 'are'} killed too.", ev)
        self.out.add(p)
        self.last_out_rule = rule
        if not quiet:
            why = ("has no cards left" if rule == "all-killed"
                   else "cannot supply a battle")
            ev.append(Event("out", rule, f"{{{p}}} {why} and is out of the game.", p))

    def _check_over(self, ev: list[Event]) -> bool:
        live = self.live()
        if len(live) > 1:
            return False
        if not live:
            self._end(None, "every player still in was short of cards for the same battle",
                      "clar-all-short", ev)
        else:
            w = live[0]
            if self.num_players == 4:
                self._end(w, f"{{{w}}} is the last player left", "last-standing", ev)
            elif self.last_out_rule == "cannot-supply":
                loser = [p for p in self.players if p != w][0]
                self._end(w, f"{{{loser}}} could not supply a battle", "cannot-supply", ev)
            else:
                loser = [p for p in self.players if p != w][0]
                self._end(w, f"all of {{{loser}}}'s cards are killed", "all-killed", ev)
        return True

    def _end(self, winner: str | None, reason: str, rule: str, ev: list[Event]) -> None:
        self.result = Result(winner, reason, rule)
        self.battle = None
        self.refill_queue = None
        self.reshuffle_for = None
        text = ("{%s} wins: " % winner if winner else "The game is a draw: ") + reason + "."
        ev.append(Event("game-over", rule, text, winner, (),
                        {"winner": winner or "draw", "reason": reason}))

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | ChanceNode | None:
        if self.result is not None:
            return None
        if self.reshuffle_for is not None:
            p, ctx = self.reshuffle_for
            rule = "reshuffle" if ctx == "refill" else "battle-reshuffle"
            return ChanceNode(OrderOf(self.discard[p], rule=rule, what="discard pile"),
                              what=f"{p} shuffles their discard pile into a new deck", player=p)
        if self.battle is not None:
            b = self.battle
            deciders = {p: OneOf([HAND_UP, DECK_UP], rule="battle-lay")
                        for p in b["fighters"] if self.hand[p]}
            if deciders:
                return DecisionNode(deciders, what="each fighter with a hand card chooses "
                                    "which battle card faces up")
            rule = "battle-no-hand" if b["round"] == 1 else "battle-again"
            return DecisionNode({p: OneOf([FROM_DECK], rule=rule) for p in b["fighters"]},
                                what="each fighter lays two cards from their deck")
        return DecisionNode(
            {p: OneOf(list(dict.fromkeys(self.hand[p])), rule="play-card") for p in self.live()},
            what="every player plays a card from hand",
        )

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        ev: list[Event] = []
        if self.battle is not None:
            b = self.battle
            b["choice"] = {p: decisions.get(p, FROM_DECK) for p in b["fighters"]}
            b["drawn"] = {p: [] for p in b["fighters"]}
            b["laid"] = []
            self._lay(ev)
            return ev
        self.turns += 1
        self.rounds = 0
        up: dict[str, Card] = {}
        for p in self.live():
            c = decisions[p]
            self.hand[p].remove(c)
            self.play[p] = [(c, True)]
            up[p] = c
            ev.append(Event("play", "play-card", f"{{{p}}} plays {c}.", p, (c,)))
        self.show()
        best = max(self.value(c) for c in up.values())
        top = [p for p in up if self.value(up[p]) == best]
        if len(top) == 1:
            w = top[0]
            self.play[w] = []
            self.discard[w].insert(0, up[w])
            ev.append(Event("win", "highest-wins",
                            f"{{{w}}}'s {up[w]} is the highest card and goes onto "
                            f"{{{w}}}'s discard pile.", w, (up[w],)))
            for p in up:
                if p != w:
                    self._kill_play(p, "killed", "", ev)
            self._end_turn(w, ev)
            return ev
        names = _join(top)
        ev.append(Event("tie", "battle",
                        f"The highest cards tie at {up[top[0]].rank}: {names} go to battle.",
                        None, tuple(up[p] for p in top), {"fighters": " ".join(top)}))
        for p in up:
            if p not in top:
                self._kill_play(p, "battle", " (not in the battle)", ev)
        self.battle = {"fighters": top, "round": 1}
        self._round_start(ev)
        return ev

    def _apply_chance(self, outcome: Any) -> list[Event]:
        ev: list[Event] = []
        p, ctx = self.reshuffle_for
        self.reshuffle_for = None
        self.deck[p] = list(outcome)
        self.discard[p] = []
        ev.append(Event("reshuffle", "reshuffle" if ctx == "refill" else "battle-reshuffle",
                        f"{{{p}}} shuffles their discard pile into a new deck of "
                        f"{_s(len(outcome))}" + (" in the middle of the battle" if ctx == "battle"
                                                 else "") + ".",
                        p, tuple(outcome), {"count": len(outcome), "during": ctx}))
        if ctx == "refill":
            self._refill(ev)
        else:
            self._lay(ev)
        return ev

    # ----------------------------------------------------------------- battles
    def _round_start(self, ev: list[Event]) -> None:
        """Check every fighter can supply two cards; then wait for the round's decision."""
        b = self.battle
        for p in list(b["fighters"]):
            have = len(self.hand[p]) + len(self.deck[p]) + len(self.discard[p])
            if have < 2:
                ev.append(Event("short", "cannot-supply",
                                f"{{{p}}} has {_only(have)} for the battle's two cards.",
                                p, (), {"has": have}))
                self._kill_play(p, "cannot-supply", " with the battle lost", ev)
                self._knock_out(p, "cannot-supply", ev)
                b["fighters"].remove(p)
        if len(b["fighters"]) == 1:
            self._win_battle(b["fighters"][0], "cannot-supply", ev)
        elif not b["fighters"]:
            self._end_turn(None, ev)

    def _lay(self, ev: list[Event]) -> None:
        """Lay the round's cards fighter by fighter; pause for a reshuffle if a deck runs dry."""
        b = self.battle
        for p in b["fighters"]:
            if p in b["laid"]:
                continue
            how = b["choice"][p]
            need = 2 if how == FROM_DECK else 1
            drawn = b["drawn"][p]
            while len(drawn) < need:
                if not self.deck[p]:
                    self.reshuffle_for = (p, "battle")
                    ev.append(Event("must-reshuffle", "battle-reshuffle",
                                    f"{{{p}}} needs a deck card for the battle, but their deck "
                                    f"is empty: they must reshuffle their discard pile.",
                                    p, (), {"during": "battle"}))
                    return
                drawn.append(self.deck[p].pop(0))
                if how == FROM_DECK:  # each deck card goes straight onto the table
                    self.play[p].append((drawn[-1], len(drawn) == 2))
            if how == HAND_UP:
                down, up = drawn[0], self.hand[p].pop(0)
                rule, text = "battle-lay", "the hand card {up} face up, the deck card face down"
            elif how == DECK_UP:
                down, up = self.hand[p].pop(0), drawn[0]
                rule, text = "battle-lay", "the hand card face down, the deck card {up} face up"
            else:
                down, up = drawn
                rule = "battle-no-hand" if b["round"] == 1 else "battle-again"
                text = "two cards from the deck: the first face down, {up} face up"
            if how != FROM_DECK:
                self.play[p] += [(down, False), (up, True)]
            b["laid"].append(p)
            ev.append(Event("lay", rule, f"{{{p}}} lays " + text.format(up=up) + ".", p,
                            (down, up), {"how": how, "round": b["round"]}))
        self.rounds = b["round"]
        self.show()
        up = {p: self.play[p][-1][0] for p in b["fighters"]}
        best = max(self.value(c) for c in up.values())
        top = [p for p in b["fighters"] if self.value(up[p]) == best]
        if len(top) == 1:
            w = top[0]
            for p in b["fighters"]:
                if p != w:
                    self._kill_play(p, "battle-end", " with the lost battle", ev)
            self._win_battle(w, "battle-end", ev)
            return
        for p in b["fighters"]:
            if p not in top:
                self._kill_play(p, "clar-dropout", " as they drop out of the battle", ev)
        names = _join(top)
        ev.append(Event("battle-tie", "battle-again",
                        f"The face-up cards tie again at {up[top[0]].rank}: {names} fight on.",
                        None, tuple(up[p] for p in top),
                        {"round": b["round"], "fighters": " ".join(top)}))
        b["fighters"] = top
        b["round"] += 1
        self._round_start(ev)

    def _win_battle(self, w: str, rule: str, ev: list[Event]) -> None:
        cards = [c for c, _ in self.play[w]]
        self.play[w] = []
        for c in cards:
            self.discard[w].insert(0, c)
        ev.append(Event("battle-win", rule,
                        f"{{{w}}} wins the battle and puts their {_s(len(cards))} "
                        f"({cards_str(cards)}) onto their discard pile.",
                        w, tuple(cards), {"count": len(cards)}))
        self._end_turn(w, ev)

    # ----------------------------------------------------------------- turn end
    def _end_turn(self, winner: str | None, ev: list[Event]) -> None:
        self.battle = None
        self.last_winner = winner
        for p in self.live():
            if not self._holding(p):
                self._knock_out(p, "all-killed", ev)
        if self._check_over(ev):
            return
        self.refill_queue = self.live()
        self._refill(ev)

    def _refill(self, ev: list[Event]) -> None:
        while self.refill_queue:
            p = self.refill_queue[0]
            drawn = []
            while len(self.hand[p]) + len(drawn) < 2 and self.deck[p]:
                drawn.append(self.deck[p].pop(0))
            self.hand[p] += drawn
            if drawn:
                ev.append(Event("draw", "refill", f"{{{p}}} draws {_s(len(drawn))}.", p,
                                tuple(drawn), {"count": len(drawn)}))
            if not self.hand[p]:
                # deck and hand empty; the discard pile cannot be (the player would be out)
                self.reshuffle_for = (p, "refill")
                ev.append(Event("must-reshuffle", "reshuffle",
                                f"{{{p}}} has no card in hand or deck: they must reshuffle "
                                f"their discard pile.", p, (), {"during": "refill"}))
                return
            if len(self.hand[p]) < 2:
                ev.append(Event("play-on", "play-on",
                                f"{{{p}}}'s deck is empty: {{{p}}} plays on with one card in hand.",
                                p, tuple(self.hand[p])))
            self.refill_queue.pop(0)
        self.refill_queue = None

    # ----------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        for p in self.players:
            v[f"{p}.deck"] = list(self.deck[p])
            v[f"{p}.hand"] = list(self.hand[p])
            v[f"{p}.discard"] = list(self.discard[p])
            v[f"{p}.play"] = [c for c, _ in self.play[p]]
            v[f"{p}.cards"] = self._holding(p)
            v[f"{p}.status"] = "out" if p in self.out else "in"
        v["killed"] = list(self.killed)
        v["turns"] = self.turns
        v["turn.winner"] = self.last_winner or "none"
        v["battle.round"] = self.rounds
        v["fighters"] = list(self.battle["fighters"]) if self.battle else []
        v["result"] = self.result.label if self.result else "none"
        return v

    def _player_zones(self, p: str, spots: dict[str, tuple[int, int]]) -> list[Zone]:
        note = "out of the game" if p in self.out else ""
        d = self.deck[p]
        return [
            Zone(f"{p}.deck", "Deck", *spots["deck"], owner=p,
                 cards=[(c, False) for c in d[:1]], count=len(d), style="pile", note=note),
            Zone(f"{p}.hand", "Hand", *spots["hand"], owner=p, seen_by="owner",
                 cards=[(c, True) for c in self.hand[p]], style="fan", note=note),
            Zone(f"{p}.discard", "Discard pile", *spots["discard"], owner=p,
                 cards=[(c, True) for c in self.discard[p][:1]], count=len(self.discard[p]),
                 style="pile", note=note),
            Zone(f"{p}.play", "Play area", *spots["play"], owner=p,
                 cards=list(self.play[p]), style="fan"),
        ]

    def table(self) -> list[Zone]:
        if self.num_players == 2:
            # three rows: each player's deck, hand and discard pile on their own side, and
            # between them the two play areas side by side (the cards being compared) with
            # the killed pile in the middle
            layout = {
                "p2": {"deck": (0, 0), "hand": (0, 1), "discard": (0, 2), "play": (1, 0)},
                "p1": {"deck": (2, 0), "hand": (2, 1), "discard": (2, 2), "play": (1, 2)},
            }
            killed_at = (1, 1)
        else:  # a cross: p1 near, p3 far, p2 on the left, p4 on the right
            layout = {
                "p3": {"deck": (0, 1), "hand": (0, 2), "discard": (0, 3), "play": (1, 2)},
                "p2": {"deck": (1, 0), "hand": (2, 0), "discard": (3, 0), "play": (2, 1)},
                "p4": {"deck": (1, 4), "hand": (2, 4), "discard": (3, 4), "play": (2, 3)},
                "p1": {"deck": (4, 1), "hand": (4, 2), "discard": (4, 3), "play": (3, 2)},
            }
            killed_at = (2, 2)
        zones = []
        for p in self.players:
            zones += self._player_zones(p, layout[p])
        zones.append(Zone("killed", "Killed", *killed_at,
                          cards=[(c, True) for c in self.killed[:1]], count=len(self.killed),
                          style="pile", note="out of the game"))
        return zones

    def all_cards(self) -> Counter:
        c = Counter(self.killed)
        for p in self.players:
            c.update(self.deck[p])
            c.update(self.hand[p])
            c.update(self.discard[p])
            c.update(card for card, _ in self.play[p])
        return c


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> BattleState:
    decks, hands = {}, {}
    for p in players_of(options):
        cards = cards_of(options, p)
        rng.shuffle(cards)
        hands[p], decks[p] = cards[:2], cards[2:]
    return BattleState(options, decks, hands, {}, [])


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> BattleState:
    ps = players_of(options)
    for key in setup:
        if key != "piles":
            raise SetupError(f"Battle's setup has only 'piles', not '{key}'", (key,))
    piles = setup.get("piles") or {}
    known = [f"{p}.{z}" for p in ps for z in ("deck", "hand", "discard")] + ["killed"]
    for name in piles:
        if name not in known:
            raise SetupError(f"unknown pile '{name}' (Battle with {len(ps)} players has: "
                             f"{', '.join(known)})", ("piles", name))
    got: dict[str, list[Card]] = {}
    seen: Counter = Counter()
    for name in known:
        raw = piles.get(name) or []
        if not isinstance(raw, (list, tuple)):
            raise SetupError(f"pile '{name}' must be a list of cards, top first", ("piles", name))
        cards = parse_cards(raw)
        for i, c in enumerate(cards):
            seen[c] += 1
            if seen[c] > copies_of(options):
                raise SetupError(f"card {c} is in the setup more often than the game has it "
                                 f"({copies_of(options)})", ("piles", name, i))
            if name != "killed":
                p = name.split(".")[0]
                if owner_of(options, c) != p:
                    suits = "/".join(SUITS_OF[options["players"]][p])
                    raise SetupError(f"{c} is not {p}'s card: {p} owns the {suits} cards",
                                     ("piles", name, i))
        got[name] = cards
    for p in ps:
        h, d = got[f"{p}.hand"], got[f"{p}.deck"]
        if len(h) > 2:
            raise SetupError(f"{p}'s hand holds at most 2 cards, not {len(h)}",
                             ("piles", f"{p}.hand"))
        if len(h) < 2 and d:
            raise SetupError(f"{p}'s hand has {len(h)} card(s) while their deck is not empty: "
                             f"a turn starts with the hand refilled to 2", ("piles", f"{p}.hand"))
    return BattleState(options, {p: got[f"{p}.deck"] for p in ps},
                       {p: got[f"{p}.hand"] for p in ps},
                       {p: got[f"{p}.discard"] for p in ps}, got["killed"])


# --------------------------------------------------------------------------- bot
def _unseen(state: BattleState, q: str) -> Counter:
    """The cards ``q`` may hold out of sight, as a Counter of the cards left."""
    return Counter({c: m for c, m in _unseen_counts(state, q).items() if m > 0})


def _unseen_counts(state: BattleState, q: str) -> dict[Card, int]:
    """The cards ``q`` may hold out of sight (hand and deck), deduced from what everyone
    can see: q's cards minus the Killed pile, q's discard pile and q's cards in play.
    (Counted down card by card, the counts that reach 0 kept: the same as subtracting
    Counters one after another once the counts under 1 are dropped, at a fraction of the
    cost in simulation.)"""
    out = dict(_START_COUNTS.get((state.options["players"], q))
               or _start_counts(state.options, q))
    suits = SUITS_OF[state.options["players"]][q]
    for c in state.killed:
        if c.suit in suits:
            out[c] -= 1
    for c in state.discard[q]:
        out[c] -= 1
    for c, _ in state.play[q]:
        out[c] -= 1
    return out


_START_COUNTS: dict[tuple[int, str], dict[Card, int]] = {}


def _start_counts(options: dict[str, Any], q: str) -> dict[Card, int]:
    counts = _START_COUNTS[(options["players"], q)] = dict(Counter(cards_of(options, q)))
    return counts


class _Odds:
    """The share of a pool of unseen cards that a value beats (or at least ties), by
    bisection over the pool's sorted values: the same fractions as counting the pool card
    by card, asked many times a decision by the search bot's playouts."""

    __slots__ = ("values", "n")

    def __init__(self, state: BattleState, counts: dict[Card, int]) -> None:
        rank = state.rank
        self.values = sorted(rank[c.rank] for c, m in counts.items() if m > 0
                             for _ in range(m))
        self.n = len(self.values)

    def below(self, v: int, equal: bool = False) -> float:
        if not self.n:
            return 1.0
        k = bisect_right(self.values, v) if equal else bisect_left(self.values, v)
        return k / self.n


def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """A sensible player who never looks at hidden cards.

    It reasons only from open information: every player's card set is known (a colour or
    a suit), and the Killed pile, the discard piles and the cards in play are face up, so
    the cards an opponent may hold (hand and deck together) can be deduced.

    * Playing a card from two: if the lower card beats everything an opponent may still
      hold, play it and keep the higher one. Else, if the higher card beats everything,
      play it. Else, if the lower card wins or ties with even chance, play it and keep the
      higher card back for the battle a tie would start (aces are kept for ties this way).
      Else play the higher card if it wins with even chance, and if not, give up the lower
      card rather than waste the higher one.
    * In a battle, put face up whichever is likelier to beat the other fighters: the known
      hand card, or the unknown deck card, judged by the average over the cards the deck
      can hold (known from the player's own cards minus those seen elsewhere).
    """
    assert isinstance(state, BattleState)
    node = state.node()
    choice = node.choices[player]
    opts = choice.enumerate()
    if len(opts) == 1:
        return opts[0]
    if state.battle is None:
        opps = [q for q in state.live() if q != player]
        pools = [_Odds(state, _unseen_counts(state, q)) for q in opps]
        hand = sorted(opts, key=state.value)
        lo, hi = hand[0], hand[-1]

        def p_win(c: Card) -> float:
            r = 1.0
            for pool in pools:
                r *= pool.below(state.value(c))
            return r

        def p_safe(c: Card) -> float:
            r = 1.0
            for pool in pools:
                r *= pool.below(state.value(c), equal=True)
            return r

        if p_win(lo) == 1.0:
            return lo
        if p_win(hi) == 1.0:
            return hi
        if p_safe(lo) >= 0.5:
            return lo
        if p_win(hi) >= 0.5:
            return hi
        return lo
    # a battle: hand-up or deck-up
    b = state.battle
    foes = [q for q in b["fighters"] if q != player]
    pools = [_Odds(state, _unseen_counts(state, q)) for q in foes]

    def score(c: Card) -> float:
        win = tie = 1.0
        for pool in pools:
            win *= pool.below(state.value(c))
            tie *= pool.below(state.value(c), equal=True)
        return win + 0.5 * (tie - win)

    mine = _unseen(state, player) - Counter(state.hand[player])
    if not state.deck[player]:  # the deck card will come from the reshuffled discard pile
        mine = Counter(state.discard[player])
    n = sum(mine.values())
    deck_score = sum(score(c) * m for c, m in mine.items()) / n if n else 0.0
    return HAND_UP if score(state.hand[player][0]) >= deck_score else DECK_UP


def determinize(state: State, player: str, rng: random.Random) -> BattleState:
    """What ``player`` cannot know, dealt again (``GameDef.determinize``, for the search bot).

    Every player's cards are known as a set (a colour or a suit), and the Killed pile, the
    discard piles and the face-up cards in play lie open, so each opponent's hand and deck
    together are known as a set, not card by card: those cards (with any they laid face
    down in a battle) are shuffled among those places, each opponent's on their own (a card
    always stays with the player of its suit). ``player`` holds their own hand, so only
    the order of their own deck is dealt again. Everything open and every count stays.
    (``player``'s own face-down battle cards stay as they lie: a choice is only ever open
    before a battle lays its cards, so there are none then.)"""
    src: BattleState = state  # type: ignore[assignment]
    st = src.clone()
    st._node = st._shown = None
    for q in st.players:
        if q == player:
            rng.shuffle(st.deck[q])
            continue
        down = [i for i, (_, up) in enumerate(st.play[q]) if not up]
        nh, nd = len(st.hand[q]), len(st.deck[q])
        pool = st.hand[q] + st.deck[q] + [st.play[q][i][0] for i in down]
        rng.shuffle(pool)
        st.hand[q], st.deck[q] = pool[:nh], pool[nh:nh + nd]
        for i, card in zip(down, pool[nh + nd:]):
            st.play[q][i] = (card, False)
    return st


def max_steps(options: dict[str, Any]) -> int:
    n = 26 * options["players"]
    p = options["players"]
    return n + 2 * p * n + p


def _supply_group(pile: str) -> str:
    return "all"


def _card_supply(options: dict[str, Any], group: str, card: Card) -> int:
    return copies_of(options)



__all__ = ["GAME", "BattleState"]


# --------------------------------------------------------------------------- print-and-play
def player_mat_art(ctx) -> str:
    """A player's mat (``art: player-mat``): the name strip, then deck, hand and discard.
    ``ctx.params``: ``cards`` (player -> which cards they play with) and ``suits`` (player
    -> the suit drawn on their spaces)."""
    d, ink, colour = ctx.draw, ctx.ink, ctx.colour
    p = ctx.player
    y = (ctx.h - d.SPACE_H) / 2
    suit = ctx.params.get("suits", {}).get(p, "")
    out = [d.mat_frame(ink, ctx.w, ctx.h, colour)]
    # the name strip, read from the player's seat turning the mat a quarter
    out.append(d.text(9.5, ctx.h / 2, ctx.names[p].upper(), 12, weight=700, fill=ink.c(colour),
                      rotate=-90, spacing=0.8))
    out.append(d.text(15.5, ctx.h / 2, ctx.params.get("cards", {}).get(p, ""), 6.5,
                      fill=ink.c("#444444"), rotate=-90))
    x = 24.0
    step = d.SPACE_W + 13.0
    out.append(d.card_space(ink, x, y, "DECK", colour, note="face down\nrefill your hand from it",
                            icon=suit))
    out.append(d.card_space(ink, x + step, y, "HAND", colour,
                            note="your two cards, face down\nlook at them any time", dashed=True))
    out.append(d.card_space(ink, x + 2 * step, y, "DISCARD", colour,
                            note="face up: your cards\nthat survived a turn", icon=suit))
    # the arrow is drawn, not typed: the mats' face (Cabin) has no arrow glyph, and a
    # fallback face would be embedded for that one character
    words, tx = "play toward the Killed pile", x + 3 * step - 4.0
    out.append(d.text(tx, ctx.h / 2, words, 6.5, rotate=-90, fill=ink.c("#444444")))
    end = ctx.h / 2 - len(words) * 6.5 * 0.3528 * 0.5 / 2 - 1.0   # the words' far end, and 1 mm
    out.append(d.arrow_up(tx - 0.8, end, 5.0, ink.c("#444444"), sw=0.3))
    return "".join(out)


def killed_mat_art(ctx) -> str:
    """The Killed pile mat (``art: killed-mat``; ``ctx.params['players']`` 2 or 4): with two
    players both play areas beside the pile, with four the seating round it."""
    d, ink, accent = ctx.draw, ctx.ink, ctx.accent
    sw, sh = d.SPACE_W, d.SPACE_H
    y = (ctx.h - sh) / 2
    out = [d.mat_frame(ink, ctx.w, ctx.h, accent)]
    if ctx.params.get("players") == 4:
        cx, cy = 40.0, ctx.h / 2
        out.append(d.rect(cx - 16, cy - 20, 32, 40, stroke=ink.c("#777777"), sw=0.3, rx=2))
        out.append(d.text(cx, cy + 1.2, "KILLED", 6.5, weight=700, fill=ink.c(accent)))
        for p, dx, dy in (("p1", 0, 28), ("p2", -30, 0), ("p3", 0, -28), ("p4", 30, 0)):
            out.append(d.text(cx + dx, cy + dy + 1.5, ctx.names[p], 8, weight=700,
                              fill=ink.c(ctx.colours.get(p, accent))))
        out.append(d.text(cx, ctx.h - 5, "seating, clockwise", 6.5, fill=ink.c("#555555")))
        out.append(d.card_space(ink, 80.0, y, "KILLED", accent, note="face up\nout for good"))
    else:
        p1, p2 = ctx.names["p1"], ctx.names["p2"]
        out.append(d.card_space(ink, 6.0, y, f"{p1.upper()} PLAYS", ctx.colours["p1"],
                                note="face down,\nthen reveal", dashed=True))
        out.append(d.card_space(ink, 6.0 + sw + 5.0, y, "KILLED", accent,
                                note="face up\nout for good"))
        out.append(d.card_space(ink, 6.0 + 2 * (sw + 5.0), y, f"{p2.upper()} PLAYS",
                                ctx.colours["p2"], note="face down,\nthen reveal", dashed=True,
                                turn=True))
    return "".join(out)




def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import count, joined, players_in, result_line, size, who

    lines = []
    for p in players_in(view):
        if view[f"{p}.status"] == "out":
            lines.append((p, "out of the game"))
            continue
        parts = [f"{size(view[f'{p}.deck'])} in deck", f"{size(view[f'{p}.hand'])} in hand"]
        if size(view[f"{p}.discard"]):
            parts.append(f"{size(view[f'{p}.discard'])} in the discard pile")
        if size(view[f"{p}.play"]):
            parts.append(f"{size(view[f'{p}.play'])} in play")
        lines.append((p, f"{count(view[f'{p}.cards'], 'card')}: " + ", ".join(parts)))
    game = []
    fighters = [f for f in view.get("fighters", []) if who(f)]
    if fighters:
        game.append(f"battle between {joined('{' + f + '}' for f in fighters)}"
                    f" (round {view['battle.round']})")
    elif who(view.get("turn.winner")):
        battle = (f" after a battle of {count(view['battle.round'], 'round', words=True)}"
                  if view.get("battle.round") else "")
        game.append(f"{{{view['turn.winner']}}}'s card survived the last turn{battle}")
    killed = size(view.get("killed", []))
    if killed:
        game.append(f"{count(killed, 'card')} killed so far")
    end = result_line(view)
    if end:
        game.append(end)
    if game:
        lines.append(("", "; ".join(game)))
    return lines




def marks(events, table) -> dict[str, str]:
    """The card that won the turn, the cards killed and, when the highest cards tie, those
    cards just played (``GameDef.marks``)."""
    out: dict[str, str] = {}
    for e in events:
        if e.kind in ("tie", "battle-tie"):
            out.update({str(c): "played" for c in e.cards})
    for e in events:
        if e.kind in ("win", "battle-win", "kill"):
            out.update({str(c): "killed" if e.kind == "kill" else "won" for c in e.cards})
    return out


def lead(state: BattleState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): of the players still
    in, the one holding the most cards (deck, hand, discards and cards in play)."""
    return lead_of({p: state._holding(p) for p in state.live()})


GAME = GameDef(
    slug="battle", title="Battle", options=OPTIONS, rule_ids=RULES, event_kinds=EVENT_KINDS,
    view_keys=VIEW_KEYS, new_game=new_game, from_setup=from_setup, heuristic=heuristic,
    max_steps=max_steps,  # one deck for two players, two decks for four
    supply=lambda options: Counter(full_deck() * (2 if options["players"] == 4 else 1)),
    option_sets=[{}, {"aces": "low"}, {"players": 4}, {"players": 4, "aces": "low"}],
    supply_group=_supply_group, card_supply=_card_supply,
    round_key="turns", round_word="turn", determinize=determinize,
    lead=lead,
    art={"player-mat": player_mat_art, "killed-mat": killed_mat_art},
    art_params={"player-mat": {"cards": "per-player", "suits": "per-player"},
                        "killed-mat": {"players": "whole"}},
    describe=describe,
    marks=marks,
)
