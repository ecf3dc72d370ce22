"""``warbook sweep``: a game's option settings played side by side and ranked by fairness.

A designer asks "which setting of my game is fairest". The sweep plays every combination
of the option values asked for (``--vary OPTION=V1,V2``; or a seeded sample of a grid too
large to play whole), the same bot in every seat, and ranks the settings:

1. by **seat edge**: how far the luckiest or unluckiest seat's share of the decided games
   lies from a fair share (1/n), in points, with its 95 % interval (from the seats' Wilson
   intervals: the edge's low end is the least distance from fair any seat's interval
   allows, its high end the most). Settings whose edge interval overlaps the fairest
   one's cannot be told apart from it by these games: they share its **tier** (1) and
   are ordered among themselves
2. by the **draw rate**, fewer first,
3. then by the **median length** in rounds, shorter first (then the edge).

The settings outside tier 1 follow, by edge, draws and length.
Each setting's games are seeded by the master seed and the setting itself (not its place
in the grid), so a setting gives the same figures in any sweep with the same seed, games
and bot, on the local pool or a cluster (:mod:`.executor`).

The best setting's figures can be written as ``balance.claims`` suggestions
(:func:`suggestion`): claims its own intervals support, for the designer to review and
copy into ``game.yaml``; nothing is written into ``game.yaml`` itself.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

from ..charts import clean
from ..diagnostics import suggest
from ..engine.core import GameDef
from ..model import Game
from .bots import LADDER, LabError, ladder
from .run import Lineup, play_many
from .simulate import _players, seat_figures
from .stats import wilson

#: the largest grid played whole; a larger one needs ``--sample`` (or a larger cap)
MAX_SETS = 64
#: the games per setting when none are asked for
GAMES = 1000


def parse_vary(game: Game, given: list[str]) -> dict[str, list[Any]]:
    """``["stones=3,4,5", "clean_sweep=extra,none"]`` as option -> values, each value the
    engine's own (a number where the option takes numbers); a :class:`LabError` with a
    hint for an unknown option, a value the option does not take, a repeated option."""
    gamedef: GameDef = game.gamedef
    spec = gamedef.options
    out: dict[str, list[Any]] = {}
    for item in given:
        name, eq, raw = item.partition("=")
        name = name.strip()
        if not eq or not name or not raw.strip():
            raise LabError(f"--vary {item!r}: write OPTION=VALUE,VALUE (e.g. "
                           f"--vary {_example(spec)})")
        if name not in spec:
            names = ", ".join(spec) or "none"
            raise LabError(f"--vary {item!r}: {game.slug} has no option '{name}' (its options: "
                           f"{names}){suggest(name, list(spec))}")
        if name in out:
            raise LabError(f"--vary {name} is given twice: list every value in one --vary "
                           f"{name}=V1,V2")
        values: list[Any] = []
        for text in (v.strip() for v in raw.split(",")):
            value = _value(spec[name], text, item)
            if value in values:
                raise LabError(f"--vary {item!r}: the value {text} is listed twice")
            values.append(value)
        out[name] = values
    if not out:
        raise LabError(f"nothing to sweep: give at least one --vary OPTION=V1,V2 (e.g. "
                       f"--vary {_example(spec)})")
    return out


def _example(spec: dict) -> str:
    for name, opt in spec.items():
        if opt.choices:
            return f"{name}={','.join(map(str, opt.choices))}"
        if isinstance(opt.default, int):
            return f"{name}={opt.default},{opt.default * 2}"
    return "OPTION=V1,V2"


def _value(opt, text: str, item: str) -> Any:
    if opt.choices is not None:
        for c in opt.choices:
            if str(c) == text:
                return c
        raise LabError(f"--vary {item!r}: option '{opt.name}' takes "
                       f"{', '.join(map(str, opt.choices))}, not {text!r}"
                       f"{suggest(text, [str(c) for c in opt.choices])}")
    if isinstance(opt.default, int) and not isinstance(opt.default, bool):
        try:
            value = int(text)
        except ValueError:
            raise LabError(f"--vary {item!r}: option '{opt.name}' takes whole numbers, not "
                           f"{text!r}") from None
    else:
        value = text
    problem = opt.check(value)
    if problem:
        raise LabError(f"--vary {item!r}: {problem}")
    return value


def grid(vary: dict[str, list[Any]], sample: int | None, seed: int,
         cap: int = MAX_SETS) -> tuple[list[dict[str, Any]], int]:
    """The settings to play (each option -> value, in the order of ``vary``) and the
    grid's whole size: every combination, or ``sample`` of them drawn with the seed (in
    grid order). A grid larger than ``cap`` without ``sample`` is refused."""
    names = list(vary)
    every = [dict(zip(names, values)) for values in itertools.product(*vary.values())]
    if sample is not None:
        if sample < 1:
            raise LabError("--sample must be at least 1")
        if sample >= len(every):
            return every, len(every)
        picked = sorted(random.Random(f"sweep-sample:{seed}").sample(range(len(every)), sample))
        return [every[i] for i in picked], len(every)
    if len(every) > cap:
        raise LabError(f"the grid has {len(every):,} settings ("
                       + " x ".join(f"{len(v)} {n}" for n, v in vary.items())
                       + f"), more than the {cap} a sweep plays whole: add --sample K to play "
                       f"K of them drawn with the seed, or --max-sets {len(every)} to play "
                       f"them all")
    return every, len(every)


def _label(setting: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(setting.items()))


def edge(wins: list[int], decided: int, confidence: float = 0.95) -> dict:
    """The seat edge of one line-up: the largest distance of a seat's share of the
    ``decided`` games (``wins`` per seat) from 1/n, with the interval its seats' Wilson
    intervals allow (as shares)."""
    fair = 1 / len(wins)
    if decided <= 0:
        return {"value": 0.0, "low": 0.0, "high": round(1 - fair, 6), "decided": 0}
    value = low = high = 0.0
    for won in wins:
        share = won / decided
        lo, hi = wilson(won, decided, confidence)
        value = max(value, abs(share - fair))
        low = max(low, 0.0 if lo <= fair <= hi else min(abs(lo - fair), abs(hi - fair)))
        high = max(high, abs(lo - fair), abs(hi - fair))
    return {"value": round(value, 6), "low": round(low, 6), "high": round(high, 6),
            "decided": decided}


def sweep(game: Game, vary: dict[str, list[Any]], games: int = GAMES,
          bots: list[str] | None = None, seed: int = 0, sample: int | None = None,
          cap: int = MAX_SETS, confidence: float = 0.95, workers: int | None = None,
          executor=None) -> dict:
    """Play the sweep and return it as plain data (JSON-ready; the same for a seed
    whatever plays it), the settings ranked (see the module's docstring)."""
    gamedef: GameDef = game.gamedef
    if gamedef is None:
        raise LabError(f"{game.slug}: its engine could not be loaded")
    settings, size = grid(vary, sample, seed, cap)
    base = game.option_defaults()
    for b in bots or ():
        if b not in LADDER:
            raise LabError(f"unknown bot '{b}' (the ladder: {', '.join(LADDER)})"
                           f"{suggest(b, list(LADDER))}")
    if executor is not None:
        executor = executor.for_game(game)
    jobs, keys = [], []
    rows = []
    for si, setting in enumerate(settings):
        opts = gamedef.resolve({**base, **setting})
        available = ladder(gamedef, opts)
        wanted = list(bots) if bots else [("heuristic" if "heuristic" in available
                                            else "random")]
        for b in wanted:
            if b not in available:
                raise LabError(f"{game.slug} with {_label(setting)} has no {b} bot (its "
                               f"ladder there: {', '.join(available)})")
        n = _players(gamedef, opts)
        rows.append({"options": setting, "players": n,
                     "as_written": all(base.get(k) == v for k, v in setting.items())})
        for b in wanted:
            jobs.append((gamedef, opts, seed, Lineup(f"sweep/{_label(setting)}/{b}", (b,) * n),
                         games))
            keys.append((si, b))
    records = play_many(jobs, workers, executor=executor)
    for row in rows:
        row["seats"] = []
    for (si, b), recs in zip(keys, records):
        n = rows[si]["players"]
        fig = seat_figures(b, recs, n, confidence)
        fig["edge"] = edge([sum(1 for r in recs if r[2] == s) for s in range(n)],
                           sum(1 for r in recs if r[2] >= 0), confidence)
        rows[si]["seats"].append(fig)
    for row in rows:
        # the setting's figures: its worst line-up (the largest edge, then the most draws)
        worst = max(row["seats"], key=lambda f: (f["edge"]["value"], f["draws"]["rate"]))
        row["edge"] = worst["edge"]
        row["draws"] = worst["draws"]
        row["cap"] = worst["cap"]
        row["rounds"] = {k: worst["rounds"][k] for k in ("median", "p90", "longest")
                         if k in worst["rounds"]}
    ranked = rank(rows)
    for place, i in enumerate(ranked, 1):
        rows[i]["rank"] = place
    return {
        "game": game.slug, "title": game.title, "seed": seed, "games": games,
        "bots": bots or sorted({b for _, b in keys}), "confidence": confidence,
        "round_word": gamedef.round_word,
        "vary": {k: list(v) for k, v in vary.items()},
        "grid": size, "sampled": len(settings) if len(settings) < size else None,
        "settings": [rows[i] for i in ranked],
    }


def rank(rows: list[dict]) -> list[int]:
    """The settings' order (indices of ``rows``), each row given its ``tier``: 1 where its
    edge interval overlaps the fairest setting's (these games cannot tell them apart on
    balance), else 2. Tier 1 comes first, ordered by draw rate, then median length
    (shorter first), then edge; tier 2 after it by edge, draws and length."""
    def median(i: int) -> float:
        return rows[i]["rounds"].get("median", {}).get("value", 0)

    fairest = min(range(len(rows)), key=lambda i: (rows[i]["edge"]["value"], i))
    top = rows[fairest]["edge"]["high"]
    tier1 = [i for i in range(len(rows)) if rows[i]["edge"]["low"] <= top]
    rest = [i for i in range(len(rows)) if i not in tier1]
    for i in range(len(rows)):
        rows[i]["tier"] = 1 if i in tier1 else 2
    return (sorted(tier1, key=lambda i: (rows[i]["draws"]["rate"], median(i),
                                         rows[i]["edge"]["value"], i))
            + sorted(rest, key=lambda i: (rows[i]["edge"]["value"], rows[i]["draws"]["rate"],
                                          median(i), i)))


# --------------------------------------------------------------------------- output
def _pts(x: float) -> str:
    return f"{100 * x:.1f}"


def report_text(report: dict) -> str:
    """The ranking as a table for the terminal."""
    names = list(report["vary"])
    word = report["round_word"]
    lines = [f"{report['title']}: {len(report['settings'])} settings"
             + (f" sampled from {report['grid']:,}" if report["sampled"] else "")
             + f", {report['games']:,} games each between {' / '.join(report['bots'])} bots"
             f" (seed {report['seed']}; {round(100 * report['confidence'])}% intervals)", ""]
    head = ["rank"] + names + ["seat edge (pts)", "draws", f"median {word}s"]
    table = [head]
    for r in report["settings"]:
        e, d = r["edge"], r["draws"]
        med = r["rounds"].get("median")
        table.append([f"{r['rank']}{'*' if r['tier'] == 1 else ''}"]
                     + [str(r["options"][n]) for n in names]
                     + [f"{_pts(e['value'])} [{_pts(e['low'])}, {_pts(e['high'])}]",
                        f"{_pts(d['rate'])}% [{_pts(d['low'])}, {_pts(d['high'])}]",
                        f"{med['value']} [{med['low']}, {med['high']}]" if med else "-"])
    widths = [max(len(row[c]) for row in table) for c in range(len(head))]
    for i, row in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    best = report["settings"][0]
    tier = [r for r in report["settings"] if r["tier"] == 1]
    lines.append("")
    lines.append("seat edge: the largest distance of a seat's share of the decided games from "
                 "a fair share, in points")
    written = [r for r in report["settings"] if r["as_written"]]
    if written:
        lines.append(f"as written: rank {written[0]['rank']} ({_setting(written[0])})")
    if len(tier) > 1:
        lines.append(f"* {len(tier)} settings cannot be told apart on seat balance by these "
                     f"games (their edge intervals overlap the fairest's), so they are "
                     f"ordered by draws, then length; more --games would separate them")
    else:
        lines.append(f"* the fairest setting, clearly: {_setting(best)}")
    return "\n".join(lines) + "\n"


def _setting(row: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in row["options"].items())


def to_json(report: dict) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def chart_svg(report: dict) -> str:
    """The seat edge of each setting with its interval, fairest first, as an SVG drawn by
    pygal and cleaned as the books' charts are (:mod:`builder.charts`): no script, no
    remote reference, the same bytes for the same report."""
    import pygal
    from pygal import Config
    from pygal.style import Style

    c = Config()
    c.style = Style(font_family="Cabin, 'DejaVu Sans', sans-serif", background="white",
                    plot_background="white", foreground="#2b2b2b",
                    foreground_strong="#2b2b2b", foreground_subtle="#d0d0d0",
                    opacity="0.85", opacity_hover="0.85", transition="none",
                    colors=("#3f5366",), title_font_size=15, label_font_size=12,
                    major_label_font_size=12)
    c.js = []
    c.css = ["file://style.css", "file://graph.css"]
    c.disable_xml_declaration = True
    c.show_legend = False
    c.tooltip_fancy_mode = False
    c.print_values = False
    rows = report["settings"]
    c.width, c.height = 720, max(160, 60 + 28 * len(rows))
    c.title = f"{report['title']}: seat edge by setting (points, {round(100 * report['confidence'])}% intervals)"
    c.x_title = "seat edge (points from a fair share)"
    chart = pygal.HorizontalBar(c)
    chart.x_labels = [_setting(r) + (" (as written)" if r["as_written"] else "")
                      for r in reversed(rows)]
    top = max(r["edge"]["high"] for r in rows)
    c.range = chart.config.range = (0, max(1, math.ceil(100 * top)))
    chart.add("seat edge", [
        {"value": round(100 * r["edge"]["value"], 2),
         "ci": {"low": round(100 * r["edge"]["low"], 2), "high": round(100 * r["edge"]["high"], 2)}}
        for r in reversed(rows)])
    return clean(chart.render(is_unicode=True), "chart-sweep")


def suggestion(report: dict) -> str:
    """``balance:`` claims the fairest setting's own figures support (YAML, commented),
    for the designer to review: each bound is the far end of its interval, rounded out,
    so the claim holds on these games."""
    best = report["settings"][0]
    seat = best["seats"][0]
    top = max(w["high"] for w in seat["wins"])
    lines = [f"# warbook sweep {report['game']}: the fairest of {len(report['settings'])} "
             f"settings (seed {report['seed']}, {report['games']:,} games, "
             f"{seat['bot']} bots). Review before copying into game.yaml:",
             "# options: set these defaults",
             *[f"#   {k}: {v}" for k, v in best["options"].items()],
             "balance:",
             f"  bots: {seat['bot']}",
             "  claims:",
             f"    - {{claim: seat, at_most: {math.ceil(100 * top)}%}}"]
    d_hi = best["draws"]["high"]
    lines.append(f"    - {{claim: draws, at_most: {max(1, math.ceil(100 * d_hi))}%}}")
    p90 = best["rounds"].get("p90")
    if p90:
        lines.append(f"    - {{claim: length, rounds: {p90['high']}, share: 90%}}")
    return "\n".join(lines) + "\n"
