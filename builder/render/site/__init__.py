"""The static rules website (``pages``): a page per game with step-through examples, a
home page and offline search, written into ``site/`` of the staging folder."""
