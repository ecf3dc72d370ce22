"""`warbook check`: every error class gives its path:line message and exit status 1."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import warbook_here

from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


run = warbook_here  # warbook ARGS in this process, its output captured


def test_the_command_line_runs_as_a_module():
    """Once through a real process, as a user runs it."""
    proc = subprocess.run([sys.executable, "-m", "builder", "check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "0 errors" in proc.stdout


@pytest.fixture()
def war_only(tmp_path: Path) -> Path:
    """A content folder holding only classic War, to be broken on purpose."""
    root = tmp_path / "content"
    root.mkdir()
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    return root


def edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once; return the 1-based line where it was."""
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} must occur once in {path}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new))
    return line


def assert_error(proc: subprocess.CompletedProcess, path: Path, line: int, *words: str) -> str:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    pattern = re.compile(rf"^(\S*{re.escape(path.name)}):{line}:(\d+): error: (.*)$", re.M)
    hits = [m for m in pattern.finditer(proc.stderr)]
    assert hits, f"no error at {path.name}:{line} in:\n{proc.stderr}"
    msg = " ".join(m.group(3) for m in hits)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    return msg


def test_shipped_content_passes():
    proc = run("check")
    assert proc.returncode == 0, proc.stderr
    assert "0 errors" in proc.stdout


