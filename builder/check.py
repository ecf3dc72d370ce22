"""Stage 2: replay every worked example on the reference engine.

For each example the engine starts from the example's exact setup, applies each step
(a joint decision, a chance outcome, or a forced step) and compares the state after the
step with what the example expects. Failures are reported in the manner of doctest:
file, line, expected, got, and the state before the step.

The result is a :class:`Report`, which also carries every replay (:class:`Replay`) for the
renderers: the rulebook and the website narrate examples from these records, never from
the content alone. A step's ``events:`` are matched by :mod:`builder.events`; errors are
placed from the example's plain positions (:class:`builder.model.Positions`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .checkcache import counts, example_count, report_json
from .diagnostics import Diagnostics, Located, suggest, yaml_value
from .engine.core import (
    CardBase,
    CardError,
    DecisionFormatError,
    Event,
    GameDef,
    IllegalDecision,
    SetupError,
    State,
    Zone,
    parser_for,
)
from .events import match_events, missing_event_detail
from .model import Content, Example, Game, Positions, Step


@dataclass
class StepRecord:
    """One replayed step, as the renderers draw it."""

    index: int
    kind: str  # decision | chance | forced | refused | turn (a turn of parts)
    decisions: dict[str, Any]  # player -> decision value (engine values)
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
    #: a refused step (``refused:``): (the player refused, the rule cited, the engine's
    #: reason); the state is as it was before the step
    refusal: tuple[str, str, str] | None = None


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
        return example_count(self)

    def counts(self) -> dict[str, int]:
        return counts(self)

    def to_json(self) -> dict[str, Any]:
        """``warbook check --json`` (:func:`builder.checkcache.report_json`: the same for
        a report made from the check's cache)."""
        return report_json(self)


def show_value(v: Any) -> str:
    """A value as the designer writes it: cards as ``QH``, ``true``/``false``, ``null``."""
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    if isinstance(v, CardBase):
        return str(v)
    if isinstance(v, bool) or v is None or isinstance(v, dict):
        return yaml_value(v)
    return str(v)


def describe_state(state: State) -> str:
    """The state as a reader of an error message wants it: every view key."""
    lines = []
    for k, v in state.view().items():
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, CardBase) for x in v):
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
        #: the engine's lines already warned of an event made before its change
        self.told_early_seen: set[tuple[str, int]] = set()

    def setup_error_where(self, ex: Example, where: tuple) -> Located:
        """Follow a setup key path such as ("piles", "p1.deck", 3) to its line; an option
        the engine refuses (("options", name)) is shown at its name."""
        at = ex.positions
        if where and where[0] == "options":
            written = ex.written.get("options")
            if isinstance(written, dict) and len(where) > 1 and where[1] in written:
                return at.key_at("options", where[1])
            return at.at("options")
        node: Any = ex.setup
        path: tuple = ("setup",)
        best = at.at(*path) if at.written(*path) else ex.where
        for key in where:
            if isinstance(node, dict) and key in node \
                    or isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
                path += (key,)
                best = at.at(*path)
                node = node[key]
            else:
                break
        return best

    def check_setup_cards(self, ex: Example, supply: Any) -> bool:
        """Unknown cards and cards written more often than the game has them."""
        piles = ex.setup.get("piles") if isinstance(ex.setup, dict) else None
        if not isinstance(piles, dict):
            return True
        piles_at = ex.positions.within("setup", "piles")
        ok = True
        counts: Counter = Counter()
        first: dict = {}
        for name, cards in piles.items():
            if cards is None or not isinstance(name, str):
                continue  # a pile named by a number or true: the engine says it is unknown
            if not isinstance(cards, list):
                self.diags.error(piles_at.at(name),
                                 f"pile '{name}' must be a list of cards, top first")
                ok = False
                continue
            for i, raw in enumerate(cards):
                try:
                    card = self.gamedef.parse_card(raw)
                except CardError as e:
                    hint = "" if "did you mean" in str(e) else suggest(
                        str(raw).strip().upper(), self.gamedef.card_codes())
                    self.diags.error(piles_at.at(name, i), f"example '{ex.id}': {e}{hint}")
                    ok = False
                    continue
                group = supply_group(self.gamedef, name)
                counts[(group, card)] += 1
                first.setdefault((group, card), (name, piles_at.at(name, i)))
                allowed = supply(group, card)
                if counts[(group, card)] > allowed:
                    times = "once" if allowed == 1 else f"{allowed} times"
                    where_first, first_at = first[(group, card)]
                    self.diags.error(
                        piles_at.at(name, i),
                        f"example '{ex.id}': card {card} is in the setup more than {times}"
                        + (f" (the game has it {times})" if allowed != 1 else
                           " (the game has one of each card)")
                        + (f" in {group}'s cards" if group != "all" else "")
                        + f": here in {name}, and first in {where_first} at "
                          f"{first_at.path}:{first_at.line}:{first_at.col}",
                    )
                    ok = False
        return ok

    def replay(self, ex: Example) -> Replay:
        replay = Replay(example=ex, game=self.game)
        gamedef = self.gamedef
        chosen = dict(self.game.option_defaults())
        chosen.update(ex.options)
        try:
            options = gamedef.resolve(chosen)
        except SetupError as e:
            hint = ""
            if len(e.where) == 2 and e.where[0] == "options" and e.where[1] not in gamedef.options:
                hint = suggest(e.where[1], gamedef.options)
            self.diags.error(self.setup_error_where(ex, e.where),
                             f"example '{ex.id}': {e.message}{hint}")
            replay.status = "error"
            return replay
        replay.options = options
        if not self.check_setup_cards(ex, card_supply(gamedef, options)):
            replay.status = "error"
            return replay
        try:
            state = gamedef.from_setup(options, ex.setup)
        except SetupError as e:
            self.diags.error(self.setup_error_where(ex, e.where), f"example '{ex.id}': {e.message}")
            replay.status = "error"
            return replay
        except CardError as e:
            self.diags.error(ex.positions.at("setup"), f"example '{ex.id}': {e}")
            replay.status = "error"
            return replay
        n, game = len(state.players), self.game
        if not game.players_min <= n <= game.players_max:
            where = (ex.positions.at("options", "players") if "players" in ex.options
                     else ex.positions.at("setup"))
            said = (str(game.players_min) if game.players_min == game.players_max
                    else f"{game.players_min} to {game.players_max}")
            self.diags.error(where, f"example '{ex.id}': a game of {n} players, but game.yaml "
                             f"says this game is for {said} (players:)")
            replay.status = "error"
            return replay
        replay.initial_view = state.view()
        replay.initial_table = state.table()
        for step in ex.steps:
            if not self.replay_step(ex, step, state, replay):
                replay.status = "fail" if replay.status == "pass" else replay.status
                break
        replay.result = state.result.label if state.result else "none"
        # an example must actually exercise the rules it claims to illustrate
        if replay.status == "pass":
            cited = gamedef.cited_rules(replay.options)
            rules_listed = isinstance(ex.written.get("rules"), list)
            for i, rid in enumerate(ex.rules):
                if rid in cited and rid not in replay.rules_cited:
                    where = ex.positions.at("rules", i) if rules_listed else ex.where
                    self.diags.error(where, f"example '{ex.id}' lists rule '{rid}', but its replay "
                                     f"never applies it (rules applied: "
                                     f"{', '.join(sorted(replay.rules_cited)) or 'none'})")
                    replay.status = "fail"
        return replay

    def replay_step(self, ex: Example, step: Step, state: State, replay: Replay) -> bool:
        where = step.where
        for round_index in range(step.repeat):
            before = describe_state(state)
            node = state.pending()
            label = f"example '{ex.id}', step {step.index}"
            if step.repeat > 1:
                label += f" (repeat {round_index + 1} of {step.repeat})"
            if node is None:
                self.diags.error(where, f"{label}: the game is already over "
                                 f"({state.result.reason if state.result else ''})".replace(
                                     "{", "").replace("}", ""), detail=before)
                return False
            if step.refused is not None:
                try:
                    return self.replay_refusal(step, state, replay, node, label, before)
                except Exception as e:  # the game's own code failed: said with this step
                    e.add_note(f"replaying {label} of {where.path}:{where.line}")
                    raise
            start = state.table()
            done = (self.replay_turn(step, state, label) if step.parts is not None
                    else self.apply_one(step, state, node, label, before))
            if done is None:
                return False
            kind, decisions, events = done
            for ev in events:
                replay.rules_cited.add(ev.rule)
            table = state.take_shown()
            after = state.table()
            self.warn_told_early(start, events, after, label)
            view = state.view()
            expected_keys: list[str] = []
            ok = True
            if step.expect and round_index == step.repeat - 1:
                ok = self.check_expect(step, label, view, events, before)
                expected_keys = [str(k) for k in step.expect]
            replay.steps.append(StepRecord(
                index=step.index, kind=kind, decisions=decisions,
                events=events, view=view, table=table,
                comment=step.comment if round_index == step.repeat - 1 else "",
                expected=expected_keys, repeat=step.repeat, round=round_index + 1,
                after=None if after == table else after,
            ))
            if not ok:
                return False
        return True

    def apply_one(self, step: Step, state: State, node, label: str,
                  before: str) -> tuple[str, dict[str, Any], list[Event]] | None:
        """One decision, chance outcome or forced move of a step (or of a part of a
        turn) applied to ``state``: (kind, decisions, events), or None after a located
        error."""
        where = step.where
        decisions: dict[str, Any] = {}
        try:
            if step.chance is not None:
                if node.kind != "chance":
                    self.diags.error(step.positions.at("chance"),
                                     f"{label}: no chance event is pending; "
                                     f"{'; '.join(node.choices)} must decide ({node.what})",
                                     detail=before)
                    return None
                try:
                    outcome = node.choice.parse(step.chance)
                except DecisionFormatError as e:
                    self.diags.error(step.positions.at("chance"), f"{label}: chance: {e}",
                                     detail=before)
                    return None
                events = state.apply_chance(outcome)
                kind = "chance"
                decisions = {node.player or "chance": outcome}
            elif step.decide is not None:
                read = self.read_decisions(step, node, label, before)
                if read is None:
                    return None
                decisions = read
                for player in node.choices:
                    if player not in decisions:
                        self.diags.error(step.positions.at("decide"),
                                         f"{label}: {player} must decide too ({node.what}): "
                                         f"{node.choices[player].describe()}", detail=before)
                        return None
                events = state.apply(decisions)
                kind = "decision"
            else:
                if node.kind == "chance":
                    self.diags.error(where, f"{label}: a chance event is pending ({node.what}); "
                                     f"write its outcome with chance:", detail=before)
                    return None
                forced = state.forced_decisions()
                if forced is None:
                    undecided = [f"{player}: {choice.describe()}"
                                 for player, choice in node.choices.items()
                                 if not choice.is_forced()]
                    self.diags.error(where, f"{label}: a decision is needed ({node.what}); "
                                     f"write it with decide: ({'; '.join(undecided)})",
                                     detail=before)
                    return None
                decisions = forced
                events = state.apply(forced)
                kind = "forced"
        except IllegalDecision as e:
            loc = where
            if step.decide is not None and e.player:
                if e.player in step.decide:
                    loc = step.positions.at("decide", e.player)
            elif step.chance is not None:
                loc = step.positions.at("chance")
            rule = self.rule_label(e.rule)
            who = f"{e.player}: " if e.player else ""
            self.diags.error(loc, f"{label}: illegal: {who}{e.message}"
                             + (f" (rule {rule})" if rule else ""), detail=before)
            return None
        except Exception as e:  # the game's own code failed: said at its line, with this
            e.add_note(f"replaying {label} of {where.path}:{where.line}")
            raise
        return kind, decisions, events

    def replay_turn(self, step: Step, state: State,
                    label: str) -> tuple[str, dict[str, Any], list[Event]] | None:
        """A turn made of parts (``turn:``), each applied in order; its events are the
        parts' events in order, and it is printed as one step."""
        events: list[Event] = []
        decisions: dict[str, Any] = {}
        for part in step.parts or []:
            before = describe_state(state)
            node = state.pending()
            plabel = f"{label}, part {part.index} of the turn"
            if node is None:
                self.diags.error(part.where, f"{plabel}: the game is already over "
                                 f"({state.result.reason if state.result else ''})".replace(
                                     "{", "").replace("}", ""), detail=before)
                return None
            done = self.apply_one(part, state, node, plabel, before)
            if done is None:
                return None
            _kind, decided, happened = done
            for who, value in decided.items():
                decisions.setdefault(who, []).append(value)
            events.extend(happened)
        return "turn", {who: v[0] if len(v) == 1 else tuple(v) for who, v in decisions.items()}, events

    def read_decisions(self, step: Step, node, label: str, before: str) -> dict | None:
        """A step's ``decide:`` read by the pending choices (each player's written decision
        parsed by their choice), or None after a located error."""
        if node.kind != "decision":
            self.diags.error(step.positions.at("decide"),
                             f"{label}: a chance event is pending ({node.what}); "
                             f"write its outcome with chance:", detail=before)
            return None
        decisions: dict[str, Any] = {}
        for key, written in step.decide.items():
            player = str(key)
            choice = node.choices.get(player)
            if choice is None:
                self.diags.error(step.positions.at("decide", player),
                                 f"{label}: {player} has no decision to make now "
                                 f"(deciding: {', '.join(node.choices)}; {node.what})",
                                 detail=before)
                return None
            try:
                decisions[player] = choice.parse(written)
            except DecisionFormatError as e:
                self.diags.error(step.positions.at("decide", player),
                                 f"{label}: {player}: {e}", detail=before)
                return None
        return decisions

    def replay_refusal(self, step: Step, state: State, replay: Replay, node, label: str,
                       before: str) -> bool:
        """A refused step: the engine must refuse its decision citing the rule the step
        names; the state stays as it was (the decision is tried on a copy), and the rule
        counts as exercised."""
        decisions = self.read_decisions(step, node, label, before)
        if decisions is None:
            return False
        refusal = None
        for player, value in decisions.items():
            said = node.choices[player].refusal(value)
            if said is not None:
                refusal = (player, said[0], said[1])
                break
        whole = set(decisions) == set(node.choices)
        if refusal is None and whole:
            try:
                state.clone().apply(decisions)
            except IllegalDecision as e:
                refusal = (e.player or next(iter(decisions)), e.rule, e.message)
        if refusal is None:
            others = [p for p in node.choices if p not in decisions]
            self.diags.error(step.positions.at("decide"),
                             f"{label}: the engine accepted this decision, but the step says "
                             f"it is refused by rule {self.rule_label(step.refused)}"
                             + (f" (write the decisions of {', '.join(others)} too: the "
                                f"engine judges the players' decisions together)"
                                if others else ""), detail=before)
            return False
        player, rule, message = refusal
        if rule != step.refused:
            self.diags.error(step.positions.at("refused"),
                             f"{label}: the engine refuses this decision by rule "
                             f"{self.rule_label(rule) or '(none given)'}, not "
                             f"{self.rule_label(step.refused)}: {player}: {message}",
                             detail=before)
            return False
        replay.rules_cited.add(rule)
        replay.steps.append(StepRecord(
            index=step.index, kind="refused", decisions=decisions, events=[],
            view=state.view(), table=state.table(), comment=step.comment, expected=[],
            refusal=refusal))
        return True

    def warn_told_early(self, start: list[Zone], events: list[Event], after: list[Zone],
                        label: str) -> None:
        """Warn, once per line of the engine, about an event made before the change it
        tells (:func:`told_early`): the website's viewer would show each such moment one
        change late."""
        found = told_early(start, events, after)
        if found is None:
            return
        ev, card, place = found
        path, line = ev.made_at  # taken with its moment, which told_early needs
        if (path, line) in self.told_early_seen:
            return
        self.told_early_seen.add((path, line))
        from . import faults

        self.diags.warning(
            Located(faults.shown(path), line),
            f"event '{ev.kind}' is made before the change it tells: in the table as it lies "
            f"when the event is made, {card} is still in '{place}', which it leaves in this "
            f"step ({label}), so the website's viewer shows that moment before the change; "
            f"make the event once the card has moved")

    def rule_label(self, rid: str) -> str:
        if not rid:
            return ""
        rule = self.game.rule_index().get(rid)
        return f"{rule.number} {rule.title} [{rid}]" if rule else rid

    def check_expect(self, step: Step, label: str, view: dict[str, Any],
                     events: list[Event], before: str) -> bool:
        expect = step.expect
        ok = True
        for key, want in expect.items():
            key = str(key)
            loc = step.positions.at("expect", key)
            if key == "events":
                if not self.check_events(want, events, label,
                                         step.positions.within("expect", key), before):
                    ok = False
                continue
            if key not in view:
                known = ", ".join(view)
                loc = step.positions.key_at("expect", key)  # at the misspelt name itself
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

    def check_events(self, want: Any, events: list[Event], label: str, written: Positions,
                     before: str) -> bool:
        """The expected events (written at ``written``) against the step's: an unknown
        kind, rule or field is named (with the closest known one); a missing event is shown
        as YAML beside the closest event the engine produced, field by field, then every
        event of the step."""
        names = self.game.player_names
        items = want if isinstance(want, list) else []
        for i, item in enumerate(items):
            at = written.at(i)
            spec = ({"kind": item} if isinstance(item, str)
                    else item if isinstance(item, dict) else None)
            if spec is None:
                self.diags.error(at, f"{label}: events: an event is a kind such as "
                                 f"'{next(iter(self.gamedef.event_kinds), 'take')}' or a mapping "
                                 f"with kind:, player:, rule:, cards:, text: and data fields; "
                                 f"got {yaml_value(item)}")
                return False
            # a key that is not text (a number, true, or null: itself None) is no field name
            not_names = [k for k in spec if not isinstance(k, str)]
            if not_names or "kind" in spec and not isinstance(spec["kind"], str) \
                    or "player" in spec and not isinstance(spec["player"], str):
                what = (f"the field {yaml_value(not_names[0])} is not a field name" if not_names
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
        at = written.at(missing) if isinstance(want, list) and missing is not None \
            else written.at()
        detail = missing_event_detail(want, missing, events, names)
        self.diags.error(at, f"{label}: events: {msg}", detail=f"{detail}\n{before}")
        return False


def _places(table: list[Zone]) -> dict[str, str]:
    """Where each card the table shows lies: card code -> zone id."""
    return {str(c): z.id for z in table for c, _ in z.cards}


def told_early(start: list[Zone], events: list[Event], after: list[Zone]
               ) -> tuple[Event, str, str] | None:
    """The first event naming a card that the step moves (it lies elsewhere once the step
    has resolved) while the table of every event's moment still shows it where it lay
    before the step: the engine made its events before the changes they tell. Cards the
    tables do not show (deep in a pile) are not judged. (event, card, its place) or None."""
    moments = [_places(e.moment) for e in events if e.moment is not None]
    if not moments:
        return None
    was, now = _places(start), _places(after)
    for e in events:
        if e.moment is None:
            continue
        for card in map(str, e.cards):
            place = was.get(card)
            if place is not None and now.get(card, place) != place \
                    and all(m.get(card) == place for m in moments):
                return e, card, place
    return None


def compare(want: Any, got: Any) -> tuple[bool, str, str]:
    """Compare an expectation with a view value. A number against a pile is its size; a
    list against a pile is its exact contents, top first."""
    if isinstance(got, (list, tuple)):
        if isinstance(want, int) and not isinstance(want, bool):
            return len(got) == want, f"{want} cards", f"{len(got)} cards {show_value(got)}"
        if isinstance(want, list):
            try:
                wanted = (list(map(parser_for(got), want))
                          if got and all(isinstance(x, CardBase) for x in got) else list(want))
            except CardError as e:
                return False, f"{show_value(want)} ({e})", show_value(got)
            wanted_codes = [str(x) for x in wanted]
            got_codes = [str(x) for x in got]
            return wanted_codes == got_codes, show_value(wanted), show_value(got)
        return False, show_value(want), show_value(got)
    if isinstance(got, bool) or isinstance(want, bool):
        return want == got, show_value(want), show_value(got)
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return want == got, show_value(want), show_value(got)
    return str(want).strip().lower() == str(got).strip().lower(), show_value(want), show_value(got)




def supply_group(gamedef: GameDef, pile: str) -> str:
    return gamedef.supply_group(pile) if gamedef.supply_group else "all"


def card_supply(gamedef: GameDef, options: dict[str, Any]):
    """How many copies of a card a group of piles may hold (by default as many as the
    game's decks hold: one of each of the French 52)."""
    fn = gamedef.card_supply
    if fn is not None:
        return lambda group, card: fn(options, group, card)
    return lambda group, card: gamedef.copies_of(card) or 1


# --------------------------------------------------------------------------- run
def check_content(content: Content, diags: Diagnostics) -> Report:
    return Report(content=content, games=[check_game(game, diags) for game in content.games],
                  diagnostics=diags)


def check_game(game: Game, diags: Diagnostics) -> GameReport:
    """One game: every example replayed, the rules' coverage, the engine's contract. Its
    problems are added to ``diags``; it depends on nothing but the game (the check's cache,
    :mod:`builder.checkcache`, keeps each game's verdict apart)."""
    gamedef = game.gamedef
    game_report = GameReport(game=game)
    if gamedef is None:
        return game_report
    try:
        return _check_game(game, gamedef, diags)
    except Exception as e:  # the game's own code failed: a card warned of may be the cause
        for note in _suspects(game):
            e.add_note(note)
        raise


def _suspects(game: Game) -> list[str]:
    """The cells of the game's decks warned of as slips (``DeckSpec.suspects``): a fault
    of its engine may come from one, and is said with them."""
    return [note for deck in game.decks for note in getattr(deck, "suspects", ())]


def _check_game(game: Game, gamedef: GameDef, diags: Diagnostics) -> GameReport:
    game_report = GameReport(game=game)
    replayer = Replayer(game, gamedef, diags)
    for ex in game.examples:
        game_report.replays.append(replayer.replay(ex))
        if "draft" in ex.written:
            diags.error(ex.positions.at("draft"), f"example '{ex.id}' is an unreviewed draft "
                        f"(written by warbook record): a recorded example proves nothing "
                        f"until a person has read every step against the rules; then "
                        f"delete its 'draft:' line")
    index = game.rule_index()
    coverage: dict[str, list[str]] = {rid: [] for rid in index}
    for replay in game_report.replays:
        for rid in sorted(replay.rules_cited):
            coverage.setdefault(rid, []).append(replay.example.id)
    game_report.coverage = coverage
    cited = gamedef.cited_rules(game.option_defaults())
    game_report.uncovered = sorted(rid for rid in cited if not coverage.get(rid))
    check_engine(game, gamedef, diags)
    return game_report


def check_engine(game: Game, gamedef: GameDef, diags: Diagnostics) -> None:
    """The conformance kit (:mod:`builder.testing`) on the game's engine, with the game's
    printed options and the engine's option sets, unless it already held with this very
    code and these options (its verdict is kept in the cache). Each breach is an error at
    the engine's line to blame, with the game's seed and step."""
    from .cache import cache_dir
    from .testing import DEFAULT_GAMES, conformance, verdict_key

    # the settings the engine takes (an unknown one is the reader's to say, at its line)
    printed = {k: v for k, v in game.option_defaults().items() if k in gamedef.options}
    folder = cache_dir()
    mark = None if folder is None else folder / (
        f"conformance-{game.slug}-{verdict_key(gamedef, DEFAULT_GAMES, printed)}.held")
    if mark is not None and mark.exists():
        return
    try:
        gamedef.resolve(printed)
    except SetupError:   # a printed option the engine refuses: said where it is written
        return
    breaches = conformance(gamedef, DEFAULT_GAMES, printed)
    suspects = _suspects(game)
    for b in breaches:
        where, function = blamed(b.culprit, game)
        cause = "".join(f"\n{note}" for note in suspects
                        if isinstance(b.culprit, BaseException))
        diags.error(where, f"the engine breaks its contract ({b.kind}): {b.message}"
                    + (f" in {function}()" if function else ""),
                    detail=f"in {b.doing()}; see docs/writing-an-engine.md, \"The "
                           f"conformance kit\"" + cause)
    if not breaches and mark is not None:
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.write_text("held\n")
        except OSError:   # a cache that cannot be written: the kit runs again next time
            pass


def blamed(culprit: Any, game: Game) -> tuple[Located, str]:
    """Where a breach of the conformance kit is said: the innermost line of the engine's
    code in an exception's traceback, or where the function to blame is written (a bot,
    ``max_steps``, a state's method); the game's ``game.yaml`` when neither is known."""
    import inspect
    import traceback
    from pathlib import Path

    from . import faults

    if isinstance(culprit, BaseException):
        place = faults.locate(culprit)
        if place is None:   # a shipped engine's (warbook's) code: its innermost frame
            package = str(Path(__file__).resolve().parent)
            frames = [f for f in traceback.extract_tb(culprit.__traceback__)
                      if f.filename.startswith(package)]
            if frames:
                place = (faults.shown(frames[-1].filename), frames[-1].lineno or 1,
                         frames[-1].name)
        if place is not None:
            return Located(place[0], place[1]), place[2]
    elif culprit is not None:
        target = getattr(culprit, "__func__", culprit)
        try:
            path, (_, line) = inspect.getsourcefile(target), inspect.getsourcelines(target)
        except (TypeError, OSError):
            path = None
        if path is not None:   # a function or a class: each has a __qualname__
            return Located(faults.shown(path), line), target.__qualname__
    return Located(faults.shown(f"{game.dir}/game.yaml"), 1), ""


def run_check(root) -> Report:
    from .content import load_content

    content, diags = load_content(root)
    return check_content(content, diags)
