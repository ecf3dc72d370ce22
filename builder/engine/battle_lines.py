"""Battle Lines, by Peter Schweighofer: War with a hand, a battle line and a reserve.

Rulings (RULINGS.md, "Battle Lines", and R0.1-R0.3):

* one 52-card deck, dealt 26 to each player as their own deck; 2..10, J=11, Q=12, K=13, A=14;
* each turn both draw up to four cards (as far as their deck allows) and deploy three face
  down, one to each of left, centre and right, keeping the fourth as the **reserve**; both
  deployments are one joint hidden step (R0.2). My left faces your right, centre faces
  centre, my right faces your left;
* after the reveal both decide at once (a second joint step) whether to reinforce: a player
  may add their reserve to ONE flank where their card is lower, if the reserve's suit
  matches either card there. Nobody answers a reinforcement;
* the higher total captures every card at the position (line cards and any reserve). A tie
  returns the line cards to their owners' hands; a reserve used at a tie goes to its owner's
  captured pile;
* if after drawing up either deck is empty, this is the last deployment: each deploys
  min(3, hand) cards and chooses which positions stay empty; only a player with four cards
  keeps a reserve; the player holding fewer cards deploys after seeing the other's line
  (equal holdings: both deploy blind). A card facing an empty position captures by default,
  into its owner's captured pile. Then more captured cards wins; equal is a draw.

Gap ruled here (R0.3): tied positions return their cards to hand, so two players can tie
every position for ever. The option ``max_turns`` (default 100) ends the game after that
many turns as a draw, as ruling R0.3 says of every game that could go on for ever
(clarification ``turn-cap``).

Steps: a normal turn is a deployment step (joint) and, when somebody can reinforce, a
reinforcement step (joint; a player without a legal reinforcement is forced to pass). The
last turn with unequal holdings has two deployment steps in sequence. Drawing up happens
at the end of the step that settles a turn (and when the game is set up).

Notation (clarification ``pile-order``): positions are settled from p1's left to p1's
right; a capture adds the winner's line card, the winner's reserve, the loser's line card,
the loser's reserve to the winner's captured pile in that order. A hand lists, in order,
the unused reserve, the cards returned from ties (the owner's left, centre, right), then
the cards drawn, top first.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .core import (
    ACE_HIGH,
    Card,
    CardError,
    Choice,
    DecisionFormatError,
    DecisionNode,
    Event,
    GameDef,
    Option,
    Result,
    SetupError,
    State,
    Zone,
    cards_str,
    full_deck,
    lead_of,
    parse_cards,
)

PLAYERS = ("p1", "p2")
POSITIONS = ("left", "centre", "right")
FLANKS = ("left", "right")
#: what each of my positions faces on the other side
FACING = {"left": "right", "centre": "centre", "right": "left"}
HAND_SIZE = 4
LINE_SIZE = 3

OPTIONS = {
    "max_turns": Option(
        "max_turns", 100,
        "After this many turns the game stops and is a draw (ruling R0.3, clarification "
        "turn-cap).",
        minimum=1, maximum=10000,
    ),
}

RULES = frozenset({
    # numbered rules
    "draw-up", "deploy", "reveal", "reinforce", "reinforce-suit", "capture", "tie",
    "deploy-second", "final-count",
    # clarifications the engine cites where a ruling decides the point
    "draw-short", "reinforce-at-once", "capture-all", "last-turn-timing",
    "short-deployment", "equal-holdings", "default-capture", "hand-not-counted", "turn-cap",
})

EVENT_KINDS = {
    "draw": "a player draws up towards four cards (data: count)",
    "last-turn": "a deck is empty after drawing up: this is the last deployment",
    "deploy-order": "in the last turn: who deploys first (data: first = p1, p2 or both)",
    "deploy": "a player deploys their line (data: left, centre, right, count)",
    "reveal": "the lines are turned face up",
    "may-reinforce": "a player's card is lower on a flank and their reserve's suit matches "
                     "(data: flank, in the player's own terms)",
    "cannot-reinforce": "a player's card is lower on a flank but their reserve cannot help "
                        "there (data: flank)",
    "reinforce": "a player adds their reserve to a flank (data: flank, total)",
    "capture": "the higher total captures every card at a position "
               "(data: position, named from p1's side; count; total)",
    "default": "a card facing an empty position captures by default (data: position)",
    "tie": "equal totals: the line cards go back to their owners' hands (data: position)",
    "tie-reserve": "a reserve used at a tied position goes to its owner's captured pile "
                   "(data: position)",
    "count": "a player's captured cards are counted at the end (data: captured, hand)",
    "game-over": "the game ends (data: winner, reason)",
}

VIEW_KEYS = {
    "{p}.deck": "the player's deck, top first",
    "{p}.hand": "the player's hand: the unused reserve, cards back from ties (own left, "
                "centre, right), then cards drawn, top first",
    "{p}.reserve": "the card kept back as reserve while the lines are out (0 or 1 card)",
    "{p}.left": "the player's left flank: the line card, then a reinforcing reserve",
    "{p}.centre": "the player's centre position",
    "{p}.right": "the player's right flank: the line card, then a reinforcing reserve",
    "{p}.captured": "the player's captured pile, in the order the cards were taken",
    "{p}.reinforced": "the flank the player reinforced in the turn being played or just "
                      "settled: left, right or none (cleared when they deploy)",
    "battle.left": "who took the last battle at p1's left flank (facing p2's right): "
                   "p1, p2, tie or none",
    "battle.centre": "who took the last battle at the centre: p1, p2, tie or none",
    "battle.right": "who took the last battle at p1's right flank (facing p2's left): "
                    "p1, p2, tie or none",
    "turns": "turns settled so far",
    "last-turn": "true once the last deployment has begun",
    "phase": "what is pending: deploy, deploy-first, deploy-second, reinforce or over",
    "result": "p1, p2 or draw once the game is over; none before",
}


def value(card: Card) -> int:
    return ACE_HIGH[card.rank]


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


def _place_name(pos: str) -> str:
    return "in the centre" if pos == "centre" else f"on the {pos} flank"


def contest_cards(position: str) -> dict[str, str]:
    """The two positions that meet in a battle named from p1's side."""
    return {"p1": position, "p2": FACING[position]}