def test_json_report():
    proc = run("check", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["ok"] is True
    games = {g["slug"]: g for g in data["games"]}
    war = games["war"]
    ex = {e["id"]: e for e in war["examples"]}
    assert ex["war-one-war"]["file"].endswith("02-one-war.yaml")
    assert ex["war-one-war"]["line"] == 1
    assert ex["war-one-war"]["status"] == "pass"
    assert ex["war-one-war"]["steps"] == 1
    # coverage: per rule id, the examples whose replay applied it
    assert "war-one-war" in war["rules"]["war"]
    assert "war-short-of-cards" in war["rules"]["war-short"]
    assert war["uncovered"] == []


def test_unknown_card(war_only: Path):
    f = war_only / "war/examples/01-a-plain-trick.yaml"
    line = edit(f, "p1.deck: [KS, 4D]", "p1.deck: [KS, 11H]")
    assert_error(run("check", "--content", str(war_only)), f, line, "unknown card '11H'")


def test_card_twice(war_only: Path):
    f = war_only / "war/examples/02-one-war.yaml"
    line = edit(f, "p2.deck: [8D, 6S,", "p2.deck: [8S, 6S,")
    assert_error(run("check", "--content", str(war_only)), f, line, "8S", "more than once")


def test_unknown_rule_id_in_example(war_only: Path):
    f = war_only / "war/examples/04-short-war.yaml"
    line = edit(f, "rules: [war-short, out-of-cards]", "rules: [war-shrt, out-of-cards]")
    assert_error(run("check", "--content", str(war_only)), f, line, "unknown rule id 'war-shrt'")


def test_unknown_rule_id_in_cross_reference(war_only: Path):
    f = war_only / "war/rules.md"
    line = edit(f, "order is fixed in [[collect]].", "order is fixed in [[colect]].")
    assert_error(run("check", "--content", str(war_only)), f, line, "unknown rule id 'colect'")


def test_engine_rule_missing_from_rules(war_only: Path):
    f = war_only / "war/rules.md"
    edit(f, "## The trick cap {#trick-cap}", "## The trick cap {#cap}")
    proc = run("check", "--content", str(war_only))
    assert_error(proc, f, 1, "engine cites rule 'trick-cap'")


def test_changed_expectation_names_its_line(war_only: Path):
    f = war_only / "war/examples/02-one-war.yaml"
    line = edit(f, "trick.cards: 10", "trick.cards: 11")
    msg = assert_error(run("check", "--content", str(war_only)), f, line,
                       "war-one-war", "step 1", "expected 11", "got 10")
    assert "trick.cards" in msg


def test_changed_pile_expectation_shows_state_before(war_only: Path):
    f = war_only / "war/examples/07-trick-cap.yaml"
    line = edit(f, "p2.deck: [2D, 8D, 6C]", "p2.deck: [2D, 6C, 8D]")
    proc = run("check", "--content", str(war_only))
    assert_error(proc, f, line, "step 2", "expected [2D, 6C, 8D]", "got [2D, 8D, 6C]")
    assert "state before the step:" in proc.stderr
    assert "p2.deck: [8D, 2D] (2)" in proc.stderr


@pytest.mark.slow
def test_every_expected_value_is_checked(war_only: Path):
    """Changing any single expected value in any example makes the check fail at its line."""
    import yaml

    checked = 0
    for f in sorted((war_only / "war/examples").glob("*.yaml")):
        original = f.read_text()
        lines = original.splitlines()
        for i, text in enumerate(lines):
            m = re.match(r"^(\s+)([a-z0-9.]+): (\S.*)$", text)
            if not m or m.group(2) in ("events", "comment"):
                continue
            if not _inside_expect(lines, i):
                continue
            value = yaml.safe_load(m.group(3))
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                new = str(value + 1)
            elif isinstance(value, list) and value:
                new = "[" + ", ".join(map(str, value[1:])) + "]"
            elif isinstance(value, str):
                new = {"p1": "p2", "p2": "p1", "draw": "p1", "none": "p1"}.get(value, value + "x")
            else:
                continue
            lines2 = list(lines)
            lines2[i] = f"{m.group(1)}{m.group(2)}: {new}"
            f.write_text("\n".join(lines2) + "\n")
            proc = run("check", "--content", str(war_only))
            assert_error(proc, f, i + 1)
            checked += 1
        f.write_text(original)
    assert checked >= 25


def _inside_expect(lines: list[str], i: int) -> bool:
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        t = lines[j]
        if t.strip() and len(t) - len(t.lstrip()) < indent:
            return t.strip() in ("expect:", "- expect:")
    return False


def test_illegal_decision_names_the_rule(war_only: Path):
    f = war_only / "war/examples/05-both-out.yaml"
    text = f.read_text().replace("  - expect:\n", "  - decide: {p1: turn, p2: pass}\n    expect:\n", 1)
    f.write_text(text)
    line = text[: text.index("decide:")].count("\n") + 1
    msg = assert_error(run("check", "--content", str(war_only)), f, line, "illegal", "p2")
    assert "Turning up" in msg  # the rule's number and title


def test_decision_for_a_finished_game(war_only: Path):
    f = war_only / "war/examples/06-one-out.yaml"
    f.write_text(f.read_text() + "  - expect: {result: p2}\n")
    line = f.read_text().splitlines().index("  - expect: {result: p2}") + 1
    assert_error(run("check", "--content", str(war_only)), f, line, "already over")


def test_yaml_syntax_error(war_only: Path):
    f = war_only / "war/examples/01-a-plain-trick.yaml"
    line = edit(f, "title: Two plain tricks", "title: [Two plain tricks")
    proc = run("check", "--content", str(war_only))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    # the flow sequence opened on the title's line runs on to the next line, where the
    # colon of "rules:" (column 6) cannot stand in a sequence: that is where it is wrong
    assert (f"{f.name}:{line + 1}:6: error: YAML syntax: a list in [ ] is not closed here, or "
            f"one of its items needs quotes (the list in [ ] began on line {line})\n"
            "    rules: [turn-up, higher-takes, collect]\n"
            "         ^\n") in proc.stderr, proc.stderr


def test_raw_html_is_refused(war_only: Path):
    f = war_only / "war/examples/01-a-plain-trick.yaml"
    line = edit(f, "because it is North's own card", "because <script>alert(1)</script> it is North's own card")
    assert_error(run("check", "--content", str(war_only)), f, line, "raw HTML")


def test_unknown_expectation_key(war_only: Path):
    f = war_only / "war/examples/02-one-war.yaml"
    line = edit(f, "trick.wars: 1", "trick.battles: 1")
    assert_error(run("check", "--content", str(war_only)), f, line, "unknown state 'trick.battles'")


def test_all_errors_reported_in_one_run(war_only: Path):
    f1 = war_only / "war/examples/01-a-plain-trick.yaml"
    f2 = war_only / "war/examples/02-one-war.yaml"
    l1 = edit(f1, "p1.deck: [KS, 4D]", "p1.deck: [KS, 11H]")
    l2 = edit(f2, "trick.cards: 10", "trick.cards: 12")
    proc = run("check", "--content", str(war_only))
    assert_error(proc, f1, l1)
    assert_error(proc, f2, l2)
    assert "2 failed" in proc.stdout and "2 errors" in proc.stdout


def test_missing_content_folder(tmp_path: Path):
    proc = run("check", "--content", str(tmp_path / "nope"))
    assert proc.returncode == 1 and "content folder not found" in proc.stderr
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- the engine's contract
# The conformance kit's breaches as the check says them: at the line of the function to
# blame, named as the reader finds it in the file. High Five (tests/fixtures/high-five) is a
# designer's engine.py; one fault is planted in it.
HIGH_FIVE = ROOT / "tests" / "fixtures" / "high-five"


def high_five_with(tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    """High Five in a content folder of its own, ``old`` replaced once by ``new`` in its
    engine.py; (the content folder, the engine file)."""
    content = tmp_path / "content"
    shutil.copytree(HIGH_FIVE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    engine = content / "high-five" / "engine.py"
    edit(engine, old, new)
    return content, engine


def test_a_breach_in_a_state_method_names_the_class_and_the_method(tmp_path, monkeypatch):
    """A card lost in the second round: the kit blames the state's _apply, and the message
    names it as written in the file, HighFiveState._apply (not a bare _apply of no class)."""
    monkeypatch.setenv("WARBOOK_CACHE", str(tmp_path / "cache"))
    content, engine = high_five_with(
        tmp_path, "        self.round += 1\n",
        "        self.round += 1\n        if self.round == 2:\n            self.played['p2'].pop()\n")
    found = [d for d in run_check(content).diagnostics.errors if "contract" in d.message]
    assert len(found) == 1, [d.format() for d in found]
    (d,) = found
    line = next(i for i, t in enumerate(engine.read_text().splitlines(), 1)
                if t.startswith("    def _apply("))
    assert (Path(d.path).resolve(), d.line) == (engine.resolve(), line)
    assert d.message.startswith("the engine breaks its contract (cards): a card is not "
                                "accounted for: lost "), d.message
    assert d.message.endswith(" in HighFiveState._apply()"), d.message


def test_a_fault_in_warbooks_own_engine_code_is_said_at_warbooks_line(tmp_path, monkeypatch):
    """An engine.py built on a shipped engine's code: High Five takes War's max_steps, which
    reads an option High Five does not have. The fault is in warbook's war.py, not in the
    designer's file, and the check says it there, in max_steps()."""
    from builder.engine import war

    monkeypatch.setenv("WARBOOK_CACHE", str(tmp_path / "cache"))
    content, engine = high_five_with(
        tmp_path, 'heuristic=heuristic, max_steps=lambda options: options["hand"],',
        "heuristic=heuristic, max_steps=war_max_steps,")
    edit(engine, "PLAYERS = (", "from builder.engine.war import max_steps as war_max_steps\n\n"
                                 "PLAYERS = (")
    found = [d for d in run_check(content).diagnostics.errors if "contract" in d.message]
    assert len(found) == 1, [d.format() for d in found]
    (d,) = found
    source = Path(war.__file__).read_text().splitlines()
    line = next(i for i, t in enumerate(source, 1) if t == '    return options["max_tricks"]')
    assert (Path(d.path).resolve(), d.line) == (Path(war.__file__).resolve(), line)
    assert d.message == ("the engine breaks its contract (fault): KeyError: 'max_tricks' in "
                         "max_steps()"), d.message
