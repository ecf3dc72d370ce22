"""Happy Families: the traditional game of families (first published in England in 1851),
played with a deck of its own instead of the French 52.

The deck is families of four (``content/happy-families/cards.csv``, declared under
``decks:`` in its ``game.yaml``): each card's ``family`` field names its family, and a
family is every card of the deck with that name, in the deck's order. The engine reads no
other field, so another deck of families plays the same way. Without a deck from a
``game.yaml`` (the engine's own tests, a lab run without content) it plays the families
shipped beside this module (``happy_families.csv``, the same file as the content's).

Rulings (the traditional game leaves these open; ``content/happy-families/rules.md``
prints each):

* every card is dealt, one at a time from the dealer's left (``p1``), so hands differ by
  at most one card; a family dealt whole is laid down before the first ask;
* a turn is a run of asks. An ask names another player who holds cards, then one card of a
  family the asker holds a card of, which is not in the asker's hand (a ``Parts``
  decision: player, then card; one step an ask). A held card is handed over and the asker
  asks again; otherwise the turn passes to the player asked, who always holds cards (only
  a player who holds cards may be asked);
* a whole family in one hand is laid down at once, face up, and scores one; an asker left
  with no cards passes the turn to the next player on the left who holds cards. A player
  with no cards is skipped and cannot be asked;
* the game ends when every family is laid down: the most families wins; players tied for
  the most share the win, which the engine records as a draw (a ``Result`` has one winner
  or none);
* cap (R0.3): cards can pass back and forth for ever between players who forget what they
  heard; after ``max_asks`` asks (default 400) the game stops and is a draw, whatever has
  been laid down (clarification ``ask-cap``).

Two players are not offered: with every card dealt, each knows the other holds every card
they lack, so the first asker never misses and lays down every family they hold a card of.

Who sees what: each hand is seen by its owner only (``Zone.seen_by="owner"``, given by
``piles()``), the families laid down by everyone. What the table has heard is public and
kept in the state for the heuristic: which player took which card and still holds it
(``seen``), which cards a player is known not to hold (``lacks``: they asked for it, or
were asked and did not have it, or handed it over), and in which families a player holds
a card nobody saw them take (``claims``: they asked for a card of the family while not seen
holding any of it, and have handed none of it over since but cards seen going in). The
search bot deals the other hands again only in ways that memory allows (:func:`determinize`):
the generic re-deal from ``piles()`` keeps what a seat sees but not what the table heard,
and its rollouts were played in worlds that contradicted it (docs/balance.md).

Steps: one decision a step, the asker's (``{p1: p3 CRUMB-MRS}``); no chance after the deal.
Notation: a hand is listed in the deck's order (family by family, father, mother, son,
daughter), whatever order its cards came in; the laid cards in the order laid.
"""

from __future__ import annotations

import random
import re
from bisect import insort
from collections import Counter
from pathlib import Path
from typing import Any

from .cards import CardBase, CardError
from .core import (
    DecisionNode,
    Event,
    GameDef,
    OneOf,
    Option,
    Parts,
    Result,
    SetupError,
    State,
    Zone,
    lead_of,
)
from .decks import Deck, read_rows
from .words import count, joined, players_in, result_line, size

PLAYER_COUNTS = (3, 4, 5, 6)

OPTIONS = {
    "players": Option("players", 4, "How many play: three to six.", choices=PLAYER_COUNTS),
    "max_asks": Option(
        "max_asks", 400,
        "After this many asks the game stops and is a draw (ruling R0.3, clarification "
        "ask-cap).", minimum=1, maximum=100000,
    ),
}

RULES = frozenset({
    "ask", "ask-whom", "no-cards", "ask-family", "ask-not-own", "hand-over", "not-at-home",
    "lay-down", "most-families", "shared-win", "ask-cap",
})

EVENT_KINDS = {
    "ask": "a player asks another for a card (cards: the card; data: asked, the player "
           "asked; family)",
    "hand-over": "the player asked holds the card and hands it over (cards: the card; "
                 "data: to)",
    "not-at-home": "the player asked does not hold the card (cards: the card)",
    "turn": "the turn passes to a player: the one asked, after a miss (rule not-at-home), "
            "or the next on the left who holds cards (rule no-cards)",
    "lay-down": "a player lays down a whole family (cards: the family; data: family, "
                "families = how many they have laid down)",
    "game-over": "the game ends (data: winner, reason, families = the most laid down, "
                 "leaders = who laid down that many)",
}

