"""The reference engine: the shared core (:mod:`.core`: states, decisions, chance, events,
bots) and one module per shipped game, each ending in ``GAME = GameDef(...)``.

Engines are found, not listed (:mod:`.registry`): a game folder's own ``engine.py``, or an
engine an installed package registers under the ``warbook.engines`` entry-point group, as
warbook's own games do in ``pyproject.toml``.
"""

from __future__ import annotations

from .core import GameDef
from .registry import EngineError, available_engines, find_engine, registered_engines

__all__ = ["GameDef", "EngineError", "available_engines", "find_engine", "registered_engines"]