# --------------------------------------------------------------------------- choices
@dataclass(frozen=True)
class Line:
    """A deployment: the card sent to each position (``None`` = left empty)."""

    left: Card | None
    centre: Card | None
    right: Card | None

    def at(self, pos: str) -> Card | None:
        return getattr(self, pos)

    def cards(self) -> list[Card]:
        return [c for c in (self.left, self.centre, self.right) if c is not None]

    def __str__(self) -> str:
        return "{" + ", ".join(f"{pos}: {self.at(pos) or 'empty'}" for pos in POSITIONS) + "}"


_EMPTY_WORDS = {"", "-", "none", "empty", "null"}


class Deployment(Choice):
    """Exactly ``count`` cards of the hand, at most one per position. Written in YAML as a
    mapping ``{left: 4D, centre: KS, right: 9C}``; a position left out (or written
    ``empty``) stays empty, which only the last turn allows."""

    def __init__(self, hand: list[Card], count: int, rule: str):
        self.hand = list(hand)
        self.count = count
        self.rule = rule

    def parse(self, raw: Any) -> Line:
        if not isinstance(raw, dict):
            raise DecisionFormatError(
                f"expected a deployment such as {{left: 4D, centre: KS, right: 9C}}, got {raw!r}")
        cards: dict[str, Card | None] = {pos: None for pos in POSITIONS}
        for key, val in raw.items():
            k = str(key).strip().lower()
            if k == "center":
                k = "centre"
            if k not in POSITIONS:
                raise DecisionFormatError(
                    f"unknown position '{key}' (the positions are left, centre and right)")
            if val is None or (isinstance(val, str) and val.strip().lower() in _EMPTY_WORDS):
                continue
            try:
                cards[k] = Card.parse(val)
            except CardError as e:
                raise DecisionFormatError(str(e)) from None
        return Line(cards["left"], cards["centre"], cards["right"])

    def refusal(self, v: Any) -> tuple[str, str] | None:
        if not isinstance(v, Line):
            return self.rule, f"{v!r} is not a deployment"
        used = v.cards()
        dup = [c for c, n in Counter(used).items() if n > 1]
        if dup:
            return "deploy", f"{dup[0]} is deployed twice; each card goes to one position"
        missing = [c for c in used if c not in self.hand]
        if missing:
            return "deploy", (f"{cards_str(missing)} {'is' if len(missing) == 1 else 'are'} not "
                              f"in hand (the hand is {cards_str(self.hand)})")
        if len(used) != self.count:
            if self.count == LINE_SIZE:
                return "deploy", (f"{len(used)} card{'s' if len(used) != 1 else ''} deployed; "
                                  f"one card goes to each of left, centre and right")
            return self.rule, (f"{len(used)} card{'s' if len(used) != 1 else ''} deployed, but "
                               f"with {len(self.hand)} in hand exactly {self.count} must be")
        return None

    def contains(self, v: Any) -> bool:
        return self.refusal(v) is None

    def why_illegal(self, v: Any) -> str:
        r = self.refusal(v)
        return r[1] if r else super().why_illegal(v)

    def enumerate(self) -> list[Line]:
        out = []
        for spots in itertools.combinations(POSITIONS, self.count):
            for cards in itertools.permutations(self.hand, self.count):
                d = dict(zip(spots, cards))
                out.append(Line(d.get("left"), d.get("centre"), d.get("right")))
        return out

    def sample(self, rng: random.Random) -> Line:
        spots = rng.sample(POSITIONS, self.count)
        cards = rng.sample(self.hand, self.count)
        d = dict(zip(spots, cards))
        return Line(d.get("left"), d.get("centre"), d.get("right"))

    def is_forced(self) -> bool:
        return self.count == 0

    def forced_value(self) -> Line:
        return Line(None, None, None)

    def describe(self) -> str:
        if self.count == LINE_SIZE and len(self.hand) > LINE_SIZE:
            return (f"one card of {cards_str(self.hand)} to each of left, centre and right "
                    f"(the last one stays as the reserve)")
        if self.count == 0:
            return "nothing to deploy"
        return (f"{self.count} card{'s' if self.count != 1 else ''} of {cards_str(self.hand)}, "
                f"at most one per position (left, centre, right)")


@dataclass(frozen=True)
class Reinforcement:
    """``flanks`` is () for a pass, (flank,) for a reinforcement."""

    flanks: tuple[str, ...] = ()

    @property
    def flank(self) -> str | None:
        return self.flanks[0] if len(self.flanks) == 1 else None

    def __str__(self) -> str:
        if not self.flanks:
            return "pass"
        return "{reinforce: " + (self.flanks[0] if len(self.flanks) == 1
                                 else "[" + ", ".join(self.flanks) + "]") + "}"


PASS = Reinforcement(())