VIEW_KEYS = {
    "{p}.hand": "the player's hand, in the deck's order",
    "{p}.families": "the families the player has laid down, in the order laid",
    "{p}.laid": "the cards of those families, in the order laid",
    "{p}.known": "the cards everyone saw the player take and still holds, in the deck's order",
    "turn": "whose turn it is (none once over)",
    "asks": "asks made so far",
    "families.left": "families in play not yet laid down",
    "leaders": "the players with the most families laid down, in seat order (none before "
               "the first family)",
    "result": "p1 ... p6 or draw once the game is over; none before",
}

#: how much likelier the heuristic takes a player known to hold a card of a family that
#: nobody saw them take (``claims``) to hold a given card of it (see :func:`heuristic`)
CLAIM_WEIGHT = 3

#: the families shipped beside this module: played when no game.yaml has given the engine
#: its deck (a test holds it equal to content/happy-families/cards.csv)
SHIPPED = Deck("families", read_rows(Path(__file__).with_name("happy_families.csv")),
               key="happy-families:shipped")


def deck() -> Deck:
    """The deck the game is played with: the one its ``game.yaml`` declares (``GAME.deck``),
    else :data:`SHIPPED`."""
    try:
        return GAME.deck
    except RuntimeError:   # no game.yaml gave the engine a deck: the shipped families
        return SHIPPED


_FAMILIES: dict[int, tuple[Deck, dict[str, tuple]]] = {}


def families(of: Deck) -> dict[str, tuple]:
    """A deck's families: name -> its cards, in the deck's order (families in the order of
    their first card)."""
    known = _FAMILIES.get(id(of))
    if known is None or known[0] is not of:
        found: dict[str, list] = {}
        for c in of.cards:
            found.setdefault(str(c.family), []).append(c)
        known = (of, {name: tuple(cards) for name, cards in found.items()})
        _FAMILIES[id(of)] = known
    return known[1]


def family_of(card: Any) -> tuple:
    """Every card of ``card``'s family, in the deck's order."""
    return families(card.deck)[str(card.family)]


def by_family(cards: list) -> dict[str, list]:
    """``cards`` grouped by family: name -> those cards, families in the order the cards
    give them."""
    out: dict[str, list] = {}
    for c in cards:
        out.setdefault(str(c.family), []).append(c)
    return out


def family_names(cards: list) -> list[str]:
    """The families of ``cards``, each once, in the order the cards give them."""
    out: list[str] = []
    for c in cards:
        if str(c.family) not in out:
            out.append(str(c.family))
    return out


# --------------------------------------------------------------------------- choices
class WhomToAsk(OneOf):
    """The first part of an ask: another player who holds cards (rule ``ask-whom``; a
    player with no cards is refused by ``no-cards``)."""

    def __init__(self, asker: str, holders: list[str], players: list[str]):
        super().__init__(holders, "ask-whom")
        self.asker, self.players = asker, list(players)

    def refusal(self, value: Any) -> tuple[str, str] | None:
        if value in self.values:
            return None
        if value == self.asker:
            return "ask-whom", f"{value} asks another player, not themselves"
        if value in self.players:
            return "no-cards", f"{value} holds no cards, and nobody may ask a player who has none"
        return "ask-whom", (f"{value} is not a player of this game (the players are "
                            f"{joined(self.players)})")


class CardToAsk(OneOf):
    """The second part of an ask: a card of a family the asker holds a card of
    (``ask-family``), not one in the asker's own hand (``ask-not-own``)."""

    def __init__(self, asker: str, cards: list, hand: list):
        super().__init__(cards, "ask-family")
        self.asker, self.hand = asker, list(hand)

    def refusal(self, value: Any) -> tuple[str, str] | None:
        if value in self.values:
            return None
        if not isinstance(value, CardBase):
            return "ask-family", f"{value} is not a card"
        if value in self.hand:
            return "ask-not-own", (f"{value.name()} is in {self.asker}'s own hand; a player "
                                   f"asks only for a card they do not hold")
        return "ask-family", (f"{self.asker} holds no card of the {value.family} family, so "
                              f"may not ask for {value.name()}")


