"""Scaffolds: ``warbook new game`` and ``warbook new example``.

``new game SLUG`` writes a content folder that passes ``warbook check`` and ``warbook
build`` at once: classic War on War's engine, to be changed into the designer's game (its
files come from ``templates/new/game/``). ``new game SLUG --engine`` writes a game with an
engine of its own instead (``templates/new/engine/``: a small shedding game in
``engine.py``, with a deck, hands, a pile, one decision a turn, a reshuffle as chance, the
table in words and a heuristic, that passes the conformance kit). ``new game SLUG --from
OTHER`` copies another game's folder. Either way the slug is added to ``games:`` in ``index.yaml``.
``new example GAME`` writes the game's next numbered example as a draft, its setup and
first step copied from the game's latest example. Nothing is ever overwritten.

Raises :class:`ScaffoldError` (shown by the command line) for a bad slug, an existing
folder or file, or an unknown game.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .diagnostics import suggest
from .errors import WarbookError
from .render.templating import TEMPLATES, environment

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
EXAMPLE_RE = re.compile(r"^(\d+)-.*\.yaml$")


class ScaffoldError(WarbookError):
    """What a scaffold refused to do; the message says why and what to do instead."""


def title_of(slug: str) -> str:
    return " ".join(w.capitalize() for w in slug.split("-"))


def check_slug(slug: str) -> None:
    if not SLUG_RE.match(slug):
        raise ScaffoldError(f"'{slug}' is not a usable game name: use lower-case letters, "
                            f"digits and hyphens, starting with a letter or digit "
                            f"(such as 'my-war')")


def new_game(root: Path, slug: str, source: str | None = None,
             designer: str = "the designer", engine: bool = False,
             deck: bool = False) -> list[Path]:
    """Write ``root/slug`` (a new game) and add it to ``index.yaml``; returns the files
    written."""
    check_slug(slug)
    folder = root / slug
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists; nothing was written (choose another "
                            f"name, or remove the folder first)")
    if source is not None:
        src = root / source
        if not (src / "game.yaml").is_file():
            known = sorted(p.parent.name for p in root.glob("*/game.yaml"))
            raise ScaffoldError(f"no game '{source}' to copy in {root} "
                                f"(games: {', '.join(known) or 'none'})")
        shutil.copytree(src, folder, symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__"))
        game_yaml = folder / "game.yaml"
        text = game_yaml.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^slug:.*$", f"slug: {slug}", text, count=1)
        text = re.sub(r"(?m)^title:.*$", f"title: {title_of(slug)}", text, count=1)
        game_yaml.write_text(text, encoding="utf-8")
        written = sorted(p for p in folder.rglob("*") if p.is_file())
    else:
        written = _write_starter(folder, slug, designer,
                                 "engine" if engine or deck else "game", deck=deck)
    add_to_index(root / "index.yaml", slug)
    return written


def _write_starter(folder: Path, slug: str, designer: str, kind: str = "game",
                   deck: bool = False) -> list[Path]:
    """Write a starter game (``templates/new/KIND/``: files ending ``.j2`` are rendered
    with the game's slug, title and designer, the others copied as they are) into a
    staging folder, then move it into place whole, so a failure leaves no half folder.
    With ``deck``, the files of ``templates/new/deck/`` (the deck file, and the rules and
    examples that name its cards) take the place of KIND's of the same name."""
    env = environment(keep_trailing_newline=True, autoescape=False)
    layers = [kind] + (["deck"] if deck else [])
    files: dict[Path, str] = {}     # the starter's file -> the layer it comes from
    for layer in layers:
        base = TEMPLATES / "new" / layer
        for src in sorted(p for p in base.rglob("*") if p.is_file()):
            files[src.relative_to(base)] = layer
    staging = folder.with_name(f".{folder.name}.new")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        for rel, layer in sorted(files.items()):
            src = TEMPLATES / "new" / layer / rel
            target = staging / (rel.with_suffix("") if src.suffix == ".j2" else rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            if src.suffix == ".j2":
                text = env.get_template(f"new/{layer}/" + rel.as_posix()).render(
                    slug=slug, title=title_of(slug), designer=designer, deck=deck)
                target.write_text(text, encoding="utf-8")
            else:
                shutil.copyfile(src, target)
        staging.rename(folder)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return sorted(p for p in folder.rglob("*") if p.is_file())


def add_to_index(index: Path, slug: str) -> None:
    """Append ``slug`` to the ``games:`` list of ``index.yaml``, keeping the rest of the
    file as written (a flow list ``[a, b]`` or a block list of ``- a`` lines)."""
    if not index.exists():
        index.write_text(f"games: [{slug}]\n", encoding="utf-8")
        return
    lines = index.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = re.match(r"^games:\s*\[(.*)\]\s*$", line)
        if m:
            items = [s.strip() for s in m.group(1).split(",") if s.strip()]
            lines[i] = f"games: [{', '.join(items + [slug])}]\n"
            break
        if re.match(r"^games:\s*$", line):
            j = i + 1
            indent = "  "
            while j < len(lines) and re.match(r"^\s+-\s", lines[j]):
                indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
                j += 1
            lines.insert(j, f"{indent}- {slug}\n")
            break
    else:
        lines.append(("" if not lines or lines[-1].endswith("\n") else "\n")
                     + f"games: [{slug}]\n")
    index.write_text("".join(lines), encoding="utf-8")


def _top_level_block(text: str, key: str) -> str:
    """The lines of a top-level YAML key's block (``key:`` and what is indented under it)."""
    out, inside = [], False
    for line in text.splitlines():
        if re.match(rf"^{re.escape(key)}:", line):
            inside = True
        elif inside and line and not line[0].isspace() and not line.startswith("#"):
            break
        if inside:
            out.append(line)
    return "\n".join(out).rstrip()


def _first_step(steps_block: str) -> str:
    """The first item of a ``steps:`` block."""
    out: list[str] = []
    for line in steps_block.splitlines()[1:]:
        if re.match(r"^\s*-\s", line) and out:
            break
        out.append(line)
    return "\n".join(out).rstrip()


def new_example(root: Path, slug: str) -> Path:
    """Write the next numbered example of game ``slug``; returns its path."""
    folder = root / slug
    if not (folder / "game.yaml").is_file():
        known = sorted(p.parent.name for p in root.glob("*/game.yaml"))
        raise ScaffoldError(f"no game '{slug}' in {root} (games: {', '.join(known) or 'none'})"
                            f"{suggest(slug, known)}")
    ex_dir = folder / "examples"
    existing = sorted((int(m.group(1)), p) for p in ex_dir.glob("*.yaml")
                      if (m := EXAMPLE_RE.match(p.name)))
    if not existing:
        raise ScaffoldError(f"{slug} has no example to take the setup keys from; write the "
                            f"first one by hand (see docs/writing-an-example.md)")
    number = existing[-1][0] + 1
    source = existing[-1][1]
    target = ex_dir / f"{number:02d}-new-example.yaml"
    if target.exists():
        raise ScaffoldError(f"{target} already exists; nothing was written")
    text = source.read_text(encoding="utf-8")
    title = re.search(r"(?m)^title:\s*(.*)$", (folder / "game.yaml").read_text("utf-8"))
    env = environment(keep_trailing_newline=True, autoescape=False)
    target.write_text(env.get_template("new/example.yaml.j2").render(
        slug=slug, number=f"{number:02d}", game_title=title.group(1) if title else slug,
        source=f"examples/{source.name}",
        setup="\n".join(b for b in (_top_level_block(text, "options"),
                                     _top_level_block(text, "setup")) if b),
        steps=_first_step(_top_level_block(text, "steps"))), encoding="utf-8")
    return target
