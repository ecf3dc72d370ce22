"""The events every engine produces are the ones docs/games.md documents for designers: each
kind is in the game's "Events" table with exactly the data fields listed there, and each
event cites a rule id from the game's "Rule ids" table. The tables are read from the page,
so a designer writing ``events: [{kind: take, count: 10}]`` from the docs gets a match.

Events come from a few seeded games per option set (random and heuristic players) and
from every shipped example's replay."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from helpers import documented_events_and_rules, games_page_sections, games_page_table

from builder.check import run_check
from builder.engine.cards import CardBase
from builder.engine.core import play_game, random_bot
from builder.engine.registry import registered_engines

ROOT = Path(__file__).resolve().parents[2]
GAMES = registered_engines()


ENDS: dict[str, list] = {}


def documented_view(slug: str) -> dict[str, set[str] | None]:
    """View key (``{p}`` for each player) -> the words its value may be, where the page
    lists them in backticks (None: a number, a pile or free text)."""
    title = GAMES[slug].title
    page = games_page_sections()
    section = page.get(title) or next(v for k, v in page.items() if k.endswith(title)
                                      or title.endswith(k))
    out = {}
    for keys, value, *_ in games_page_table(section, "View keys"):
        words = set(re.findall(r"`([a-z0-9 -]+)`", re.sub(r"\([^)]*\)", "", value)))
        for key in re.findall(r"`([^`]+)`", keys):     # a row may name several keys
            out[key] = words or None
    return out


VIEWS: dict[str, list] = {}


def produced(slug: str) -> list:
    game = GAMES[slug]
    out = []
    ends = ENDS.setdefault(slug, [])
    for opts in game.option_sets:
        for seed in range(8):
            bots = random_bot if seed % 2 else game.heuristic

            def keep(state, node, decided, events):
                out.extend(events)
                VIEWS.setdefault(slug, []).append(state.view())

            state, _ = play_game(game, opts, seed, bots, on_step=keep)
            ends.append((state.result, out[-1] if out else None))
    return out


@pytest.fixture(scope="module")
def shipped_events() -> dict[str, list]:
    found = defaultdict(list)
    for gr in run_check(ROOT / "content").games:
        for rep in gr.replays:
            for step in rep.steps:
                found[gr.game.gamedef.slug].extend(step.events)
    return found


def test_the_page_has_a_table_for_every_engine():
    for slug in GAMES:
        events, rules = documented_events_and_rules(slug)
        assert "game-over" in events and events["game-over"] >= {"winner"}, slug
        assert rules >= set(GAMES[slug].rule_ids), slug


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_event_is_as_documented(slug, shipped_events):
    events, rules = documented_events_and_rules(slug)
    seen = defaultdict(set)
    for ev in produced(slug) + shipped_events.get(slug, []):
        assert ev.kind in events, f"{slug}: event kind '{ev.kind}' is not documented"
        assert set(ev.data) == events[ev.kind] or ev.kind == "game-over" and \
            "winner" in ev.data and set(ev.data) <= events[ev.kind], (
            f"{slug}: a '{ev.kind}' event has data {sorted(ev.data)}; the docs list "
            f"{sorted(events[ev.kind])}")
        assert not ev.rule or ev.rule in rules, f"{slug}: '{ev.kind}' cites '{ev.rule}'"
        assert isinstance(ev.cards, (tuple, list)) and all(isinstance(c, CardBase)
                                                           for c in ev.cards), (slug, ev)
        if ev.kind == "game-over":
            assert ev.data["winner"] == "draw" or re.fullmatch(r"p\d", ev.data["winner"]), ev
        seen[ev.kind].add(ev.rule)
    missing = set(events) - set(seen)
    assert not missing, f"{slug}: documented events never seen: {sorted(missing)}"
    # every game ends with a result that names a documented rule and gives its reason,
    # the same as the game-over event says
    for result, last in ENDS[slug]:
        assert result.rule in rules, (slug, result)
        assert isinstance(result.reason, str) and result.reason.strip(), (slug, result)
        assert last is not None and last.kind == "game-over" and last.rule == result.rule, \
            (slug, result, last)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_view_is_as_documented(slug):
    """The view keys an example's ``expect:`` may check are the page's "View keys", each
    word-valued key holding one of the words the page lists (or a player id)."""
    doc = documented_view(slug)
    produced(slug)
    for view in VIEWS[slug]:
        players = sorted({k.split(".")[0] for k in view if re.match(r"p\d\.", k)})
        expanded = {}
        for key, words in doc.items():
            for p in (players if "{p}" in key else [None]):
                expanded[key.replace("{p}", p) if p else key] = words
        assert set(view) == set(expanded), (slug, sorted(set(view) ^ set(expanded)))
        for key, words in expanded.items():
            value = view[key]
            if words and isinstance(value, str):
                assert value in words or re.fullmatch(r"p\d", value), (slug, key, value, words)
