"""The shared core of the reference engine.

Every game is a small state machine in the manner of OpenSpiel's pure-Python games:

* a :class:`State` knows what is *pending*: either a chance event (:class:`ChanceNode`,
  e.g. a shuffle, whose outcome is an explicit value) or a decision for one or more
  players at once (:class:`DecisionNode`; simultaneous hidden choices are one joint step,
  ruling R0.2);
* each pending player has an explicit :class:`Choice` of legal decisions;
* :meth:`State.apply` takes one joint decision (or :meth:`State.apply_chance` one chance
  outcome), checks it against the rules and returns the typed :class:`Event` list of what
  happened, each event citing the rule id it follows;
* :meth:`State.result` is ``None`` until the game is over.

Piles are plain lists of :class:`Card`, **top of the pile first** (index 0 is the top),
matching the notation of the content files.
"""

from __future__ import annotations

import copy
import random
import sys
import warnings
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .cards import (  # noqa: F401 - the engines import these from core too
    ACE_HIGH,
    ACE_LOW,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUITS,
    Card,
    CardBase,
    CardError,
    cards_str,
    full_deck,
    parse_cards,
    parser_for,
)
from .decks import FRENCH


# --------------------------------------------------------------------------- errors
class IllegalDecision(Exception):
    """A decision the rules forbid. ``rule`` is the id of the rule that forbids it."""

    def __init__(self, rule: str, message: str, player: str | None = None):
        super().__init__(message)
        self.rule = rule
        self.player = player
        self.message = message

    def __reduce__(self):  # pickles with its three fields (an exception pickles its args)
        return (type(self), (self.rule, self.message, self.player))


class SetupError(Exception):
    """A setup that the game cannot start from. ``where`` is the setup key at fault
    (e.g. ``("piles", "p1.deck", 3)``) so the checker can point at its line."""

    def __init__(self, message: str, where: tuple = ()):
        super().__init__(message)
        self.message = message
        self.where = where


class DecisionFormatError(ValueError):
    """A decision written in a form the choice does not understand."""


# --------------------------------------------------------------------------- choices
class Choice:
    """The legal decisions of one player at one moment (or the outcomes of a chance node).

    ``rule`` is the id of the rule that defines what is legal, cited when a decision is
    refused.
    """

    rule: str = ""

    def parse(self, raw: Any) -> Any:  # pragma: no cover - overridden
        """Turn the written form (from YAML) into a decision value; raise
        :class:`DecisionFormatError` if it cannot be read."""
        return raw

    def contains(self, value: Any) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def sample(self, rng: random.Random) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def enumerate(self) -> list | None:
        """All legal values, or ``None`` when there are too many to list."""
        return None

    def size(self) -> int | None:
        """How many legal values there are, or ``None`` where there are too many to list
        (the lab's branching factor leaves such a choice out: the ways to pick 13 cards of
        26 would swamp every other decision); as many as :meth:`enumerate` lists, which a
        choice may count faster (:class:`OneOf`, :class:`IntRange`)."""
        listed = self.enumerate()
        return None if listed is None else len(listed)

    def describe(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def why_illegal(self, value: Any) -> str:
        return f"{fmt_value(value)} is not allowed here; the legal choices are {self.describe()}"

    def is_forced(self) -> bool:
        opts = self.enumerate()
        return opts is not None and len(opts) == 1

    def refusal(self, value: Any) -> tuple[str, str] | None:
        """``None`` if ``value`` is legal, else ``(rule id, reason)``: the rule that forbids
        it, which a choice may make more specific than its own ``rule``."""
        if self.contains(value):
            return None
        return self.rule, self.why_illegal(value)


def fmt_value(v: Any) -> str:
    if isinstance(v, CardBase):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {fmt_value(x)}" for k, x in v.items()) + "}"
    return str(v)


class OneOf(Choice):
    """A short list of legal values (cards, words or numbers)."""

    def __init__(self, values: Sequence[Any], rule: str):
        self.values = list(values)
        self.rule = rule

    def parse(self, raw: Any) -> Any:
        for v in self.values:
            if v == raw or str(v).lower() == str(raw).strip().lower():
                return v
        # an unknown card should read as a card error, not as "not allowed"
        cards = [v for v in self.values if isinstance(v, CardBase)]
        if cards and len(cards) == len(self.values):
            try:
                return parser_for(cards)(raw)
            except CardError as e:
                raise DecisionFormatError(str(e)) from None
        if cards:                      # cards and words: a card not offered is still a card
            try:
                return parser_for(cards)(raw)
            except CardError:
                pass
        return raw

    def contains(self, value: Any) -> bool:
        return value in self.values

    def sample(self, rng: random.Random) -> Any:
        return rng.choice(self.values)

    def enumerate(self) -> list:
        return list(self.values)

    def size(self) -> int:
        return len(self.values)

    def describe(self) -> str:
        return ", ".join(fmt_value(v) for v in self.values)

    def why_illegal(self, value: Any) -> str:
        import difflib

        words = [str(v) for v in self.values if isinstance(v, str)]
        near = difflib.get_close_matches(value, words, n=1, cutoff=0.75) \
            if isinstance(value, str) and words else []
        # a word mistyped ("diamods"): the word it is close to, if one is close
        return super().why_illegal(value) + (f" (did you mean '{near[0]}'?)" if near else "")


