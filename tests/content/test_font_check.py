"""A damaged font given in ``book.fonts`` is refused by `warbook check` at its line.

Before issue 22 the loader opened a content font lazily and read only its cmap, so a font
whose glyph table was damaged passed the check and the build then ended as "internal
error: TypeError" in WeasyPrint's typesetting (seen with the CFF copy below). The damaged
fonts are copies of real ones (Cabin, CFF outlines; DejaVu Sans, TrueType glyf outlines)
with the second half of the outline table overwritten.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from builder import limits
from builder.content import load_content

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"
CABIN = Path("/usr/share/fonts/opentype/cabin/Cabin-Regular.otf")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def damaged(source: Path, target: Path, tag: str) -> Path:
    """A copy of ``source`` with the second half of table ``tag`` overwritten."""
    data = bytearray(source.read_bytes())
    with TTFont(str(source), lazy=True) as font:
        entry = font.reader.tables[tag]
        start, length = entry.offset, entry.length
    for i in range(start + length // 2, start + length):
        data[i] = (i * 151) & 0xFF
    target.write_bytes(bytes(data))
    return target


@pytest.fixture()
def content(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "content" / "high-five")
    return tmp_path / "content"


def with_font(content: Path, name: str) -> str:
    line = f"    headings: {{regular: {name}}}"
    (content / "index.yaml").write_text("book:\n  fonts:\n" + line + "\n"
                                        "games: [high-five]\n")
    return line


@pytest.mark.parametrize("source, name, tag", [(CABIN, "bad.otf", "CFF "),
                                               (DEJAVU, "bad.ttf", "glyf")])
def test_a_damaged_outline_table_is_refused_at_its_line(content: Path, source, name, tag):
    if not source.exists():
        pytest.skip(f"{source} is not installed (scripts/setup installs it)")
    damaged(source, content / name, tag)
    with TTFont(str(content / name), lazy=True) as font:        # what the old check read
        assert ord("A") in font.getBestCmap()
    line = with_font(content, name)
    got, diags = load_content(Path("content"))
    col = line.index(name) + 1
    assert [d.format() for d in diags.errors] == [
        d.format() for d in diags.errors
        if d.path == "content/index.yaml" and (d.line, d.col) == (3, col)]
    assert len(diags.errors) == 1
    assert diags.errors[0].message.startswith(
        f"'{name}' is not a font file fontTools can read (")
    assert ("damaged glyphs: " if tag == "CFF " else "a damaged 'glyf' table: ") \
        in diags.errors[0].message
    assert got.book.fonts == {}


def test_the_whole_font_is_accepted(content: Path):
    shutil.copyfile(CABIN, content / "good.otf")
    with_font(content, "good.otf")
    got, diags = load_content(Path("content"))
    assert diags.errors == []
    assert got.book.fonts["Cabin-Regular.otf"].endswith("good.otf")


def test_a_font_over_the_size_limit_is_refused_unread(content: Path):
    with open(content / "big.otf", "wb") as f:      # sparse: nothing is written but its end
        f.truncate(limits.MAX_FONT_BYTES + 1)
    line = with_font(content, "big.otf")
    _, diags = load_content(Path("content"))
    assert [d.format() for d in diags.errors] == [
        f"content/index.yaml:3:{line.index('big.otf') + 1}: error: 'big.otf' has "
        f"{limits.MAX_FONT_BYTES + 1:,} bytes; at most {limits.MAX_FONT_BYTES:,} bytes per font "
        "file"]


def test_a_build_with_a_damaged_font_stops_at_the_check(content: Path):
    """Exit 1 with the located error, no "internal error", the output folder untouched."""
    damaged(CABIN, content / "bad.otf", "CFF ")
    with_font(content, "bad.otf")
    out = content.parent / "output"
    out.mkdir()
    (out / "kept.txt").write_text("the previous build\n")
    run = subprocess.run([sys.executable, "-m", "builder", "build", "--content", "content",
                          "--out", "output"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "content/index.yaml:3:" in run.stderr and "internal error" not in run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["kept.txt"]
    assert (out / "kept.txt").read_text() == "the previous build\n"
