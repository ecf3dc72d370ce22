"""``warbook record``: fill in a worked example's expectations from the engine.

The designer writes the setup and the decisions (and the chance outcomes, where the game
has them), or asks for a game played by the engine's bots; ``record`` replays it and
writes every step's events and the state it changed. The file is a *draft*: it carries a
``draft:`` line, and the check fails on it until a person has read every step against the
rules and deleted that line. A recorded example proves nothing by itself: it says what the
engine did, and only a reader can say that this is what the rules say.

``record --update FILE`` replays an existing example after a rules change and rewrites the
expectations that no longer hold, in the form they were written (a count stays a count, a
list of event kinds stays a list of kinds), keeping every other line's meaning, and prints
a diff of what changed for review (the file becomes a draft again).

Raises :class:`RecordError` (shown by the command line) with located diagnostics when the
setup or a decision is wrong: nothing is written then.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import difflib
import random
from pathlib import Path
from typing import Any

import yaml

from .check import Replayer, compare
from .diagnostics import Diagnostic, Diagnostics, Located, suggest, yaml_value
from .engine.core import CardBase, GameDef, jsonable
from .errors import WarbookError
from .events import event_spec, match_events
from .model import Example, Game

DRAFT_KEY = "draft"
ORDER = ("id", "title", DRAFT_KEY, "rules", "options", "intro", "setup", "steps", "outro")
STEP_ORDER = ("decide", "chance", "repeat", "expect", "comment")


class RecordError(WarbookError):
    """Nothing was recorded; ``diagnostics`` (or the message) say why."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []


def draft_note(how: str) -> str:
    return (f"recorded by warbook {how} on {_dt.date.today().isoformat()}; read every step "
            f"against the rules, then delete this line")


# --------------------------------------------------------------------------- YAML out
#: one value in YAML flow style, as a designer writes it (``[KC, AS]``, ``false``): the
#: check's own serialiser, so that what record writes reads as the check shows it
flow = yaml_value


def block_text(key: str, text: str, indent: str) -> list[str]:
    text = text.rstrip("\n")
    if "\n" not in text and len(text) < 70:
        return [f"{indent}{key}: {flow(text)}"]
    return [f"{indent}{key}: |"] + [f"{indent}  {ln}" if ln else "" for ln in text.split("\n")]


def dump_mapping(d: dict, indent: str) -> list[str]:
    lines = []
    for k, v in d.items():
        if isinstance(v, dict) and v:
            lines.append(f"{indent}{flow(k)}:")
            lines += dump_mapping(v, indent + "  ")
        else:
            lines.append(f"{indent}{flow(k)}: {flow(v)}")
    return lines


def dump_example(d: dict) -> str:
    """An example as YAML, in the layout of the shipped examples."""
    out: list[str] = []
    keys = [k for k in ORDER if k in d] + [k for k in d if k not in ORDER]
    for k in keys:
        v = d[k]
        if k in ("intro", "outro") and isinstance(v, str):
            out += block_text(k, v, "")
        elif k == "steps":
            out.append("steps:")
            for step in v:
                out += dump_step(step)
        elif isinstance(v, dict) and v:
            out.append(f"{k}:")
            out += dump_mapping(v, "  ")
        else:
            out.append(f"{k}: {flow(v)}")
    return "\n".join(out) + "\n"


def dump_step(step: dict) -> list[str]:
    lines: list[str] = []
    keys = [k for k in STEP_ORDER if k in step] + [k for k in step if k not in STEP_ORDER]
    for i, k in enumerate(keys):
        lead = "  - " if i == 0 else "    "
        v = step[k]
        if k == "expect" and isinstance(v, dict):
            lines.append(f"{lead}expect:")
            for ek, ev in v.items():
                if ek == "events" and isinstance(ev, list) and any(isinstance(e, dict) for e in ev):
                    lines.append("      events:")
                    lines += [f"        - {flow(e)}" for e in ev]
                else:
                    lines.append(f"      {flow(ek)}: {flow(ev)}")
        elif k == "comment":
            lines += [lead + ln.lstrip() if j == 0 else ln
                      for j, ln in enumerate(block_text(k, str(v), "    "))]
        else:
            lines.append(f"{lead}{k}: {flow(v)}")
    if not keys:
        lines.append("  - {}")
    return lines


# --------------------------------------------------------------------------- replay
def replay_bare(game: Game, ex: Example) -> tuple[list, Diagnostics]:
    """Replay the example with every expectation left out; (records, diagnostics)."""
    diags = Diagnostics()
    bare = dataclasses.replace(ex, steps=[dataclasses.replace(s, expect=None) for s in ex.steps])
    replay = Replayer(game, game.gamedef, diags).replay(bare)
    return replay, diags


