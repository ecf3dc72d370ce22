"""``warbook sweep`` (issue 28, item 2): option settings played side by side, ranked by
seat edge, draws and length with intervals; bad ``--vary`` input said with a hint."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from builder import cli
from builder.content import load_content
from builder.lab.bots import LabError
from builder.lab.sweep import edge, grid, parse_vary, sweep

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wtb():
    content, diags = load_content(ROOT / "content")
    assert not diags.errors
    return content.game("winning-the-battle")


# -- the seat edge, worked by hand
def test_the_edge_of_sixty_forty_by_hand():
    # 60 of 100 decided games to seat 1. Wilson at 95 % (z = 1.959964): centre
    # (0.6 + z²/200) / (1 + z²/100) = 0.596301, half width z·sqrt(0.0024 + z²/40000) /
    # (1 + z²/100) = 0.094298: seat 1's share lies in [0.502003, 0.690599], seat 2's in
    # [0.309401, 0.497997]. Each is 0.10 from a half; fair lies outside both intervals.
    e = edge([60, 40], 100)
    assert e["value"] == pytest.approx(0.10)
    assert e["low"] == pytest.approx(0.002003, abs=2e-6)
    assert e["high"] == pytest.approx(0.190599, abs=2e-6)


def test_an_even_split_has_no_edge_and_an_interval_from_zero():
    e = edge([50, 50], 100)
    assert e["value"] == 0 and e["low"] == 0
    assert e["high"] == pytest.approx(0.5 - 0.403832, abs=2e-6)  # Wilson low of 50/100


def test_three_seats_take_the_farthest_from_a_third():
    e = edge([10, 10, 10], 30)
    assert e["value"] == pytest.approx(0.0)
    e = edge([20, 5, 5], 30)   # 2/3 against 1/3: the first seat is 1/3 off, the others 1/6
    assert e["value"] == pytest.approx(1 / 3)


def test_no_decided_games_has_no_edge():
    assert edge([0, 0], 0) == {"value": 0.0, "low": 0.0, "high": 0.5, "decided": 0}


# -- the order
def row(edge_value, low, high, draws, draws_low, draws_high, median):
    return {"edge": {"value": edge_value, "low": low, "high": high},
            "draws": {"rate": draws, "low": draws_low, "high": draws_high},
            "rounds": {"median": {"value": median}}}


def test_the_order_fairest_tier_by_draws_then_length_then_the_rest():
    from builder.lab.sweep import rank

    rows = [
        row(0.01, 0.0, 0.07, 0.20, 0.15, 0.25, 30),   # 0: the fairest, but a fifth drawn
        row(0.04, 0.0, 0.10, 0.00, 0.00, 0.02, 29),   # 1: tied on balance, no draws, longer
        row(0.06, 0.01, 0.12, 0.01, 0.00, 0.03, 22),  # 2: tied, draws tied with 1's, shorter
        row(0.12, 0.08, 0.17, 0.00, 0.00, 0.01, 10),  # 3: clearly less fair (0.08 > 0.07)
        row(0.09, 0.075, 0.15, 0.00, 0.00, 0.01, 10),  # 4: also outside, a little fairer
    ]
    # the fairest's edge reaches 0.07: rows 0-2 are its tier, ordered by draws (1: none,
    # 2: 1 %, 0: 20 %); after them, by edge, 4 (0.09) and 3 (0.12)
    assert rank(rows) == [1, 2, 0, 4, 3]
    rows[2]["draws"]["rate"] = 0.0   # draws equal: the shorter game first
    assert rank(rows) == [2, 1, 0, 4, 3]
    assert [r["tier"] for r in rows] == [1, 1, 1, 2, 2]


# -- the grid
def test_the_grid_is_every_combination_in_order(wtb):
    vary = parse_vary(wtb, ["stones=3,5", "clean_sweep=extra,none"])
    assert vary == {"stones": [3, 5], "clean_sweep": ["extra", "none"]}   # numbers as numbers
    sets, size = grid(vary, None, 0)
    assert size == 4
    assert sets == [{"stones": 3, "clean_sweep": "extra"}, {"stones": 3, "clean_sweep": "none"},
                    {"stones": 5, "clean_sweep": "extra"}, {"stones": 5, "clean_sweep": "none"}]


def test_a_large_grid_is_refused_without_a_sample_and_sampled_with_one():
    vary = {"a": list(range(10)), "b": list(range(10))}
    with pytest.raises(LabError, match=r"100 settings \(10 a x 10 b\), more than the 64 .* "
                                       r"--sample K .* --max-sets 100"):
        grid(vary, None, 0)
    one, size = grid(vary, 7, seed=3)
    assert size == 100 and len(one) == 7 and len({json.dumps(s) for s in one}) == 7
    assert grid(vary, 7, seed=3)[0] == one          # the seed decides the sample
    assert grid(vary, 7, seed=4)[0] != one
    keys = [(s["a"], s["b"]) for s in one]
    assert keys == sorted(keys)                      # in grid order
    assert grid(vary, 500, 0)[0] == grid(vary, None, 0, cap=100)[0]   # more than all: all


@pytest.mark.parametrize("given, said", [
    (["stone=3,4"], "has no option 'stone' (its options: stones, clean_sweep); did you mean "
                    "'stones'?"),
    (["stones=3,6"], "option 'stones' takes 3, 4, 5, not '6'"),
    (["clean_sweep=extra,nope"], "takes extra, none, not 'nope'; did you mean 'none'?"),
    (["stones"], "write OPTION=VALUE,VALUE (e.g. --vary stones=3,4,5)"),
    (["stones=3", "stones=4"], "--vary stones is given twice"),
    (["stones=3,3"], "the value 3 is listed twice"),
    ([], "nothing to sweep"),
])
def test_bad_vary_is_said_with_a_hint(wtb, given, said):
    with pytest.raises(LabError) as e:
        parse_vary(wtb, given)
    assert said in str(e.value)


def test_a_number_option_takes_whole_numbers_in_its_range():
    content, _ = load_content(ROOT / "content")
    war = content.game("war")
    assert parse_vary(war, ["max_tricks=200,500"]) == {"max_tricks": [200, 500]}
    with pytest.raises(LabError, match="takes whole numbers, not 'lots'"):
        parse_vary(war, ["max_tricks=200,lots"])
    with pytest.raises(LabError, match="must be at least 1, got 0"):
        parse_vary(war, ["max_tricks=0"])


# -- the sweep
@pytest.fixture(scope="module")
def ranked(wtb):
    vary = {"stones": [3, 5], "clean_sweep": ["extra", "none"]}
    return sweep(wtb, vary, games=200, seed=5, workers=1)


def test_a_sweep_over_two_options_ranks_them_with_intervals(ranked):
    rows = ranked["settings"]
    assert len(rows) == 4 and [r["rank"] for r in rows] == [1, 2, 3, 4]
    tiers = [r["tier"] for r in rows]
    assert tiers == sorted(tiers) and tiers[0] == 1  # the fairest tier first
    for r in rows:
        assert r["edge"]["low"] <= r["edge"]["value"] <= r["edge"]["high"]
        assert r["draws"]["low"] <= r["draws"]["rate"] <= r["draws"]["high"]
        seat = r["seats"][0]
        assert seat["bot"] == "heuristic" and seat["games"] == 200
        wins = [round(w["rate"] * 200) for w in seat["wins"]]
        decided = 200 - round(seat["draws"]["rate"] * 200)
        assert r["edge"]["value"] == pytest.approx(max(abs(w / decided - 0.5) for w in wins),
                                                   abs=1e-6)
    assert rows[0]["tier"] == 1
    assert sum(r["as_written"] for r in rows) == 1
    assert next(r for r in rows if r["as_written"])["options"] == {"stones": 3,
                                                                   "clean_sweep": "extra"}
    # five stones make longer games than three, whatever the sweep rule
    median = {(r["options"]["stones"], r["options"]["clean_sweep"]):
              r["rounds"]["median"]["value"] for r in rows}
    assert median[5, "extra"] > median[3, "extra"] and median[5, "none"] > median[3, "none"]


def test_the_same_seed_reproduces_it_and_a_setting_does_not_depend_on_its_grid(wtb, ranked):
    again = sweep(wtb, {"stones": [3, 5], "clean_sweep": ["extra", "none"]}, games=200,
                  seed=5, workers=2)
    assert json.dumps(again) == json.dumps(ranked)
    alone = sweep(wtb, {"stones": [5], "clean_sweep": ["none"]}, games=200, seed=5, workers=1)
    row = next(r for r in ranked["settings"] if r["options"] == {"stones": 5,
                                                                 "clean_sweep": "none"})
    assert alone["settings"][0]["seats"] == row["seats"]


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main(args + ["--content", str(ROOT / "content")])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_writes_a_table_a_chart_and_claims_to_review(tmp_path, capsys):
    chart, claims = tmp_path / "edge.svg", tmp_path / "claims.yaml"
    code, out, err = run(["sweep", "winning-the-battle", "--vary", "stones=3,4",
                          "--vary", "clean_sweep=extra,none", "--games", "150", "--seed", "2",
                          "--workers", "1", "--chart", str(chart), "--suggest", str(claims)],
                         capsys)
    assert code == 0, err
    assert "4 settings, 150 games each between heuristic bots" in out
    assert "rank  stones  clean_sweep  seat edge (pts)" in out
    assert "as written: rank" in out
    svg = chart.read_text()
    assert svg.startswith("<svg") and "<script" not in svg and "http://" not in \
        svg.replace("http://www.w3.org", "")
    assert "stones 3, clean_sweep extra (as written)" in svg
    suggested = yaml.safe_load(claims.read_text())
    kinds = {c["claim"] for c in suggested["balance"]["claims"]}
    assert kinds == {"seat", "draws", "length"}
    code, js, _ = run(["sweep", "winning-the-battle", "--vary", "stones=3,4",
                       "--vary", "clean_sweep=extra,none", "--games", "150", "--seed", "2",
                       "--workers", "1", "--json"], capsys)
    best = json.loads(js)["settings"][0]
    seat = next(c for c in suggested["balance"]["claims"] if c["claim"] == "seat")
    # the suggested bound is the best setting's highest seat rate's interval, rounded up
    top = max(w["high"] for w in best["seats"][0]["wins"])
    assert seat["at_most"] == f"{math.ceil(100 * top)}%"


@pytest.mark.parametrize("args, said", [
    (["--vary", "stone=3,4"], "did you mean 'stones'?"),
    (["--vary", "stones=3,4", "--sample", "0"], "--sample must be at least 1"),
    (["--vary", "stones=3,4", "--max-sets", "0"], "--max-sets must be at least 1, got 0"),
    (["--vary", "stones=3,4", "--workers", "0"], "--workers must be at least 1, got 0"),
    (["--vary", "stones=3,4,5", "--max-sets", "2"], "--sample K"),
    (["--vary", "stones=3,4", "--bots", "heuristc"], "did you mean 'heuristic'?"),
    (["--vary", "stones=3,4", "--chart", "/no/such/folder/x.svg"], "does not exist"),
])
def test_bad_input_is_one_line_and_exit_1(args, said, capsys, tmp_path):
    code, out, err = run(["sweep", "winning-the-battle", "--games", "10", "--workers", "1"]
                         + args, capsys)
    assert code == 1 and said in err and "Traceback" not in err and out == ""
    assert not Path("/no/such/folder").exists()
