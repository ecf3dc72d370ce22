"""warbook: card-game rules proven by replay and rendered for print and the web."""

__version__ = "0.1.0"
