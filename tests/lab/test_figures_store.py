"""Where the balance figures are kept (issue 26): ``content/<slug>/figures.json`` beside each
game, ``$WARBOOK_CACHE`` instead when it is set, the output's ``figures/`` when the
content folder cannot be written; what a build reads, what it plays again, what
``--quick`` prints marked, and what a figures file that cannot be trusted gets (a note,
and new figures).

The lab itself is replaced by a stand-in (``simulate.book_report``, monkeypatched) that
counts its calls, or fails when nothing may be played: the figures are only stored here."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from builder.lab import figures as fig
from builder.lab import simulate

COMMAND = "env -u WARBOOK_CACHE -u WARBOOK_LAB_GAMES .venv/bin/warbook build"


class Lab:
    """The stand-in for ``simulate.book_report``: figures that name the game and count."""

    def __init__(self):
        self.calls: list[str] = []

    def __call__(self, game, workers=None, **kw):
        self.calls.append(game.slug)
        return {"game": game.slug, "played": len(self.calls), "cap": kw.get("cap"),
                "rate": 0.5, "seats": [[1, 2.25]]}


def refuse(game, workers=None, **kw):
    raise AssertionError(f"{game.slug}: the lab was asked to play, and nothing needed it")


@pytest.fixture
def war(tmp_path, monkeypatch):
    """A content folder holding War alone, checked; no cache, no cap (each test sets its
    own); the lab replaced by a counting stand-in (``war.lab``)."""
    from builder.check import run_check

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # the conformance marks
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "war" / fig.FILE).unlink(missing_ok=True)
    (content / "index.yaml").write_text("games: [war]\n")
    report = run_check(content)
    assert report.ok
    monkeypatch.delenv("WARBOOK_CACHE", raising=False)
    monkeypatch.delenv("WARBOOK_LAB_GAMES", raising=False)
    lab = Lab()
    monkeypatch.setattr(simulate, "book_report", lab)
    # the figures a test's stand-in measured and could not write stay in this process's
    # memory (``_unplaced``): a fresh memory, put back after, so that no later build in the
    # same worker reads a stand-in's figures as War's (a copy of War is War: one key)
    monkeypatch.setattr(fig, "_unplaced", {})
    report.lab = lab
    report.folder = content / "war"
    report.game = report.games[0].game
    return report


def stored(folder: Path) -> dict:
    return json.loads((folder / fig.FILE).read_text())


def test_figures_are_measured_once_and_kept_beside_the_game_then_read(war, monkeypatch):
    got = fig.book_figures(war)
    assert war.lab.calls == ["war"]
    data = stored(war.folder)
    assert sorted(data) == list(fig.FIELDS)
    assert data["figures"] == got.of("war") == {"game": "war", "played": 1, "cap": None,
                                               "rate": 0.5, "seats": [[1, 2.25]]}
    assert data["key"] == fig.key(war.game) and data["version"] == fig.VERSION
    assert data["cap"] is None and data["seed"] == fig.SEED and data["game"] == "war"
    assert data["checksum"] == fig.checksum(data["figures"])
    text = (war.folder / fig.FILE).read_text()  # sorted keys, indented: diffs read
    assert text == fig.file_text(data) and text.endswith("}\n")
    assert '\n  "cap": null,\n  "checksum": ' in text and '\n    "seats": [\n      [1, 2.25]\n    ]\n' in text
    assert json.dumps(data, sort_keys=True) == json.dumps(json.loads(text), sort_keys=True)
    assert not [p for p in war.folder.iterdir() if p.name.endswith(".tmp")]
    assert not got.stale and not got.pending and not got.to_output

    monkeypatch.setattr(simulate, "book_report", refuse)  # current: nothing is played
    again = fig.book_figures(war)
    assert again.of("war") == got.of("war") and not again.stale
    assert fig.check_note(war.game) is None


def test_the_key_leaves_out_the_folder_and_the_labs_source_but_not_the_engine(war, tmp_path):
    k = fig.key(war.game)
    copy = tmp_path / "elsewhere"
    shutil.copytree(war.folder, copy)
    moved = type(war.game)(**{**war.game.__dict__, "dir": str(copy)})
    assert fig.key(moved) == k                      # a copy of the game is the same game
    (copy / "game.yaml").write_text((copy / "game.yaml").read_text() + "# edited\n")
    assert fig.key(moved) != k                      # its game.yaml is not
    (copy / "engine.py").write_text("# a game's own engine file counts too\n")
    (copy / "game.yaml").write_text((war.folder / "game.yaml").read_text())
    assert fig.key(moved) != k


def test_the_key_covers_the_card_files_the_engine_plays(tmp_path, monkeypatch):
    from builder.check import run_check

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    game = run_check(content).games[0].game
    assert game.gamedef.cards == "own"
    k = fig.key(game)
    cards = content / "high-colours" / "cards.csv"
    cards.write_text(cards.read_text().replace("R1,Red 1,red,1,2", "R1,Red 1,red,1,3"))
    assert fig.key(game) != k
    (content / "high-colours" / "rules.md").write_text("# Anything\n")  # not the rules
    cards.write_text(cards.read_text().replace("R1,Red 1,red,1,3", "R1,Red 1,red,1,2"))
    assert fig.key(game) == k


def test_stale_figures_are_measured_again_and_rewritten(war):
    fig.book_figures(war)
    before = stored(war.folder)
    yaml = war.folder / "game.yaml"
    yaml.write_text(yaml.read_text() + "# a new version of the game\n")
    got = fig.book_figures(war)
    assert war.lab.calls == ["war", "war"]
    after = stored(war.folder)
    assert after["key"] == fig.key(war.game) != before["key"]
    assert after["figures"]["played"] == 2 == got.of("war")["played"]
    assert not got.stale
    assert fig.check_note(war.game) is None


BAD = {
    "not JSON": lambda text: text[: len(text) // 2],
    "not UTF-8": lambda text: "\udcff",
    "a list": lambda text: "[1, 2]\n",
    "edited by hand": lambda text: text.replace('"rate": 0.5', '"rate": 0.75'),
    "another version of the lab": lambda text: text.replace(
        f'"version": "{fig.VERSION}"', '"version": "0"'),
    "another game": lambda text: text.replace('"game": "war"', '"game": "peace"', 1)
    .replace('"game": "war"', '"game": "peace"'),
    "a cap that is no number": lambda text: text.replace('"cap": null', '"cap": "lots"', 1),
    "no checksum": lambda text: re.sub(r'\s*"checksum": "[0-9a-f]+",', "", text),
}
NOTES = {"not JSON": "not JSON", "not UTF-8": "not JSON", "a list": "no figures in it",
         "edited by hand": "edited by hand", "another version of the lab":
         "another version of the balance lab", "another game": "is not war's figures file",
         "a cap that is no number": "is not war's figures file",
         "no checksum": "edited by hand"}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_figures_file_that_cannot_be_trusted_is_noted_and_measured_again(war, case, caplog):
    fig.book_figures(war)
    path = war.folder / fig.FILE
    text = path.read_text()
    bad = BAD[case](text)
    assert bad != text
    path.write_bytes(bad.encode("utf-8", "surrogateescape"))
    with caplog.at_level(logging.INFO, logger="warbook.lab.figures"):
        got = fig.book_figures(war, quick=True)    # never printed, not even marked
        assert got.of("war") is None and "war" in got.pending and not got.stale
        assert "cannot be trusted" in fig.check_note(war.game)
        got = fig.book_figures(war)
    notes = [r for r in caplog.records if r.name == "warbook.lab.figures"
             and str(path) in r.getMessage()]
    assert notes and NOTES[case] in notes[0].getMessage(), [r.getMessage() for r in notes]
    assert "measured again" in notes[0].getMessage()
    assert notes[0].levelno >= (logging.INFO if "version" in case else logging.WARNING)
    assert war.lab.calls == ["war", "war"]
    assert got.of("war")["played"] == 2
    assert stored(war.folder)["checksum"] == fig.checksum(got.of("war"))


def test_quick_prints_the_previous_figures_marked_and_plays_nothing(war, monkeypatch):
    fig.book_figures(war)
    yaml = war.folder / "game.yaml"
    yaml.write_text(yaml.read_text() + "# a new version of the game\n")
    monkeypatch.setattr(simulate, "book_report", refuse)
    got = fig.book_figures(war, quick=True)
    assert got.of("war")["played"] == 1            # the previous figures ...
    assert got.is_stale("war") and got.stale == {"war"} and got.pending == {"war"}
    assert stored(war.folder)["figures"]["played"] == 1   # ... left as they were
    assert fig.check_note(war.game) == ("figures.json is from an earlier version of the game; "
                                        "`warbook build` measures them again")
    assert [g.slug for g, _ in fig.due([war.game])] == ["war"]
    (war.folder / fig.FILE).unlink()               # none at all: none printed, none marked
    got = fig.book_figures(war, quick=True)
    assert got.of("war") is None and not got.stale and got.pending == {"war"}
    assert fig.check_note(war.game) == "figures.json is missing; `warbook build` measures the figures"


def test_a_plain_build_never_prints_stale_figures(war):
    fig.book_figures(war)
    yaml = war.folder / "game.yaml"
    yaml.write_text(yaml.read_text() + "# a new version of the game\n")
    got = fig.book_figures(war)
    assert not got.stale and not got.pending and got.of("war")["played"] == 2


def test_full_figures_stand_in_for_capped_ones_never_the_other_way(war, monkeypatch):
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "150")
    fig.book_figures(war)
    assert war.lab.calls == ["war"] and stored(war.folder)["cap"] == 150
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "100")   # a smaller cap: the 150 do
    fig.book_figures(war)
    assert war.lab.calls == ["war"]
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "200")   # a larger one: played again
    fig.book_figures(war)
    assert war.lab.calls == ["war", "war"] and stored(war.folder)["cap"] == 200
    monkeypatch.delenv("WARBOOK_LAB_GAMES")          # the full policy: played again
    assert "fewer games" in fig.check_note(war.game)
    fig.book_figures(war)
    assert war.lab.calls == ["war"] * 3 and stored(war.folder)["cap"] is None
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "20")    # full ones stand in for any cap
    monkeypatch.setattr(simulate, "book_report", refuse)
    assert fig.book_figures(war).of("war")["played"] == 3


@pytest.mark.parametrize("value,cap", [("150", 150), ("", None), ("0", None), ("-3", None),
                                       ("many", None), (" 40 ", 40)])
def test_the_cap_is_a_positive_whole_number_or_none(monkeypatch, value, cap):
    monkeypatch.setenv("WARBOOK_LAB_GAMES", value)
    assert fig.cap() == cap


def test_warbook_cache_is_written_instead_of_the_content_folder_and_read_after_it(
        war, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("WARBOOK_CACHE", str(cache))
    got = fig.book_figures(war)
    assert not (war.folder / fig.FILE).exists()   # the content folder is left alone
    k = fig.key(war.game)
    assert [p.name for p in cache.iterdir()] == [f"war-{k}.json"]
    assert json.loads((cache / f"war-{k}.json").read_text())["figures"] == got.of("war")
    monkeypatch.setattr(simulate, "book_report", refuse)
    assert fig.book_figures(war).of("war") == got.of("war")      # read from the cache

    # the content folder's current file comes first
    record = fig.record_of(war.game, {"from": "the content folder"}, k)
    (war.folder / fig.FILE).write_text(fig.file_text(record))
    assert fig.book_figures(war).of("war") == {"from": "the content folder"}
    # a stale one there does not hide the current one in the cache
    yaml = war.folder / "game.yaml"
    old = yaml.read_text()
    yaml.write_text(old + "# another version\n")
    record = fig.record_of(war.game, {"from": "the content folder"}, k)  # the old key
    (war.folder / fig.FILE).write_text(fig.file_text(record))
    cached = fig.record_of(war.game, {"from": "the cache"})  # the new key
    (cache / f"war-{cached['key']}.json").write_text(fig.file_text(cached))
    assert fig.book_figures(war).of("war") == {"from": "the cache"}
    # quick, with nothing current: the newest previous figures, marked
    yaml.write_text(old + "# a third version\n")
    (war.folder / fig.FILE).unlink()
    got = fig.book_figures(war, quick=True)
    assert got.of("war") == {"from": "the cache"} and got.is_stale("war")


@pytest.fixture
def immutable(war):
    """War's folder made immutable (``chattr +i``, which stops root too): nothing can be
    written into it."""
    subprocess.run(["chattr", "+i", str(war.folder)], check=True)
    try:
        yield war.folder
    finally:
        subprocess.run(["chattr", "-i", str(war.folder)], check=True)


def test_a_content_folder_that_cannot_be_written_keeps_the_figures_in_the_output(
        war, immutable, tmp_path, caplog, monkeypatch):
    out = tmp_path / "output"
    with caplog.at_level(logging.INFO, logger="warbook.lab.figures"):
        got = fig.book_figures(war, out=out)
    assert war.lab.calls == ["war"]
    assert not (immutable / fig.FILE).exists()
    assert list(got.to_output) == ["war"] and got.to_output["war"]["figures"] == got.of("war")
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("cannot be written" in s and "figures/war.json" in s for s in said), said
    # the build writes them into its staging folder, published as the output
    from builder.build.pipeline import keep_figures

    out.mkdir()
    keep_figures(got, out)
    monkeypatch.setattr(fig, "_unplaced", {})      # a new process: read from the output
    monkeypatch.setattr(simulate, "book_report", refuse)
    again = fig.book_figures(war, out=out)
    assert again.of("war") == got.of("war") and not again.to_output


def test_the_manifest_renders_again_the_parts_whose_figures_changed():
    from builder.build.pipeline import printed, with_figures_changed
    from builder.incremental import Manifest

    shown = {"war": "a", "peace": "b"}
    units = {p: {"key": "k", **printed(p, shown)} for p in
             ("book:war", "book:peace", "components:war", "compendium", "deck", "site")}
    assert "figures" not in units["components:war"] and "figures" not in units["deck"]
    old = Manifest(units=units)
    assert with_figures_changed(old, list(units), shown).units == units
    now = with_figures_changed(old, list(units), {"war": "a~stale", "peace": "b"})
    assert {p for p, e in now.units.items() if e["key"] is None} == {
        "book:war", "compendium", "site"}
    # a part this build does not make (``--game peace``) is kept as it was
    now = with_figures_changed(old, ["book:peace"], {"war": "c", "peace": "b"})
    assert now.units == units


# --------------------------------------------------------------------------- the command
def warbook(*args: str, env: dict) -> subprocess.CompletedProcess:
    """The command, its output and errors together in ``.said``."""
    proc = subprocess.run([sys.executable, "-m", "builder", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    proc.said = proc.stdout + proc.stderr
    return proc


def war_without_figures(tmp_path: Path) -> tuple[Path, Path, dict, tuple]:
    """A content folder of War alone, its figures file taken away; the output beside it; an
    environment that keeps figures beside the content and caps them at 20 games; and the
    arguments of a build of the one into the other."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "war" / fig.FILE).unlink(missing_ok=True)
    (content / "index.yaml").write_text("games: [war]\n")
    out = tmp_path / "output"
    env = {k: v for k, v in os.environ.items() if k != "WARBOOK_CACHE"}
    env.update(WARBOOK_LAB_GAMES="20", XDG_CACHE_HOME=str(tmp_path / "xdg"))
    return content, out, env, ("build", "--content", str(content), "--out", str(out))


