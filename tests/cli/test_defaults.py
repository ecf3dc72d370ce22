"""Where the commands look for content and write their output by default."""

from __future__ import annotations

from pathlib import Path

from builder.cli import find_default


def test_a_folder_with_content_gets_its_own_output(tmp_path: Path, monkeypatch):
    """A designer's folder with content/ builds into its own output/ (made by the first
    build), never into the checkout's."""
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    assert find_default("content") == tmp_path / "content"
    assert find_default("output") == tmp_path / "output"


def test_a_folder_without_content_uses_the_checkouts(tmp_path: Path, monkeypatch):
    """Beside the package (a checkout) when the working folder has neither; the checkout's
    output only once it exists (a fresh clone has none until its first build)."""
    import builder.cli

    checkout = tmp_path / "checkout"
    (checkout / "builder").mkdir(parents=True)
    (checkout / "content").mkdir()
    monkeypatch.setattr(builder.cli, "__file__", str(checkout / "builder" / "cli.py"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert find_default("content") == checkout / "content"
    assert find_default("output") == work / "output"        # no output in the checkout yet
    (checkout / "output").mkdir()
    assert find_default("output") == checkout / "output"
