"""Stage 1, the print-and-play kit: ``kit:`` in a game's ``game.yaml``, read and checked.

A kit is a list of components, each a ``kind`` from a small vocabulary with parameters
(docs/kit.md): ``player-aid``, ``tokens``, ``score-track``, ``mat``, ``round-tracker`` and
``deck``.
Every parameter the renderer will read is checked here, during ``warbook check``, so a
mistake is a located error and never a failed build. A game that declares no kit gets a
player aid per player made from its quick reference.

Hands on a list of :class:`Component` (plain data: the kind, its parameters with defaults
filled in, and where it was written) for ``builder.render.pnp``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..diagnostics import Diagnostics, Located, describe, suggest
from ..limits import MAX_COPIES, MAX_DECK_CARDS, MAX_KIT, over
from ..yamlsrc import LocDict, LocList
from .base import Reader
from .fields import REQUIRED, boolean, box_mm, line, one_of, size_mm, text, whole

#: parts a section may hold, printed in the order written: quick reference lines as a
#: list (``lines``) or as paragraphs (``paragraphs``), rule bodies (``rule``), the text of
#: an option (``option``) and Markdown of its own (``text``)
SECTION_KEYS = {"title", "ref", "lines", "paragraphs", "rule", "option", "text"}


@dataclass
class Section:
    title: str = ""
    ref: str = ""                       # a rule id: "(rule N)" after the title
    parts: list[tuple[str, Any]] = field(default_factory=list)  # (kind, value) in order


@dataclass
class Component:
    kind: str
    params: dict[str, Any]
    where: Located


# --------------------------------------------------------------------------- the vocabulary
# Each kind: parameter -> (check, default). A check is a validator of .fields (it takes the
# value and returns it, maybe converted, or raises ValueError with what is wrong), or the
# name of a KitReader method for what needs the game ("sections", "players", "cards",
# "copies"). ``REQUIRED`` marks a parameter without a default.


def _plain_value(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def art_params(value: Any) -> dict:
    """A mat's ``params`` for its engine's art: each a text or number, or a mapping of
    player ids to texts or numbers (such as ``cards: {p1: the red cards}``); nothing
    deeper. Where the engine declares what its art takes (``GameDef.art_params``), each is
    checked against that too (``KitReader.declared_params``)."""
    if not isinstance(value, dict):
        raise ValueError(f"must be a mapping, got {describe(value)}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if _plain_value(item):
            out[str(key)] = item
        elif isinstance(item, dict) and all(isinstance(k, str) and _plain_value(v)
                                            for k, v in item.items()):
            out[str(key)] = dict(item)
        else:
            raise ValueError(f"{key}: each value must be a text or number, or a mapping of "
                             f"player ids to texts, got {describe(item)}")
    return out


#: the longest texts a sheet has room for: a sheet's title and its row of the cover's table
#: (one line each), and the cutting instructions (a short paragraph on the cover)
LABEL, ROW, HOW = line(100, "as a sheet's title"), line(120, "as a row of the cover's table"), \
    line(600, "on the cover, under how to cut")
NAME, WHO = line(80, "as a component's name"), line(80, "on a mat, under its name")

COMMON = {"label": (LABEL, None), "row": (ROW, None), "how": (HOW, None)}

KINDS: dict[str, dict[str, tuple[Callable, Any]]] = {
    "player-aid": {"sections": ("sections", None), "per_sheet": (whole(1, 4), 2), **COMMON},
    "tokens": {"name": (NAME, "Token"), "stem": (text, "token"), "count": (whole(1, 30), 5),
               "diameter": (whole(15, 40), 25),
               "front": (text, ""), "back": (text, None), **COMMON},
    "score-track": {"name": (NAME, "Score track"), "from": (whole(-99, 999), 0),
                    "to": (whole(-99, 999), REQUIRED), "layout": (one_of("grid", "snake", "ring"),
                                                                  "snake"),
                    "players": (whole(1, 8), 2), **COMMON},
    "mat": {"name": (NAME, REQUIRED), "stem": (text, "mat"), "size": (size_mm, REQUIRED),
            "per": (one_of("player", "table"), "table"), "players": ("players", None),
            "art": (text, None), "params": (art_params, None), "text": ("sections", None),
            "panel": (box_mm, None), "title": (boolean, True), "who": (WHO, None),
            "per_sheet": (whole(1, 2), 1), "landscape": (boolean, True),
            "bleed": (boolean, False), "copies": ("copies", None), **COMMON},
    "round-tracker": {"rounds": (whole(2, 40), 20), "laps": (whole(1, 20), 10),
                      "text": ("sections", None), **COMMON},
    "deck": {"cards": ("cards", "all"), "back": (one_of("a", "b"), "a"), "deck": (text, None),
             **COMMON},
}


class KitReader(Reader):
    """Reads one game's ``kit:`` into components, reporting every mistake at its place."""

    def __init__(self, root: Path, diags: Diagnostics, rules: set[str], options: set[str],
                 players: list[str], art_names: Callable[[str], bool] | None,
                 art_params: Callable[[str], dict[str, str] | None] | None = None):
        super().__init__(root, diags)
        self.rules = rules
        self.options = options
        self.players = players
        self.has_art = art_names
        self.art_params = art_params

    def read(self, data: LocDict) -> list[Component]:
        if "kit" not in data:
            return [Component("player-aid", self.defaults("player-aid"), data.at("kit"))]
        items = data["kit"]
        if not isinstance(items, LocList) or not items:
            self.diags.error(data.at("kit"), "kit must be a list of components, each with a "
                             "kind (player-aid, tokens, score-track, mat, round-tracker, deck)")
            return []
        if len(items) > MAX_KIT:
            self.diags.error(items.at(MAX_KIT), over("kit", len(items), MAX_KIT,
                                                     "components per kit")
                             + "; this component is the first past it")
            return []
        out = []
        for i, item in enumerate(items):
            c = self.component(item, items.at(i))
            if c is not None:
                out.append(c)
        return out

    def defaults(self, kind: str) -> dict[str, Any]:
        return {k: (None if d is REQUIRED else d) for k, (_, d) in KINDS[kind].items()}

    def component(self, item: Any, where: Located) -> Component | None:
        if not isinstance(item, LocDict) or "kind" not in item:
            self.diags.error(where, "a kit component must be a mapping with a kind, such as "
                             "{kind: player-aid}")
            return None
        kind = item["kind"]
        if not isinstance(kind, str) or kind not in KINDS:
            self.diags.error(item.at("kind"), f"unknown kind of component {describe(kind)} (kinds: "
                             f"{', '.join(KINDS)})" + (suggest(kind, KINDS) if isinstance(kind, str)
                                                       else ""))
            return None
        spec = KINDS[kind]
        params = self.defaults(kind)
        ok = True
        for key in item:
            if key == "kind":
                continue
            if key not in spec:  # reported in the order written, among the values' errors
                self.unknown_key(item, key, spec, kind)
                ok = False
                continue
            value = self.value(kind, key, spec[key][0], item[key], item.at(key))
            if value is None:
                ok = False
            else:
                params[key] = value
        for key, (_, default) in spec.items():
            if default is REQUIRED and key not in item:
                self.diags.error(where, f"{kind}: '{key}' is missing")
                ok = False
        if ok and kind == "score-track" and params["to"] <= params["from"]:
            self.diags.error(item.at("to"), f"score-track: 'to' ({params['to']}) must be above "
                             f"'from' ({params['from']})")
            ok = False
        if ok and kind == "score-track" and params["to"] - params["from"] > 199:
            self.diags.error(item.at("to"), "score-track: at most 200 spaces fit one sheet")
            ok = False
        if ok and kind == "deck":
            ok = self.own_deck(item, params)
        if ok and kind == "mat" and params["art"] is not None:
            if self.has_art is None or not self.has_art(params["art"]):
                self.diags.error(item.at("art"), f"mat: the game's engine draws no art named "
                                 f"'{params['art']}' (see docs/kit.md, the art hook)")
                ok = False
        if ok and kind == "mat" and params["art"] is not None and self.art_params is not None:
            declared = self.art_params(params["art"])
            if declared is not None:
                ok = self.declared_params(declared, params, item)
        return Component(kind, params, where) if ok else None

    def own_deck(self, item: LocDict, params: dict) -> bool:
        """A deck component's ``deck`` (one of the game's own decks by name; left out, all
        of them) and its ``cards`` read against it; ``back`` is the French deck's only (a
        game's own cards have their deck's back)."""
        decks = getattr(self, "decks", None) or {}
        name = params["deck"]
        if not decks:
            if name is not None:
                self.diags.error(item.at("deck"), "deck.deck names one of the game's own decks "
                                 "(decks: in game.yaml); this game plays the French 52")
                return False
            return True
        if "back" in item:
            self.diags.error(item.at("back"), "deck.back chooses a back of the French 52; a "
                             "game's own cards print with their deck's back (back: under "
                             "decks: in game.yaml)")
            return False
        if name is not None and name not in decks:
            self.diags.error(item.at("deck"), f"deck.deck: the game has no deck '{name}' (its "
                             f"decks: {', '.join(decks)})" + suggest(name, decks))
            return False
        chosen = [decks[name]] if name is not None else list(decks.values())
        if params["cards"] == "all":
            params["cards"] = [c.code for d in chosen for c in d.cards]
            return True
        codes = {c.code for d in chosen for c in d.cards}
        for code in params["cards"]:
            if code not in codes:
                self.diags.error(item.at("cards"), f"deck.cards: card '{code}' is not in the "
                                 f"{name} deck")
                return False
        return True

    def declared_params(self, declared: dict[str, str], params: dict, item: LocDict) -> bool:
        """A mat's params (and each copy's) against what its engine's art declares it takes
        (``GameDef.art_params``); each value is made the type the art reads."""
        groups = [(params["params"], item.at("params"))]      # None when left out: nothing
        groups += [(v["params"], item.at("copies")) for v in params.get("copies") or []]
        for given, where in groups:
            for key in list(given or {}):
                kind, value = declared.get(key), given[key]
                if kind is None:
                    self.diags.error(where, f"mat: the art '{params['art']}' takes no param "
                                     f"'{key}' (it takes: {', '.join(sorted(declared)) or 'none'})"
                                     + suggest(key, declared))
                    return False
                if kind == "whole" and isinstance(value, str) and value.lstrip("-").isdigit():
                    value = int(value)
                if kind == "whole" and isinstance(value, int) and abs(value) < 10_000:
                    given[key] = value
                elif kind == "text" and not isinstance(value, dict):
                    given[key] = str(value)
                elif kind == "per-player" and isinstance(value, dict) \
                        and all(p in self.players for p in value):
                    given[key] = {p: str(v) for p, v in value.items()}
                else:
                    want = {"whole": "a whole number", "text": "a text",
                            "per-player": f"a mapping of player ids ({', '.join(self.players)}) "
                                          f"to texts"}[kind]
                    self.diags.error(where, f"mat.params.{key} must be {want}, got "
                                     f"{describe(value)}")
                    return False
        return True

    def value(self, kind: str, key: str, check: Any, value: Any, where: Located) -> Any:
        if check == "sections":
            return self.sections(value, where, f"{kind}.{key}")
        if check == "players":
            if not isinstance(value, list) or not value or any(
                    not isinstance(p, str) or p not in self.players for p in value):
                self.diags.error(where, f"{kind}.{key} must list player ids of this game "
                                 f"({', '.join(self.players)}), got {describe(value)}")
                return None
            return [str(p) for p in value]
        if check == "cards":
            return self.cards(value, where, f"{kind}.{key}")
        if check == "copies":
            if not isinstance(value, LocList) or not value:
                self.diags.error(where, f"{kind}.copies must be a list of variants, each a "
                                 f"mapping of params (and who, text)")
                return None
            if len(value) > MAX_COPIES:
                self.diags.error(value.at(MAX_COPIES), over(f"{kind}.copies", len(value),
                                                            MAX_COPIES, "copies per component")
                                 + "; this copy is the first past it")
                return None
            out = []
            for i, copy in enumerate(value):
                if not isinstance(copy, LocDict):
                    self.diags.error(value.at(i), f"{kind}.copies: each variant must be a mapping")
                    return None
                variant = {"params": {}, "who": None, "text": None, "stem": None, "panel": None}
                for k in copy:
                    if k == "panel":
                        try:
                            variant["panel"] = box_mm(copy[k])
                        except ValueError as e:
                            self.diags.error(copy.at(k), f"{kind}.copies.panel {e}")
                            return None
                    elif k == "text":
                        variant["text"] = self.sections(copy[k], copy.at(k), f"{kind}.copies.text")
                        if variant["text"] is None:
                            return None
                    elif k in ("who", "stem"):
                        try:
                            variant[k] = WHO(copy[k]) if k == "who" else text(copy[k])
                        except ValueError as e:
                            self.diags.error(copy.at(k), f"{kind}.copies.{k} {e}")
                            return None
                    else:
                        try:
                            variant["params"].update(art_params({str(k): copy[k]}))
                        except ValueError as e:
                            self.diags.error(copy.at(k), f"{kind}.copies.{e}")
                            return None
                out.append(variant)
            return out
        try:
            return check(value)
        except ValueError as e:
            self.diags.error(where, f"{kind}.{key} {e}")
            return None

    def cards(self, value: Any, where: Located, what: str) -> list[str] | str | None:
        """``all`` (the 52), suit letters (``[C, S, D]``: those suits' 13 cards each) or
        card codes; returns the card codes in deck order. In a game of its own decks,
        ``all`` stays ``all``: :meth:`own_deck` makes it the cards of the deck ``deck:``
        chooses (every deck's when it chooses none)."""
        from ..engine.core import CardError, full_deck, parse_cards

        # a game's own decks (none: the French 52)
        decks = list((getattr(self, "decks", None) or {}).values())
        if value == "all":
            return "all" if decks else [str(c) for c in full_deck()]
        if decks and isinstance(value, list) and value:
            out: list[str] = []
            for c in value:   # a code is unique in a game's decks: the deck that has it
                error = None
                for d in decks:
                    try:
                        out.append(str(d.parse(c)))
                        break
                    except CardError as e:
                        error = error or e
                else:
                    self.diags.error(where, f"{what}: {error}")
                    return None
            return list(dict.fromkeys(out))
        if isinstance(value, list) and value and all(v in ("C", "D", "H", "S") for v in value):
            return [str(c) for c in full_deck(tuple(value))]
        if isinstance(value, LocList) and len(value) > MAX_DECK_CARDS:
            self.diags.error(value.at(MAX_DECK_CARDS), over(what, len(value), MAX_DECK_CARDS,
                                                            "cards per deck")
                             + "; this card is the first past it")
            return None
        if isinstance(value, list) and value:
            try:
                return [str(c) for c in parse_cards(value)]
            except CardError as e:
                self.diags.error(where, f"{what}: {e}")
                return None
        self.diags.error(where, f"{what} must be all, a list of suits such as [C, S, D], or a "
                         f"list of cards, got {describe(value)}")
        return None

    def sections(self, value: Any, where: Located, what: str) -> list[Section] | None:
        if not isinstance(value, LocList):
            self.diags.error(where, f"{what} must be a list of sections, each a mapping such "
                             f"as {{title: Every trick, lines: all}}")
            return None
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, LocDict):
                self.diags.error(value.at(i), f"{what}: a section must be a mapping")
                return None
            section = Section()
            for key in item:
                got = self.section_part(item, key, what)
                if got is False:
                    return None
                if key == "title":
                    section.title = got
                elif key == "ref":
                    section.ref = got
                else:
                    section.parts.append((str(key), got))
            out.append(section)
        return out

    def section_part(self, item: LocDict, key: Any, what: str) -> Any:
        value, where = item[key], item.at(key)
        if key not in SECTION_KEYS:
            self.unknown_key(item, key, SECTION_KEYS, what)
            return False
        if key in ("title", "text"):
            try:
                return text(value)
            except ValueError as e:
                self.diags.error(where, f"{what}.{key} {e}")
                return False
        if key in ("ref", "rule"):
            ids = value if isinstance(value, list) else [value]
            for rid in ids:
                if not isinstance(rid, str) or rid not in self.rules:
                    self.diags.error(where, f"{what}.{key}: unknown rule id {describe(rid)}"
                                     + (suggest(rid, self.rules) if isinstance(rid, str) else ""))
                    return False
            return value if key == "ref" else list(ids)
        if key == "option":
            if not isinstance(value, str) or value not in self.options:
                self.diags.error(where, f"{what}.option: the game prints no option '{value}' "
                                 f"(options: {', '.join(sorted(self.options)) or 'none'})")
                return False
            return value
        # lines / paragraphs: "all", or [from, to] over the quick reference (to excluded;
        # negative counts from the end)
        if value == "all":
            return (0, None)
        if (isinstance(value, list) and len(value) in (1, 2)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return (value[0], value[1] if len(value) == 2 else None)
        self.diags.error(where, f"{what}.{key} must be all, [from] or [from, to] over the quick "
                         f"reference's lines (from 0; to not included; negative counts from "
                         f"the end), got {describe(value)}")
        return False
