"""A stage that fails, in this process or in a forked one, fails the whole build: nothing
is published, the previous output stays exactly as it was, and no staging folder is left
behind (issue 12). Each stage is made to raise inside a real ``build()``."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.build import BuildError, build
from builder.check import run_check
from builder.render import fonts, pnp
from builder.render.book.pdf import BookRenderer
from builder.render.errors import RenderError
from builder.render.site import pages
from builder.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.build]


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    """A one-game content (War) checked: the cheapest whole build there is."""
    content = tmp_path_factory.mktemp("content")
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    return report


def into(report, out: Path) -> Settings:
    """The build's settings for ``report``'s content into ``out`` (A4, full ink)."""
    return Settings(content_root=Path(report.content.root), output=out)


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def previous(tmp_path: Path) -> Path:
    """An output folder holding a previous build's files (stand-ins: what matters is that
    not one byte of them changes and nothing is added)."""
    out = tmp_path / "output"
    (out / "pdf").mkdir(parents=True)
    (out / "site").mkdir()
    (out / "pdf" / "war-rules.pdf").write_bytes(b"%PDF-previous")
    (out / "site" / "index.html").write_text("<p>previous</p>")
    return out


def boom(*args, **kwargs):
    raise RenderError("the stage was made to fail")


def in_child_only(parent: int):
    def fail(*args, **kwargs):
        if os.getpid() != parent:
            raise RuntimeError("the child stage was made to fail")
        return ORIGINAL_WRITE_BOOK(*args, **kwargs)
    return fail


ORIGINAL_WRITE_BOOK = BookRenderer.write_book

STAGES = {
    # the rulebooks: laid out in this process and a forked one
    "books": (BookRenderer, "write_book", boom),
    # the component sheets: drawn in a forked child (an unexpected exception there)
    "components": (pnp, "render_all",
                   lambda *a, **k: (_ for _ in ()).throw(RuntimeError("sheets failed"))),
    # the website, after the PDFs, in this process
    "site": (pages, "render_site", boom),
    # binding the compendium from the written rulebooks
    "binding": (BookRenderer, "bind_compendium", boom),
}


def assert_untouched(out: Path, before: dict[str, str]) -> None:
    assert snapshot(out) == before
    leftovers = [p.name for p in out.parent.iterdir() if ".staging-" in p.name]
    assert leftovers == []
    assert not [p for p in out.rglob(".*old*")]


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_failing_stage_fails_the_build_and_publishes_nothing(stage, small_report, previous,
                                                              monkeypatch):
    owner, name, failure = STAGES[stage]
    monkeypatch.setattr(owner, name, failure)
    before = snapshot(previous)
    with pytest.raises(BuildError):
        build(small_report, into(small_report, previous))
    assert_untouched(previous, before)


def test_an_unexpected_error_in_a_stage_still_publishes_nothing(small_report, previous,
                                                               monkeypatch):
    """Not a render error but a bug (here a RuntimeError in the site stage): it goes up as
    it is (the command line reports it as an internal error), and the output is as it was."""
    def bug(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(pages, "render_site", bug)
    before = snapshot(previous)
    with pytest.raises(RuntimeError, match="a bug"):
        build(small_report, into(small_report, previous))
    assert_untouched(previous, before)


def test_a_book_that_fails_only_in_the_forked_process_fails_the_build(small_report, tmp_path,
                                                                      monkeypatch):
    """Two rulebooks, so that the second process takes one; only the child fails. A child
    that exits with a positive status must count as failed (it did: exit status 1), and its
    error reaches the parent as a message."""
    content = tmp_path / "content"
    for slug in ("war", "peace"):
        shutil.copytree(ROOT / "content" / slug, content / slug)
    (content / "index.yaml").write_text("games: [war, peace]\n")
    report = run_check(content)
    assert report.ok
    out = tmp_path / "output"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    before = snapshot(out)
    monkeypatch.setattr(BookRenderer, "write_book", in_child_only(os.getpid()))
    with pytest.raises(BuildError, match="^rulebooks: internal error: RuntimeError: the child "
                                         "stage was made to fail$"):
        build(report, into(report, out), game=None)
    assert_untouched(out, before)


@pytest.mark.parametrize("ending,why", [
    pytest.param(lambda *a, **k: sys.exit(3), "exit status 3 and sent no result", id="exit-3"),
    pytest.param(lambda *a, **k: sys.exit(0), "exit status 0 and sent no result", id="exit-0"),
    pytest.param(lambda *a, **k: os._exit(0), "exit status 0 and sent no result", id="_exit-0"),
])
def test_a_child_that_ends_without_its_result_fails_the_build(ending, why, small_report,
                                                              previous, monkeypatch):
    """The component sheets' child ends before sending its result: whatever its exit
    status, the sheets were not all drawn, so nothing may be published."""
    monkeypatch.setattr(pnp, "render_all", ending)
    before = snapshot(previous)
    with pytest.raises(BuildError, match=f"^component sheets: the process ended with {why}$"):
        build(small_report, into(small_report, previous))
    assert_untouched(previous, before)


def test_a_bug_in_a_child_is_a_clean_error_on_the_command_line(small_report, tmp_path,
                                                              monkeypatch, capfd):
    """In-process CLI, with the forked child's own output captured too (capfd): a bug in
    the component sheets is an internal error with exit status 2, as a bug in the parent
    process is, with no traceback anywhere."""
    from builder import cli

    content = Path(small_report.content.root)
    out = tmp_path / "output"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    monkeypatch.setattr(pnp, "render_all",
                        lambda *a, **k: (_ for _ in ()).throw(KeyError("sheet")))
    status = cli.main(["build", "--content", str(content), "--out", str(out)])
    err = capfd.readouterr().err
    assert status == 2
    assert "error: component sheets: internal error: KeyError: 'sheet'\n" in err
    assert "this is a bug in warbook, not in your content" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_a_diagram_that_would_print_an_overlap_fails_the_build_at_its_step(
        small_report, tmp_path, monkeypatch, capfd):
    """Issue 27, item 2: the layout check runs in the build. With the room for the rings
    taken away, War's labels would touch a won card's ring: the build stops with the
    example step's file and line, exit status 1, and writes nothing."""
    from builder import cli
    from builder.render.book import pdf

    monkeypatch.setattr(pdf, "OUTSIDE", 0.0)
    content = Path(small_report.content.root)
    out = tmp_path / "output"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    status = cli.main(["build", "--content", str(content), "--out", str(out)])
    err = capfd.readouterr().err
    assert status == 1, err
    import re

    assert re.search(r"(?m)^\S*war/examples/[\w-]+\.yaml:\d+:\d+: error: Example \d+, step "
                     r"\d+: the diagram cannot be printed: the words .* would touch a mark "
                     r"drawn on or round a card", err), err
    assert "hint: this is warbook's layout failing" in err
    assert "Traceback" not in err and "internal error" not in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_a_failing_stage_is_a_clean_error_on_the_command_line(tmp_path: Path):
    """Through the CLI: a stage error is a message and exit status 1, never a traceback."""
    import subprocess
    import sys

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    rules = content / "war" / "rules.md"
    # an id the website keeps for itself: the check passes, the site stage refuses it
    rules.write_text(rules.read_text().replace("{#golden-rules-decide}", "{#glossary}", 1))
    (content / "index.yaml").write_text("games: [war]\n")
    out = tmp_path / "output"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    proc = subprocess.run([sys.executable, "-m", "builder", "build", "--content", str(content),
                           "--out", str(out)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert proc.returncode == 1
    assert "error: war: the rule 1.1 has the id 'glossary'" in proc.stderr
    assert "nothing was written; the previous output is unchanged" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


# ------------------------------------------------------------------ the machine's failures
# (issue 22, item 5). A real small tmpfs (full, or read-only) and real mount points: these
# need root and mount, which CI has; a missing capability fails the test, never skips it.

def one_game(tmp: Path) -> Path:
    content = tmp / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    return content


def mount_tmpfs(where: Path, size: str, *options: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *options]), "tmpfs",
                    str(where)], check=True)


