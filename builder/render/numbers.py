""""By the numbers": the balance lab's figures (builder/lab) as charts and plain sentences,
for the rulebooks and the website alike.

The charts are drawn by **pygal** (a small, pure-Python SVG charting library, kept up by
Kozea, the makers of WeasyPrint): SVG with its words kept as ``<text>``, set in the book's
sans-serif face (Cabin) through the chart's own style sheet, so they are searchable and
sharp in print and on screen. pygal writes a configuration script and comments into every
chart for its interactive tooltips; :func:`_clean` takes them out (no script reaches a
PDF or the site) and replaces pygal's random chart id with a fixed one, so a build writes
the same bytes every time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
    notes: list[str] = field(default_factory=list)  # further sentences (per option value)
    time: str = ""  # "12 minutes, 90 % within 15 minutes", or "" without seconds_per_round


_ID = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _clean(svg: str, chart_id: str) -> str:
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = _ID.sub(chart_id, svg)
    svg = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", chart_id, svg)
    if "<script" in svg or "javascript:" in svg:  # never: checked, not assumed
        raise ValueError("a chart still holds a script")
    return svg


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
    return _clean(c.render(is_unicode=True), chart_id)


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
    return _clean(svg, chart_id)


def numbers_view(figures: dict | None, slug: str, accent: str) -> NumbersView | None:
    """The "By the numbers" section of one game, or None without figures."""
    if not figures:
        return None
    from ..lab.simulate import headline, playing_time
    from ..lab.text import length_sentence, pct, seat_sentence, skill_sentence

    v = figures["variants"][0]
    seat = headline(figures)
    if seat is None:
        return None
    rw = figures.get("round_word", "round")
    minutes = playing_time(figures)
    lead = (f"warbook played this game {sum(s['games'] for s in v['seats']) + sum(k['games'] for k in v['skill']):,} "
            f"times on its reference engine, with bots in the players' seats. Each figure "
            f"comes with its 95 % interval.")
    nv = NumbersView(lead=lead, time=minutes["short"] if minutes else "")
    if seat["rounds"]["shortest"] == seat["rounds"]["longest"]:
        n = seat["rounds"]["longest"]
        nv.notes.append(f"Every game lasts exactly {n:,} {rw}{'s' if n != 1 else ''}"
                        + (f": {minutes['short']} at the table." if minutes else "."))
    else:
        nv.charts.append(Chart(
            f"{slug}-length", f"How long a game lasts ({seat['bot']} bots)",
            Markup(length_chart(seat, rw, accent, f"chart-{slug}-length")),
            length_sentence(seat, rw, minutes)))
    rows = [(f"Player {i + 1}", w) for i, w in enumerate(seat["wins"])]
    fair = (1 - seat["draws"]["rate"]) / len(rows)
    nv.charts.append(Chart(
        f"{slug}-seats", f"Wins by seat ({seat['bot']} bots in every seat)",
        Markup(rate_chart(rows, fair, accent, f"chart-{slug}-seats", "games won (%)")),
        seat_sentence(seat)))
    if v["decisions"] and v["skill"]:
        rows = [(f"{k['bot']} v {k['against']}", k.get("decided", k["wins"]))
                for k in v["skill"]]
        sentence = " ".join(skill_sentence(k) for k in v["skill"])
        nv.charts.append(Chart(
            f"{slug}-skill", "Skill: one bot against another, seats alternated",
            Markup(rate_chart(rows, v["skill"][0]["fair"], accent, f"chart-{slug}-skill",
                              "decided games won by the first bot (%)")), sentence))
    elif not v["decisions"]:
        nv.notes.append("No player ever has a choice in this game: the deal decides every "
                        "game, so there is no skill edge to measure.")
    if seat["draws"]["count"] or seat["cap"]["count"]:
        nv.notes.append(f"Draws: {pct(seat['draws']['rate'])} of games; the cap ended "
                        f"{pct(seat['cap']['rate'])}.")
    for ov in figures["variants"][1:]:
        s = next((x for x in ov["seats"] if x["bot"] == seat["bot"]), None) or \
            (ov["seats"][0] if ov["seats"] else None)
        if s is None or "median" not in s["rounds"]:
            continue
        best = max(s["wins"], key=lambda r: r["rate"])
        nv.notes.append(
            f"With the option {ov['label']} ({ov['players']} players): half the games end within "
            f"{s['rounds']['median']['value']:,} {rw}s, nine in ten within "
            f"{s['rounds']['p90']['value']:,}; the best seat wins {pct(best['rate'])}, "
            f"draws {pct(s['draws']['rate'])}.")
    return nv