class IntRange(Choice):
    """A whole number from ``lo`` to ``hi`` inclusive."""

    def __init__(self, lo: int, hi: int, rule: str, what: str = "number"):
        self.lo, self.hi, self.rule, self.what = lo, hi, rule, what

    def parse(self, raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise DecisionFormatError(f"expected a whole number, got {raw!r}")
        try:
            return int(raw)
        except ValueError:
            raise DecisionFormatError(f"expected a whole number, got {raw!r}") from None

    def contains(self, value: Any) -> bool:
        return isinstance(value, int) and self.lo <= value <= self.hi

    def sample(self, rng: random.Random) -> int:
        return rng.randint(self.lo, self.hi)

    def enumerate(self) -> list[int] | None:
        return list(range(self.lo, self.hi + 1))

    def size(self) -> int:
        return max(0, self.hi - self.lo + 1)

    def describe(self) -> str:
        return f"a {self.what} from {self.lo} to {self.hi}" if self.lo != self.hi else str(self.lo)

    def why_illegal(self, value: Any) -> str:
        return f"{value} is out of range: the {self.what} must be from {self.lo} to {self.hi}"


class SubsetOf(Choice):
    """Exactly ``count`` cards chosen from ``cards`` (a multiset)."""

    def __init__(self, cards: Sequence[Card], count: int, rule: str, what: str = "cards"):
        self.cards, self.count, self.rule, self.what = list(cards), count, rule, what

    def parse(self, raw: Any) -> tuple[Card, ...]:
        if raw is None or raw == "none":
            raw = []
        if not isinstance(raw, (list, tuple)):
            raise DecisionFormatError(f"expected a list of cards, got {raw!r}")
        try:
            return tuple(map(parser_for(self.cards), raw))
        except CardError as e:
            raise DecisionFormatError(str(e)) from None

    def contains(self, value: Any) -> bool:
        if not isinstance(value, tuple) or len(value) != self.count:
            return False
        return not (Counter(value) - Counter(self.cards))

    def sample(self, rng: random.Random) -> tuple[Card, ...]:
        return tuple(rng.sample(self.cards, self.count))

    def enumerate(self) -> list | None:
        if self.count == 0:
            return [()]
        return None

    def is_forced(self) -> bool:
        return self.count == 0 or self.count == len(self.cards)

    def forced_value(self) -> tuple[Card, ...]:
        return () if self.count == 0 else tuple(self.cards)

    def describe(self) -> str:
        return f"exactly {self.count} of {self.what} {cards_str(self.cards)}"

    def why_illegal(self, value: Any) -> str:
        if isinstance(value, tuple) and len(value) != self.count:
            n = len(value)
            return f"{n} card{'s' if n != 1 else ''} chosen, but exactly {self.count} must be"
        extra = Counter(value) - Counter(self.cards)
        return f"{cards_str(sorted(extra))} not among {self.what} {cards_str(self.cards)}"


class OrderOf(Choice):
    """An order (top first) of exactly the given cards: a permutation, or a chance
    outcome such as a shuffle."""

    def __init__(self, cards: Sequence[Card], rule: str, what: str = "cards"):
        self.cards, self.rule, self.what = list(cards), rule, what

    def parse(self, raw: Any) -> tuple[Card, ...]:
        if not isinstance(raw, (list, tuple)):
            raise DecisionFormatError(f"expected a list of cards, top first, got {raw!r}")
        try:
            return tuple(map(parser_for(self.cards), raw))
        except CardError as e:
            raise DecisionFormatError(str(e)) from None

    def contains(self, value: Any) -> bool:
        if not isinstance(value, tuple) or len(value) != len(self.cards):
            return False
        distinct = set(self.cards)
        if len(distinct) == len(self.cards):  # no two alike: the same set is the same cards
            return set(value) == distinct
        return Counter(value) == Counter(self.cards)

    def sample(self, rng: random.Random) -> tuple[Card, ...]:
        out = list(self.cards)
        rng.shuffle(out)
        return tuple(out)

    def enumerate(self) -> list | None:
        return [tuple(self.cards)] if len(set(self.cards)) <= 1 else None

    def is_forced(self) -> bool:
        return len(set(self.cards)) <= 1

    def forced_value(self) -> tuple[Card, ...]:
        return tuple(self.cards)

    def describe(self) -> str:
        return f"an order of the {len(self.cards)} {self.what} {cards_str(self.cards)}"

    def why_illegal(self, value: Any) -> str:
        have, want = Counter(value), Counter(self.cards)
        parts = []
        if want - have:
            parts.append(f"missing {cards_str(sorted(want - have))}")
        if have - want:
            parts.append(f"{cards_str(sorted(have - want))} not among them")
        return f"not an order of the {self.what} {cards_str(self.cards)}: " + "; ".join(parts)


class Parts(Choice):
    """A decision made of parts, in order: a card, then for an eight the suit it names.

    ``Parts(first, then, ..., names=("card", "suit"))``. The first part is a
    :class:`Choice`; each later one is a Choice, or a function of the parts before it that
    returns the next part's Choice, or None when the decision is complete without it
    (``lambda card: OneOf(SUIT_NAMES.values(), "eights") if card.rank == "8" else None``).
    A decision is the tuple of its parts, written ``8S diamonds`` or ``[8S, diamonds]`` (a
    list when a part has spaces in it). Each part is judged by its own choice and refused
    citing that choice's rule; a decision with a part too many or too few is refused
    citing ``rule`` (by default the first part's), and written so it is a format error.
    """

    #: the most decisions :meth:`enumerate` lists before it answers None (too many)
    MAX_LISTED = 5000

    def __init__(self, first: Choice, *then: Choice | Callable[..., Choice | None],
                 names: Sequence[str] = (), rule: str = ""):
        self.parts = (first, *then)
        self.names = tuple(names) or tuple(f"part {i + 1}" for i in range(len(self.parts)))
        self.rule = rule or first.rule

    def part(self, index: int, before: Sequence[Any]) -> Choice | None:
        """The choice of part ``index`` after the parts ``before``, or None: the decision
        is complete."""
        if index >= len(self.parts):
            return None
        p = self.parts[index]
        return p if isinstance(p, Choice) else p(*before)

    def _name(self, index: int) -> str:
        return self.names[index] if index < len(self.names) else f"part {index + 1}"

    def parse(self, raw: Any) -> tuple:
        items = (raw.split() if isinstance(raw, str) else list(raw)
                 if isinstance(raw, (list, tuple)) else [raw])
        out: list[Any] = []
        for i, item in enumerate(items):
            choice = self.part(i, out)
            if choice is None:
                raise DecisionFormatError(
                    f"{len(items)} parts written, but after "
                    f"{' '.join(fmt_value(x) for x in out)} the decision is complete "
                    f"({self._parts_said(out)}); leave out "
                    f"{', '.join(str(x) for x in items[i:])}")
            try:
                out.append(choice.parse(item))
            except DecisionFormatError as e:
                raise DecisionFormatError(f"the {self._name(i)}: {e}") from None
            if choice.refusal(out[-1]) is not None:
                # a part the rules refuse: the refusal is said by its rule (the parts after
                # it are kept as written; which of them the rules would ask for is moot)
                return tuple(out) + tuple(items[i + 1:])
        missing = self.part(len(out), out)
        if missing is not None:
            shown = " ".join(str(x) for x in items)
            example = next(iter(missing.enumerate() or []), "...")
            raise DecisionFormatError(
                f"the {self._name(len(out))} is missing: this decision has "
                f"{len(out) + 1} parts here ({self._parts_said(out, missing)}); write it "
                f"as '{shown} {fmt_value(example)}'".replace("  ", " "))
        return tuple(out)

    def _parts_said(self, before: Sequence[Any], missing: Choice | None = None) -> str:
        n = len(before) + (missing is not None)
        return ", then ".join(self._name(i) for i in range(n))

    def refusal(self, value: Any) -> tuple[str, str] | None:
        if not isinstance(value, tuple) or not value:
            return self.rule, f"{fmt_value(value)} is not a decision of parts ({self.describe()})"
        for i, v in enumerate(value):
            choice = self.part(i, value[:i])
            if choice is None:
                return self.rule, (f"{fmt_value(value[:i])} is a whole decision; "
                                   f"{fmt_value(value[i:])} is a part too many")
            said = choice.refusal(v)
            if said is not None:
                return said[0], said[1] if i == 0 else f"the {self._name(i)}: {said[1]}"
        missing = self.part(len(value), value)
        if missing is not None:
            return self.rule, (f"the {self._name(len(value))} is missing after "
                               f"{fmt_value(value)}: {missing.describe()}")
        return None

    def contains(self, value: Any) -> bool:
        return self.refusal(value) is None

    def why_illegal(self, value: Any) -> str:
        said = self.refusal(value)
        return said[1] if said else ""

    def sample(self, rng: random.Random) -> tuple:
        out: list[Any] = []
        while (choice := self.part(len(out), out)) is not None:
            out.append(choice.sample(rng))
        return tuple(out)

    def enumerate(self) -> list | None:
        done: list[tuple] = []
        todo: list[tuple] = [()]
        while todo:
            before = todo.pop()
            choice = self.part(len(before), before)
            if choice is None:
                done.append(before)
                continue
            values = choice.enumerate()
            if values is None or len(done) + len(todo) + len(values) > self.MAX_LISTED:
                return None
            todo.extend(before + (v,) for v in reversed(values))
        return done

    def describe(self) -> str:
        first = self.part(0, ())
        rest = ", ".join(self._name(i) for i in range(1, len(self.parts)))
        return (f"{first.describe()}" if first else "") + (
            f"; then, where the rules ask for it, the {rest}" if rest else "")


def forced_value(choice: Choice) -> Any:
    """The single legal value of a forced choice."""
    if hasattr(choice, "forced_value"):
        return choice.forced_value()
    opts = choice.enumerate()
    assert opts is not None and len(opts) == 1
    return opts[0]


# --------------------------------------------------------------------------- nodes
@dataclass
class DecisionNode:
    """One joint step: every player in ``choices`` decides, without seeing the others'
    decisions (R0.2). ``what`` says in words what is being decided."""

    choices: dict[str, Choice]
    what: str = ""

    kind = "decision"

    @property
    def players(self) -> list[str]:
        return list(self.choices)


@dataclass
class ChanceNode:
    """A chance event; its outcome is written down in an example, or drawn from a seeded
    generator in simulation (R0.1)."""

    choice: Choice
    what: str = ""
    player: str | None = None

    kind = "chance"


# --------------------------------------------------------------------------- events
@dataclass
class Event:
    """Something that happened, citing the rule it follows.

    ``text`` is the narration with player placeholders (``{p1}``, ``{p2}``, ...) that the
    renderers fill with the game's player names.
    """

    kind: str
    rule: str
    text: str
    player: str | None = None
    cards: tuple[Card, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)
    #: the table as it lay when the engine made this event (after the change it tells,
    #: when the engine makes an event once the change is done, as the shipped games do):
    #: taken while a recording state applies a step (:meth:`State.apply`), for the site's
    #: viewer, which shows each moment of a step; None in lean play, outside a step, or
    #: when the game's ``table()`` cannot be drawn halfway through its step
    moment: list[Zone] | None = field(default=None, compare=False, repr=False)
    #: where the engine made the event (file, line), taken with ``moment``: the check's
    #: warning about an event made before its change points there
    made_at: tuple[str, int] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        state = _STEPPING.get()
        if state is not None:
            self.moment = state._moment()
            caller = sys._getframe(2)  # past the dataclass's __init__: the engine's line
            self.made_at = (caller.f_code.co_filename, caller.f_lineno)

    def narrate(self, names: dict[str, str] | None = None) -> str:
        names = names or {}
        return self.text.format_map(_Names(names))


#: the recording state whose step is being applied (its events take the table's picture)
_STEPPING: ContextVar["State | None"] = ContextVar("warbook_stepping", default=None)


class _Names(dict):
    def __missing__(self, key: str) -> str:
        if key.startswith("p") and key[1:].isdigit():
            return f"Player {key[1:]}"
        return "{" + key + "}"


def jsonable(v: Any) -> Any:
    """A value with its cards written as text, ready for JSON."""
    if isinstance(v, CardBase):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    return v


# --------------------------------------------------------------------------- marks
#: the mark kinds every game may use in ``GameDef.marks``, with the legend's words; the
#: diagrams draw each one its own way (a shape or a tag as well as a colour)
MARK_KINDS: dict[str, str] = {
    "played": "just played",
    "revealed": "turned face up",
    "won": "won the step",
    "killed": "out of the game",
}
#: the names of the first mark kinds, still read
MARK_ALIASES = {"win": "won", "kill": "killed"}
#: the kinds the diagrams mark of their own accord (a card that moves; a place the table
#: cannot see into), which a game's own kinds may not take
RENDERERS_KINDS = ("moved", "owner-only", "no-one")


# --------------------------------------------------------------------------- table
@dataclass
class Zone:
    """One place on the table as a diagram shows it: a stack of cards.

    ``row`` and ``col`` place it on a grid seen from above (row 0 is the far side of the
    table, the last row the near side); ``cards`` are listed bottom first as they lie, each
    with whether it is face up. ``count`` is shown for piles drawn as a single back.
    """

    id: str
    label: str
    row: int
    col: int
    cards: list[tuple[Card, bool]] = field(default_factory=list)
    owner: str | None = None
    count: int | None = None
    style: str = "stack"  # stack (cards overlap), fan (side by side), pile (one card + count),
    #                       tokens (``count`` round tokens, e.g. stones, drawn; no cards)
    note: str = ""
    #: who may look at the cards here: ``everyone`` (the cards drawn face up; those face
    #: down nobody sees), ``owner`` (a hand: its owner only) or ``nobody`` (a stock).
    #: The book and site still draw what the reader should see, and mark a card the table
    #: cannot see; the lab and the search bot give each seat only what it may see.
    seen_by: str = "everyone"

    def __post_init__(self) -> None:
        if self.seen_by not in SEEN_BY:
            raise ValueError(f"Zone '{self.id}': seen_by={self.seen_by!r} is not one of "
                             f"{', '.join(SEEN_BY)}{_closest(str(self.seen_by), SEEN_BY)}")
        if self.seen_by == "owner" and self.owner is None:
            raise ValueError(f"Zone '{self.id}': seen_by='owner' needs owner= (the player "
                             f"who may look at it)")

    def hidden_from(self, player: str) -> bool:
        """Whether ``player`` may not look at any card here (a zone partly face up is
        taken as seen: give its hidden cards a zone of their own)."""
        if self.seen_by == "nobody":
            return True
        if self.seen_by == "owner":
            return self.owner != player
        return bool(self.cards) and not any(up for _, up in self.cards)

    def secret(self) -> bool:
        """Whether a card drawn face up here is one the table may not see (the diagrams
        mark it)."""
        return self.seen_by != "everyone"


#: who may see a zone's cards (``Zone.seen_by``)
SEEN_BY = ("everyone", "owner", "nobody")


def _closest(word: str, known: Sequence[str]) -> str:
    import difflib
    near = difflib.get_close_matches(word, known, n=1, cutoff=0.5)
    return f" (did you mean '{near[0]}'?)" if near else ""


@dataclass
class Result:
    """The end of a game: ``winner`` is a player id or ``None`` for a draw."""

    winner: str | None
    reason: str
    rule: str

    @property
    def label(self) -> str:
        return self.winner or "draw"


# --------------------------------------------------------------------------- options
@dataclass
class Option:
    name: str
    default: Any
    doc: str
    choices: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> str | None:
        """Return an error message if ``value`` is not valid for this option."""
        if self.choices is not None:
            if value not in self.choices:
                return f"option '{self.name}' must be one of {', '.join(map(str, self.choices))}, got {value!r}"
            return None
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            if isinstance(value, bool) or not isinstance(value, int):
                return f"option '{self.name}' must be a whole number, got {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"option '{self.name}' must be at least {self.minimum}, got {value}"
            if self.maximum is not None and value > self.maximum:
                return f"option '{self.name}' must be at most {self.maximum}, got {value}"
        return None


def resolve_options(spec: dict[str, Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in; raises SetupError on an unknown or invalid option."""
    given = dict(given or {})
    out = {name: opt.default for name, opt in spec.items()}
    for k, v in given.items():
        if k not in spec:
            raise SetupError(
                f"unknown option '{k}' (this game's options: {', '.join(spec) or 'none'})",
                ("options", k),
            )
        msg = spec[k].check(v)
        if msg:
            raise SetupError(msg, ("options", k))
        out[k] = v
    return out


# --------------------------------------------------------------------------- state
class State:
    """Base class of every game's state. Subclasses implement ``pending``, ``_apply``,
    ``_apply_chance``, ``view``, ``table``, ``all_cards`` and set ``self.result``."""

    #: whether the steps are recorded: :meth:`show` keeps a picture of the table for the
    #: step's diagram, and the events and a node's ``what`` are read. The lab sets it False
    #: on its states (lean play), and an engine may then leave its narration out, making
    #: every change to the state all the same (docs/writing-an-engine.md, "Lean play")
    recording = True
    #: whether, while recording, each event made during a step takes the table's picture
    #: (``Event.moment``: the site's viewer shows each moment of a step, and the check
    #: reads them). The conformance kit, which reads no pictures, sets it False on its
    #: states: the pictures are half of its time
    moments = True
    _node: "DecisionNode | ChanceNode | None" = None

    def __init__(self, options: dict[str, Any]):
        self.options = options
        self.result: Result | None = None
        self.steps = 0
        self._shown: list[Zone] | None = None
        self._node: DecisionNode | ChanceNode | None = None

    # --- players
    @property
    def players(self) -> list[str]:
        return [f"p{i}" for i in range(1, self.num_players + 1)]

    num_players = 2

    # --- to implement
    def pending(self) -> DecisionNode | ChanceNode | None:
        raise NotImplementedError

    def _apply(self, decisions: dict[str, Any]) -> list[Event]:
        raise NotImplementedError

    def _apply_chance(self, outcome: Any) -> list[Event]:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """Everything an example may expect, by name (``p1.deck``, ``p1.stones``, ...).
        Piles are lists of cards, top first; an example may compare a pile to a number
        (its size) or to a list (its exact contents)."""
        raise NotImplementedError

    def table(self) -> list[Zone]:
        raise NotImplementedError

    def all_cards(self) -> Counter:
        """Every card the game holds, wherever it is (out-of-game piles included)."""
        raise NotImplementedError

    def piles(self) -> dict[str, list[Card]]:
        """Optional: the live list of cards behind each zone of :meth:`table` that some
        player may not see, by zone id (the lists the state itself keeps, not copies), and
        any pile the table does not show (the cards left in the box: seen by nobody).
        With it warbook deals a seat's unseen cards again for the search bot and gives each
        bot only what its seat may see (:func:`redeal`), so ``determinize`` is not needed."""
        raise NotImplementedError

    # --- shared machinery
    def is_terminal(self) -> bool:
        return self.result is not None

    def clone(self) -> "State":
        return copy.deepcopy(self)

    def node(self) -> DecisionNode | ChanceNode | None:
        """:meth:`pending`, worked out once per step: the node is kept until the next
        :meth:`apply` or :meth:`apply_chance` (the loop, both bots and the legality check
        all ask for it, and building it is a good part of a step's cost)."""
        if self._node is None:
            self._node = self.pending()
        return self._node

    def show(self) -> None:
        """Record the table as it lies now (called by a game at the moment of a reveal),
        so a diagram of the step shows the cards in play before they are collected."""
        if self.recording:
            self._shown = self.table()

    def take_shown(self) -> list[Zone]:
        shown, self._shown = self._shown, None
        return shown if shown is not None else self.table()

    def _moment(self) -> list[Zone] | None:
        """The table as it lies now, halfway through a step, for an event's ``moment``;
        None if the game cannot draw it here (a state between two changes of one step
        need not be drawable: the step's own diagram is then shown for that event)."""
        try:
            zones = self.table()
        except Exception:  # noqa: BLE001 - a picture of the table is optional mid-step
            return None
        out = []
        for z in zones:  # a game may hand out its live lists: the picture keeps a copy
            z = copy.copy(z)
            z.cards = list(z.cards)
            out.append(z)
        return out

    def _stepping(self, apply: Callable[[Any], list[Event]], arg: Any) -> list[Event]:
        """``apply(arg)``, with every event it makes taking the table's picture (a
        recording state's step, :attr:`recording`)."""
        token = _STEPPING.set(self)
        try:
            return apply(arg)
        finally:
            _STEPPING.reset(token)

    def apply(self, decisions: dict[str, Any], *, drawn: bool = False) -> list[Event]:
        """Apply one joint decision, after checking it against the pending choices (a
        decision they refuse raises :class:`IllegalDecision`, citing the rule).

        ``drawn=True`` says that every decision was drawn by its own pending choice
        (``node.choices[p].sample(rng)``, as :func:`random_bot` draws it): legal by the
        choice's contract, which the conformance kit holds every choice to, so it is not
        checked again (the lab's lean play between random bots)."""
        node = self._node or self.node()
        if node is None:
            raise IllegalDecision("", "the game is over; no decision can be made")
        if node.kind != "decision":
            raise IllegalDecision(
                getattr(node.choice, "rule", ""),
                f"a chance event is pending ({node.what}); its outcome must be given, not a decision",
            )
        if not drawn:
            choices = node.choices
            if decisions.keys() != choices.keys():
                _refuse_players(node, decisions)
            for p, value in decisions.items():
                refused = choices[p].refusal(value)
                if refused is not None:
                    raise IllegalDecision(refused[0], refused[1], p)
        self.steps += 1
        self._shown = self._node = None
        if not (self.recording and self.moments):
            return self._apply(dict(decisions))
        return self._stepping(self._apply, dict(decisions))

    def apply_chance(self, outcome: Any) -> list[Event]:
        node = self.node()
        if node is None or node.kind != "chance":
            raise IllegalDecision("", "no chance event is pending here")
        if not node.choice.contains(outcome):
            raise IllegalDecision(node.choice.rule, node.choice.why_illegal(outcome), node.player)
        self.steps += 1
        self._shown = self._node = None
        if not (self.recording and self.moments):
            return self._apply_chance(outcome)
        return self._stepping(self._apply_chance, outcome)

    def forced_decisions(self) -> dict[str, Any] | None:
        """The joint decision if every pending player has exactly one legal choice."""
        node = self.pending()
        if node is None or node.kind != "decision":
            return None
        if all(ch.is_forced() for ch in node.choices.values()):
            return {p: forced_value(ch) for p, ch in node.choices.items()}
        return None


def _refuse_players(node: DecisionNode, decisions: dict[str, Any]) -> None:
    """Refuse a joint decision that leaves out a player who must decide, or gives one a
    decision who has none to make now."""
    what = f"{node.what}; " if node.what else ""   # lean play may leave the words out
    extra = [p for p in decisions if p not in node.choices]
    if extra:
        p = extra[0]
        raise IllegalDecision(
            next(iter(node.choices.values())).rule,
            f"{p} has no decision to make now ({what}deciding: {', '.join(node.choices)})",
            p,
        )
    p = next(p for p in node.choices if p not in decisions)
    said = f" ({node.what})" if node.what else ""
    raise IllegalDecision(
        node.choices[p].rule,
        f"{p} must decide now{said}: {node.choices[p].describe()}",
        p,
    )


# --------------------------------------------------------------------------- games
Bot = Callable[[State, str, random.Random], Any]


class _HookTable(dict):
    """A GameDef's ``art`` or ``art_params``: complete when the game is made. Changing it
    afterwards still works, with a warning (engines written before the one-place API)."""

    def _warn(self) -> None:
        warnings.warn("changing a GameDef's art after it is made is deprecated: pass "
                      "art={...} and art_params={...} to GameDef(...)", FutureWarning,
                      stacklevel=3)

    def __setitem__(self, key: str, value: Any) -> None:
        self._warn()
        super().__setitem__(key, value)

    def update(self, *args: Any, **kw: Any) -> None:
        self._warn()
        super().update(*args, **kw)

    def __reduce__(self):
        return (_HookTable, (dict(self),))


@dataclass
class GameDef:
    """A game's engine as the rest of warbook knows it, made complete in one call.

    Required: who the game is and how it is played (``slug`` .. ``max_steps``). The optional
    hooks are grouped by who reads them:

    * **rules and replay** (the check, ``record``, the conformance kit): ``option_sets``,
      ``supply``, ``supply_group``, ``card_supply``, ``rules_for``;
    * **the lab** (``simulate`` and the balance figures): ``round_key``, ``round_word``,
      ``cap_rules``, ``determinize``, ``fast_random``, ``lead``;
    * **the book and site**: ``describe``, ``marks``, ``mark_kinds``, ``attempt``, ``art``,
      ``art_params``.

    Every hook is given to the constructor; setting one afterwards still works but warns
    (``FutureWarning``), since a game made in two places is read half-made. A hook of the
    wrong kind is a ``TypeError`` at the line that makes the game.
    """

    # -- who the game is and how it is played
    slug: str
    title: str
    options: dict[str, Option]
    #: every rule id the engine cites in events or refusals; content must define them all
    rule_ids: frozenset[str]
    #: every event kind the engine emits, with a line of documentation
    event_kinds: dict[str, str]
    #: every view key with a line of documentation (``{p}`` stands for a player id)
    view_keys: dict[str, str]
    new_game: Callable[[dict[str, Any], random.Random], State]
    from_setup: Callable[[dict[str, Any], dict[str, Any]], State]
    heuristic: Bot
    #: the documented bound on the number of steps (decisions + chance events) of a game
    max_steps: Callable[[dict[str, Any]], int]

    # -- rules and replay
    #: the cards the game is played with: "french" (the French 52, :data:`FRENCH`) or
    #: "own" (the decks the game's ``game.yaml`` declares, read as ``GAME.deck`` and
    #: ``GAME.decks[name]`` once the content is read; see docs/decks.md)
    cards: str = "french"
    #: option sets worth testing (each a dict of non-default options)
    option_sets: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    #: every card the game is played with under ``options`` (its rules' "What you need"),
    #: as a Counter of cards; the conformance kit (builder.testing) checks that a new game
    #: deals exactly these. None: the deal is taken as the game's supply
    supply: Callable[[dict[str, Any]], Counter] | None = None
    #: which group of piles a setup pile belongs to, for counting cards (games where each
    #: player has a deck of their own answer e.g. "p1"); default: one group, "all"
    supply_group: Callable[[str], str] | None = None
    #: how many copies of ``card`` the group may hold under ``options``; default 1
    card_supply: Callable[[dict[str, Any], str, Card], int] | None = None
    #: the rule ids the engine cites under ``options`` (resolved), where options change
    #: which rules apply (War's ``wins: lower`` cites ``lower-takes``); default: rule_ids
    rules_for: Callable[[dict[str, Any]], frozenset[str]] | None = None

    # -- the lab
    #: the view key that counts the game's rounds (tricks, battles, turns) and the word for
    #: one; None counts decision steps as rounds
    round_key: str | None = None
    round_word: str = "round"
    #: the rules that end a game at its cap (a draw by ruling R0.3), so the lab can count
    #: how often the cap is hit
    cap_rules: frozenset[str] = frozenset()
    #: for the search bot: a copy of the state in which everything ``player`` cannot see
    #: (deck orders, face-down cards) is dealt again at random, consistently with what the
    #: player knows. None: derived from the state's ``piles()`` where it declares them
    #: (who may see each pile), else the game has no search bot (it would see hidden cards)
    determinize: Callable[[State, str, random.Random], State] | None = None
    #: an optional fast path for simulation: a whole game between random bots played
    #: without states, drawing from the generator exactly what the reference loop draws,
    #: ``fast_random(options, rng) -> (steps, rounds, winner or None, capped)``, or with
    #: four more values, the design metrics' counts as the lab's loop reads them (the
    #: legal choices summed over the listed decisions, the listed decisions, the unlisted
    #: ones, the step from which the winner led for good or -1: see ``lab/run.py``'s
    #: ``Record``); a fast path without them leaves those metrics unmeasured where it plays.
    #: A test must prove it equal to the engine game for game (see tests/lab/test_lab.py)
    fast_random: Callable[..., tuple] | None = None
    #: who is ahead: ``lead(state) -> player id or None`` (None: nobody ahead, the leaders
    #: level), read after every step of the lab's games to measure decisiveness (how early
    #: the eventual winner leads for good; docs/balance.md, "Design metrics"). Whatever the
    #: state naturally holds: cards held, points, families laid (:func:`lead_of` picks the
    #: one player with the most). It is read often: keep it cheap, and never let it change
    #: the state. None: the lab reports no decisiveness. A ``fast_random`` path must then
    #: read the same lead on its numbers, or its games go unmeasured
    lead: Callable[[State], str | None] | None = None

    # -- the book and site
    #: the table in words after a step, for the printed state lines: ``describe(view,
    #: options)`` returns ``[(player id or "", text)]`` (see ``words.py``); default: the
    #: view's keys and values as they are
    describe: Callable[[dict[str, Any], dict[str, Any]], list[tuple[str, str]]] | None = None
    #: what a step's diagram marks besides the cards that move: ``marks(events, table)``
    #: (the step's events, the table the diagram shows) returns ``{card code: kind}``, a
    #: kind of :data:`MARK_KINDS` or of ``mark_kinds``; default: none
    marks: Callable[[list["Event"], list["Zone"]], dict[str, str]] | None = None
    #: the game's own mark kinds, name -> the legend's words for it (drawn as a labelled
    #: tag on the card)
    mark_kinds: dict[str, str] = field(default_factory=dict)
    #: a decision in words, for the narration of a step the rules refuse: ``attempt(player,
    #: value)`` returns what the player tried, to follow "{player} tries to", with player
    #: ids written ``{p2}`` and cards in words ("ask {p2} for Mrs Thimble"), or None for
    #: the default: the decision as written ("Hazel tries p2 THIMBLE-MRS")
    attempt: Callable[[str, Any], str | None] | None = None
    #: print-and-play art the kit vocabulary cannot express, by name: a mat in game.yaml
    #: that says ``art: NAME`` is drawn by ``art[NAME](ctx)`` (ctx: an :class:`ArtContext`),
    #: which returns SVG (see docs/kit.md)
    art: dict[str, Callable[[Any], str]] = field(default_factory=dict)
    #: the ``params`` each art takes, checked during the check (a mat's params come from
    #: game.yaml, which is untrusted): art name -> {param: "text" | "whole" |
    #: "per-player"} ("per-player": player id -> text); an art not listed here is given
    #: only texts, numbers and player-to-text mappings
    art_params: dict[str, dict[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("new_game", "from_setup", "heuristic", "max_steps"):
            _hook(self, name, required=True)
        for name in ("supply", "supply_group", "card_supply", "rules_for", "determinize",
                     "fast_random", "lead", "describe", "marks", "attempt"):
            _hook(self, name)
        for name, kind in (("options", dict), ("event_kinds", dict), ("view_keys", dict),
                           ("option_sets", list), ("mark_kinds", dict), ("art", dict),
                           ("art_params", dict)):
            if not isinstance(getattr(self, name), kind):
                raise TypeError(f"GameDef {name}= must be a {kind.__name__}, not "
                                f"{type(getattr(self, name)).__name__}")
        if self.cards not in ("french", "own"):
            raise TypeError(f"GameDef cards= must be 'french' (the French 52) or 'own' (the "
                            f"decks game.yaml declares), not {self.cards!r}")
        if not isinstance(self.rule_ids, (set, frozenset)):
            raise TypeError(f"GameDef rule_ids= must be a frozenset of rule ids, not "
                            f"{type(self.rule_ids).__name__}")
        for k, v in self.options.items():
            if not isinstance(v, Option):
                raise TypeError(f"GameDef options['{k}'] must be an Option, not "
                                f"{type(v).__name__}")
        clash = sorted(set(self.mark_kinds) & (set(MARK_KINDS) | set(MARK_ALIASES)
                                               | set(RENDERERS_KINDS)))
        if clash:
            raise TypeError(f"GameDef mark_kinds= redefines the shared mark kind "
                            f"'{clash[0]}' (shared: {', '.join(MARK_KINDS)}; "
                            f"{', '.join(RENDERERS_KINDS)} are the diagrams' own)")
        for name, fn in self.art.items():
            if not callable(fn):
                raise TypeError(f"GameDef art['{name}'] must be a function of the art "
                                f"context, not {type(fn).__name__}")
        object.__setattr__(self, "rule_ids", frozenset(self.rule_ids))
        object.__setattr__(self, "art", _HookTable(self.art))
        object.__setattr__(self, "art_params", _HookTable(self.art_params))
        object.__setattr__(self, "_made", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_made"):
            warnings.warn(f"setting GameDef.{name} after the game is made is deprecated: "
                          f"pass {name}=... to GameDef(...)", FutureWarning, stacklevel=2)
        object.__setattr__(self, name, value)

    def resolve(self, options: dict[str, Any] | None) -> dict[str, Any]:
        return resolve_options(self.options, options)

    # -- the cards
    @property
    def decks(self) -> dict[str, Any]:
        """The decks the game is played with, by name (the first is the main deck): the
        French 52 alone for ``cards="french"``; for ``cards="own"``, the decks of the game's
        ``game.yaml``, once the content stage has read them (:meth:`use_decks`)."""
        if self.cards == "french":
            return {"french": FRENCH}
        decks = self.__dict__.get("_decks")
        if decks is None:
            raise RuntimeError(f"the {self.slug} engine plays its own decks, and none was "
                               f"given: its game.yaml declares them under 'decks:'")
        return dict(decks)

    @property
    def deck(self) -> Any:
        """The game's main deck (the first of :attr:`decks`)."""
        return next(iter(self.decks.values()))

    def use_decks(self, decks: dict[str, Any]) -> None:
        """Give a ``cards="own"`` game the decks its content declares (the content stage
        calls this). One engine can play only one set of decks in a run: a second, other
        set is a ValueError (two games sharing an engine each need their own engine file
        when their decks differ)."""
        if self.cards != "own":
            raise ValueError(f"the {self.slug} engine plays the French 52 (GameDef cards="
                             f"'french'), so a game.yaml cannot give it decks of its own")
        if not decks:
            raise ValueError("no decks given")
        old = self.__dict__.get("_decks")
        if old is not None and [d.key for d in old.values()] != [d.key for d in decks.values()]:
            raise ValueError(f"the {self.slug} engine already plays the decks "
                             f"{', '.join(old)} of another game")
        object.__setattr__(self, "_decks", dict(decks))

    def parse_card(self, text: Any) -> Any:
        """The card a code in the content names, from the game's decks (CardError with
        the nearest codes if none has it)."""
        decks = list(self.decks.values())
        if len(decks) == 1:
            return decks[0].parse(text)
        for d in decks:
            try:
                return d.parse(text)
            except CardError:
                pass
        codes = [c for d in decks for c in d.codes]
        from ..diagnostics import suggest

        raise CardError(f"unknown card '{text}' (not in the decks "
                        f"{', '.join(d.name for d in decks)})" + suggest(text, codes, cutoff=0.5))

    def card_codes(self) -> list[str]:
        """Every card code of the game's decks."""
        return [c for d in self.decks.values() for c in d.codes]

    def copies_of(self, card: Any) -> int:
        """How many copies of ``card`` the game's decks hold together (0: none)."""
        return sum(d.counts.get(card, 0) for d in self.decks.values())

    def determinizer(self) -> Callable[[State, str, random.Random], State] | None:
        """How a seat's unseen cards are dealt again: the engine's own ``determinize``
        where it gives one, else :func:`redeal` where its state declares ``piles()``, else
        None (the game has no search bot, and its bots are trusted not to peek)."""
        if self.determinize is not None:
            return self.determinize
        return redeal if self.declares_piles() else None

    def declares_piles(self) -> bool:
        """Whether the game's state says where its unseen cards lie (``State.piles``)."""
        known = self.__dict__.get("_declares_piles")
        if known is None:
            known = declares_piles(self.new_game(self.resolve({}), random.Random(0)))
            object.__setattr__(self, "_declares_piles", known)
        return known

    def player_counts(self) -> tuple[int, ...]:
        """How many may play, from the engine itself: the choices of a ``players`` option
        (or its range), else the state's fixed number of players."""
        opt = self.options.get("players")
        if opt is not None:
            if opt.choices is not None:
                return tuple(sorted(int(c) for c in opt.choices))
            if opt.minimum is not None and opt.maximum is not None:
                return tuple(range(opt.minimum, opt.maximum + 1))
            return (int(opt.default),)
        state = self.new_game(self.resolve({}), random.Random(0))
        return (state.num_players,)

    def cited_rules(self, options: dict[str, Any] | None = None) -> frozenset[str]:
        """Every rule id the engine can cite when played with ``options``; the game's
        rules must define them all."""
        if self.rules_for is None:
            return self.rule_ids
        return self.rules_for(self.resolve(options))


def declares_piles(state: State) -> bool:
    """Whether the state's class gives :meth:`State.piles`."""
    return type(state).piles is not State.piles


def redeal(state: State, player: str, rng: random.Random) -> State:
    """A copy of ``state`` in which every card ``player`` may not see (the zones of
    ``table()`` hidden from them, by ``Zone.seen_by``, and the piles the table does not
    show) is dealt again at random among those places, each keeping its size: the seat's
    view of the game, for the search bot. Needs :meth:`State.piles` for every hidden zone."""
    world = state.clone()
    world._node = world._shown = None
    redeal_in_place(world, player, rng)
    return world


def redeal_in_place(state: State, player: str, rng: random.Random) -> dict[str, list[Card]]:
    """:func:`redeal` on ``state`` itself, without a copy; returns what the dealt places
    held, for :func:`restore` (the lab's bots see their seat's view this way, cheaply). The
    pending node is kept: a seat's own choices are made of what it sees."""
    piles = state.piles()
    zones = state.table()
    shown = {z.id for z in zones}
    hidden = [z.id for z in zones if z.hidden_from(player)]
    hidden += [pid for pid in piles if pid not in shown]   # out of play: seen by nobody
    missing = [zid for zid in hidden if zid not in piles]
    if missing:
        raise ValueError(f"zone '{missing[0]}' is hidden from {player} (seen_by) but piles() "
                         f"does not give its cards, so they cannot be dealt again")
    saved = {zid: list(piles[zid]) for zid in hidden}
    pool = [c for zid in hidden for c in saved[zid]]
    rng.shuffle(pool)
    at = 0
    for zid in hidden:
        n = len(saved[zid])
        piles[zid][:] = pool[at:at + n]
        at += n
    return saved


def restore(state: State, saved: dict[str, list[Card]]) -> None:
    """Put back what :func:`redeal_in_place` moved."""
    piles = state.piles()
    for zid, cards in saved.items():
        piles[zid][:] = cards


def lead_of(counts: dict[str, float]) -> str | None:
    """The one player with the most (cards, points ...), or None where two or more share
    the most: a ``GameDef.lead`` in one line (``lead_of({p: len(s.decks[p]) for p in
    s.players})``)."""
    leader, best, level = None, None, False
    for p, v in counts.items():
        if best is None or v > best:
            leader, best, level = p, v, False
        elif v == best:
            level = True
    return None if level else leader


def _hook(game: GameDef, name: str, required: bool = False) -> None:
    value = getattr(game, name)
    if value is None and not required:
        return
    if not callable(value):
        raise TypeError(f"GameDef {name}= must be a function, not {type(value).__name__}"
                        + ("" if required else " (or None)"))


def random_bot(state: State, player: str, rng: random.Random) -> Any:
    """Plays any legal decision, uniformly where the choice can be listed."""
    node = state.node()
    assert node is not None and node.kind == "decision"
    return node.choices[player].sample(rng)


def play_game(game: GameDef, options: dict[str, Any] | None, seed: int,
              bots: dict[str, Bot] | Bot | None = None, on_step: Callable | None = None,
              ) -> tuple[State, int]:
    """Play one game from a seed. Returns the final state and the number of steps.

    ``bots`` maps player ids to bots (or is one bot for all); the default is the random bot.
    Chance outcomes come from the same seeded generator, so a seed and the bots fix the game.
    """
    opts = game.resolve(options)
    rng = random.Random(seed)
    state = game.new_game(opts, rng)
    bound = game.max_steps(opts)
    steps = 0
    while not state.is_terminal():
        node = state.node()
        if node is None:
            raise AssertionError(f"{game.slug}: no pending node but no result")
        if node.kind == "chance":
            outcome = node.choice.sample(rng)
            events = state.apply_chance(outcome)
            decided: Any = outcome
        else:
            decided = {}
            for p in node.choices:
                bot = bots.get(p, random_bot) if isinstance(bots, dict) else (bots or random_bot)
                decided[p] = bot(state, p, rng)
            events = state.apply(decided)
        steps += 1
        if on_step is not None:
            on_step(state, node, decided, events)
        if steps > bound:
            raise AssertionError(f"{game.slug}: game exceeded its documented bound of {bound} steps")
    return state, steps

