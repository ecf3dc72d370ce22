"""Where the commands look for content and write their output by default."""

from __future__ import annotations

from pathlib import Path

from builder.cli import find_default

CHECKOUT = Path(__file__).resolve().parents[2]


def test_a_folder_with_content_gets_its_own_output(tmp_path: Path, monkeypatch):
    """A designer's folder with content/ builds into its own output/ (made by the first
    build), never into the checkout's."""
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    assert find_default("content") == tmp_path / "content"
    assert find_default("output") == tmp_path / "output"


def test_a_folder_without_content_uses_the_checkouts(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_default("content") == CHECKOUT / "content"
    assert find_default("output") == CHECKOUT / "output"
