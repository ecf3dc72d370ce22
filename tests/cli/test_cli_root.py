"""The command line's one error root, its messages and its settings.

Every error a user can act on reaches ``cli.main`` as a ``WarbookError`` and ends the
command with exit status 1 and its message (located errors as ``path:line:col: error:``);
anything else is a bug: "internal error", the bug hint, exit status 2. ``--quiet`` hides
the progress but never a problem; ``--verbose`` adds the debugging lines. ``build`` and
``serve`` take the same options and make one frozen ``Settings`` from them over
``index.yaml``'s ``book:``.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder import cli
from builder.errors import InternalError
from builder.settings import PAPERS, Settings

ROOT = Path(__file__).resolve().parents[2]


def war_only(tmp_path: Path, index: str = "games: [war]\n") -> Path:
    """A content folder holding classic War alone, with ``index`` as its index.yaml."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text(index)
    return content


def run(capsys, *args: str) -> subprocess.CompletedProcess:
    """``warbook ARGS`` in this process: status, standard output, standard error."""
    status = cli.main(list(args))
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["warbook", *args], status, out.out, out.err)


# --------------------------------------------------------------------------- the one root
def test_a_users_error_exits_1_through_the_root(tmp_path, capsys):
    content = war_only(tmp_path)
    done = run(capsys, "check", "--content", str(content), "--game", "wra")
    assert done.returncode == 1
    assert done.stderr == "error: no game 'wra' (games: war); did you mean 'war'?\n"
    assert "internal error" not in done.stderr


def test_a_located_error_raised_anywhere_is_shown_at_its_place(tmp_path, capsys, monkeypatch):
    """A Diagnostic that escapes a stage is shown as ``path:line:col: error: ...``, exit 1."""
    from builder import check
    from builder.diagnostics import Diagnostic

    def refuse(root):
        raise Diagnostic("content/index.yaml", 3, 5, "something the user wrote")

    monkeypatch.setattr(check, "run_check", refuse)
    done = run(capsys, "check", "--content", str(tmp_path))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "content/index.yaml:3:5: error: something the user wrote\n"


def test_a_bug_exits_2_as_an_internal_error(tmp_path, capsys, monkeypatch):
    from builder import check

    def broken(root):
        raise KeyError("games")

    monkeypatch.setattr(check, "run_check", broken)
    monkeypatch.delenv("WARBOOK_DEBUG", raising=False)
    done = run(capsys, "check", "--content", str(tmp_path))
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0] == "internal error: KeyError: 'games'"
    assert lines[1] == cli.BUG_HINT
    assert "Traceback" not in done.stderr


def test_an_internal_error_named_where_it_is_found_exits_2(tmp_path, capsys, monkeypatch):
    from builder import check

    def missing(root):
        raise InternalError("the package has no templates/book/book.css")

    monkeypatch.setattr(check, "run_check", missing)
    monkeypatch.delenv("WARBOOK_DEBUG", raising=False)
    done = run(capsys, "check", "--content", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "internal error: the package has no templates/book/book.css", cli.BUG_HINT]


def test_a_bad_site_url_stops_the_build_before_anything(tmp_path, capsys):
    content = war_only(tmp_path)
    done = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "out"),
               "--site-url", "ftp://example.org/")
    assert done.returncode == 1
    assert done.stderr.startswith("error: --site-url: site URL 'ftp://example.org/': ")
    assert "build stopped" not in done.stderr  # nothing had started
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- --quiet, --verbose
def test_quiet_hides_the_progress_but_not_the_errors(tmp_path, capsys):
    content = war_only(tmp_path)
    loud = run(capsys, "check", "--content", str(content))
    assert loud.returncode == 0 and "war: " in loud.stdout and "checked 1 game" in loud.stdout
    quiet = run(capsys, "check", "--quiet", "--content", str(content))
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")

    example = next((content / "war" / "examples").glob("*.yaml"))
    example.write_text(example.read_text() + "\nnot_a_field: 1\n")
    broken = run(capsys, "check", "-q", "--content", str(content))
    assert broken.returncode == 1 and broken.stdout == ""
    assert f"{example.name}:" in broken.stderr and ": error: " in broken.stderr


def test_verbose_shows_the_debugging_lines(tmp_path, capsys):
    content = war_only(tmp_path)
    plain = run(capsys, "check", "--content", str(content))
    verbose = run(capsys, "check", "--verbose", "--content", str(content))
    debug_line = f"checking {content.resolve()}"
    assert debug_line not in plain.stdout
    assert debug_line in verbose.stdout.splitlines()
    assert "checked 1 game" in verbose.stdout  # and the progress still


