"""Stage 1, a game's own decks: ``decks:`` in ``game.yaml`` and the deck files it names.

A game whose engine plays its own cards (``GameDef(cards="own")``) declares them::

    decks:
      expeditions:              # the deck's name
        cards: cards.csv        # one row per distinct card (.csv or .yaml), in the game folder
        size: poker             # poker, bridge, mini, tarot, square, or [width, height] in mm
        face: face.html.j2      # optional: the cards' face template (else the shipped one)
        back: back.svg          # optional: the back (an SVG, PNG or JPEG picture, or a
                                # template; else a plain back in the accent)

A deck file has one row per distinct card: ``code`` (what the examples write), ``name``
(what the book prints; the code when left out), ``count`` (copies, 1 to 999; 1 when left
out) and any fields, each a column (CSV) or key (YAML) named like a Python name; every
field reaches the engine as an attribute of the card and the face template as a value. A
CSV cell that is a whole number is read as a number, an empty cell as nothing.

Every problem is a located error at the deck file's row and column (or at ``game.yaml``'s
key), and the reader goes on, so one run says them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import limits
from ..contentpath import Refused, resolve
from ..diagnostics import Diagnostic, Located, describe, suggest
from ..engine.decks import RESERVED, Deck
from ..names import name_problem
from ..yamlsrc import LocDict, LocList, read_text
from .base import Reader

DECK_KEYS = ("cards", "size", "face", "back")
#: card sizes by name, width x height in mm (the usual print-and-play and card-printer sizes)
SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "mini": (44.5, 63.5),
    "tarot": (69.9, 120.7),
    "square": (69.9, 69.9),
}
#: the smallest and largest card side in mm (a postage stamp, a sheet of A5)
SIDE_MM = (20.0, 210.0)
#: a card code: letters, digits, "-", "_" or "+", starting with a letter or digit (it is
#: written bare in YAML examples, file names and web addresses)
CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+-]{0,15}$")
#: words a code may not be: YAML reads them as true, false or nothing, and decisions use
#: them as words ("none" passes, "all" takes everything)
RESERVED_CODES = {"yes", "no", "on", "off", "true", "false", "null", "none", "y", "n",
                  "all", "pass", "any"}
#: how many cards must hold a whole number in a field before text in it on a few others
#: (one, or a tenth of the cards) is warned of as a slip (``DeckReader.warn_odd_cells``)
ODD_CELL_MIN = 3
#: a field's name: a Python name, since the engine reads it as ``card.field``
FIELD_RE = re.compile(r"^[a-z_][a-z0-9_]{0,31}$")
#: what a card cannot have as a field (its own attributes)
CARD_ATTRIBUTES = ("title", "deck", "index", "red", "rank", "suit", "fields")
#: bounds on a deck file (a deck is a few hundred cards at most)
MAX_ROWS = 300
MAX_FIELDS = 30
MAX_CELL_CHARS = 600
MAX_COUNT = 999
#: decks per game
MAX_DECKS = 4
#: what a deck's ``back:`` may be: a picture (SVG, PNG, JPEG) or a template
BACK_TYPES = (".svg", ".png", ".jpg", ".jpeg", ".j2", ".html")


@dataclass
class DeckSpec:
    """One deck of a game, as its renderers need it: the engine's :class:`Deck` (its
    cards and fields), the card size, and the face and back the game gives (paths inside
    the content folder, or None for the shipped ones)."""

    name: str
    deck: Deck
    size_mm: tuple[float, float]
    face: Path | None = None
    back: Path | None = None
    #: where the deck is declared (game.yaml's ``decks: NAME``)
    where: Located | None = None
    #: each card's row in the deck file: code -> Located (for errors about a card)
    rows: dict[str, Located] = field(default_factory=dict)
    #: the deck file, as shown to the designer
    file: str = ""
    #: where game.yaml names the back (``back:``), for errors about a back picture
    back_where: Located | None = None
    #: the cells warned of as a typing slip (``DeckReader.warn_odd_cells``), each said as a
    #: note for a fault of the game's own code (``builder.check.check_game``), which such
    #: a cell may well have caused: "card 'R2' has number 'two' at .../cards.csv:3:14, ..."
    suspects: tuple[str, ...] = ()


def split_csv_line(line: str) -> list[tuple[int, str]] | None:
    """A CSV line's cells, each with its column (1-based) in the line; quotes as in RFC
    4180 ("" is a quote inside a quoted cell). None when a quote is left open."""
    cells: list[tuple[int, str]] = []
    i, n = 0, len(line)
    while True:
        start = i
        if i < n and line[i] == '"':
            i += 1
            text = []
            while True:
                if i >= n:
                    return None
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        text.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                text.append(line[i])
                i += 1
            # anything between the closing quote and the comma is kept, as csv does
            j = line.find(",", i)
            rest = line[i:] if j < 0 else line[i:j]
            cells.append((start + 1, "".join(text) + rest))
            if j < 0:
                return cells
            i = j + 1
        else:
            j = line.find(",", i)
            if j < 0:
                cells.append((start + 1, line[i:]))
                return cells
            cells.append((start + 1, line[i:j]))
            i = j + 1


def typed(text: str) -> Any:
    """A CSV cell as a value: a whole number as a number, an empty cell as None, else the
    text (stripped)."""
    t = text.strip()
    if not t:
        return None
    if re.fullmatch(r"-?[0-9]{1,9}", t):
        return int(t)
    return t


class DeckReader(Reader):
    """Reads a game's ``decks:`` and the deck files it names."""

    def read(self, data: LocDict, folder: Path, slug: str) -> list[DeckSpec]:
        decks = data.get("decks")
        if decks is None:
            return []
        if not isinstance(decks, LocDict) or not decks:
            self.diags.error(data.at("decks"), f"decks must be a mapping of deck names to "
                             f"their files and sizes, got {describe(decks)}",
                             detail="e.g.  decks:\n         main: {cards: cards.csv, size: poker}")
            return []
        if len(decks) > MAX_DECKS:
            self.diags.error(data.at("decks"), limits.over("the game", len(decks), MAX_DECKS,
                                                           "decks per game"))
            return []
        out: list[DeckSpec] = []
        codes: dict[str, tuple[str, Located]] = {}
        for name, spec in decks.items():
            where = decks.at(name)
            if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,31}", name):
                self.diags.error(where, f"a deck's name must be lower-case letters, digits "
                                 f"and hyphens, starting with a letter, got {describe(name)}")
                continue
            if isinstance(spec, str):  # decks: {main: cards.csv}
                short = LocDict({"cards": spec})
                short.path, short.line, short.col = where.path, where.line, where.col
                spec = short
            if not isinstance(spec, LocDict):
                self.diags.error(where, f"deck '{name}' must be a mapping with cards: (the deck "
                                 f"file) and size:, got {describe(spec)}")
                continue
            self.unknown_keys(spec, DECK_KEYS, f"deck '{name}'")
            deck = self.deck(name, spec, folder, slug, where)
            if deck is None:
                continue
            for code, at in deck.rows.items():
                if code.upper() in codes:
                    other, first = codes[code.upper()]
                    self.diags.error(at, f"card code '{code}' is in two decks of the game: "
                                     f"here in '{name}' and first in '{other}' at "
                                     f"{first.path}:{first.line}:{first.col}",
                                     detail="an example names a card by its code alone, so "
                                            "codes must differ across the game's decks")
                else:
                    codes[code.upper()] = (name, at)
            out.append(deck)
        return out

    # ------------------------------------------------------------------ one deck
    def deck(self, name: str, spec: LocDict, folder: Path, slug: str,
             where: Located) -> DeckSpec | None:
        size = self.size(spec, name)
        face = self.file(spec, "face", folder, (".j2", ".html", ".svg"), f"deck '{name}': face")
        back = self.file(spec, "back", folder, BACK_TYPES, f"deck '{name}': back")
        if "cards" not in spec:
            self.diags.error(where, f"deck '{name}': 'cards' is missing (the deck file: one "
                             f"row per card, .csv or .yaml)")
            return None
        path = self.file(spec, "cards", folder, (".csv", ".yaml", ".yml"), f"deck '{name}': cards")
        if path is None:
            return None
        shown = self.show(path)
        rows = self.csv_rows(path, shown) if path.suffix.lower() == ".csv" \
            else self.yaml_rows(path, shown)
        if rows is None:
            return None
        #: the deck's cells warned of as slips (``warn_odd_cells``, from ``check_rows``)
        self.suspects: list[str] = []
        good = self.check_rows(rows, shown, name)
        if good is None or size is None:
            return None
        deck = Deck(name, [r for r, _ in good], key=f"{slug}/{name}")  # checked above
        return DeckSpec(name=name, deck=deck, size_mm=size, face=face, back=back,
                        where=where, rows={str(r["code"]): at for r, at in good}, file=shown,
                        back_where=spec.at("back") if back is not None else None,
                        suspects=tuple(self.suspects))

    def size(self, spec: LocDict, name: str) -> tuple[float, float] | None:
        value = spec.get("size", "poker")
        at = spec.at("size") if "size" in spec else Located(spec.path, spec.line, spec.col)
        if isinstance(value, str):
            if value in SIZES:
                return SIZES[value]
            self.diags.error(at, f"deck '{name}': unknown card size '{value}' (sizes: "
                             f"{', '.join(SIZES)}, or [width, height] in mm)"
                             + suggest(value, SIZES))
            return None
        if isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            w, h = float(value[0]), float(value[1])
            lo, hi = SIDE_MM
            if lo <= w <= hi and lo <= h <= hi:
                return (w, h)
            self.diags.error(at, f"deck '{name}': a card of {w:g} x {h:g} mm; each side must "
                             f"be {lo:g} to {hi:g} mm")
            return None
        self.diags.error(at, f"deck '{name}': size must be one of {', '.join(SIZES)} or "
                         f"[width, height] in mm, got {describe(value)}")
        return None

    def file(self, spec: LocDict, key: str, folder: Path, types: tuple[str, ...],
             what: str) -> Path | None:
        """A file named by ``spec[key]``, in the game's folder; None when absent or after a
        located error."""
        if key not in spec:
            return None
        value, where = spec[key], spec.at(key)
        if not isinstance(value, str) or not value.strip():
            self.diags.error(where, f"{what} must be the name of a file in the game's folder, "
                             f"got {describe(value)}")
            return None
        try:
            real = resolve(self.root, folder / value, where.path, kind="plain files")
        except Refused as e:
            if e.reason == "missing":
                have = [p.name for p in folder.iterdir() if p.suffix.lower() in types] \
                    if folder.is_dir() else []
                self.diags.error(where, f"{what}: no file '{value}' in {self.show(folder)}/"
                                 + suggest(value, have))
            elif e.reason == "outside":
                self.diags.error(where, f"{what}: '{value}' is outside the content folder "
                                 f"(or a link); put the file in the game's folder")
            else:
                self.diags.error(where, f"{what}: '{value}': {e.message}")
            return None
        if not real.is_file() or not real.name.lower().endswith(types):
            self.diags.error(where, f"{what}: '{value}' must be a {' or '.join(types)} file")
            return None
        return real

    # ------------------------------------------------------------------ rows
    def csv_rows(self, path: Path, shown: str) -> list[tuple[dict, dict]] | None:
        """The CSV's rows: each (row, where) with where mapping each key to its Located
        (and "" to the row's start); None after a located error."""
        try:
            text = read_text(path, shown, root=self.root)
        except Diagnostic as d:
            self.diags.append(d)
            return None
        lines = text.split("\n")
        if text.startswith("\ufeff"):
            lines[0] = lines[0][1:]
        header_no = next((i for i, ln in enumerate(lines) if ln.strip()), None)
        if header_no is None:
            self.diags.error(Located(shown, 1), "the deck file is empty: its first line names "
                             "the columns (code, name, count and the cards' fields)")
            return None
        header = split_csv_line(lines[header_no].rstrip("\r"))
        if header is None:
            self.diags.error(Located(shown, header_no + 1), "a quote is left open in the "
                             "header line")
            return None
        names: list[tuple[int, str]] = []
        ok = True
        for col, raw in header:
            key = raw.strip()
            if key in names_of(names):
                self.diags.error(Located(shown, header_no + 1, col),
                                 f"the column '{key}' is named twice")
                ok = False
            names.append((col, key))
        if "code" not in names_of(names):
            self.diags.error(Located(shown, header_no + 1), "the header names no 'code' column "
                             "(each card's code, such as R7, which the examples write)"
                             + suggest("code", names_of(names)))
            ok = False
        if not ok:
            return None
        rows = []
        for i in range(header_no + 1, len(lines)):
            line = lines[i].rstrip("\r")
            if not line.strip():
                continue
            if len(rows) >= MAX_ROWS:
                self.diags.error(Located(shown, i + 1), limits.over(
                    "the deck file", sum(1 for ln in lines[header_no + 1:] if ln.strip()),
                    MAX_ROWS, "rows (distinct cards) per deck"))
                return None
            cells = split_csv_line(line)
            if cells is None:
                self.diags.error(Located(shown, i + 1), "a quote is left open on this line "
                                 "(a cell may not run over two lines)")
                ok = False
                continue
            if len(cells) > len(names):
                col = cells[len(names)][0]
                self.diags.error(Located(shown, i + 1, col), f"this row has {len(cells)} cells "
                                 f"but the header names {len(names)} columns")
                ok = False
                continue
            row: dict[str, Any] = {}
            where: dict[str, Located] = {"": Located(shown, i + 1, 1)}
            for (col, text), (_, key) in zip(cells, names):
                where[key] = Located(shown, i + 1, col)
                row[key] = typed(text)
                if key in ("code", "name") and row[key] is not None:
                    row[key] = str(text).strip()
            for _, key in names[len(cells):]:  # short rows: the rest left empty
                row[key] = None
                where[key] = Located(shown, i + 1, len(line) + 1)
            rows.append((row, where))
        return rows if ok else None

    def yaml_rows(self, path: Path, shown: str) -> list[tuple[dict, dict]] | None:
        data = self.yaml(path)
        if data is None:
            return None
        if isinstance(data, LocDict) and isinstance(data.get("cards"), LocList):
            data = data["cards"]
        if not isinstance(data, LocList):
            self.diags.error(Located(shown, 1), "a YAML deck file is a list of cards, one "
                             "mapping each (code:, name:, count: and the fields)")
            return None
        if len(data) > MAX_ROWS:
            self.diags.error(data.at(MAX_ROWS), limits.over("the deck file", len(data), MAX_ROWS,
                                                            "rows (distinct cards) per deck"))
            return None
        rows = []
        ok = True
        for i, item in enumerate(data):
            if not isinstance(item, LocDict):
                self.diags.error(data.at(i), f"a card must be a mapping (code:, name:, count: "
                                 f"and its fields), got {describe(item)}")
                ok = False
                continue
            row = {str(k): v for k, v in item.items()}
            where = {"": data.at(i), **{str(k): item.at(k) for k in item}}
            rows.append((row, where))
        return rows if ok else None

    def check_rows(self, rows: list[tuple[dict, dict]], shown: str,
                   name: str) -> list[tuple[dict, Located]] | None:
        """Each row checked; the good ones with where their code is. None when the deck
        cannot be made (no rows, or a code, count or field name that is wrong)."""
        if not rows:
            self.diags.error(Located(shown, 1), f"deck '{name}' has no cards")
            return None
        ok = True
        fields_seen: dict[str, Located] = {}
        seen: dict[str, tuple[str, Located]] = {}   # code in capitals -> (code, where)
        good = []
        total = 0
        for row, where in rows:
            for key in row:
                if key in RESERVED or key in fields_seen:
                    continue
                at = where.get(key, where[""])
                if not FIELD_RE.match(key) or key in CARD_ATTRIBUTES:
                    why = ("a card's own attribute" if key in CARD_ATTRIBUTES else
                           "a field is named in lower-case letters, digits and _, "
                           "starting with a letter")
                    self.diags.error(at, f"'{key}' cannot name a field of the cards ({why})"
                                     + suggest(key, RESERVED))
                    ok = False
                fields_seen[key] = at
            if len(fields_seen) > MAX_FIELDS:
                self.diags.error(where[""], limits.over(f"deck '{name}'", len(fields_seen),
                                                        MAX_FIELDS, "fields per card"))
                return None
            code = row.get("code")
            at = where.get("code", where[""])
            if code is None or code == "":
                self.diags.error(at, "this card has no code (the name examples use for it, "
                                 "such as R7)")
                ok = False
                continue
            code = str(code)
            if not CODE_RE.match(code):
                self.diags.error(at, f"card code '{code}' must be letters, digits, '-', '_' or "
                                 f"'+' (at most 16, starting with a letter or digit)")
                ok = False
                continue
            if code.lower() in RESERVED_CODES:
                self.diags.error(at, f"card code '{code}' is a word YAML or the decisions read "
                                 f"otherwise ({', '.join(sorted(RESERVED_CODES))}); choose "
                                 f"another code")
                ok = False
                continue
            if code.upper() in seen:
                other, first = seen[code.upper()]
                self.diags.error(at, f"card code '{code}' is already used at "
                                 f"{first.path}:{first.line}:{first.col}"
                                 + (" (codes differ only in case)" if code != other else ""))
                ok = False
                continue
            seen[code.upper()] = (code, at)
            count = row.get("count")
            if count is None:
                count = 1
            if isinstance(count, bool) or not isinstance(count, int) \
                    or not 1 <= count <= MAX_COUNT:
                self.diags.error(where.get("count", at), f"card '{code}': count must be a whole "
                                 f"number from 1 to {MAX_COUNT}, got {describe(count)}")
                ok = False
                continue
            total += count
            title = row.get("name")
            if title is not None:
                if not isinstance(title, (str, int)) or isinstance(title, bool):
                    self.diags.error(where.get("name", at), f"card '{code}': name must be text, "
                                     f"got {describe(title)}")
                    ok = False
                    continue
                problem = name_problem(str(title))
                if not problem and len(str(title)) > MAX_CELL_CHARS:
                    problem = f"has {len(str(title)):,} characters; at most {MAX_CELL_CHARS}"
                if problem:
                    self.diags.error(where.get("name", at), f"card '{code}': name {problem}")
                    ok = False
                    continue
            bad = False
            for key, value in row.items():
                if key in ("code", "name", "count"):
                    continue
                if isinstance(value, (LocDict, LocList, dict, list)):
                    self.diags.error(where.get(key, at), f"card '{code}': field '{key}' must be "
                                     f"text or a number, got {describe(value)}")
                    bad = True
                elif isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                    self.diags.error(where.get(key, at), f"card '{code}': field '{key}' has "
                                     f"{len(value):,} characters; at most {MAX_CELL_CHARS}")
                    bad = True
            if bad:
                ok = False
                continue
            clean = {"code": code, "name": str(title) if title is not None else None,
                     "count": count, **{k: v for k, v in row.items() if k not in RESERVED}}
            good.append((clean, at))
        if total > limits.MAX_DECK_CARDS:
            self.diags.error(Located(shown, 1), limits.over(f"deck '{name}'", total,
                                                            limits.MAX_DECK_CARDS,
                                                            "cards per deck, copies counted"))
            return None
        self.suspects = self.warn_odd_cells(rows)
        return good if ok else None

    def warn_odd_cells(self, rows: list[tuple[dict, dict]]) -> list[str]:
        """A field that is a whole number on all the other cards but text on a few (a
        typing slip: "lots", "7a", "O" for 0) is warned of at each such cell: an engine that
        compares or adds it would fail on that card only, at its own line, far from here.
        Returns each such cell as a note for that failure (``DeckSpec.suspects``)."""
        suspects: list[str] = []
        columns: dict[str, list[tuple[Any, Located, Any]]] = {}
        for row, where in rows:
            for key, value in row.items():
                if key not in RESERVED and value is not None:
                    columns.setdefault(key, []).append((value, where.get(key, where[""]),
                                                        row.get("code")))
        for key, cells in columns.items():
            numbers = [v for v, _, _ in cells if isinstance(v, int) and not isinstance(v, bool)]
            odd = [(v, at, code) for v, at, code in cells if isinstance(v, str)]
            if not odd or len(numbers) < ODD_CELL_MIN or len(odd) > max(1, len(cells) // 10):
                continue
            for value, at, code in odd[:3]:
                self.diags.warning(at, f"card '{code}': {key} is {describe(value)}, where the "
                                       f"other cards' {key} is a whole number (such as "
                                       f"{numbers[0]}); an engine that compares or adds it "
                                       f"would fail on this card")
                suspects.append(f"card '{code}' has {key} {describe(value)} at "
                                f"{at.path}:{at.line}:{at.col}, where the other cards' is a "
                                f"whole number: the fault may come from that card")
        return suspects


def names_of(names: list[tuple[int, str]]) -> set[str]:
    return {n for _, n in names}
