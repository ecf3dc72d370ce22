"""The check's cache (builder/checkcache.py): a warm ``warbook check`` prints byte for byte
what a cold one prints, with the same exit status, for passing content and for content
with errors; an edit re-checks the game it is in and no other; a damaged entry is a miss;
``--no-cache`` neither reads nor writes it; no output folder, no cache."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import warbook_here

from builder import checkcache, cli

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
#: a plain game, a game that shares its engine, and a game with its own deck (faces drawn)
GAMES = ("war", "peace", "happy-families")


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``warbook ARGS`` in this process from ``cwd``, its output captured."""
    return warbook_here(*args, cwd=cwd)


def same(a: subprocess.CompletedProcess, b: subprocess.CompletedProcess) -> None:
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


def entries(project: Path) -> list[Path]:
    return sorted((project / "output" / ".cache" / "check").glob("*.json"))


@pytest.fixture(autouse=True)
def steady_package(tmp_path_factory, monkeypatch):
    """The package as the key sees it, held still: the checkout may be edited while the
    tests run, and a run during which warbook changed rightly stores nothing
    (test_the_key_covers_the_package_and_the_environment covers the package's part)."""
    folder = tmp_path_factory.mktemp("package")
    (folder / "module.py").write_text("A = 1\n")
    monkeypatch.setattr(checkcache, "PACKAGE", folder)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A working folder with content/ (three shipped games) and an output/ folder."""
    content = tmp_path / "content"
    content.mkdir()
    for slug in GAMES:
        shutil.copytree(CONTENT / slug, content / slug)
    (content / "index.yaml").write_text(f"games: [{', '.join(GAMES)}]\n")
    (tmp_path / "output").mkdir()
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} must occur once in {path}"
    path.write_text(text.replace(old, new))


# --------------------------------------------------------------------------- warm = cold
def test_a_warm_check_prints_what_a_cold_one_prints(project: Path):
    cold = run(project, "check")
    assert cold.returncode == 0, cold.stderr
    assert "checked 3 games" in cold.stdout
    assert len(entries(project)) == 1 + len(GAMES)  # the load and one a game
    same(run(project, "check"), cold)
    same(run(project, "check", "--no-cache"), cold)  # and what the check printed before
    cold_json = run(project, "check", "--json", "--no-cache")
    same(run(project, "check", "--json"), cold_json)
    for slug in ("war", "happy-families"):
        same(run(project, "check", "--game", slug), run(project, "check", "--game", slug,
                                                         "--no-cache"))


def test_a_yaml_error_is_located_the_same_warm_and_cold(project: Path):
    passing = run(project, "check")
    example = project / "content" / "war" / "examples" / "02-one-war.yaml"
    good = example.read_text()
    lines = good.splitlines(keepends=True)
    lines[3] = "  " + lines[3]  # an indented key: a syntax error at line 4
    example.write_text("".join(lines))
    cold = run(project, "check", "--no-cache")
    assert cold.returncode == 1
    assert "content/war/examples/02-one-war.yaml:4:" in cold.stderr, cold.stderr
    assert "error: YAML syntax" in cold.stderr
    same(run(project, "check"), cold)  # stored now
    same(run(project, "check"), cold)  # read back
    example.write_text(good)  # fixed: checked again, and it passes
    same(run(project, "check"), passing)


def test_a_failing_replay_is_reported_the_same_warm_and_cold(project: Path):
    passing = run(project, "check")
    example = project / "content" / "war" / "examples" / "01-a-plain-trick.yaml"
    good = example.read_text()
    edit(example, "trick.winner: p1", "trick.winner: p2")
    cold = run(project, "check", "--no-cache")
    assert cold.returncode == 1
    assert "content/war/examples/01-a-plain-trick.yaml:" in cold.stderr, cold.stderr
    assert "1 failed" in cold.stdout
    same(run(project, "check"), cold)
    same(run(project, "check"), cold)
    example.write_text(good)
    same(run(project, "check"), passing)


def test_a_new_game_folder_is_checked(project: Path):
    """A folder the stored load does not know (here with an error) is seen at once."""
    passing = run(project, "check")
    shutil.copytree(project / "content" / "war", project / "content" / "war-two")
    cold = run(project, "check", "--no-cache")
    assert cold.returncode == 1 and "war-two" in cold.stderr, cold.stderr
    same(run(project, "check"), cold)
    same(run(project, "check"), cold)
    shutil.rmtree(project / "content" / "war-two")
    same(run(project, "check"), passing)


def test_a_card_face_error_is_kept_with_its_game(project: Path):
    """The faces' problems are a game's too (Happy Families' template, broken)."""
    run(project, "check")
    template = project / "content" / "happy-families" / "face.svg.j2"
    template.write_text(template.read_text() + "\n{% if %}\n")
    cold = run(project, "check", "--no-cache")
    assert cold.returncode == 1 and "face.svg.j2" in cold.stderr, cold.stderr
    same(run(project, "check"), cold)
    same(run(project, "check"), cold)


# --------------------------------------------------------------------------- one game
class Counting:
    """The real stages, counting which games each replays and draws."""

    def __init__(self):
        self.replayed: list[str] = []
        self.drawn: list[str] = []
        real = cli.check_stages()

        def check_game(game, diags):
            self.replayed.append(game.slug)
            return real.check_game(game, diags)

        def faces(content, game):
            self.drawn.append(game.slug)
            return real.faces(content, game)

        self.stages = checkcache.Stages(real.load, check_game, faces, real.extra)

    def check(self, project: Path, faces_for: str | None = None) -> checkcache.Outcome:
        self.replayed.clear()
        self.drawn.clear()
        here = os.getcwd()
        os.chdir(project)
        try:
            return checkcache.cached_check(Path("content"), Path("output"), self.stages,
                                           faces_for=faces_for)
        finally:
            os.chdir(here)


def test_an_edit_to_one_game_rechecks_that_game_only(project: Path):
    counting = Counting()
    first = counting.check(project)
    assert counting.replayed == list(GAMES) and counting.drawn == list(GAMES)
    assert first.checked == sorted(GAMES) and first.kept == "stored"
    counting.check(project)
    assert counting.replayed == [] and counting.drawn == []
    edit(project / "content" / "war" / "examples" / "02-one-war.yaml", "never compared",
         "never once compared")
    again = counting.check(project)
    assert counting.replayed == ["war"] and counting.drawn == ["war"]
    assert again.checked == ["war"]
    edit(project / "content" / "index.yaml", "games:", "# the order\ngames:")
    counting.check(project)  # outside every game's folder: every game again
    assert counting.replayed == list(GAMES)


def test_one_games_faces_then_all(project: Path):
    """``--game war`` draws war's faces only; the full check then draws the rest and
    replays nothing."""
    counting = Counting()
    assert counting.check(project, faces_for="war").kept == "stored"
    assert counting.replayed == list(GAMES) and counting.drawn == ["war"]
    counting.check(project, faces_for="war")
    assert counting.replayed == [] and counting.drawn == []
    counting.check(project)
    assert counting.replayed == [] and counting.drawn == ["peace", "happy-families"]
    counting.check(project)
    assert counting.drawn == []


def test_what_a_game_loaded_is_in_its_key(project: Path):
    """A game's examples can depend on the games before it (the compendium's limit on
    diagrams): its entry is keyed by the examples the reader kept, not its folder alone."""
    keys = checkcache.Keys.make(project / "content")
    assert keys.game("war", ["a", "b"]) != keys.game("war", ["a"])
    assert keys.game("war", ["a"]) != keys.game("peace", ["a"])
    assert keys.game("nowhere", ["a"]) is None


# --------------------------------------------------------------------------- the store
@pytest.mark.parametrize("damage", ["garbage", "truncated", "payload", "empty"])
def test_a_damaged_entry_is_ignored_and_written_again(project: Path, damage: str):
    cold = run(project, "check")
    example = project / "content" / "war" / "examples" / "02-one-war.yaml"
    edit(example, "never compared", "never compared\n  bad: [")  # an error, then stored
    shutil.rmtree(project / "output" / ".cache")  # the entries of this content only
    failing = run(project, "check")
    assert failing.returncode == 1
    stored = {p: json.loads(p.read_bytes()) for p in entries(project)}
    for p in stored:
        data = p.read_bytes()
        if damage == "garbage":
            p.write_bytes(b"\x00not json")
        elif damage == "truncated":
            p.write_bytes(data[: len(data) // 2])
        elif damage == "empty":
            p.write_bytes(b"")
        else:  # valid JSON, the key kept, the payload changed: a passing verdict
            entry = json.loads(data)
            if entry["kind"] == "load":
                entry["payload"]["diags"] = []
            else:
                entry["payload"]["diags"] = []
            p.write_text(json.dumps(entry))
    same(run(project, "check"), failing)
    assert {p: json.loads(p.read_bytes()) for p in entries(project)} == stored  # again
    same(run(project, "check"), failing)
    shutil.copyfile(CONTENT / "war" / "examples" / "02-one-war.yaml", example)
    same(run(project, "check"), cold)


def test_no_cache_neither_reads_nor_writes(project: Path):
    cold = run(project, "check")
    # a forged entry under the very keys of this content: the cached check believes it
    here = os.getcwd()
    os.chdir(project)
    try:
        keys = checkcache.Keys.make(project / "content", cli.check_stages().extra)
    finally:
        os.chdir(here)
    store = checkcache.Store(project / "output" / ".cache" / "check")
    load = store.get(keys.load, "load")
    load["diags"] = [{"path": "content/index.yaml", "line": 1, "col": 1,
                      "severity": "error", "message": "forged", "detail": ""}]
    store.put(keys.load, "load", load)
    forged = run(project, "check")
    assert forged.returncode == 1 and "forged" in forged.stderr
    before = {p: p.read_bytes() for p in entries(project)}
    same(run(project, "check", "--no-cache"), cold)
    assert {p: p.read_bytes() for p in entries(project)} == before
    shutil.rmtree(project / "output" / ".cache")
    same(run(project, "check", "--no-cache"), cold)
    assert not (project / "output" / ".cache").exists()


def test_without_an_output_folder_nothing_is_kept(project: Path):
    shutil.rmtree(project / "output")
    first = run(project, "check")
    assert first.returncode == 0
    assert not (project / "output").exists()
    same(run(project, "check", "--out", str(project / "elsewhere")), first)
    assert not (project / "elsewhere").exists()


def test_a_run_that_printed_stores_nothing(project: Path):
    """An engine's print (or a warning) during the check would not be printed by a warm
    run: such a run keeps nothing."""
    real = cli.check_stages()

    def noisy(game, diags):
        print("debugging", game.slug)
        return real.check_game(game, diags)

    stages = checkcache.Stages(real.load, noisy, real.faces, real.extra)
    here = os.getcwd()
    os.chdir(project)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            checkcache.cached_check(Path("content"), Path("output"), stages)
    finally:
        os.chdir(here)
    assert "debugging war" in out.getvalue()
    assert entries(project) == []


def test_the_key_covers_the_package_and_the_environment(tmp_path: Path, monkeypatch):
    package = checkcache.PACKAGE  # steady_package's folder
    module = package / "module.py"
    (tmp_path / "content").mkdir()
    monkeypatch.delenv("WARBOOK_TEST_SETTING", raising=False)
    first = checkcache.base_key(tmp_path / "content")
    assert checkcache.base_key(tmp_path / "content") == first
    module.write_text("A = 22\n")  # another size
    assert checkcache.base_key(tmp_path / "content") != first
    second = checkcache.base_key(tmp_path / "content")
    os.utime(module, ns=(1, 1))  # the same size, another time
    assert checkcache.base_key(tmp_path / "content") != second
    third = checkcache.base_key(tmp_path / "content")
    monkeypatch.setenv("WARBOOK_TEST_SETTING", "1")
    assert checkcache.base_key(tmp_path / "content") != third


def test_a_link_out_of_the_content_folder_is_not_followed(tmp_path: Path):
    """Content is hashed by its bytes; a link leading outside counts by where it leads,
    never by what is there (the check refuses it and must not read it)."""
    content = tmp_path / "content"
    (content / "game").mkdir(parents=True)
    (content / "game" / "game.yaml").write_text("slug: game\n")
    outside = tmp_path / "secret.yaml"
    outside.write_text("one\n")
    (content / "game" / "link.yaml").symlink_to(outside)
    before = checkcache.Keys.make(content)
    outside.write_text("two\n")
    assert checkcache.Keys.make(content) == before
    (content / "game" / "game.yaml").write_text("slug: game \n")
    assert checkcache.Keys.make(content).folders["game"] != before.folders["game"]
    assert checkcache.Keys.make(content).project == before.project


def test_the_store_is_pruned(tmp_path: Path):
    store = checkcache.Store(tmp_path)
    for i in range(12):
        store.put(f"{i:040x}", "game", {"n": i})
        os.utime(store.path(f"{i:040x}"), ns=(i * 10**9, i * 10**9))
    store.prune(keep=5)
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        sorted(f"{i:040x}.json" for i in range(7, 12))
    assert store.get(f"{11:040x}", "game") == {"n": 11}
    assert store.get(f"{11:040x}", "load") is None  # another kind
