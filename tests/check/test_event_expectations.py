"""Every part of an ``events:`` expectation is checked against what the engine did: its
kind, player, rule, cards and each data field; and an example id may be used once per
game. Each broken expectation must fail at its own line (issue 12: the checker's event
matching switched off, or its ``rule:`` ignored, went unnoticed before). The checker points
at the listed event that failed (its own line and column; for a list written on one line,
the line of the ``events:`` value)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from helpers import copy_shipped_game, edit_once

from builder.check import run_check
from builder.engine.core import Card, CardError, full_deck

ROOT = Path(__file__).resolve().parents[2]

def war_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    path = content / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if new.strip() in t)
    return content, line


def failures(content: Path) -> list[str]:
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "")
            for d in report.diagnostics.errors]


# 01-a-plain-trick.yaml, step 1: North's king beats South's seven; the engine's events are
# reveal (p1, KS), reveal (p2, 7H), take (p1, rule higher-takes, count 2), collect (p1).
@pytest.mark.parametrize("broken", [
    "events: [reveal, reveal, collect, take]",                       # order
    "events: [reveal, reveal, war, take, collect]",                  # a kind that did not happen
    "events: [reveal, reveal, {kind: take, player: p2}, collect]",   # player
    "events: [reveal, reveal, {kind: take, rule: war}, collect]",    # rule
    "events: [{kind: reveal, cards: [7H]}, {kind: reveal, cards: [KS]}]",  # cards
    "events: [reveal, reveal, {kind: take, count: 3}, collect]",     # a data field
])
def test_a_broken_event_expectation_fails_at_its_line(tmp_path: Path, broken: str):
    content, line = war_with(tmp_path, "events: [reveal, reveal, take, collect]", broken)
    got = failures(content)
    assert len(got) == 1, got
    assert got[0].startswith(f"war/examples/01-a-plain-trick.yaml:{line}:"), got
    assert "example 'war-plain-trick', step 1: events: no " in got[0], got


def test_the_right_events_pass(tmp_path: Path):
    content, _ = war_with(tmp_path, "events: [reveal, reveal, take, collect]",
                          "events: [{kind: reveal, player: p1, cards: [KS]}, "
                          "{kind: take, player: p1, rule: higher-takes, count: 2}, collect]")
    assert failures(content) == []


def test_an_example_id_is_used_once_per_game(tmp_path: Path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    examples = content / "war" / "examples"
    shutil.copyfile(examples / "01-a-plain-trick.yaml", examples / "09-again.yaml")
    got = failures(content)
    assert got == ["war/examples/09-again.yaml:1:1: error: example id 'war-plain-trick' is "
                   f"already used at {content}/war/examples/01-a-plain-trick.yaml:1"
                   .replace(str(content) + "/", "")], got


# --------------------------------------------------------------------------- every shipped one
# Every field of every item of every ``events:`` expectation in the shipped content, broken
# one at a time. A field is given a value that no event of that kind in the step has (for
# ``kind``: a kind that did not happen in the step at all), so the broken item can match no
# event whatever the order: the check must fail, at the line of that ``events:`` value.

def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _field_of(event, field):
    if field == "player":
        return event.player
    if field == "rule":
        return event.rule
    if field == "cards":
        return [str(c) for c in event.cards]
    return event.data.get(field)


def _same(a, b, field) -> bool:
    if field == "cards":
        try:
            return a == [str(Card.parse(x)) for x in b]
        except CardError:
            return False
    return str(a) == str(b)


def _broken_value(field, value, kind, events, gamedef):
    """A value for ``field`` that no event of ``kind`` in the step has (None: none found)."""
    if field == "kind":
        happened = {e.kind for e in events}
        return next((k for k in sorted(gamedef.event_kinds) if k not in happened),
                    "no-such-kind")
    if field == "text":
        return f"{value} zzqx"
    same = [e for e in events if e.kind == kind]
    if field == "player":
        candidates = ["p1", "p2", "p3", "p4", "p9"]
    elif field == "rule":
        candidates = sorted(gamedef.rule_ids) + ["no-such-rule"]
    elif field == "cards":
        deck = [str(c) for c in full_deck()]
        candidates = ([value[:-1]] if len(value) > 1 else []) + [[c] for c in deck]
    elif isinstance(value, bool):
        candidates = [not value]
    elif isinstance(value, int):
        candidates = [value + 1, value - 1, value + 100]
    else:
        candidates = ["p1", "p2", "p3", "draw", "tie", "none", f"{value}x"]
    for cand in candidates:
        if cand != value and not any(_same(_field_of(e, field), cand, field) for e in same):
            return cand
    return None


def _events_value_span(text: str, line: int) -> tuple[int, int]:
    """Where the ``events:`` value that starts on ``line`` (1-based) lies in ``text``."""
    def walk(node):
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == "events" and value.start_mark.line + 1 == line:
                    return value
                found = walk(value)
                if found is not None:
                    return found
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                found = walk(item)
                if found is not None:
                    return found
        return None

    node = walk(yaml.compose(text))
    assert node is not None, line
    end = node.end_mark.index if node.flow_style else node.value[-1].end_mark.index
    return node.start_mark.index, end


def _flow(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()


def _cases(report):
    """(game folder, example file, line of the events value, the value as a list, the list
    with one field broken, the field, what was broken)"""
    for gr in report.games:
        gamedef = gr.game.gamedef
        for replay in gr.replays:
            ex = replay.example
            for rec in replay.steps:
                if "events" not in rec.expected:
                    continue
                step = ex.steps[rec.index - 1]
                line = step.positions.at("expect", "events").line
                want = _plain(step.expect["events"])
                for i, item in enumerate(want):
                    spec = {"kind": item} if isinstance(item, str) else item
                    for field, value in spec.items():
                        new = _broken_value(field, value, spec["kind"], rec.events, gamedef)
                        assert new is not None, (ex.where.path, line, field)
                        broken = dict(spec)
                        broken[field] = new
                        items = list(want)
                        items[i] = broken
                        yield (gr.game.dir, ex.where.path, line, want, items, field,
                               f"item {i + 1}, {field}: {value!r} -> {new!r}")


def _check_all(report, tmp_path: Path, sample: bool) -> int:
    """Break each case (or, with ``sample``, the first of each field name) and check
    only that example, in a copy of its game's folder (without its other examples). In the
    full run each value is first written whole the same way and must pass, so a failure is
    the broken field's doing."""
    checked, seen, whole_ok = 0, set(), set()
    folders: dict[str, Path] = {}

    def check(game_dir: str, ex_path: str, line: int, value: str) -> list:
        slug = Path(game_dir).name
        if game_dir not in folders:
            root = tmp_path / slug / "content"
            shutil.copytree(game_dir, root / slug, ignore=shutil.ignore_patterns("examples"))
            (root / slug / "examples").mkdir()
            (root / "index.yaml").write_text(f"games: [{slug}]\n")
            folders[game_dir] = root
        root = folders[game_dir]
        source = (ROOT / ex_path).read_text()
        start, end = _events_value_span(source, line)
        target = root / slug / "examples" / Path(ex_path).name
        for f in target.parent.glob("*.yaml"):
            f.unlink()
        target.write_text(source[:start] + value + source[end:])
        return run_check(root).diagnostics.errors

    for game_dir, ex_path, line, whole, broken, field, what in _cases(report):
        if sample and field in seen:
            continue
        seen.add(field)
        if not sample and (ex_path, line) not in whole_ok:
            got = check(game_dir, ex_path, line, _flow(whole))
            assert got == [], [d.format() for d in got]
            whole_ok.add((ex_path, line))
        got = check(game_dir, ex_path, line, _flow(broken))
        name = Path(ex_path).name
        hits = [d for d in got if d.line == line and d.path.endswith(name)
                and ": events: " in d.message]
        assert hits, (f"{ex_path}:{line} ({what}) was not caught: "
                      f"{[d.format().splitlines()[0] for d in got]}")
        checked += 1
    return checked


