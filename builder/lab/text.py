"""The lab's figures in words: the text report of ``warbook simulate`` and the one-sentence
readings printed under the charts. Returns strings; the command line prints them."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def ci(r: dict) -> str:
    return f"{pct(r['rate'])} [{pct(r['low'])}, {pct(r['high'])}]"


def to_json(report: dict) -> str:
    """The figures as JSON: sorted keys and fixed rounding, so a seed gives the same bytes."""
    return json.dumps(report, indent=2, sort_keys=True)


def _dist(d: dict) -> str:
    if "median" not in d:
        return "no games"
    return (f"median {d['median']['value']:,} [{d['median']['low']:,}, {d['median']['high']:,}]"
            f", 10th pct {d['p10']['value']:,}, 90th pct {d['p90']['value']:,} "
            f"[{d['p90']['low']:,}, {d['p90']['high']:,}], longest {d['longest']:,}")


def _stop(fig: dict) -> str:
    """Why an adaptive line-up stopped: its rates were precise, or it reached its cap."""
    if "precise" not in fig:
        return ""
    return "; precise" if fig["precise"] else f"; the cap, {fig['most']:,}, reached first"


def _num(d: dict) -> str:
    return f"{d['value']:.2f} [{d['low']:.2f}, {d['high']:.2f}]"


def _share(d: dict) -> str:
    return f"{pct(d['value'])} [{pct(d['low'])}, {pct(d['high'])}]"


def metrics_lines(fig: dict, lead: bool) -> list[str]:
    """The design metrics of a line-up (docs/balance.md, "Design metrics"), or none where
    its figures have none (figures of an earlier version)."""
    if "completion" not in fig:
        return []
    b = fig["branching"]
    if b.get("games"):
        branching = (f"branching {_num(b)} legal choices per decision (mean over games, "
                     f"{b['decisions']:,} decisions")
        branching += f"; {b['unlisted']:,} too large to list, left out)" \
            if b["unlisted"] else ")"
    elif b["unlisted"]:
        branching = "branching: no decision could be listed (sampled choices only)"
    else:
        branching = "branching not measured (the engine's fast path does not count it)"
    d = fig.get("decisiveness")
    if not lead or d is None:
        decisive = "decisiveness: no lead measure (the engine has no GameDef.lead)"
    elif not d["games"]:
        decisive = "decisiveness: no game was won"
    else:
        decisive = (f"decisiveness: the winner led for good after {_share(d['mean'])} of the "
                    f"game's steps (mean; median {_share(d['median'])}; {d['games']:,} games "
                    f"won)")
    return [f"     completion {ci(fig['completion'])}; {branching}", f"     {decisive}"]


def trace_lines(trace: dict) -> list[str]:
    """The skill trace: each search budget against the one before it."""
    lines = ["", f"== skill trace (the game as printed; search bots of budgets "
             f"{', '.join(map(str, trace['budgets']))} rollouts, each against the one "
             f"before it, {trace['games']:,} games each, seats alternated)"]
    if trace.get("why"):
        lines.append(f"   not played: {trace['why']}")
    for k in trace["steps"]:
        lines.append(f"   {k['bot']} against {k['against']} ({k['games']:,} games; fair share "
                     f"{pct(k['fair'])}): wins {ci(k['wins'])}, draws {ci(k['draws'])}"
                     + (f"; of the decided games {ci(k['decided'])}"
                        if k["draws"]["count"] else ""))
    return lines


def report_text(report: dict) -> str:
    rw = report["round_word"]
    conf = f"rates with {round(report['confidence'] * 100)} % Wilson intervals [low, high]"
    if report.get("precision"):
        lines = [f"{report['title']}: each line-up until every rate's interval is at most "
                 f"{100 * report['precision']:g} points wide, at most {report['games']:,} games "
                 f"({report['search_games']:,} with the search bot), seed {report['seed']}; "
                 f"{conf}"]
    else:
        lines = [f"{report['title']}: {report['games']:,} games per line-up, seed "
                 f"{report['seed']}; {conf}"]
    for v in report["variants"]:
        lines.append("")
        lines.append(f"== {v['label']} ({v['players']} players)")
        if not v["decisions"]:
            lines.append("   no player ever has a choice: the deal decides every game, so "
                         "there is no skill edge to measure (random bots only)")
        for s in v["seats"]:
            lines.append(f"   {s['bot']} bots in every seat ({s['games']:,} games{_stop(s)}):")
            lines.append(f"     {rw}s: {_dist(s['rounds'])}")
            lines.append(f"     steps: {_dist(s['steps'])}")
            seats = ", ".join(f"P{i + 1} {ci(w)}" for i, w in enumerate(s["wins"]))
            lines.append(f"     wins by seat: {seats}")
            lines.append(f"     draws {ci(s['draws'])}; cap hit {ci(s['cap'])}")
            lines.extend(metrics_lines(s, report.get("lead", False)))
        for k in v["skill"]:
            lines.append(f"   {k['bot']} against {k['against']} ({k['games']:,} games{_stop(k)}, "
                         f"seats alternated; fair share {pct(k['fair'])}): wins {ci(k['wins'])}, "
                         f"draws {ci(k['draws'])}"
                         + (f"; of the decided games {ci(k['decided'])}"
                            if k["draws"]["count"] and "decided" in k else ""))
            lines.extend(metrics_lines(k, report.get("lead", False)))
    if report.get("skill_trace"):
        lines.extend(trace_lines(report["skill_trace"]))
    if report.get("seconds_per_round"):
        from .simulate import playing_time
        t = playing_time(report)
        if t:
            lines.append("")
            lines.append(f"playing time at {report['seconds_per_round']:g} s per {rw}: "
                         f"{t['text']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the books
# The books speak to players: the bots are named by how they play, each figure carries its
# 95 % interval in brackets and the games it rests on, and a figure whose line-up reached
# its cap before its interval was narrow enough claims nothing ("too close to call").

#: the bots in plain words: how one plays, how several play (the verb agrees)
WAYS = {
    "random": ("picks any legal move at random", "pick any legal move at random"),
    "heuristic": ("follows simple good habits", "follow simple good habits"),
    "search": ("looks ahead", "look ahead"),  # the lead says how: likely moves played out
}
#: the bots as a chart's row labels
SHORT = {"random": "picks at random", "heuristic": "good habits", "search": "looks ahead"}
COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
#: the books' precision when the figures do not say theirs (figures of an earlier policy)
PRECISION = 0.05


def _dp(r: dict) -> int:
    """Decimals worth printing for a rate: whole percents once its interval spans 2 points
    or more (a tenth of a point would claim more than the games know), else one."""
    return 0 if r["high"] - r["low"] >= 0.02 else 1


def _p(x: float, dp: int) -> str:
    """A share as a percentage with ``dp`` decimals, a half rounded up (95 of 200: 48)."""
    q = Decimal(repr(round(100 * x, 6))).quantize(Decimal(1).scaleb(-dp), ROUND_HALF_UP)
    return f"{q:f}"


def share(r: dict) -> str:
    """A rate with its 95 % interval: "72 % (69–74 %)"."""
    dp = _dp(r)
    lo, hi = _p(r["low"], dp), _p(r["high"], dp)
    return f"{_p(r['rate'], dp)} % ({lo}–{hi} %)"


def fair_text(x: float) -> str:
    """A fair share, as exact as it is: "50 %", "33.3 %"."""
    return f"{100 * x:.1f}".removesuffix(".0") + " %"


def is_precise(r: dict, precision: float = PRECISION) -> bool:
    """Whether a rate's interval is as narrow as the books' precision asks."""
    return r["high"] - r["low"] <= precision + 1e-9


def close_call(games: int) -> str:
    return f"too close to call from {games:,} games"


def playing(bot: str, decisions: bool = True) -> str:
    """Who played the seat figures: "equal players who follow simple good habits"."""
    if not decisions:
        return "equal players"  # nothing to decide: every player plays alike
    return f"equal players who {WAYS.get(bot, WAYS['random'])[1]}"


def seat_verdict(seat: dict, precision: float = PRECISION) -> tuple[int, dict, float, str]:
    """The best seat (0-based), its rate, the fair share (what is not drawn, shared evenly)
    and the verdict on a seat edge: one the games show (worth a house rule when its whole
    interval lies 2 points or more above the fair share, a small one when it lies above it),
    none worth a house rule (a precise interval that reaches down to the fair share), or too
    close to call."""
    w = seat["wins"]
    fair = (1 - seat["draws"]["rate"]) / len(w)
    best = max(range(len(w)), key=lambda i: w[i]["rate"])
    r = w[best]
    edge = round(100 * (r["rate"] - fair))
    if r["low"] > fair + 0.02:
        verdict = f"a seat edge of about {edge} points, worth taking turns to sit first"
    elif r["low"] > fair:  # an edge the games show, but not of 2 points for sure
        verdict = f"a small seat edge, about {edge} point{'s' if edge != 1 else ''}"
    elif is_precise(r, precision):
        verdict = "no seat edge worth a house rule"
    else:
        verdict = close_call(seat["games"])
    return best, r, fair, verdict


def seat_sentence(seat: dict, precision: float = PRECISION, decisions: bool = True) -> str:
    """One plain reading of the seat figures between equal players."""
    n = len(seat["wins"])
    best, r, fair, verdict = seat_verdict(seat, precision)
    who = playing(seat["bot"], decisions)
    if n == 2:
        head = f"Player {best + 1} wins {share(r)} of {seat['games']:,} games between {who}"
    else:
        head = (f"The luckiest seat, Player {best + 1}, wins {share(r)} of "
                f"{seat['games']:,} games between {who}")
    if n > 2 or seat["draws"]["count"]:
        head += f" (a fair share is {fair_text(fair)})"
    return f"{head}: {verdict}."


def skill_verdict(k: dict, precision: float = PRECISION) -> str:
    """Whether skill tells: from the decided games where some were drawn (a fair share of
    those is one in as many as there are players, whatever the share of draws)."""
    r = k["decided"] if k["draws"]["count"] and "decided" in k else k["wins"]
    if r["low"] > k["fair"]:
        return "skill tells" if r["rate"] - k["fair"] > 0.1 else "skill tells a little"
    if r["high"] < k["fair"]:
        return "playing that way does worse than chance here"
    if is_precise(r, precision):
        return "no measurable edge"
    return close_call(k["games"])


def skill_sentence(k: dict, precision: float = PRECISION) -> str:
    """One plain reading of a skill line-up: one player against copies of another, seats
    taken in turn, in plain words."""
    others = max(1, round(1 / k["fair"]) - 1) if k["fair"] else 1
    one = f"A player who {WAYS.get(k['bot'], WAYS['random'])[0]}"
    against = (f"one who {WAYS.get(k['against'], WAYS['random'])[0]}" if others == 1 else
               f"{COUNT.get(others, str(others))} who {WAYS.get(k['against'], WAYS['random'])[1]}")
    n = k["games"]
    fair = fair_text(k["fair"])
    if not k["draws"]["count"]:
        return (f"{one} wins {share(k['wins'])} of {n:,} games against {against}, seats "
                f"taken in turn (a fair share is {fair}): {skill_verdict(k, precision)}.")
    decided = k.get("decided")
    if not decided or not decided["games"]:
        return f"{one}, against {against}, drew every one of {n:,} games."
    lost = 1 - k["wins"]["rate"] - k["draws"]["rate"]
    dp = _dp(k["wins"])
    return (f"{one}, against {against}, wins {share(k['wins'])} of {n:,} games, seats taken "
            f"in turn, and loses {_p(lost, dp)} %, the rest drawn: {share(decided)} of the "
            f"{decided['games']:,} games someone won (a fair share is {fair}): "
            f"{skill_verdict(k, precision)}.")


def _quantile(q: dict, unit: str = "") -> str:
    """A percentile with its interval: "148 tricks (142–154)"."""
    unit = f" {unit}" if unit else ""
    if q["low"] == q["high"]:
        return f"{q['value']:,}{unit}"
    return f"{q['value']:,}{unit} ({q['low']:,}–{q['high']:,})"


def length_sentence(seat: dict, round_word: str, minutes: dict | None) -> str:
    """Half the games and nine in ten, each with its interval, and the longest of them."""
    d = seat["rounds"]
    if "median" not in d:
        return ""
    s = (f"Half the games end within {_quantile(d['median'], round_word + 's')} and nine in "
         f"ten within {_quantile(d['p90'])}; the longest of {seat['games']:,} took "
         f"{d['longest']:,}")
    if minutes:
        s += f"; at the table: {minutes['short']}"
    return s + "."


def draws_clause(seat: dict) -> str:
    """The draws and the games the cap ended ("33 % (31–35 %) were drawn, all at the cap"),
    or nothing where none was drawn or capped (a sample without draws says nothing of
    whether the game can be drawn)."""
    d, c, n = seat["draws"], seat["cap"], seat["games"]
    if not d["count"] and not c["count"]:
        return ""
    if d["count"] == n:
        s = "all were drawn"
    elif d["count"]:
        s = f"{share(d)} were drawn"
    else:
        s = "none was drawn"
    if c["count"] == n:
        s += ", every one at the cap" if d["count"] else "; the cap ended every one"
    elif c["count"] and c["count"] == d["count"]:
        s += ", all at the cap"
    elif c["count"]:
        s += f"; the cap ended {share(c)}"
    return s


def draws_sentence(seat: dict) -> str:
    """The draws in a sentence ("Of 2,000 games, 41 % (38–43 %) were drawn."), or "" where
    none was drawn or capped."""
    clause = draws_clause(seat)
    if not clause:
        return ""
    if clause.startswith("all were"):
        return f"All {seat['games']:,} games were drawn{clause[len('all were drawn'):]}."
    return f"Of {seat['games']:,} games, {clause}."


def decisive_sentence(seat: dict, round_word: str) -> str:
    """How early a game is decided, for the books (decisiveness, in the players' words):
    "The player who goes on to win takes the lead for good, on average, 55 % (52–58 %)
    of the way through the game: games are decided about halfway." "" where it was not
    measured."""
    d = seat.get("decisiveness")
    if not d or not d.get("games") or "value" not in d["mean"]:
        return ""
    m = d["mean"]
    verdict = ("early" if m["high"] < 1 / 3 else "late" if m["low"] > 2 / 3
               else "about halfway" if m["low"] <= 0.5 <= m["high"] else
               "in the first half" if m["high"] < 0.5 else "in the second half")
    r = {"rate": m["value"], "low": m["low"], "high": m["high"], "count": d["games"]}
    return (f"The player who goes on to win takes the lead for good, on average, {share(r)} "
            f"of the way through the game: games are decided {verdict}.")


def option_words(name: str, value, label: str | None) -> str:
    """An option value as the book names it: "4 players", "Trick cap set to 200"."""
    if name == "players":
        return f"{value} players"
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return f"{label or name.replace('_', ' ')} set to {value}"


def option_sentence(seat: dict, round_word: str, words: str,
                    precision: float = PRECISION) -> str:
    """One line per option value: its length, draws and seat edge, each with its
    interval, from the games between equal players played with it."""
    n = seat["games"]
    d = seat["rounds"]
    parts = []
    if "median" in d:
        if d["shortest"] == d["longest"]:
            parts.append(f"every game lasts {d['longest']:,} {round_word}"
                         f"{'s' if d['longest'] != 1 else ''}")
        else:
            parts.append(f"half the games end within {_quantile(d['median'], round_word + 's')}"
                         f" and nine in ten within {_quantile(d['p90'])}")
    draws = draws_clause(seat)
    if draws:
        parts.append(draws)
    if seat["draws"]["count"] < n:  # where every game was drawn, no seat won any
        best, r, fair, verdict = seat_verdict(seat, precision)
        fair_bit = f", a fair share being {fair_text(fair)}" if \
            len(seat["wins"]) > 2 or seat["draws"]["count"] else ""
        parts.append(f"Player {best + 1} wins {share(r)}{fair_bit}: {verdict}")
    return f"With {words} ({n:,} games): " + "; ".join(parts) + "."
