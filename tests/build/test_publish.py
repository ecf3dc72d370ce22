"""Interrupted builds (issue 13): a build killed at any moment leaves the output folder
either the whole previous output or the whole new one, never a mix, and the next build
removes whatever the killed one left (``.out.staging-PID`` beside the output, ``.out.old-PID``
and the ``.site.old-PID`` folders earlier versions left inside it).

The fast tests drive publication itself in a child process on small folder trees and kill
it (SIGKILL, through the WARBOOK_TEST_KILL_AT hook) at each named point, with the atomic
exchange of folders and with the two-rename fallback. The slow test kills real builds.
What the new output must hold is worked out here from the rule, not from the code: every
file the build wrote, plus every file of the previous output outside the folders the build
replaces whole (the site).
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from builder.incremental import MANIFEST

ROOT = Path(__file__).resolve().parents[2]
POINTS = ("render", "staged", "completing", "completed", "moved-aside", "swapped")

OLD = {"pdf/a-rules.pdf": "old a", "pdf/b-rules.pdf": "old b", "site/index.html": "old site",
       "site/old-page.html": "old page", "png/x.png": "old png",
       **{f"png/many-{i:02}.png": f"old {i}" for i in range(30)}}
STAGED = {"pdf/a-rules.pdf": "new a", "site/index.html": "new site",
          "site/new-page.html": "new page"}
#: the rule: the build's files, and the previous output's others outside the replaced site
NEW = {**{k: v for k, v in OLD.items() if not k.startswith("site/")}, **STAGED}

CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from builder.build import publication
    out = Path(sys.argv[1])
    staging = publication.make_staging(out)
    for name, text in {staged!r}.items():
        (staging / name).parent.mkdir(parents=True, exist_ok=True)
        (staging / name).write_text(text)
    (staging / ".replace-dirs").write_text("site\\n")
    publication._test_point("render")
    publication.publish(staging, out)
""").format(staged=STAGED)


def manifest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def leftovers(out: Path) -> list[str]:
    beside = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
    inside = [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != MANIFEST] \
        if out.is_dir() else []  # the build's own manifest (incremental builds) belongs there
    return sorted(beside + inside)