def test_each_field_name_broken_once_is_caught(report, tmp_path: Path):
    """The inner loop's sample: kind, player, rule, cards and each data field name the
    shipped expectations use, broken once each."""
    assert _check_all(report, tmp_path, sample=True) >= 30


@pytest.mark.slow
def test_every_field_of_every_shipped_events_expectation_is_checked(report, tmp_path: Path):
    assert _check_all(report, tmp_path, sample=False) >= 1500


# --------------------------------------------------------------------------- the events list itself
def test_an_event_written_as_a_number_names_a_kind_of_this_game(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "events: [reveal, reveal, take, collect]", "events: [reveal, 5, take, collect]")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (12, 24)
    kinds = list(next(iter(run_check(ROOT / "content").games)).game.gamedef.event_kinds)
    assert f"an event is a kind such as '{kinds[0]}' or a mapping" in e.message
    assert e.message.endswith("got 5")

def test_events_written_as_one_word_are_not_a_list(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "events: [reveal, reveal, take, collect]", "events: reveal")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (12, 15)
    assert e.message.endswith("step 1: events: expected a list of event kinds"), e.message

@pytest.mark.parametrize("written, said", [("{kind: 5}", "5"), ("{kind: null}", "null"),
                                           ("{kind: [take]}", "[take]")])
