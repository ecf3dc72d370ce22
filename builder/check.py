"""Stage 2: replay every worked example on the reference engine.

For each example the engine starts from the example's exact setup, applies each step
(a joint decision, a chance outcome, or a forced step) and compares the state after the
step with what the example expects. Failures are reported in the manner of doctest:
file, line, expected, got, and the state before the step.

The result is a :class:`Report`, which also carries every replay (:class:`Replay`) for the
renderers: the rulebook and the website narrate examples from these records, never from
the content alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Diagnostics, Located, suggest, yaml_value
from .engine.core import (
    Card, CardError, DecisionFormatError, Event, GameDef, IllegalDecision, SetupError, State,
    Zone, jsonable, parse_cards,
)
from .model import Content, Example, Game, Step
from .yamlsrc import LocDict, LocList


@dataclass
class StepRecord:
    """One replayed step, as the renderers draw it."""

    index: int
    kind: str  # decision | chance | forced
    decisions: dict[str, Any]  # player -> decision value (engine values)
    what: str  # what was decided, in words
    events: list[Event]
    view: dict[str, Any]  # state after the step
    table: list[Zone]  # the table at the moment of the reveal (or after the step)
    comment: str
    expected: list[str]  # view keys the example checked at this step
    repeat: int = 1  # how often the written step is applied (repeat:)
    round: int = 1  # which application this record is
    #: the table once the step has resolved, when ``table`` shows an earlier moment (the
    #: reveal); None when the diagram already shows the table after the step
    after: list[Zone] | None = None


@dataclass
class Replay:
    example: Example
    game: Game
    status: str = "pass"  # pass | fail | error
    steps: list[StepRecord] = field(default_factory=list)
    initial_view: dict[str, Any] = field(default_factory=dict)
    initial_table: list[Zone] = field(default_factory=list)
    rules_cited: set[str] = field(default_factory=set)
    options: dict[str, Any] = field(default_factory=dict)
    result: str = "none"

    @property
    def step_count(self) -> int:
        return len(self.steps)


@dataclass
class GameReport:
    game: Game
    replays: list[Replay] = field(default_factory=list)
    coverage: dict[str, list[str]] = field(default_factory=dict)  # rule id -> example ids
    uncovered: list[str] = field(default_factory=list)  # engine-cited rules no example exercises


@dataclass
class Report:
    content: Content
    games: list[GameReport]
    diagnostics: Diagnostics

    @property
    def ok(self) -> bool:
        return not self.diagnostics.errors

    @property
    def example_count(self) -> int:
        return sum(len(g.replays) for g in self.games)

    def counts(self) -> dict[str, int]:
        out = {"pass": 0, "fail": 0, "error": 0}
        for g in self.games:
            for r in g.replays:
                out[r.status] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        c = self.counts()
        return {
            "ok": self.ok,
            "summary": {"games": len(self.games), "examples": self.example_count,
                        "passed": c["pass"], "failed": c["fail"] + c["error"],
                        "errors": len(self.diagnostics.errors),
                        "warnings": len(self.diagnostics) - len(self.diagnostics.errors)},
            "games": [
                {
                    "slug": g.game.slug, "title": g.game.title,
                    "examples": [
                        {"id": r.example.id, "title": r.example.title,
                         "file": r.example.where.path, "line": r.example.where.line,
                         "status": r.status, "steps": r.step_count, "result": r.result,
                         "rules": sorted(r.rules_cited)}
                        for r in g.replays
                    ],
                    "rules": {rid: ex for rid, ex in g.coverage.items()},
                    "uncovered": g.uncovered,
                }
                for g in self.games
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def show_value(v: Any) -> str:
    """A value as the designer writes it: cards as ``QH``, ``true``/``false``, ``null``."""
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    if isinstance(v, Card):
        return str(v)
    if isinstance(v, bool) or v is None or isinstance(v, dict):
        return yaml_value(v)
    return str(v)


def describe_state(state: State) -> str:
    """The state as a reader of an error message wants it: every view key."""
    lines = []
    for k, v in state.view().items():
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, Card) for x in v):
            lines.append(f"{k}: {show_value(v)} ({len(v)})")
        elif isinstance(v, (list, tuple)) and not v:
            lines.append(f"{k}: []")
        else:
            lines.append(f"{k}: {show_value(v)}")
    return "state before the step:\n" + "\n".join("  " + ln for ln in lines)


# --------------------------------------------------------------------------- replay
class Replayer:
    def __init__(self, game: Game, gamedef: GameDef, diags: Diagnostics):
        self.game = game
        self.gamedef = gamedef
        self.diags = diags

    def setup_error_where(self, ex: Example, where: tuple) -> Located:
        """Follow a setup key path such as ("piles", "p1.deck", 3) to its line."""
        if where and where[0] == "options":
            opts = ex.raw.get("options") if isinstance(ex.raw, LocDict) else None
            if isinstance(opts, LocDict) and len(where) > 1 and where[1] in opts:
                line, col = opts.key_pos(where[1])
                return Located(opts.path, line, col)
            return ex.raw.at("options") if isinstance(ex.raw, LocDict) else ex.where
        node: Any = ex.setup
        best = ex.raw.at("setup") if isinstance(ex.raw, LocDict) and "setup" in ex.raw else ex.where
        for key in where:
            if isinstance(node, LocDict) and key in node:
                line, col = node.pos(key)
                best = Located(node.path, line, col)
                node = node[key]
            elif isinstance(node, LocList) and isinstance(key, int) and 0 <= key < len(node):
                best = node.at(key)
                node = node[key]
            else:
                break
        return best

    def check_setup_cards(self, ex: Example, supply: Any) -> bool:
        """Unknown cards and cards written more often than the game has them."""
        piles = ex.setup.get("piles") if isinstance(ex.setup, dict) else None
        if not isinstance(piles, LocDict):
            return True
        ok = True
        from collections import Counter
        counts: Counter = Counter()
        first: dict = {}
        for name, cards in piles.items():
            if cards is None:
                continue
            if not isinstance(cards, LocList):
                self.diags.error(piles.at(name), f"pile '{name}' must be a list of cards, top first")
                ok = False
                continue
            for i, raw in enumerate(cards):
                try:
                    card = Card.parse(raw)
                except CardError as e:
                    self.diags.error(cards.at(i), f"example '{ex.id}': {e}"
                                     + suggest(str(raw).strip().upper(), DECK_NAMES))
                    ok = False
                    continue
                group = supply_group(self.gamedef, name)
                counts[(group, card)] += 1
                first.setdefault((group, card), (name, cards.at(i)))
                allowed = supply(group, card)
                if counts[(group, card)] > allowed:
                    times = "once" if allowed == 1 else f"{allowed} times"
                    where_first, at = first[(group, card)]
                    self.diags.error(
                        cards.at(i),
                        f"example '{ex.id}': card {card} is in the setup more than {times}"
                        + (f" (the game has it {times})" if allowed != 1 else
                           " (the game has one of each card)")
                        + (f" in {group}'s cards" if group != "all" else "")
                        + f": here in {name}, and first in {where_first} at "
                          f"{at.path}:{at.line}:{at.col}",
                    )
                    ok = False
        return ok

    def replay(self, ex: Example) -> Replay:
        rep = Replay(example=ex, game=self.game)
        g = self.gamedef
        opts_given = dict(self.game.option_defaults())
        opts_given.update(ex.options)
        try:
            options = g.resolve(opts_given)
        except SetupError as e:
            hint = ""
            if len(e.where) == 2 and e.where[0] == "options" and e.where[1] not in g.options:
                hint = suggest(e.where[1], g.options)
            self.diags.error(self.setup_error_where(ex, e.where),
                             f"example '{ex.id}': {e.message}{hint}")
            rep.status = "error"
            return rep
        rep.options = options
        if not self.check_setup_cards(ex, card_supply(g, options)):
            rep.status = "error"
            return rep
        try:
            state = g.from_setup(options, ex.setup)
        except SetupError as e:
            self.diags.error(self.setup_error_where(ex, e.where), f"example '{ex.id}': {e.message}")
            rep.status = "error"
            return rep
        except CardError as e:
            self.diags.error(ex.raw.at("setup"), f"example '{ex.id}': {e}")
            rep.status = "error"
            return rep
        rep.initial_view = state.view()
        rep.initial_table = state.table()
        for step in ex.steps:
            if not self.replay_step(ex, step, state, rep):
                rep.status = "fail" if rep.status == "pass" else rep.status
                break
        rep.result = state.result.label if state.result else "none"
        # an example must actually exercise the rules it claims to illustrate
        if rep.status == "pass":
            cited = g.cited_rules(rep.options)
            rules_node = ex.raw.get("rules") if isinstance(ex.raw, LocDict) else None
            for i, rid in enumerate(ex.rules):
                if rid in cited and rid not in rep.rules_cited:
                    where = rules_node.at(i) if isinstance(rules_node, LocList) else ex.where
                    self.diags.error(where, f"example '{ex.id}' lists rule '{rid}', but its replay "
                                     f"never applies it (rules applied: "
                                     f"{', '.join(sorted(rep.rules_cited)) or 'none'})")
                    rep.status = "fail"
        return rep

    def replay_step(self, ex: Example, step: Step, state: State, rep: Replay) -> bool:
        where = step.where
        for rnd in range(step.repeat):
            before = describe_state(state)
            node = state.pending()
            label = f"example '{ex.id}', step {step.index}"
            if step.repeat > 1:
                label += f" (repeat {rnd + 1} of {step.repeat})"
            if node is None:
                self.diags.error(where, f"{label}: the game is already over "
                                 f"({state.result.reason if state.result else ''})".replace(
                                     "{", "").replace("}", ""), detail=before)
                return False
            decisions: dict[str, Any] = {}
            try:
                if step.chance is not None:
                    if node.kind != "chance":
                        self.diags.error(step.raw.at("chance"),
                                         f"{label}: no chance event is pending; "
                                         f"{'; '.join(node.choices)} must decide ({node.what})",
                                         detail=before)
                        return False
                    try:
                        outcome = node.choice.parse(step.chance)
                    except DecisionFormatError as e:
                        self.diags.error(step.raw.at("chance"), f"{label}: chance: {e}",
                                         detail=before)
                        return False
                    events = state.apply_chance(outcome)
                    kind = "chance"
                    decisions = {node.player or "chance": outcome}
                elif step.decide is not None:
                    if node.kind != "decision":
                        self.diags.error(step.raw.at("decide"),
                                         f"{label}: a chance event is pending ({node.what}); "
                                         f"write its outcome with chance:", detail=before)
                        return False
                    dec = step.raw.get("decide")
                    for p, raw in dec.items():
                        p = str(p)
                        ch = node.choices.get(p)
                        if ch is None:
                            self.diags.error(
                                dec.at(p) if isinstance(dec, LocDict) else where,
                                f"{label}: {p} has no decision to make now "
                                f"(deciding: {', '.join(node.choices)}; {node.what})", detail=before)
                            return False
                        try:
                            decisions[p] = ch.parse(raw)
                        except DecisionFormatError as e:
                            self.diags.error(dec.at(p) if isinstance(dec, LocDict) else where,
                                             f"{label}: {p}: {e}", detail=before)
                            return False
                    for p in node.choices:
                        if p not in decisions:
                            self.diags.error(step.raw.at("decide"),
                                             f"{label}: {p} must decide too ({node.what}): "
                                             f"{node.choices[p].describe()}", detail=before)
                            return False
                    events = state.apply(decisions)
                    kind = "decision"
                else:
                    if node.kind == "chance":
                        self.diags.error(where, f"{label}: a chance event is pending ({node.what}); "
                                         f"write its outcome with chance:", detail=before)
                        return False
                    forced = state.forced_decisions()
                    if forced is None:
                        open_ = [f"{p}: {ch.describe()}" for p, ch in node.choices.items()
                                 if not ch.is_forced()]
                        self.diags.error(where, f"{label}: a decision is needed ({node.what}); "
                                         f"write it with decide: ({'; '.join(open_)})", detail=before)
                        return False
                    decisions = forced
                    events = state.apply(forced)
                    kind = "forced"
            except IllegalDecision as e:
                loc = where
                if step.decide is not None and isinstance(step.raw.get("decide"), LocDict) and e.player:
                    dec = step.raw["decide"]
                    if e.player in dec:
                        loc = dec.at(e.player)
                elif step.chance is not None:
                    loc = step.raw.at("chance")
                rule = self.rule_label(e.rule)
                who = f"{e.player}: " if e.player else ""
                self.diags.error(loc, f"{label}: illegal: {who}{e.message}"
                                 + (f" (rule {rule})" if rule else ""), detail=before)
                return False
            for ev in events:
                rep.rules_cited.add(ev.rule)
            table = state.take_shown()
            after = state.table()
            view = state.view()
            expected_keys: list[str] = []
            ok = True
            if step.expect and rnd == step.repeat - 1:
                ok = self.check_expect(step, label, view, events, before)
                expected_keys = [str(k) for k in step.expect]
            rep.steps.append(StepRecord(
                index=step.index, kind=kind, decisions=decisions,
                what=node.what, events=events, view=view, table=table,
                comment=step.comment if rnd == step.repeat - 1 else "",
                expected=expected_keys, repeat=step.repeat, round=rnd + 1,
                after=None if after == table else after,
            ))
            if not ok:
                return False
        return True

    def rule_label(self, rid: str) -> str:
        if not rid:
            return ""
        r = self.game.rule_index().get(rid)
        return f"{r.number} {r.title} [{rid}]" if r else rid

    def check_expect(self, step: Step, label: str, view: dict[str, Any],
                     events: list[Event], before: str) -> bool:
        exp = step.expect
        ok = True
        for key, want in exp.items():
            key = str(key)
            loc = exp.at(key) if isinstance(exp, LocDict) else step.where
            if key == "events":
                if not self.check_events(want, events, label, loc, before):
                    ok = False
                continue
            if key not in view:
                known = ", ".join(view)
                if isinstance(exp, LocDict):  # at the misspelt name itself
                    loc = Located(exp.path, *exp.key_pos(key))
                self.diags.error(loc, f"{label}: unknown state '{key}'{suggest(key, view)} "
                                 f"(this game has: {known}, events)")
                ok = False
                continue
            got = view[key]
            match, want_s, got_s = compare(want, got)
            if not match:
                self.diags.error(loc, f"{label}: {key}: expected {want_s}, got {got_s}",
                                 detail=f"expected: {want_s}\ngot:      {got_s}\n{before}")
                ok = False
        return ok


    def check_events(self, want: Any, events: list[Event], label: str, loc: Located,
                     before: str) -> bool:
        """The expected events against the step's: an unknown kind, rule or field is
        named (with the closest known one); a missing event is shown as YAML beside the
        closest event the engine produced, field by field, then every event of the step."""
        names = self.game.player_names
        items = want if isinstance(want, list) else []
        for i, w in enumerate(items):
            at = want.at(i) if isinstance(want, LocList) else loc
            spec = {"kind": w} if isinstance(w, str) else w if isinstance(w, dict) else None
            if spec is None:
                self.diags.error(at, f"{label}: events: an event is a kind such as "
                                 f"'{next(iter(self.gamedef.event_kinds), 'take')}' or a mapping "
                                 f"with kind:, player:, rule:, cards:, text: and data fields; "
                                 f"got {yaml_value(w)}")
                return False
            odd = next((k for k in spec if not isinstance(k, str)), None)
            if odd is not None or "kind" in spec and not isinstance(spec["kind"], str) \
                    or "player" in spec and not isinstance(spec["player"], str):
                what = (f"the field {yaml_value(odd)} is not a field name" if odd is not None
                        else f"kind: must be an event kind, got {yaml_value(spec['kind'])}"
                        if "kind" in spec and not isinstance(spec["kind"], str)
                        else f"player: must be a player id ({', '.join(names)}), got "
                             f"{yaml_value(spec['player'])}")
                self.diags.error(at, f"{label}: events: {what}")
                return False
            kind = str(spec.get("kind", ""))
            if "kind" in spec and kind not in self.gamedef.event_kinds:
                self.diags.error(at, f"{label}: events: unknown event kind "
                                 f"'{kind}'{suggest(kind, self.gamedef.event_kinds)} (this "
                                 f"game's events: {', '.join(self.gamedef.event_kinds)})")
                return False
            rule = spec.get("rule")
            if rule is not None and str(rule) not in self.game.rule_index():
                self.diags.error(at, f"{label}: events: unknown rule id "
                                 f"'{rule}'{suggest(rule, self.game.rule_index())}")
                return False
        msg, missing = match_events(want, events, names, with_index=True)
        if not msg:
            return True
        at = want.at(missing) if isinstance(want, LocList) and missing is not None else loc
        detail = msg_detail(want, missing, events, names)
        self.diags.error(at, f"{label}: events: {msg}", detail=f"{detail}\n{before}")
        return False


def _spec_of(w: Any) -> dict:
    return {"kind": w} if isinstance(w, str) else dict(w)


def _field(ev: Event, k: str, names: dict[str, str]) -> Any:
    if k == "kind":
        return ev.kind
    if k == "player":
        return ev.player
    if k == "rule":
        return ev.rule
    if k == "cards":
        return [str(c) for c in ev.cards]
    if k == "text":
        return ev.narrate(names)
    return jsonable(ev.data[k]) if k in ev.data else "(no such field)"


def event_yaml(ev: Event) -> str:
    """An event as the designer would write it to expect it exactly."""
    d: dict[str, Any] = {"kind": ev.kind}
    if ev.player:
        d["player"] = ev.player
    if ev.rule:
        d["rule"] = ev.rule
    if ev.cards:
        d["cards"] = [str(c) for c in ev.cards]
    d.update({k: jsonable(v) for k, v in ev.data.items()})
    return yaml_value(d)


def closest_event(spec: dict, events: list[Event], names: dict[str, str]) -> int | None:
    """The index of the event with the most fields as expected (the same kind first)."""
    if not events:
        return None

    def score(i: int) -> tuple:
        ev = events[i]
        same = sum(1 for k, v in spec.items() if _event_matches({k: v}, ev, names))
        return (ev.kind == spec.get("kind"), same, -i)

    return max(range(len(events)), key=score)


def msg_detail(want: list, missing: int | None, events: list[Event], names: dict[str, str]) -> str:
    lines = []
    if missing is not None:
        spec = _spec_of(want[missing])
        lines.append(f"expected (event {missing + 1} of {len(want)} listed):")
        lines.append(f"  {yaml_value(spec)}")
        c = closest_event(spec, events, names)
        if c is not None:
            ev = events[c]
            lines.append(f"closest event the engine produced (event {c + 1} of {len(events)}):")
            lines.append(f"  {event_yaml(ev)}")
            width = max(len(k) for k in spec) + 1
            lines.append(f"  {'field':<{width}} {'expected':<16} got")
            for k, v in spec.items():
                got = _field(ev, k, names)
                mark = "" if _event_matches({k: v}, ev, names) else "   <- differs"
                lines.append(f"  {k + ':':<{width}} {yaml_value(v):<16} {yaml_value(got)}{mark}")
    lines.append(f"events of this step ({len(events)}):")
    lines += [f"  {i + 1}. {event_yaml(ev)}" for i, ev in enumerate(events)] or ["  (none)"]
    return "\n".join(lines)


def compare(want: Any, got: Any) -> tuple[bool, str, str]:
    """Compare an expectation with a view value. A number against a pile is its size; a
    list against a pile is its exact contents, top first."""
    if isinstance(got, (list, tuple)):
        if isinstance(want, int) and not isinstance(want, bool):
            return len(got) == want, f"{want} cards", f"{len(got)} cards {show_value(got)}"
        if isinstance(want, list):
            try:
                w = parse_cards(want) if all(isinstance(x, Card) for x in got) else list(want)
            except CardError as e:
                return False, f"{show_value(want)} ({e})", show_value(got)
            wl = [str(x) for x in w]
            gl = [str(x) for x in got]
            return wl == gl, show_value(w), show_value(got)
        return False, show_value(want), show_value(got)
    if isinstance(got, bool) or isinstance(want, bool):
        return want == got, show_value(want), show_value(got)
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return want == got, show_value(want), show_value(got)
    return str(want).strip().lower() == str(got).strip().lower(), show_value(want), show_value(got)


def match_events(want: Any, events: list[Event], names: dict[str, str] | None = None,
                 with_index: bool = False):
    """The listed events must occur in this order among the step's events (others may come
    between). Each is a kind, or a mapping of kind/player/rule/cards/text fields. Returns
    "" or what is wrong (with ``with_index``: and the index of the first listed event not
    found)."""
    def out(msg: str, at: int | None = None):
        return (msg, at) if with_index else msg

    if not isinstance(want, list):
        return out("expected a list of event kinds")
    i = 0
    for n, w in enumerate(want):
        spec = {"kind": w} if isinstance(w, str) else dict(w) if isinstance(w, dict) else None
        if spec is None:
            return out(f"cannot read event {yaml_value(w)}", n)
        while i < len(events):
            if _event_matches(spec, events[i], names or {}):
                break
            i += 1
        else:
            later = any(_event_matches(spec, e, names or {}) for e in events)
            what = yaml_value(spec["kind"] if list(spec) == ["kind"] else spec)
            return out(f"no event {what}" + (" after the ones listed before it (the events "
                                              "are expected in this order)" if later else
                                              " among the step's events"), n)
        i += 1
    return out("")


def _event_matches(spec: dict, ev: Event, names: dict[str, str]) -> bool:
    for k, v in spec.items():
        if k == "kind" and ev.kind != v:
            return False
        if k == "player" and ev.player != v:
            return False
        if k == "rule" and ev.rule != v:
            return False
        if k == "cards":
            if not isinstance(v, list):  # cards: is a list of card codes
                return False
            try:
                if [str(c) for c in ev.cards] != [str(Card.parse(x)) for x in v]:
                    return False
            except CardError:
                return False
        if k == "text" and str(v).lower() not in ev.text.lower() \
                and str(v).lower() not in ev.narrate(names).lower():
            return False
        if k not in ("kind", "player", "rule", "cards", "text"):
            if str(ev.data.get(k)) != str(v):
                return False
    return True


DECK_NAMES = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
              for s in "CDHS"]


def supply_group(gamedef: GameDef, pile: str) -> str:
    return gamedef.supply_group(pile) if gamedef.supply_group else "all"


def card_supply(gamedef: GameDef, options: dict[str, Any]):
    """How many copies of a card a group of piles may hold (one deck by default)."""
    fn = gamedef.card_supply
    if fn is not None:
        return lambda group, card: fn(options, group, card)
    return lambda group, card: 1


# --------------------------------------------------------------------------- run
def check_content(content: Content, diags: Diagnostics) -> Report:
    reports = []
    for game in content.games:
        gamedef = game.gamedef
        gr = GameReport(game=game)
        reports.append(gr)
        if gamedef is None:
            continue
        rp = Replayer(game, gamedef, diags)
        for ex in game.examples:
            gr.replays.append(rp.replay(ex))
            if isinstance(ex.raw, LocDict) and "draft" in ex.raw:
                diags.error(ex.raw.at("draft"), f"example '{ex.id}' is an unreviewed draft "
                            f"(written by warbook record): a recorded example proves nothing "
                            f"until a person has read every step against the rules; then "
                            f"delete its 'draft:' line")
        index = game.rule_index()
        cov: dict[str, list[str]] = {rid: [] for rid in index}
        for r in gr.replays:
            for rid in sorted(r.rules_cited):
                cov.setdefault(rid, []).append(r.example.id)
        gr.coverage = cov
        cited = gamedef.cited_rules(game.option_defaults())
        gr.uncovered = sorted(rid for rid in cited if not cov.get(rid))
    return Report(content=content, games=reports, diagnostics=diags)


def run_check(root) -> Report:
    from .content import load_content

    content, diags = load_content(root)
    return check_content(content, diags)
