"""Stage 1: load the content folder into the validated model.

Layout of a content folder::

    index.yaml              games in order, and the introduction to War
    <slug>/game.yaml        metadata, options, comparison row, quick reference
    <slug>/rules.md         numbered rules: '#' 1., '##' 1.1, '###' 1.1.1, each '{#id}'
    <slug>/glossary.yaml    terms and definitions
    <slug>/examples/*.yaml  worked examples (one per file)

Every problem found is collected as a :class:`Diagnostic` with file, line and column; the
loader goes on after an error so that one run reports them all.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, Diagnostics, Located, describe, suggest
from .engine.core import CardError, parse_cards
from .engine.registry import ENGINE_FILE, EngineError, available_engines, find_engine
from .balance import BalanceReader
from .kit import KitReader
from . import limits
from .links import LINK_SCHEMES, safe_href
from .names import name_problem
from .model import Book, Content, Example, Game, OptionInfo, Positions, Rule, Step, Term
from .contentpath import Refused, resolve
from .yamlsrc import LocDict, LocList, Source, load_yaml, located_paths, plain_data, read_text

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# Every pattern below runs in time linear in the line (no two unbounded parts that can
# trade characters): bench/textpasses.py feeds each a 1 MB pathological line.
HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(\S.*)$")
XREF_RE = re.compile(r"\[\[([^\[\]]*)\]\]")
# Raw HTML in Markdown: an opening, closing or self-closing tag, a comment or a
# processing instruction. Content is data: it may not carry markup of its own.
HTML_RE = re.compile(r"(?<!\\)<(?:/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?|!--|\?|!\[CDATA\[|![A-Za-z])[^<>]*>?")
CODE_SPAN_RE = re.compile(r"`[^`]*`")
#: a Markdown link's target: inline ``[text](target)`` or a reference ``[id]: target``
LINK_RE = re.compile(r"\]\(\s*<?([^)>\s]*)|^\s{0,3}\[[^\]]+\]:\s*<?([^>\s]+)")
IMAGE_RE = re.compile(r"!\[[^\[\]]*\][ \t]*[(\[]")

STEP_KEYS = {"decide", "chance", "expect", "comment", "repeat"}
EXAMPLE_KEYS = {"id", "title", "rules", "options", "setup", "steps", "intro", "outro", "draft"}
GAME_KEYS = {
    "slug", "title", "engine", "designer", "credit", "tagline", "summary", "players",
    "time", "components", "options", "compare", "quickref", "accent", "player_colours",
    "cover_cards", "kit", "balance",
}
BOOK_KEYS = {"title", "subtitle", "credits", "accent", "paper", "logo", "fonts"}
#: the two typefaces' faces a project may give (role -> face -> the shipped file it
#: replaces), and which face stands in for one not given
FONT_FACES = {
    "text": {"regular": "EBGaramond12-Regular.otf", "italic": "EBGaramond12-Italic.otf",
             "bold": "EBGaramond12-Bold.otf"},
    "headings": {"regular": "Cabin-Regular.otf", "italic": "Cabin-Italic.otf",
                 "medium": "Cabin-Medium.otf", "semibold": "Cabin-SemiBold.otf",
                 "bold": "Cabin-Bold.otf", "bold-italic": "Cabin-BoldItalic.otf"},
}
FONT_STAND_IN = {"italic": "regular", "bold": "regular", "medium": "regular",
                 "semibold": "bold", "bold-italic": "bold"}
FONT_TYPES = (".otf", ".ttf")
LOGO_TYPES = (".svg", ".png")
LOGO_MAX_BYTES = 2 * 1024 * 1024
PAPERS = ("a4", "letter")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
#: a game's colour where game.yaml gives none: a neutral warm grey
DEFAULT_ACCENT = "#5b554e"
#: the cards on a rulebook's cover where game.yaml names none
DEFAULT_COVER_CARDS = ("AS", "KH", "QC", "JD")
COMPARE_KEYS = ("players", "deck", "choices", "win", "length")
#: the most players a game may name (a table, not a stadium)
MAX_PLAYERS = 12
#: the most copies of one component a game may list
MAX_COMPONENT_COUNT = 999
PLAYER_ID_RE = re.compile(r"^p([1-9][0-9]?)$")
# What the Markdown renderer (Python-Markdown) is given is bounded here, because some of
# its passes take time growing with the square of a paragraph's '[' or length, and it
# recurses once per nested list or quote marker: a paragraph (text between blank lines)
# holds at most MAX_PARAGRAPH characters and MAX_BRACKETS '[', and a line opens at most
# MAX_MARKERS nested list or quote markers. The shipped content stays far below (its
# longest paragraph is 548 characters, its most '[' in one paragraph 8).
MAX_PARAGRAPH = 4_000
MAX_BRACKETS = 100
MAX_MARKERS = 8
MARKER_RE = re.compile(r"[ \t]*(?:[-*+>]|[0-9]{1,9}[.)])(?=[ \t]|$)")
MAX_TERM = 80
#: how a game's file is misspelt (a folder holding one of these is no game, silently)
GAME_FILE_SPELLINGS = {"game.yaml", "game.yml", "game.yaml.txt", "games.yaml"}


def heading_id(title: str) -> tuple[str, str] | None:
    """A heading's text split into (title, id) when it ends in ``{#id}``; None otherwise.
    Done with string methods, so a line of any length takes linear time."""
    text = title.rstrip()
    if not text.endswith("}"):
        return None
    start = text.rfind("{#")
    if start < 0:
        return None
    rid = text[start + 2:-1]
    if "}" in rid or any(c.isspace() for c in rid):
        return None
    return text[:start].rstrip(), rid


def rel(path: Path, root: Path) -> str:
    """A path as shown in messages: relative to the working folder when possible."""
    try:  # the path as written (a link is shown as the link, not where it leads)
        return str(Path(os.path.abspath(path)).relative_to(os.path.abspath(Path.cwd())))
    except ValueError:
        pass
    try:
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a link loop
        return str(path)


class Loader:
    def __init__(self, root: Path, diags: Diagnostics):
        self.root = root
        self.diags = diags
        #: the diagrams of the games loaded so far (the compendium's, MAX_DIAGRAMS_ALL)
        self.diagrams_all = 0

    # ------------------------------------------------------------------ helpers
    def show(self, path: Path) -> str:
        return rel(path, self.root)

    def yaml(self, path: Path) -> Any:
        """A content YAML file's data; None after a located error (an empty file is one)."""
        shown = self.show(path)
        try:
            data = load_yaml(path, shown, root=self.root)
        except Diagnostic as d:
            self.diags.append(d)
            return None
        if data is None:
            self.diags.error(Located(shown, 1, 1), "the file is empty (or holds only comments)")
        return data

    def text_file(self, path: Path) -> str | None:
        """A content text file's text; None after a located error."""
        try:
            return read_text(path, self.show(path), root=self.root)
        except Diagnostic as d:
            self.diags.append(d)
            return None

    def require(self, data: LocDict, key: str, kind: type | tuple, what: str) -> Any:
        if key not in data:
            self.diags.error(Located(data.path, data.line, data.col), f"{what}: '{key}' is missing")
            return None
        value = data[key]
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.diags.error(data.at(key), f"{what}: '{key}' must be {_kind_word(names)}, "
                             f"got {describe(value)}")
            return None
        return value

    def text(self, data: LocDict, key: str, what: str) -> str:
        """An optional text field (a number is taken as its text): '' when absent, or after
        a located error when it is a list, mapping or true/false."""
        value = data.get(key)
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.diags.error(data.at(key), f"{what}: '{key}' must be text, got "
                             f"{describe(value)}; quote a text that contains ': '")
            return ""
        return str(value)

    def visible_name(self, value: str, where: Located, what: str) -> bool:
        """Whether a name or title can be seen (see builder/names.py); False after a located
        error naming ``what``."""
        problem = name_problem(value)
        if problem:
            self.diags.error(where, f"{what} {problem}")
        return not problem

    def unknown_keys(self, data: LocDict, allowed: set[str], what: str) -> None:
        for k in data:
            if k not in allowed:
                line, col = data.key_pos(k)
                close = difflib.get_close_matches(str(k), sorted(allowed), n=1)
                self.diags.error(Located(data.path, line, col),
                                 f"{what}: unknown key '{k}' (allowed: {', '.join(sorted(allowed))})"
                                 + (f"; did you mean '{close[0]}'?" if close else ""))

    @staticmethod
    def place(where: Located, col: int) -> Located:
        """The position of column ``col`` (1-based) of a line whose start is ``where``; when
        ``where`` carries a YAML text value's span (``where.span``, with ``where.col`` the
        line's offset in the value), the file's own line and column of that character."""
        span = getattr(where, "span", None)
        if span is not None:
            value, offset = span
            found = value[0].locate(value[1], offset + col - 1)
            if found is not None:
                return Located(where.path, *found)
            return Located(where.path, where.line, 1)
        return Located(where.path, where.line, col)

    def check_links(self, line: str, where: Located) -> None:
        """Refuse pictures, and links anywhere but http, https, mailto or within the site,
        on one line of Markdown (code spans already blanked out)."""
        pictures = []
        for m in IMAGE_RE.finditer(line):
            pictures.append(m.end())
            self.diags.error(self.place(where, m.start() + 1),
                             "pictures are not allowed in content text (a picture's address "
                             "would be fetched by the build and by readers' browsers)")
        for m in LINK_RE.finditer(line):
            if m.end(0) in pictures or any(m.start() < end <= m.end() for end in pictures):
                continue  # the picture's own address: already refused above
            group = 1 if m.group(1) is not None else 2
            target = m.group(group)
            if not safe_href(target):
                self.diags.error(self.place(where, m.start(group) + 1),
                                 f"a link to '{target[:40]}' is not allowed: links may go to "
                                 f"{', '.join(LINK_SCHEMES)} addresses or within the site")

    def check_markdown(self, text: str, where: Located, first_line: int | None = None) -> None:
        """Refuse raw HTML. ``where`` is the position of the YAML value (or, with
        ``first_line``, the line the text starts on)."""
        start = first_line if first_line is not None else text_start(text, where)
        if not self.within_budget(text, where, start):
            return
        for i, offset, line in self.text_lines(text, where):
            scrubbed = CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), line)
            here = self.line_at(where, start + i, text, offset)
            self.check_links(scrubbed, here)
            m = HTML_RE.search(scrubbed)
            if m:
                self.diags.error(
                    self.place(here, m.start() + 1),
                    f"raw HTML is not allowed in content ('{m.group()[:30]}'); "
                    f"write Markdown, or escape the '<' as '\\<'",
                )

    def within_budget(self, text: str, where: Located, start: int) -> bool:
        """Whether a Markdown text is small enough for the renderer (see MAX_PARAGRAPH);
        False after a located error at the first paragraph or line over a bound."""
        para_start, length, brackets = 0, 0, 0
        lines = list(self.text_lines(text, where))
        for i, offset, line in lines + [(len(lines), len(text) + 1, "")]:
            if line.strip():
                if not length:
                    para_start, para_offset = i, offset
                length += len(line) + 1
                brackets += line.count("[")
                markers, pos = 0, 0
                while markers <= MAX_MARKERS and (m := MARKER_RE.match(line, pos)):
                    markers, pos = markers + 1, m.end()
                if markers > MAX_MARKERS:
                    self.diags.error(self.place(self.line_at(where, start + i, text, offset), 1),
                                     f"more than {MAX_MARKERS} list or quote markers open on one "
                                     f"line; nest lists at most {MAX_MARKERS} deep")
                    return False
                continue
            if length > MAX_PARAGRAPH or brackets > MAX_BRACKETS:
                what = (f"{length - 1:,} characters long (at most {MAX_PARAGRAPH:,})"
                        if length > MAX_PARAGRAPH else
                        f"{brackets:,} '[' (at most {MAX_BRACKETS})")
                self.diags.error(self.place(self.line_at(where, start + para_start, text,
                                                         para_offset), 1),
                                 f"this paragraph is too large for the rulebook's Markdown: "
                                 f"{what}; split it with blank lines")
                return False
            length, brackets = 0, 0
        return True

    @staticmethod
    def text_lines(text: str, where: Located):
        """(index, offset in ``text``, line) of each line of a text."""
        offset = 0
        for i, line in enumerate(text.split("\n")):
            yield i, offset, line
            offset += len(line) + 1

    @staticmethod
    def line_at(where: Located, line: int, text: str, offset: int) -> Located:
        """Where a line of a text starts: in rules.md its line; in a YAML text value (whose
        ``where`` carries a span) the span, the value and the line's offset in it."""
        span = getattr(where, "span", None)
        if span is None:
            return Located(where.path, line, 1)
        return Located(where.path, line, 1, span=((span, text), offset))

    # ------------------------------------------------------------------ content
    def load_book(self, idx: LocDict) -> Book:
        """index.yaml's ``book:``: the look of the whole project (title, subtitle, credits,
        colour, paper). Everything is optional; what is left out keeps a neutral default."""
        data = idx.get("book")
        if data is None:
            return Book()
        if not isinstance(data, LocDict):
            self.diags.error(idx.at("book"), "book must be a mapping (title, subtitle, credits, "
                             "accent, paper, logo, fonts)")
            return Book()
        self.unknown_keys(data, BOOK_KEYS, "index.yaml book")
        out = Book()
        for key in ("title", "subtitle", "credits"):
            if key in data:
                value = data[key]
                if not isinstance(value, str) or not value.strip():
                    self.diags.error(data.at(key), f"book.{key} must be some text, got {describe(value)}")
                elif self.visible_name(value, data.at(key), f"book.{key}"):
                    setattr(out, key, " ".join(value.split()))
        if "accent" in data:
            out.accent = self.colour(data, "accent", "book.accent") or out.accent
        if "paper" in data:
            if data["paper"] not in PAPERS:
                close = difflib.get_close_matches(str(data["paper"]), PAPERS, n=1)
                self.diags.error(data.at("paper"), f"book.paper must be one of "
                                 f"{', '.join(PAPERS)}, got {describe(data['paper'])}"
                                 + (f"; did you mean '{close[0]}'?" if close else ""))
            else:
                out.paper = data["paper"]
        if "logo" in data:
            out.logo = self.logo_file(data)
        if "fonts" in data:
            out.fonts = self.font_files(data)
        return out

    def content_file(self, data: LocDict, key: Any, what: str, types: tuple[str, ...]):
        """A file named by ``data[key]``, inside the content folder and of one of ``types``;
        its resolved path, or None after a located error."""
        value = data[key]
        where = data.at(key)
        if not isinstance(value, str) or not value.strip():
            self.diags.error(where, f"{what} must be the path of a file in the content folder, "
                             f"got {describe(value)}")
            return None
        try:  # the one resolver: a link may stay inside the folder, never lead out of it
            real = resolve(self.root, self.root / value, where.path, kind="plain files")
        except Refused as e:
            if e.reason == "missing":
                self.diags.error(where, f"{what}: no file '{value}' in the content folder")
            elif e.reason == "outside":
                self.diags.error(where, f"{what}: '{value}' is outside the content folder "
                                 f"(or a link); put the file inside it")
            else:
                self.diags.error(where, f"{what}: '{value}': {e.message}")
            return None
        if not real.is_file() or real.suffix.lower() not in types:
            self.diags.error(where, f"{what}: '{value}' must be a {' or '.join(types)} file")
            return None
        return real

    def font_files(self, data: LocDict) -> dict[str, str]:
        """``book.fonts``: for each role (``text``, ``headings``) the font files of its
        faces (``regular`` required; a face left out takes the nearest one given). Returns
        the shipped face file name -> the content's font file."""
        fonts = data["fonts"]
        if not isinstance(fonts, LocDict):
            self.diags.error(data.at("fonts"), "book.fonts must map text and headings to their "
                             "font files")
            return {}
        self.unknown_keys(fonts, set(FONT_FACES), "book.fonts")
        out: dict[str, str] = {}
        for role, faces in FONT_FACES.items():
            given = fonts.get(role)
            if given is None:
                continue
            if isinstance(given, LocDict) and set(given) == {"family"}:
                found_family = self.installed_family(given, role, faces)
                if found_family:
                    for face, shipped in faces.items():
                        pick = face
                        while pick not in found_family:
                            pick = FONT_STAND_IN.get(pick, "regular")
                        out[shipped] = str(found_family[pick])
                continue
            if not isinstance(given, LocDict) or "regular" not in given:
                self.diags.error(fonts.at(role), f"book.fonts.{role} must map faces (regular, "
                                 f"{', '.join(f for f in faces if f != 'regular')}) to font "
                                 f"files, regular at least")
                continue
            self.unknown_keys(given, set(faces), f"book.fonts.{role}")
            found: dict[str, Path] = {}
            for face in given:
                if face in faces:
                    path = self.content_file(given, face, f"book.fonts.{role}.{face}", FONT_TYPES)
                    if path is not None and self.is_font(path, given.at(face)):
                        found[face] = path
            if "regular" not in found:
                continue
            for face, shipped in faces.items():
                pick = face
                while pick not in found:
                    pick = FONT_STAND_IN.get(pick, "regular")
                out[shipped] = str(found[pick])
        return out

    def installed_family(self, given: LocDict, role: str, faces: dict) -> dict[str, Path]:
        """``{family: NAME}``: the faces of a font family installed on the machine (in the
        system's font folders), matched by the fonts' own family and style names."""
        name = given["family"]
        where = given.at("family")
        if not isinstance(name, str) or not name.strip():
            self.diags.error(where, f"book.fonts.{role}.family must be a font family's name, "
                             f"got {describe(name)}")
            return {}
        families = installed_fonts()
        found = families.get(name.strip().lower())
        if not found or "regular" not in found:
            close = difflib.get_close_matches(name.strip().lower(), list(families), n=1)
            self.diags.error(where, f"book.fonts.{role}: no installed font family '{name}' with "
                             f"a regular face" + (f"; did you mean '{families[close[0]]['_name']}'?"
                                                  if close else "")
                             + " (or give font files inside the content folder)")
            return {}
        return {face: path for face, path in found.items() if face in faces}

    def is_font(self, path: Path, where: Located) -> bool:
        """Whether a content font file is whole: at most MAX_FONT_BYTES, every table
        fontTools knows read (glyf/loca or CFF, hmtx, name, OS/2, ...), every glyph's outline
        drawn, and the letters the books need present. A corrupt table is an error here, at
        the ``book.fonts`` line, not a crash of the build's typesetting."""
        try:
            size = path.stat().st_size
        except OSError as e:
            self.diags.error(where, f"'{path.name}' cannot be read: {e.strerror or e}")
            return False
        if size > limits.MAX_FONT_BYTES:
            self.diags.error(where, limits.over(f"'{path.name}'", size, limits.MAX_FONT_BYTES,
                                                "bytes per font file"))
            return False
        problem = font_problem(path)
        if problem.startswith("lacks "):
            self.diags.error(where, f"'{path.name}' {problem}")
            return False
        if problem:
            self.diags.error(where, f"'{path.name}' is not a font file fontTools can read "
                             f"({problem})")
            return False
        return True

    def logo_file(self, data: LocDict) -> str | None:
        """``book.logo``: an SVG or PNG file inside the content folder (no link out of it)."""
        real = self.content_file(data, "logo", "book.logo", LOGO_TYPES)
        if real is None:
            return None
        value = data["logo"]
        where = data.at("logo")
        if real.stat().st_size > LOGO_MAX_BYTES:
            self.diags.error(where, f"book.logo: '{value}' is larger than 2 MB")
            return None
        if real.suffix.lower() == ".svg":
            problem = unsafe_svg(real.read_bytes())
            if problem:
                self.diags.error(where, f"book.logo: '{value}' {problem}; a logo may hold only "
                                 f"drawing (no scripts, event handlers or outside links)")
                return None
        return str(real)

    def load(self) -> Content:
        index_path = self.root / "index.yaml"
        order: list[str] = []
        intro = ""
        book = Book()
        games: Any = None
        if index_path.exists() or index_path.is_symlink():
            idx = self.yaml(index_path)
            if isinstance(idx, LocDict):
                self.unknown_keys(idx, {"games", "intro", "book"}, "index.yaml")
                book = self.load_book(idx)
                games = _given(idx, "games", LocList())
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
            elif idx is not None:
                self.diags.error(Located(self.show(index_path), 1, 1), "index.yaml must be a mapping")
        self.wrong_kinds()
        found = sorted(p.parent.name for p in self.root.glob("*/game.yaml"))
        if not found and not self.diags.errors:
            self.diags.error(Located(self.show(self.root), 0, 0),
                             "no games here (expected <slug>/game.yaml folders)")
        slugs = [s for s in order if s in found] + [s for s in found if s not in order]
        if len(slugs) > limits.MAX_GAMES:
            extra = slugs[limits.MAX_GAMES]
            where = (games.at(games.index(extra)) if isinstance(games, LocList) and extra in games
                     else Located(self.show(self.root / extra / "game.yaml"), 1, 1))
            self.diags.error(where, limits.over("the content folder", len(slugs),
                                                limits.MAX_GAMES, "games per content folder")
                             + f"; '{extra}' is the first game past it")
            slugs = slugs[:limits.MAX_GAMES]
        games = []
        for slug in slugs:
            g = self.load_game(self.root / slug)
            if g is not None:
                games.append(g)
        from .sandbox import check_templates

        check_templates(self.root, self.diags)  # templates/: read and compiled before any build
        return Content(root=str(self.root), games=games, intro=intro, book=book)

    def wrong_kinds(self) -> None:
        """A file where the content folder expects a folder (``templates``, a game's folder
        holding only a misnamed game file) is an error, not a silent loss."""
        templates = self.root / "templates"
        if (templates.exists() or templates.is_symlink()) and not templates.is_dir():
            self.diags.error(Located(self.show(templates), 1, 1),
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
                self.diags.error(Located(self.show(sub / near[0]), 1, 1),
                                 f"a game's file must be named 'game.yaml', not '{near[0]}' "
                                 f"(without it the folder is not a game)")

    def resolve_engine(self, data: LocDict, folder: Path, where: Located):
        """The game's engine (the engine validates options and rules), or None with a
        located error: the folder's own engine.py first, then the installed engines."""
        has_file = (folder / ENGINE_FILE).is_file()
        if (folder / ENGINE_FILE).exists() and not has_file:
            self.diags.error(Located(self.show(folder / ENGINE_FILE), 1, 1),
                             f"{ENGINE_FILE} must be a file (the game's own engine), not a "
                             f"folder or device")
            return None
        name = data.get("engine")
        if name is None and not has_file:
            self.diags.error(where, "game.yaml has no 'engine:' (the engine that plays the "
                             "game, such as 'war'), and the folder has no engine.py",
                             detail=f"available engines: {', '.join(available_engines())}")
            return None
        if name is not None and not isinstance(name, str):
            self.diags.error(data.at("engine"), "engine must be a name, such as 'war'")
            return None
        try:
            return find_engine(name, folder)
        except EngineError as e:
            if e.path:
                self.diags.error(Located(self.show(Path(e.path)), e.line, 1), str(e))
            else:
                self.diags.error(data.at("engine") if name is not None else where, str(e))
            return None

    def load_options(self, data: LocDict, gamedef, engine: str):
        """game.yaml's ``options:``. An option given as a mapping (default, label, text) is a
        variant the players may choose and is printed in the rulebook; an option given as a
        plain value is a fixed setting of this game (Peace sets ``wins: lower`` on War's
        engine) and is not printed. Options left out keep the engine's default.
        Returns (printed options, fixed settings, the raw mapping)."""
        options: list[OptionInfo] = []
        settings: dict[str, Any] = {}
        opts = _given(data, "options", LocDict())
        if not isinstance(opts, dict):
            self.diags.error(data.at("options"), "options must be a mapping of option name to details")
            return options, settings, LocDict()
        for name, spec in opts.items():
            known = gamedef is None or name in gamedef.options
            if not known:
                close = difflib.get_close_matches(str(name), list(gamedef.options), n=1)
                self.diags.error(opts.at(name), f"the {engine} engine has no option '{name}' "
                                 f"(it has: {', '.join(gamedef.options) or 'none'})"
                                 + (f"; did you mean '{close[0]}'?" if close else ""))
            if not isinstance(spec, dict):
                if known and gamedef is not None:
                    msg = gamedef.options[name].check(spec)
                    if msg:
                        self.diags.error(opts.at(name), msg)
                settings[str(name)] = spec
                continue
            self.unknown_keys(spec, {"default", "label", "text"}, f"option '{name}'")
            default = spec.get("default")
            if known and gamedef is not None:
                msg = gamedef.options[name].check(default)
                if msg:
                    self.diags.error(spec.at("default"), msg)
            text = self.text(spec, "text", f"option '{name}'")
            self.check_markdown(text, spec.at("text"))
            label = self.text(spec, "label", f"option '{name}'") or str(name)
            if "label" in spec and not self.visible_name(label, spec.at("label"),
                                                         f"option '{name}': the label"):
                label = str(name)
            options.append(OptionInfo(name, default, label, text))
        return options, settings, opts

    def colour(self, data: LocDict, key: Any, what: str) -> str | None:
        value = data.get(key)
        if not isinstance(value, str) or not COLOUR_RE.match(value):
            self.diags.error(data.at(key), f"{what} must be a colour written #rrggbb "
                             f"(such as \"#7a4b1e\"), got {describe(value)}")
            return None
        return value.lower()

    def load_look(self, data: LocDict, names: dict[str, str]):
        """game.yaml's colours and cover: ``accent`` (the game's colour in every product),
        ``player_colours`` (player id -> colour, for mats and tokens) and ``cover_cards``
        (the cards drawn on the rulebook's cover). Returns (accent, player colours, cover
        cards), defaults filled in."""
        accent = DEFAULT_ACCENT
        if "accent" in data:
            accent = self.colour(data, "accent", "accent") or DEFAULT_ACCENT
        colours: dict[str, str] = {}
        given = data.get("player_colours")
        if given is not None:
            if not isinstance(given, LocDict):
                self.diags.error(data.at("player_colours"),
                                 "player_colours must map player ids (p1, p2, ...) to colours")
            else:
                for p in given:
                    if p not in names:
                        self.diags.error(Located(given.path, *given.key_pos(p)),
                                         f"player_colours: no player '{p}' "
                                         f"(players: {', '.join(names)})")
                    elif (c := self.colour(given, p, f"player_colours.{p}")) is not None:
                        colours[str(p)] = c
        for p in names:
            colours.setdefault(p, accent)
        cover = list(DEFAULT_COVER_CARDS)
        if "cover_cards" in data:
            value = data["cover_cards"]
            if not isinstance(value, LocList) or not 1 <= len(value) <= 4:
                self.diags.error(data.at("cover_cards"),
                                 "cover_cards must list one to four card codes, such as [AS, KH]")
            else:
                try:
                    cover = [str(c) for c in parse_cards(value)]
                except CardError as e:
                    self.diags.error(data.at("cover_cards"), f"cover_cards: {e}")
        return accent, colours, cover

    def load_game(self, folder: Path) -> Game | None:
        gpath = folder / "game.yaml"
        if not ID_RE.match(folder.name):
            self.diags.error(Located(self.show(gpath), 1, 1),
                             f"the game's folder name '{folder.name}' must be lower-case letters, "
                             f"digits and hyphens, starting with a letter or digit (it becomes "
                             f"part of file names and web addresses)")
            return None
        data = self.yaml(gpath)
        if data is None:
            return None
        where = Located(self.show(gpath), 1, 1)
        if not isinstance(data, LocDict):
            self.diags.error(where, "game.yaml must be a mapping")
            return None
        self.unknown_keys(data, GAME_KEYS, "game.yaml")
        slug = self.require(data, "slug", str, "game.yaml")
        if slug is not None and slug != folder.name:
            self.diags.error(data.at("slug"), f"slug '{slug}' does not match its folder '{folder.name}'")
        slug = folder.name
        title = self.require(data, "title", str, "game.yaml") or slug
        if "title" in data and isinstance(data["title"], str) \
                and not self.visible_name(data["title"], data.at("title"), "game.yaml: 'title'"):
            title = slug
        gamedef = self.resolve_engine(data, folder, where)
        engine = gamedef.slug if gamedef is not None else str(data.get("engine") or "")
        pmin, pmax, names = self.load_players(data)

        options, settings, opts = self.load_options(data, gamedef, engine)
        accent, player_colours, cover_cards = self.load_look(data, names)

        compare = _given(data, "compare", LocDict())
        if not isinstance(compare, LocDict):
            self.diags.error(data.at("compare"), f"compare must be a mapping ({', '.join(COMPARE_KEYS)}"
                             f" to text), got {describe(compare)}")
            compare = LocDict()
        for k, v in compare.items():
            if not isinstance(v, (str, int)) or isinstance(v, bool):
                self.diags.error(compare.at(k), f"compare: '{k}' must be text; quote a value "
                                 "that contains ': '")
        for k in COMPARE_KEYS:
            if k not in compare:
                self.diags.error(data.at("compare") if "compare" in data else where,
                                 f"compare: '{k}' is missing (the comparison table needs "
                                 f"{', '.join(COMPARE_KEYS)})")
        quickref = _given(data, "quickref", LocList())
        if not isinstance(quickref, list):
            self.diags.error(data.at("quickref"), "quickref must be a list of lines")
            quickref = LocList()
        if len(quickref) > limits.MAX_QUICKREF:
            self.diags.error(quickref.at(limits.MAX_QUICKREF)
                             if isinstance(quickref, LocList) else data.at("quickref"),
                             limits.over("quickref", len(quickref), limits.MAX_QUICKREF,
                                         "lines per quickref"))
            quickref = LocList()
        for i, q in enumerate(quickref):
            if not isinstance(q, str):
                w = quickref.at(i) if isinstance(quickref, LocList) else data.at("quickref")
                self.diags.error(w, "a quickref line must be text; quote a line that "
                                 "contains ': ' (YAML reads it as a mapping)")
        texts = {key: self.text(data, key, "game.yaml")
                 for key in ("designer", "credit", "tagline", "summary", "time")}
        for key in ("summary", "credit", "tagline"):
            self.check_markdown(texts[key], data.at(key))
        if isinstance(data.get("title"), str):
            self.check_markdown(data["title"], data.at("title"))
        if isinstance(quickref, LocList):
            for i, q in enumerate(quickref):
                self.check_markdown(str(q), quickref.at(i))
        if isinstance(compare, LocDict):
            for k in compare:
                self.check_markdown(str(compare[k]), compare.at(k))

        rules = self.load_rules(folder / "rules.md")
        index = {r.id: r for top in rules for r in top.walk()}
        glossary = self.load_glossary(folder / "glossary.yaml", index)
        for key in ("summary", "credit"):
            self.check_xrefs(texts[key], data.at(key), index)
        if isinstance(quickref, LocList):
            for i, q in enumerate(quickref):
                self.check_xrefs(str(q), quickref.at(i), index)
        for name, spec in opts.items():
            if isinstance(spec, LocDict) and isinstance(spec.get("text"), str):
                self.check_xrefs(spec["text"], spec.at("text"), index)
        if gamedef is not None and rules:
            played_with = dict(settings)
            played_with.update({o.name: o.default for o in options})
            try:
                cited = gamedef.cited_rules(played_with)
            except Exception:  # noqa: BLE001 - a bad option value is reported above
                cited = gamedef.rule_ids
            missing = sorted(cited - set(index))
            for rid in missing:
                self.diags.error(Located(self.show(folder / "rules.md"), 1, 1),
                                 f"the engine cites rule '{rid}', which rules.md does not define")

        kit = KitReader(self.diags, set(index), {o.name for o in options}, list(names),
                        (lambda name: name in gamedef.art) if gamedef is not None else None,
                        art_params=gamedef.art_params.get if gamedef is not None else None,
                        ).read(data)

        examples = []
        seen: dict[str, Located] = {}
        diagrams = 0
        for path in self.example_files(folder / "examples"):
            ex = self.load_example(path, index)
            if ex is None:
                continue
            if not self.within_diagrams(ex, diagrams, slug):
                break
            diagrams += 1 + sum(s.repeat for s in ex.steps)
            self.diagrams_all += 1 + sum(s.repeat for s in ex.steps)
            if ex.id in seen:
                first = seen[ex.id]
                self.diags.error(ex.where, f"example id '{ex.id}' is already used at "
                                 f"{first.path}:{first.line}")
                continue
            seen[ex.id] = ex.where
            examples.append(ex)

        self.within_book_chars(slug, data, texts, quickref, rules, glossary, examples)
        return Game(
            slug=slug, title=title, engine=engine or "", gamedef=gamedef, designer=texts["designer"],
            credit=texts["credit"], tagline=texts["tagline"], summary=texts["summary"],
            players_min=pmin, players_max=pmax,
            player_names=names, time=texts["time"],
            components=self.load_components(data), options=options, settings=settings,
            accent=accent, player_colours=player_colours, cover_cards=cover_cards, kit=kit,
            balance=BalanceReader(self.diags).read(data),
            compare={k: str(compare.get(k, "")) for k in COMPARE_KEYS},
            quickref=[str(q) for q in quickref], rules=rules, glossary=glossary,
            examples=examples, dir=str(folder), where=where,
        )

    def example_files(self, folder: Path) -> list[Path]:
        """The example files of a game's ``examples/`` folder, in file-name order, at most
        MAX_EXAMPLES; anything else in the folder (a file named ``examples``, a ``.yml``
        file, a sub-folder) is an error rather than an example that silently vanishes.
        Names starting with '.' (editors' swap files) are left alone."""
        if not (folder.exists() or folder.is_symlink()):
            return []
        if not folder.is_dir():
            self.diags.error(Located(self.show(folder), 1, 1),
                             "'examples' must be a folder of example files (*.yaml), not a "
                             "file; the game's examples would vanish")
            return []
        try:
            entries = sorted(folder.iterdir())
        except OSError as e:
            self.diags.error(Located(self.show(folder), 1, 1),
                             f"cannot read the examples folder: {e.strerror or e}")
            return []
        paths = []
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.suffix != ".yaml":  # (a folder named *.yaml is refused as it is read)
                kind = "a folder" if path.is_dir() else "not a .yaml file"
                self.diags.error(Located(self.show(path), 1, 1),
                                 f"'{path.name}' in examples/ is {kind}; examples/ holds only "
                                 f"example files, each named *.yaml (rename or move it)")
                continue
            paths.append(path)
        if len(paths) > limits.MAX_EXAMPLES:
            self.diags.error(Located(self.show(paths[limits.MAX_EXAMPLES]), 1, 1),
                             limits.over(f"the game '{folder.parent.name}'", len(paths),
                                         limits.MAX_EXAMPLES, "examples per game")
                             + "; this is the first example past it")
            paths = paths[:limits.MAX_EXAMPLES]
        return paths

    def within_diagrams(self, ex: Example, before: int, slug: str) -> bool:
        """Whether the rulebook (and the compendium) can take this example's diagrams (its
        setup and each replayed step); False after a located error at the step past the
        limit (this example and the rest of the game's are then not replayed)."""
        for limit, done, what, per in (
                (limits.MAX_DIAGRAMS, before, f"the rulebook of '{slug}'", "diagrams per rulebook"),
                (limits.MAX_DIAGRAMS_ALL, self.diagrams_all, "the compendium",
                 "diagrams per compendium (all games together)")):
            total = done + 1 + sum(s.repeat for s in ex.steps)
            if total <= limit:
                continue
            count, where = done + 1, ex.where
            for step in ex.steps:
                if count + step.repeat > limit:
                    where = step.where
                    break
                count += step.repeat
            self.diags.error(where, limits.over(what, total, limit, per)
                             + f" (one per example and one per step as replayed); example "
                               f"'{ex.id}' passes it here")
            return False
        return True

    def within_book_chars(self, slug: str, data: LocDict, texts: dict, quickref: list,
                          rules: list[Rule], glossary: list[Term], examples: list[Example]) -> None:
        """The rulebook's prose at most MAX_BOOK_CHARS characters, or a located error at the
        text that passes the limit (with MAX_DIAGRAMS this bounds the rulebook's pages)."""
        parts: list[tuple[Located, int]] = [(Located(data.path, 1, 1),
                                             sum(len(t) for t in texts.values())
                                             + sum(len(str(q)) for q in quickref))]
        parts += [(r.where, len(r.title) + len(r.body)) for top in rules for r in top.walk()]
        parts += [(t.where, len(t.term) + len(t.definition)) for t in glossary]
        for ex in examples:
            parts.append((ex.where, len(ex.title) + len(ex.intro) + len(ex.outro)))
            parts += [(s.where, len(s.comment)) for s in ex.steps]
        total = sum(n for _, n in parts)
        if total <= limits.MAX_BOOK_CHARS:
            return
        count = 0
        for where, n in parts:
            count += n
            if count > limits.MAX_BOOK_CHARS:
                self.diags.error(where, limits.over(f"the rulebook of '{slug}'", total,
                                                    limits.MAX_BOOK_CHARS,
                                                    "characters of text per rulebook")
                                 + " (rules, glossary, examples' words); the text here passes "
                                   "it")
                return

    def load_players(self, data: LocDict) -> tuple[int, int, dict[str, str]]:
        """game.yaml's ``players:`` (min, max: whole numbers, 1 <= min <= max <= MAX_PLAYERS;
        names: p1, p2, ... to names). Returns (min, max, names), defaults filled in."""
        players = self.require(data, "players", dict, "game.yaml") or LocDict()
        counts = {}
        for key in ("min", "max"):
            value = players.get(key)
            if key not in players:
                continue
            if not isinstance(value, int) or isinstance(value, bool) \
                    or not 1 <= value <= MAX_PLAYERS:
                self.diags.error(players.at(key), f"players.{key} must be a whole number from 1 "
                                 f"to {MAX_PLAYERS}, got {describe(value)}")
                continue
            counts[key] = value
        pmin = counts.get("min", 2)
        pmax = counts.get("max", max(pmin, 2) if "min" not in counts else pmin)
        if pmin > pmax:
            self.diags.error(players.at("min"), f"players.min ({pmin}) is above players.max "
                             f"({pmax})")
            pmin = pmax
        given = _given(players, "names", LocDict())
        names: dict[str, str] = {}
        if not isinstance(given, LocDict):
            self.diags.error(players.at("names"), "players.names must map p1, p2, ... to names")
            given = LocDict()
        for k, v in given.items():
            m = PLAYER_ID_RE.match(str(k))
            if not m or int(m.group(1)) > pmax:
                self.diags.error(Located(given.path, *given.key_pos(k)),
                                 f"players.names: {describe(k)} is not a player of this game "
                                 f"(p1 to p{pmax})")
            elif not isinstance(v, (str, int)) or isinstance(v, bool) or not str(v).strip():
                self.diags.error(given.at(k), f"players.names.{k} must be a name, got "
                                 f"{describe(v)}")
            elif self.visible_name(str(v), given.at(k), f"players.names.{k}"):
                names[str(k)] = " ".join(str(v).split())
        for i in range(1, pmax + 1):
            names.setdefault(f"p{i}", f"Player {i}")
        return pmin, pmax, {f"p{i}": names[f"p{i}"] for i in range(1, pmax + 1)}

    def load_components(self, data: LocDict) -> list[dict[str, Any]]:
        """game.yaml's ``components:``: what a game needs besides the rulebook, each a
        mapping with a ``name`` (text) and a ``count`` (a whole number, 1 to 999)."""
        given = data.get("components")
        if given is None:
            return []
        if not isinstance(given, LocList):
            self.diags.error(data.at("components"), "components must be a list, each item "
                             "such as {name: Standard 52-card deck, count: 1}")
            return []
        out = []
        for i, item in enumerate(given):
            if not isinstance(item, LocDict):
                self.diags.error(given.at(i), "a component must be a mapping such as "
                                 "{name: Standard 52-card deck, count: 1}")
                continue
            self.unknown_keys(item, {"name", "count"}, "component")
            name = self.require(item, "name", str, "component")
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) \
                    or not 1 <= count <= MAX_COMPONENT_COUNT:
                self.diags.error(item.at("count"), f"component: 'count' must be a whole number "
                                 f"from 1 to {MAX_COMPONENT_COUNT}, got {describe(count)}")
                continue
            if name is not None and self.visible_name(name, item.at("name"), "component: 'name'"):
                self.check_markdown(name, item.at("name"))
                out.append({"name": " ".join(name.split()), "count": count})
        return out

    # ------------------------------------------------------------------ rules
    def load_rules(self, path: Path) -> list[Rule]:
        shown = self.show(path)
        if not path.exists() and not path.is_symlink():
            self.diags.error(Located(shown, 0, 0), "rules.md is missing")
            return []
        text = self.text_file(path)
        if text is None:
            return []
        if len(text) > limits.MAX_RULES_CHARS:
            line, col = Source(text).line_col(limits.MAX_RULES_CHARS)
            self.diags.error(Located(shown, line, col),
                             limits.over("rules.md", len(text), limits.MAX_RULES_CHARS,
                                         "characters per rules.md") + "; the text here passes it")
            return []
        tops: list[Rule] = []
        stack: list[Rule] = []
        counters = [0, 0, 0]
        body: list[str] = []
        body_start = 1
        current: Rule | None = None
        seen: dict[str, Located] = {}
        in_fence = False

        def flush() -> None:
            if current is not None:
                current.body = "\n".join(body).strip("\n")
                self.check_markdown(current.body, Located(shown, body_start, 1), first_line=body_start)

        for lineno, line in enumerate(text.splitlines(), start=1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            m = HEADING_RE.match(line) if not in_fence else None
            if not m:
                if current is None and line.strip():
                    self.diags.error(Located(shown, lineno, 1),
                                     "text before the first heading; every rule belongs to a section")
                if not body and not line.strip():
                    body_start = lineno + 1
                    continue
                if not body:
                    body_start = lineno
                body.append(line)
                continue
            flush()
            body = []
            body_start = lineno + 1
            if len(seen) >= limits.MAX_RULES:
                self.diags.error(Located(shown, lineno, 1), limits.over(
                    "rules.md", sum(1 for ln in text.splitlines() if HEADING_RE.match(ln)),
                    limits.MAX_RULES, "rules (headings) per rules.md")
                    + "; this heading is the first past it")
                return []
            level = len(m.group(1))
            if level > 3:
                self.diags.error(Located(shown, lineno, 1),
                                 "rules go three levels deep at most (#, ##, ###: 1., 1.1, 1.1.1)")
                level = 3
            if len(line) > MAX_PARAGRAPH or line.count("[") > MAX_BRACKETS:
                self.diags.error(Located(shown, lineno, 1), f"a heading of {len(line):,} "
                                 f"characters ({line.count('['):,} '['); keep headings short")
                continue
            self.check_links(line, Located(shown, lineno, 1))
            heading = m.group(2).rstrip()
            hm = heading_id(heading)
            if not hm:
                self.diags.error(Located(shown, lineno, len(line.rstrip())),
                                 f"heading '{describe(heading)[1:-1]}' has no id; end it with "
                                 f"{{#some-id}}")
                title, rid = heading, f"line-{lineno}"
            else:
                title, rid = hm
                self.visible_name(title, Located(shown, lineno, len(m.group(1)) + 2),
                                  "the rule's title")
                if not ID_RE.match(rid):
                    self.diags.error(Located(shown, lineno, line.rindex("{#") + 1),
                                     f"rule id '{describe(rid)[1:-1]}' must be lower-case letters, digits and hyphens")
            if rid in seen:
                self.diags.error(Located(shown, lineno, 1),
                                 f"rule id '{rid}' is already used on line {seen[rid].line}")
            seen[rid] = Located(shown, lineno, 1)
            if level > len(stack) + 1:
                self.diags.error(Located(shown, lineno, 1),
                                 f"heading level {level} directly under level {len(stack)}; "
                                 f"do not skip a level")
                level = len(stack) + 1
            counters[level - 1] += 1
            for i in range(level, 3):
                counters[i] = 0
            number = ".".join(str(c) for c in counters[:level]) + ("." if level == 1 else "")
            del stack[level - 1:]
            part = "rules"
            low = rid
            if level == 1 and low in ("golden-rules", "golden"):
                part = "golden"
            elif level == 1 and low == "clarifications":
                part = "clarifications"
            elif stack:
                part = stack[0].part
            rule = Rule(id=rid, number=number, title=title, level=level, body="",
                        where=Located(shown, lineno, 1), part=part,
                        parent=stack[-1].id if stack else None)
            if stack:
                stack[-1].children.append(rule)
            else:
                tops.append(rule)
            stack.append(rule)
            current = rule
        flush()
        if not tops:
            self.diags.error(Located(shown, 1, 1), "rules.md has no numbered sections")
        # cross-references
        index = {r.id for t in tops for r in t.walk()}
        for t in tops:
            for r in t.walk():
                self.check_xrefs(r.body, Located(shown, r.where.line + 1, 1), index,
                                 first_line=self._body_first_line(text, r))
        return tops

    @staticmethod
    def _body_first_line(text: str, rule: Rule) -> int:
        lines = text.splitlines()
        i = rule.where.line  # 0-based index of the line after the heading
        while i < len(lines) and not lines[i].strip():
            i += 1
        return i + 1

    def check_xrefs(self, text: str, where: Located, index: set[str] | dict,
                    first_line: int | None = None) -> None:
        start = first_line if first_line is not None else text_start(text, where)
        for i, offset, line in self.text_lines(text, where):
            for m in XREF_RE.finditer(line):
                if m.group(1) not in index:
                    self.diags.error(self.place(self.line_at(where, start + i, text, offset),
                                                m.start() + 1),
                                     f"unknown rule id '{m.group(1)}' in cross-reference")

    # ------------------------------------------------------------------ glossary
    def load_glossary(self, path: Path, index: dict[str, Rule]) -> list[Term]:
        present = path.exists() or path.is_symlink()
        data = self.yaml(path) if present else None
        shown = self.show(path)
        if data is None:
            if not present:
                self.diags.error(Located(shown, 0, 0), "glossary.yaml is missing")
            return []
        if not isinstance(data, LocList):
            self.diags.error(Located(shown, 1, 1), "glossary.yaml must be a list of terms")
            return []
        out = []
        if len(data) > limits.MAX_TERMS:
            self.diags.error(data.at(limits.MAX_TERMS), limits.over(
                "glossary.yaml", len(data), limits.MAX_TERMS, "terms per glossary")
                + "; this entry is the first past it")
            return []
        chars = 0
        for i, item in enumerate(data):
            if not isinstance(item, LocDict):
                self.diags.error(data.at(i), "a glossary entry needs 'term' and 'definition'")
                continue
            chars += sum(len(v) for k, v in item.items()
                         if k in ("term", "definition") and isinstance(v, str))
            if chars > limits.MAX_GLOSSARY_CHARS:
                total = sum(len(v) for it in data if isinstance(it, dict)
                            for k, v in it.items() if k in ("term", "definition")
                            and isinstance(v, str))
                self.diags.error(data.at(i), limits.over(
                    "glossary.yaml", total, limits.MAX_GLOSSARY_CHARS,
                    "characters of terms and definitions per glossary")
                    + "; this entry passes it")
                return []
            self.unknown_keys(item, {"term", "definition", "see"}, "glossary entry")
            term = self.require(item, "term", str, "glossary entry")
            if term is not None and not 0 < len(term.strip()) <= MAX_TERM:
                self.diags.error(item.at("term"), f"glossary entry: a term is one to {MAX_TERM} "
                                 f"characters long")
                term = None
            if term is not None and not self.visible_name(term, item.at("term"),
                                                          "glossary entry: the term"):
                term = None
            definition = self.require(item, "definition", str, "glossary entry")
            see = _given(item, "see", [])
            if isinstance(see, str):
                see = [see]
            if not isinstance(see, list) or not all(isinstance(r, str) for r in see):
                self.diags.error(item.at("see"), "glossary entry: 'see' must be a rule id or a "
                                 "list of rule ids")
                see = []
            for j, rid in enumerate(see):
                if rid not in index:
                    w = see.at(j) if isinstance(see, LocList) else item.at("see")
                    self.diags.error(w, f"unknown rule id '{rid}'")
            if definition:
                self.check_markdown(definition, item.at("definition"))
                self.check_xrefs(definition, item.at("definition"), index)
            if term and definition:
                out.append(Term(term, definition, [str(s) for s in see], data.at(i)))
        return sorted(out, key=lambda t: t.term.lower())

    # ------------------------------------------------------------------ examples
    def within_example_limits(self, data: LocDict, steps: LocList, eid: str,
                              texts: dict[str, str]) -> bool:
        """An example's steps (each repeat counted), words and setup within the limits
        (MAX_STEPS, MAX_EXAMPLE_CHARS, MAX_SETUP_CARDS), checked before anything
        replays it; False after a located error at the place the limit is passed."""
        def repeats(s: Any) -> int:
            r = s.get("repeat", 1) if isinstance(s, dict) else 1
            return r if isinstance(r, int) and not isinstance(r, bool) and r > 1 else 1

        total = sum(repeats(s) for s in steps)
        if total > limits.MAX_STEPS:
            count = 0
            for i, s in enumerate(steps):
                count += repeats(s)
                if count > limits.MAX_STEPS:
                    where = s.at("repeat") if repeats(s) > 1 else steps.at(i)
                    self.diags.error(where, limits.over(f"the example '{eid}'", total, limits.MAX_STEPS,
                                                        "steps per example")
                                     + f" (each repeat counted); step {i + 1} passes it")
                    return False
        parts = [(data.at("intro"), texts.get("intro", ""))]
        parts += [(s.at("comment"), s["comment"]) for s in steps
                  if isinstance(s, LocDict) and isinstance(s.get("comment"), str)]
        parts.append((data.at("outro"), texts.get("outro", "")))
        chars = 0
        for where, text in parts:
            chars += len(text)
            if chars > limits.MAX_EXAMPLE_CHARS:
                total = sum(len(t) for _, t in parts)
                self.diags.error(where, limits.over(
                    f"the example '{eid}'", total, limits.MAX_EXAMPLE_CHARS,
                    "characters of words (intro, outro and comments) per example")
                    + "; the text here passes it")
                return False
        cards = list(_list_items(data.get("setup")))
        if len(cards) > limits.MAX_SETUP_CARDS:
            self.diags.error(cards[limits.MAX_SETUP_CARDS], limits.over(
                f"the setup of example '{eid}'", len(cards), limits.MAX_SETUP_CARDS,
                "cards per setup (all its lists together)") + "; this card is the first past it")
            return False
        return True

    def load_example(self, path: Path, index: dict[str, Rule]) -> Example | None:
        data = self.yaml(path)
        if data is None:
            return None
        shown = self.show(path)
        if not isinstance(data, LocDict):
            self.diags.error(Located(shown, 1, 1), "an example file must be a mapping")
            return None
        self.unknown_keys(data, EXAMPLE_KEYS, "example")
        eid = self.require(data, "id", str, "example")
        title = self.require(data, "title", str, "example")
        if title is not None and not self.visible_name(title, data.at("title"),
                                                       "example: the title"):
            title = None
        if eid is not None and not ID_RE.match(eid):
            self.diags.error(data.at("id"), f"example id '{eid}' must be lower-case letters, digits and hyphens")
        rules = _given(data, "rules", LocList())
        if not isinstance(rules, list):
            self.diags.error(data.at("rules"), "rules must be a list of rule ids")
            rules = LocList()
        for i, rid in enumerate(rules):
            if str(rid) not in index:
                self.diags.error(rules.at(i), f"unknown rule id '{rid}'" + suggest(rid, index))
        options = _given(data, "options", LocDict())
        if not isinstance(options, dict):
            self.diags.error(data.at("options"), "options must be a mapping")
            options = LocDict()
        setup = data.get("setup")
        if not isinstance(setup, dict):
            self.diags.error(data.at("setup") if "setup" in data else Located(shown, 1, 1),
                             "example: 'setup' must be a mapping (piles: ...)")
            setup = LocDict()
        texts = {key: self.text(data, key, "example") for key in ("intro", "outro")}
        for key, text in texts.items():
            if text:
                self.check_markdown(text, data.at(key))
                self.check_xrefs(text, data.at(key), set(index))
        steps_raw = data.get("steps")
        steps: list[Step] = []
        if not isinstance(steps_raw, list) or not steps_raw:
            self.diags.error(data.at("steps") if "steps" in data else Located(shown, 1, 1),
                             "example: 'steps' must be a non-empty list")
            steps_raw = LocList()
        if not self.within_example_limits(data, steps_raw, eid or path.stem, texts):
            return None
        n = 0
        positions = Positions(*located_paths(data))
        for i, s in enumerate(steps_raw):
            where = steps_raw.at(i)
            if s is None:
                s = LocDict()
                s.path, s.line, s.col = where.path, where.line, where.col
            if not isinstance(s, LocDict):
                self.diags.error(where, "a step must be a mapping (decide:, chance:, expect:, comment:)")
                continue
            self.unknown_keys(s, STEP_KEYS, "step")
            if "decide" in s and "chance" in s:
                self.diags.error(where, "a step is either a decision or a chance outcome, not both")
            decide = s.get("decide")
            if decide is not None and not isinstance(decide, dict):
                self.diags.error(s.at("decide"), "decide: must map each deciding player (p1, p2, ...) to a decision")
                decide = None
            repeat = s.get("repeat", 1)
            if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
                self.diags.error(s.at("repeat"), "repeat must be a whole number of at least 1")
                repeat = 1
            if repeat > 1 and ("decide" in s or "chance" in s):
                self.diags.error(s.at("repeat"), "repeat is only for forced steps (no decide:, no chance:)")
                repeat = 1
            comment = self.text(s, "comment", "step")
            if comment:
                self.check_markdown(comment, s.at("comment"))
                self.check_xrefs(comment, s.at("comment"), set(index))
            expect = s.get("expect")
            if expect is not None and not isinstance(expect, dict):
                self.diags.error(s.at("expect"), "expect: must map state names to expected values")
                expect = None
            n += 1
            steps.append(Step(index=n, where=where, decide=plain_data(decide),
                              chance=plain_data(s.get("chance")), expect=plain_data(expect),
                              comment=comment, repeat=repeat,
                              positions=positions.within("steps", i)))
        return Example(
            id=eid or path.stem, title=title or path.stem, where=Located(shown, 1, 1),
            rules=[str(r) for r in rules], options=plain_data(options),
            setup=plain_data(setup), steps=steps, intro=texts["intro"], outro=texts["outro"],
            written=plain_data(data), positions=positions,
        )


#: where installed fonts are looked for (``book.fonts`` ``family:``)
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
#: a font's style name -> the face it is, for the faces warbook uses
STYLE_FACES = {"regular": "regular", "book": "regular", "roman": "regular",
               "italic": "italic", "oblique": "italic", "bold": "bold", "medium": "medium",
               "semibold": "semibold", "semi bold": "semibold", "demibold": "semibold",
               "bold italic": "bold-italic", "bold oblique": "bold-italic"}


def installed_fonts() -> dict[str, dict[str, Any]]:
    """The installed font families, by lower-case family name: face -> file (and ``_name``,
    the family's name as written), from the fonts' own name tables."""
    from fontTools.ttLib import TTFont, TTLibError

    out: dict[str, dict[str, Any]] = {}
    for folder in SYSTEM_FONT_DIRS:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() not in (".otf", ".ttf") or not path.is_file():
                continue
            try:
                with TTFont(str(path), lazy=True) as font:
                    names = font["name"]
                    family = names.getDebugName(16) or names.getDebugName(1)
                    style = names.getDebugName(17) or names.getDebugName(2)
            except (TTLibError, OSError, KeyError, ValueError, AssertionError):
                continue
            face = STYLE_FACES.get((style or "").strip().lower())
            if family and face:
                entry = out.setdefault(family.lower(), {"_name": family})
                entry.setdefault(face, path)
    return out


#: what font_problem found, by (path, size, modification time): serve re-checks on every save
_FONT_VERDICTS: dict[tuple[str, int, int], str] = {}
#: the letters every book sets in each face
FONT_LETTERS = "AZaz09.,:"


def font_problem(path: Path) -> str:
    """Why a font file cannot be used ('' when it can): read whole (not lazily), every
    table decompiled and every glyph drawn, as WeasyPrint's HarfBuzz and the diagrams'
    glyph code will; then the letters the books need. fontTools raises whatever the
    corrupt bytes lead it to (struct.error, TypeError, IndexError, ...), so any exception
    is the answer "corrupt"."""
    from fontTools.pens.basePen import NullPen
    from fontTools.ttLib import TTFont

    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key in _FONT_VERDICTS:
        return _FONT_VERDICTS[key]
    where = ""
    try:
        with TTFont(str(path), lazy=False) as font:
            for tag in font.keys():
                where = f"a damaged '{tag.strip()}' table: "
                font[tag]
            where = "a damaged character map: "
            cmap = font.getBestCmap() or {}
            where = "damaged glyphs: "           # a CFF table's glyph data is read here
            glyphs = font.getGlyphSet()
            for name in font.getGlyphOrder():
                where = f"a damaged outline of the glyph '{name}': "
                glyphs[name].draw(NullPen())     # parses the outline; draws nothing
        missing = [c for c in FONT_LETTERS if ord(c) not in cmap]
        verdict = f"lacks letters the books need ({''.join(missing)})" if missing else ""
    except Exception as e:  # corrupt bytes: see the docstring
        text = str(e).strip() or type(e).__name__
        verdict = where + text[:80]
    _FONT_VERDICTS[key] = verdict
    return verdict


def unsafe_svg(data: bytes) -> str:
    """Why an SVG is not safe to put on the website and into a PDF ('' if it is): it must
    parse, and hold no script, no foreign object, no event handler attribute and no link
    other than to a fragment of itself."""
    import xml.etree.ElementTree as ET

    if b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        return "declares a DOCTYPE or entities"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return f"is not well-formed SVG ({e})"
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if tag in ("script", "foreignobject", "iframe", "object", "embed"):
            return f"holds a <{tag}> element"
        for name, value in el.attrib.items():
            attr = name.rsplit("}", 1)[-1].lower()
            if attr.startswith("on"):
                return f"has an event handler ({attr})"
            if attr == "href" and not value.strip().startswith("#"):
                return f"links to '{value[:40]}'"
            if "url(" in value.replace(" ", "").lower() and "url(#" not in value.replace(" ", "").lower():
                return f"refers to an outside resource in '{attr}'"
    return ""


def _given(data: dict, key: str, default: Any) -> Any:
    """``data[key]``, or ``default`` when it is left out or written empty (``key:``); a
    value of the wrong kind (``quickref: {}``, ``see: {}``, ``names: []``) is kept, so that
    its reader refuses it instead of taking it for nothing."""
    value = data.get(key)
    return default if value is None else value


def _list_items(value: Any):
    """Where each item of every list inside ``value`` stands (a setup's cards), in order."""
    if isinstance(value, LocList):
        for i, item in enumerate(value):
            if isinstance(item, (LocList, LocDict)):
                yield from _list_items(item)
            else:
                yield value.at(i)
    elif isinstance(value, LocDict):
        for item in value.values():
            yield from _list_items(item)


def text_start(text: str, where: Located) -> int:
    """The line a YAML text value starts on: a block scalar (``|`` or ``>``, which ends in a
    newline) starts on the line after its key; a plain or quoted one on the key's line."""
    return where.line + (1 if text.endswith("\n") else 0)


def _kind_word(name: str) -> str:
    return {"str": "text", "dict": "a mapping"}[name]    # the kinds require() is given


def load_content(root: Path | str, diags: Diagnostics | None = None) -> tuple[Content, Diagnostics]:
    diags = diags if diags is not None else Diagnostics()
    root = Path(root)
    if not root.is_dir():
        diags.error(Located(str(root), 0, 0),
                    "the content folder is a file, not a folder" if root.exists()
                    else "content folder not found")
        return Content(root=str(root), games=[]), diags
    content = Loader(root, diags).load()
    return content, diags