def last_rounds(replay) -> dict[int, Any]:
    """The record of the last application of each written step, by step index."""
    out = {}
    for record in replay.steps:
        out[record.index] = record
    return out


def fresh_expect(rec, before: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """What a recorded step expects: every event, then every state key it changed."""
    expect: dict[str, Any] = {"events": [event_spec(e, names) for e in rec.events]}
    for k, v in rec.view.items():
        if before.get(k) != v:
            expect[k] = jsonable(v)
    return expect


def updated_expect(old: dict[str, Any], rec, names: dict[str, str]) -> dict[str, Any]:
    """The old expectations, each kept as written while it still holds, else rewritten in
    the same form."""
    expect: dict[str, Any] = {}
    for k, want in old.items():
        k = str(k)
        if k == "events":
            if not match_events(want, rec.events, names):
                expect[k] = jsonable(want)
            elif isinstance(want, list) and all(isinstance(w, str) for w in want):
                expect[k] = [e.kind for e in rec.events]
            else:
                expect[k] = [event_spec(e, names) for e in rec.events]
            continue
        if k not in rec.view:
            expect[k] = jsonable(want)  # the check will say it is unknown
            continue
        got = rec.view[k]
        if compare(want, got)[0]:
            expect[k] = jsonable(want)
        elif isinstance(want, int) and not isinstance(want, bool) and isinstance(got, (list, tuple)):
            expect[k] = len(got)
        else:
            expect[k] = jsonable(got)
    return expect


def load_game(root: Path, slug: str) -> Game:
    from .content import load_content

    content, diags = load_content(root)
    games = {g.slug: g for g in content.games}
    if slug not in games:
        raise RecordError(f"no game '{slug}'{suggest(slug, games)} "
                          f"(games: {', '.join(games) or 'none'})")
    game = games[slug]
    if game.gamedef is None:
        raise RecordError(f"{slug}: its engine could not be loaded", diags.errors)
    return game


def find_example(root: Path, path: Path) -> tuple[Game, Example]:
    from .content import load_content

    path = Path(path).resolve()
    content, diags = load_content(root)
    for g in content.games:
        for ex in g.examples:
            if (Path(content.root) / ex.where.path).resolve() == path \
                    or Path(ex.where.path).resolve() == path:
                mine = [d for d in diags.errors if Path(d.path).name == path.name]
                if mine:
                    raise RecordError(f"{path}: cannot be read", mine)
                return g, ex
    raise RecordError(f"{path} is not an example of any game in {root} (an example lives in "
                      f"<content>/<game>/examples/)", diags.errors)


def record_example(game: Game, ex: Example, how: str) -> str:
    """The example with every step's expectations filled in, as a draft (YAML text)."""
    replay, diags = replay_bare(game, ex)
    if diags.errors or replay.status != "pass":
        raise RecordError(f"example '{ex.id}' does not replay", diags.errors)
    names = game.player_names
    document = jsonable(ex.written)
    document[DRAFT_KEY] = draft_note(how)
    before = replay.initial_view
    records = last_rounds(replay)
    steps = []
    for step, raw in zip(ex.steps, document.get("steps") or []):
        rec = records[step.index]
        raw = dict(raw or {})
        if rec.kind != "refused":   # a refused step changes nothing and expects nothing
            raw["expect"] = fresh_expect(rec, before, names)
        before = rec.view
        steps.append(raw)
    document["steps"] = steps
    return dump_example(document)


def update_example(game: Game, ex: Example) -> tuple[str, str]:
    """(the old example as ``record`` writes it, the updated one): their diff is what
    changed."""
    replay, diags = replay_bare(game, ex)
    if diags.errors or replay.status != "pass":
        raise RecordError(f"example '{ex.id}' does not replay any more (its setup or a "
                          f"decision is refused); fix that first", diags.errors)
    names = game.player_names
    document = jsonable(ex.written)
    records = last_rounds(replay)
    steps = []
    for step, raw in zip(ex.steps, document.get("steps") or []):
        raw = dict(raw or {})
        if isinstance(step.expect, dict):
            raw["expect"] = updated_expect(step.expect, records[step.index], names)
        steps.append(raw)
    new = dict(document, steps=steps)
    old_text = dump_example(document)
    if dump_example(new) != old_text:
        new[DRAFT_KEY] = draft_note("record --update")
    return old_text, dump_example(new)


# --------------------------------------------------------------------------- bots
def bot_setup(gamedef: GameDef, options: dict[str, Any], state) -> dict[str, Any]:
    """The bot game's starting position as an example's setup: its piles (and
    ``shuffle: true`` where the game starts by shuffling), checked to give the very same
    state."""
    view = state.view()
    piles = {k: [str(c) for c in v] for k, v in view.items()
             if isinstance(v, (list, tuple)) and v and all(isinstance(c, CardBase) for c in v)}
    node = state.pending()
    for setup in ({"piles": piles}, {"piles": piles, "shuffle": True}):
        try:
            again = gamedef.from_setup(options, setup)
        except Exception:  # noqa: BLE001 - this candidate is not the game's setup
            continue
        n2 = again.pending()
        if again.view() == view and (n2 is None) == (node is None) and \
                (node is None or n2.kind == node.kind):
            return setup
    raise RecordError(f"{gamedef.slug}: the bot game's start cannot be written as a setup "
                      f"of piles; write the setup yourself and record that file")


def written(choice, value: Any, what: str) -> Any:
    """A decision or outcome as the example writes it: the first of its plain data, its
    text read as YAML, or its text, that the choice reads back as the same value."""
    from .engine.core import fmt_value

    candidates = []
    try:
        candidates.append(yaml.safe_load(flow(value)))
    except yaml.YAMLError:
        pass
    for text in (str(value), fmt_value(value)):
        try:
            candidates.append(yaml.safe_load(text))
        except yaml.YAMLError:
            pass
        candidates.append(text)
    for c in candidates:
        try:
            if choice.parse(c) == value:
                return c
        except Exception:  # noqa: BLE001 - not this way of writing it
            continue
    raise RecordError(f"{what} {value} cannot be written in an example so that the engine "
                      f"reads it back; write this example's decisions yourself")


def bot_example(game: Game, seed: int, steps: int) -> dict[str, Any]:
    """A bot game (the engine's heuristic bot for every player, chance from ``seed``) as
    an example sketch: setup and decisions, no expectations yet."""
    gamedef = game.gamedef
    options = gamedef.resolve(dict(game.option_defaults()))
    rng = random.Random(seed)
    state = gamedef.new_game(options, rng)
    setup = bot_setup(gamedef, options, state)
    out_steps: list[dict[str, Any]] = []
    while not state.is_terminal() and len(out_steps) < steps:
        node = state.pending()
        if node.kind == "chance":
            outcome = node.choice.sample(rng)
            out_steps.append({"chance": written(node.choice, outcome, "the chance outcome")})
            state.apply_chance(outcome)
            continue
        forced = state.forced_decisions()
        if forced is not None:
            state.apply(forced)
            out_steps.append({})
            continue
        decided = {p: gamedef.heuristic(state, p, rng) for p in node.choices}
        out_steps.append({"decide": {p: written(node.choices[p], v, f"{p}'s decision")
                                     for p, v in decided.items()}})
        state.apply(decided)
    return {"id": f"{game.slug}-bots-seed-{seed}",
            "title": f"A game played by the bots (seed {seed})",
            "setup": setup, "steps": out_steps}


def next_example_path(game_dir: Path, stem: str) -> Path:
    import re

    numbers = [int(m.group(1)) for p in (game_dir / "examples").glob("*.yaml")
               if (m := re.match(r"^(\d+)-", p.name))]
    return game_dir / "examples" / f"{max(numbers, default=0) + 1:02d}-{stem}.yaml"


def record_bots(root: Path, slug: str, seed: int, steps: int) -> Path:
    """Write the game's next numbered example: a bot game, recorded, as a draft."""
    root = Path(root)
    game = load_game(root, slug)
    sketch = bot_example(game, seed, steps)
    path = next_example_path(root / slug, f"bots-seed-{seed}")
    if any(ex.id == sketch["id"] for ex in game.examples):
        raise RecordError(f"{slug} already has an example '{sketch['id']}'; choose another "
                          f"--seed")
    path.write_text(dump_example(sketch), encoding="utf-8")
    try:
        game, ex = find_example(root, path)
        text = record_example(game, ex, f"record {slug} --bots --seed {seed}")
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    path.write_text(text, encoding="utf-8")
    return path


def record_file(root: Path, path: Path) -> Path:
    """Fill in the expectations of the designer's example (setup and decisions written),
    in place, as a draft."""
    game, ex = find_example(Path(root), Path(path))
    text = record_example(game, ex, f"record {game.slug}")
    Path(path).write_text(text, encoding="utf-8")
    return Path(path)


def update_file(root: Path, path: Path) -> str:
    """Rewrite an example's expectations after a rules change; returns the diff ("" when
    nothing changed, and then the file is left alone)."""
    game, ex = find_example(Path(root), Path(path))
    old, new = update_example(game, ex)
    if old == new:
        return ""
    Path(path).write_text(new, encoding="utf-8")
    name = str(path)
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"{name} (before)", f"{name} (recorded now)"))


__all__ = ["record_bots", "record_file", "update_file", "RecordError", "dump_example",
           "DRAFT_KEY", "Located"]
