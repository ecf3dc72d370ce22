""""By the numbers": the balance lab's figures (builder/lab) as charts and plain sentences,
for the rulebooks and the website alike.

The charts are drawn by **pygal** (a small, pure-Python SVG charting library, kept up by
Kozea, the makers of WeasyPrint): SVG with its words kept as ``<text>``, set in the book's
sans-serif face (Cabin) through the chart's own style sheet, so they are searchable and
sharp in print and on screen. pygal writes a configuration script and comments into every
chart for its interactive tooltips; :func:`builder.charts.clean` takes them out (no
script reaches a PDF or the site) and replaces pygal's random chart id with a fixed one,
so a build writes the same bytes every time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..charts import clean as clean_chart
from .markup import Markup

FONT = "Cabin, 'Helvetica Neue', Arial, sans-serif"
MAX_BARS = 18


@dataclass
class Chart:
    id: str
    title: str
    svg: Markup
    reading: str  # the one sentence under the chart


@dataclass
class NumbersView:
    lead: str
    charts: list[Chart] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # further sentences (the draws)
    options: list[str] = field(default_factory=list)  # one sentence per option value
    time: str = ""  # "12 minutes, 90 % within 15 minutes", or "" without seconds_per_round
    #: the figures are from an earlier version of the game (``BookFigures.is_stale``):
    #: printed under a boxed mark while they are measured again
    stale: bool = False
    stale_note: str = ""


def _titled(svg: str, words: str) -> str:
    """The chart's own title (pygal writes "Pygal") replaced by ``words``: what a screen
    reader says of the chart, on the site and in the tagged PDF (its figure's /Alt)."""
    from markupsafe import escape

    return re.sub(r"<title>[^<]*</title>", lambda m: f"<title>{escape(words)}</title>", svg,
                  count=1)


def _style(accent: str):
    from pygal.style import Style

    return Style(
        font_family=FONT, background="transparent", plot_background="transparent",
        foreground="#2b2b2b", foreground_strong="#2b2b2b", foreground_subtle="#bdbdbd",
        opacity="1", opacity_hover="1", transition="none",
        colors=(accent, "#6d6d6d", "#a7a7a7", "#3d3d3d"),
        label_font_size=17, major_label_font_size=17, title_font_size=18,
        value_font_size=15, legend_font_size=16, tooltip_font_size=15,
    )


def _config(accent: str, **kw):
    from pygal import Config

    c = Config()
    c.style = _style(accent)
    c.js = []
    c.css = ["file://style.css", "file://graph.css"]
    c.disable_xml_declaration = True
    c.explicit_size = False
    c.width, c.height = kw.pop("width", 640), kw.pop("height", 260)
    c.show_legend = False
    c.margin = 6
    c.print_values = False
    c.tooltip_fancy_mode = False
    for k, v in kw.items():
        setattr(c, k, v)
    return c


def _bins(hist: list[list[int]]) -> tuple[list[str], list[int]]:
    """The length histogram in at most MAX_BARS bars of equal width."""
    lo, hi = hist[0][0], hist[-1][0]
    span = hi - lo + 1
    width = max(1, -(-span // MAX_BARS))
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nice >= width:
            width = nice
            break
    start = lo - lo % width
    counts: dict[int, int] = {}
    for x, c in hist:
        b = (x - start) // width
        counts[b] = counts.get(b, 0) + c
    nb = max(counts) + 1
    labels = [str(start + b * width) if width == 1 else f"{start + b * width}–"
              f"{start + (b + 1) * width - 1}" for b in range(nb)]
    return labels, [counts.get(b, 0) for b in range(nb)]


def length_chart(seat: dict, round_word: str, accent: str, chart_id: str) -> str:
    import pygal

    labels, counts = _bins(seat["rounds"]["histogram"])
    total = sum(counts)
    c = pygal.Bar(_config(accent, x_label_rotation=-40 if len(labels) > 8 else 0,
                          y_title="share of games (%)", x_title=f"{round_word}s per game",
                          show_minor_x_labels=True, truncate_label=-1))
    c.x_labels = labels
    c.add("games", [round(100 * n / total, 1) for n in counts])
    return clean_chart(c.render(is_unicode=True), chart_id)


def rate_chart(rows: list[tuple[str, dict]], fair: float, accent: str, chart_id: str,
               axis: str) -> str:
    """Horizontal bars of rates (%) with their 95 % intervals drawn as error bars."""
    import pygal

    c = pygal.HorizontalBar(_config(accent, height=60 + 44 * len(rows), range=(0, 100),
                                    x_title=axis, truncate_label=-1, show_x_guides=True))
    c.x_labels = [label for label, _ in rows]
    c.add("wins", [{"value": round(100 * r["rate"], 1),
                    "ci": {"low": round(100 * r["low"], 1), "high": round(100 * r["high"], 1)}}
                   for _, r in rows])
    svg = c.render(is_unicode=True)
    return clean_chart(svg, chart_id)


#: the boxed mark over figures measured on an earlier version of the game
STALE_NOTE = "Measured on an earlier version of these rules; being measured again."


def _lead(figures: dict, total: int, decisions: bool, bots: list[str]) -> str:
    """Who played, how, and how far: the figures' sample sizes and precision in words."""
    from ..lab.text import WAYS

    lead = f"A computer played this game {total:,} times, taking every seat"
    ways = {"random": "picking any legal move at random",
            "heuristic": "following simple good habits",
            "search": "looking ahead (playing each likely move out in imagined games first)"}
    shown = [ways[b] for b in ("random", "heuristic", "search") if b in bots and b in WAYS]
    if not decisions:
        lead += " (nobody ever has a choice in this game, so every player plays alike)"
    elif len(shown) > 1:
        count = {2: "two", 3: "three"}.get(len(shown), str(len(shown)))
        lead += f", playing in one of {count} ways: " + ", ".join(shown[:-1]) + \
            f" or {shown[-1]}"
    lead += "."
    precision = figures.get("precision")
    if precision:
        search = figures.get("search_games")
        cap = f"{figures.get('games', 0):,} games"
        if decisions and "search" in bots and search:
            cap += f" ({search:,} for the player who looks ahead, who is slow)"
        lead += (f" Each line-up was played until every figure's 95 % interval (in brackets: "
                 f"the range the true figure lies in, 19 times in 20) was at most "
                 f"{100 * precision:g} points wide, or for at most {cap}; a figure that did "
                 f"not get there says it is too close to call.")
    else:
        lead += (" Each figure is followed by its 95 % interval in brackets: the range the "
                 "true figure lies in, 19 times in 20.")
    return lead


def numbers_view(figures: dict | None, slug: str, accent: str,
                 options: dict[str, str] | None = None, stale: bool = False) -> NumbersView | None:
    """The "By the numbers" section of one game, or None without figures. ``options``: the
    printed name of each option (game.yaml's ``label``), for the option values' lines;
    ``stale``: the figures are from an earlier version of the game (marked as such)."""
    if not figures:
        return None
    from ..lab import text as t
    from ..lab.simulate import headline, playing_time

    v = figures["variants"][0]
    seat = headline(figures)
    if seat is None:
        return None
    precision = figures.get("precision") or t.PRECISION
    rw = figures.get("round_word", "round")
    minutes = playing_time(figures)
    decisions = v["decisions"]
    total = sum(x["games"] for ov in figures["variants"] for x in ov["seats"] + ov["skill"])
    nv = NumbersView(lead=_lead(figures, total, decisions, v.get("bots", [])),
                     time=minutes["short"] if minutes else "",
                     stale=stale, stale_note=STALE_NOTE if stale else "")
    who = t.playing(seat["bot"], decisions)
    if seat["rounds"]["shortest"] == seat["rounds"]["longest"]:
        n = seat["rounds"]["longest"]
        nv.notes.append(f"Every one of {seat['games']:,} games lasted exactly {n:,} "
                        f"{rw}{'s' if n != 1 else ''}"
                        + (f": {minutes['short']} at the table." if minutes else "."))
    else:
        nv.charts.append(Chart(
            f"{slug}-length", f"How long a game lasts ({who})",
            Markup(length_chart(seat, rw, accent, f"chart-{slug}-length")),
            t.length_sentence(seat, rw, minutes)))
    rows = [(f"Player {i + 1}", w) for i, w in enumerate(seat["wins"])]
    fair = (1 - seat["draws"]["rate"]) / len(rows)
    nv.charts.append(Chart(
        f"{slug}-seats", f"Wins by seat ({who})",
        Markup(rate_chart(rows, fair, accent, f"chart-{slug}-seats", "games won (%)")),
        t.seat_sentence(seat, precision, decisions)))
    if decisions and v["skill"]:
        short = t.SHORT
        rows = [(f"{short.get(k['bot'], k['bot'])} v {short.get(k['against'], k['against'])}",
                 k.get("decided", k["wins"]) if k["draws"]["count"] else k["wins"])
                for k in v["skill"]]
        sentence = " ".join(t.skill_sentence(k, precision) for k in v["skill"])
        nv.charts.append(Chart(
            f"{slug}-skill", "Skill: one way of playing against another, seats taken in turn",
            Markup(rate_chart(rows, v["skill"][0]["fair"], accent, f"chart-{slug}-skill",
                              "games won by the first, of those someone won (%)")), sentence))
    elif not decisions:
        nv.notes.append("No player ever has a choice in this game: the deal decides every "
                        "game, so there is no skill edge to measure.")
    draws = t.draws_sentence(seat)
    if draws:
        nv.notes.append(draws)
    decided = t.decisive_sentence(seat, rw)
    if decided:
        nv.notes.append(decided)
    labels = options or {}
    for ov in figures["variants"][1:]:
        s = next((x for x in ov["seats"] if x["bot"] == seat["bot"]), None) or \
            (ov["seats"][0] if ov["seats"] else None)
        if s is None or "median" not in s["rounds"]:
            continue
        changed = ov.get("options") or {}
        if len(changed) == 1:
            (name, value), = changed.items()
            words = t.option_words(name, value, labels.get(name))
        else:  # never for the books' figures (one option value at a time)
            words = ", ".join(t.option_words(k, x, labels.get(k)) for k, x in changed.items())
        nv.options.append(t.option_sentence(s, rw, words, precision))
    for c in nv.charts:
        c.svg = Markup(_titled(str(c.svg), f"{c.title}. {c.reading}"))
    return nv
