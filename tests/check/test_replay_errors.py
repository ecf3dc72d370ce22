"""Every way a step can go wrong during the replay is an error at the step's own place in the
file (line and column counted by hand in the edited text), says what is pending and who must
act, and stops the example there; the replay of the other examples and games goes on.

In-process (run_check), on a copy of one shipped game with one edit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, copy_shipped_game, edit_once

from builder.check import run_check

CONTENT = Path(__file__).resolve().parents[2] / "content"
RESHUFFLE = "05-reshuffle.yaml"            # Battle: decisions, then a chance step (line 46)
PLAIN = "01-a-plain-trick.yaml"            # War: forced steps only


def broken(tmp_path: Path, game: str, file: str, old: str, new: str, games=None):
    root = tmp_path / "content"
    for g in games or [game]:
        shutil.copytree(CONTENT / g, root / g)
    (root / "index.yaml").write_text(f"games: [{', '.join(games or [game])}]\n")
    path = root / game / "examples" / file
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return run_check(root), path


def only_error(report, path: Path):
    errors = report.diagnostics.errors
    assert len(errors) == 1, [e.format() for e in errors]
    (e,) = errors
    assert Path(e.path) == path
    return e


CASES = [
    # id, game, file, old, new, line, col, words that must be in the message
    ("chance-written-where-players-decide", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n", "  - chance: [5H]\n", 15, 13,
     ["step 1: no chance event is pending", "p1", "p2", "must decide",
      "every player plays a card from hand"]),
    ("decision-written-where-chance-is-pending", "battle", RESHUFFLE,
     "  - chance: [KC, 7S, 6S]\n", "  - decide: {p1: JD}\n", 46, 13,
     ["step 3: a chance event is pending",
      "p2 shuffles their discard pile into a new deck", "write its outcome with chance:"]),
    ("nothing-written-where-chance-is-pending", "battle", RESHUFFLE,
     "  - chance: [KC, 7S, 6S]\n    expect:", "  - expect:", 46, 5,
     ["step 3: a chance event is pending", "write its outcome with chance:"]),
    ("nothing-written-where-players-decide", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n    expect:", "  - expect:", 15, 5,
     ["step 1: a decision is needed (every player plays a card from hand)",
      "write it with decide:", "p1: 9D, 5H", "p2: 7S, 4C"]),
    ("a-player-left-out", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n", "  - decide: {p1: 5H}\n", 15, 13,
     ["step 1: p2 must decide too (every player plays a card from hand)", "7S, 4C"]),
    ("a-player-with-nothing-to-decide", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n", "  - decide: {p1: 5H, p2: 7S, p3: 4C}\n", 15, 34,
     ["step 1: p3 has no decision to make now", "deciding: p1, p2",
      "every player plays a card from hand"]),
    ("a-decision-that-is-not-a-card", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n", "  - decide: {p1: [5H], p2: 7S}\n", 15, 18,
     ["step 1: p1:", "expected a card such as QD or 10H", "5H"]),
    ("an-illegal-decision-names-its-rule", "battle", RESHUFFLE,
     "  - decide: {p1: 5H, p2: 7S}\n", "  - decide: {p1: 5H, p2: 4D}\n", 15, 26,
     ["step 1: illegal: p2: 4D is not allowed here", "7S, 4C",
      "(rule 4.1 Play a card [play-card])"]),
    ("an-illegal-chance-outcome", "battle", RESHUFFLE,
     "  - chance: [KC, 7S, 6S]\n", "  - chance: [KC, 7S]\n", 46, 13,
     ["step 3: illegal: p2: not an order of the discard pile", "missing 6S",
      "(rule 4.4.2 Reshuffling your discard pile [reshuffle])"]),
    # the diamonds' shuffle belongs to no player: the message names none
    ("an-illegal-chance-outcome-of-no-player", "ultimate", "05-a-whole-game.yaml",
     "  - chance: [8D, KD, 3D, JD, 5D, AD, 10D, 6D, QD, 2D, 9D, 4D, 7D]\n",
     "  - chance: [8D, KD, 3D, JD, 5D, AD, 10D, 6D, QD, 2D, 9D, 4D]\n", 14, 13,
     ["step 1: illegal: not an order of the diamonds", "missing 7D",
      "(rule 6.1 The shuffle is the only chance [shuffle-written])"]),
    ("an-option-out-of-range", "war", PLAIN,
     "setup:\n", "options: {wins: sideways}\nsetup:\n", 6, 11,
     ["example 'war-plain-trick': option 'wins' must be one of higher, lower, got 'sideways'"]),
    ("a-listed-rule-the-replay-never-applies", "war", PLAIN,
     "rules: [", "rules: [war, ", 3, 9,
     ["example 'war-plain-trick' lists rule 'war', but its replay never applies it",
      "(rules applied: collect, higher-takes, turn-up)"]),
]


@pytest.mark.parametrize("game,file,old,new,line,col,words",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_step_that_cannot_be_replayed_is_located(tmp_path, game, file, old, new, line, col,
                                                    words):
    report, path = broken(tmp_path, game, file, old, new)
    e = only_error(report, path)
    assert (e.line, e.col) == (line, col), e.format()
    for w in words:
        assert w in e.message, (w, e.message)
    if ": step " in e.message:            # a step that fails shows the table before it
        assert e.detail and e.detail.startswith("state before the step:\n"), e.detail
    example = next(r for r in report.games[0].replays if Path(r.example.where.path) == path)
    assert example.status in ("fail", "error")
    others = [r for r in report.games[0].replays if r is not example]
    assert others and all(r.status == "pass" for r in others)


def test_a_failed_step_shows_the_state_before_it(tmp_path):
    report, path = broken(tmp_path, "battle", RESHUFFLE, "  - decide: {p1: 5H, p2: 7S}\n",
                          "  - decide: {p1: 5H, p2: 4D}\n")
    detail = only_error(report, path).detail
    assert detail.startswith("state before the step:\n")
    assert "  p1.hand: [9D, 5H] (2)" in detail and "  p2.deck: []" in detail


def test_the_replay_stops_at_the_failing_step(tmp_path):
    """Step 1 of 05-reshuffle fails: no later step is replayed (or reported)."""
    report, path = broken(tmp_path, "battle", RESHUFFLE, "  - decide: {p1: 5H, p2: 7S}\n",
                          "  - decide: {p1: 5H, p2: 4D}\n")
    replay = next(r for r in report.games[0].replays if Path(r.example.where.path) == path)
    assert replay.status == "fail" and replay.steps == []


def test_a_repeated_step_names_the_round_that_failed(tmp_path):
    """War's two plain tricks written as one forced step repeated five times: the error
    names the round in which the game was already over."""
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    path = root / "war" / "examples" / PLAIN
    text = path.read_text()
    head = text[:text.index("steps:")]
    path.write_text(head + "steps:\n  - repeat: 5\n")
    report = run_check(root)
    e = only_error(report, path)
    # by hand: KS-7H to North, 4D-9C to South (North KS 7H, South 9C 4D), KS-9C to North
    # (South 4D), 7H-4D to North: South is out after four tricks, so the fifth fails
    assert (e.line, e.col) == (head.count("\n") + 2, 5)
    assert "step 1 (repeat 5 of 5): the game is already over (p2 has no cards left)" \
        in e.message, e.message


def test_an_example_with_an_unknown_card_in_its_setup_is_an_error(tmp_path):
    report, path = broken(tmp_path, "war", PLAIN, "p1.deck: [KS, 4D]", "p1.deck: [KS, 4X]")
    e = only_error(report, path)
    assert (e.line, e.col) == (8, 19)
    assert e.message.startswith("example 'war-plain-trick': ") and "4X" in e.message
    replay = next(r for r in report.games[0].replays if Path(r.example.where.path) == path)
    assert replay.status == "error"


@pytest.mark.parametrize("copies,card,allowed", [("war", "KS", "once")])
def test_a_card_written_twice_in_one_deck_is_an_error(tmp_path, copies, card, allowed):
    report, path = broken(tmp_path, copies, PLAIN, "p2.deck: [7H, 9C]", "p2.deck: [7H, KS]")
    e = only_error(report, path)
    assert (e.line, e.col) == (9, 19)
    assert f"card {card} is in the setup more than {allowed}" in e.message
    assert "(the game has one of each card)" in e.message


def test_a_game_whose_engine_fails_does_not_stop_the_next_game(tmp_path):
    """The first game's engine cannot be loaded; the second is still replayed in full."""
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "war", root / "war")
    shutil.copytree(CONTENT / "peace", root / "peace")
    game = root / "war" / "game.yaml"
    game.write_text(game.read_text().replace("engine: war", "engine: no-such-engine", 1))
    (root / "index.yaml").write_text("games: [war, peace]\n")
    report = run_check(root)
    assert not report.ok
    war, peace = report.games
    assert war.replays == []
    examples = sorted((root / "peace" / "examples").glob("*.yaml"))
    assert len(peace.replays) == len(examples) and all(r.status == "pass" for r in peace.replays)
    assert peace.coverage and all(isinstance(v, list) for v in peace.coverage.values())