class ReinforceChoice(Choice):
    """``pass`` or ``{reinforce: left}`` / ``{reinforce: right}`` (the player's own flank).
    ``reasons`` says, for each of the player's positions, why it cannot be reinforced."""

    rule = "reinforce"

    def __init__(self, legal: list[str], reasons: dict[str, tuple[str, str]]):
        self.legal = list(legal)
        self.reasons = reasons

    def parse(self, raw: Any) -> Reinforcement:
        if isinstance(raw, str) and raw.strip().lower() in ("pass", "none", "no"):
            return PASS
        if isinstance(raw, dict) and len(raw) == 1 and str(next(iter(raw))).lower() == "reinforce":
            val = next(iter(raw.values()))
            vals = val if isinstance(val, (list, tuple)) else [val]
            flanks = []
            for x in vals:
                f = str(x).strip().lower()
                if f == "center":
                    f = "centre"
                if f not in POSITIONS:
                    raise DecisionFormatError(
                        f"unknown flank '{x}' (a player reinforces their left or right flank)")
                flanks.append(f)
            return Reinforcement(tuple(flanks))
        raise DecisionFormatError(f"expected pass or {{reinforce: left}} / {{reinforce: right}}, "
                                  f"got {raw!r}")

    def refusal(self, v: Any) -> tuple[str, str] | None:
        if not isinstance(v, Reinforcement):
            return self.rule, f"{v!r} is not a reinforcement"
        if not v.flanks:
            return None
        if len(v.flanks) > 1:
            return "reinforce-at-once", "a player reinforces at most one flank per turn"
        f = v.flanks[0]
        if f in self.legal:
            return None
        return self.reasons.get(f, (self.rule, f"the {f} flank cannot be reinforced now"))

    def contains(self, v: Any) -> bool:
        return self.refusal(v) is None

    def why_illegal(self, v: Any) -> str:
        r = self.refusal(v)
        return r[1] if r else super().why_illegal(v)

    def values(self) -> list[Reinforcement]:
        return [PASS] + [Reinforcement((f,)) for f in self.legal]

    def enumerate(self) -> list[Reinforcement]:
        return self.values()

    def sample(self, rng: random.Random) -> Reinforcement:
        return rng.choice(self.values())

    def forced_value(self) -> Reinforcement:
        return PASS

    def describe(self) -> str:
        if not self.legal:
            return "pass (no flank can be reinforced)"
        return "pass, or " + " or ".join(f"{{reinforce: {f}}}" for f in self.legal)