# --------------------------------------------------------------------------- state
class HappyFamiliesState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], hands: dict[str, list],
                 laid: dict[str, list], turn: str):
        super().__init__(options)
        self.num_players = options["players"]
        self.hands = {p: sorted(hands.get(p, [])) for p in self.players}
        self.laid = {p: list(laid.get(p, [])) for p in self.players}
        self.turn = turn
        self.asks = 0
        # what the table has heard (public; see the module's docstring)
        self.seen: dict[Any, str] = {}
        self.lacks: dict[str, set] = {p: set() for p in self.players}
        self.claims: dict[str, list[str]] = {p: [] for p in self.players}

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | None:
        if self.result is not None:
            return None
        p = self.turn
        holders = [q for q in self.players if q != p and self.hands[q]]
        cards = CardToAsk(p, self.askable(p), self.hands[p])
        return DecisionNode(
            {p: Parts(WhomToAsk(p, holders, self.players), lambda whom: cards,
                      names=("player", "card"))},
            what=f"{{{p}}} asks another player for a card of a family they hold")

    def askable(self, p: str) -> list:
        """The cards ``p`` may ask for: the cards missing from each family ``p`` holds a
        card of, in the deck's order."""
        out = []
        for mine in by_family(sorted(self.hands[p])).values():
            out.extend(c for c in family_of(mine[0]) if c not in mine)
        return out

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        p = self.turn
        q, card = decisions[p]
        self.asks += 1
        family = str(card.family)
        ev = [Event("ask", "ask", f"{{{p}}} asks {{{q}}} for {card.name()}.", p, (card,),
                    {"asked": q, "family": family})]
        # heard: p holds a card of the family, and not this card; one nobody saw go in
        # when no card of the family was seen going into p's hand
        if family not in self.claims[p] and not any(
                who == p and str(c.family) == family for c, who in self.seen.items()):
            self.claims[p].append(family)
        self.lacks[p].add(card)
        if card in self.hands[q]:
            self.hands[q].remove(card)
            insort(self.hands[p], card)
            ev.append(Event("hand-over", "hand-over",
                            f"{{{q}}} hands {card.name()} to {{{p}}}.", q, (card,), {"to": p}))
            if family in self.claims[q] and self.seen.get(card) != q:
                self.claims[q].remove(family)   # it may have been the card claimed
            self.seen[card] = p
            self.lacks[p].discard(card)
            self.lacks[q].add(card)
        else:
            ev.append(Event("not-at-home", "not-at-home",
                            f"{{{q}}} does not hold {card.name()}.", q, (card,)))
            self.lacks[q].add(card)
            if self.seen.get(card) == q:   # only in a world dealt again for a search
                del self.seen[card]
            self.turn = q
            ev.append(Event("turn", "not-at-home", f"The turn passes to {{{q}}}.", q))
        ev += self._lay_down(p)
        was = self.turn
        if not self.hands[was] and any(self.hands.values()):
            self.turn = self._next_with_cards(was)
            ev.append(Event("turn", "no-cards", f"The turn passes to {{{self.turn}}}, as "
                                                f"{{{was}}} has no cards left.", self.turn))
        if not any(self.hands.values()):
            ev.append(self._end_by_families())
        elif self.asks >= self.options["max_asks"]:
            self.result = Result(None, f"the ask cap ({count(self.asks, 'ask')})", "ask-cap")
            ev.append(Event("game-over", "ask-cap",
                            f"The ask cap is reached after {count(self.asks, 'ask')}: the game "
                            f"is a draw.", None, (), {"winner": "draw", "reason": "ask cap"}))
        return ev

    def _lay_down(self, first: str) -> list[Event]:
        """Every whole family in a hand laid down, looking at ``first``'s hand first, then
        round the table (after every ask). In a game only the asker's can be whole, and only
        after a hand-over; a world the search bot deals again (``redeal``) may hide one in
        any hand (as may :func:`determinize` when it keeps the memory only in part), and
        this lays it down before its holder is asked or takes the turn."""
        ev = []
        at = self.players.index(first)
        of_deck = None
        for p in self.players[at:] + self.players[:at]:
            hand = self.hands[p]
            if not hand:
                continue
            of_deck = of_deck or families(hand[0].deck)
            for name, mine in by_family(hand).items():
                members = of_deck[name]
                if len(mine) == len(members):   # one of each card: the whole family
                    for c in members:
                        hand.remove(c)
                        self.seen.pop(c, None)
                    self.laid[p].extend(members)
                    for q in self.players:
                        if name in self.claims[q]:
                            self.claims[q].remove(name)
                    laid = len(family_names(self.laid[p]))
                    ev.append(Event("lay-down", "lay-down",
                                    f"{{{p}}} holds the whole {name} family and lays it down "
                                    f"({count(laid, 'family', 'families')} laid down).",
                                    p, tuple(members), {"family": name, "families": laid}))
        return ev

    def _next_with_cards(self, p: str) -> str:
        at = self.players.index(p)
        for k in range(1, self.num_players):
            q = self.players[(at + k) % self.num_players]
            if self.hands[q]:
                return q
        return p

    def families_laid(self) -> dict[str, int]:
        return {p: len(family_names(self.laid[p])) for p in self.players}

    def leaders(self) -> list[str]:
        laid = self.families_laid()
        most = max(laid.values())
        return [p for p in self.players if laid[p] == most] if most else []

    def _end_by_families(self) -> Event:
        leaders = self.leaders()
        most = self.families_laid()[leaders[0]] if leaders else 0
        data = {"families": most, "leaders": " ".join(leaders)}
        if len(leaders) == 1:
            w = leaders[0]
            reason = f"{{{w}}} laid down the most families ({most})"
            self.result = Result(w, reason, "most-families")
            return Event("game-over", "most-families",
                         f"Every family is laid down: {{{w}}} wins with "
                         f"{count(most, 'family', 'families')}.", w, (),
                         {"winner": w, "reason": "most families", **data})
        who = joined([f"{{{p}}}" for p in leaders])
        self.result = Result(None, f"{who} share the win with "
                                   f"{count(most, 'family', 'families')} each", "shared-win")
        return Event("game-over", "shared-win",
                     f"Every family is laid down: {who} share the win with "
                     f"{count(most, 'family', 'families')} each.", None, (),
                     {"winner": "draw", "reason": "shared win", **data})

    def lay_down_dealt(self) -> None:
        """The deal: every family dealt whole is laid down before the first ask (no step,
        so no event), and the first turn is ``p1``'s, or the next player's who holds cards."""
        for p in self.players:
            self._lay_down(p)
        if not self.hands[self.turn]:
            self.turn = self._next_with_cards(self.turn)

    # ----------------------------------------------------------------- views
    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        for p in self.players:
            v[f"{p}.hand"] = list(self.hands[p])
            v[f"{p}.families"] = family_names(self.laid[p])
            v[f"{p}.laid"] = list(self.laid[p])
            v[f"{p}.known"] = sorted(c for c, who in self.seen.items() if who == p)
        v["turn"] = self.turn if self.result is None else "none"
        v["asks"] = self.asks
        v["families.left"] = len(family_names([c for p in self.players for c in self.hands[p]]))
        v["leaders"] = self.leaders()
        v["result"] = self.result.label if self.result else "none"
        return v

    def table(self) -> list[Zone]:
        n = self.num_players   # a row a player: the others first, p1 on the near side
        rows = {**{p: i for i, p in enumerate(self.players[1:])}, "p1": n - 1}
        zones = []
        for p in self.players:
            zones.append(Zone(f"{p}.hand", "Hand", rows[p], 0, owner=p, seen_by="owner",
                              style="fan", cards=[(c, True) for c in self.hands[p]]))
            laid = family_names(self.laid[p])
            zones.append(Zone(f"{p}.laid", "Families", rows[p], 1, owner=p, style="pile",
                              cards=[(c, True) for c in self.laid[p][-1:]],
                              count=len(self.laid[p]), note=", ".join(laid)))
        return zones

    def piles(self) -> dict[str, list]:
        return {f"{p}.hand": self.hands[p] for p in self.players}

    def all_cards(self) -> Counter:
        return Counter(c for p in self.players for c in self.hands[p] + self.laid[p])


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> HappyFamiliesState:
    cards = deck().all()
    rng.shuffle(cards)
    n = options["players"]
    hands = {f"p{i + 1}": cards[i::n] for i in range(n)}   # one at a time, p1 first
    state = HappyFamiliesState(options, hands, {}, "p1")
    state.lay_down_dealt()
    return state


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> HappyFamiliesState:
    """Setup: ``piles:`` with each player's ``hand`` and ``laid`` (``p1.hand``,
    ``p1.laid``, ... up to the number of players), and ``turn`` (default ``p1``). A setup
    holds whole families only, each in hands or laid down whole; a family it leaves out is
    not in play. No hand may hold a whole family (it would have been laid down)."""
    n = options["players"]
    players = [f"p{i}" for i in range(1, n + 1)]
    for key in setup:
        if key not in ("piles", "turn"):
            raise SetupError(f"Happy Families' setup has piles and turn, not '{key}'", (key,))
    piles = setup.get("piles") or {}
    known = [f"{p}.{kind}" for p in players for kind in ("hand", "laid")]
    for name in piles:
        if name not in known:
            raise SetupError(f"unknown pile '{name}' (with {n} players: {', '.join(known)})",
                             ("piles", name))
    the_deck = deck()
    got: dict[str, list] = {}
    where: dict[Any, str] = {}
    for name in known:
        raw = piles.get(name) or []
        if not isinstance(raw, list):
            raise SetupError(f"pile '{name}' must be a list of cards", ("piles", name))
        got[name] = []
        for i, text in enumerate(raw):
            try:
                card = the_deck.parse(text)
            except CardError as e:
                raise SetupError(str(e), ("piles", name, i)) from None
            if card in where:
                raise SetupError(f"{card} is in {where[card]} and in {name}; the game has one "
                                 f"of each card", ("piles", name, i))
            where[card] = name
            got[name].append(card)
    for name in family_names(list(where)):
        missing = [c for c in families(the_deck)[name] if c not in where]
        if missing:
            raise SetupError(f"the {name} family is only partly in the setup ("
                             f"{joined(str(c) for c in missing)} missing); a setup holds whole "
                             f"families, and a family it leaves out is not in play", ("piles",))
    for p in players:
        for name in family_names(got[f"{p}.laid"]):
            if any(where[c] != f"{p}.laid" for c in families(the_deck)[name]):
                raise SetupError(f"{p}.laid holds part of the {name} family; a family is laid "
                                 f"down whole", ("piles", f"{p}.laid"))
        for name in family_names(got[f"{p}.hand"]):
            if all(where[c] == f"{p}.hand" for c in families(the_deck)[name]):
                raise SetupError(f"{p}.hand holds the whole {name} family, which would already "
                                 f"be laid down: put it in {p}.laid", ("piles", f"{p}.hand"))
    if not any(got[f"{p}.hand"] for p in players):
        raise SetupError("every hand is empty: the game would be over", ("piles",))
    turn = setup.get("turn", "p1")
    if turn not in players:
        raise SetupError(f"turn must be one of {', '.join(players)}, not '{turn}'", ("turn",))
    if not got[f"{turn}.hand"]:
        raise SetupError(f"{turn} holds no cards, so it cannot be their turn", ("turn",))
    return HappyFamiliesState(options, {p: got[f"{p}.hand"] for p in players},
                              {p: got[f"{p}.laid"] for p in players}, turn)


