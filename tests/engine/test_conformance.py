"""The conformance kit (builder.testing) catches each way an engine can break its contract,
planted one at a time in High Five (tests/fixtures/high-five, a designer's engine.py), and
``warbook check`` says each at the engine's line with the game's seed and step.

The seeds and steps below follow from the kit's plan (docs/writing-an-engine.md, "The
conformance kit"): the printed options, games seeded 0, 1, 2, ... with the random bots,
the heuristic bots and the two against each other in turn; a step counted from 1.
"""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from builder.check import run_check
from builder.engine.core import full_deck
from builder.engine.registry import load_engine_file
from builder.testing import assert_conforms, conformance

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"


def planted(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """High Five in a content folder of its own, with ``old`` replaced by ``new`` (once)
    in its engine.py; the content folder."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    text = engine.read_text()
    if old:
        assert text.count(old) == 1, old
        engine.write_text(text.replace(old, new))
    return content


def line_of(content: Path, text: str) -> int:
    lines = (content / "high-five" / "engine.py").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def breaches(content: Path) -> list:
    game = load_engine_file(content / "high-five" / "engine.py")
    return conformance(game, printed={"hand": 5})


# the planted fault, the line the kit blames (a text on it), what it says, the seed, the step
PLANTS = [
    pytest.param("        self.round += 1\n",
                 "        self.round += 1\n        if self.round == 2:\n"
                 "            self.played['p2'].pop()\n",
                 "def _apply", r"\(cards\): a card is not accounted for: lost (10|[2-9AJQK])[CDHS] "
                 r"\(all_cards\(\) must hold the same cards after every step as after the deal\)",
                 0, 2, id="card-lost"),
    pytest.param("    return max(state.hands[player], key=lambda c: ACE_HIGH[c.rank])",
                 "    return max(state.hands['p2' if player == 'p1' else 'p1'],\n"
                 "               key=lambda c: ACE_HIGH[c.rank])",
                 "def heuristic", r"\(legal\): the heuristic bot chose (10|[2-9AJQK])[CDHS] for p1, "
                 r"which is not a legal choice \((10|[2-9AJQK])[CDHS](, (10|[2-9AJQK])[CDHS])*\)",
                 1, 1, id="heuristic-illegal"),
    # a heuristic that peeks: the lowest card that beats the other hand's best
    pytest.param("    return max(state.hands[player], key=lambda c: ACE_HIGH[c.rank])",
                 "    best = max(ACE_HIGH[c.rank] for c in state.hands['p2' if player == 'p1' "
                 "else 'p1'])\n"
                 "    beats = [c for c in state.hands[player] if ACE_HIGH[c.rank] > best]\n"
                 "    return min(beats or state.hands[player], key=lambda c: ACE_HIGH[c.rank])",
                 "def heuristic", r"\(peek\): the heuristic bot chose (10|[2-9AJQK])[CDHS] for "
                 r"p1, but (10|[2-9AJQK])[CDHS] when the cards hidden from p1 were dealt again: "
                 r"it reads cards its seat cannot see \(decide from p1's own hand and the cards "
                 r"face up\)", 1, 1, id="peek"),
    pytest.param('heuristic=heuristic, max_steps=lambda options: options["hand"],',
                 'heuristic=heuristic, max_steps=lambda options: options["hand"] - 1,',
                 "max_steps=lambda", r"\(bound\): the game is not over after 4 steps, its bound "
                 r"\(max_steps\)", 0, 4, id="bound"),
]


@pytest.mark.parametrize("old, new, blamed, said, seed, step", PLANTS)
def test_warbook_check_says_a_broken_contract_at_its_line(tmp_path, old, new, blamed, said,
                                                          seed, step):
    content = planted(tmp_path, old, new)
    report = run_check(content)
    found = [d for d in report.diagnostics.errors if "breaks its contract" in d.message]
    assert len(found) == 1, [d.format() for d in report.diagnostics.errors]
    d = found[0]
    assert (Path(d.path).resolve(), d.line) == (
        (content / "high-five" / "engine.py").resolve(), line_of(content, blamed))
    assert re.fullmatch(r"the engine breaks its contract " + said + r"( in \S+\(\))?",
                        d.message), d.message
    assert d.detail.startswith(f"in game seed {seed}, step {step}, "), d.detail


@pytest.mark.parametrize("old, new, kind, said, step", [
    pytest.param('        v["round"] = self.round\n',
                 '        v["round"] = self.round\n        v["secret"] = 1\n', "view",
                 "the view has a key 'secret' that view_keys does not declare", 0, id="view"),
    pytest.param('ev.append(Event("reveal", "play",', 'ev.append(Event("show", "play",',
                 "events", "an event of kind 'show', which event_kinds does not declare", 1,
                 id="event-kind"),
    pytest.param('Event("score", "higher-scores",', 'Event("score", "higher-wins",', "events",
                 re.escape("a 'score' event cites the rule 'higher-wins', which the engine "
                           "does not declare (rule_ids)"), None, id="event-rule"),
    pytest.param("    rng.shuffle(deck)\n", "    random.shuffle(deck)\n", "seed",
                 re.escape("the same seed gave another game (the engine must draw every "
                           "chance from the generator it is given, never from random or the "
                           "clock)"), 1, id="seed"),
    pytest.param('heuristic=heuristic, max_steps=lambda options: options["hand"],',
                 'heuristic=heuristic, max_steps=lambda options: options["hand"],\n'
                 '    marks=lambda events, table: {str(e.cards[0]): "glow" for e in events '
                 'if e.cards},', "marks",
                 r"marks\(\) marks (10|[2-9AJQK])[CDHS] as 'glow', a kind that is neither shared "
                 r"\(played, revealed, won, killed\) nor the game's own \(mark_kinds\)", 1,
                 id="mark-kind"),
    pytest.param("            self.points[w] += 1\n", "            self.points[w + 'x'] += 1\n",
                 "fault", "KeyError: 'p[12]x'", None, id="fault"),
    pytest.param("        if self.result is not None:\n            return None\n",
                 "        if self.result is not None or self.round == 2:\n            return None\n",
                 "pending", re.escape("the game is not over (no result) but pending() "
                                      "returns no decision or chance event"), 2, id="pending"),
    pytest.param("        ev = []\n",
                 "        ev = []\n        if any(c.rank == '2' for c in decisions.values()):\n"
                 "            raise IllegalDecision('play', 'no twos')\n", "legal",
                 r"the engine (refused .* for p[12], which its choice lists as legal|refused a "
                 r"decision its own choices offer .*): no twos", None, id="offered-refused"),
])
def test_each_breach_is_caught(tmp_path, old, new, kind, said, step):
    content = planted(tmp_path, old, new)
    if "IllegalDecision(" in new:
        engine = content / "high-five" / "engine.py"
        engine.write_text(engine.read_text().replace("    GameDef,\n",
                                                     "    GameDef,\n    IllegalDecision,\n"))
    found = breaches(content)
    assert [b.kind for b in found] == [kind], [str(b) for b in found]
    assert re.fullmatch(said, found[0].message), found[0].message
    if step is not None:
        assert found[0].step == step


def test_a_deal_that_is_not_the_declared_supply(tmp_path):
    """An engine that declares its supply (every card the rules say the game uses) is held
    to it: High Five declaring two decks deals from one (ten cards dealt, the rest in
    the box)."""
    game = load_engine_file(FIXTURE / "engine.py")
    wrong = dataclasses.replace(game, supply=lambda options: Counter(full_deck() * 2))
    found = conformance(wrong, games=3)
    assert [(b.kind, b.step) for b in found] == [("cards", 0)]
    assert found[0].message.startswith("the deal does not hold the game's supply: missing ")
    right = dataclasses.replace(game, supply=lambda options: Counter(
        game.new_game(options, random.Random(0)).all_cards()))
    assert [b.kind for b in conformance(right, games=1)] == []


def test_the_shipped_fixture_conforms():
    assert_conforms(load_engine_file(FIXTURE / "engine.py"), games=30)


def test_the_kit_records_steps_without_the_tables_pictures(monkeypatch):
    """The kit's states record (their events have words, ``show()`` keeps its picture for
    ``marks``) but take no picture of the table at each event (``State.moments``), which
    the kit never reads; a recording state with moments on still takes them."""
    from builder.engine import core
    from builder.engine.registry import registered_engines

    taken = []
    real = core.State._moment
    monkeypatch.setattr(core.State, "_moment", lambda self: taken.append(1) or real(self))
    battle = registered_engines()["battle"]
    assert conformance(battle, games=3) == [] and taken == []

    state = battle.new_game(battle.resolve({}), random.Random(2))
    rng = random.Random(2)

    def step() -> list:
        node = state.node()
        if node.kind == "chance":
            return state.apply_chance(node.choice.sample(rng))
        return state.apply({p: c.sample(rng) for p, c in node.choices.items()})

    state.moments = False
    for _ in range(3):
        events = step()
        assert events and all(e.text and e.moment is None for e in events) and not taken
    state.moments = True
    events = step()
    assert events and len(taken) == len(events) and all(e.moment for e in events)

def test_a_test_that_uses_the_kit_fails_with_every_breach(tmp_path):
    content = planted(tmp_path, 'heuristic=heuristic, max_steps=lambda options: options["hand"],',
                      'heuristic=heuristic, max_steps=lambda options: 2,')
    with pytest.raises(AssertionError, match=r"high-five does not conform:\n  bound: the game "
                                             r"is not over after 2 steps"):
        assert_conforms(load_engine_file(content / "high-five" / "engine.py"), games=3)


def test_a_verdict_is_kept_until_the_engine_changes(tmp_path, monkeypatch):
    """The kit runs once per engine and options: a second check of the same engine reads
    the verdict; an edited engine.py is played again."""
    import builder.testing

    monkeypatch.setenv("WARBOOK_CACHE", str(tmp_path / "cache"))
    content = planted(tmp_path)
    played = []
    real = builder.testing.conformance
    monkeypatch.setattr(builder.testing, "conformance",
                        lambda *a, **k: played.append(1) or real(*a, **k))
    assert run_check(content).ok and len(played) == 1
    assert run_check(content).ok and len(played) == 1
    engine = content / "high-five" / "engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    assert run_check(content).ok and len(played) == 2


@pytest.mark.parametrize("tail, said", [
    ("\nOTHER = dataclasses.replace(GAME, slug='high-six')\n",
     "high-five/engine.py:{n}: the engine file defines more than one game (GAME and OTHER); "
     "an engine.py plays one game: move the other into its own game folder"),
    ("\nMY_GAME = GAME\ndel GAME\n",
     "high-five/engine.py:{n}: the engine file defines no GAME (a GameDef) (it makes "
     "MY_GAME: name the game GAME)"),
    ("\nfrom builder.engine.war import GAME as WAR  # built on, not made here\n", None),
])
def test_an_engine_file_makes_exactly_one_game(tmp_path, tail, said):
    from builder.engine.registry import EngineError

    content = planted(tmp_path)
    engine = content / "high-five" / "engine.py"
    text = engine.read_text().replace("import random\n", "import dataclasses\nimport random\n")
    engine.write_text(text + tail)
    n = text.count("\n") + 2   # the line of the tail's first statement
    if said is None:
        assert load_engine_file(engine).slug == "high-five"
        return
    with pytest.raises(EngineError) as e:
        load_engine_file(engine)
    assert f"{Path(e.value.path).parent.name}/{Path(e.value.path).name}:{e.value.line}: " \
           f"{e.value}" == said.format(n=n)


def test_an_option_set_the_engine_refuses_is_a_breach():
    game = load_engine_file(FIXTURE / "engine.py")
    found = conformance(dataclasses.replace(game, option_sets=[{}, {"hnad": 3}]), games=2)
    assert [(b.kind, b.culprit) for b in found] == [("options", game.new_game)]
    assert found[0].message.startswith("an option set of option_sets is refused: ")


def test_a_decision_with_nothing_legal_is_blamed_on_pending(tmp_path):
    content = planted(tmp_path, 'return DecisionNode({p: OneOf(self.hands[p], rule="play")',
                      'return DecisionNode({p: OneOf([], rule="play")')
    found = breaches(content)
    assert [(b.kind, b.step) for b in found] == [("pending", 1)]
    assert found[0].message == ("p1 must decide (both choose a card from their hand) but "
                                "the choice lists nothing legal")
    assert found[0].culprit.__name__ == "pending"
