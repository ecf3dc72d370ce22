"""Stage 1, the book's own typefaces: ``book.fonts`` in index.yaml, font files inside the
content folder or a font family installed on the machine. Every font is read whole here
(each table, each glyph's outline, the letters the books need), so a damaged font is a
located error during ``warbook check`` and never a crash of the typesetting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import limits
from ..diagnostics import Located, closest, describe
from ..yamlsrc import LocDict
from .base import Reader

#: the two typefaces' faces a project may give (role -> face -> the shipped file it
#: replaces), and which face stands in for one not given
FONT_FACES = {
    "text": {"regular": "EBGaramond-Regular.ttf", "italic": "EBGaramond-Italic.ttf",
             "bold": "EBGaramond-Bold.ttf"},
    "headings": {"regular": "Cabin-Regular.otf", "italic": "Cabin-Italic.otf",
                 "medium": "Cabin-Medium.otf", "semibold": "Cabin-SemiBold.otf",
                 "bold": "Cabin-Bold.otf", "bold-italic": "Cabin-BoldItalic.otf"},
}
FONT_STAND_IN = {"italic": "regular", "bold": "regular", "medium": "regular",
                 "semibold": "bold", "bold-italic": "bold"}
FONT_TYPES = (".otf", ".ttf")

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
    except Exception as e:  # noqa: BLE001 - corrupt bytes: see the docstring
        text = str(e).strip() or type(e).__name__
        verdict = where + text[:80]
    _FONT_VERDICTS[key] = verdict
    return verdict


class FontReader(Reader):
    """Reads ``book.fonts`` into the shipped font files it replaces."""

    def read(self, data: LocDict) -> dict[str, str]:
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
            close = closest(name.strip().lower(), families)
            self.diags.error(where, f"book.fonts.{role}: no installed font family '{name}' with "
                             f"a regular face" + (f"; did you mean '{families[close]['_name']}'?"
                                                  if close is not None else "")
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

