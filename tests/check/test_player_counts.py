"""An example of more players than game.yaml says the game is for is refused at its options
(issue 24, item 9): it used to replay and print. Battle's engine plays 2 or 4; here its
game.yaml says 2 only, and its four-player example (options: players: 4) is then an error."""

from __future__ import annotations

from pathlib import Path

from helpers import copy_shipped_game, edit_once

from builder.check import run_check


def test_an_example_for_more_players_than_the_game_is_refused(tmp_path: Path):
    content = copy_shipped_game(tmp_path, "battle")
    edit_once(content / "battle" / "game.yaml", "  max: 4\n", "  max: 2\n")
    example = content / "battle" / "examples" / "10-four-players.yaml"
    line = next(i for i, ln in enumerate(example.read_text().splitlines(), 1)
                if ln.strip() == "players: 4")
    report = run_check(content)
    said = [d.format().split("\n")[0] for d in report.diagnostics.errors
            if d.path.endswith("10-four-players.yaml")]
    assert said == [f"{example}:{line}:12: error: example 'battle-four-players': a game of 4 "
                    "players, but game.yaml says this game is for 2 (players:)"]
    (replay,) = [r for r in report.games[0].replays if r.example.id == "battle-four-players"]
    assert replay.status == "error" and not replay.steps


def test_a_range_of_player_counts_is_said_as_a_range(tmp_path: Path):
    content = copy_shipped_game(tmp_path, "battle")
    edit_once(content / "battle" / "game.yaml", "  max: 4\n", "  max: 3\n")
    report = run_check(content)
    said = [d.message for d in report.diagnostics.errors
            if d.path.endswith("10-four-players.yaml")]
    assert said == ["example 'battle-four-players': a game of 4 players, but game.yaml says "
                    "this game is for 2 to 3 (players:)"]
