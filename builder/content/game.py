"""Stage 1, one game's folder: ``game.yaml`` (metadata, engine, players, options, look,
comparison row, quick reference, components) read here, and the game's other files by
their own readers (:mod:`.rules`, :mod:`.glossary`, :mod:`.examples`, :mod:`.kit`,
:mod:`.balance`), put together into a :class:`Game`. The game's engine validates its
options and the rules it cites.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import limits
from ..diagnostics import Diagnostics, Located, describe, suggest
from ..engine.core import CardError, parse_cards
from ..engine.registry import ENGINE_FILE, EngineError, available_engines, find_engine
from ..model import Example, Game, OptionInfo, Rule, Term
from ..yamlsrc import LocDict, LocList
from . import fields
from .balance import BalanceReader
from .base import ID_RE, or_default
from .changes import ChangesReader
from .examples import ExampleReader
from .glossary import GlossaryReader
from .kit import KitReader
from .markdown import ProseReader
from .rules import RulesReader

GAME_KEYS = {
    "slug", "title", "engine", "designer", "credit", "tagline", "summary", "players",
    "time", "components", "options", "compare", "quickref", "accent", "player_colours",
    "cover_cards", "kit", "balance", "decks", "changes",
}
#: a game's colour where game.yaml gives none: a neutral warm grey
DEFAULT_ACCENT = "#5b554e"
#: the cards on a rulebook's cover where game.yaml names none
DEFAULT_COVER_CARDS = ("AS", "KH", "QC", "JD")
COMPARE_KEYS = ("players", "deck", "choices", "win", "length")
#: the most players a game may name (a table, not a stadium)
MAX_PLAYERS = 12
#: the most copies of one component a game may list
MAX_COMPONENT_COUNT = 999
PLAYER_ID_RE = re.compile(r"^p([1-9][0-9]?)$")


def players_text_plain(counts: tuple[int, ...]) -> str:
    """2, "2 or 4", "2 to 4": the counts an engine plays, in words."""
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


class GameReader(ProseReader):
    """Reads game folders, one :meth:`read` each; it counts the diagrams of all the games
    read so far (the compendium's, MAX_DIAGRAMS_ALL)."""

    def __init__(self, root: Path, diags: Diagnostics):
        super().__init__(root, diags)
        #: the diagrams of the games read so far (the compendium's, MAX_DIAGRAMS_ALL)
        self.diagrams_all = 0

    def read(self, folder: Path) -> Game | None:
        gpath = folder / "game.yaml"
        if not ID_RE.match(folder.name):
            self.diags.error(Located(self.show(gpath), 1),
                             f"the game's folder name '{folder.name}' must be lower-case letters, "
                             f"digits and hyphens, starting with a letter or digit (it becomes "
                             f"part of file names and web addresses)")
            return None
        data = self.yaml(gpath)
        if data is None:
            return None
        where = Located(self.show(gpath), 1)
        if not isinstance(data, LocDict):
            self.diags.error(where, "game.yaml must be a mapping")
            return None
        self.unknown_keys(data, GAME_KEYS, "game.yaml")
        slug = self.require(data, "slug", str, "game.yaml")
        if slug is not None and slug != folder.name:
            self.diags.error(data.at("slug"), f"slug '{slug}' does not match its folder '{folder.name}'")
        slug = folder.name
        title = self.require(data, "title", str, "game.yaml") or slug
        if "title" in data and isinstance(data["title"], str) \
                and not self.visible_name(data["title"], data.at("title"), "game.yaml: 'title'"):
            title = slug
        gamedef = self.resolve_engine(data, folder, where)
        engine = gamedef.slug if gamedef is not None else str(data.get("engine") or "")
        decks = self.load_decks(data, folder, slug, gamedef, engine, where)
        if decks is None:  # the engine's own cards could not be read: nothing to replay
            decks, gamedef = [], None
        pmin, pmax, names = self.load_players(data)
        if gamedef is not None:
            self.players_the_engine_plays(data, gamedef, engine, pmin, pmax)

        options, settings, opts = self.load_options(data, gamedef, engine)
        accent, player_colours, cover_cards = self.load_look(data, names, gamedef)

        compare = or_default(data, "compare", LocDict())
        if not isinstance(compare, LocDict):
            self.diags.error(data.at("compare"), f"compare must be a mapping ({', '.join(COMPARE_KEYS)}"
                             f" to text), got {describe(compare)}")
            compare = LocDict()
        for k, v in compare.items():
            if not isinstance(v, (str, int)) or isinstance(v, bool):
                self.diags.error(compare.at(k), f"compare: '{k}' must be text; quote a value "
                                 "that contains ': '")
        for k in COMPARE_KEYS:
            if k not in compare:
                self.diags.error(data.at("compare") if "compare" in data else where,
                                 f"compare: '{k}' is missing (the comparison table needs "
                                 f"{', '.join(COMPARE_KEYS)})")
        quickref = or_default(data, "quickref", LocList())
        if not isinstance(quickref, list):
            self.diags.error(data.at("quickref"), "quickref must be a list of lines")
            quickref = LocList()
        if len(quickref) > limits.MAX_QUICKREF:
            self.diags.error(quickref.at(limits.MAX_QUICKREF),  # a list read is a LocList
                             limits.over("quickref", len(quickref), limits.MAX_QUICKREF,
                                         "lines per quickref"))
            quickref = LocList()
        for i, q in enumerate(quickref):
            if not isinstance(q, str):
                self.diags.error(quickref.at(i), "a quickref line must be text; quote a line that "
                                 "contains ': ' (YAML reads it as a mapping)")
        texts = {key: self.text(data, key, "game.yaml")
                 for key in ("designer", "credit", "tagline", "summary", "time")}
        for key in ("summary", "credit", "tagline"):
            self.check_markdown(texts[key], data.at(key))
        if isinstance(data.get("title"), str):
            self.check_markdown(data["title"], data.at("title"))
        if isinstance(quickref, LocList):
            for i, q in enumerate(quickref):
                self.check_markdown(str(q), quickref.at(i))
        if isinstance(compare, LocDict):
            for k in compare:
                self.check_markdown(str(compare[k]), compare.at(k))

        rules = RulesReader(self.root, self.diags).read(folder / "rules.md")
        index = {r.id: r for top in rules for r in top.walk()}
        glossary = GlossaryReader(self.root, self.diags).read(folder / "glossary.yaml", index)
        for key in ("summary", "credit"):
            self.check_xrefs(texts[key], data.at(key), index)
        if isinstance(quickref, LocList):
            for i, q in enumerate(quickref):
                self.check_xrefs(str(q), quickref.at(i), index)
        for name, spec in opts.items():
            if isinstance(spec, LocDict) and isinstance(spec.get("text"), str):
                self.check_xrefs(spec["text"], spec.at("text"), index)
        if gamedef is not None and rules:
            played_with = dict(settings)
            played_with.update({o.name: o.default for o in options})
            try:
                cited = gamedef.cited_rules(played_with)
            except Exception:  # noqa: BLE001 - a bad option value is reported above
                cited = gamedef.rule_ids
            missing = sorted(cited - set(index))
            for rid in missing:
                self.diags.error(Located(self.show(folder / "rules.md"), 1),
                                 f"the engine cites rule '{rid}', which rules.md does not define")

        changes = ChangesReader(self.root, self.diags).read(data, index)
        kit_reader = KitReader(self.root, self.diags, set(index), {o.name for o in options},
                               list(names),
                               (lambda name: name in gamedef.art) if gamedef is not None else None,
                               art_params=gamedef.art_params.get if gamedef is not None else None)
        kit_reader.decks = {spec.name: spec.deck for spec in decks}
        kit = kit_reader.read(data)

        examples = []
        seen: dict[str, Located] = {}
        diagrams = 0
        reader = ExampleReader(self.root, self.diags)
        for path in reader.files(folder / "examples"):
            ex = reader.read(path, index)
            if ex is None:
                continue
            if not self.within_diagrams(ex, diagrams, slug):
                break
            diagrams += 1 + sum(s.repeat for s in ex.steps)
            self.diagrams_all += 1 + sum(s.repeat for s in ex.steps)
            if ex.id in seen:
                first = seen[ex.id]
                self.diags.error(ex.where, f"example id '{ex.id}' is already used at "
                                 f"{first.path}:{first.line}")
                continue
            seen[ex.id] = ex.where
            examples.append(ex)
        self.no_shared_anchor(index, examples, glossary)

        self.within_book_chars(slug, data, texts, quickref, rules, glossary, examples)
        return Game(
            slug=slug, title=title, engine=engine or "", gamedef=gamedef, designer=texts["designer"],
            credit=texts["credit"], tagline=texts["tagline"], summary=texts["summary"],
            players_min=pmin, players_max=pmax,
            player_names=names, time=texts["time"],
            components=self.load_components(data), options=options, settings=settings,
            accent=accent, player_colours=player_colours, cover_cards=cover_cards, kit=kit,
            balance=BalanceReader(self.root, self.diags).read(data),
            compare={k: str(compare.get(k, "")) for k in COMPARE_KEYS},
            quickref=[str(q) for q in quickref], rules=rules, glossary=glossary, changes=changes,
            examples=examples, dir=str(folder), where=where, decks=decks,
        )

    def load_decks(self, data: LocDict, folder: Path, slug: str, gamedef, engine: str,
                   where: Located) -> list:
        """The game's own decks (``decks:``, :mod:`.decks`), given to its engine; [] for a
        game played with the French 52; None (after located errors) when the engine plays
        its own cards and they could not be read."""
        from .decks import DeckReader

        decks = DeckReader(self.root, self.diags).read(data, folder, slug)
        if gamedef is None:
            return decks
        if gamedef.cards == "own":
            if not decks or len(decks) < len(data.get("decks") or ()):
                if "decks" not in data:
                    self.diags.error(where, f"the {engine} engine plays the game's own cards "
                                     f"(GameDef cards='own'), and game.yaml declares none",
                                     detail="add them:  decks:\n"
                                            "             main: {cards: cards.csv, size: poker}")
                return None
            try:
                gamedef.use_decks({d.name: d.deck for d in decks})
            except ValueError as e:
                self.diags.error(data.at("decks"), f"decks: {e}")
                return None
        elif "decks" in data:
            self.diags.error(data.at("decks"), f"the {engine} engine plays the French 52 "
                             f"cards, so the game cannot have decks of its own",
                             detail="an engine that plays a deck file's cards says "
                                    "GameDef(..., cards=\"own\") (docs/decks.md)")
            return []
        return decks

    def resolve_engine(self, data: LocDict, folder: Path, where: Located):
        """The game's engine (the engine validates options and rules), or None with a
        located error: the folder's own engine.py first, then the installed engines."""
        has_file = (folder / ENGINE_FILE).is_file()
        if (folder / ENGINE_FILE).exists() and not has_file:
            self.diags.error(Located(self.show(folder / ENGINE_FILE), 1),
                             f"{ENGINE_FILE} must be a file (the game's own engine), not a "
                             f"folder or device")
            return None
        name = data.get("engine")
        if name is None and not has_file:
            self.diags.error(where, "game.yaml has no 'engine:' (the engine that plays the "
                             "game, such as 'war'), and the folder has no engine.py",
                             detail=f"available engines: {', '.join(available_engines())}")
            return None
        if name is not None and not isinstance(name, str):
            self.diags.error(data.at("engine"), "engine must be a name, such as 'war'")
            return None
        try:
            return find_engine(name, folder)
        except EngineError as e:
            if e.path:
                self.diags.error(Located(self.show(Path(e.path)), e.line), str(e))
            else:
                self.diags.error(data.at("engine") if name is not None else where, str(e))
            return None

    def load_options(self, data: LocDict, gamedef, engine: str):
        """game.yaml's ``options:``. An option given as a mapping (default, label, text) is a
        variant the players may choose and is printed in the rulebook; an option given as a
        plain value is a fixed setting of this game (Peace sets ``wins: lower`` on War's
        engine) and is not printed. Options left out keep the engine's default.
        Returns (printed options, fixed settings, the raw mapping)."""
        options: list[OptionInfo] = []
        settings: dict[str, Any] = {}
        opts = or_default(data, "options", LocDict())
        if not isinstance(opts, dict):
            self.diags.error(data.at("options"), "options must be a mapping of option name to details")
            return options, settings, LocDict()
        for name, spec in opts.items():
            known = gamedef is None or name in gamedef.options
            if not known:
                self.diags.error(Located(opts.path, *opts.key_pos(name)),
                                 f"the {engine} engine has no option '{name}' "
                                 f"(it has: {', '.join(gamedef.options) or 'none'})"
                                 + suggest(name, gamedef.options))
                continue   # said; the engine never sees it (it would refuse the whole setup)
            if not isinstance(spec, dict):
                if known and gamedef is not None:
                    msg = gamedef.options[name].check(spec)
                    if msg:  # said here; the engine never sees the value
                        self.diags.error(opts.at(name), msg)
                        continue
                settings[str(name)] = spec
                continue
            self.unknown_keys(spec, {"default", "label", "text"}, f"option '{name}'")
            default = spec.get("default")
            if known and gamedef is not None:
                msg = gamedef.options[name].check(default)
                if msg:  # said here; the engine keeps its own default
                    self.diags.error(spec.at("default"), msg)
                    default = gamedef.options[name].default
            text = self.text(spec, "text", f"option '{name}'")
            self.check_markdown(text, spec.at("text"))
            label = self.text(spec, "label", f"option '{name}'") or str(name)
            if "label" in spec and not self.visible_name(label, spec.at("label"),
                                                         f"option '{name}': the label"):
                label = str(name)
            options.append(OptionInfo(name, default, label, text))
        return options, settings, opts

    def load_look(self, data: LocDict, names: dict[str, str], gamedef=None):
        """game.yaml's colours and cover: ``accent`` (the game's colour in every product),
        ``player_colours`` (player id -> colour, for mats and tokens) and ``cover_cards``
        (the cards drawn on the rulebook's cover). Returns (accent, player colours, cover
        cards), defaults filled in."""
        accent = DEFAULT_ACCENT
        if "accent" in data:
            accent = self.colour(data, "accent", "accent") or DEFAULT_ACCENT
        colours: dict[str, str] = {}
        given = data.get("player_colours")
        if given is not None:
            if not isinstance(given, LocDict):
                self.diags.error(data.at("player_colours"),
                                 "player_colours must map player ids (p1, p2, ...) to colours")
            else:
                for p in given:
                    if p not in names:
                        self.diags.error(Located(given.path, *given.key_pos(p)),
                                         f"player_colours: no player '{p}' "
                                         f"(players: {', '.join(names)})")
                    elif (c := self.colour(given, p, f"player_colours.{p}")) is not None:
                        colours[str(p)] = c
        for p in names:
            colours.setdefault(p, accent)
        own = gamedef is not None and gamedef.cards == "own" and gamedef.__dict__.get("_decks")
        cover = [str(c) for c in gamedef.deck.cards[:4]] if own else list(DEFAULT_COVER_CARDS)
        if "cover_cards" in data:
            value = data["cover_cards"]
            if not isinstance(value, LocList) or not 1 <= len(value) <= 4:
                self.diags.error(data.at("cover_cards"),
                                 "cover_cards must list one to four card codes, such as [AS, KH]")
            elif gamedef is None:
                # no engine, or its cards could not be read (said above): the codes cannot
                # be told apart from a wrong one, so none is called wrong
                cover = [str(c) for c in value]
            else:
                try:
                    cover = [str(gamedef.parse_card(c) if own else c) for c in
                             (value if own else parse_cards(value))]
                except CardError as e:
                    self.diags.error(data.at("cover_cards"), f"cover_cards: {e}")
        return accent, colours, cover

    def no_shared_anchor(self, rules: dict, examples: list, glossary) -> None:
        """A rule, an example and a glossary term each have a place in the book and on the
        website named by the game and an id: the rule's own id, ``ex-`` and the example's
        id, ``term-`` and the term. A rule whose id is an example's or a term's place name
        would share it, and every link to either would land on whichever came first."""
        taken: dict[str, str] = {}
        for ex in examples:
            taken[ex.anchor] = f"example '{ex.id}' ({ex.where.path}:{ex.where.line})"
        for t in glossary or []:
            taken.setdefault(t.anchor, f"the glossary's term '{t.term}' ({t.where.path}:{t.where.line})")
        for rid, rule in rules.items():
            if rid in taken:
                self.diags.error(rule.where, f"rule id '{rid}' is also the place name of "
                                 f"{taken[rid]} in the book and on the website, so links "
                                 f"to one would land on the other; give the rule another id")

    def within_diagrams(self, ex: Example, before: int, slug: str) -> bool:
        """Whether the rulebook (and the compendium) can take this example's diagrams (its
        setup and each replayed step); False after a located error at the step past the
        limit (this example and the rest of the game's are then not replayed)."""
        for limit, done, what, per in (
                (limits.MAX_DIAGRAMS, before, f"the rulebook of '{slug}'", "diagrams per rulebook"),
                (limits.MAX_DIAGRAMS_ALL, self.diagrams_all, "the compendium",
                 "diagrams per compendium (all games together)")):
            total = done + 1 + sum(s.repeat for s in ex.steps)
            if total <= limit:
                continue
            count, where = done + 1, ex.where
            for step in ex.steps:
                if count + step.repeat > limit:
                    where = step.where
                    break
                count += step.repeat
            self.diags.error(where, limits.over(what, total, limit, per)
                             + f" (one per example and one per step as replayed); example "
                               f"'{ex.id}' passes it here")
            return False
        return True

    def within_book_chars(self, slug: str, data: LocDict, texts: dict, quickref: list,
                          rules: list[Rule], glossary: list[Term], examples: list[Example]) -> None:
        """The rulebook's prose at most MAX_BOOK_CHARS characters, or a located error at the
        text that passes the limit (with MAX_DIAGRAMS this bounds the rulebook's pages)."""
        parts: list[tuple[Located, int]] = [(Located(data.path, 1),
                                             sum(len(t) for t in texts.values())
                                             + sum(len(str(q)) for q in quickref))]
        parts += [(r.where, len(r.title) + len(r.body)) for top in rules for r in top.walk()]
        parts += [(t.where, len(t.term) + len(t.definition)) for t in glossary]
        for ex in examples:
            parts.append((ex.where, len(ex.title) + len(ex.intro) + len(ex.outro)))
            parts += [(s.where, len(s.comment)) for s in ex.steps]
        total = sum(n for _, n in parts)
        if total <= limits.MAX_BOOK_CHARS:
            return
        count = 0
        for where, n in parts:
            count += n
            if count > limits.MAX_BOOK_CHARS:
                self.diags.error(where, limits.over(f"the rulebook of '{slug}'", total,
                                                    limits.MAX_BOOK_CHARS,
                                                    "characters of text per rulebook")
                                 + " (rules, glossary, examples' words); the text here passes "
                                   "it")
                return

    def load_players(self, data: LocDict) -> tuple[int, int, dict[str, str]]:
        """game.yaml's ``players:`` (min, max: whole numbers, 1 <= min <= max <= MAX_PLAYERS;
        names: p1, p2, ... to names). Returns (min, max, names), defaults filled in."""
        players = self.require(data, "players", dict, "game.yaml") or LocDict()
        counts = {}
        for key in ("min", "max"):
            if key in players:
                value = self.field(players, key, fields.whole(1, MAX_PLAYERS), f"players.{key}")
                if value is not None:
                    counts[key] = value
        pmin = counts.get("min", 2)
        pmax = counts.get("max", max(pmin, 2) if "min" not in counts else pmin)
        if pmin > pmax:
            self.diags.error(players.at("min"), f"players.min ({pmin}) is above players.max "
                             f"({pmax})")
            pmin = pmax
        given = or_default(players, "names", LocDict())
        names: dict[str, str] = {}
        if not isinstance(given, LocDict):
            self.diags.error(players.at("names"), "players.names must map p1, p2, ... to names")
            given = LocDict()
        for k, v in given.items():
            m = PLAYER_ID_RE.match(str(k))
            if not m or int(m.group(1)) > pmax:
                self.diags.error(Located(given.path, *given.key_pos(k)),
                                 f"players.names: {describe(k)} is not a player of this game "
                                 f"(p1 to p{pmax})")
            elif not isinstance(v, (str, int)) or isinstance(v, bool) or not str(v).strip():
                self.diags.error(given.at(k), f"players.names.{k} must be a name, got "
                                 f"{describe(v)}")
            elif self.visible_name(str(v), given.at(k), f"players.names.{k}"):
                names[str(k)] = " ".join(str(v).split())
        for i in range(1, pmax + 1):
            names.setdefault(f"p{i}", f"Player {i}")
        return pmin, pmax, {f"p{i}": names[f"p{i}"] for i in range(1, pmax + 1)}

    def players_the_engine_plays(self, data: LocDict, gamedef, engine: str, pmin: int,
                                 pmax: int) -> None:
        """game.yaml's player counts must be ones the engine plays (the engine is the one
        source: ``GameDef.player_counts()``, which the covers print)."""
        counts = gamedef.player_counts()
        players = data.get("players")
        if not counts or not isinstance(players, LocDict):
            return
        plays = players_text_plain(counts)
        for key, value in (("min", pmin), ("max", pmax)):
            if value not in counts:
                at = players.at(key) if key in players else data.at("players")
                self.diags.error(at, f"players.{key} is {value}, but the {engine} engine plays "
                                 f"{plays} players (hint: set players.{key} to a count the "
                                 f"engine plays, or change the engine)")

    def load_components(self, data: LocDict) -> list[dict[str, Any]]:
        """game.yaml's ``components:``: what a game needs besides the rulebook, each a
        mapping with a ``name`` (text) and a ``count`` (a whole number, 1 to 999)."""
        given = data.get("components")
        if given is None:
            return []
        if not isinstance(given, LocList):
            self.diags.error(data.at("components"), "components must be a list, each item "
                             "such as {name: Standard 52-card deck, count: 1}")
            return []
        out = []
        for i, item in enumerate(given):
            if not isinstance(item, LocDict):
                self.diags.error(given.at(i), "a component must be a mapping such as "
                                 "{name: Standard 52-card deck, count: 1}")
                continue
            self.unknown_keys(item, {"name", "count"}, "component")
            name = self.require(item, "name", str, "component")
            count = self.field(item, "count", fields.whole(1, MAX_COMPONENT_COUNT),
                               "component: 'count'") if "count" in item else 1
            if count is None:
                continue
            if name is not None and self.visible_name(name, item.at("name"), "component: 'name'"):
                self.check_markdown(name, item.at("name"))
                out.append({"name": " ".join(name.split()), "count": count})
        return out

