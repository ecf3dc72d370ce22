"""The conformance kit: what every engine must hold, a shipped one or a designer's.

``warbook check`` runs it on each game before anything is printed (its verdict is kept
in the cache, keyed by a hash of the engine's code and options, so it runs again only
when they change), and a plugin author runs the same checks in their own pytest::

    from builder.testing import assert_conforms
    from my_games.crazy_eights import GAME

    def test_crazy_eights_conforms():
        assert_conforms(GAME, games=200)

It plays seeded games with each option set worth testing (the printed options and the
engine's ``option_sets``), with the random bot, the engine's heuristic bot, and the two
against each other, and after the deal and after every step it holds:

* **cards**: the deal holds the game's supply (``supply(options)``, where the engine
  declares it), and every card stays accounted for (``all_cards()`` is the same after
  every step as after the deal: none lost, none made);
* **bound**: the game ends within ``max_steps(options)`` steps;
* **legal**: every decision a bot makes is one its choice offers, and the engine accepts
  it; at every 13th step, each listed choice (up to 12 a player) is tried on a copy of
  the state and must be accepted too;
* **pending**: a game that is not over has a pending decision or chance event;
* **events**: every event is of a declared kind (``event_kinds``) and cites a rule the
  engine declares (``rule_ids``, or ``rules_for(options)``);
* **view**: every view key is declared (``view_keys``, ``{p}`` standing for a player), at
  the deal, every 13th step and the end;
* **marks**: what ``marks(events, table)`` returns, at every 13th step, is of a shared mark
  kind (``MARK_KINDS``) or one the game declares (``mark_kinds``);
* **seed**: the same seed gives the same game;
* **peek**: the heuristic decides from what its seat may see: at every 13th step its
  decision is asked again with the cards hidden from it (``Zone.seen_by``) dealt again
  at random (three times, from the same generator state), and must not change. Only for
  an engine that says who sees what (``State.piles()`` or ``GameDef.determinize``).

A breach is said with the game's seed and step, so the game can be played again; a
game stops at its first breach (what follows would be its consequence). An exception
raised by the engine is a breach too (``fault``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .engine.core import (
    MARK_ALIASES,
    MARK_KINDS,
    GameDef,
    IllegalDecision,
    SetupError,
    fmt_value,
    random_bot,
)
from .faults import exception_words  # as a raised fault is said, "did you mean" too

__all__ = ["Breach", "DEFAULT_GAMES", "assert_conforms", "conformance", "option_sets", "play"]

#: changes whenever what the kit checks changes (a cached verdict is then stale)
VERSION = 3
#: games per option set that ``warbook check`` plays (a third each: random, heuristic,
#: heuristic against random)
DEFAULT_GAMES = 6
#: at most this many breaches are reported per option set (the first of each kind)
MAX_BREACHES = 5

LINEUPS = ("random", "heuristic", "heuristic against random")


@dataclass(frozen=True)
class Breach:
    """One property an engine does not hold, in one seeded game."""

    kind: str            # cards, bound, legal, pending, events, view, marks, seed, peek, fault,
    #                      options
    message: str
    seed: int
    step: int            # 0: the deal
    options: dict[str, Any]
    lineup: str
    #: what to blame: a function of the game (a bot, ``max_steps``, a state method), or
    #: the exception the engine raised (``fault``)
    culprit: Any = field(default=None, compare=False, repr=False)

    def doing(self) -> str:
        opts = ", ".join(f"{k}: {v}" for k, v in self.options.items())
        at = "the deal" if self.step == 0 else f"step {self.step}"
        return (f"game seed {self.seed}, {at}, {self.lineup} bots"
                + (f", options {{{opts}}}" if opts else ""))

    def __str__(self) -> str:
        return f"{self.message} ({self.doing()})"


class _Stop(Exception):
    """The game's first breach: the rest of the game is not played."""

    def __init__(self, breach: Breach):
        super().__init__(str(breach))
        self.breach = breach