def manifest_figures(out: Path) -> dict:
    return json.loads((out / ".warbook-build.json").read_text())["check"]["figures"]


@pytest.mark.slow
@pytest.mark.build
def test_build_quick_then_build_measures_what_quick_marked(tmp_path, monkeypatch):
    content, out, env, args = war_without_figures(tmp_path)

    first = warbook(*args, env=env)
    assert first.returncode == 0, first.said
    assert "simulating war" in first.said
    assert stored(content / "war")["cap"] == 20
    first_key = stored(content / "war")["key"]
    yaml = content / "war" / "game.yaml"
    yaml.write_text(yaml.read_text() + "# a new version of the game\n")

    quick = warbook(*args, "--quick", env=env)
    assert quick.returncode == 0, quick.said
    assert "simulating" not in quick.said
    assert "war: the figures are from an earlier version of the game" in quick.said
    assert manifest_figures(out)["stale"] == ["war"]
    from builder.build import up_to_date
    from builder.settings import PAPERS, Settings

    settings = Settings(content_root=content, output=out, paper=PAPERS["a4"])
    monkeypatch.setenv("WARBOOK_LAB_GAMES", "20")
    assert up_to_date(settings, quick=True) is not None   # quick again: nothing to do
    assert up_to_date(settings) is None                   # a plain build has work to do

    plain = warbook(*args, env=env)                # never up to date with stale figures
    assert plain.returncode == 0, plain.said
    assert "nothing changed" not in plain.said and "simulating war" in plain.said
    assert manifest_figures(out)["stale"] == []
    assert stored(content / "war")["key"] != first_key