def write_tree(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def run_child(out: Path, kill_at: str | None, exchange: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("WARBOOK_TEST_KILL_AT", None)
    env.pop("WARBOOK_TEST_NO_EXCHANGE", None)
    if kill_at:
        env["WARBOOK_TEST_KILL_AT"] = kill_at
    if not exchange:
        env["WARBOOK_TEST_NO_EXCHANGE"] = "1"
    return subprocess.run([sys.executable, "-c", CHILD, str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


#: the two kills the inner loop runs; the whole matrix runs with the slow tests
QUICK = {("completing", True), ("moved-aside", False)}


@pytest.mark.parametrize("point,exchange", [
    pytest.param(p, x, id=f"{p}-{'exchange' if x else 'two-renames'}",
                 marks=[] if (p, x) in QUICK else [pytest.mark.slow])
    for p in POINTS for x in (True, False)])
def test_a_kill_leaves_the_old_or_the_new_output_whole(tmp_path: Path, point, exchange):
    out = tmp_path / "output"
    write_tree(out, OLD)
    (out / ".site.old-999999").mkdir()  # what an earlier version left inside
    (tmp_path / ".output.staging-999999").mkdir()  # and beside
    proc = run_child(out, point, exchange)
    if point == "moved-aside" and exchange:
        assert proc.returncode == 0, proc.stderr  # the exchange never passes that point
        assert manifest(out) == NEW
        return
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    if point == "moved-aside":
        # between the two renames there is no output folder; the previous one waits beside
        # it and the next build puts it back before anything else
        assert not out.exists()
    else:
        assert manifest(out) in (OLD, NEW), f"a mix after a kill at {point}"
        assert manifest(out) == (NEW if point == "swapped" else OLD)
    # the next build cleans up and publishes
    proc = run_child(out, None, exchange)
    assert proc.returncode == 0, proc.stderr
    assert manifest(out) == NEW
    assert leftovers(out) == []


def test_the_first_build_into_no_output(tmp_path: Path):
    out = tmp_path / "output"
    assert run_child(out, None, True).returncode == 0
    assert manifest(out) == STAGED
    assert leftovers(out) == []


def test_a_folder_reached_by_a_link_stays_a_link(tmp_path: Path):
    real = tmp_path / "real-output"
    write_tree(real, OLD)
    link = tmp_path / "output"
    link.symlink_to(real)
    assert run_child(link, None, True).returncode == 0
    assert link.is_symlink() and manifest(link) == NEW


def test_the_previous_files_are_never_written_to(tmp_path: Path):
    """The previous output's files are linked into the new one, not copied or rewritten:
    a file the build did not touch is the same file (inode), and one it wrote is new."""
    out = tmp_path / "output"
    write_tree(out, OLD)
    kept, replaced = os.stat(out / "png/x.png").st_ino, os.stat(out / "pdf/a-rules.pdf").st_ino
    assert run_child(out, None, True).returncode == 0
    assert os.stat(out / "png/x.png").st_ino == kept
    assert os.stat(out / "pdf/a-rules.pdf").st_ino != replaced


# --------------------------------------------------------------------------- real builds
def files(folder: Path) -> dict[str, tuple[str, int]]:
    """Each file's content hash and inode (a file a build writes is a new file, so a new
    inode; one it keeps from the previous output keeps its inode)."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(),
                                         p.stat().st_ino)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(out: Path, paper: str, kill_at: str | None = None, kill_after: float | None = None):
    env = dict(os.environ)
    env.pop("WARBOOK_TEST_KILL_AT", None)
    if kill_at:
        env["WARBOOK_TEST_KILL_AT"] = kill_at
    cmd = [sys.executable, "-m", "builder", "build", "--game", "war", "--paper", paper,
           "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the build and its forked children
    proc.wait(timeout=600)
    return proc.returncode


@pytest.mark.slow
@pytest.mark.build
def test_killed_real_builds(tmp_path: Path, war_letter: Path):
    """Builds of one game killed at the named points of publication and at a random
    moment, each from a whole build on one paper to a build on the other (A4 and Letter
    in turn). After each kill the output is the whole previous build (every file's bytes
    as before) or the whole new one (the new paper's file names, and not one file left
    from the previous build: a --game build on another paper rewrites every file); the next
    build leaves nothing behind, and is the previous build of the next kill.

    The Letter file names come from a reference build of the same game on Letter: the
    session's shared ``build --game war --paper letter`` (conftest.py), the command
    ``build(ref, "letter")`` runs, which test_pdf.py needs too."""
    ref = war_letter
    assert (ref / "pdf" / "war-rules.pdf").is_file()
    out = tmp_path / "output"
    assert build(out, "a4") == 0
    names = {"letter": set(files(ref)), "a4": set(files(out))}
    rng = random.Random(13)
    # ("completing" is not reached here: a --game build rewrites every file, so there is
    # nothing of the previous output to link in; the fast tests kill it there)
    runs = [("staged", None), ("completed", None), ("swapped", None)]
    runs += [(None, rng.uniform(1.0, 10.0))]
    for i, (point, delay) in enumerate(runs):
        paper = ("letter", "a4")[i % 2]
        old = files(out)
        build(out, paper, kill_at=point, kill_after=delay)
        now = files(out)
        kept = {name for name in now if name in old and now[name][1] == old[name][1]}
        whole_old = now == old
        # a whole build keeps the website's files that come out the same (incremental
        # builds link them over), but every PDF and picture is new on the other paper
        whole_new = set(now) == names[paper] and not {k for k in kept if not k.startswith("site/")}
        assert whole_old or whole_new, f"a mix after a kill at {point or delay}: kept {kept}"
        if point == "swapped":
            assert whole_new
        elif point is not None:
            assert whole_old
        assert build(out, paper) == 0
        assert set(files(out)) == names[paper]
        assert leftovers(out) == []


# --------------------------------------------------------------------------- in process
def test_publication_in_process_follows_the_rule(tmp_path: Path):
    """The same rule as above without a kill, in this process: the output is the staged
    files plus the previous output's others outside the site; publish returns the files the
    build wrote, as named in the output; the marker and the staging folder are gone."""
    from builder.build import publication

    out = tmp_path / "output"
    old = {**OLD, "png/deep/er/x.png": "old deep"}     # a folder the build did not touch
    for name, text in old.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    staging = publication.make_staging(out)
    for name, text in STAGED.items():
        (staging / name).parent.mkdir(parents=True, exist_ok=True)
        (staging / name).write_text(text)
    (staging / ".replace-dirs").write_text("site\n")
    written = publication.publish(staging, out)
    assert manifest(out) == {**NEW, "png/deep/er/x.png": "old deep"}
    assert written == sorted(out / name for name in STAGED)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


def test_publication_through_a_link_in_process_keeps_the_link(tmp_path: Path):
    """An output reached by a link to a folder: the build stages beside the real folder,
    the new output takes the real folder's place, and the link stays a link to it."""
    from builder.build import publication

    real = tmp_path / "disk" / "real-output"
    write_tree(real, OLD)
    link = tmp_path / "output"
    link.symlink_to(real)
    staging = publication.make_staging(link)
    assert staging.parent == real.parent
    write_tree(staging, STAGED)
    (staging / ".replace-dirs").write_text("site\n")
    publication.publish(staging, link)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert manifest(real) == NEW
    assert sorted(p.name for p in real.parent.iterdir()) == ["real-output"]


def test_leftovers_of_ended_builds_are_removed_and_a_live_ones_kept(tmp_path: Path):
    from builder.build import publication

    out = tmp_path / "output"
    (out / "site").mkdir(parents=True)
    ended = 2 ** 22 + 17                      # above Linux's default pid_max: never running
    for name in (f".output.staging-{ended}", f".output.old-{ended}"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.pdf").write_text("left")
    (out / f".site.old-{ended}").mkdir()
    live = tmp_path / f".output.staging-{os.getppid()}"       # the test runner's parent
    live.mkdir()
    removed = publication.clean_leftovers(out)
    assert sorted(p.name for p in removed) == sorted(
        [f".output.old-{ended}", f".output.staging-{ended}", f".site.old-{ended}"])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["output", live.name])


def test_an_old_output_moved_aside_by_a_stopped_build_comes_back(tmp_path: Path):
    """Stopped between moving the previous output aside and moving the new one in (the
    two-rename fallback): the next build puts the previous output back first."""
    from builder.build import publication

    out = tmp_path / "output"
    aside = tmp_path / f".output.old-{2 ** 22 + 17}"
    (aside / "pdf").mkdir(parents=True)
    (aside / "pdf" / "war-rules.pdf").write_text("previous")
    publication.clean_leftovers(out)
    assert (out / "pdf" / "war-rules.pdf").read_text() == "previous" and not aside.exists()


@pytest.mark.parametrize("index,paper", [
    ("book:\n  paper: letter\ngames: [war]\n", "letter"),
    ("games: [war]\n", "a4"),
    ("book: The Book\ngames: [war]\n", "a4"),            # the check will say what is wrong
    ("book:\n  paper: [a4]\ngames: [war]\n", "a4"),     # the check will say what is wrong
    ("book: {paper: letter\n", "a4"),                     # not YAML: the check will say why
    (None, "a4"),                                         # no index.yaml at all
])
def test_the_paper_index_yaml_asks_for(tmp_path: Path, index, paper):
    """The paper the settings take when no --paper is given (what index.yaml cannot say
    clearly falls back to the default; the check then says what is wrong at its line)."""
    from builder.cli import book_paper

    if index is not None:
        (tmp_path / "index.yaml").write_text(index)
    assert book_paper(tmp_path) == paper


def test_two_folders_change_places_in_one_step(tmp_path: Path):
    """On Linux (the system warbook is set up on), with renameat2's exchange."""
    from builder.build import publication

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "from-a").write_text("a")
    (b / "from-b").write_text("b")
    assert publication._exchange(a, b) is True
    assert [p.name for p in a.iterdir()] == ["from-b"]
    assert [p.name for p in b.iterdir()] == ["from-a"]


def test_a_link_in_the_previous_output_is_carried_over_as_a_link(tmp_path: Path):
    """A file the previous output holds as a symbolic link (a designer's own, pointing out
    of the output) is carried into the new output as that link, not as the file it points
    to: the build never reaches through it."""
    from builder.build.publication import complete_from

    previous, staging, outside = tmp_path / "output", tmp_path / "staging", tmp_path / "notes"
    previous.mkdir()
    staging.mkdir()
    outside.write_text("the designer's own notes")
    (previous / "notes.txt").symlink_to(outside)
    (previous / "kept.txt").write_text("kept")
    complete_from(previous, staging, whole=set())
    assert (staging / "notes.txt").is_symlink()
    assert os.readlink(staging / "notes.txt") == str(outside)
    assert (staging / "kept.txt").stat().st_ino == (previous / "kept.txt").stat().st_ino