def umount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], check=True)


def stand_in_output(out: Path) -> dict[str, str]:
    """A previous output (stand-ins: what matters is that not one byte changes)."""
    (out / "pdf").mkdir(parents=True)
    (out / "site").mkdir()
    (out / "pdf" / "war-rules.pdf").write_bytes(b"%PDF-previous")
    (out / "site" / "index.html").write_text("<p>previous</p>")
    return snapshot(out)


def warbook_build(content: Path, out: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", "build", "--content", str(content),
                           "--out", out], capture_output=True, text=True, cwd=cwd, timeout=600)


def assert_plain_failure(proc: subprocess.CompletedProcess, message: str) -> None:
    """Exit status 1, the message (a regular expression) as the error, and nothing of a
    bug: no "internal error", no traceback."""
    import re

    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(f"(?m)^error: {message}$", proc.stderr), proc.stderr
    assert "internal error" not in proc.stderr and "bug in warbook" not in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.parametrize("size", ["3m", "6m"])
def test_a_full_disk_is_named_with_the_file_and_leaves_the_previous_output(size, tmp_path):
    """The one-game build needs about 12 MB: on a 3 MB disk the rulebooks' process runs out
    first, on a 6 MB one the component sheets' forked child; either way the file being
    written is named as it would be in the output, not in the staging folder."""
    content = one_game(tmp_path)
    disk = tmp_path / "disk"
    mount_tmpfs(disk, size)
    try:
        before = stand_in_output(disk / "output")
        proc = warbook_build(content, "disk/output", tmp_path)
        assert_plain_failure(proc, r"(component sheets: )?no space left on device while writing "
                                   r"disk/output/\S+; free some space on that disk \(or build "
                                   r"into another with --out\) and build again")
        assert ".staging-" not in proc.stderr
        assert "build stopped: nothing was written; the previous output is unchanged" in proc.stderr
        assert_untouched(disk / "output", before)
        assert sorted(p.name for p in disk.iterdir()) == ["output"]  # no staging, no lock left
    finally:
        umount(disk)


