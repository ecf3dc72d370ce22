"""Stage 1, ``book:`` in index.yaml: the look of the whole project (title, subtitle,
credits, colour, paper, logo, typefaces). Everything is optional; what is left out keeps a
neutral default. Paper names are the ones of :data:`builder.settings.PAPERS`.
"""

from __future__ import annotations

from ..model import Book
from ..settings import PAPERS
from ..yamlsrc import LocDict
from . import fields
from .base import Reader
from .fonts import FontReader
from .svg import unsafe_svg

BOOK_KEYS = {"title", "subtitle", "credits", "accent", "paper", "logo", "fonts", "version",
             "date"}
LOGO_TYPES = (".svg", ".png")
LOGO_MAX_BYTES = 2 * 1024 * 1024


#: the longest rules version (printed on every cover and page foot)
MAX_VERSION = 40


def version_text(value) -> str:
    """``book.version``: one short line; a whole number is taken as written, a decimal is
    refused (YAML reads 1.10 as the number 1.1)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        raise ValueError("must be text: put it in quotes, such as version: \"1.2\" (unquoted, "
                         "YAML reads a number, and 1.10 becomes 1.1)")
    return fields.line(MAX_VERSION, "on every cover and page foot")(value)


class BookReader(Reader):
    """Reads index.yaml's ``book:`` into a :class:`Book`."""

    def read(self, idx: LocDict) -> Book:
        """index.yaml's ``book:``: the look of the whole project (title, subtitle, credits,
        colour, paper). Everything is optional; what is left out keeps a neutral default."""
        data = idx.get("book")
        if data is None:
            return Book()
        if not isinstance(data, LocDict):
            self.diags.error(idx.at("book"), "book must be a mapping (title, subtitle, credits, "
                             "accent, paper, logo, fonts, version, date)")
            return Book()
        self.unknown_keys(data, BOOK_KEYS, "index.yaml book")
        out = Book()
        for key in ("title", "subtitle", "credits"):
            if key in data and self.field(data, key, fields.text, f"book.{key}") is not None \
                    and self.visible_name(data[key], data.at(key), f"book.{key}"):
                setattr(out, key, " ".join(data[key].split()))
        if "accent" in data:
            out.accent = self.colour(data, "accent", "book.accent") or out.accent
        if "paper" in data:
            out.paper = self.field(data, "paper", fields.one_of(*PAPERS), "book.paper") \
                or out.paper
        if "logo" in data:
            out.logo = self.logo_file(data)
        if "fonts" in data:
            out.fonts = FontReader(self.root, self.diags).read(data)
        if "version" in data:
            out.version = self.field(data, "version", version_text, "book.version") or ""
        if "date" in data:
            out.date = self.field(data, "date", fields.date, "book.date") or ""
        return out

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