# --------------------------------------------------------------------------- state keys, chance, repeats, drafts
def test_an_unknown_state_key_fails_the_example_at_that_step(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "      trick.winner: p1\n", "      trick.winer: p1\n")
    report = run_check(root)
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.status == "fail"
    assert len(rep.steps) == 1           # the second step is not replayed
    (e,) = report.diagnostics.errors
    assert (e.line, e.col) == (13, 7) and "unknown state 'trick.winer'" in e.message

def test_an_unknown_state_lists_the_states_the_game_has(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "      trick.winner: p1\n", "      trick.winer: p1\n")
    (e,) = run_check(root).diagnostics.errors
    assert "(this game has: p1.deck, p2.deck, tricks, trick.winner, " in e.message, e.message
    assert e.message.endswith(", events)")

def test_an_unreadable_chance_outcome_shows_the_state_before_it(tmp_path):
    root = copy_shipped_game(tmp_path, "battle")
    path = root / "battle" / "examples" / "05-reshuffle.yaml"
    edit_once(path, "  - chance: [KC, 7S, 6S]\n", "  - chance: {p2: KC}\n")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (46, 13) and "step 3: chance:" in e.message
    assert e.detail.startswith("state before the step:\n") and "p2.discard" in e.detail

@pytest.mark.parametrize("new", ["  - decide: {p2: KC}\n    expect:\n", "  - expect:\n"])
def test_a_missing_chance_outcome_shows_the_state_before_it(tmp_path, new):
    """Battle's reshuffle (05-reshuffle.yaml, step 3) waits for the order the cards come
    out in; a step that decides instead, or says nothing, is told to write ``chance:``,
    with the state before the step under the message."""
    root = copy_shipped_game(tmp_path, "battle")
    path = root / "battle" / "examples" / "05-reshuffle.yaml"
    edit_once(path, "  - chance: [KC, 7S, 6S]\n    expect:\n", new)
    (e,) = run_check(root).diagnostics.errors
    assert "step 3: a chance event is pending" in e.message
    assert e.message.endswith("write its outcome with chance:"), e.message
    assert e.detail.startswith("state before the step:\n") and "p2.discard" in e.detail