# --------------------------------------------------------------------------- state
class BattleLinesState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], decks: dict[str, list[Card]],
                 hands: dict[str, list[Card]], captured: dict[str, list[Card]]):
        super().__init__(options)
        self.decks = {p: list(decks[p]) for p in PLAYERS}
        self.hands = {p: list(hands[p]) for p in PLAYERS}
        self.captured = {p: list(captured[p]) for p in PLAYERS}
        self.reserve: dict[str, Card | None] = {p: None for p in PLAYERS}
        self.line: dict[str, dict[str, Card | None]] = {
            p: {pos: None for pos in POSITIONS} for p in PLAYERS}
        self.reinforced: dict[str, str | None] = {p: None for p in PLAYERS}
        self.boost: dict[str, Card | None] = {p: None for p in PLAYERS}
        self.battles: dict[str, str] = {pos: "none" for pos in POSITIONS}
        self.turns = 0
        self.last_turn = False
        self.phase = "deploy"
        self.first: str | None = None  # the last turn's first deployer (unequal holdings)
        self.legal: dict[str, list[str]] = {p: [] for p in PLAYERS}
        self.reasons: dict[str, dict[str, tuple[str, str]]] = {p: {} for p in PLAYERS}
        # every card that has lain face up on a line (both players saw it): a card back in a
        # hand from a tie is known to the opponent, a card drawn is not (for determinize)
        self.revealed: set[Card] = set()
        self.opening_events = self._begin_turn()

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | None:
        if self.result is not None:
            return None
        if self.phase == "deploy":
            return DecisionNode({p: self._deployment(p) for p in PLAYERS},
                                what="both deploy their line face down")
        if self.phase == "deploy-first":
            p = self.first
            return DecisionNode({p: self._deployment(p)},
                                what="the player holding more cards deploys first, face up")
        if self.phase == "deploy-second":
            p = other(self.first)
            return DecisionNode({p: self._deployment(p)},
                                what="the player holding fewer cards deploys, having seen the other line")
        if self.phase == "reinforce":
            return DecisionNode(
                {p: ReinforceChoice(self.legal[p], self.reasons[p]) for p in PLAYERS},
                what="both decide at once whether to reinforce a flank")
        raise AssertionError(self.phase)

    def _deployment(self, p: str) -> Deployment:
        hand = self.hands[p]
        if not self.last_turn:
            return Deployment(hand, LINE_SIZE, "deploy")
        n = min(LINE_SIZE, len(hand))
        return Deployment(hand, n, "deploy" if len(hand) >= HAND_SIZE else "short-deployment")

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        ev: list[Event] = []
        if self.phase == "deploy":
            for p in PLAYERS:
                self._place(p, decisions[p], ev)
            self._reveal(ev)
            return self._after_reveal(ev)
        if self.phase == "deploy-first":
            self._place(self.first, decisions[self.first], ev, face_up=True)
            self.phase = "deploy-second"
            return ev
        if self.phase == "deploy-second":
            p = other(self.first)
            self._place(p, decisions[p], ev)
            self._reveal(ev)
            return self._after_reveal(ev)
        if self.phase == "reinforce":
            both = all(decisions[p].flanks for p in PLAYERS)
            for p in PLAYERS:
                f = decisions[p].flank
                if f is None:
                    continue
                r = self.reserve[p]
                self.reserve[p] = None
                self.reinforced[p] = f
                self.boost[p] = r
                mine, theirs = self.line[p][f], self.line[other(p)][FACING[f]]
                total = value(mine) + value(r)
                ev.append(Event(
                    "reinforce", "reinforce-at-once" if both else "reinforce",
                    f"{{{p}}} reinforces their {f} flank with {r}: {mine} + {r} = {total} "
                    f"against {theirs} ({value(theirs)})."
                    + (" Both players reinforce at once; neither can answer." if both else ""),
                    p, (r,), {"flank": f, "total": total}))
            self.show()
            self._settle(ev)
            return ev
        raise AssertionError(self.phase)

    def _apply_chance(self, outcome: Any) -> list[Event]:  # pragma: no cover - no chance nodes
        raise AssertionError("Battle Lines has no chance events after the deal")

    # ----------------------------------------------------------------- turn
    def _begin_turn(self) -> list[Event]:
        ev: list[Event] = []
        for p in PLAYERS:
            need = HAND_SIZE - len(self.hands[p])
            n = max(0, min(need, len(self.decks[p])))
            if n:
                drawn = self.decks[p][:n]
                del self.decks[p][:n]
                self.hands[p].extend(drawn)
                short = n < need
                ev.append(Event(
                    "draw", "draw-short" if short else "draw-up",
                    f"{{{p}}} draws {n} card{'s' if n != 1 else ''}"
                    + (f", all that is left in their deck, and holds {len(self.hands[p])}."
                       if short else f" and holds {HAND_SIZE}."),
                    p, tuple(drawn), {"count": n}))
        self.reserve = {p: None for p in PLAYERS}
        self.line = {p: {pos: None for pos in POSITIONS} for p in PLAYERS}
        self.boost = {p: None for p in PLAYERS}
        self.legal = {p: [] for p in PLAYERS}
        self.reasons = {p: {} for p in PLAYERS}
        empty = [p for p in PLAYERS if not self.decks[p]]
        if empty:
            self.last_turn = True
            who = " and ".join(f"{{{p}}}'s" for p in empty)
            ev.append(Event("last-turn", "last-turn-timing",
                            f"{who} deck{'s are' if len(empty) == 2 else ' is'} empty after "
                            f"drawing up: this is the last deployment.", None, (),
                            {"empty": " ".join(empty)}))
            n1, n2 = len(self.hands["p1"]), len(self.hands["p2"])
            if n1 == 0 and n2 == 0:
                self._finish(ev, "final-count", "neither player has a card left to deploy")
                return ev
            if n1 == n2:
                self.phase = "deploy"
                ev.append(Event("deploy-order", "equal-holdings",
                                f"Both hold {n1} card{'s' if n1 != 1 else ''}: they deploy "
                                f"together, unseen, as in any turn.", None, (), {"first": "both"}))
            else:
                self.first = "p1" if n1 > n2 else "p2"
                second = other(self.first)
                self.phase = "deploy-first"
                ev.append(Event("deploy-order", "deploy-second",
                                f"{{{second}}} holds fewer cards ({len(self.hands[second])} "
                                f"against {len(self.hands[self.first])}), so {{{self.first}}} "
                                f"deploys first, face up, and {{{second}}} deploys after seeing it.",
                                second, (), {"first": self.first}))
        else:
            self.phase = "deploy"
        return ev

    def _place(self, p: str, line: Line, ev: list[Event], face_up: bool = False) -> None:
        hand = self.hands[p]
        for pos in POSITIONS:
            c = line.at(pos)
            self.line[p][pos] = c
            if c is not None:
                hand.remove(c)
        self.reinforced[p] = None
        assert len(hand) <= 1
        self.reserve[p] = hand.pop() if hand else None
        n = len(line.cards())
        rule = "deploy"
        if self.last_turn and (n < LINE_SIZE or self.reserve[p] is None):
            rule = "short-deployment"
        placed = [f"{line.at(pos)} {_place_name(pos)}" for pos in POSITIONS if line.at(pos)]
        empty = [_place_name(pos)[3:] if pos != "centre" else "the centre"
                 for pos in POSITIONS if line.at(pos) is None]
        where = ", ".join(placed) or "no card"
        if empty:
            where += ", leaving " + " and ".join(empty) + " empty"
        if self.reserve[p] is not None:
            tail = f"; {self.reserve[p]} stays back as the reserve."
        elif self.last_turn:
            tail = "; no card is left for a reserve."
        else:
            tail = "."
        ev.append(Event("deploy", rule,
                        f"{{{p}}} deploys {'face up: ' if face_up else ''}{where}{tail}",
                        p, tuple(line.cards()),
                        {pos: str(line.at(pos) or "empty") for pos in POSITIONS} | {"count": n}))

    def _reveal(self, ev: list[Event]) -> None:
        self.revealed.update(c for p in PLAYERS for c in self.line[p].values() if c is not None)
        parts = []
        for pos in POSITIONS:
            a, b = self.line["p1"][pos], self.line["p2"][FACING[pos]]
            parts.append(f"{a or 'nothing'} against {b or 'nothing'}")
        opening = ("Both lines are turned face up." if self.first is None or not self.last_turn
                   else f"{{{other(self.first)}}}'s line is turned face up.")
        ev.append(Event("reveal", "reveal",
                        opening + " From {p1}'s left to {p1}'s right: "
                        + "; ".join(parts) + ".", None,
                        tuple(c for p in PLAYERS for c in self.line[p].values() if c is not None)))

    def _after_reveal(self, ev: list[Event]) -> list[Event]:
        """Work out who may reinforce; settle at once if nobody can."""
        for p in PLAYERS:
            self.legal[p], self.reasons[p] = self._reinforcements(p, ev)
        if any(self.legal[p] for p in PLAYERS):
            self.phase = "reinforce"
            return ev
        self.show()
        self._settle(ev)
        return ev

    def _reinforcements(self, p: str, ev: list[Event]) -> tuple[list[str], dict]:
        """The flanks ``p`` may reinforce after the reveal, and why the others are barred."""
        legal, reasons = [], {}
        r = self.reserve[p]
        reasons["centre"] = ("reinforce", "only a flank can be reinforced, never the centre")
        for f in FLANKS:
            mine, theirs = self.line[p][f], self.line[other(p)][FACING[f]]
            if mine is None:
                reasons[f] = ("reinforce", f"there is no card of yours on the {f} flank")
                continue
            if theirs is None:
                reasons[f] = ("reinforce", f"your {mine} on the {f} flank faces an empty "
                              f"position and captures by default")
                continue
            if value(mine) >= value(theirs):
                reasons[f] = ("reinforce", f"your {mine} on the {f} flank is not lower than "
                              f"{theirs}; only the lower card may be reinforced")
                continue
            if r is None:
                reasons[f] = ("reinforce", "you have no reserve to reinforce with")
                continue
            if r.suit not in (mine.suit, theirs.suit):
                reasons[f] = ("reinforce-suit",
                              f"your reserve {r} matches the suit of neither {mine} nor "
                              f"{theirs} on the {f} flank")
                ev.append(Event(
                    "cannot-reinforce", "reinforce-suit",
                    f"{{{p}}}'s {mine} is lower than {theirs} on their {f} flank, but the "
                    f"reserve {r} matches neither suit: no reinforcement there.",
                    p, (mine, theirs), {"flank": f}))
                continue
            legal.append(f)
            match = "both cards" if mine.suit == theirs.suit else (
                mine if r.suit == mine.suit else theirs)
            ev.append(Event(
                "may-reinforce", "reinforce-suit",
                f"{{{p}}}'s {mine} is lower than {theirs} on their {f} flank and the "
                f"reserve {r} shares the suit of {match}: {{{p}}} may reinforce there.",
                p, (mine, theirs), {"flank": f}))
        return legal, reasons

    def _settle(self, ev: list[Event]) -> None:
        back: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        for pos in POSITIONS:
            side = contest_cards(pos)
            cards = {p: self.line[p][side[p]] for p in PLAYERS}
            boost = {p: (self.reinforcing(p) if self.reinforced[p] == side[p] else None)
                     for p in PLAYERS}
            where = ("the centre" if pos == "centre" else
                     f"{{p1}}'s {pos} flank ({{p2}}'s {FACING[pos]})")
            if cards["p1"] is None and cards["p2"] is None:
                self.battles[pos] = "none"
                continue
            if cards["p1"] is None or cards["p2"] is None:
                w = "p1" if cards["p1"] is not None else "p2"
                self.captured[w].append(cards[w])
                self.battles[pos] = w
                ev.append(Event("default", "default-capture",
                                f"At {where}, {{{w}}}'s {cards[w]} faces an empty position and "
                                f"captures by default: it goes to {{{w}}}'s captured pile.",
                                w, (cards[w],), {"position": pos}))
                continue
            total = {p: value(cards[p]) + (value(boost[p]) if boost[p] else 0) for p in PLAYERS}
            desc = {p: (f"{cards[p]}+{boost[p]} ({total[p]})" if boost[p] else str(cards[p]))
                    for p in PLAYERS}
            if total["p1"] == total["p2"]:
                self.battles[pos] = "tie"
                ev.append(Event("tie", "tie",
                                f"At {where}, {{p1}}'s {desc['p1']} ties {{p2}}'s {desc['p2']}: "
                                f"each line card goes back to its owner's hand.",
                                None, (cards["p1"], cards["p2"]), {"position": pos}))
                for p in PLAYERS:
                    if boost[p]:
                        self.captured[p].append(boost[p])
                        ev.append(Event("tie-reserve", "tie",
                                        f"{{{p}}}'s reserve {boost[p]} only bought a tie: it goes "
                                        f"to {{{p}}}'s own captured pile.",
                                        p, (boost[p],), {"position": pos}))
                for p in PLAYERS:
                    back[p].append((POSITIONS.index(side[p]), cards[p]))
                continue
            w = "p1" if total["p1"] > total["p2"] else "p2"
            loser = other(w)
            taken = [c for c in (cards[w], boost[w], cards[loser], boost[loser]) if c is not None]
            self.captured[w].extend(taken)
            self.battles[pos] = w
            rule = "capture-all" if boost[w] or boost[loser] else "capture"
            ev.append(Event("capture", rule,
                            f"At {where}, {{{w}}}'s {desc[w]} beats {{{loser}}}'s {desc[loser]}: "
                            f"{{{w}}} captures {len(taken)} cards.",
                            w, tuple(taken), {"position": pos, "count": len(taken),
                                              "total": total[w]}))
        for p in PLAYERS:
            keep = [self.reserve[p]] if self.reserve[p] is not None else []
            self.hands[p] = keep + [c for _, c in sorted(back[p], key=lambda t: t[0])] + self.hands[p]
            self.reserve[p] = None
            self.boost[p] = None
            self.line[p] = {pos: None for pos in POSITIONS}
        self.turns += 1
        if self.last_turn:
            self._finish(ev, "final-count", "the last turn is over")
        elif self.turns >= self.options["max_turns"]:
            self._finish(ev, "turn-cap", f"the turn cap of {self.options['max_turns']} turns is "
                         f"reached")
        else:
            ev.extend(self._begin_turn())

    def reinforcing(self, p: str) -> Card | None:
        """The reserve ``p`` has laid on a flank this turn, until the turn is settled."""
        return self.boost[p]

    def _finish(self, ev: list[Event], rule: str, why: str) -> None:
        if rule == "turn-cap":  # ruling R0.3: a game stopped at its cap is a draw
            reason = f"{why}; a game stopped at the cap is a draw"
            self.result = Result(None, reason, rule)
            self.phase = "over"
            ev.append(Event("game-over", rule, "The game is a draw: " + reason + ".", None, (),
                            {"winner": "draw", "reason": reason}))
            return
        for p in PLAYERS:
            n, h = len(self.captured[p]), len(self.hands[p])
            ev.append(Event("count", "hand-not-counted" if h else "final-count",
                            f"{{{p}}} has {n} captured card{'s' if n != 1 else ''}"
                            + (f"; the {h} card{'s' if h != 1 else ''} left in hand do"
                               f"{'es' if h == 1 else ''} not count." if h else "."),
                            p, (), {"captured": n, "hand": h}))
        a, b = len(self.captured["p1"]), len(self.captured["p2"])
        winner = None if a == b else ("p1" if a > b else "p2")
        if winner:
            reason = f"{why}, and {{{winner}}} has captured more cards ({max(a, b)} to {min(a, b)})"
        else:
            reason = f"{why}, and both have captured {a} cards"
        self.result = Result(winner, reason, rule)
        self.phase = "over"
        ev.append(Event("game-over", rule,
                        ("{%s} wins: " % winner if winner else "The game is a draw: ") + reason + ".",
                        winner, (), {"winner": winner or "draw", "reason": reason}))

    # ----------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        for p in PLAYERS:
            v[f"{p}.deck"] = list(self.decks[p])
            v[f"{p}.hand"] = list(self.hands[p])
            v[f"{p}.reserve"] = [self.reserve[p]] if self.reserve[p] is not None else []
            for pos in POSITIONS:
                v[f"{p}.{pos}"] = self._position_cards(p, pos)
            v[f"{p}.captured"] = list(self.captured[p])
            v[f"{p}.reinforced"] = self.reinforced[p] or "none"
        for pos in POSITIONS:
            v[f"battle.{pos}"] = self.battles[pos]
        v["turns"] = self.turns
        v["last-turn"] = self.last_turn
        v["phase"] = self.phase
        v["result"] = self.result.label if self.result else "none"
        return v

    def _position_cards(self, p: str, pos: str) -> list[Card]:
        out = [self.line[p][pos]] if self.line[p][pos] is not None else []
        b = self.reinforcing(p)
        if b is not None and self.reinforced[p] == pos and out:
            out.append(b)
        return out

    def table(self) -> list[Zone]:
        zones: list[Zone] = []
        for p, back_row, line_row in (("p2", 0, 1), ("p1", 3, 2)):
            zones.append(Zone(f"{p}.deck", "Deck", back_row, 0, owner=p,
                              cards=[(c, False) for c in self.decks[p][:1]],
                              count=len(self.decks[p]), style="pile"))
            zones.append(Zone(f"{p}.hand", "Hand", back_row, 2, owner=p, seen_by="owner",
                              cards=[(c, True) for c in self.hands[p]], style="fan"))
            zones.append(Zone(f"{p}.captured", "Captured", back_row, 4, owner=p,
                              cards=[(c, False) for c in self.captured[p][-1:]],
                              count=len(self.captured[p]), style="pile"))
            # p2 sits opposite: their right flank lies across from p1's left flank
            order = POSITIONS if p == "p1" else tuple(reversed(POSITIONS))
            for col, pos in enumerate(order, start=1):
                # every diagram moment comes after a reveal (or, in the last turn, after the
                # first deployer has laid their line face up), so line cards lie face up
                up = True
                label = "Centre" if pos == "centre" else f"{pos.capitalize()} flank"
                zones.append(Zone(f"{p}.{pos}", label, line_row, col, owner=p,
                                  cards=[(c, up) for c in self._position_cards(p, pos)],
                                  style="fan",
                                  note="reinforced" if self.reinforced[p] == pos
                                  and self._position_cards(p, pos) else ""))
            res = [self.reserve[p]] if self.reserve[p] is not None else []
            zones.append(Zone(f"{p}.reserve", "Reserve", line_row, 4, owner=p,
                              cards=[(c, True) for c in res], style="stack"))
        return zones

    def all_cards(self) -> Counter:
        c: Counter = Counter()
        for p in PLAYERS:
            c.update(self.decks[p])
            c.update(self.hands[p])
            c.update(self.captured[p])
            c.update(x for x in self.line[p].values() if x is not None)
            if self.reserve[p] is not None:
                c[self.reserve[p]] += 1
            b = self.reinforcing(p)
            if b is not None:
                c[b] += 1
        return c


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> BattleLinesState:
    deck = full_deck()
    rng.shuffle(deck)
    return BattleLinesState(options, {"p1": deck[:26], "p2": deck[26:]},
                            {p: [] for p in PLAYERS}, {p: [] for p in PLAYERS})


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> BattleLinesState:
    """Setup: ``piles:`` with ``p1.deck``, ``p1.hand``, ``p1.captured`` (and p2's), top
    first. A setup is a position at the start of a turn: the hands are drawn up to four at
    once (as far as the decks allow)."""
    for key in setup:
        if key != "piles":
            raise SetupError(f"Battle Lines' setup has only 'piles', not '{key}'", (key,))
    piles = setup.get("piles") or {}
    kinds = ("deck", "hand", "captured")
    known = {f"{p}.{k}" for p in PLAYERS for k in kinds}
    for name in piles:
        if name not in known:
            raise SetupError(f"unknown pile '{name}' (Battle Lines has: "
                             f"{', '.join(sorted(known))})", ("piles", name))
    got = {name: parse_cards(piles.get(name) or []) for name in known}
    for p in PLAYERS:
        hand = got[f"{p}.hand"]
        if len(hand) > HAND_SIZE:
            raise SetupError(f"{p}.hand holds {len(hand)} cards; a hand holds at most "
                             f"{HAND_SIZE}", ("piles", f"{p}.hand", HAND_SIZE))
    return BattleLinesState(options, {p: got[f"{p}.deck"] for p in PLAYERS},
                            {p: got[f"{p}.hand"] for p in PLAYERS},
                            {p: got[f"{p}.captured"] for p in PLAYERS})