def test_a_kind_that_is_not_a_word_is_said_so(tmp_path, written, said):
    """``kind:`` names an event kind: a number, null or a list is not one, and the check
    says that (not that some kind "5" is unknown)."""
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "events: [reveal, reveal, take, collect]",
              f"events: [reveal, reveal, {written}, collect]")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (12, 32)   # the item: the events: value starts at column 15
    assert e.message == (f"example 'war-plain-trick', step 1: events: kind: must be an event "
                         f"kind, got {said}")

def test_a_game_without_event_kinds_still_shows_what_an_event_is(tmp_path):
    """An engine may declare no event kinds at all (High Five, here, with event_kinds={});
    an event written as a number is then explained with warbook's own example of a kind,
    'take'."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    edit_once(content / "high-five" / "engine.py", "    event_kinds=EVENT_KINDS,",
              "    event_kinds={},")
    example = content / "high-five" / "examples" / "01-a-short-game.yaml"
    edit_once(example, "events: [reveal, reveal, tie]", "events: [7]")
    said = [d.message for d in run_check(content).diagnostics.errors
            if d.path.endswith("01-a-short-game.yaml")]
    assert said == ["example 'high-five-short-game', step 1: events: an event is a kind such "
                    "as 'take' or a mapping with kind:, player:, rule:, cards:, text: and data "
                    "fields; got 7"]


# --------------------------------------------------------------------------- a failing step
@pytest.mark.parametrize("broken_first", [
    ("events: [reveal, reveal, take, collect]", "events: [reveal, reveal, collect, take]"),
    ("events: [reveal, reveal, take, collect]", "events: [reveal, 5, take, collect]"),  # unread
    ("trick.winner: p1", "trick.winer: p1"),              # a state the game does not have
    ("trick.winner: p1", "trick.winner: p2"),             # a state that differs
])
def test_the_replay_stops_at_the_first_failing_step(tmp_path: Path, broken_first):
    """An example whose first step fails is failed there: one error, at step 1, and the
    second step (broken too, here) is not replayed, so its error is not reported on top."""
    old, new = broken_first
    content = copy_shipped_game(tmp_path, "war")
    path = content / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, old, new)
    edit_once(path, "p2.deck: [9C, 4D]", "p2.deck: [4D, 9C]")
    report = run_check(content)
    errors = [d.format().split("\n")[0] for d in report.diagnostics.errors]
    assert len(errors) == 1, errors
    assert "example 'war-plain-trick', step 1:" in errors[0], errors
    (replay,) = [r for r in report.games[0].replays if r.example.id == "war-plain-trick"]
    assert replay.status == "fail" and [s.index for s in replay.steps] == [1]