# --------------------------------------------------------------------------- the bot
def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """A player with a good memory, who asks where the card most likely is.

    It reads its own hand, how many cards each player holds, the families laid down and
    what the table has heard (the state's ``seen``, ``lacks`` and ``claims``), never
    another hand. For each card it may ask for and each player it may ask, it puts a
    chance that the player holds the card: 1 for the player everyone saw take it (0 for
    everyone else); 0 for a player known not to hold it (they asked for it, or were asked
    for it and did not have it, or handed it over); otherwise a share in proportion to a
    weight: the player's cards not seen going into their hand, times ``CLAIM_WEIGHT`` (3)
    when they are known to hold a card of that family that nobody saw them take (they
    asked for one while not seen holding any, and have handed over none since but cards
    seen going in). It asks the card and player with the best chance; on equal
    chances, a card of the family it holds most cards of, then a player with more cards;
    among asks still equal it draws one from ``rng`` (one ``choice`` among them, listed
    card by card in the deck's order, players in seat order), so that no seat is asked
    more often for where it sits."""
    assert isinstance(state, HappyFamiliesState)
    choice = state.node().choices[player]
    whom: list[str] = choice.part(0, ()).values
    cards: list = choice.part(1, (whom[0],)).values
    held = Counter(str(c.family) for c in state.hands[player])
    seen_with = Counter(state.seen.values())
    unseen = {q: max(len(state.hands[q]) - seen_with[q], 0) for q in whom}
    best: list = []
    best_key = None
    for card in cards:
        family = str(card.family)
        holder = state.seen.get(card)
        if holder in whom:
            chances = {q: 1.0 if q == holder else 0.0 for q in whom}
        else:
            weight = {q: 0.0 if card in state.lacks[q] else unseen[q] * (
                CLAIM_WEIGHT if family in state.claims[q] else 1) for q in whom}
            total = sum(weight.values())
            chances = {q: weight[q] / total if total else 0.0 for q in whom}
        for q in whom:
            key = (chances[q], held[family], len(state.hands[q]))
            if best_key is None or key > best_key:
                best, best_key = [(q, card)], key
            elif key == best_key:
                best.append((q, card))
    return best[0] if len(best) == 1 else rng.choice(best)