# --------------------------------------------------------------------------- bots
def _blind_score(line: Line, reserve: Card | None, cards: list[Card] | None = None) -> float:
    """How good a deployment looks without seeing the other line (``cards``: the line's
    cards, when the caller has them already)."""
    s = sum(value(c) for c in (line.cards() if cards is None else cards))
    if line.centre is not None:
        s += 0.1 * value(line.centre)  # the centre cannot be helped: put strength there
    if reserve is not None:
        flank_suits = {c.suit for c in (line.left, line.right) if c is not None}
        s += (0.6 if reserve.suit in flank_suits else 0.25) * value(reserve)
    return s


def _seen_score(p: str, line: Line, state: BattleLinesState) -> float:
    """Net captured cards this line gains against the opponent's line, which is in view."""
    opp = state.line[other(p)]
    s = 0.0
    for pos in POSITIONS:
        mine, theirs = line.at(pos), opp[FACING[pos]]
        if mine is None and theirs is None:
            continue
        if theirs is None:
            s += 1
        elif mine is None:
            s -= 1
        elif value(mine) > value(theirs):
            s += 2 + 0.01 * (value(mine) - value(theirs))
        elif value(mine) < value(theirs):
            s -= 2
        # a tie returns both cards: no change
    return s


def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """A sensible player.

    Deploying blind, they put their cards on the line and keep back the card whose loss
    costs least: a low card, and preferably one whose suit matches a flank card (then it
    can always reinforce that flank); the strongest line card goes to the centre, which no
    reserve can help. In numbers (``_blind_score``): a line is worth its ranks, plus a tenth
    of the centre card's rank; the reserve adds 0.6 of its rank when its suit matches a
    flank card, else 0.25. So they keep back the lowest card unless a matching card costs
    less (0.4 x its rank against 0.75 x the lowest's: a matching 5 is kept before an unmatched
    3), and the centre's tenth is only a tie-break: it never outweighs letting the reserve
    match a flank card. Deploying after seeing the other line (the shorter hand in the last
    turn), they pick the line that wins the most cards against it, counted as the net
    captured cards (``_seen_score``: a win +2, a loss -2, a card facing an empty position
    +1, an empty position facing a card -1, a tie 0); among lines that win as many, the one
    whose wins are by the widest margins. When reinforcing, they
    reinforce a flank where the reserve turns a loss into a win, else into a tie (a tie
    saves the line card and keeps the reserve in their own captured pile); otherwise they
    pass. After a turn in which every position tied, they deploy at random rather than
    repeat lines that would tie again.
    """
    assert isinstance(state, BattleLinesState)
    node = state.node()
    ch = node.choices[player]
    if isinstance(ch, ReinforceChoice):
        best, best_gain = PASS, 0
        r = state.reserve[player]
        for f in ch.legal:
            mine = state.line[player][f]
            theirs = state.line[other(player)][FACING[f]]
            total = value(mine) + value(r)
            gain = 2 if total > value(theirs) else 1 if total == value(theirs) else 0
            if gain > best_gain:
                best, best_gain = Reinforcement((f,)), gain
        return best
    assert isinstance(ch, Deployment)
    options = ch.enumerate()
    seen = state.phase == "deploy-second"
    if not seen and state.turns and all(b == "tie" for b in state.battles.values()):
        # every position tied last turn: the same lines would tie again, so change them
        return rng.choice(options)
    best_line, best_score = None, None
    for line in options:
        if seen:
            score = _seen_score(player, line, state)
        else:
            placed = line.cards()
            rest = [c for c in ch.hand if c not in placed]
            score = _blind_score(line, rest[0] if len(rest) == 1 else None, placed)
        if best_score is None or score > best_score:
            best_line, best_score = line, score
    return best_line


