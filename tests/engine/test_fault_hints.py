"""A misspelt attribute or name in a designer's engine: the located error carries the
hint Python's own traceback gives ("did you mean"), which Python 3.11 prints only in the
traceback, never in the message warbook shows."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from builder import faults

ENGINE = '''\
class PipsState:
    def __init__(self):
        self.current_player = "p1"
        self.stock = []

    def whose_turn(self):
        return self.current_player_name

    def draw(self):
        return len(self.stok)

    def count(self):
        total = 0
        return totl

    def missing(self):
        return self.zebra

    def none_attribute(self):
        return None.anything
'''


@pytest.fixture
def state(tmp_path: Path, monkeypatch):
    path = tmp_path / "engine.py"
    path.write_text(ENGINE)
    # this test's file alone is a game's code, and only while it runs
    monkeypatch.setattr(faults, "_GAME_CODE", set())
    faults.add_game_code(path)
    spec = importlib.util.spec_from_file_location("pips_engine_for_hints", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PipsState()


def said(call) -> str:
    with pytest.raises(Exception) as caught:
        call()
    fault = faults.from_exception(caught.value)
    assert fault is not None
    return fault.message


def test_a_misspelt_attribute_is_said_with_the_name_meant(state):
    assert said(state.whose_turn) == ("AttributeError: 'PipsState' object has no attribute "
                                      "'current_player_name'; did you mean 'current_player'? "
                                      "in whose_turn()")
    assert said(state.draw).endswith("no attribute 'stok'; did you mean 'stock'? in draw()")


def test_a_misspelt_local_name_is_said_with_the_name_meant(state):
    assert said(state.count) == ("NameError: name 'totl' is not defined; did you mean 'total'? "
                                 "in count()")


def test_no_hint_where_nothing_is_close(state):
    assert said(state.missing) == "AttributeError: 'PipsState' object has no attribute 'zebra' in missing()"
    assert "did you mean" not in said(state.none_attribute)


def test_the_conformance_kit_says_the_name_meant_too():
    """The kit's own breach (an engine's fault while it plays its seeded games, which
    ``warbook check`` prints) carries the same hint: a designer's ``state.nod()`` at first
    said only "no attribute 'nod'"."""
    from builder import testing

    class State:
        def node(self):
            return None

    class Game:
        supply = None

        def resolve(self, options):
            return options

        def new_game(self, options, rng):
            return State().nod()

    _log, breach = testing.play(Game(), {}, seed=1)
    assert breach is not None and breach.kind == "fault"
    assert breach.message == ("AttributeError: 'State' object has no attribute 'nod'; "
                              "did you mean 'node'?")
