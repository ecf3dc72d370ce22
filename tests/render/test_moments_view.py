"""The viewer's moments as the presenter hands them to the site (issue 27, item 9): for
each position of a step (before it, after each event it narrates, after it) the table the
engine recorded, each distinct table drawn once, marked with the events so far."""

from __future__ import annotations

from builder.check import StepRecord
from builder.engine.core import Card, Event, Zone
from builder.render.markup import Markdown
from builder.render.present import Links, Presenter


def links() -> Links:
    return Links(anchor=lambda s, r: f"{s}--{r}", href=lambda s, r: f"#{s}--{r}",
                 card=lambda c: f"card:{c}")


def table(*up: str) -> list[Zone]:
    return [Zone("play", "Play area", 0, 0, cards=[(Card.parse(c), True) for c in up], style="fan")]


def event(kind: str, text: str, moment, *cards: str) -> Event:
    e = Event(kind, "r", text, None, tuple(Card.parse(c) for c in cards))
    e.moment = moment
    return e


def codes(d) -> list[str]:
    return [c.code for row in d.rows for z in row if z for c in z.cards]


def marked(d) -> dict[str, str]:
    return {c.code: c.mark for row in d.rows for z in row if z for c in z.cards if c.mark}


def step(events, after, refusal=None) -> StepRecord:
    return StepRecord(index=1, kind="decision", decisions={}, events=events, view={},
                      table=after, comment="", expected=[], refusal=refusal)


def view(s: StepRecord, before, marks=None):
    return Presenter(links()).step(s, {}, Markdown(lambda rid: None), marks=marks, before=before)


def test_each_position_points_at_its_table_and_equal_tables_are_drawn_once():
    ev = [event("play", "North plays 2H.", table("2H"), "2H"),
          event("say", "Nobody can follow.", table("2H")),
          event("hidden", "", table("2H", "9S")),        # no words: no position of its own
          event("play", "South plays 9S.", table("2H", "9S"), "9S")]
    v = view(step(ev, table("2H", "9S")), before=table())
    # before, three events told, after: the first event's table stands for the second
    assert v.moment_at == [0, 1, 1, 2, 2]
    assert [codes(d) for d in v.moments] == [[], ["2H"], ["2H", "9S"]]
    assert len(v.narration) == len(v.moment_at) - 2


def test_a_moment_carries_the_marks_of_the_events_so_far():
    def marks(events, tbl):  # the card of the last "win" event won; a hand-written hook
        won = [e for e in events if e.kind == "win"]
        return {str(won[-1].cards[0]): "won"} if won else {}

    ev = [event("play", "North plays KH.", table("KH"), "KH"),
          event("win", "KH wins.", table("KH"), "KH")]
    v = view(step(ev, table("KH")), before=table(), marks=marks)
    first, won = (v.moments[k] for k in v.moment_at[1:3])
    assert marked(first) == {} and marked(won) == {"KH": "won"}
    assert v.moment_at[3] == v.moment_at[2]  # after the step: the same table, marked alike


def test_a_hook_that_needs_the_whole_step_leaves_the_early_moments_unmarked():
    def marks(events, tbl):  # assumes the step's last event is there
        return {str(next(e for e in events if e.kind == "win").cards[0]): "won"}

    ev = [event("play", "North plays KH.", table("KH"), "KH"),
          event("win", "KH wins.", table("KH"), "KH")]
    v = view(step(ev, table("KH")), before=table(), marks=marks)
    assert marked(v.moments[v.moment_at[1]]) == {}
    assert marked(v.moments[v.moment_at[2]]) == {"KH": "won"}


def test_an_event_with_no_table_recorded_and_a_refused_step():
    ev = [event("play", "North plays 2H.", None, "2H"), event("end", "Done.", table("2H"))]
    v = view(step(ev, table("2H")), before=table())
    assert v.moment_at[1] == -1 and codes(v.moments[v.moment_at[2]]) == ["2H"]
    refused = view(step([], table(), refusal=("p1", "r", "not your turn")), before=table())
    assert refused.moments == [] and refused.moment_at == []
