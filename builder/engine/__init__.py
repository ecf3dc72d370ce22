"""The reference engine: one module per game over the shared core in :mod:`.core`.

``GAMES`` maps an engine name (the ``engine:`` of a game's ``game.yaml``) to its
:class:`~builder.engine.core.GameDef`.
"""

from __future__ import annotations

import importlib

from .core import GameDef

_MODULES = {
    "war": "war",
    "winning-the-battle": "winning_the_battle",
    "battle-lines": "battle_lines",
    "deck-management": "deck_management",
    "battle": "battle",
    "ultimate": "ultimate",
}


#: engine name -> the error that stopped its module from loading (should stay empty; a test
#: checks it). One broken game must not stop the others from being checked.
ENGINE_ERRORS: dict[str, str] = {}


def _load() -> dict[str, GameDef]:
    games = {}
    for slug, mod in _MODULES.items():
        try:
            module = importlib.import_module(f".{mod}", __name__)
        except Exception as e:  # noqa: BLE001 - reported, not swallowed
            ENGINE_ERRORS[slug] = f"{type(e).__name__}: {e}"
            continue
        games[slug] = module.GAME
    return games


GAMES: dict[str, GameDef] = _load()

__all__ = ["GAMES", "ENGINE_ERRORS", "GameDef"]
