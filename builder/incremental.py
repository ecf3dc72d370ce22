"""What a build may reuse from the previous output: the build manifest.

Every output belongs to one *part* of the build (``book:war``, ``compendium``, ``site``), and
each part has a *key*: a hash of every input it is made from. The manifest,
``.warbook-build.json`` in the output folder, records for each part its key and the files
it wrote (with their size and modification time). A part whose key is unchanged and whose
files are still there, untouched, is not rendered again: its files are hard-linked (or,
across file systems, copied) from the previous output into the staging folder, so the
staged folder is always a whole output, whatever way it is then published.

Which parts there are, which inputs each covers and which files each writes is said by
its product (:mod:`builder.build.products`); this module hashes what a product names
(:class:`Inputs`) and keeps the manifest. Every key covers the package, the project files
and the shared templates besides the product's own inputs.

"The project files" are everything in the content folder outside the game folders and
the content's own templates (``index.yaml``, a logo, the content's own fonts); the
content's templates of a kind (``templates/book/``) count with the shipped ones of that
kind. "The package" is every
source file of warbook itself, its version and the installed engine plugins, so an edit to
the engine or a renderer rebuilds everything. The website is cheap (a third of a second):
when its key changes it is rendered whole, and each page that came out byte for byte the
same as before keeps the previous file (see :func:`keep_unchanged`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import __version__, resources

MANIFEST = ".warbook-build.json"
FORMAT = 1

#: the installed package's own folder (its modules count in every unit's key); its
#: ``templates`` are hashed by kind (:meth:`Inputs.templates`), not as part of the package,
#: so a checkout (where ``builder/templates`` is a link) and a wheel key alike
PACKAGE = resources.package_folder()


# --------------------------------------------------------------------------- hashing
#: a file larger than this is hashed by its size and time, not read (content files are far
#: smaller; the check refuses what is too large, and the hash must not read it first)
HASH_READ_MAX = 32 * 1024 * 1024


def _hash_files(h, root: Path, files: Iterable[Path]) -> None:
    """Names and bytes of ``files``. A link is hashed by where it points and never followed:
    a file a link takes outside the content folder is not read before the check refuses it
    (builder/contentpath.py), and a new link, a loop or one leading out included, changes
    the hash, so the check runs and says what is wrong. Anything but a regular file (a FIFO
    would block) counts by its kind alone."""
    for f in sorted(files):
        h.update(str(f.relative_to(root)).encode() + b"\0")
        try:
            st = f.lstat()
            if stat.S_ISLNK(st.st_mode):
                h.update(b"link:" + os.fsencode(os.readlink(f)))
            elif not stat.S_ISREG(st.st_mode):
                h.update(b"kind:%d" % stat.S_IFMT(st.st_mode))
            elif st.st_size > HASH_READ_MAX:
                h.update(b"big:%d:%d" % (st.st_size, st.st_mtime_ns))
            else:
                h.update(f.read_bytes())
        except OSError as e:  # unreadable: the check will say so; the hash only has to differ
            h.update(b"error:%d" % (e.errno or 0))
        h.update(b"\0")


def tree_hash(root: Path, skip: tuple[str, ...] = (), within: Path | None = None) -> str:
    """A hash of every entry under ``root`` (names and bytes; links by where they point,
    never followed), leaving out the top-level entries named in ``skip``. Hidden files and
    editor droppings (``~``, ``.swp``) count for nothing. With ``within`` (the content
    folder), a ``root`` that a linked folder on its way takes outside it is not read: it is
    hashed by where it leads (the check refuses it)."""
    h = hashlib.sha256()
    if within is not None:
        real = os.path.realpath(root)
        if not Path(real).is_relative_to(os.path.realpath(within)):
            h.update(b"outside:" + os.fsencode(real))
            return h.hexdigest()
    if os.path.islink(root):
        _hash_files(h, root.parent, [root])
    elif root.is_dir():
        files = []
        for folder, dirs, names in os.walk(root):  # a link to a folder is listed, not entered
            here = Path(folder)
            dirs[:] = [d for d in dirs if _counts((here / d).relative_to(root), skip)]
            for name in names + [d for d in dirs if os.path.islink(here / d)]:
                p = here / name
                if _counts(p.relative_to(root), skip):
                    files.append(p)
        _hash_files(h, root, files)
    elif os.path.lexists(root):
        _hash_files(h, root.parent, [root])
    return h.hexdigest()


def _counts(rel: Path, skip: tuple[str, ...]) -> bool:
    if rel.parts[0] in skip:
        return False
    if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
        return False
    return not (rel.name.endswith("~") or rel.name.endswith(".swp"))


def game_folders(content_root: Path) -> list[str]:
    return sorted(p.parent.name for p in Path(content_root).glob("*/game.yaml"))


def _plugins() -> str:
    try:
        from importlib.metadata import entry_points

        eps = entry_points(group="warbook.engines")
        return ";".join(sorted(f"{e.name}={e.value}@{getattr(e.dist, 'version', '')}"
                               for e in eps))
    except Exception:  # noqa: BLE001 - no metadata: the plugins are simply not in the key
        return ""


def _fonts() -> str:
    """The shipped typefaces, by name, size and modification time (they are installed
    files; the content's own fonts are project files, hashed with the content)."""
    from .render.fonts import FACES, FONT_DIRS

    h = hashlib.sha256()
    for *_, name in FACES:
        for d in FONT_DIRS:
            p = d / name
            if p.exists():
                st = p.stat()
                h.update(f"{p}:{st.st_size}:{st.st_mtime_ns};".encode())
                break
    return h.hexdigest()


class Inputs:
    """The hashes of a build's inputs, each computed once."""

    def __init__(self, content_root: Path, options: dict[str, Any]):
        self.root = Path(content_root).resolve()
        self.options = options
        self.slugs = game_folders(self.root)
        self._cache: dict[str, str] = {}

    def _get(self, name: str, make) -> str:
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    def package(self) -> str:
        return self._get("package", lambda: hashlib.sha256(
            (__version__ + tree_hash(PACKAGE, skip=("templates",)) + _plugins()
             + _fonts()).encode()).hexdigest())

    def templates(self, kind: str) -> str:
        """The shipped templates of one kind and the content's own of that kind
        (``<content>/templates/<kind>/``, which override them)."""
        return self._get(f"templates:{kind}", lambda: tree_hash(resources.templates() / kind)
                         + tree_hash(self.root / "templates" / kind, within=self.root))

    def project(self) -> str:
        """Everything in the content folder outside the game folders and the templates."""
        return self._get("project", lambda: tree_hash(
            self.root, skip=tuple(self.slugs) + ("templates",), within=self.root) + tree_hash(
            self.root / "templates", skip=("book", "components", "site", "shared"),
            within=self.root))

    def game(self, slug: str, examples: bool = True) -> str:
        # figures.json is the lab's, not the designer's: the parts that print figures key
        # on the figures they printed (the manifest), so a measured game redraws no sheet
        skip = ("figures.json",) if examples else ("examples", "figures.json")
        return self._get(f"game:{slug}:{examples}",
                         lambda: tree_hash(self.root / slug, skip, within=self.root))

    def all_games(self) -> str:
        return hashlib.sha256("".join(f"{s}={self.game(s)};" for s in self.slugs)
                              .encode()).hexdigest()

    def key(self, part: str, covers: Iterable[Any]) -> str:
        """The key of ``part``: a hash of what every part is made from (the package, the
        project files, the shared templates) and of ``covers``, the inputs its product
        names for it (hashes from this object, settings, the names of the PDFs)."""
        parts = [part, self.package(), self.project(), self.templates("shared")] + list(covers)
        return hashlib.sha256(repr(parts).encode()).hexdigest()


# --------------------------------------------------------------------------- manifest
@dataclass
class Manifest:
    """The previous build's parts (``units`` in the file): key, files (relative path ->
    [size, mtime_ns]) and, for a rulebook, what the compendium needs of it (page count,
    anchors' pages)."""

    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    check: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, out: Path) -> "Manifest":
        try:
            data = json.loads((Path(out) / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return cls()
        return cls(units=data.get("units") or {}, check=data.get("check") or {})

    def write(self, folder: Path) -> None:
        (Path(folder) / MANIFEST).write_text(json.dumps(
            {"format": FORMAT, "version": __version__, "check": self.check,
             "units": self.units}, indent=1, sort_keys=True), encoding="utf-8")

    def intact(self, unit: str, key: str, out: Path) -> bool:
        """Whether the part was built from the same inputs and its files are all still in
        ``out`` as they were written."""
        entry = self.units.get(unit)
        if not entry or entry.get("key") != key:
            return False
        for rel, (size, mtime) in entry.get("files", {}).items():
            try:
                st = (Path(out) / rel).stat()
            except OSError:
                return False
            if st.st_size != size or st.st_mtime_ns != mtime:
                return False
        return True


def stat_files(root: Path, files: Iterable[Path]) -> dict[str, list[int]]:
    out = {}
    for f in files:
        st = f.stat()
        out[str(f.relative_to(root))] = [st.st_size, st.st_mtime_ns]
    return out


def files_under(d: Path) -> list[Path]:
    """Every file under the folder ``d`` (none if it is not one)."""
    return [p for p in d.rglob("*") if p.is_file()] if d.is_dir() else []


def link_into(out: Path, staging: Path, rels: Iterable[str]) -> int:
    """Put the previous output's files into the staging folder unchanged: a hard link
    where the file system allows one (no copy, same modification time), else a copy that
    keeps the modification time."""
    n = 0
    for rel in rels:
        src, dst = Path(out) / rel, Path(staging) / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.exists():
            dst.unlink()
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
        n += 1
    return n


def keep_unchanged(out: Path, staging: Path, sub: str) -> tuple[int, int]:
    """For each file staged under ``sub`` that is byte for byte the file already in
    ``out``, stage the previous file instead (so its modification time says it was not
    rewritten). Returns (kept, rewritten)."""
    kept = rewritten = 0
    for f in sorted((Path(staging) / sub).rglob("*")):
        if not f.is_file():
            continue
        rel = f.relative_to(staging)
        old = Path(out) / rel
        try:
            same = old.is_file() and old.stat().st_size == f.stat().st_size \
                and old.read_bytes() == f.read_bytes()
        except OSError:
            same = False
        if same:
            link_into(out, staging, [str(rel)])
            kept += 1
        else:
            rewritten += 1
    return kept, rewritten