@pytest.mark.parametrize("command", [["check"], ["simulate", "war"], ["build"], ["serve"],
                                     ["record", "war"], ["new", "game", "x"],
                                     ["new", "example", "war"]])
def test_every_command_takes_verbose_and_quiet(command):
    ap = cli.parser()
    assert ap.parse_args([*command, "--verbose"]).verbose
    assert ap.parse_args([*command, "-q"]).quiet
    with pytest.raises(SystemExit):  # not both
        ap.parse_args([*command, "-v", "-q"])


# --------------------------------------------------------------------------- settings
def options(*args: str, content: Path):
    return cli.parser().parse_args(["build", "--content", str(content), *args])


def test_the_settings_come_from_the_flags_over_the_book(tmp_path):
    content = war_only(tmp_path, "games: [war]\nbook:\n  paper: letter\n")
    from_book = cli.make_settings(options("--out", str(tmp_path / "o"), content=content))
    assert from_book == Settings(content_root=content, output=tmp_path / "o",
                                 paper=PAPERS["letter"])
    flagged = cli.make_settings(options("--out", str(tmp_path / "o"), "--paper", "a4",
                                        "--ink", "low", "--four-colour", "--site-url",
                                        "https://example.org/rules", content=content))
    assert flagged.paper is PAPERS["a4"]  # the flag wins
    assert (flagged.ink, flagged.four_colour) == ("low", True)
    assert flagged.site_url == "https://example.org/rules/"
    with pytest.raises(dataclasses.FrozenInstanceError):
        flagged.ink = "full"  # type: ignore[misc]


@pytest.mark.parametrize("index", ["games: [war]\nbook:\n  paper: a5\n",
                                   "games: [war\n", "- not a mapping\n"])
def test_a_book_paper_the_check_refuses_leaves_the_default(tmp_path, index):
    """The check reports it at its line (and a failed check builds nothing)."""
    content = war_only(tmp_path, index)
    assert cli.make_settings(options(content=content)).paper is PAPERS["a4"]


def test_a_missing_cmyk_profile_is_said_at_its_path(tmp_path, capsys):
    content = war_only(tmp_path)
    done = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "out"),
               "--cmyk-profile", str(tmp_path / "none.icc"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{tmp_path / 'none.icc'}: error: no CMYK colour profile")
    assert not (tmp_path / "out").exists()


def test_serve_takes_the_same_options_as_build(tmp_path, monkeypatch):
    from builder import serve

    content = war_only(tmp_path)
    seen = {}

    def fake_serve(settings, port, paper_from_book):
        seen.update(settings=settings, port=port, paper_from_book=paper_from_book)
        return 0

    monkeypatch.setattr(serve, "serve", fake_serve)
    flags = ["--content", str(content), "--out", str(tmp_path / "o"), "--paper", "letter",
             "--ink", "low", "--four-colour", "--site-url", "https://example.org/"]
    assert cli.main(["serve", *flags, "--port", "0"]) == 0
    built = cli.make_settings(cli.parser().parse_args(["build", *flags]))
    assert seen == {"settings": built, "port": 0, "paper_from_book": False}
    build_options = set(vars(cli.parser().parse_args(["build"])))
    serve_options = set(vars(cli.parser().parse_args(["serve"])))
    # one run's choices, not settings (serve is always quick: it measures stale figures
    # after showing the page, on this machine: a designer's afternoon of edits, not a
    # cluster's work, so --cluster is build's alone)
    assert build_options - serve_options == {"game", "clean", "quick", "cluster"}
    assert serve_options - build_options == {"port"}


def test_serve_follows_the_books_paper_unless_a_flag_chose_it(tmp_path):
    """``index.yaml`` edited while ``serve`` runs: its ``book.paper`` is followed, unless
    ``--paper`` was given."""
    from types import SimpleNamespace

    from builder.serve import settings_now

    started = Settings(content_root=tmp_path, output=tmp_path / "o")
    now = SimpleNamespace(content=SimpleNamespace(book=SimpleNamespace(paper="letter")))
    assert settings_now(started, now, paper_from_book=True) == dataclasses.replace(
        started, paper=PAPERS["letter"])
    assert settings_now(started, now, paper_from_book=False) is started


def test_the_command_line_prints_through_one_handler_in_a_real_process(tmp_path):
    """In a real process: progress on standard output, problems on standard error."""
    content = war_only(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "builder", "check", "--content",
                           str(content), "--game", "war"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("checked 1 game, ")
    assert proc.stderr == ""
