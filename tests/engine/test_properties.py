"""Property tests over every game and option set, with random and heuristic bots.

The conformance kit (``builder.testing``, which ``warbook check`` runs on every game's
engine) on 100 games per option set: every card of the game's supply accounted for from
the deal to the end, the step bound held, every bot decision legal and every listed
choice accepted, events and view keys declared, the same seed giving the same game. The
supplies are each engine's ``supply``, counted here against the rules by hand. Besides:
different seeds give different games, bots make only offered decisions, and the diagrams'
table draws what the state holds.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest
from helpers import house_style_problems

from builder.engine.core import play_game, random_bot
from builder.engine.registry import available_engines, find_engine, registered_engines
from builder.testing import assert_conforms

#: 100 games of each of the 26 option sets: 2,600 games checked step by step (500 each took
#: over ten minutes of the suite on two cores, 150 about 65 s; `warbook check` itself runs a
#: few)
GAMES_PER_OPTION_SET = 100
GAMES = registered_engines()
ENGINES = sorted(GAMES)


def test_every_registered_engine_loads():
    # every name registered under the entry-point group loads as a GameDef of that name
    names = available_engines()
    assert names
    for name in names:
        assert find_engine(name).slug == name


def test_every_shipped_game_has_a_registered_engine():
    from pathlib import Path

    import yaml

    content = Path(__file__).resolve().parents[2] / "content"
    for slug in yaml.safe_load((content / "index.yaml").read_text())["games"]:
        engine = yaml.safe_load((content / slug / "game.yaml").read_text()).get("engine")
        assert (content / slug / "engine.py").is_file() or engine in GAMES, slug


def test_the_supplies_count_as_the_rules_count():
    """Each engine's ``supply`` (what the conformance kit holds the deal to) against its
    rules' "What you need", counted by hand."""
    assert sum(GAMES["war"].supply({}).values()) == 52
    assert sum(GAMES["battle-lines"].supply({}).values()) == 52
    assert sum(GAMES["deck-management"].supply({"players": 4}).values()) == 52
    assert sum(GAMES["winning-the-battle"].supply({}).values()) == 104
    assert sum(GAMES["battle"].supply({"players": 2}).values()) == 52
    assert sum(GAMES["battle"].supply({"players": 4}).values()) == 104
    ultimate = GAMES["ultimate"].supply({})
    assert sum(ultimate.values()) == 39 and not any(c.suit == "H" for c in ultimate)


def _cases():
    for slug, game in sorted(GAMES.items()):
        for i, opts in enumerate(game.option_sets):
            yield pytest.param(slug, opts, id=f"{slug}-{i}-" + "-".join(f"{k}={v}" for k, v in opts.items()))


def _bots(game, seed):
    """Alternate line-ups: random v random, heuristic v heuristic, and mixed."""
    mode = seed % 3
    if mode == 0:
        return random_bot
    if mode == 1:
        return game.heuristic
    return {f"p{i}": (game.heuristic if i % 2 else random_bot) for i in range(1, 5)}


class StepChecker:
    def __init__(self, game, seed, options):
        self.game = game
        self.rng = random.Random(seed * 7919 + 1)
        self.initial = game.supply(game.resolve(options))
        self.log = []

    def __call__(self, state, node, decided, events):
        cards = state.all_cards()
        assert dict.__eq__(cards, self.initial), (
            f"{self.game.slug}: cards changed at step {len(self.log) + 1}: "
            f"gained {cards - self.initial}, lost {self.initial - cards}")
        self.log.append((node.kind, repr(decided), [(e.kind, e.rule, e.text) for e in events]))


@pytest.mark.parametrize("slug,opts", list(_cases()))
def test_the_deal_holds_the_whole_supply(slug, opts):
    """Before any step: a new game holds every card of the supply, as often as the rules
    have it (a card lost or doubled in the deal is caught here, not only from step 1)."""
    game = GAMES[slug]
    want = game.supply(game.resolve(opts))
    for seed in range(20):
        cards = game.new_game(game.resolve(opts), random.Random(seed)).all_cards()
        assert dict.__eq__(cards, want), (
            f"{slug}: the deal holds {sum(cards.values())} cards: gained {cards - want}, "
            f"lost {want - cards}")


@pytest.mark.parametrize("slug", ENGINES)
@pytest.mark.slow
def test_property_games(slug):
    """The conformance kit (builder.testing, what ``warbook check`` runs on a few games) on
    100 games per option set."""
    assert_conforms(GAMES[slug], games=GAMES_PER_OPTION_SET)