# --------------------------------------------------------------------------- the search bot
#: worlds :func:`determinize` tries to deal that keep everything the table heard, before it
#: keeps less of it (see there)
DEAL_TRIES = 60


def determinize(state: State, player: str, rng: random.Random) -> HappyFamiliesState:
    """What ``player`` cannot know, dealt again (``GameDef.determinize``, for the search
    bot): the other players' hands, each keeping its size, dealt only in ways the table's
    memory allows.

    ``player`` keeps their own hand; the families laid down lie open. Of the cards in the
    other hands (every card in play but ``player``'s, which they can count), each card the
    table saw a player take and still holds (``seen``) stays with that player; every other
    card goes to a player not known to lack it (``lacks``: they asked for it, were asked
    and said "Not at home", or handed it over); a player known to hold a card of a family
    nobody saw them take (``claims``) is dealt one; and no hand is dealt a whole family
    (it would have been laid down). The cards are dealt most-constrained first, each to a
    player who may hold it with a chance in proportion to the room left in their hand; a
    deal that runs into a dead end is started again (``DEAL_TRIES`` times), and only then
    is the memory kept in part: first the whole families and the claims are let go, then
    the lacks (what was seen going where is always kept). The state's memory itself is
    copied unchanged, so the heuristic playing the world out hears what the table heard."""
    src: HappyFamiliesState = state  # type: ignore[assignment]
    others = [q for q in src.players if q != player and src.hands[q]]
    pinned: dict[str, list] = {q: [] for q in others}
    for card, who in src.seen.items():
        if who in pinned:
            pinned[who].append(card)
    taken = {c for cards in pinned.values() for c in cards}
    pool = [c for q in others for c in src.hands[q] if c not in taken]
    pool.sort()   # the deck's order: what is dealt depends on the generator alone
    room = {q: len(src.hands[q]) - len(pinned[q]) for q in others}
    whole = families(next(c for h in src.hands.values() for c in h).deck)
    hands = None
    for strict in (2, 1, 0):
        for _ in range(DEAL_TRIES if strict else 1):
            hands = _deal(src, others, pinned, pool, room, whole, strict, rng)
            if hands is not None:
                break
        if hands is not None:
            break
    assert hands is not None   # strict 0 keeps only the seen cards, which always fits
    world = src.clone()
    world._node = world._shown = None
    for q in others:
        world.hands[q] = sorted(hands[q])
    return world


