"""The model keeps plain values and plain positions, and the check and ``warbook record``
read and write event expectations through one module (builder/events.py).

- An example's positions are a key path -> ``path:line:col`` table, built once by the
  reader; a path that was not written is found at its nearest written ancestor (the
  mapping that lacks the key). Lines and columns below are counted by hand in the text.
- Every value an example holds in the model is plain data (no YAML node of yamlsrc), and
  the check, record, events and model modules never import yamlsrc (STYLE rule 7).
- What ``record`` writes for an event, the check reads back as that very event.
- An event expectation with a key that is not text (``null:``, ``true:``) is a located
  error, not a crash."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
import yaml

from builder.check import run_check
from builder.diagnostics import yaml_value
from builder.errors import InternalError
from builder.events import event_spec, match_events
from builder.model import Positions
from builder.yamlsrc import load_yaml_text, located_paths, plain_data

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"

EXAMPLE = """\
id: ex
setup:
  piles:
    p1.deck: [KS, 4D]
    p2.deck:
      - 7H
steps:
  - decide: {p1: 5H}
    expect:
      events: [reveal]
"""


@pytest.fixture
def positions() -> Positions:
    return Positions(*located_paths(load_yaml_text(EXAMPLE, "ex.yaml")))


def spot(where) -> tuple[str, int, int]:
    return where.path, where.line, where.col


def test_a_written_value_is_found_at_its_own_line_and_column(positions):
    assert spot(positions.at("setup", "piles", "p1.deck", 1)) == ("ex.yaml", 4, 19)   # 4D
    assert spot(positions.at("setup", "piles", "p2.deck", 0)) == ("ex.yaml", 6, 9)    # 7H
    assert spot(positions.at("setup", "piles", "p1.deck")) == ("ex.yaml", 4, 14)     # [
    assert spot(positions.at()) == ("ex.yaml", 1, 1)


def test_a_path_not_written_falls_back_to_its_nearest_written_ancestor(positions):
    # no pile p3.deck: the piles mapping that lacks it (its first key, line 4)
    assert spot(positions.at("setup", "piles", "p3.deck", 0)) == ("ex.yaml", 4, 5)
    # p1.deck has two cards: a sixth one is the list itself
    assert spot(positions.at("setup", "piles", "p1.deck", 5)) == ("ex.yaml", 4, 14)
    assert spot(positions.at("rules", 0)) == ("ex.yaml", 1, 1)
    assert positions.written("setup", "piles", "p1.deck", 1)
    assert not positions.written("setup", "piles", "p1.deck", 2)


def test_a_key_is_found_at_the_key_and_its_value_at_the_value(positions):
    assert spot(positions.key_at("setup", "piles", "p1.deck")) == ("ex.yaml", 4, 5)
    step = positions.within("steps", 0)
    assert spot(step.at("decide", "p1")) == ("ex.yaml", 8, 18)        # 5H
    assert spot(step.key_at("decide", "p1")) == ("ex.yaml", 8, 14)    # p1
    assert spot(step.at("expect", "events", 0)) == ("ex.yaml", 10, 16)
    # no chance: in this step: the step itself (its first key, decide, at column 5)
    assert spot(step.at("chance")) == ("ex.yaml", 8, 5)
    # a key without a key position of its own (a list item) is found at its value
    assert spot(step.key_at("expect", "events", 0)) == ("ex.yaml", 10, 16)


def test_positions_of_nothing_are_a_bug_named_as_one():
    with pytest.raises(InternalError):
        Positions({}).at("setup")


def test_the_plain_data_is_the_document_as_written():
    data = plain_data(load_yaml_text(EXAMPLE, "ex.yaml"))
    assert data == {"id": "ex",
                    "setup": {"piles": {"p1.deck": ["KS", "4D"], "p2.deck": ["7H"]}},
                    "steps": [{"decide": {"p1": "5H"}, "expect": {"events": ["reveal"]}}]}
    assert type(data["setup"]["piles"]) is dict
    assert type(data["steps"]) is list


def _plain_only(value, where: str) -> None:
    """Every container is exactly a dict or a list (a yamlsrc LocDict is a dict subclass)."""
    if isinstance(value, dict):
        assert type(value) is dict, where
        for k, v in value.items():
            _plain_only(v, f"{where}.{k}")
    elif isinstance(value, list):
        assert type(value) is list, where
        for i, v in enumerate(value):
            _plain_only(v, f"{where}[{i}]")
    else:
        assert value is None or type(value) in (str, int, float, bool), (where, type(value))


def test_every_shipped_example_holds_plain_values_only(report):
    examples = [ex for game in report.content.games for ex in game.examples]
    assert len(examples) > 50
    for ex in examples:
        for name in ("setup", "options", "written"):
            _plain_only(getattr(ex, name), f"{ex.id}.{name}")
        assert ex.positions.written("setup"), ex.id
        for step in ex.steps:
            for name in ("decide", "chance", "expect"):
                _plain_only(getattr(step, name), f"{ex.id} step {step.index}.{name}")


@pytest.mark.parametrize("module", ["check", "record", "events", "model"])
def test_the_check_and_record_never_read_yaml_nodes(module):
    tree = ast.parse((ROOT / "builder" / f"{module}.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported if name and name.endswith("yamlsrc")}


def test_what_record_writes_for_an_event_reads_back_as_that_event(report):
    checked = 0
    for game_report in report.games:
        names = game_report.game.player_names
        for replay in game_report.replays:
            for step in replay.steps:
                for ev in step.events:
                    written = yaml_value(event_spec(ev, names))
                    read_back = yaml.safe_load(written)
                    assert match_events([read_back], [ev], names) == "", written
                    checked += 1
    assert checked > 300


def _broken_war(tmp_path: Path, old: str, new: str) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    return root


@pytest.mark.parametrize("key, shown", [("null", "null"), ("true", "true"), ("3", "3")])
def test_an_event_field_that_is_not_a_name_is_a_located_error(tmp_path, key, shown):
    # line 12 reads "      events: [reveal, {kind: take, null: 1}]": the mapping at column 24
    root = _broken_war(tmp_path, "events: [reveal, reveal, take, collect]",
                       f"events: [reveal, {{kind: take, {key}: 1}}]")
    report = run_check(root)
    (error,) = report.diagnostics.errors
    assert (Path(error.path).name, error.line, error.col) == ("01-a-plain-trick.yaml", 12, 24)
    assert error.message == (f"example 'war-plain-trick', step 1: events: the field {shown} "
                             f"is not a field name")


def test_a_pile_named_by_a_number_is_an_unknown_pile_at_its_place(tmp_path):
    # line 9 reads "    1: [3C, 4D, 5S, 6H]": the pile's cards at column 8
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "winning-the-battle", root / "winning-the-battle")
    (root / "index.yaml").write_text("games: [winning-the-battle]\n")
    path = root / "winning-the-battle" / "examples" / "04-losing-the-war.yaml"
    text = path.read_text()
    assert text.count("    p2.deck: [3C, 4D, 5S, 6H]\n") == 1
    path.write_text(text.replace("    p2.deck: [3C, 4D, 5S, 6H]\n", "    1: [3C, 4D, 5S, 6H]\n"))
    report = run_check(root)
    (error,) = report.diagnostics.errors
    assert (Path(error.path).name, error.line, error.col) == ("04-losing-the-war.yaml", 9, 8)
    assert error.message.startswith("example 'winning-the-battle-losing-the-war': unknown "
                                    "pile '1' (this game has: ")
