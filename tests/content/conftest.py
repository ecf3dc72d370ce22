"""Fixtures of the content stage's tests.

``content``: High Five (tests/helpers.py) written into a fresh folder that is the working
folder, so that messages show its files as ``content/high-five/game.yaml``.
"""

from helpers import content  # noqa: F401 - the fixture, offered to every test of this folder
