"""Figures with honest precision (issue 26, item 3): every line-up of the books' figures is
played in rounds until the rates it states are within the precision (a 95 % interval at
most 5 points wide) or up to its cap; the same seed gives the same figures whatever the
number of workers; the books' words speak to players (no option keys, no bot jargon, no
draws where none happened, "too close to call" where the cap came first); stale figures
are marked.

The expectations are worked out by hand in the comments (Wilson intervals at z = 1.96)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from builder.content import load_content
from builder.lab import simulate as sim
from builder.lab.run import Lineup
from builder.lab.simulate import seat_figures, skill_figures
from builder.lab.text import seat_sentence, skill_sentence, to_json

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped():
    content, diags = load_content(ROOT / "content")
    assert not diags.errors
    return content


# --------------------------------------------------------------------------- the stop
def fake_ranges(winner):
    """A stand-in for the played games: game ``i`` of every line-up is won by seat
    ``winner(i)``; the ranges asked for are kept in order."""
    asked = []

    def play(ranges, workers=None):
        asked.append([(job[3].label, a, b) for job, a, b in ranges])
        return [[(10, 5, winner(i), False) for i in range(a, b)] for _, a, b in ranges]

    return play, asked


def seats_of(j, recs):
    return seat_figures("random", recs, 2, 0.95)


def test_a_line_up_stops_once_its_rates_are_precise(monkeypatch):
    """Seat 1 wins 9 games in 10, nothing is drawn. At 200 games (180 won) the Wilson
    interval of 0.9 is 0.9 -/+ about 0.042 (8.4 points wide); the games a 5-point interval
    needs, (2 * 1.96)^2 * 0.9 * 0.1 / 0.05^2 = 553.2, round up to 600, but a round at most
    doubles: 400. At 400 it is 5.9 points wide: on to 600, where it is 4.8 points wide
    (half 1.96 * sqrt(0.09/600 + 1.96^2/(4 * 600^2)) / (1 + 1.96^2/600) = 0.0241): it
    stops there, far below its cap."""
    play, asked = fake_ranges(lambda i: 0 if i % 10 < 9 else 1)
    monkeypatch.setattr(sim, "play_ranges", play)
    jobs = [(None, {}, 0, Lineup("0/seat/random", ("random", "random")))]
    (recs,) = sim.play_until(jobs, [3200], seats_of, 0.05)
    assert asked == [[("0/seat/random", 0, 200)], [("0/seat/random", 200, 400)],
                     [("0/seat/random", 400, 600)]]
    assert len(recs) == 600
    fig = seats_of(0, recs)
    assert fig["wins"][0]["high"] - fig["wins"][0]["low"] == pytest.approx(0.0481, abs=2e-4)


def test_a_line_up_too_close_to_call_goes_on_to_its_cap(monkeypatch):
    """Seat 1 wins every other game: a rate of one half needs (2 * 1.96)^2 / 4 / 0.05^2 =
    1,537 games for a 5-point interval. Rounds of 200, 400, 800, then the cap of 1,000
    (not the 1,600 it would need); a line-up already precise beside it stops at once."""
    play, asked = fake_ranges(lambda i: i % 2)
    monkeypatch.setattr(sim, "play_ranges", play)
    jobs = [(None, {}, 0, Lineup("0/seat/random", ("random", "random"))),
            (None, {}, 0, Lineup("1/seat/random", ("random", "random")))]
    caps = [1000, 200]
    a, b = sim.play_until(jobs, caps, seats_of, 0.05)
    assert [[(label, x, y) for label, x, y in r] for r in asked] == [
        [("0/seat/random", 0, 200), ("1/seat/random", 0, 200)],
        [("0/seat/random", 200, 400)], [("0/seat/random", 400, 800)],
        [("0/seat/random", 800, 1000)]]
    assert (len(a), len(b)) == (1000, 200)


def test_the_next_round_is_sized_by_the_least_precise_rate():
    """By hand: a rate of 0.9 from 200 games needs 553.2 games -> 600, at most twice 200:
    400; from 400 games: 600. A decided share of 0.5 from 100 of 200 games needs 1,537
    decided games, i.e. 3,074 games at that share of decided ones -> capped at 2,000."""
    r = {"rate": 0.9, "games": 200, "low": 0.85, "high": 0.94}
    assert sim.next_size(200, [r], 0.05, 3200, 200) == 400
    assert sim.next_size(400, [dict(r, games=400)], 0.05, 3200, 200) == 600
    half = {"rate": 0.5, "games": 500, "low": 0.46, "high": 0.54}  # decided: 500 of 1,000
    assert sim.next_size(1000, [half], 0.05, 2000, 200) == 2000
    assert sim.next_size(1000, [half], 0.05, 5000, 200) == 2000  # at most twice as many
    assert sim.next_size(1000, [half], 0.05, 3200, 200) == 2000
    # the search bot's steps of 5: a rate of 0.5 from 20 games -> 40
    assert sim.next_size(20, [dict(half, games=20, low=0.3, high=0.7)], 0.05, 60, 5) == 40


# --------------------------------------------------------------------------- the same figures
def strip(fig: dict) -> dict:
    return {k: v for k, v in fig.items() if k not in ("precise", "most")}


def test_adaptive_figures_are_the_same_with_one_worker_or_two_and_as_played_in_one_go(shipped):
    """Ultimate between random and heuristic bots, at most 600 games a line-up: one worker
    or two give the same bytes; and each line-up, played again in one go for as many games
    as it stopped at, gives the same figures (game i is the same game in any round)."""
    game = shipped.game("ultimate")
    kw = dict(games=600, bots=["random", "heuristic"], per_option=False, seed=5,
              precision=0.05)
    one = sim.simulate(game, workers=1, **kw)
    two = sim.simulate(game, workers=2, **kw)
    assert to_json(one) == to_json(two)
    v = one["variants"][0]
    sizes = [f["games"] for f in v["seats"] + v["skill"]]
    assert all(n % 200 == 0 and 200 <= n <= 600 for n in sizes)
    for fig in v["seats"] + v["skill"]:
        assert fig["precise"] == (sim.widest(fig) <= 0.05 + 1e-9)
        assert fig["precise"] or fig["games"] == 600
        bots = [fig["bot"]] if "against" not in fig else [fig["against"], fig["bot"]]
        fixed = sim.simulate(game, games=fig["games"], bots=bots, per_option=False, seed=5,
                             workers=2, pairs="all", search_seats=True)
        again = fixed["variants"][0]
        twin = next(x for x in again["seats"] + again["skill"]
                    if x["bot"] == fig["bot"] and x.get("against") == fig.get("against"))
        assert strip(fig) == twin


def test_the_command_line_prints_the_books_figures(shipped, capsys):
    """``warbook simulate GAME`` (no sizes given) plays the books' policy: the same JSON as
    ``book_report`` for the same seed."""
    from builder.cli import main

    assert main(["simulate", "ultimate", "--json", "--content", str(ROOT / "content"),
                 "--workers", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(to_json(sim.book_report(shipped.game("ultimate"), workers=1)))
    assert printed["precision"] == 0.05
    assert {f["most"] for v in printed["variants"] for f in v["seats"] + v["skill"]} <= {150, 60}


def test_the_command_line_refuses_a_precision_out_of_range(capsys):
    from builder.cli import main

    assert main(["simulate", "ultimate", "--precision", "0", "--content",
                 str(ROOT / "content")]) == 1
    assert "--precision is an interval's width in points" in capsys.readouterr().err


def test_book_report_takes_a_cap(shipped):
    rep = sim.book_report(shipped.game("war"), workers=1, cap=200, per_option=False)
    (seat,) = rep["variants"][0]["seats"]
    # War's seats split about evenly: 200 games are not precise; the cap stops them
    assert seat["games"] == 200 and seat["most"] == 200 and seat["precise"] is False
    assert rep["games"] == 200 and rep["search_games"] == 60


# --------------------------------------------------------------------------- the words
def records(wins: int, draws: int, losses: int, n_players: int = 2) -> list:
    """Skill records: the stronger bot sits in seat i mod n in game i."""
    out = [(1, 1, i % n_players, False) for i in range(wins)]
    out += [(1, 1, -1, False) for _ in range(draws)]
    out += [(1, 1, (i + 1) % n_players, False) for i in range(wins + draws, wins + draws + losses)]
    return out


def test_a_skill_line_up_that_reached_its_cap_is_too_close_to_call():
    """33 wins of 60 games: 55 %, Wilson interval 42.5-66.9 %, across the fair 50 %, and 24
    points wide: the cap of 60 came first. The same rate from 2,000 games (1,100 won,
    52.8-57.2 %) shows an edge: skill tells a little."""
    k = skill_figures("search", "heuristic", records(33, 0, 27), 2, 0.95)
    assert skill_sentence(k) == (
        "A player who looks ahead wins 55 % (42–67 %) of 60 games against one who follows "
        "simple good habits, seats taken in turn (a fair share is 50 %): too close to call "
        "from 60 games.")
    k = skill_figures("search", "heuristic", records(1100, 0, 900), 2, 0.95)
    assert skill_sentence(k).endswith("(a fair share is 50 %): skill tells a little.")
    # 1,000 of 2,000: 47.8-52.2 %, 4.4 points wide, across the fair share: a finding
    k = skill_figures("heuristic", "random", records(1000, 0, 1000), 2, 0.95)
    assert skill_sentence(k).endswith(": no measurable edge.")


def test_seat_sentences_claim_only_what_the_games_show():
    """Seat 1 wins 820 of 1,600 games (51.25 %, Wilson 48.8-53.7 %, 4.9 points wide): no
    seat edge worth a house rule. 103 of 200 (51.5 %, Wilson 44.6-58.3 %, 13.7 points
    wide): too close to call from 200 games."""
    precise = seat_figures("heuristic", [(1, 1, 0 if i < 820 else 1, False) for i in range(1600)],
                           2, 0.95)
    assert seat_sentence(precise) == (
        "Player 1 wins 51 % (49–54 %) of 1,600 games between equal players who follow simple "
        "good habits: no seat edge worth a house rule.")
    small = seat_figures("heuristic", [(1, 1, 0 if i < 103 else 1, False) for i in range(200)],
                         2, 0.95)
    assert seat_sentence(small).endswith(": too close to call from 200 games.")
    # no decisions: every player plays alike, no gloss
    assert "between equal players:" in seat_sentence(precise, decisions=False)
    # 860 of 1,600 (53.75 %, Wilson 51.3-56.2 %): above the fair half, not 2 points above
    # for sure: a small edge of about 4 points; 900 (56.25 %, 53.8-58.7 %): worth a rule
    def p1(wins):
        return seat_figures("heuristic", [(1, 1, 0 if i < wins else 1, False)
                                          for i in range(1600)], 2, 0.95)
    assert seat_sentence(p1(860)) == (
        "Player 1 wins 54 % (51–56 %) of 1,600 games between equal players who follow simple "
        "good habits: a small seat edge, about 4 points.")
    assert seat_sentence(p1(900)).endswith(
        ": a seat edge of about 6 points, worth taking turns to sit first.")


def book_figures_of(seat: dict, skills: list[dict], options: list[tuple[dict, dict]],
                    decisions: bool = True) -> dict:
    return {"game": "g", "round_word": "trick", "precision": 0.05, "games": 3200,
            "search_games": 60, "confidence": 0.95,
            "variants": [{"label": "as printed", "options": {}, "decisions": decisions,
                          "players": 2, "bots": ["random", "heuristic", "search"],
                          "seats": [seat], "skill": skills}]
            + [{"label": "x", "options": changed, "decisions": decisions, "players": 2,
                "bots": ["heuristic"], "seats": [s], "skill": []} for changed, s in options]}


def section_words(nv) -> str:
    return " ".join([nv.lead, *(c.title + " " + c.reading for c in nv.charts), *nv.notes,
                     *nv.options])


def seat_games(n: int, p1: int, draws: int = 0, rounds=lambda i: 10 + i % 7) -> list:
    return [(1, rounds(i), 0 if i < p1 else (-1 if i < p1 + draws else 1), draws > 0 and
             p1 <= i < p1 + draws) for i in range(n)]


def test_the_books_words_speak_to_players():
    """No option key, no bot jargon, no draws where none happened."""
    from builder.render.numbers import numbers_view

    seat = seat_figures("heuristic", seat_games(1600, 800), 2, 0.95)
    skills = [skill_figures("heuristic", "random", records(1120, 0, 480), 2, 0.95),
              skill_figures("search", "heuristic", records(33, 0, 27), 2, 0.95)]
    capped = seat_figures("heuristic", seat_games(1600, 540, draws=530), 2, 0.95)
    figures = book_figures_of(seat, skills, [({"max_tricks": 200}, capped)])
    nv = numbers_view(figures, "g", "#000", options={"max_tricks": "Trick cap"})
    words = section_words(nv)
    assert "max_tricks" not in words and "Trick cap set to 200" in words
    assert not re.search(r"heuristic|search|\bbots?\b", words), words
    assert "a player who follows simple good habits" in words.lower()
    assert "looks ahead" in words and "too close to call from 60 games" in words
    # the game as printed drew nothing: not a word of draws outside the option's line
    assert "draw" not in " ".join([nv.lead, *(c.reading for c in nv.charts), *nv.notes])
    assert not re.search(r"(?<![\d.])0(\.0)? %", words), words  # no "0.0 %" of anything
    # the option's line: 530 of 1,600 drawn (33.1 %, Wilson 30.9-35.5 %), all at the cap;
    # seat 1 wins 540 (33.75 %, 4.6 points wide) against a fair share of 33.4 %
    (line,) = nv.options
    assert line.startswith("With Trick cap set to 200 (1,600 games): ")
    assert "; 33 % (31–35 %) were drawn, all at the cap; " in line
    assert line.endswith("a fair share being 33.4 %: no seat edge worth a house rule.")


def test_no_draws_sentence_without_draws_and_one_with_them():
    from builder.lab.text import draws_sentence

    assert draws_sentence(seat_figures("random", seat_games(400, 200), 2, 0.95)) == ""
    # 100 of 400 drawn, none at the cap: 25 %, Wilson 21.0-29.5 % (29.47)
    s = seat_figures("random", [(1, 1, -1 if i < 100 else i % 2, False) for i in range(400)],
                     2, 0.95)
    assert draws_sentence(s) == "Of 400 games, 25 % (21–29 %) were drawn."


def test_option_values_by_their_printed_names():
    from builder.lab.text import option_words

    assert option_words("players", 4, "Players") == "4 players"
    assert option_words("aces", "low", "Aces") == "Aces set to low"
    assert option_words("max_turns", 3, None) == "max turns set to 3"


# --------------------------------------------------------------------------- stale
class Stale:
    def __init__(self, figures: dict, stale: bool):
        self.figures, self.stale = figures, stale

    def of(self, slug):
        return self.figures

    def is_stale(self, slug):
        return self.stale


@pytest.mark.parametrize("stale", [True, False])
def test_stale_figures_are_marked_in_book_and_site(report, stale):
    """``BookFigures.is_stale(slug)`` reaches the game's view, and both the book's and the
    site's section then open with the boxed line; current figures have none."""
    from builder.render.numbers import STALE_NOTE
    from builder.render.present import Links, Presenter
    from builder.render.templating import environment

    seat = seat_figures("random", seat_games(1600, 800), 2, 0.95)
    gr = next(g for g in report.games if g.game.slug == "war")
    links = Links(anchor=lambda s, r: f"{s}--{r}", href=lambda s, r: f"#{s}--{r}",
                  card=lambda c: f"card:{c}")
    view = Presenter(links, Stale(book_figures_of(seat, [], [], decisions=False), stale)).game(gr)
    assert view.numbers.stale is stale
    env = environment()
    for name in ("book/_numbers.html.j2", "site/_numbers.html.j2"):
        html = env.get_template(name).render(g=view)
        assert "By the numbers" in html
        assert (STALE_NOTE in html) is stale, name
        assert ('class="numbers-stale"' in html) is stale, name