def determinize(state: State, player: str, rng: random.Random) -> BattleLinesState:
    """What ``player`` cannot know, dealt again (``GameDef.determinize``, for the search bot).

    The deck was shuffled and split, and nobody looks at a deck, so ``player`` knows neither
    deck's order nor which of the unseen cards lie in which deck. The opponent's hand and
    reserve are hidden too, except the cards that have lain face up on a line (back from a
    tie). Those unseen cards (both decks, and the opponent's hand and reserve cards never
    revealed) are shuffled among their places; ``player``'s own hand and reserve, the lines,
    the reinforcements, the captured piles (every card in them was revealed) and every count
    stay as they are."""
    src: BattleLinesState = state  # type: ignore[assignment]
    st = src.clone()
    st._node = st._shown = None
    q = other(player)
    slots = [("decks", p, i) for p in PLAYERS for i in range(len(st.decks[p]))]
    slots += [("hands", q, i) for i, c in enumerate(st.hands[q]) if c not in st.revealed]
    pool = [getattr(st, pile)[p][i] for pile, p, i in slots]
    hidden_reserve = st.reserve[q] is not None and st.reserve[q] not in st.revealed
    if hidden_reserve:
        pool.append(st.reserve[q])
    rng.shuffle(pool)
    for (pile, p, i), card in zip(slots, pool):
        getattr(st, pile)[p][i] = card
    if hidden_reserve:
        st.reserve[q] = pool[-1]
        if st.phase == "reinforce":  # what the opponent may do depends on their reserve
            st.legal[q], st.reasons[q] = st._reinforcements(q, [])
    return st


