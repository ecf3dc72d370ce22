"""Each event of a replayed step carries the table as it lay when the engine made it
(``Event.moment``), for the site's viewer; lean play takes no picture. The expected
tables are worked out by hand from the setups."""

from builder.engine.core import Event, State, Zone
from builder.engine.deck_management import GAME as DECK_MANAGEMENT
from builder.engine.war import GAME as WAR


def war(p1, p2):
    return WAR.from_setup(WAR.resolve({}), {"piles": {"p1.deck": p1, "p2.deck": p2}})


def places(zones):
    """zone id -> (the cards face up and down, as text, bottom first; the count)"""
    return {z.id: ([str(c) + ("" if up else "*") for c, up in z.cards], z.count) for z in zones}


def test_each_event_of_a_war_step_has_the_table_of_its_moment():
    # 8 = 8: a war, soldiers 2 3 4 / 6 7 9, generals Q v J: North (p1) takes ten cards
    s = war(["8S", "2C", "3C", "4C", "QH", "5D"], ["8D", "6S", "7S", "9S", "JC", "10H"])
    ev = s.apply({"p1": "turn", "p2": "turn"})
    said = [e.text.format(p1="N", p2="S") for e in ev]
    assert said[:3] == ["N turns up 8S.", "S turns up 8D.", "Both show an eight: war!"]
    first, second, war_called = (places(e.moment) for e in ev[:3])
    # North has turned up; South's 8D is still the top of South's deck of six
    assert first["p1.play"][0] == ["8S"] and first["p2.play"][0] == []
    assert first["p2.deck"] == (["8D*"], 6) and first["p1.deck"] == (["2C*"], 5)
    assert second["p2.play"][0] == ["8D"] and second["p2.deck"][1] == 5
    assert war_called == second  # announcing the war moves nothing
    # North's three soldiers and general leave the deck together, the general shown next
    lays = places(ev[3].moment)
    assert lays["p1.play"][0] == ["8S", "2C*", "3C*", "4C*"] and lays["p1.deck"][1] == 1
    assert places(ev[4].moment)["p1.play"][0] == ["8S", "2C*", "3C*", "4C*", "QH"]
    # the take: the ten cards have left the middle and sit under North's deck
    take = places(next(e for e in ev if e.kind == "take").moment)
    assert take["p1.play"][0] == [] and take["p2.play"][0] == []
    assert take["p1.deck"][1] == 11 and take["p2.deck"][1] == 1


def test_the_won_pile_and_the_middle_never_hold_the_same_cards_at_one_moment():
    game = DECK_MANAGEMENT
    s = game.from_setup(game.resolve({}), {"piles": {"p1.stack": ["KS", "2C"], "p2.stack": ["3D", "4D"]}})
    node = s.node()
    ev = s.apply({p: ch.enumerate()[0] for p, ch in node.choices.items()})
    take = places(next(e for e in ev if e.kind == "take").moment)
    collect = places(next(e for e in ev if e.kind == "collect").moment)
    assert take["p1.play"][0] == ["KS"] and take["p1.won"][1] == 0
    assert collect["p1.play"][0] == [] and collect["p2.play"][0] == []
    assert collect["p1.won"] == (["KS"], 2)  # face up, the winner's card on top


def test_a_moment_is_a_copy_not_the_game_s_live_pile():
    class Live(State):
        def __init__(self):
            super().__init__({})
            self.pile = []

        def pending(self):
            return None

        def _apply(self, decisions):
            self.pile.append(("x", True))
            first = Event("add", "r", "one")
            self.pile.append(("y", True))
            return [first, Event("add", "r", "two")]

        def table(self):
            return [Zone("pile", "Pile", 0, 0, cards=self.pile)]  # the live list itself

    s = Live()
    first, second = s._stepping(s._apply, {})
    assert [c for c, _ in first.moment[0].cards] == ["x"]
    assert [c for c, _ in second.moment[0].cards] == ["x", "y"]


def test_lean_play_and_events_made_outside_a_step_take_no_picture():
    s = war(["9S", "2C"], ["8D", "3C"])
    s.recording = False
    assert all(e.moment is None for e in s.apply({"p1": "turn", "p2": "turn"}))
    assert Event("x", "r", "made by hand").moment is None


def test_a_table_that_cannot_be_drawn_mid_step_leaves_that_moment_out():
    class Halfway(State):
        def __init__(self):
            super().__init__({})
            self.ready = True

        def pending(self):
            return None

        def _apply(self, decisions):
            self.ready = False
            broken = Event("a", "r", "half done")
            self.ready = True
            return [broken, Event("b", "r", "done")]

        def table(self):
            if not self.ready:
                raise KeyError("p3")
            return [Zone("z", "Z", 0, 0)]

    s = Halfway()
    broken, done = s._stepping(s._apply, {})
    assert broken.moment is None and done.moment is not None and done.moment[0].id == "z"
