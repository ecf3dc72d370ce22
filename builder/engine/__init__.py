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


def _load() -> dict[str, GameDef]:
    games = {}
    for slug, mod in _MODULES.items():
        try:
            module = importlib.import_module(f".{mod}", __name__)
        except ModuleNotFoundError as e:  # a game still being written
            if e.name and e.name.endswith(mod):
                continue
            raise
        games[slug] = module.GAME
    return games


GAMES: dict[str, GameDef] = _load()

__all__ = ["GAMES", "GameDef"]
