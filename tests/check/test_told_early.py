"""An event made before the change it tells is warned of at the engine's line (the
website's viewer shows each event's moment as the engine's table stood when the event was
made, so such an engine's moments would each lag one change behind)."""

from __future__ import annotations

from pathlib import Path

from builder.check import run_check, told_early
from builder.engine.core import Card, Event, Zone
from builder.scaffold import new_game


def zones(**places) -> list[Zone]:
    return [Zone(zid, zid, 0, i, cards=[(Card.parse(c), True) for c in cards])
            for i, (zid, cards) in enumerate(places.items())]


def made(kind: str, card: str, moment) -> Event:
    e = Event(kind, "r", "...", None, (Card.parse(card),))
    e.moment = moment
    return e


def test_a_card_that_moves_in_no_event_s_moment_is_found():
    start, end = zones(hand=["7H", "2C"], pile=[]), zones(hand=["2C"], pile=["7H"])
    early = made("play", "7H", start)            # made before the card moved
    assert told_early(start, [early], end) == (early, "7H", "hand")
    on_time = made("play", "7H", end)
    assert told_early(start, [on_time], end) is None


def test_an_event_before_its_change_is_fine_when_a_later_event_shows_the_move():
    # "asks for the seven" (the card still held), then "hands it over" (it has moved)
    start, end = zones(hand=["7H"], other=[]), zones(hand=[], other=["7H"])
    assert told_early(start, [made("ask", "7H", start), made("hand", "7H", end)], end) is None
    # a card the step leaves where it was, or one the tables do not show, is not judged
    assert told_early(start, [made("look", "7H", start)], start) is None
    assert told_early(start, [made("look", "9S", start)], end) is None


def test_the_check_warns_at_the_engine_s_line(tmp_path: Path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "index.yaml").write_text("games: []\n")
    new_game(content, "pips", engine=True)
    engine = content / "pips" / "engine.py"
    src = engine.read_text()
    moved = ('            self.hands[p].remove(choice)\n            self.pile.insert(0, choice)\n'
             '            ev = [Event("play", "match", f"{{{p}}} plays {choice}.", p, (choice,))]\n')
    assert moved in src
    early = ('            ev = [Event("play", "match", f"{{{p}}} plays {choice}.", p, (choice,))]\n'
             '            self.hands[p].remove(choice)\n            self.pile.insert(0, choice)\n')
    assert not [d for d in run_check(content).diagnostics]
    engine.write_text(src.replace(moved, early))
    report = run_check(content)
    (warning,) = list(report.diagnostics)
    line = src.replace(moved, early).splitlines().index(early.splitlines()[0]) + 1
    assert warning.severity == "warning" and report.ok
    assert (Path(warning.path).name, warning.line) == ("engine.py", line)
    assert "event 'play' is made before the change it tells" in warning.message
    assert "make the event once the card has moved" in warning.message