def max_steps(options: dict[str, Any]) -> int:
    """At most ``max_turns`` turns are played (the cap ends the game after the turn that
    reaches it). A turn takes a deployment step and at most one reinforcement step; only the
    last turn with unequal holdings takes two deployment steps. So a game takes at most
    2 * max_turns + 1 steps."""
    return 2 * options["max_turns"] + 1



__all__ = ["GAME", "BattleLinesState", "Deployment", "ReinforceChoice", "Line",
           "Reinforcement"]


# --------------------------------------------------------------------------- print-and-play
def battlefield_art(ctx) -> str:
    """The battlefield mat (game.yaml ``kit``, ``art: battlefield``): the three positions
    with which of the opponent's they face, then the deck, the reserve and the captured
    pile. ``ctx`` is the renderer's ArtContext (drawing helpers in ``ctx.draw``)."""
    d, ink, colour = ctx.draw, ctx.ink, ctx.colour
    sw, sh = d.SPACE_W, d.SPACE_H
    gap, x0, y0 = 6.0, 6.0, 4.0
    y1 = y0 + sh + 8.0
    out = [d.mat_frame(ink, ctx.w, ctx.h, colour)]
    positions = [("LEFT FLANK", "faces their RIGHT flank", True),
                 ("CENTRE", "faces their CENTRE", False),
                 ("RIGHT FLANK", "faces their LEFT flank", True)]
    for k, (name, facing, flank) in enumerate(positions):
        x = x0 + k * (sw + gap)
        note = "reserve may reinforce" if flank else "never reinforced"
        out.append(d.card_space(ink, x, y0, name, colour, note=note))
        out.append(d.arrow_up(x + sw / 2 - 16, y0 + sh + 6.6, 4.2, ink.c(colour)))
        out.append(d.text(x + sw / 2 + 2, y0 + sh + 5.6, facing, 7.2, weight=600,
                          fill=ink.c(colour)))
    bottom = [("DECK", "face down, draw from the top"),
              ("RESERVE", "your 4th card, face down"),
              ("CAPTURED", "face down; counts at the end")]
    for k, (name, note) in enumerate(bottom):
        x = x0 + k * (sw + gap)
        out.append(d.card_space(ink, x, y1, name, "#555555" if k != 1 else colour, note=note,
                                dashed=k == 1))
    return "".join(out)