def test_a_repeated_step_that_fails_says_which_repetition(tmp_path):
    """The message of a repeated step names the repetition that failed ("(repeat 2 of
    2)"): only the last one is compared with ``expect:``."""
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("steps:\n")] + "steps:\n  - repeat: 2\n    expect:\n"
                    "      tricks: 3\n")
    (e,) = run_check(root).diagnostics.errors
    assert "step 1 (repeat 2 of 2): tricks: expected 3, got 2" in e.message, e.message

def test_a_recorded_draft_proves_nothing_until_reviewed(tmp_path):
    root = copy_shipped_game(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit_once(path, "title: Two plain tricks\n", "title: Two plain tricks\ndraft: recorded\n")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (3, 8)            # at the draft: mark's value
    assert "example 'war-plain-trick' is an unreviewed draft" in e.message

def test_a_listed_rule_is_judged_by_the_rules_of_the_examples_options(tmp_path):
    """War's ``wins: lower`` makes the lower card take a plain trick (rule lower-takes,
    which the engine cites only with that option). An example played with it that lists
    lower-takes must apply it: here the two kings tie, a war nobody can finish follows, and
    no plain trick is ever taken."""
    root = copy_shipped_game(tmp_path, "war")
    with (root / "war" / "rules.md").open("a") as f:
        f.write("\n## The lower card takes {#lower-takes}\n\nWith the lower card taking, the "
                "lower of the two face-up cards takes the trick.\n")
    path = root / "war" / "examples" / PLAIN
    path.write_text("id: war-lower-tie\ntitle: A tie when the lower card takes\n"
                    "rules: [turn-up, lower-takes]\noptions: {wins: lower}\nsetup:\n"
                    "  piles:\n    p1.deck: [KS, 4D]\n    p2.deck: [KH, 9C]\nsteps:\n"
                    "  - comment: The kings tie.\n")
    report = run_check(root)
    e = only_error(report, path)
    assert (e.line, e.col) == (3, 18), e.format()
    assert e.message == ("example 'war-lower-tie' lists rule 'lower-takes', but its replay "
                         "never applies it (rules applied: collect, out-of-cards, turn-up, war, "
                         "war-short)")
    (replay,) = [r for r in report.games[0].replays if r.example.id == "war-lower-tie"]
    assert replay.status == "fail"


def _eights(tmp_path: Path, monkeypatch) -> Path:
    """Crazy Eights (tests/fixtures/eights, whose examples write turns of several parts) in
    a fresh working folder."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURES / "eights", tmp_path / "content" / "eights")
    (tmp_path / "content" / "index.yaml").write_text("games: [eights]\n")
    return tmp_path / "content" / "eights" / "examples"


def test_a_turn_is_recorded_as_one_step_of_kind_turn_with_each_players_decisions(
        tmp_path, monkeypatch):
    _eights(tmp_path, monkeypatch)
    report = run_check(Path("content"))
    (replay,) = [r for r in report.games[0].replays if r.example.id == "eights-new-stock"]
    first = replay.steps[0]
    assert first.kind == "turn"
    # Ada's two decisions in order, and the reshuffle's outcome between them
    assert {who: [[str(x) for x in v] for v in values]
            for who, values in first.decisions.items() if who != "chance"} == {
        "p1": [["draw"], ["5D"]]}
    assert [str(c) for c in first.decisions["chance"]] == ["5D", "3S", "AH"]
    assert [e.kind for e in first.events] == ["empty", "reshuffle", "draw", "play"]
    assert replay.steps[1].kind == "decision"


def test_a_part_of_a_turn_after_the_game_ended_is_said_at_that_part(tmp_path, monkeypatch):
    examples = _eights(tmp_path, monkeypatch)
    engine = examples.parent / "engine.py"   # a reason naming its player as {p2}, as War's do
    engine.write_text(engine.read_text().replace('Result(p, "played every card", "out")',
                                                 'Result(p, "{" + p + "} played every card", "out")'))
    path = examples / "05-out-on-an-eight.yaml"
    text = path.read_text()
    part = "{decide: {p2: draw}}"
    path.write_text(text.replace("  - decide: {p2: 8D clubs}\n",
                                 f"  - turn: [{{decide: {{p2: 8D clubs}}}}, {part}]\n"))
    lines = path.read_text().splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if part in ln)
    col = lines[line - 1].index(part) + 1                 # at the part
    report = run_check(Path("content"))
    (d,) = report.diagnostics.errors
    assert (d.path, d.line, d.col) == ("content/eights/examples/05-out-on-an-eight.yaml", line, col)
    assert d.message == ("example 'eights-out-on-an-eight', step 2, part 2 of the turn: the "
                         "game is already over (p2 played every card)")
