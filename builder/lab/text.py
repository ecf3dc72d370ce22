"""The lab's figures in words: the text report of ``warbook simulate`` and the one-sentence
readings printed under the charts. Returns strings; the command line prints them."""

from __future__ import annotations

import json


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


def report_text(report: dict) -> str:
    rw = report["round_word"]
    lines = [f"{report['title']}: {report['games']:,} games per line-up, seed "
             f"{report['seed']}; rates with {round(report['confidence'] * 100)} % Wilson "
             f"intervals [low, high]"]
    for v in report["variants"]:
        lines.append("")
        lines.append(f"== {v['label']} ({v['players']} players)")
        if not v["decisions"]:
            lines.append("   no player ever has a choice: the deal decides every game, so "
                         "there is no skill edge to measure (random bots only)")
        for s in v["seats"]:
            lines.append(f"   {s['bot']} bots in every seat ({s['games']:,} games):")
            lines.append(f"     {rw}s: {_dist(s['rounds'])}")
            lines.append(f"     steps: {_dist(s['steps'])}")
            seats = ", ".join(f"P{i + 1} {ci(w)}" for i, w in enumerate(s["wins"]))
            lines.append(f"     wins by seat: {seats}")
            lines.append(f"     draws {ci(s['draws'])}; cap hit {ci(s['cap'])}")
        for k in v["skill"]:
            lines.append(f"   {k['bot']} against {k['against']} ({k['games']:,} games, seats "
                         f"alternated; fair share {pct(k['fair'])}): wins {ci(k['wins'])}, "
                         f"draws {ci(k['draws'])}"
                         + (f"; of the decided games {ci(k['decided'])}"
                            if k["draws"]["count"] and "decided" in k else ""))
    if report.get("seconds_per_round"):
        from .simulate import playing_time
        t = playing_time(report)
        if t:
            lines.append("")
            lines.append(f"playing time at {report['seconds_per_round']:g} s per {rw}: "
                         f"{t['text']}")
    return "\n".join(lines)


def seat_sentence(seat: dict) -> str:
    """One plain reading of the seat figures between equal players."""
    w = seat["wins"]
    n = len(w)
    fair = (1 - seat["draws"]["rate"]) / n
    best = max(range(n), key=lambda i: w[i]["rate"])
    r = w[best]
    head = (f"Player {best + 1} wins {pct(r['rate'])} of games between equal players"
            if n == 2 else f"The luckiest seat, Player {best + 1}, wins {pct(r['rate'])} "
            f"of games between equal players (a fair share is {pct(fair)})")
    if r["low"] <= fair + 0.02:
        return head + ": no seat edge worth a house rule."
    return head + f": a seat edge of {pct(r['rate'] - fair)} or so, worth taking turns " \
        "to sit first."


def skill_sentence(k: dict) -> str:
    """One plain reading of a skill line-up. Where games are drawn, the verdict weighs the
    games somebody won (``decided``): a fair share of those is one in as many as there
    are players, whatever the share of draws."""
    r = k.get("decided", k["wins"]) if k["draws"]["count"] else k["wins"]
    if r["low"] > k["fair"]:
        verdict = "skill tells" if r["rate"] - k["fair"] > 0.1 else "skill tells a little"
    elif r["high"] < k["fair"]:
        verdict = f"the {k['bot']} bot's plan does worse than chance here"
    else:
        verdict = "no measurable edge"
    if not k["draws"]["count"]:
        return (f"The {k['bot']} bot beats the {k['against']} bot in {pct(r['rate'])} of "
                f"games (a fair share is {pct(k['fair'])}): {verdict}.")
    lost = 1 - k["wins"]["rate"] - k["draws"]["rate"]
    return (f"The {k['bot']} bot wins {pct(k['wins']['rate'])} of games against the "
            f"{k['against']} bot and loses {pct(lost)}, the rest drawn: "
            f"{pct(r['rate'])} of the games won by anyone (a fair share is "
            f"{pct(k['fair'])}): {verdict}.")


def length_sentence(seat: dict, round_word: str, minutes: dict | None) -> str:
    d = seat["rounds"]
    if "median" not in d:
        return ""
    s = (f"Half the games end within {d['median']['value']:,} {round_word}s and nine in "
         f"ten within {d['p90']['value']:,}; the longest of {seat['games']:,} took "
         f"{d['longest']:,}")
    if minutes:
        s += f"; at the table: {minutes['short']}"
    return s + "."