def option_sets(game: GameDef, printed: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The option sets the kit plays: the printed options (a game.yaml's fixed settings),
    then each of the engine's ``option_sets`` over them; resolved, without repeats."""
    base = dict(printed or {})
    out: list[dict[str, Any]] = []
    for extra in [{}] + list(game.option_sets):
        opts = game.resolve({**base, **extra})
        if opts not in out:
            out.append(opts)
    return out


def _view_patterns(game: GameDef) -> list[re.Pattern]:
    return [re.compile(re.escape(k).replace(r"\{p\}", r"p\d+") + r"\Z") for k in game.view_keys]


def _bot(game: GameDef, lineup: str, player: str) -> tuple[Callable, str]:
    if lineup == "random" or (lineup == "heuristic against random"
                              and int(player[1:]) % 2 == 0):
        return random_bot, "random"
    return game.heuristic, "heuristic"


def _cards(counter: Counter) -> str:
    items = sorted(((str(c), n) for c, n in counter.items() if n > 0))
    shown = ", ".join(c if n == 1 else f"{c} x{n}" for c, n in items[:8])
    return shown + (", ..." if len(items) > 8 else "")


def _difference(want: Counter, got: Counter, short: str, over: str) -> str:
    """"lost 7H; made 2C": the cards ``got`` lacks and those it has over ``want``."""
    lacking, extra = want - got, got - want
    return "; ".join(f"{word} {_cards(c)}" for word, c in ((short, lacking), (over, extra)) if c)


def play(game: GameDef, options: dict[str, Any], seed: int, lineup: str = "random",
         ) -> tuple[list[tuple], Breach | None]:
    """One seeded game under the kit's eye: its log (a line per step: the node's kind, what
    was decided, the events) and its first breach, or None."""
    opts = game.resolve(options)
    log: list[tuple] = []
    step = 0

    def breach(kind: str, message: str, culprit: Any = None) -> _Stop:
        return _Stop(Breach(kind, message, seed, step, dict(options), lineup, culprit))

    try:
        rng = random.Random(seed)
        state = game.new_game(opts, rng)
        state.moments = False   # recorded, without the tables' pictures no check here reads
        cls = type(state)
        initial = Counter(state.all_cards())
        if game.supply is not None:
            want = Counter(game.supply(opts))
            if initial != want:
                said = _difference(want, initial, "missing", "extra")
                raise breach("cards", f"the deal does not hold the game's supply: {said} "
                             f"(supply(options) against all_cards() of a new game)",
                             game.new_game)
        patterns = _view_patterns(game)
        cited = game.cited_rules(opts)
        bound = game.max_steps(opts)

        def look(chance: bool = False) -> None:
            cards = Counter(state.all_cards())
            if cards != initial:
                said = _difference(initial, cards, "lost", "made")
                raise breach("cards", f"a card is not accounted for: {said} (all_cards() "
                             f"must hold the same cards after every step as after the deal)",
                             (cls._apply_chance if chance else cls._apply) if step
                             else game.new_game)
            if step % 13 != 0 and not state.is_terminal():
                return   # the view's keys at the deal, every 13th step and the end
            for key in state.view():
                if not any(p.match(key) for p in patterns):
                    raise breach("view", f"the view has a key '{key}' that view_keys does not "
                                 f"declare", cls.view)

        def probe(node, decided: dict[str, Any]) -> None:
            """Every listed choice is accepted, each tried on a copy of the state."""
            for p, choice in node.choices.items():
                for value in (choice.enumerate() or [])[:12]:
                    try:
                        state.clone().apply({**decided, p: value})
                    except IllegalDecision as e:
                        raise breach("legal", f"the engine refused {fmt_value(value)} for {p}, which "
                                     f"its choice lists as legal: {e}", cls._apply) from None

        determinize = game.determinizer()
        peek_due = True
        kinds_known = {*MARK_KINDS, *MARK_ALIASES, *game.mark_kinds}

        def peek(p: str, value: Any, luck: Any) -> None:
            """The heuristic's decision does not change when the cards hidden from ``p``
            are dealt again (``luck``: the generator's state it decided with)."""
            for k in range(3):
                world = determinize(state, p, random.Random(f"peek:{seed}:{step}:{k}"))
                again_rng = random.Random()
                again_rng.setstate(luck)
                again = game.heuristic(world, p, again_rng)
                if again != value:
                    raise breach("peek", f"the heuristic bot chose {fmt_value(value)} for {p}, "
                                 f"but {fmt_value(again)} when the cards hidden from {p} "
                                 f"were dealt again: it reads cards its seat cannot see "
                                 f"(decide from {p}'s own hand and the cards face up)",
                                 game.heuristic)

        look()
        while not state.is_terminal():
            if step >= bound:
                raise breach("bound", f"the game is not over after {bound} steps, its bound "
                             f"(max_steps)", game.max_steps)
            node = state.node()
            if node is None:
                raise breach("pending", "the game is not over (no result) but pending() "
                             "returns no decision or chance event", cls.pending)
            step += 1
            if node.kind == "chance":
                decided: Any = node.choice.sample(rng)   # as play_game draws it
                events = state.apply_chance(decided)
            else:
                decided = {}
                for p, choice in node.choices.items():
                    if choice.enumerate() == []:
                        raise breach("pending", f"{p} must decide ({node.what}) but the "
                                     f"choice lists nothing legal", cls.pending)
                    bot, name = _bot(game, lineup, p)
                    luck = rng.getstate()
                    value = bot(state, p, rng)
                    if not choice.contains(value):
                        raise breach("legal", f"the {name} bot chose {fmt_value(value)} for "
                                     f"{p}, which is not a legal choice ({choice.describe()})",
                                     bot)
                    if (peek_due and name == "heuristic" and determinize is not None
                            and not choice.is_forced()):
                        peek(p, value, luck)
                        peek_due = False
                    decided[p] = value
                if step % 13 == 1:
                    probe(node, decided)
                try:
                    events = state.apply(decided)
                except IllegalDecision as e:
                    raise breach("legal", f"the engine refused a decision its own choices "
                                 f"offer ({fmt_value(decided)}): {e}", cls._apply) from None
            if step % 13 == 0:
                peek_due = True
            made_by = cls._apply_chance if node.kind == "chance" else cls._apply
            for e in events:
                if e.kind not in game.event_kinds:
                    raise breach("events", f"an event of kind '{e.kind}', which event_kinds "
                                 f"does not declare", made_by)
                if e.rule and e.rule not in cited:
                    raise breach("events", f"a '{e.kind}' event cites the rule '{e.rule}', "
                                 f"which the engine does not declare (rule_ids)", made_by)
            if game.marks is not None and step % 13 == 1:
                said = game.marks(events, state.take_shown())
                for code, kind in dict(said or {}).items():
                    if kind not in kinds_known:
                        raise breach("marks", f"marks() marks {code} as '{kind}', a kind that is "
                                     f"neither shared ({', '.join(MARK_KINDS)}) nor the game's "
                                     f"own (mark_kinds)", game.marks)
            look(node.kind == "chance")
            log.append((node.kind, repr(decided),
                        tuple((e.kind, e.rule, e.text) for e in events)))
    except _Stop as stop:
        return log, stop.breach
    except Exception as exc:  # noqa: BLE001 - the engine's own fault: a breach at its line
        return log, Breach("fault", exception_words(exc), seed, step, dict(options), lineup,
                           exc)
    return log, None


def conformance(game: GameDef, games: int = DEFAULT_GAMES, printed: dict[str, Any] | None = None,
                first_seed: int = 0) -> list[Breach]:
    """Play ``games`` seeded games per option set and return every breach found (at most
    :data:`MAX_BREACHES` per option set, one per kind); an empty list: the engine holds."""
    found: list[Breach] = []
    try:
        sets = option_sets(game, printed)
    except SetupError as e:   # an option set the engine itself lists but refuses
        return [Breach("options", f"an option set of option_sets is refused: {e}", first_seed,
                       0, dict(printed or {}), "no", game.new_game)]
    for opts in sets:
        kinds: set[str] = set()
        for i in range(games):
            seed = first_seed + i
            lineup = LINEUPS[i % len(LINEUPS)]
            log, breach = play(game, opts, seed, lineup)
            if breach is None and i < len(LINEUPS):   # the same seed, the same game
                again, breach = play(game, opts, seed, lineup)
                if breach is None and again != log:
                    first = next(n for n, (a, b) in enumerate(zip(log + [None], again + [None]))
                                 if a != b)
                    breach = Breach("seed", "the same seed gave another game (the engine "
                                    "must draw every chance from the generator it is given, "
                                    "never from random or the clock)", seed, first + 1,
                                    dict(opts), lineup, game.new_game)
            if breach is not None and breach.kind not in kinds:
                kinds.add(breach.kind)
                found.append(breach)
                if len(kinds) >= MAX_BREACHES:
                    break
    return found


def assert_conforms(game: GameDef, games: int = 100, printed: dict[str, Any] | None = None,
                    first_seed: int = 0) -> None:
    """For a test: fail with every breach (seed and step each) unless the engine holds."""
    breaches = conformance(game, games, printed, first_seed)
    if breaches:
        raise AssertionError(f"{game.slug} does not conform:\n"
                             + "\n".join(f"  {b.kind}: {b}" for b in breaches))


# --------------------------------------------------------------------------- the cache
def _source(obj: Any) -> bytes:
    try:
        return Path(inspect.getsourcefile(obj)).read_bytes()
    except (TypeError, OSError):
        return b""


def verdict_key(game: GameDef, games: int, printed: dict[str, Any] | None) -> str:
    """A hash of everything the kit's verdict depends on: the engine's module (a
    designer's engine.py or a shipped engine), warbook's engine core and this kit, the
    options, the number of games and the cards of a game's own decks (a card's field
    the engine reads may make it fail: a verdict that held with "2" must not hold with
    "two")."""
    from .engine import core

    h = hashlib.sha256(f"conformance v{VERSION} games {games}\n".encode())
    h.update(json.dumps(printed or {}, sort_keys=True, default=str).encode())
    if game.cards == "own":
        try:
            decks = game.decks
        except RuntimeError:  # no decks given: the kit will say so
            decks = {}
        cards = [[name, list(deck.fields),
                  [[c.code, c.title, [getattr(c, f) for f in deck.fields], deck.counts[c]]
                   for c in deck.cards]] for name, deck in decks.items()]
        h.update(json.dumps(cards, default=repr).encode())
    hooks = [v for v in vars(game).values() if callable(v)]
    try:   # the state's own class, which may live in another module (a plugin package)
        hooks.append(type(game.new_game(game.resolve(printed), random.Random(0))))
    except Exception:  # noqa: BLE001 - the kit itself will say what fails
        pass
    files = {inspect.getsourcefile(getattr(f, "__func__", f)) for f in hooks
             if inspect.isfunction(getattr(f, "__func__", f)) or inspect.isclass(f)}
    # the files' contents, not their places: a game folder copied elsewhere keeps its verdict
    for digest in sorted(hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in files if f):
        h.update(digest.encode())
    for obj in (core, inspect.getmodule(conformance)):
        h.update(_source(obj))
    return h.hexdigest()[:20]