#: what is pending, as a player would say it (``describe``)
NEXT_IN_WORDS = {
    "deploy": "next, both deploy their lines face down",
    "deploy-first": "next, the player holding more cards deploys face up",
    "deploy-second": "next, the other player deploys, having seen that line",
    "reinforce": "next, both decide at once whether to reinforce a flank",
}


def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import result_line, size, who

    lines = []
    for p in PLAYERS:
        parts = [f"{size(view[f'{p}.deck'])} in deck", f"{size(view[f'{p}.hand'])} in hand"]
        if size(view[f"{p}.reserve"]):
            parts.append("a reserve card kept back")
        parts.append(f"{size(view[f'{p}.captured'])} captured")
        if view.get(f"{p}.reinforced", "none") != "none":
            parts.append(f"reinforced the {view[f'{p}.reinforced']} flank")
        lines.append((p, ", ".join(parts)))
    game = []
    fought = []
    for pos, name in (("left", "{p1}'s left flank"), ("centre", "the centre"),
                      ("right", "{p1}'s right flank")):
        w = view.get(f"battle.{pos}", "none")
        if who(w):
            fought.append(f"{name} went to {{{w}}}")
        elif w == "tie":
            fought.append(f"{name} was a tie")
    if fought:
        game.append("in the last battles " + ", ".join(fought))
    if view.get("last-turn"):
        game.append("this is the last turn")
    end = result_line(view)
    if end:
        game.append(end)
    elif view.get("phase") in NEXT_IN_WORDS:
        game.append(NEXT_IN_WORDS[view["phase"]])
    lines.append(("", "; ".join(game)))
    return lines




def marks(events, table) -> dict[str, str]:
    """The cards that won (``GameDef.marks``): of each capture event's cards, those lying in
    a place of the player who won it."""
    from .words import won_in_place

    return won_in_place(events, table, "capture")


def lead(state: BattleLinesState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): more captured cards,
    what the final count compares."""
    return lead_of({p: len(state.captured[p]) for p in PLAYERS})


GAME = GameDef(
    slug="battle-lines", title="Battle Lines", options=OPTIONS, rule_ids=RULES,
    event_kinds=EVENT_KINDS, view_keys=VIEW_KEYS, new_game=new_game, from_setup=from_setup,
    heuristic=heuristic, max_steps=max_steps,
    supply=lambda options: Counter(full_deck()),  # one 52-card deck
    option_sets=[{}, {"max_turns": 3}],
    round_key="turns", round_word="turn", cap_rules=frozenset({"turn-cap"}),
    determinize=determinize, lead=lead,
    art={"battlefield": battlefield_art},
    describe=describe,
    marks=marks,
)
