"""The check's report, as `warbook check` prints it and as `--json` writes it: its counts
agree with the content files themselves (read here with plain YAML, not the loader), and a
failing example is counted where it fails. In-process, so that the report's code is the
code under test (a subprocess would import the installed package). Then what the replay
records of each step for the renderers (its actions, the table before and after, its
comment), and the JSON report's fields as docs/README.md documents them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import copy_shipped_game

from builder import cli
from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


def shipped_examples() -> dict[str, list[Path]]:
    games = yaml.safe_load((CONTENT / "index.yaml").read_text())["games"]
    return {g: sorted((CONTENT / g / "examples").glob("*.yaml")) for g in games}


def steps_written(path: Path) -> int:
    """A step with ``repeat: n`` is applied, and recorded, n times."""
    doc = yaml.safe_load(path.read_text())
    return sum(int(s.get("repeat", 1)) for s in doc["steps"])


def check_json(capfd, *args: str) -> tuple[int, dict]:
    status = cli.main(["check", "--json", *args])
    return status, json.loads(capfd.readouterr().out)


def test_the_json_report_counts_what_the_content_holds(capfd):
    status, data = check_json(capfd, "--content", str(CONTENT))
    files = shipped_examples()
    n = sum(len(f) for f in files.values())
    assert status == 0 and data["ok"] is True
    assert data["summary"] == {"games": len(files), "examples": n, "passed": n, "failed": 0,
                               "errors": 0, "warnings": 0}
    assert [g["slug"] for g in data["games"]] == list(files)
    for g in data["games"]:              # each game's title as its game.yaml writes it
        game_yaml = yaml.safe_load((CONTENT / g["slug"] / "game.yaml").read_text())
        assert g["title"] == game_yaml["title"]
    assert data["diagnostics"] == []


def test_each_example_in_the_json_report_is_its_file(capfd):
    _, data = check_json(capfd, "--content", str(CONTENT))
    files = shipped_examples()
    for game in data["games"]:
        by_file = {Path(e["file"]).name: e for e in game["examples"]}
        assert sorted(by_file) == [p.name for p in files[game["slug"]]]
        for path in files[game["slug"]]:
            doc = yaml.safe_load(path.read_text())
            entry = by_file[path.name]
            assert entry["id"] == doc["id"] and entry["title"] == doc["title"]
            assert entry["line"] == 1          # an example is reported at its file's start
            assert entry["status"] == "pass"
            assert entry["steps"] == steps_written(path)
            assert entry["rules"] and entry["rules"] == sorted(entry["rules"])


def test_coverage_lists_each_example_under_the_rules_it_applies(capfd):
    _, data = check_json(capfd, "--content", str(CONTENT))
    for game in data["games"]:
        for ex in game["examples"]:
            for rid in ex["rules"]:
                assert ex["id"] in game["rules"][rid]
        for rid, ids in game["rules"].items():
            assert all(rid in e["rules"] for e in game["examples"] if e["id"] in ids)
        assert game["uncovered"] == []


@pytest.fixture()
def war_broken(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    f = root / "war" / "examples" / "02-one-war.yaml"
    f.write_text(f.read_text().replace("trick.cards: 10", "trick.cards: 11"))
    return root


def test_a_failing_example_is_counted_as_failed(capfd, war_broken):
    status, data = check_json(capfd, "--content", str(war_broken))
    n = len(list((war_broken / "war" / "examples").glob("*.yaml")))
    assert status == 1 and data["ok"] is False
    assert data["summary"] == {"games": 1, "examples": n, "passed": n - 1, "failed": 1,
                               "errors": 1, "warnings": 0}
    failed = [e for e in data["games"][0]["examples"] if e["status"] != "pass"]
    assert [(e["id"], e["status"]) for e in failed] == [("war-one-war", "fail")]
    (diag,) = data["diagnostics"]
    assert diag["path"].endswith("02-one-war.yaml") and diag["severity"] == "error"
    assert "expected 11" in diag["message"] and "got 10" in diag["message"]


def test_the_summary_line_counts_passes_failures_and_errors(capfd, war_broken):
    n = len(list((war_broken / "war" / "examples").glob("*.yaml")))
    assert cli.main(["check", "--content", str(war_broken)]) == 1
    out = capfd.readouterr()
    assert f"war: {n - 1}/{n} examples replay" in out.out
    assert out.out.rstrip().endswith(
        f"checked 1 game, {n} examples: {n - 1} passed, 1 failed; 1 error")
    assert cli.main(["check", "--content", str(CONTENT)]) == 0
    total = sum(len(f) for f in shipped_examples().values())
    assert f"{total} passed, 0 failed; 0 errors" in capfd.readouterr().out


# --------------------------------------------------------------------------- what each replayed step records
# The replay's record of each step, which the renderers draw from, and the JSON report's
# fields as docs/README.md documents them.
def test_a_forced_step_records_the_only_action_and_the_table_after_it():
    """War's two plain tricks (content/war/examples/01-a-plain-trick.yaml): nobody decides,
    so the step records the only action each player has, turning up the top card; each
    diagram shows the two cards turned up, and the table after the trick is kept beside it
    because the winner has taken them."""
    report = run_check(CONTENT)
    war = next(g for g in report.games if g.game.slug == "war")
    rep = next(r for r in war.replays if r.example.id == "war-plain-trick")
    assert [s.kind for s in rep.steps] == ["forced", "forced"]
    assert [s.decisions for s in rep.steps] == [{"p1": "turn", "p2": "turn"}] * 2
    assert rep.steps[0].expected == ["events", "trick.winner", "p1.deck", "p2.deck"]
    first = rep.steps[0]
    shown = sorted(str(card) for z in first.table for card, _face_up in z.cards)
    assert shown == ["4D", "7H", "9C", "KS"]   # every card, two of them face up in the middle
    assert first.after is not None and first.after != first.table
    for g in report.games:
        for r in g.replays:
            for s in r.steps:
                assert s.after is None or s.after != s.table, (r.example.id, s.index)

def test_the_setup_diagram_is_the_table_before_the_first_step():
    """War's two plain tricks start from the decks as written (North KS 4D, South 7H 9C):
    the setup's diagram, drawn before any step, shows each deck as one face-down card with
    its count, and nothing in play yet."""
    report = run_check(CONTENT)
    war = next(g for g in report.games if g.game.slug == "war")
    rep = next(r for r in war.replays if r.example.id == "war-plain-trick")
    assert [(z.id, [(str(c), up) for c, up in z.cards], z.count) for z in rep.initial_table] \
        == [("p2.deck", [("7H", False)], 2), ("p2.play", [], None),
            ("p1.deck", [("KS", False)], 2), ("p1.play", [], None)]

def test_a_step_without_expectations_records_none(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("  - expect:\n      trick.winner: p2")] +
                    "  - comment: Now South's nine beats North's four.\n")
    report = run_check(root)
    assert report.ok, [d.format() for d in report.diagnostics]
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.steps[1].expected == []

def test_a_repeated_steps_comment_belongs_to_its_last_repetition(tmp_path):
    """docs/content-format.md: ``repeat: n`` replays a forced step n times and its comment
    belongs to the last repetition."""
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("steps:\n")] + "steps:\n  - repeat: 2\n    comment: "
                    "Two tricks go by.\n")
    report = run_check(root)
    assert report.ok, [d.format() for d in report.diagnostics]
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert [s.comment.strip() for s in rep.steps] == ["", "Two tricks go by."]
    assert [(s.round, s.repeat) for s in rep.steps] == [(1, 2), (2, 2)]

def test_the_json_report_has_the_documented_fields_of_each_example():
    """docs/README.md, "JSON report": each example has exactly id, title, file, line,
    status, steps, result and rules; ``result`` is p1, p2, ... or draw if the replay ended
    the game, else none."""
    import re as _re

    page = (CONTENT.parent / "docs" / "README.md").read_text()
    row = next(ln for ln in page.splitlines() if ln.startswith("| `games[].examples[]`"))
    fields = _re.findall(r"`([a-z]+)` \(|`([a-z]+)`,|`([a-z]+)` \(sorted", row)
    documented = {f for tup in fields for f in tup if f}
    data = run_check(CONTENT).to_json()
    results = set()
    for g in data["games"]:
        for x in g["examples"]:
            assert set(x) == documented, (set(x) ^ documented)
            assert x["result"] in {"p1", "p2", "p3", "p4", "draw", "none"}, x
            results.add(x["result"])
    assert {"none", "p1", "p2"} <= results, results