@pytest.mark.parametrize("slug", ENGINES)
def test_different_seeds_differ(slug):
    game = GAMES[slug]
    logs = set()
    for seed in range(5):
        checker = StepChecker(game, seed, game.option_sets[0])
        play_game(game, game.option_sets[0], seed, random_bot, on_step=checker)
        logs.add(repr(checker.log))
    assert len(logs) > 1


@pytest.mark.parametrize("slug", ENGINES)
def test_bots_only_make_offered_decisions(slug):
    """A bot never needs the engine to accept something it did not offer."""
    game = GAMES[slug]
    for seed, bot in itertools.product(range(20), (random_bot, game.heuristic)):
        rng = random.Random(seed)
        state = game.new_game(game.resolve(game.option_sets[0]), rng)
        while not state.is_terminal():
            node = state.pending()
            if node.kind == "chance":
                state.apply_chance(node.choice.sample(rng))
                continue
            joint = {p: bot(state, p, rng) for p in node.choices}
            for p, v in joint.items():
                assert node.choices[p].contains(v), f"{slug}: bot chose {v!r}, not offered to {p}"
            state.apply(joint)


def _zone_size(zone) -> int:
    return zone.count if zone.count is not None else len(zone.cards)


def _check_table(slug: str, state, where: str) -> None:
    """What a diagram draws (``table()``) against the state (``view()``, ``all_cards()``):
    every card in play is drawn exactly once, each pile that the view names holds as many
    cards as the view says, a spread-out zone shows exactly the view's cards, a pile shows
    its top card, and tokens are counted as the view counts them."""
    view = state.view()
    zones = state.table()
    cards = [z for z in zones if z.style != "tokens"]
    in_play = sum(state.all_cards().values())
    assert sum(_zone_size(z) for z in cards) == in_play, (
        f"{slug} {where}: the table draws {sum(_zone_size(z) for z in cards)} cards "
        f"of the {in_play} in play")
    assert len({z.id for z in zones}) == len(zones), f"{slug} {where}: a zone drawn twice"
    cells = [(z.row, z.col) for z in zones]
    assert len(set(cells)) == len(cells), f"{slug} {where}: two zones in one place {cells}"
    for z in zones:                        # the words a diagram prints over its zones
        for words, fragment in ((z.label, False), (z.note, True)):   # a title; a note
            wrong = [w for w in house_style_problems(words) if "sentence" not in w
                     and not (fragment and "start" in w)]
            assert not wrong or not words, (slug, where, z.id, words, wrong)
    for z in zones:
        mine = re.match(r"(p\d)\.", z.id)
        if mine:                                   # drawn on its owner's side, in their colour
            assert z.owner == mine.group(1), (slug, where, z.id, z.owner)
        if z.id not in view:
            continue
        v = view[z.id]
        if z.style == "tokens":
            assert z.count == v, (slug, where, z.id, z.count, v)
            continue
        if not isinstance(v, (list, tuple)):     # e.g. a played card still hidden: 'none'
            continue
        assert _zone_size(z) == len(v), (slug, where, z.id, _zone_size(z), len(v))
        shown = Counter(str(c) for c, _up in z.cards)
        if z.style == "pile":
            assert len(z.cards) == (1 if v else 0), (slug, where, z.id)
            if v:
                assert str(z.cards[0][0]) in {str(v[0]), str(v[-1])}, (slug, where, z.id)
        else:
            assert shown == Counter(str(c) for c in v), (slug, where, z.id, shown, v)


@pytest.mark.parametrize("slug,opts", list(_cases()))
def test_the_table_draws_what_the_state_holds(slug, opts):
    """The diagrams' table at the start and after every step of a few seeded games, with
    random and heuristic bots (and every card conserved on the way: a fast sample of the
    slow property games, which the mutation tests run)."""
    game = GAMES[slug]
    for seed in range(10):
        checker = StepChecker(game, seed, opts)
        state = game.new_game(game.resolve(opts), random.Random(seed))
        _check_table(slug, state, f"seed {seed}, dealt")

        def on_step(state, node, decided, events, checker=checker, seed=seed):
            checker(state, node, decided, events)
            where = f"seed {seed}, step {len(checker.log)}"
            assert state.steps == len(checker.log), (slug, where, state.steps)
            # the moment a diagram shows (the cards turned up, before they are taken)
            shown = state.take_shown()
            drawn = sum(_zone_size(z) for z in shown if z.style != "tokens")
            assert drawn == sum(checker.initial.values()) or drawn == \
                sum(state.all_cards().values()), f"{slug} {where}: the reveal draws {drawn}"
            _check_table(slug, state, where)

        play_game(game, opts, seed, _bots(game, seed), on_step=on_step)
