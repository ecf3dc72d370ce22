"""One documented engine API (issue 24, item 4): ``builder.engine`` exports exactly what
``docs/writing-an-engine.md`` documents; a game is made complete in one call; an engine
written the old way (hooks set after the game is made) keeps working, with a warning; art
hooks get a declared drawing interface, not the renderer."""

from __future__ import annotations

import ast
import inspect
import re
import types
import warnings
from pathlib import Path

import pytest

import builder.engine as api
from builder.engine import GameDef
from builder.engine.drawing import Drawing, Ink
from builder.engine.registry import registered_engines

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "writing-an-engine.md"


def documented_names() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    reference = text.split("\n## Reference\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([A-Za-z_]+)` \|", reference, flags=re.M)


def test_the_public_module_exports_exactly_what_the_guide_documents():
    documented = documented_names()
    assert len(documented) == len(set(documented)), "a name is documented twice"
    assert sorted(api.__all__) == sorted(documented)
    for name in api.__all__:
        assert hasattr(api, name), name


def test_the_public_module_has_no_undocumented_public_name():
    public = {n for n, v in vars(api).items()
              if not n.startswith("_") and not isinstance(v, types.ModuleType)
              and n != "annotations"}
    assert public == set(api.__all__), sorted(public ^ set(api.__all__))


def test_a_name_added_without_its_line_in_the_guide_is_caught(monkeypatch):
    """The test above can fail: a name exported but not documented breaks it."""
    monkeypatch.setattr(api, "__all__", [*api.__all__, "play_one_more"], raising=True)
    assert sorted(api.__all__) != sorted(documented_names())


@pytest.mark.parametrize("slug", sorted(registered_engines()))
def test_no_shipped_engine_changes_its_game_after_making_it(slug):
    """``GAME = GameDef(...)`` is the only statement that touches GAME at the top level
    of a shipped engine (no ``GAME.describe = ...``, ``GAME.art.update``,
    ``XState.game = GAME``)."""
    module = inspect.getmodule(registered_engines()[slug].new_game)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "GAME"
                                                for t in node.targets):
            continue
        touched = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == "GAME"
                   and not isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        assert not touched, f"{module.__file__}:{node.lineno} touches GAME after making it"
    assert registered_engines()[slug].__dict__.get("_made")


def small_game(**hooks) -> GameDef:
    from builder.engine import war
    kw = {f: getattr(war.GAME, f) for f in ("slug", "title", "options", "rule_ids",
                                            "event_kinds", "view_keys", "new_game",
                                            "from_setup", "heuristic", "max_steps")}
    return GameDef(**{**kw, **hooks})


@pytest.mark.parametrize("hooks, says", [
    ({"describe": "the table"}, "GameDef describe= must be a function, not str (or None)"),
    ({"heuristic": None}, "GameDef heuristic= must be a function, not NoneType"),
    ({"options": {"wins": 3}}, "GameDef options['wins'] must be an Option, not int"),
    ({"option_sets": {}}, "GameDef option_sets= must be a list, not dict"),
    ({"rule_ids": ["a"]}, "GameDef rule_ids= must be a frozenset of rule ids, not list"),
    ({"art": {"mat": "<svg/>"}}, "GameDef art['mat'] must be a function of the art context"),
    ({"mark_kinds": {"won": "mine"}}, "GameDef mark_kinds= redefines the shared mark kind 'won'"),
    ({"mark_kinds": {"moved": "mine"}}, "GameDef mark_kinds= redefines the shared mark kind "
                                        "'moved'"),
])
def test_a_hook_of_the_wrong_kind_is_refused_when_the_game_is_made(hooks, says):
    with pytest.raises(TypeError) as e:
        small_game(**hooks)
    assert says in str(e.value)


def test_an_engine_written_the_old_way_keeps_working_with_a_warning():
    game = small_game()

    def describe(view, options):
        return [("", "old")]

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        game.describe = describe
        game.art["mat"] = lambda ctx: "<g/>"
        game.art_params.update({"mat": {"label": "text"}})
    assert game.describe is describe and "mat" in game.art and "mat" in game.art_params
    said = [str(w.message) for w in caught]
    assert [w.category for w in caught] == [FutureWarning] * 3
    assert said[0].startswith("setting GameDef.describe after the game is made is deprecated")
    assert all(w.filename == __file__ for w in caught), [w.filename for w in caught]


def test_an_old_engine_that_imports_from_the_core_still_loads(tmp_path):
    """The names engines imported from ``builder.engine.core`` before the public module
    are all still there."""
    from builder.engine import core
    for name in api.__all__:
        if name not in ("ArtContext", "Drawing", "Ink", "count", "joined", "a_rank",
                        "winner_reveal", "trick_marks", "won_in_place", "Deck", "DeckCard",
                        "FRENCH"):  # new since: never in the core
            assert getattr(core, name) is getattr(api, name), name


def protocol_members(proto) -> set[str]:
    return {n for n in vars(proto) if not n.startswith("_")} | set(
        getattr(proto, "__annotations__", {}))


def test_the_renderer_gives_an_art_hook_exactly_the_declared_drawing_interface():
    from builder.render.pnp import art
    from builder.render.pnp.kinds import MAT_DRAW
    declared = protocol_members(Drawing)
    given = {n for n in dir(MAT_DRAW) if not n.startswith("_")}
    assert given == declared, sorted(given ^ declared)
    for name in declared:
        ours = getattr(MAT_DRAW, name)
        if callable(ours):   # the same arguments, by name and order
            want = [p for p in inspect.signature(getattr(Drawing, name)).parameters
                    if p != "self"]
            assert list(inspect.signature(ours).parameters) == want, name
    ink = art.Ink("low")
    for name in protocol_members(Ink):
        assert hasattr(ink, name), name
