"""The package carries its own files: the templates, stylesheets and site assets ship inside
the wheel and are found through ``builder.resources``; an installation without them stops
the first command that renders or checks templates with an internal error (exit status 2)
naming the missing file, before anything is written (issue 23, item 1)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from builder import cli, resources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def templates_in(tmp_path):
    """Point the lookup at a folder of the test's choosing; the package's own afterwards."""
    def look(folder: Path) -> Path:
        resources.look_in(folder)
        return folder
    yield look
    resources.look_in(None)


def test_the_shipped_list_is_the_repository_folder():
    on_disk = sorted(p.relative_to(ROOT / "templates").as_posix()
                     for p in (ROOT / "templates").rglob("*") if p.is_file()
                     and "__pycache__" not in p.parts)
    assert sorted(resources.SHIPPED) == on_disk


def test_the_templates_are_found_inside_the_package():
    found = resources.templates()
    assert (found / "book" / "book.css").is_file()
    # through the package (a link in a checkout, a folder in a wheel), not beside the checkout
    assert (resources.package_folder() / "templates" / "book" / "book.css").is_file()
    assert resources.package_folder() == ROOT / "builder"


@pytest.mark.parametrize("command", [["check"], ["build", "--game", "war"]])
def test_no_templates_at_all_stops_at_start(templates_in, tmp_path, capsys, command):
    templates_in(tmp_path / "empty")
    out = tmp_path / "out"
    args = command + (["--out", str(out)] if command[0] == "build" else [])
    assert cli.main(args + ["--content", str(ROOT / "content")]) == 2
    err = capsys.readouterr().err
    assert "internal error" in err
    assert "templates/book/_diagram_print.html.j2 is missing" in err
    assert list(tmp_path.iterdir()) == []   # no output, staging folder or lock file


def test_a_warm_check_cache_does_not_hide_them(templates_in, tmp_path, capsys):
    """The check's cache answers without reading a template; it must still stop."""
    content, out = tmp_path / "content", tmp_path / "out"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    out.mkdir()
    args = ["check", "--content", str(content), "--out", str(out)]
    assert cli.main(args) == 0
    assert cli.main(args) == 0   # the second answer is the cache's
    capsys.readouterr()
    templates_in(tmp_path / "empty")
    assert cli.main(args) == 2
    assert "templates/book/_diagram_print.html.j2 is missing" in capsys.readouterr().err


def test_one_missing_asset_is_named(templates_in, tmp_path, capsys):
    partial = tmp_path / "partial"
    shutil.copytree(ROOT / "templates", partial)
    (partial / "site" / "search.js").unlink()   # say, a package-data glob of *.j2 and *.css
    templates_in(partial)
    out = tmp_path / "out"
    assert cli.main(["build", "--content", str(ROOT / "content"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "templates/site/search.js is missing" in err
    assert not out.exists()


def test_a_new_game_needs_them_too(templates_in, tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    before = sorted(p.name for p in content.iterdir())
    templates_in(tmp_path / "empty")
    assert cli.main(["new", "game", "my-war", "--content", str(content)]) == 2
    assert "is missing" in capsys.readouterr().err
    assert sorted(p.name for p in content.iterdir()) == before


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_template(tmp_path):
    """Build the wheel as .ci/run does and read its file list."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "--disable-pip-version-check", "-w", str(tmp_path), str(ROOT)],
                   check=True, timeout=600)
    (wheel,) = tmp_path.glob("warbook-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in resources.SHIPPED:
        assert f"builder/templates/{name}" in names, name
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "builder").rglob("*.py")
               if "templates" not in p.relative_to(ROOT).parts}
    assert modules <= names, sorted(modules - names)
    assert not any(n.startswith(("templates/", "content/", "tests/")) for n in names)
