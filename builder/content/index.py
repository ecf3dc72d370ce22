"""Stage 1, the content folder as a whole: ``index.yaml`` (the games in order, the
introduction to War, ``book:``), which folders are games, the limit on their number, and
the content's own templates (compiled before any build). Each game's folder is read by
:class:`.game.GameReader`, ``book:`` by :class:`.book.BookReader`.
"""

from __future__ import annotations

from typing import Any

from .. import limits
from ..diagnostics import Located, describe
from ..model import Book, Content, Words
from ..yamlsrc import LocDict, LocList
from . import fields
from .base import ID_RE, or_default
from .book import BookReader
from .game import GameReader
from .markdown import ProseReader

#: how a game's file is misspelt (a folder holding one of these is no game, silently)
GAME_FILE_SPELLINGS = {"game.yaml", "game.yml", "game.yaml.txt", "games.yaml"}


#: the keys of index.yaml's ``words:`` and their longest length, in characters
WORDS = {"lead": 300, "intro_title": 80, "compare_title": 80, "compare_note": 300}


class IndexReader(ProseReader):
    """Reads a whole content folder into the :class:`Content` model."""

    def read(self) -> Content:
        index_path = self.root / "index.yaml"
        order: list[str] = []
        intro = ""
        book = Book()
        words = Words()
        games: Any = None
        if index_path.exists() or index_path.is_symlink():
            idx = self.yaml(index_path)
            if isinstance(idx, LocDict):
                self.unknown_keys(idx, {"games", "intro", "book", "words"}, "index.yaml")
                book = BookReader(self.root, self.diags).read(idx)
                games = or_default(idx, "games", LocList())
                if not isinstance(games, LocList):
                    self.diags.error(idx.at("games"), f"games must be a list of game folder "
                                     f"names, such as [war, peace], got {describe(games)}")
                    games = LocList()
                for i, slug in enumerate(games):
                    if not isinstance(slug, str) or not ID_RE.match(slug):
                        self.diags.error(games.at(i), f"games: {describe(slug)} is not a game "
                                         f"folder's name (lower-case letters, digits and "
                                         f"hyphens)")
                        continue
                    order.append(slug)
                    game_file = self.root / slug / "game.yaml"
                    if not game_file.exists() and not game_file.is_symlink():
                        self.diags.error(games.at(i), f"no game folder '{slug}' with a game.yaml")
                intro = self.text(idx, "intro", "index.yaml")
                if intro:
                    self.check_markdown(intro, idx.at("intro"))
                if "words" in idx:
                    words = self.words(idx)
            elif idx is not None:
                self.diags.error(Located(self.show(index_path), 1), "index.yaml must be a mapping")
        self.wrong_kinds()
        found = sorted(p.parent.name for p in self.root.glob("*/game.yaml"))
        if not found and not self.diags.errors:
            self.diags.error(Located(self.show(self.root), 0, 0),
                             "no games here (expected <slug>/game.yaml folders)")
        slugs = [s for s in order if s in found] + [s for s in found if s not in order]
        if len(slugs) > limits.MAX_GAMES:
            extra = slugs[limits.MAX_GAMES]
            where = (games.at(games.index(extra)) if isinstance(games, LocList) and extra in games
                     else Located(self.show(self.root / extra / "game.yaml"), 1))
            self.diags.error(where, limits.over("the content folder", len(slugs),
                                                limits.MAX_GAMES, "games per content folder")
                             + f"; '{extra}' is the first game past it")
            slugs = slugs[:limits.MAX_GAMES]
        games = []
        reader = GameReader(self.root, self.diags)
        for slug in slugs:
            g = reader.read(self.root / slug)
            if g is not None:
                games.append(g)
        from ..sandbox import check_templates

        check_templates(self.root, self.diags)  # templates/: read and compiled before any build
        return Content(root=str(self.root), games=games, intro=intro, book=book, words=words)

    def words(self, idx: LocDict) -> Words:
        """index.yaml's ``words:``: the lines the templates print around the games (each
        one line of text; a key left out keeps its neutral default)."""
        given = idx["words"]
        if not isinstance(given, LocDict):
            self.diags.error(idx.at("words"), f"words must be a mapping ({', '.join(WORDS)} "
                             f"to one line of text each), got {describe(given)}")
            return Words()
        self.unknown_keys(given, WORDS, "words")
        found = {}
        for key, limit in WORDS.items():
            if key in given:
                value = self.field(given, key, fields.line(limit, "on the home page"),
                                   f"words.{key}")
                if value is not None and self.visible_name(value, given.at(key),
                                                           f"words.{key}"):
                    found[key] = value
        return Words(**found)

    def wrong_kinds(self) -> None:
        """A file where the content folder expects a folder (``templates``, a game's folder
        holding only a misnamed game file) is an error, not a silent loss."""
        templates = self.root / "templates"
        if (templates.exists() or templates.is_symlink()) and not templates.is_dir():
            self.diags.error(Located(self.show(templates), 1),
                             "'templates' must be a folder (of template overrides), not a file")
        try:
            subs = sorted(p for p in self.root.iterdir() if not p.name.startswith("."))
        except OSError:
            return                      # the games' own files say what cannot be read
        for sub in subs:
            game_file = sub / "game.yaml"
            if sub.is_dir() and game_file.is_symlink() and not game_file.exists():
                self.text_file(game_file)  # a link loop, or a link to nothing: said at the link
                continue
            if not sub.is_dir() or game_file.exists() or game_file.is_symlink():
                continue
            try:
                near = [p.name for p in sub.iterdir() if p.name.lower() in GAME_FILE_SPELLINGS]
            except OSError:
                continue
            if near:
                self.diags.error(Located(self.show(sub / near[0]), 1),
                                 f"a game's file must be named 'game.yaml', not '{near[0]}' "
                                 f"(without it the folder is not a game)")