def test_a_read_only_disk_is_named_and_leaves_the_previous_output(tmp_path):
    content = one_game(tmp_path)
    disk = tmp_path / "disk"
    mount_tmpfs(disk, "20m")
    try:
        before = stand_in_output(disk / "output")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        proc = warbook_build(content, "disk/output", tmp_path)
        assert_plain_failure(proc, f"cannot lock the output disk/output: read-only file system: "
                                   f"{disk}/.output.lock; that file system is mounted read-only: "
                                   f"build into another folder with --out")
        assert_untouched(disk / "output", before)
    finally:
        umount(disk)


def test_an_output_that_cannot_be_replaced_is_named(tmp_path):
    """The output folder is a mount point (here a read-only one): everything is rendered
    beside it, then it cannot be exchanged with the new output (busy)."""
    content = one_game(tmp_path)
    out = tmp_path / "output"
    mount_tmpfs(out, "1m")
    try:
        (out / "keep.txt").write_text("previous")
        before = snapshot(out)
        subprocess.run(["mount", "-o", "remount,ro", str(out)], check=True)
        proc = warbook_build(content, "output", tmp_path)
        assert_plain_failure(proc, r"device or resource busy: output; the folder is in use \(a "
                                   r"mount point cannot be replaced\): build into a folder "
                                   r"inside it, or another one, with --out")
        assert_untouched(out, before)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "output"]
    finally:
        umount(out)


def test_a_content_font_deleted_after_the_check_is_named(tmp_path):
    content = one_game(tmp_path)
    (content / "fonts").mkdir()
    font = content / "fonts" / "EBGaramond-Regular.ttf"
    shutil.copyfile(fonts.find("EBGaramond-Regular.ttf"), font)
    (content / "index.yaml").write_text(
        "book:\n  fonts:\n    text: {regular: fonts/EBGaramond-Regular.ttf}\ngames: [war]\n")
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    font.unlink()
    out = tmp_path / "output"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    before = snapshot(out)
    with pytest.raises(BuildError) as e:
        build(report, into(report, out))
    assert not e.value.internal
    assert str(e.value) == (f"no such file or directory: {font}; a file or folder warbook "
                            f"needs went missing during the build (deleted or moved "
                            f"meanwhile?); build again")
    assert_untouched(out, before)


def test_a_missing_system_typeface_is_a_plain_error(small_report, previous, monkeypatch):
    monkeypatch.setattr(fonts, "FONT_DIRS", [previous.parent / "no-fonts-here"])
    before = snapshot(previous)
    with pytest.raises(BuildError, match="font file EBGaramond-Regular.ttf not found in "
                                         ".*no-fonts-here; run 'bash scripts/setup'") as e:
        build(small_report, into(small_report, previous))
    assert not e.value.internal
    assert_untouched(previous, before)


def test_a_build_error_exits_1_and_a_bug_in_a_stage_2():
    from builder.build.errors import BuildError

    assert BuildError("no such game").exit_code == 1
    assert BuildError("KeyError in a forked stage", internal=True).exit_code == 2
    assert BuildError("x.yaml:1:1: error: ...", located=True).located
