"""Design metrics with intervals (issue 28, item 3): completion, branching factor,
decisiveness (from ``GameDef.lead``) and the skill trace of search bots of doubling budget.

Every expectation is worked out by hand in the comments, on a toy game whose every step is
scripted (the scores do not depend on the decisions) or on hand-made records."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections import Counter

import pytest
from helpers import warbook_here

from builder.engine import war
from builder.engine.core import (
    ChanceNode,
    DecisionNode,
    GameDef,
    IntRange,
    OneOf,
    Option,
    Result,
    State,
    SubsetOf,
    full_deck,
    lead_of,
    random_bot,
)
from builder.lab import stats
from builder.lab.bots import LabError, make_bot, search_budget
from builder.lab.run import Lineup, play_many, play_measured, play_one, searches
from builder.lab.simulate import design_metrics, seat_figures, skill_figures
from builder.lab.text import metrics_lines

Z = 1.959963984540054  # the two-sided 95 % normal quantile

# --------------------------------------------------------------------------- a toy game
# Step 1 is a coin toss (a chance node). Steps 2 to 6 are decisions: at decision d (1 to 5)
# p1 picks one of d numbers (OneOf(range(d))); p2 says "wait" (one choice) at decisions 1
# to 4 and at decision 5 picks 2 of 4 cards (SubsetOf: too many to list by its contract).
# The scores follow a script whatever is decided, after each step j:
#
#     j      0    1    2    3    4    5    6 (the end)
#     p1     0    0    1    1    1    1    -
#     p2     0    0    0    1    2    3    -
#     lead   -    -    p1   -    p2   p2   (the result: p2 wins; with "twist", p1 wins)
FOUR = full_deck()[:4]
SCRIPT = [(0, 0), (0, 0), (1, 0), (1, 1), (1, 2), (1, 3)]


class ToyState(State):
    def __init__(self, options):
        super().__init__(options)
        self.j = 0
        self.decisions = 0

    @property
    def score(self):
        return dict(zip(("p1", "p2"), SCRIPT[self.j]))

    def pending(self):
        if self.result is not None:
            return None
        if self.j == 0:
            return ChanceNode(OneOf(["heads", "tails"], "toss"))
        d = self.decisions + 1
        p2 = OneOf(["wait"], "wait") if d < 5 else SubsetOf(FOUR, 2, "keep")
        return DecisionNode({"p1": OneOf(list(range(d)), "pick"), "p2": p2})

    def _apply_chance(self, outcome):
        self.j = 1
        return []

    def _apply(self, decisions):
        self.decisions += 1
        if self.decisions == 5:
            mode = self.options["end"]
            winner = {"p2": "p2", "twist": "p1", "draw": None}[mode]
            self.result = Result(winner, "the script", "end")
        else:
            self.j += 1
        return []

    def view(self):
        return {"decisions": self.decisions}


def toy(lead=True, fast=None) -> GameDef:
    return GameDef(
        slug="toy", title="Toy", options={"end": Option("end", "p2", "who wins",
                                                        choices=("p2", "twist", "draw"))},
        rule_ids=frozenset({"toss", "pick", "wait", "keep", "end"}), event_kinds={},
        view_keys={"decisions": "decisions made"},
        new_game=lambda options, rng: ToyState(options),
        from_setup=lambda options, setup: ToyState(options),
        heuristic=random_bot, max_steps=lambda options: 10,
        lead=(lambda s: lead_of(s.score)) if lead else None, fast_random=fast)


def test_the_toy_game_record_by_hand():
    # 6 steps; no round_key: the rounds are the 5 decisions; p2 (seat 1) wins; not capped.
    # Branching: p1 has 1+2+3+4+5 = 15 choices over 5 decisions, p2 1 choice at each of 4
    # decisions: 19 choices over 9 listed decisions; p2's SubsetOf is 1 unlisted decision.
    # Lead: the last state before the end where p2 was not ahead is j = 3 (level), so p2
    # led for good from step 4: 4 of 6 steps
    g = toy()
    rec = play_measured(g, g.resolve({}), "0:toy:0", [random_bot, random_bot])
    assert rec == (6, 5, 1, False, 19, 9, 1, 4)


def test_a_winner_who_was_never_ahead_before_the_end_led_from_the_last_step():
    # with "twist" p1 wins, but p2 led at j = 4 and 5: p1 was ahead only at the end, so
    # k = T = 6; a draw has no winner: -1
    g = toy()
    twist = play_measured(g, g.resolve({"end": "twist"}), "0:toy:0", [random_bot, random_bot])
    assert twist[2] == 0 and twist[7] == 6
    draw = play_measured(g, g.resolve({"end": "draw"}), "0:toy:0", [random_bot, random_bot])
    assert draw[2] == -1 and draw[7] == -1
    # play_one: the outcome alone, the same game
    assert play_one(g, g.resolve({"end": "twist"}), "0:toy:0", [random_bot] * 2) == twist[:4]


def test_the_fast_path_is_kept_and_gives_the_counts_it_has():
    calls = []

    def fast(options, rng):
        calls.append(1)
        return 6, 5, "p2", False

    bots = [random_bot, random_bot]
    no_lead = toy(lead=False, fast=fast)
    # a fast path of four values: no states, so no decisions counted and no lead: 0, 0, 0, -1
    assert play_measured(no_lead, no_lead.resolve({}), "s", bots) == (6, 5, 1, False, 0, 0, 0, -1)
    assert calls == [1]
    # with a lead hook too the fast path plays (its speed is why it exists); the metrics it
    # does not give stay unmeasured
    with_lead = toy(lead=True, fast=fast)
    assert play_measured(with_lead, with_lead.resolve({}), "s", bots) == (6, 5, 1, False, 0, 0, 0, -1)
    assert calls == [1, 1]
    # a fast path of eight values gives the counts as the loop reads them (War's and
    # Ultimate's: tests/lab/test_lab.py proves theirs equal to the loop's)
    counting = toy(lead=True, fast=lambda options, rng: (6, 5, "p2", False, 19, 9, 1, 4))
    assert play_measured(counting, counting.resolve({}), "s", bots) == (6, 5, 1, False, 19, 9, 1, 4)
    # on states (no fast path) the loop counts them itself: the same 19, 9, 1, 4
    assert play_measured(toy(lead=True), toy(lead=True).resolve({}), "s", bots)[4:] == (19, 9, 1, 4)
    # no lead hook and no fast path: branching counted, lead not measured
    plain = toy(lead=False)
    assert play_measured(plain, plain.resolve({}), "s", bots)[4:] == (19, 9, 1, -1)


def test_the_toy_game_through_the_pool_is_the_same_with_one_or_two_workers():
    g = toy()
    jobs = [(g, g.resolve({}), 3, Lineup("0/seat/random", ("random", "random")), 30)]
    one, two = play_many(jobs, workers=1), play_many(jobs, workers=2)
    assert one == two and all(r == (6, 5, 1, False, 19, 9, 1, 4) for r in one[0])


# --------------------------------------------------------------------------- the figures
def test_design_metrics_of_hand_made_records():
    # three games won, with decisiveness 0/4 = 0, 2/4 = 0.5 and 4/4 = 1; a draw (-1, not
    # counted); a capped draw. Game branching: 6/3 = 2, 9/3 = 3, 12/3 = 4, 3/3 = 1,
    # 10/5 = 2 -> mean 12/5 = 2.4; deviations -0.4, 0.6, 1.6, -1.4, -0.4: squares 0.16,
    # 0.36, 2.56, 1.96, 0.16 = 5.2; s^2 = 5.2 / 4 = 1.3; half = Z sqrt(1.3 / 5)
    recs = [(4, 2, 0, False, 6, 3, 0, 0), (4, 2, 1, False, 9, 3, 2, 2),
            (4, 2, 0, False, 12, 3, 0, 4), (4, 2, -1, False, 3, 3, 0, -1),
            (4, 2, -1, True, 10, 5, 1, -1)]
    m = design_metrics(recs, 0.95, lead=True)
    # completion: 4 of 5 ended before the cap (Wilson, checked against its formula)
    lo, hi = stats.wilson(4, 5)
    assert m["completion"] == {"count": 4, "games": 5, "rate": 0.8, "low": round(lo, 6),
                               "high": round(hi, 6)}
    half = Z * math.sqrt(1.3 / 5)
    b = m["branching"]
    assert (b["games"], b["value"], b["decisions"], b["unlisted"]) == (5, 2.4, 17, 3)
    assert b["low"] == pytest.approx(2.4 - half, abs=1e-6)
    assert b["high"] == pytest.approx(2.4 + half, abs=1e-6)
    # decisiveness: 0, 0.5, 1: mean 0.5, s = 0.5, half = Z 0.5 / sqrt 3 = 0.5658, held to
    # [0, 1]; the median 0.5, with 3 games its interval is the whole sample: ranks
    # 1.5 -/+ Z sqrt(0.75) -> 1 and 3
    d = m["decisiveness"]
    assert d["games"] == 3
    assert d["mean"] == {"games": 3, "value": 0.5, "low": 0.0, "high": 1.0}
    assert d["median"] == {"games": 3, "value": 0.5, "low": 0.0, "high": 1.0}


def test_a_mean_interval_inside_its_bounds_and_unclamped_by_hand():
    # 0.2, 0.4 x 3 (n = 4): mean 0.35; squares 0.0225 + 3 x 0.0025 = 0.03; s^2 = 0.01
    # (s = 0.1); half = Z 0.1 / 2 = 0.098
    out = stats.mean_interval([0.2, 0.4, 0.4, 0.4], 0.95, (0.0, 1.0))
    assert out["value"] == 0.35
    assert out["low"] == pytest.approx(0.35 - Z * 0.05, abs=1e-6)
    assert out["high"] == pytest.approx(0.35 + Z * 0.05, abs=1e-6)
    assert stats.mean_interval([], 0.95) == {"games": 0}
    assert stats.mean_interval([3.0], 0.95) == {"games": 1, "value": 3.0, "low": 3.0,
                                                "high": 3.0}


def test_figures_carry_the_metrics_and_old_records_count_for_completion_only():
    recs = [(4, 2, 0, False, 6, 3, 0, 0)] * 2
    seat = seat_figures("random", recs, 2, 0.95, lead=True)
    assert seat["branching"]["value"] == 2.0 and seat["decisiveness"]["games"] == 2
    skill = skill_figures("heuristic", "random", recs, 2, 0.95, lead=False)
    assert skill["decisiveness"] is None and skill["completion"]["count"] == 2
    # four-field records (steps, rounds, winner, capped): nothing to measure but completion
    old = seat_figures("random", [(4, 2, 0, True), (4, 2, 1, False)], 2, 0.95, lead=True)
    assert old["completion"]["count"] == 1
    assert old["branching"] == {"games": 0, "decisions": 0, "unlisted": 0}
    assert old["decisiveness"]["games"] == 0


def test_the_text_says_no_lead_measure_and_not_measured():
    fast = seat_figures("random", [(4, 2, 0, False, 0, 0, 0, -1)] * 3, 2, 0.95, lead=False)
    lines = metrics_lines(fast, lead=False)
    assert "branching not measured" in lines[0]
    assert lines[1].strip() == "decisiveness: no lead measure (the engine has no GameDef.lead)"
    measured = seat_figures("random", [(4, 2, 0, False, 6, 3, 1, 2)] * 3, 2, 0.95, lead=True)
    lines = metrics_lines(measured, lead=True)
    assert "branching 2.00 [2.00, 2.00]" in lines[0]
    assert "3 too large to list, left out" in lines[0]
    assert "led for good after 50.0 %" in lines[1]


# --------------------------------------------------------------------------- the hooks
def test_lead_of_names_the_one_player_with_the_most():
    assert lead_of({"p1": 5, "p2": 2}) == "p1"
    assert lead_of({"p1": 3, "p2": 3}) is None
    assert lead_of({"p1": 1, "p2": 2, "p3": 2}) is None
    assert lead_of({"p1": 1, "p2": 2, "p3": 0}) == "p2"


def test_choice_sizes():
    assert OneOf(["a", "b", "c"], "r").size() == 3
    assert IntRange(2, 5, "r").size() == 4
    assert SubsetOf(FOUR, 2, "r").size() is None   # too many to list: left out
    assert SubsetOf(FOUR, 0, "r").size() == 1      # keep nothing: one way


def test_wars_lead_is_more_cards_in_deck():
    g = war.GAME
    opts = g.resolve({})
    state = g.from_setup(opts, {"piles": {"p1.deck": ["2C", "3C", "4C"], "p2.deck": ["5C"]}})
    assert g.lead(state) == "p1"
    level = g.from_setup(opts, {"piles": {"p1.deck": ["2C"], "p2.deck": ["5C"]}})
    assert g.lead(level) is None


def test_every_shipped_engine_but_one_has_a_cheap_lead_that_leaves_the_state_alone():
    from builder.engine.registry import registered_engines
    engines = registered_engines()
    for slug in ("war", "battle", "battle-lines", "deck-management", "ultimate"):
        g = engines[slug]
        assert g.lead is not None, slug
        rng = random.Random(1)
        state = g.new_game(g.resolve({}), rng)
        state.recording = False
        for _ in range(30):
            if state.result is not None:
                break
            before = json.dumps(state.view(), default=str, sort_keys=True)
            who = g.lead(state)
            assert who is None or who in state.players
            assert json.dumps(state.view(), default=str, sort_keys=True) == before
            node = state.node()
            if node.kind == "chance":
                state.apply_chance(node.choice.sample(rng))
            else:
                state.apply({p: c.sample(rng) for p, c in node.choices.items()})


# --------------------------------------------------------------------------- skill trace
def test_search_bots_by_budget():
    assert search_budget("search") == 4 and search_budget("search:2") == 2
    for bad in ("search:0", "search:x", "search:"):
        with pytest.raises(LabError, match="whole number of rollouts"):
            search_budget(bad)
    with pytest.raises(LabError, match="no search bot"):
        make_bot("search:2", war.GAME)
    assert searches(("search:2", "search:1")) and searches(("search",))
    assert not searches(("random", "heuristic"))


def test_skill_trace_from_the_command_line():
    """Ultimate, the search bot of 2 rollouts against the one of 1: 4 games, seats taken in
    turn; the same bytes with one worker and two; and a game without decisions says why."""
    def run(*extra):
        out = warbook_here("simulate", *extra)
        assert out.returncode == 0, out.stderr
        return out.stdout

    args = ("ultimate", "--games", "4", "--search-games", "4", "--no-options",
            "--skill-trace", "--trace-budgets", "2,1", "--json")
    one = run(*args, "--workers", "1")
    assert one == run(*args, "--workers", "2")
    trace = json.loads(one)["skill_trace"]
    assert trace["budgets"] == [1, 2] and trace["games"] == 4
    [step] = trace["steps"]
    assert (step["bot"], step["against"], step["games"]) == ("search:2", "search:1", 4)
    assert step["wins"]["count"] + step["draws"]["count"] <= 4
    text = run("war", "--games", "4", "--no-options", "--skill-trace")
    assert "not played: no player ever has a choice" in text
    assert Counter(text.split())["decisiveness:"] == 1


# --------------------------------------------------------------------------- the books' words
@pytest.mark.parametrize("mean, verdict", [
    ((0.20, 0.15, 0.25), "early"),            # the whole interval before a third
    ((0.45, 0.40, 0.52), "about halfway"),    # it holds a half
    ((0.40, 0.35, 0.45), "in the first half"),
    ((0.60, 0.55, 0.70), "in the second half"),
    ((0.80, 0.70, 0.90), "late"),             # the whole interval past two thirds
])
def test_the_books_say_how_early_games_are_decided(mean, verdict):
    from builder.lab.text import decisive_sentence

    value, low, high = mean
    seat = {"decisiveness": {"games": 500, "mean": {"games": 500, "value": value, "low": low,
                                                    "high": high}}}
    said = decisive_sentence(seat, "trick")
    assert said.endswith(f"games are decided {verdict}.")
    assert f"{round(100 * value)} % ({round(100 * low)}–{round(100 * high)} %)" in said
    for word in ("bot", "engine", "step", "seed"):   # the players' voice
        assert word not in said


def test_no_lead_measure_no_sentence():
    from builder.lab.text import decisive_sentence

    assert decisive_sentence({"decisiveness": None}, "round") == ""
    assert decisive_sentence({"decisiveness": {"games": 0, "mean": {"games": 0}}}, "round") == ""


def test_a_lead_that_names_no_player_is_a_fault_at_its_line():
    """A designer's ``lead`` answering a name ('north') instead of a player id would read
    as "never led" and every game as decided at its end; it is said at its line instead."""
    from builder.errors import WarbookError

    g = toy(lead=True)
    wrong = dataclasses.replace(g, lead=lambda state: "north")
    with pytest.raises(WarbookError) as e:
        play_measured(wrong, wrong.resolve({}), "s", [random_bot, random_bot])
    said = str(e.value)
    assert "lead() returned 'north', which is not a player of the game (p1, p2) or None" \
        in said
