"""Winning the Battle, Losing the War, a War variant by Carl de Visser.

Rulings (RULINGS.md, "Winning the Battle, Losing the War"): each player has a 52-card deck
of their own; K is high, A is low, suits never matter. Three stones start in the middle.
Each battle both players choose *in secret and at the same time* (one joint step, R0.2)
how many cards to draw: at least one, at most what is left in their deck. The cards come
off the deck in order and are never seen by their owner before they are played. They are
played out in order, position by position; pairs face each other for the length of the
shorter line. The player with more cards **outflanks**: they play the extra cards one at a
time, each time first naming a position 1..n to cover, or stopping (the rest are
discarded unseen); a cover is revealed after its position is named and only the top card
of a position counts. Then the pairs are compared: more wins takes a stone (from the
middle, else from the opponent); winning every pair takes one more by the same rule; equal
wins move no stone; a stone that cannot be taken is not taken. Every card of the battle
leaves the game. Three stones win at once. At the start of a battle a player who cannot
draw loses; if neither can, more stones wins and equal stones is a draw.

Options (house variants, not the designer's; the defaults are the game as written):
``stones`` (3, 4 or 5 start in the middle; holding them all wins) and ``clean_sweep``
(``extra``: winning every pair takes a second stone; ``none``: it takes only the one).

Steps: a battle is one joint ``draw`` step (both choose a number) followed, when one line
is longer, by one step per extra card for the outflanking player (a position number, or
``stop``). The battle is settled in the step that ends it.

Step bound (``max_steps``): let F be the number of cards in both decks plus the cards
drawn but not yet played (the outflanker's extras). F starts at 104 at most and never
grows. A draw step lowers F by at least 2 (each player puts at least one card into their
line); an outflank step lowers it by at least 1 (one extra is played, or ``stop``
discards at least one). So a game has fewer than 104 steps; the bound is 104.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .core import (
    ACE_LOW,
    Card,
    CardError,
    DecisionNode,
    Event,
    GameDef,
    IntRange,
    OneOf,
    Option,
    Result,
    SetupError,
    State,
    Zone,
    cards_str,
    full_deck,
)
from .words import NUMBERS

PLAYERS = ("p1", "p2")
#: the stones in play as the designer wrote the game (the ``stones`` option's default)
STONES = 3
#: ranks for comparing cards: K high, A low (A=1 ... K=13); suits never matter
RANK = ACE_LOW

#: house variants, not in the designer's text (the rules' "Options" say so); the defaults
#: are the game as written
OPTIONS = {
    "stones": Option("stones", STONES, "How many stones start in the middle; a player must "
                     "hold them all to win.", choices=(3, 4, 5)),
    "clean_sweep": Option("clean_sweep", "extra", "What winning every pair earns: an extra "
                          "stone (extra) or nothing more (none).", choices=("extra", "none")),
}

RULES = frozenset({
    # main rules
    "draw", "line-up", "outflank", "stop-early", "count-wins", "take-stone", "clean-sweep",
    "equal-wins", "clear", "three-stones", "cannot-draw", "both-empty",
    # clarifications the engine cites where a ruling decides the point
    "c-ranks", "c-draw-count", "c-shorter-line", "c-outflank", "c-stones", "c-cards-leave",
    "c-game-end",
})


def rules_for(options: dict[str, Any]) -> frozenset[str]:
    """The rules cited under ``options``: without the sweep's extra stone no battle cites
    ``clean-sweep``."""
    return RULES if options["clean_sweep"] == "extra" else RULES - {"clean-sweep"}

EVENT_KINDS = {
    "counts": "both players reveal the numbers they chose in secret (data: p1, p2)",
    "draw": "a player draws cards from the top of their deck, unseen (data: count)",
    "line": "a player plays out the cards of their line in order (cards; data: count)",
    "extras": "one line is longer: the extra cards stay face down in hand (data: count, pairs)",
    "cover": "the outflanker covers a position with an extra card, revealed after the choice "
             "(cards: the new card; data: position, covers, against, now = who wins the "
             "position now: p1, p2 or tie)",
    "stop": "the outflanker stops and discards the remaining extras unseen (data: count)",
    "pair": "the top cards at one position are compared (cards: p1's then p2's; data: "
            "position, winner = p1, p2 or tie)",
    "wins": "the pairs won are counted (data: p1, p2, ties)",
    "stone": "a player takes a stone (data: from = middle, p1 or p2; reason = win or sweep)",
    "no-stone": "a stone is due but there is none to take (data: reason)",
    "stalemate": "equal wins: no stone moves",
    "clear": "every card of the battle leaves the game (cards; data: count)",
    "game-over": "the game ends (data: winner, reason)",
}

VIEW_KEYS = {
    "{p}.deck": "the player's deck, top first",
    "{p}.hand": "extra cards drawn but not yet played (the outflanker's), next to play first",
    "{p}.out": "the player's cards that have left the game, the most recent battle's first",
    "{p}.stones": "stones in front of the player",
    "middle.stones": "stones in the middle of the table",
    "{p}.drew": "how many cards the player drew for the current or last battle",
    "{p}.line": "the top card at each position of the player's line, position 1 first "
                "(the battle in progress, or the last battle fought)",
    "{p}.covered": "cards of the player's line lying under a cover, position by position, "
                   "lowest first (the battle in progress, or the last one)",
    "{p}.wins": "positions the player's top card wins (live while outflanking; final once "
                "the battle is settled)",
    "battle.pairs": "how many positions face each other (the shorter line's length)",
    "battle.ties": "positions whose top cards tie",
    "battle.winner": "p1 or p2 (who took the battle's stone), tie (equal wins), or none "
                     "(no battle settled yet, or one in progress)",
    "battle.sweep": "true if the last battle's winner won every pair",
    "battles": "battles settled so far",
    "outflanker": "the player now outflanking (p1 or p2), or none",
    "result": "p1, p2 or draw once the game is over; none before",
}


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class OutflankChoice(OneOf):
    """``stop``, or the number of a position (1..n) to cover with the next extra card."""

    def __init__(self, pairs: int):
        super().__init__(["stop"] + list(range(1, pairs + 1)), rule="c-outflank")
        self.pairs = pairs

    def why_illegal(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return (f"there is no position {value}: the lines face each other at positions "
                    f"1 to {self.pairs}; name one of them or stop")
        return f"{value!r} is neither a position (1 to {self.pairs}) nor 'stop'"

    def describe(self) -> str:
        return f"a position from 1 to {self.pairs}, or stop"


class WtbState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], decks: dict[str, list[Card]],
                 stones: dict[str, int], out: dict[str, list[Card]] | None = None):
        super().__init__(options)
        self.decks = {p: list(decks[p]) for p in PLAYERS}
        self.out = {p: list((out or {}).get(p, [])) for p in PLAYERS}
        self.stones = {"middle": stones["middle"], "p1": stones["p1"], "p2": stones["p2"]}
        self.hands: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        # positions of each line: a stack of cards, bottom first (the top card counts)
        self.lines: dict[str, list[list[Card]]] = {p: [] for p in PLAYERS}
        self.live = False  # a battle is in progress (its cards lie on the table)
        self.drew = {p: 0 for p in PLAYERS}
        self.outflanker: str | None = None
        self.battles = 0
        self.winner: str | None = None  # of the last settled battle: p1, p2, tie
        self.sweep = False
        # cards each player discarded unseen (for a bot's card counting: still unknown)
        self.unseen_out: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        # extras discarded unseen in the battle in progress
        self.discarded: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        self._check_start()

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | None:
        if self.result is not None:
            return None
        if self.outflanker is not None:
            p = self.outflanker
            return DecisionNode(
                {p: OutflankChoice(self.pairs())},
                what="the outflanking player names a position for the next extra card, "
                     "or stops",
            )
        return DecisionNode(
            {p: IntRange(1, len(self.decks[p]), rule="c-draw-count", what="number of cards")
             for p in PLAYERS},
            what="both choose in secret how many cards to draw",
        )

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        if self.outflanker is not None:
            return self._outflank(decisions[self.outflanker])
        return self._battle(decisions)

    def _apply_chance(self, outcome: Any) -> list[Event]:  # pragma: no cover - no chance nodes
        raise AssertionError("Winning the Battle has no chance events after the deal")

    # ----------------------------------------------------------------- a battle
    def pairs(self) -> int:
        return min(len(self.lines["p1"]), len(self.lines["p2"]))

    def top(self, p: str, i: int) -> Card:
        return self.lines[p][i][-1]

    def pos_winner(self, i: int) -> str:
        a, b = RANK[self.top("p1", i).rank], RANK[self.top("p2", i).rank]
        return "p1" if a > b else "p2" if b > a else "tie"

    def tally(self) -> dict[str, int]:
        t = {"p1": 0, "p2": 0, "tie": 0}
        for i in range(self.pairs()):
            t[self.pos_winner(i)] += 1
        return t

    def _battle(self, counts: dict[str, int]) -> list[Event]:
        ev = [Event("counts", "c-draw-count",
                    f"Both chose in secret: {{p1}} draws {counts['p1']}, "
                    f"{{p2}} draws {counts['p2']}.", None, (),
                    {"p1": counts["p1"], "p2": counts["p2"]})]
        self.live = True
        self.winner = None
        self.sweep = False
        self.outflanker = None
        drawn = {}
        for p in PLAYERS:
            n = counts[p]
            drawn[p] = self.decks[p][:n]
            del self.decks[p][:n]
            self.drew[p] = n
            ev.append(Event("draw", "draw",
                            f"{{{p}}} draws {plural(n, 'card')} from the top of their deck "
                            f"without looking.", p, (), {"count": n}))
        n = min(counts.values())
        for p in PLAYERS:
            self.lines[p] = [[c] for c in drawn[p][:n]]
            self.hands[p] = drawn[p][n:]
            ev.append(Event("line", "line-up",
                            f"{{{p}}} plays out {cards_str(drawn[p][:n])}.", p,
                            tuple(drawn[p][:n]), {"count": n}))
        longer = [p for p in PLAYERS if self.hands[p]]
        if longer:
            p = longer[0]
            k = len(self.hands[p])
            self.outflanker = p
            ev.append(Event("extras", "c-shorter-line",
                            f"Only {plural(n, 'pair')} {'is' if n == 1 else 'are'} matched: "
                            f"{{{p}}} outflanks with {plural(k, 'extra card')}, still face "
                            f"down.", p, (),
                            {"count": k, "pairs": n}))
            self.show()
            return ev
        return ev + self._settle()

    def _outflank(self, choice: Any) -> list[Event]:
        p = self.outflanker
        assert p is not None
        q = other(p)
        if choice == "stop":
            rest = self.hands[p]
            self.hands[p] = []
            self.unseen_out[p].extend(rest)
            self.discarded[p] = rest
            ev = [Event("stop", "stop-early",
                        f"{{{p}}} stops and discards "
                        + ("the last extra card" if len(rest) == 1
                           else f"the last {len(rest)} extra cards") + " unseen.",
                        p, (), {"count": len(rest)})]
            return ev + self._settle()
        i = int(choice) - 1
        card = self.hands[p].pop(0)
        under = self.top(p, i)
        again = len(self.lines[p][i]) > 1
        self.lines[p][i].append(card)
        w = self.pos_winner(i)
        against = self.top(q, i)
        verdict = ("beats" if w == p else "ties with" if w == "tie" else "loses to")
        ev = [Event("cover", "c-outflank" if again else "outflank",
                    f"{{{p}}} covers position {i + 1} with {card}"
                    + (f" on top of {under} (only the top card counts)" if again
                       else f" over {under}")
                    + f": it {verdict} {{{q}}}'s {against}.",
                    p, (card,), {"position": i + 1, "covers": str(under),
                                 "against": str(against), "now": w})]
        if not self.hands[p]:
            return ev + self._settle()
        self.show()
        return ev

    def _settle(self) -> list[Event]:
        ev: list[Event] = []
        self.outflanker = None
        n = self.pairs()
        for i in range(n):
            w = self.pos_winner(i)
            a, b = self.top("p1", i), self.top("p2", i)
            if w == "tie":
                text = f"Position {i + 1}: {a} and {b} tie."
            else:
                hi, lo = (a, b) if w == "p1" else (b, a)
                text = f"Position {i + 1}: {{{w}}}'s {hi} beats {lo}."
            ev.append(Event("pair", "c-ranks", text, None if w == "tie" else w, (a, b),
                            {"position": i + 1, "winner": w}))
        t = self.tally()
        ev.append(Event("wins", "count-wins",
                        f"{{p1}} wins {plural(t['p1'], 'pair')}, {{p2}} wins {t['p2']}"
                        + (f", {t['tie']} tied." if t["tie"] else "."), None, (),
                        {"p1": t["p1"], "p2": t["p2"], "ties": t["tie"]}))
        self.show()
        if t["p1"] == t["p2"]:
            self.winner = "tie"
            ev.append(Event("stalemate", "equal-wins", "Equal wins: no stone moves.", None))
        else:
            w = "p1" if t["p1"] > t["p2"] else "p2"
            self.winner = w
            self.sweep = t[w] == n
            ev.append(self._take_stone(w, "win"))
            if self.sweep and self.options["clean_sweep"] == "extra":
                ev.append(self._take_stone(w, "sweep"))
        # every card of the battle leaves the game
        gone: list[Card] = []
        discarded = self.discarded["p1"] + self.discarded["p2"]
        covered = False
        for p in PLAYERS:
            cards = [c for stack in self.lines[p] for c in stack] + self.discarded[p]
            self.discarded[p] = []
            covered = covered or any(len(s) > 1 for s in self.lines[p])
            gone += cards
            self.out[p] = cards + self.out[p]
        self.live = False
        self.battles += 1
        ruled = covered or bool(discarded)
        ev.append(Event("clear", "c-cards-leave" if ruled else "clear",
                        f"All {plural(len(gone), 'card')} of the battle leave the game"
                        + (", covered cards and discarded extras included." if covered and discarded
                           else ", covered cards included." if covered
                           else ", discarded extras included." if discarded else "."),
                        None, tuple(gone), {"count": len(gone)}))
        for p in PLAYERS:
            if self.stones[p] >= self.options["stones"]:
                self._end(p, f"{{{p}}} holds all {NUMBERS[self.options['stones']]} stones",
                          "three-stones", ev)
                return ev
        self._check_start(ev)
        return ev

    def _take_stone(self, w: str, reason: str) -> Event:
        q = other(w)
        rule = "take-stone" if reason == "win" else "clean-sweep"
        lead = ("" if reason == "win" else f"{{{w}}} won every pair: a clean sweep earns another "
                "stone. ")
        if self.stones["middle"] > 0:
            self.stones["middle"] -= 1
            self.stones[w] += 1
            return Event("stone", rule, lead + f"{{{w}}} takes a stone from the middle.", w, (),
                         {"from": "middle", "reason": reason})
        if self.stones[q] > 0:
            self.stones[q] -= 1
            self.stones[w] += 1
            return Event("stone", rule, lead + f"The middle is empty: {{{w}}} takes a stone "
                         f"from {{{q}}}.", w, (), {"from": q, "reason": reason})
        return Event("no-stone", "c-stones",
                     lead + f"No stone is left to take (none in the middle, none with {{{q}}}), "
                     "so none is taken.", w, (), {"reason": reason})

    def _check_start(self, ev: list[Event] | None = None) -> None:
        """At the start of a battle, a player who cannot draw loses."""
        out = [p for p in PLAYERS if not self.decks[p]]
        ev = ev if ev is not None else []
        if len(out) == 2:
            a, b = self.stones["p1"], self.stones["p2"]
            if a == b:
                self._end(None, f"neither player can draw and both hold "
                                f"{plural(a, 'stone')}", "c-game-end", ev)
            else:
                w = "p1" if a > b else "p2"
                self._end(w, f"neither player can draw and {{{w}}} holds more stones "
                             f"({max(a, b)} to {min(a, b)})", "both-empty", ev)
        elif out:
            w = other(out[0])
            self._end(w, f"{{{out[0]}}} has no card left to draw at the start of a battle",
                      "cannot-draw", ev)

    def _end(self, winner: str | None, reason: str, rule: str, ev: list[Event]) -> None:
        self.result = Result(winner, reason, rule)
        text = ("{%s} wins: " % winner if winner else "The game is a draw: ") + reason + "."
        ev.append(Event("game-over", rule, text, winner, (),
                        {"winner": winner or "draw", "reason": reason}))

    # ----------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        t = self.tally()
        for p in PLAYERS:
            v[f"{p}.deck"] = list(self.decks[p])
            v[f"{p}.hand"] = list(self.hands[p])
            v[f"{p}.out"] = list(self.out[p])
            v[f"{p}.stones"] = self.stones[p]
            v[f"{p}.drew"] = self.drew[p]
            v[f"{p}.line"] = [s[-1] for s in self.lines[p]]
            v[f"{p}.covered"] = [c for s in self.lines[p] for c in s[:-1]]
            v[f"{p}.wins"] = t[p]
        v["middle.stones"] = self.stones["middle"]
        v["battle.pairs"] = self.pairs()
        v["battle.ties"] = t["tie"]
        v["battle.winner"] = self.winner or "none"
        v["battle.sweep"] = self.sweep
        v["battles"] = self.battles
        v["outflanker"] = self.outflanker or "none"
        v["result"] = self.result.label if self.result else "none"
        return v

    def table(self) -> list[Zone]:
        zones: list[Zone] = []
        rows = {"p2": (0, 1), "p1": (4, 3)}  # (own row, line row)
        for p in PLAYERS:
            own, line = rows[p]
            zones.append(Zone(f"{p}.deck", "Deck", own, 0, owner=p,
                              cards=[(c, False) for c in self.decks[p][:1]],
                              count=len(self.decks[p]), style="pile"))
            zones.append(Zone(f"{p}.hand", "Extra cards (unseen)", own, 1, owner=p,
                              cards=[(c, False) for c in self.hands[p][:1]],
                              count=len(self.hands[p]), style="pile"))
            # extra cards discarded by stopping are out of the game as the battle settles
            gone = self.discarded[p] + self.out[p]
            zones.append(Zone(f"{p}.out", "Out of the game", own, 2, owner=p,
                              cards=[(c, False) for c in gone[:1]],
                              count=len(gone), style="pile"))
            zones.append(Zone(f"{p}.stones", "Stones", own, 3, owner=p, cards=[],
                              count=self.stones[p], style="tokens",
                              note=plural(self.stones[p], "stone")))
            if self.live:
                for i, stack in enumerate(self.lines[p]):
                    zones.append(Zone(f"{p}.pos{i + 1}", f"Position {i + 1}", line, i, owner=p,
                                      cards=[(c, True) for c in stack], style="stack",
                                      note="covered" if len(stack) > 1 else ""))
        zones.append(Zone("middle.stones", "Stones in the middle", 2, 0, cards=[],
                          count=self.stones["middle"], style="tokens",
                          note=plural(self.stones["middle"], "stone")))
        return zones

    def all_cards(self) -> Counter:
        c: Counter = Counter()
        for p in PLAYERS:
            c.update(self.decks[p])
            c.update(self.hands[p])
            c.update(self.out[p])
            if self.live:
                for s in self.lines[p]:
                    c.update(s)
        return c


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> WtbState:
    decks = {}
    for p in PLAYERS:
        d = full_deck()
        rng.shuffle(d)
        decks[p] = d
    return WtbState(options, decks, {"middle": options["stones"], "p1": 0, "p2": 0})


PILES = ("p1.deck", "p2.deck", "p1.out", "p2.out")


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> WtbState:
    setup = setup or {}
    for key in setup:
        if key not in ("piles", "stones"):
            raise SetupError(f"this game's setup has 'piles' and 'stones', not '{key}'", (key,))
    piles = setup.get("piles") or {}
    if not isinstance(piles, dict):
        raise SetupError("piles must map pile names to lists of cards", ("piles",))
    for name in piles:
        if name not in PILES:
            raise SetupError(f"unknown pile '{name}' (this game has: {', '.join(PILES)})",
                             ("piles", name))
    got: dict[str, list[Card]] = {}
    for name in PILES:
        raw = piles.get(name) or []
        if not isinstance(raw, (list, tuple)):
            raise SetupError(f"pile '{name}' must be a list of cards, top first", ("piles", name))
        cards = []
        for i, x in enumerate(raw):
            try:
                cards.append(Card.parse(x))
            except CardError as e:
                raise SetupError(str(e), ("piles", name, i)) from None
        got[name] = cards
    for p in PLAYERS:
        seen: set[Card] = set()
        for name in (f"{p}.deck", f"{p}.out"):
            for i, c in enumerate(got[name]):
                if c in seen:
                    raise SetupError(f"{c} appears twice in {p}'s cards (each deck has one of "
                                     f"each card)", ("piles", name, i))
                seen.add(c)
    total = options["stones"]
    stones = {"middle": total, "p1": 0, "p2": 0}
    if "stones" in setup:
        raw = setup["stones"]
        if not isinstance(raw, dict):
            raise SetupError("stones must map middle, p1 and p2 to numbers, e.g. "
                             "{middle: 1, p1: 1, p2: 1}", ("stones",))
        stones = {"middle": 0, "p1": 0, "p2": 0}
        for k, v in raw.items():
            if k not in stones:
                raise SetupError(f"stones can lie in the middle or with p1 or p2, not '{k}'",
                                 ("stones", k))
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise SetupError(f"stones.{k} must be a whole number from 0 to {total}, got {v!r}",
                                 ("stones", k))
            stones[k] = v
        if sum(stones.values()) != total:
            raise SetupError(f"there are exactly {total} stones; this setup places "
                             f"{sum(stones.values())}", ("stones",))
        for p in PLAYERS:
            if stones[p] == total:
                raise SetupError(f"{p} already holds all {NUMBERS[total]} stones: the game "
                                 f"would be over",
                                 ("stones", p))
    return WtbState(options, {p: got[f"{p}.deck"] for p in PLAYERS}, stones,
                    {p: got[f"{p}.out"] for p in PLAYERS})


# --------------------------------------------------------------------------- bot
def _battle_value(mine: int, theirs: int, pairs: int, sweep: bool = True) -> float:
    """Stones a battle's line is worth to me: +1 for more wins, +1 more for a clean sweep
    (where ``sweep``: the ``clean_sweep`` option's extra stone); the same taken away when
    the opponent has more."""
    if mine > theirs:
        return 1.0 + (sweep and mine == pairs)
    if theirs > mine:
        return -1.0 - (sweep and theirs == pairs)
    return 0.0


def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """A sensible player who never looks at a hidden card.

    *How many to draw* uses only public facts: deck sizes and stones. The player spreads
    their deck over the battles they still need (one per missing stone, plus one to spare)
    and tries to draw one card more than the opponent's like-minded share, since the longer
    line outflanks. They add a little noise so as not to be predictable (the planned number
    half the time, one less or one more a quarter of the time each), and keep one card
    back so as not to lose by being unable to draw, unless this battle can end the game in
    their favour: they need one stone and hold more cards than the opponent (who then
    cannot match them, so they are sure to outflank).

    *Outflanking* looks at the lines (face up, so public) and estimates the next extra
    card's rank from the cards of their own deck they have not yet seen (what is left in
    deck and hand plus extras discarded unseen; a player can work this out from the cards
    revealed so far, and the order is never used). For each position it works out the
    expected change in the battle's worth (stones won or saved, sweep included, a stone
    saved weighing as much as a stone won; a bonus of a hundredth of a stone per pair of
    expected change in the win margin breaks ties) if the next card covered it. It
    covers the best position, which will be one currently lost or tied, and stops when no
    position can be improved in expectation (e.g. every pair is already won).
    """
    st: WtbState = state  # type: ignore[assignment]
    node = st.node()
    assert node is not None and node.kind == "decision"
    q = other(player)
    if st.outflanker == player:
        pool = Counter(RANK[c.rank] for c in
                       st.decks[player] + st.hands[player] + st.unseen_out[player])
        total = sum(pool.values())
        n = st.pairs()
        t = st.tally()
        mine, theirs = t[player], t[q]
        sweep = st.options["clean_sweep"] == "extra"
        now = _battle_value(mine, theirs, n, sweep)
        best, best_pos = 0.0, None
        for i in range(n):
            cur = st.pos_winner(i)
            o = RANK[st.top(q, i).rank]
            score = 0.0
            for r, k in pool.items():
                new = player if r > o else "tie" if r == o else q
                m = mine - (cur == player) + (new == player)
                th = theirs - (cur == q) + (new == q)
                gain = _battle_value(m, th, n, sweep) - now + 0.01 * ((m - th) - (mine - theirs))
                score += gain * k / total
            if score > best + 1e-9:
                best, best_pos = score, i + 1
        return "stop" if best_pos is None else best_pos
    # how many cards to draw
    d_me, d_op = len(st.decks[player]), len(st.decks[q])
    if d_me == 1:
        return 1
    need = st.options["stones"] - st.stones[player]
    opp_need = st.options["stones"] - st.stones[q]
    my_share = d_me / (need + 1)
    opp_share = d_op / (opp_need + 1)
    target = round(max(my_share, opp_share + 1)) + rng.choice((-1, 0, 0, 1))
    cap = d_me - 1
    if need == 1 and d_me > d_op:
        cap = d_me
        target = max(target, d_op + 1)
    return max(1, min(cap, target))


def determinize(state: State, player: str, rng: random.Random) -> WtbState:
    """What ``player`` cannot know, dealt again (``GameDef.determinize``, for the search bot).

    Nobody ever sees a card before it is played (golden rule "Nobody peeks"): for each
    player, the cards in their deck, the extras face down in their hand and the extras they
    discarded unseen are known only as a set (their own 52 cards less every card revealed),
    the order and places never. Those cards are shuffled among those places, separately for
    each player (the decks never mix); every revealed card (the lines, the covers, the out
    pile's revealed cards), every count and the stones stay as they are. ``player`` knows no
    more of their own deck than of the opponent's, so both are dealt again."""
    src: WtbState = state  # type: ignore[assignment]
    st = src.clone()
    st._node = st._shown = None
    for p in PLAYERS:
        slots = [("decks", i) for i in range(len(st.decks[p]))]
        slots += [("hands", i) for i in range(len(st.hands[p]))]
        where = {c: i for i, c in enumerate(st.out[p])}
        slots += [("out", where[c]) for c in st.unseen_out[p]]
        pool = [getattr(st, pile)[p][i] for pile, i in slots]
        rng.shuffle(pool)
        for (pile, i), card in zip(slots, pool):
            getattr(st, pile)[p][i] = card
        st.unseen_out[p] = [st.out[p][where[c]] for c in src.unseen_out[p]]
    return st


def max_steps(options: dict[str, Any]) -> int:
    """Fewer than 104 steps: see the module docstring for the proof."""
    return 2 * 52



__all__ = ["GAME", "WtbState", "heuristic"]


def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import count, result_line, size, who

    lines = []
    for p in PLAYERS:
        text = (f"{count(view[f'{p}.stones'], 'stone', words=True)}, "
                f"{size(view[f'{p}.deck'])} in deck")
        if size(view[f"{p}.hand"]):
            text += f", {size(view[f'{p}.hand'])} extra drawn"
        if size(view[f"{p}.out"]):
            text += f", {size(view[f'{p}.out'])} out of the game"
        lines.append((p, text))
    game = [f"{count(view['middle.stones'], 'stone', words=True)} in the middle"]
    w = view.get("battle.winner", "none")
    if who(w):
        sweep = ", winning every pair" if view.get("battle.sweep") else ""
        game.append(f"{{{w}}} took the last battle's stone{sweep}")
    elif w == "tie":
        game.append("the last battle was a tie")
    out = view.get("outflanker", "none")
    if who(out):
        game.append(f"{{{out}}} is outflanking")
    end = result_line(view)
    if end:
        game.append(end)
    lines.append(("", "; ".join(game)))
    return lines




def marks(events, table) -> dict[str, str]:
    """The cards that won (``GameDef.marks``): of each pair event's cards, those lying in
    a place of the player who won it."""
    from .words import won_in_place

    return won_in_place(events, table, "pair")


def lead(state: State) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): more stones held."""
    st: WtbState = state  # type: ignore[assignment]
    a, b = st.stones["p1"], st.stones["p2"]
    return "p1" if a > b else "p2" if b > a else None


GAME = GameDef(
    slug="winning-the-battle", title="Winning the Battle, Losing the War", options=OPTIONS,
    rule_ids=RULES, event_kinds=EVENT_KINDS, view_keys=VIEW_KEYS, new_game=new_game,
    from_setup=from_setup, heuristic=heuristic, max_steps=max_steps,
    option_sets=[{}, {"stones": 5}, {"clean_sweep": "none"}], rules_for=rules_for,
    supply=lambda options: Counter(full_deck() * 2),  # a whole deck for each player
    supply_group=lambda pile: pile.split(".")[0] if pile.split(".")[0] in PLAYERS else "all",
    card_supply=lambda options, group, card: 1,
    round_key="battles", round_word="battle", determinize=determinize,
    lead=lead,
    describe=describe,
    marks=marks,
)