@pytest.mark.slow
@pytest.mark.build
def test_build_with_a_read_only_content_folder_keeps_the_figures_in_the_output(tmp_path):
    content, out, env, args = war_without_figures(tmp_path)
    subprocess.run(["chattr", "+i", str(content / "war")], check=True)
    try:
        first = warbook(*args, env=env)
        assert first.returncode == 0, first.said
        assert "simulating war" in first.said
        assert "the content folder cannot be written" in first.said
        assert "Traceback" not in first.said
        kept = json.loads((out / "figures" / "war.json").read_text())
        assert kept["game"] == "war" and kept["cap"] == 20
        again = warbook(*args, "--clean", env=env)   # read from the output: nothing played
        assert again.returncode == 0, again.said
        assert "simulating" not in again.said
        assert json.loads((out / "figures" / "war.json").read_text()) == kept
    finally:
        subprocess.run(["chattr", "-i", str(content / "war")], check=True)
    assert not (content / "war" / fig.FILE).exists()


# --------------------------------------------------------------------------- shipped content
def test_the_shipped_games_figures_files_are_current(report, monkeypatch):
    """Every shipped game's ``figures.json`` was measured from the game and engine as they
    are now, with the full policy: an engine edited without measuring again fails here."""
    monkeypatch.delenv("WARBOOK_CACHE", raising=False)
    monkeypatch.delenv("WARBOOK_LAB_GAMES", raising=False)
    stale = []
    for gr in report.games:
        game = gr.game
        if game.gamedef is None:
            continue
        path = Path(game.dir) / fig.FILE
        found = fig.read(path, game)
        if found is None or found["key"] != fig.key(game) or found["cap"] is not None:
            stale.append(f"content/{game.slug}/{fig.FILE}")
    assert not stale, (
        f"out of date (the game, its engine, the engine core or the lab's version changed "
        f"since they were measured), missing, or measured with fewer games: "
        f"{', '.join(stale)}. Measure them again with `{COMMAND}` (about two minutes) and "
        f"commit content/*/{fig.FILE}.")
