"""``warbook record``: a bot game recorded for every game is a draft the check refuses
until its draft line is deleted, and then passes; ``record --update`` after a deliberate
rules change rewrites the expectations that changed and shows them as a diff (the new
values worked out by hand below)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.record import dump_example, flow

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["war", "peace", "winning-the-battle", "battle-lines", "deck-management", "battle",
         "ultimate", "happy-families"]


def warbook(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_values_are_written_as_the_designer_writes_them():
    assert flow(False) == "false"
    assert flow(None) == "null"
    assert flow(["KC", "10H"]) == "[KC, 10H]"
    assert flow({"left": "4C", "centre": None}) == "{left: 4C, centre: null}"
    text = dump_example({"id": "x", "title": "T", "setup": {"piles": {"p1.deck": ["2C"]}},
                         "steps": [{"decide": {"p1": "KC"}, "expect": {"p1.won": [], "over": False},
                                    "comment": "One.\nTwo."}]})
    assert text == ("id: x\ntitle: T\nsetup:\n  piles:\n    p1.deck: [2C]\nsteps:\n"
                    "  - decide: {p1: KC}\n    expect:\n      p1.won: []\n      over: false\n"
                    "    comment: |\n      One.\n      Two.\n")


@pytest.mark.slow
def test_a_bot_game_of_every_game_is_a_draft_that_passes_once_reviewed(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    paths = []
    for slug in GAMES:
        proc = warbook("record", slug, "--bots", "--seed", "7", "--content", str(content))
        assert proc.returncode == 0, proc.stderr
        m = re.search(r"wrote (\S+\.yaml)", proc.stdout)
        path = Path(m.group(1))
        assert path.parent == content / slug / "examples"
        assert "proves nothing until you have read it" in proc.stdout
        text = path.read_text()
        assert "expect:" in text and "events:" in text
        paths.append(path)
    proc = warbook("check", "--content", str(content))
    assert proc.returncode == 1
    for path in paths:  # one located error per draft, at its draft line
        row = next(i for i, ln in enumerate(path.read_text().splitlines(), 1)
                   if ln.startswith("draft:"))
        assert f"{path}:{row}:8: error: example '" in proc.stderr
        assert "is an unreviewed draft" in proc.stderr
    assert proc.stderr.count("unreviewed draft") == len(GAMES)
    for path in paths:  # the designer has read them: the draft lines go
        path.write_text("".join(ln for ln in path.read_text().splitlines(True)
                                if not ln.startswith("draft:")))
    proc = warbook("check", "--content", str(content))
    assert proc.returncode == 0, proc.stderr
    assert f"{len(GAMES)} games" in proc.stdout and "0 errors" in proc.stdout


def test_record_fills_in_a_sketch_written_by_hand(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    sketch = content / "war" / "examples" / "09-sketch.yaml"
    # North's 9 beats South's 4; then two kings tie and North's general (QH) beats South's
    # (3D): by hand, North takes ten cards
    sketch.write_text("id: war-sketch\ntitle: A sketch\nsetup:\n  piles:\n"
                      "    p1.deck: [9C, KS, 2C, 3C, 4C, QH]\n"
                      "    p2.deck: [4D, KH, 5D, 6D, 7D, 3D]\n"
                      "steps:\n  - comment: Nine takes four.\n  - {}\n")
    proc = warbook("record", "war", str(sketch), "--content", str(content))
    assert proc.returncode == 0, proc.stderr
    text = sketch.read_text()
    assert "draft: " in text
    assert "p1.deck: [KS, 2C, 3C, 4C, QH, 9C, 4D]" in text
    assert "{kind: take, player: p1, rule: collect" in text or "kind: take, player: p1" in text
    assert "p2.deck: []" in text
    assert "trick.cards: 10" in text
    assert "comment: Nine takes four." in text


@pytest.mark.slow
def test_update_after_a_rules_change_shows_the_diff(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    example = content / "war" / "examples" / "02-one-war.yaml"
    for other in example.parent.glob("*.yaml"):  # the others would break too
        if other != example:
            other.unlink()
    # nothing changed in the rules: nothing to update
    proc = warbook("record", "--update", str(example), "--content", str(content))
    assert proc.returncode == 0, proc.stderr
    assert "nothing changed" in proc.stdout
    # the deliberate change: a war has two soldiers, not three
    game = content / "war" / "game.yaml"
    game.write_text(game.read_text().replace("options:\n", "options:\n  war_cards: 2\n", 1))
    assert "war_cards: 2" in game.read_text()
    assert warbook("check", "--content", str(content)).returncode == 1
    proc = warbook("record", "--update", str(example), "--content", str(content))
    assert proc.returncode == 0, proc.stderr
    diff = proc.stdout
    # by hand: 8S ties 8D; North lays 2C 3C and turns up 4C, South lays 6S 7S and turns up
    # 9S; the nine takes the eight cards, South's own first in the order played
    assert "-      trick.cards: 10\n" in diff and "+      trick.cards: 8\n" in diff
    assert "+      p1.deck: [QH, 5D]\n" in diff
    assert "+      p2.deck: [JC, 10H, 8D, 6S, 7S, 9S, 8S, 2C, 3C, 4C]\n" in diff
    assert "-        - {kind: take, player: p1, count: 10}\n" in diff
    assert re.search(r"\+        - \{kind: take, player: p2, .*count: 8", diff)
    assert "+draft: " in diff
    assert "      trick.wars: 1\n" in diff  # still true, kept as written
    # once read and the draft line deleted, the example passes under the new rules
    example.write_text("".join(ln for ln in example.read_text().splitlines(True)
                               if not ln.startswith("draft:")))
    proc = warbook("check", "--content", str(content))
    assert proc.returncode == 0, proc.stderr