def _deal(src: HappyFamiliesState, others: list[str], pinned: dict[str, list], pool: list,
          room: dict[str, int], whole: dict[str, tuple], strict: int,
          rng: random.Random) -> dict[str, list] | None:
    """One try of :func:`determinize`'s deal, or None at a dead end. ``strict`` 2 keeps
    the lacks, the claims and no whole family in a hand; 1 the lacks only; 0 neither."""
    lacks = src.lacks if strict else {q: set() for q in others}
    hands = {q: list(pinned[q]) for q in others}
    free = dict(room)
    left = list(pool)
    rng.shuffle(left)
    if strict == 2:
        needs = [(q, f) for q in others for f in src.claims[q]]
        rng.shuffle(needs)
        for q, family in needs:
            if any(str(c.family) == family for c in hands[q] if c not in pinned[q]):
                continue   # a card dealt for another claim, or already, answers it
            can = [c for c in left if str(c.family) == family and c not in lacks[q]]
            if not can or not free[q]:
                return None
            card = rng.choice(can)
            left.remove(card)
            hands[q].append(card)
            free[q] -= 1
    # most-constrained first (the fewest players who may hold it); the shuffle breaks ties
    left.sort(key=lambda c: sum(1 for q in others if c not in lacks[q]))
    for card in left:
        can = [q for q in others if free[q] and card not in lacks[q]]
        if not can:
            return None
        q = rng.choices(can, weights=[free[w] for w in can])[0] if len(can) > 1 else can[0]
        hands[q].append(card)
        free[q] -= 1
    if strict == 2:
        for q in others:
            held = Counter(str(c.family) for c in hands[q])
            if any(n == len(whole[f]) for f, n in held.items()):
                return None
    return hands


