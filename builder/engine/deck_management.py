"""War with Deck Management: War played in rounds, with a face-up won pile and a discard
down at the end of every round (a variant published anonymously on a blog).

Rulings (RULINGS.md, "War with Deck Management", and R0.1-R0.3), with the gaps this module
decides marked *gap*:

* 2 players get 26 face-down cards each; 3 or 4 players get an equal share and the leftover
  cards lie face up in the middle, going to the winner of the next trick won (in a real game
  the first trick). Ace is high, suits never matter.
* A trick: every player still holding face-down cards turns up the top one; the single
  highest card takes everything in play into its owner's face-up **won pile**. Players tied
  for the highest card fight a **war**: each lays 3 soldiers face down and turns up a
  general; the players tied for the highest general take it or, if several, fight on.
  Everyone else sits the war out (their trick card stays in the pot).
* Short of face-down cards in a war: the player shuffles their won pile (a chance event
  whose outcome is the pile's new order, top first), draws the missing cards from its top
  and leaves the rest face up. The face-down cards are laid first, then the drawn ones in
  the order drawn, so the last drawn card is the general (*gap*).
* A player whose face-down stack and won pile together hold fewer than 4 cards when a war
  round starts cannot complete the war and is out at once. If that leaves one player, they
  win; if none, the game is a draw (2 players: "both cannot"). Otherwise (3+ players, *gap*)
  the out player's remaining cards go into the pot, and the war goes on among the tied
  players left; a lone survivor takes the pot without laying soldiers, and a pot nobody is
  left to fight for goes out of the game.
* A round ends when at most one player still holds face-down cards (2 players: both run out
  together, their stacks are always equal). The last holder's face-down cards join their
  won pile and count (*gap*). A player with no cards is out; the last player left wins. The
  single player with the most cards chooses cards to discard down to the second-highest
  count (2 players: down to the other's count); players tied for the most discard nothing
  (*gap*). Each remaining player's cards then become their new face-down stack: shuffled
  (one chance event per player) or, with ``deck_order: arranged``, arranged by every player
  at once (one joint decision, R0.2), in round 1 too, right after the deal (*gap*).
* R0.3: the game is a draw once ``max_rounds`` rounds have ended without a winner.

Steps: a trick with all its wars is one step in which every player's only decision is
``turn``; a war that needs a won pile shuffled pauses at that chance event and goes on in
the chance step. The discard is a decision of one player; the new stacks are chance events
(one per player) or one joint decision.

The step bound (:func:`max_steps`) is ``max_rounds * (27 + 7 * players)``; see there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .core import (
    ACE_HIGH,
    RANK_NAMES,
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
    SubsetOf,
    Zone,
    cards_str,
    full_deck,
    lead_of,
    parse_cards,
)
from .words import trick_marks

OPTIONS = {
    "players": Option("players", 2, "How many play: 2, 3 or 4.", choices=(2, 3, 4)),
    "deck_order": Option(
        "deck_order", "shuffled",
        "shuffled: each round's stack is shuffled; arranged: each player orders their own "
        "stack (the advanced rules).", choices=("shuffled", "arranged"),
    ),
    "max_rounds": Option(
        "max_rounds", 200, "The game is a draw after this many rounds (ruling R0.3).",
        minimum=1, maximum=10000,
    ),
}

RULES = frozenset({
    # rules
    "turn-up", "highest-takes", "leftovers", "war", "war-again", "war-tied-only",
    "war-draw", "war-cannot-finish", "sit-out", "round-end", "discard", "out-of-cards",
    "reshuffle", "arranged", "last-player",
    # clarifications
    "won-order", "drawn-general", "both-short", "forfeit", "unclaimed", "last-stack",
    "most-tied", "secret-arranging", "round-cap",
})

EVENT_KINDS = {
    "reveal": "a player turns a card face up (data: role = trick or general)",
    "war": "players tied for the highest card (or general) go to war (data: number, players)",
    "bystander": "a player in the trick but not tied for the highest card sits the war out",
    "short": "a war player has too few face-down cards and must draw from the won pile "
             "(data: need)",
    "draw": "a player draws the missing cards from the top of their shuffled won pile "
            "(data: count, left = cards left face up)",
    "soldiers": "a player lays three soldiers face down",
    "take": "a player takes the cards in play (data: count)",
    "leftovers": "the trick's winner also takes the leftover cards from the middle (data: count)",
    "collect": "the taken cards go face up on top of the winner's won pile",
    "cannot-finish": "a player cannot complete a war and is out (data: have = cards held)",
    "forfeit": "the cards of a player who could not finish a war go into the pot (3+ players)",
    "unclaimed": "nobody is left to win a war: its cards leave the game (3+ players)",
    "sit-out": "a player is out of face-down cards and sits out the rest of the round",
    "round-end": "the round is over; every player's cards are counted (data: round, counts)",
    "last-stack": "the last player holding face-down cards adds them to their count",
    "player-out": "a player with no cards at the end of a round is out",
    "must-discard": "the player with the most cards must discard (data: count, down_to)",
    "no-discard": "nobody has to discard this round",
    "discard": "a player discards the chosen cards out of the game (data: count)",
    "new-round": "a new round begins (data: round)",
    "shuffle": "a player shuffles their cards into a new face-down stack (data: count)",
    "arrange": "a player arranges their cards into a new face-down stack (data: count)",
    "game-over": "the game ends (data: winner, reason)",
}

VIEW_KEYS = {
    "{p}.stack": "the player's face-down stack, top first",
    "{p}.won": "the player's face-up won pile, top first",
    "{p}.play": "the player's cards in the trick in progress, in the order laid "
                "(empty between tricks)",
    "{p}.cards": "how many cards the player holds: stack and won pile together",
    "{p}.status": "playing, sitting out (no face-down cards left this round) or out",
    "middle": "the leftover cards lying face up in the middle (3 players), top first",
    "discards": "the cards out of the game (discarded, or from a war nobody could win), "
                "latest first",
    "round": "the number of the round being played (the discard belongs to the round it "
             "ends, the shuffle or arrangement to the round it starts)",
    "phase": "what happens next: trick, war-draw (a won pile is to be shuffled), discard, "
             "shuffle, arrange, or over",
    "tricks": "tricks played so far in this round",
    "trick.winner": "who took the last finished trick (none if nobody did)",
    "trick.wars": "how many war rounds the last finished trick needed",
    "trick.cards": "how many cards the winner of the last trick added to their won pile",
    "discarder": "who must discard now, or discarded at the last round end (none if nobody)",
    "discard.count": "how many cards that player must discard (or discarded)",
    "result": "p1, p2, ... or draw once the game is over; none before",
}


def rank(card: Card) -> int:
    return ACE_HIGH[card.rank]


def plural_rank(card: Card) -> str:
    name = RANK_NAMES[card.rank]
    return name + ("es" if name.endswith("x") else "s")


def _s(n: int, word: str = "card") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _only(n: int, word: str = "card") -> str:
    """"no cards" or "only 1 card": how many a player is short with, read aloud."""
    return f"no {word}s" if n == 0 else f"only {_s(n, word)}"


class DeckState(State):
    game: GameDef

    def __init__(self, options: dict[str, Any], stacks: dict[str, list[Card]],
                 won: dict[str, list[Card]] | None = None, middle: list[Card] | None = None,
                 discards: list[Card] | None = None, out: list[str] | None = None,
                 round_no: int = 1, prepare: bool = False):
        super().__init__(options)
        self.num_players = options["players"]
        ps = self._ps = tuple(f"p{i}" for i in range(1, self.num_players + 1))
        self.stack = {p: list(stacks.get(p, [])) for p in ps}
        self.won = {p: list((won or {}).get(p, [])) for p in ps}
        self.middle = list(middle or [])
        self.discards = list(discards or [])
        self.out: list[str] = list(out or [])
        self.round = round_no
        self.tricks = 0
        # the trick in progress
        self.play: dict[str, list[tuple[Card, bool]]] = {p: [] for p in ps}
        self.contenders: list[str] = []
        self.wars = 0
        self.war_round_open = False  # a war round has been started (shortages checked)
        self.draw_queue: list[str] = []  # war players still to top up from their won pile
        self.walkover = False  # the last war round was won by the only player left in it
        self._drawn: dict[str, tuple[Card, ...]] = {}  # cards drawn from won piles this war round
        # the last finished trick
        self.last_winner: str | None = None
        self.last_wars = 0
        self.last_taken = 0
        # round end
        self.discarder: str | None = None
        self.discard_count = 0
        self.prep_queue: list[str] = []
        self.sitting: set[str] = {p for p in ps if p not in self.out and not self.stack[p]}
        self.phase = "trick"
        if prepare:
            self._begin_preparation([], new_round=False)

    # ----------------------------------------------------------------- helpers
    @property
    def players(self) -> list[str]:
        return list(self._ps)

    def alive(self) -> list[str]:
        return [p for p in self._ps if p not in self.out]

    def holders(self) -> list[str]:
        """Players still in the game with face-down cards: they play the next trick."""
        return [p for p in self._ps if self.stack[p] and p not in self.out]

    def total(self, p: str) -> int:
        return len(self.stack[p]) + len(self.won[p])

    # ----------------------------------------------------------------- protocol
    def pending(self) -> DecisionNode | ChanceNode | None:
        if self.result is not None:
            return None
        if self.phase == "trick":
            return DecisionNode(
                {p: OneOf(["turn"], rule="turn-up") for p in self.holders()},
                what="everyone with face-down cards turns up their top card",
            )
        if self.phase == "war-draw":
            p = self.draw_queue[0]
            return ChanceNode(OrderOf(self.won[p], rule="war-draw", what=f"{p}'s won pile"),
                              what=f"{p} shuffles their won pile to draw for the war "
                                   "(the outcome is its new order, top first)", player=p)
        if self.phase == "discard":
            p = self.discarder
            return DecisionNode(
                {p: SubsetOf(self.won[p], self.discard_count, rule="discard",
                             what=f"{p}'s cards")},
                what=f"{p} chooses {_s(self.discard_count)} to discard",
            )
        if self.phase == "shuffle":
            p = self.prep_queue[0]
            return ChanceNode(OrderOf(self.stack[p], rule="reshuffle", what=f"{p}'s cards"),
                              what=f"{p} shuffles their cards into a new face-down stack "
                                   "(the outcome is its order, top first)", player=p)
        if self.phase == "arrange":
            return DecisionNode(
                {p: OrderOf(self.stack[p], rule="arranged", what=f"{p}'s cards")
                 for p in self.alive()},
                what="every player arranges their new face-down stack (top first), in secret",
            )
        raise AssertionError(f"unknown phase {self.phase}")  # pragma: no cover

    # ----------------------------------------------------------------- a trick
    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        if self.phase == "trick":
            return self._start_trick()
        if self.phase == "discard":
            return self._apply_discard(decisions)
        if self.phase == "arrange":
            return self._apply_arrange(decisions)
        raise AssertionError(self.phase)  # pragma: no cover

    def _start_trick(self) -> list[Event]:
        ev: list[Event] = []
        self.play = {p: [] for p in self.players}
        in_trick = self.holders()
        for p in in_trick:
            c = self.stack[p].pop(0)
            self.play[p].append((c, True))
            ev.append(Event("reveal", "turn-up", f"{{{p}}} turns up {c}.", p, (c,),
                            {"role": "trick"}))
        best = max(rank(self.play[p][0][0]) for p in in_trick)
        self.contenders = [p for p in in_trick if rank(self.play[p][0][0]) == best]
        self.wars = 0
        self.walkover = False
        self.war_round_open = False
        self.draw_queue = []
        return self._resolve(ev)

    def _resolve(self, ev: list[Event]) -> list[Event]:
        """Carry the trick in progress on until it is won, or a won pile must be shuffled."""
        while True:
            if len(self.contenders) == 1:
                self._award(self.contenders[0], ev)
                return ev
            if not self.war_round_open:
                if not self._open_war_round(ev):
                    return ev
                if len(self.contenders) <= 1:
                    continue
            # top up from the won pile where the face-down stack is short
            while self.draw_queue:
                p = self.draw_queue[0]
                if len(self.won[p]) > 1:
                    self.phase = "war-draw"
                    return ev  # a chance event: the shuffle of p's won pile
                self._draw(p, ev)  # a single card needs no shuffle
            self.phase = "trick"
            # soldiers and generals
            generals = {}
            for p in self.contenders:
                cards = self.stack[p][:4]
                del self.stack[p][:4]
                soldiers, general = cards[:3], cards[3]
                self.play[p].extend((c, False) for c in soldiers)
                self.play[p].append((general, True))
                generals[p] = general
                ev.append(Event("soldiers", "war", f"{{{p}}} lays three soldiers face down.",
                                p, tuple(soldiers), {"count": 3}))
                drawn = self._drawn.get(p, ())
                rule = "drawn-general" if general in drawn else "war"
                ev.append(Event("reveal", rule, f"{{{p}}} turns up {general} as general"
                                + (" (the last card drawn from the won pile)."
                                   if rule == "drawn-general" else "."),
                                p, (general,), {"role": "general"}))
            self._drawn = {}
            best = max(rank(g) for g in generals.values())
            self.contenders = [p for p in self.contenders if rank(generals[p]) == best]
            self.war_round_open = False

    def _open_war_round(self, ev: list[Event]) -> bool:
        """Start a war round among the contenders. Returns False if the game ended."""
        self.wars += 1
        names = " and ".join(f"{{{p}}}" for p in self.contenders)
        if self.wars == 1:
            top = self.play[self.contenders[0]][0][0]
            ev.append(Event("war", "war", f"{names} tie with {plural_rank(top)}: war!", None,
                            tuple(self.play[p][0][0] for p in self.contenders),
                            {"number": 1, "players": " ".join(self.contenders)}))
            for p in self.players:
                if self.play[p] and p not in self.contenders:
                    ev.append(Event("bystander", "war-tied-only",
                                    f"{{{p}}} is not tied for the highest card and sits the "
                                    "war out; their card stays in the pot.", p,
                                    (self.play[p][0][0],)))
        else:
            g = self.play[self.contenders[0]][-1][0]
            ev.append(Event("war", "war-again",
                            f"The generals of {names} tie with {plural_rank(g)}: the war goes on!",
                            None, tuple(self.play[p][-1][0] for p in self.contenders),
                            {"number": self.wars, "players": " ".join(self.contenders)}))
        # who cannot complete the war?
        short = [p for p in self.contenders if self.total(p) < 4]
        for p in short:
            self.out.append(p)
            ev.append(Event("cannot-finish", "war-cannot-finish",
                            f"{{{p}}} has {_only(self.total(p))} left and cannot complete the war: "
                            f"{{{p}}} is out.", p, (), {"have": self.total(p)}))
        if short:
            left = self.alive()
            if len(left) <= 1:
                self.show()
                self.phase = "over"
                if not left:
                    self._end(None, "no player could complete the war", "both-short", ev)
                elif self.num_players == 2:
                    self._end(left[0], f"{{{short[0]}}} could not complete the war",
                              "war-cannot-finish", ev)
                else:
                    self._end(left[0], f"{{{left[0]}}} is the last player left", "last-player", ev)
                return False
            for p in short:  # 3+ players: the game goes on without them
                cards = self.stack[p] + self.won[p]
                self.stack[p], self.won[p] = [], []
                self.play[p].extend((c, False) for c in cards)
                self.sitting.discard(p)
                if not cards:
                    continue
                ev.append(Event("forfeit", "forfeit",
                                (f"{{{p}}}'s last card goes into the pot." if len(cards) == 1
                                 else f"{{{p}}}'s last {len(cards)} cards go into the pot."), p,
                                tuple(cards), {"count": len(cards)}))
            self.contenders = [p for p in self.contenders if p not in short]
            if not self.contenders:
                self.show()
                pot = [c for p in self.players for c, _ in self.play[p]]
                self.discards = pot + self.discards
                ev.append(Event("unclaimed", "unclaimed",
                                f"Nobody is left to win the war: its {_s(len(pot))} leave the game.",
                                None, tuple(pot), {"count": len(pot)}))
                self._finish_trick(None, 0, ev)
                return False
            if len(self.contenders) == 1:
                self.walkover = True  # the lone survivor takes the pot
                return True
        self.war_round_open = True
        self._drawn = {}
        self.draw_queue = []
        for p in self.contenders:
            need = 4 - len(self.stack[p])
            if need > 0:
                ev.append(Event("short", "war-draw",
                                (f"{{{p}}} has only {_s(len(self.stack[p]), 'face-down card')}"
                                 if self.stack[p] else f"{{{p}}} has no face-down cards left")
                                + f" and must draw {need} from the won pile.", p, (),
                                {"need": need}))
                self.draw_queue.append(p)
        return True

    def _draw(self, p: str, ev: list[Event]) -> None:
        need = 4 - len(self.stack[p])
        drawn = self.won[p][:need]
        del self.won[p][:need]
        self.stack[p].extend(drawn)
        self._drawn[p] = tuple(drawn)
        self.draw_queue.pop(0)
        ev.append(Event("draw", "war-draw",
                        f"{{{p}}} draws {cards_str(drawn)} from the top of the won pile; "
                        + (f"{_s(len(self.won[p]))} {'stays' if len(self.won[p]) == 1 else 'stay'}"
                           " face up." if self.won[p] else "none is left."), p, tuple(drawn),
                        {"count": len(drawn), "left": len(self.won[p])}))

    def _apply_chance(self, outcome: Any) -> list[Event]:
        ev: list[Event] = []
        if self.phase == "war-draw":
            p = self.draw_queue[0]
            self.won[p] = list(outcome)
            self._draw(p, ev)
            return self._resolve(ev)
        if self.phase == "shuffle":
            p = self.prep_queue.pop(0)
            self.stack[p] = list(outcome)
            ev.append(Event("shuffle", "reshuffle",
                            f"{{{p}}} shuffles {_s(len(outcome))} into a new face-down stack.",
                            p, (), {"count": len(outcome)}))
            self._next_preparation(ev)
            return ev
        raise AssertionError(self.phase)  # pragma: no cover

    def _award(self, w: str, ev: list[Event]) -> None:
        self.show()
        taken = [c for p in self.players for c, _ in self.play[p]]
        best = self.play[w][-1][0]
        rule = "war" if self.wars else "highest-takes"
        if self.walkover:
            text = f"{{{w}}} is the only one left in the war and takes {_s(len(taken))}."
        else:
            text = f"{{{w}}}'s {best} is highest: {{{w}}} takes {_s(len(taken))}."
        ev.append(Event("take", rule, text, w, tuple(taken), {"count": len(taken)}))
        if self.middle:
            taken += self.middle
            ev.append(Event("leftovers", "leftovers",
                            f"{{{w}}} also takes the leftover {cards_str(self.middle)} "
                            "from the middle.", w, tuple(self.middle),
                            {"count": len(self.middle)}))
            self.middle = []
        self.won[w] = taken + self.won[w]
        self.play = {p: [] for p in self.players}  # they left the table (drawn so at this event)
        ev.append(Event("collect", "won-order",
                        f"{{{w}}} lays them face up on the won pile ({_s(len(self.won[w]))} now).",
                        w, tuple(taken), {"count": len(taken)}))
        self._finish_trick(w, len(taken), ev)

    def _finish_trick(self, winner: str | None, taken: int, ev: list[Event]) -> None:
        self.tricks += 1
        self.last_winner = winner
        self.last_wars = self.wars
        self.last_taken = taken
        self.play = {p: [] for p in self.players}
        self.contenders = []
        self.war_round_open = False
        self.phase = "trick"
        if len(self.alive()) <= 1:  # pragma: no cover - ended in _open_war_round
            return
        holders = self.holders()
        if len(holders) <= 1:
            self._end_round(ev)
            return
        for p in self.alive():
            if not self.stack[p] and p not in self.sitting:
                self.sitting.add(p)
                ev.append(Event("sit-out", "sit-out",
                                f"{{{p}}} has no face-down cards left and sits out the rest "
                                "of the round.", p))

    # ----------------------------------------------------------------- round end
    def _end_round(self, ev: list[Event]) -> None:
        for p in self.alive():
            if self.stack[p]:
                n = len(self.stack[p])
                ev.append(Event("last-stack", "last-stack",
                                f"{{{p}}} still has {_s(n, 'face-down card')}; they count "
                                "too and go on the won pile.", p, tuple(self.stack[p]),
                                {"count": n}))
                self.won[p] = self.stack[p] + self.won[p]
                self.stack[p] = []
        counts = {p: len(self.won[p]) for p in self.alive()}
        ev.append(Event("round-end", "round-end",
                        f"Round {self.round} is over: "
                        + ", ".join(f"{{{p}}} {counts[p]}" for p in counts) + ".",
                        None, (), {"round": self.round,
                                   "counts": " ".join(f"{p}={counts[p]}" for p in counts)}))
        for p in list(self.alive()):
            if not self.won[p]:
                self.out.append(p)
                ev.append(Event("player-out", "out-of-cards",
                                f"{{{p}}} has no cards and is out.", p))
        left = self.alive()
        if len(left) <= 1:
            self.phase = "over"
            if not left:
                self._end(None, "nobody has a card left", "out-of-cards", ev)
            elif self.num_players == 2:
                loser = next(p for p in self.players if p != left[0])
                self._end(left[0], f"{{{loser}}} has no cards left", "out-of-cards", ev)
            else:
                self._end(left[0], f"{{{left[0]}}} is the last player left", "last-player", ev)
            return
        if self.round >= self.options["max_rounds"]:
            self.phase = "over"
            self._end(None, f"no winner after {_s(self.round, 'round')}", "round-cap", ev)
            return
        ranked = sorted(left, key=lambda p: -len(self.won[p]))
        most, second = len(self.won[ranked[0]]), len(self.won[ranked[1]])
        if most > second:
            self.discarder = ranked[0]
            self.discard_count = most - second
            self.phase = "discard"
            ev.append(Event("must-discard", "discard",
                            f"{{{ranked[0]}}} has the most cards and must discard "
                            f"{_s(most - second)}, down to {second}.", ranked[0], (),
                            {"count": most - second, "down_to": second}))
            return
        self.discarder, self.discard_count = None, 0
        if len(left) == 2:
            ev.append(Event("no-discard", "discard",
                            "Both hold the same number of cards: nobody discards.", None))
        else:
            tied = [p for p in left if len(self.won[p]) == most]
            ev.append(Event("no-discard", "most-tied",
                            " and ".join(f"{{{p}}}" for p in tied)
                            + f" share the most cards ({most}): nobody discards.", None))
        self._begin_preparation(ev, new_round=True)

    def _apply_discard(self, decisions: dict[str, Any]) -> list[Event]:
        p = self.discarder
        chosen = list(decisions[p])
        gone = set(chosen)  # one deck: every card is unique
        self.won[p] = [c for c in self.won[p] if c not in gone]
        self.discards = chosen + self.discards
        ev = [Event("discard", "discard",
                    f"{{{p}}} discards {cards_str(chosen)} out of the game, keeping "
                    f"{_s(len(self.won[p]))}.", p, tuple(chosen), {"count": len(chosen)})]
        self._begin_preparation(ev, new_round=True)
        return ev

    def _begin_preparation(self, ev: list[Event], new_round: bool) -> None:
        """Each remaining player's cards become the face-down stack of the next round
        (``new_round``: after a round end; else the deal or a setup's round start)."""
        if new_round:
            self.round += 1
            ev.append(Event("new-round", "reshuffle" if self.options["deck_order"] == "shuffled"
                            else "arranged", f"Round {self.round} begins.", None, (),
                            {"round": self.round}))
        self.tricks = 0
        self.sitting = set()
        for p in self.alive():
            self.stack[p] = self.won[p] + self.stack[p]
            self.won[p] = []
        if self.options["deck_order"] == "arranged":
            self.phase = "arrange"
        else:
            self.prep_queue = [p for p in self.alive()]
            self.phase = "shuffle"
            self._next_preparation(ev)

    def _next_preparation(self, ev: list[Event]) -> None:
        while self.prep_queue and len(self.stack[self.prep_queue[0]]) <= 1:
            p = self.prep_queue.pop(0)  # a single card needs no shuffle
            ev.append(Event("shuffle", "reshuffle",
                            f"{{{p}}} has a single card: it is the new face-down stack.",
                            p, (), {"count": len(self.stack[p])}))
        if not self.prep_queue:
            self.phase = "trick"

    def _apply_arrange(self, decisions: dict[str, Any]) -> list[Event]:
        ev = []
        for p in self.alive():
            self.stack[p] = list(decisions[p])
            ev.append(Event("arrange", "secret-arranging",
                            f"{{{p}}} arranges {_s(len(self.stack[p]))} face down.", p, (),
                            {"count": len(self.stack[p])}))
        self.phase = "trick"
        return ev

    def _end(self, winner: str | None, reason: str, rule: str, ev: list[Event]) -> None:
        self.phase = "over"
        self.result = Result(winner, reason, rule)
        text = ("{%s} wins: " % winner if winner else "The game is a draw: ") + reason + "."
        ev.append(Event("game-over", rule, text, winner, (),
                        {"winner": winner or "draw", "reason": reason}))

    # ----------------------------------------------------------------- views
    def status(self, p: str) -> str:
        if p in self.out:
            return "out"
        if self.phase in ("trick", "war-draw") and not self.stack[p] and not self.play[p]:
            return "sitting out"
        return "playing"

    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = {}
        for p in self.players:
            v[f"{p}.stack"] = list(self.stack[p])
            v[f"{p}.won"] = list(self.won[p])
            v[f"{p}.play"] = [c for c, _ in self.play[p]]
            v[f"{p}.cards"] = self.total(p)
            v[f"{p}.status"] = self.status(p)
        v["middle"] = list(self.middle)
        v["discards"] = list(self.discards)
        v["round"] = self.round
        v["phase"] = self.phase
        v["tricks"] = self.tricks
        v["trick.winner"] = self.last_winner or "none"
        v["trick.wars"] = self.last_wars
        v["trick.cards"] = self.last_taken
        v["discarder"] = self.discarder or "none"
        v["discard.count"] = self.discard_count
        v["result"] = self.result.label if self.result else "none"
        return v

    def table(self) -> list[Zone]:
        """Rows: p2 (far side), p3, p4, then the middle, then p1 (near side)."""
        zones = []
        order = self.players[1:] + ["middle", "p1"]
        for row, p in enumerate(order):
            if p == "middle":
                if self.num_players > 2 or self.middle:
                    zones.append(Zone("middle", "Leftovers", row, 0, style="fan",
                                      cards=[(c, True) for c in reversed(self.middle)]))
                zones.append(Zone("discards", "Out of the game", row, 1, style="pile",
                                  cards=[(c, True) for c in self.discards[:1]],
                                  count=len(self.discards)))
                continue
            note = "out" if p in self.out else ""
            zones.append(Zone(f"{p}.stack", "Face-down stack", row, 0, owner=p,
                              cards=[(c, False) for c in self.stack[p][:1]],
                              count=len(self.stack[p]), style="pile", note=note))
            zones.append(Zone(f"{p}.play", "In play", row, 1, owner=p,
                              cards=list(self.play[p]), style="fan"))
            zones.append(Zone(f"{p}.won", "Won pile", row, 2, owner=p,
                              cards=[(c, True) for c in self.won[p][:1]],
                              count=len(self.won[p]), style="pile"))
        return zones

    def all_cards(self) -> Counter:
        c = Counter()
        for p in self.players:
            c.update(self.stack[p])
            c.update(self.won[p])
            c.update(card for card, _ in self.play[p])
        c.update(self.middle)
        c.update(self.discards)
        return c


# --------------------------------------------------------------------------- setup
def new_game(options: dict[str, Any], rng: random.Random) -> DeckState:
    deck = full_deck()
    rng.shuffle(deck)
    n = options["players"]
    share = len(deck) // n
    stacks = {f"p{i + 1}": deck[i * share:(i + 1) * share] for i in range(n)}
    middle = deck[n * share:]
    return DeckState(options, stacks, middle=middle,
                     prepare=options["deck_order"] == "arranged")


SETUP_KEYS = ("piles", "round", "out", "start")


def from_setup(options: dict[str, Any], setup: dict[str, Any]) -> DeckState:
    """A position at the start of a trick (the default), or with ``start: round`` at the
    start of a round, before the new stacks (given as ``{p}.stack``) are shuffled or
    arranged. Optional keys: ``round`` (default 1) and ``out`` (players already out)."""
    n = options["players"]
    ps = [f"p{i}" for i in range(1, n + 1)]
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupError(f"unknown setup key '{key}' (this game's setup has: "
                             f"{', '.join(SETUP_KEYS)})", (key,))
    piles = setup.get("piles") or {}
    known = {f"{p}.{z}" for p in ps for z in ("stack", "won")} | {"middle", "discards"}
    for name in piles:
        if name not in known:
            raise SetupError(f"unknown pile '{name}' (with {n} players this game has: "
                             f"{', '.join(sorted(known))})", ("piles", name))
    get = {name: parse_cards(piles.get(name) or []) for name in known}
    round_no = setup.get("round", 1)
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise SetupError(f"round must be a whole number of at least 1, got {round_no!r}",
                         ("round",))
    out = setup.get("out") or []
    if not isinstance(out, list) or any(str(p) not in ps for p in out):
        raise SetupError(f"out must list players among {', '.join(ps)}", ("out",))
    out = [str(p) for p in out]
    for p in out:
        for z in ("stack", "won"):
            if get[f"{p}.{z}"]:
                raise SetupError(f"{p} is out and cannot hold cards", ("piles", f"{p}.{z}"))
    start = setup.get("start", "trick")
    if start not in ("trick", "round"):
        raise SetupError(f"start must be 'trick' or 'round', got {start!r}", ("start",))
    alive = [p for p in ps if p not in out]
    if len(alive) < 2:
        raise SetupError("at least two players must still be in the game", ("out",))
    if start == "round":
        for p in alive:
            if get[f"{p}.won"]:
                raise SetupError("at the start of a round every card is in the face-down "
                                 "stacks (no won piles)", ("piles", f"{p}.won"))
            if not get[f"{p}.stack"]:
                raise SetupError(f"{p} has no cards, so would be out", ("piles", f"{p}.stack"))
    else:
        holding = [p for p in alive if get[f"{p}.stack"]]
        if len(holding) < 2:
            raise SetupError("at least two players need face-down cards for a trick",
                             ("piles",))
        if n == 2 and len(get["p1.stack"]) != len(get["p2.stack"]):
            raise SetupError("with two players both face-down stacks always hold the same "
                             "number of cards", ("piles", "p2.stack"))
    return DeckState(
        options, {p: get[f"{p}.stack"] for p in ps}, won={p: get[f"{p}.won"] for p in ps},
        middle=get["middle"], discards=get["discards"], out=out, round_no=round_no,
        prepare=start == "round",
    )


# --------------------------------------------------------------------------- bots
def heuristic(state: State, player: str, rng: random.Random) -> Any:
    """A sensible player.

    * Tricks are forced: ``turn``.
    * Discarding: throw away the lowest cards (suits do not matter; among equal ranks the
      first ones held), since only high cards win tricks and generals.
    * Arranging (advanced rules), after the seed's tactics: the highest card on top to take
      the first trick, the three lowest cards next as soldiers in case that first trick is
      tied, the second-highest card fifth as the general of that war, and the rest in a
      random order so that the stack is not predictable. Fewer than five cards cannot hold
      a trick card, three soldiers and a general: they are stacked highest first.
    """
    node = state.node()
    ch = node.choices[player]
    if isinstance(ch, SubsetOf):
        ordered = sorted(ch.cards, key=rank)
        return tuple(ordered[:ch.count])
    if isinstance(ch, OrderOf):
        cards = sorted(ch.cards, key=rank, reverse=True)
        if len(cards) < 5:
            return tuple(cards)
        top, general = cards[0], cards[1]
        lows = cards[-3:][::-1]
        rest = cards[2:-3]
        rng.shuffle(rest)
        return tuple([top] + lows + [general] + rest)
    return "turn"


def determinize(state: State, player: str, rng: random.Random) -> DeckState:
    """What ``player`` cannot know, dealt again (``GameDef.determinize``, for the search bot).

    Hidden are the face-down stacks and the face-down soldiers of a war in progress; the won
    piles, the cards face up in play, the middle and the discards lie open.

    * In round 1 the stacks come from the deal, so nobody knows which unseen card is in
      whose stack: all of them are shuffled among all those places.
    * From round 2 on, each stack was made from its owner's face-up won pile, so what it
      holds is known and only its order is hidden: each player's hidden cards are shuffled
      among their own places.
    * With ``deck_order: arranged``, ``player`` arranged their own stack (and saw their
      dealt cards to do it), so their cards stay exactly as they are.

    (A player who is out has forfeited their cards face down into a war's pot; those stay
    as they lie. Choices are only open between tricks, when nothing lies in play.)"""
    src: DeckState = state  # type: ignore[assignment]
    st = src.clone()
    st._node = st._shown = None
    mine_known = st.options["deck_order"] == "arranged"
    hiders = [q for q in st.players
              if q not in st.out and not (mine_known and q == player)]
    groups = [hiders] if st.round == 1 else [[q] for q in hiders]
    for group in groups:
        slots = [(q, "stack", i) for q in group for i in range(len(st.stack[q]))]
        slots += [(q, "play", i) for q in group for i, (_, up) in enumerate(st.play[q])
                  if not up]
        pool = [st.stack[q][i] if pile == "stack" else st.play[q][i][0]
                for q, pile, i in slots]
        rng.shuffle(pool)
        for (q, pile, i), card in zip(slots, pool):
            if pile == "stack":
                st.stack[q][i] = card
            else:
                st.play[q][i] = (card, False)
    return st


def max_steps(options: dict[str, Any]) -> int:
    """``max_rounds * (27 + 7 * players)``.

    Every round ends, and there are at most ``max_rounds`` rounds (R0.3). In one round:

    * at most 26 tricks: each trick takes at least two cards off the face-down stacks
      (cards drawn from a won pile for a war are laid at once), and they hold at most 52;
    * at most 6 war-draw chance events per player: a player draws from the won pile only in
      the trick in which their stack runs out (after it they sit out, or with two players
      the round ends), and a trick has at most 6 war rounds (each lays at least 8 cards
      beside the 2 turned up: 2 + 8k <= 52);
    * at most 1 discard decision;
    * at most ``players`` preparation steps (one shuffle per player, or one joint
      arrangement).

    So a round takes at most 26 + 6n + 1 + n steps.
    """
    return options["max_rounds"] * (27 + 7 * options["players"])



__all__ = ["GAME", "DeckState"]


def describe(view: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table in words after a step (``GameDef.describe``; helpers in ``words.py``)."""
    from .words import count, players_in, result_line, size, who

    lines = []
    for p in players_in(view):
        status = view.get(f"{p}.status")
        if status == "out":
            lines.append((p, "out of the game"))
            continue
        text = (f"{count(view[f'{p}.cards'], 'card')}: {size(view[f'{p}.stack'])} face down,"
                f" {size(view[f'{p}.won'])} in the won pile")
        if status == "sitting out":
            text += "; sits out the rest of the round"
        lines.append((p, text))
    game = [f"round {view['round']}"]
    winner = who(view.get("trick.winner"))
    if winner:
        wars = view.get("trick.wars", 0)
        after = f" after {count(wars, 'war', words=True)}" if wars else ""
        game.append(f"{{{winner}}} took the last trick ({count(view['trick.cards'], 'card')}{after})")
    if size(view.get("middle", [])):
        game.append(f"{count(size(view['middle']), 'leftover card')} in the middle")
    if size(view.get("discards", [])):
        game.append(f"{count(size(view['discards']), 'card')} out of the game")
    end = result_line(view)
    discarder = who(view.get("discarder"))
    if end:
        game.append(end)
    elif view.get("phase") == "discard" and discarder:
        game.append(f"next, {{{discarder}}} discards {count(view['discard.count'], 'card')}")
    elif view.get("phase") == "war-draw":
        game.append("next, a won pile is shuffled to go on with the war")
    elif view.get("phase") in ("shuffle", "arrange"):
        game.append("next, the players make their new stacks")
    lines.append(("", "; ".join(game)))
    return lines






def lead(state: DeckState) -> str | None:
    """Who is ahead (``GameDef.lead``, for the lab's decisiveness): of the players still
    in, the one with the most cards (face-down stack and won pile)."""
    return lead_of({p: state.total(p) for p in state.alive()})


GAME = GameDef(
    slug="deck-management", title="War with Deck Management", options=OPTIONS, rule_ids=RULES,
    event_kinds=EVENT_KINDS, view_keys=VIEW_KEYS, new_game=new_game, from_setup=from_setup,
    heuristic=heuristic, max_steps=max_steps,
    supply=lambda options: Counter(full_deck()),  # one 52-card deck, whatever the players
    option_sets=[
        {}, {"deck_order": "arranged"}, {"players": 3}, {"players": 4},
        {"players": 3, "deck_order": "arranged"}, {"players": 4, "deck_order": "arranged"},
        {"max_rounds": 3},
    ],
    round_key="round", round_word="round", cap_rules=frozenset({"round-cap"}),
    determinize=determinize,
    describe=describe,
    marks=trick_marks,
    lead=lead,
)