# --------------------------------------------------------------------------- the book
def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``): each player's cards in hand
    and families laid down, then whose turn it is and how many families are still out."""
    lines = []
    for p in players_in(view):
        said = f"{count(size(view[f'{p}.hand']), 'card')} in hand"
        laid = view[f"{p}.families"]
        if laid:
            said += f", {count(len(laid), 'family', 'families')} laid down ({joined(laid)})"
        lines.append((p, said))
    left = view["families.left"]
    game = []
    end = result_line(view)
    if end:
        game.append("every family laid down" if not left
                    else f"{count(left, 'family', 'families')} never laid down")
        game.append(end)
    else:
        game.append(f"{count(left, 'family', 'families')} still in the hands")
        game.append(f"{{{view['turn']}}} asks next")
    return lines + [("", "; ".join(game))]


def marks(events: list[Event], table: list[Zone]) -> dict[str, str]:
    """The card handed over is ``won``; the cards of a family laid down, ``revealed``."""
    out = {}
    for e in events:
        if e.kind == "lay-down":
            out.update({str(c): "revealed" for c in e.cards})
    for e in events:
        if e.kind == "hand-over":
            out[str(e.cards[0])] = "won"
    return out


def attempt(player: str, value: Any) -> str | None:
    """An ask in words, for the narration of one the rules refuse (``GameDef.attempt``):
    "ask {p2} for Mrs Thimble" ("Hazel tries to ask Owen for Mrs Thimble"). None (the
    decision as written) for anything that is not a player and a card of the deck."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    whom, card = (str(v) if not isinstance(v, CardBase) else v for v in value)
    if not isinstance(card, CardBase):   # left as written where the player was refused
        try:
            card = deck().parse(card)
        except CardError:
            return None
    who = f"{{{whom}}}" if re.fullmatch(r"p\d+", whom) else whom
    return f"ask {who} for {card.name()}"


def max_steps(options: dict[str, Any]) -> int:
    """One step an ask, and the game stops at ``max_asks`` asks."""
    return options["max_asks"]


__all__ = ["GAME", "HappyFamiliesState", "WhomToAsk", "CardToAsk", "SHIPPED", "deck",
           "families"]


def lead(state: HappyFamiliesState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): the most families laid
    down, what decides the game."""
    return lead_of(state.families_laid())


GAME = GameDef(
    slug="happy-families", title="Happy Families", cards="own", options=OPTIONS,
    rule_ids=RULES, event_kinds=EVENT_KINDS, view_keys=VIEW_KEYS, new_game=new_game,
    from_setup=from_setup, heuristic=heuristic, max_steps=max_steps,
    supply=lambda options: deck().supply(),   # every card of the deck is dealt
    option_sets=[{}, {"players": 3}, {"players": 5}, {"players": 6}, {"max_asks": 100}],
    round_key="asks", round_word="ask", cap_rules=frozenset({"ask-cap"}),
    determinize=determinize, describe=describe, marks=marks, attempt=attempt,
    lead=lead,
)
