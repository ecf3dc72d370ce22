"""The figures of one game: length, draws, cap hits, seat edge and skill edge, with 95 %
intervals, for the game as printed and for each value of each of its options.

* **Seat edge**: every seat played by the same bot; each seat's win rate.
* **Skill edge**: one bot against copies of another, its seat turning from game to game;
  its win rate (fair would be one game in as many as there are players).
* **Length**: steps (every decision and chance event) and rounds (the engine's count:
  tricks, battles, turns) of the games between equal bots.

**Adaptive sampling** (``precision``): a line-up is played in rounds of whole chunks and
stops as soon as every rate it states (each seat's wins, the draws, the cap hits; a skill
line-up's wins, draws and share of the decided games) has a 95 % interval no wider than
``precision``, or at its cap. Game ``i`` of a line-up is the same game whatever was played
before it (:mod:`.run`), and a line-up's stop depends on its own games alone, so a seed
gives the same figures whatever the number of workers. A figure whose line-up reached its
cap first carries ``"precise": false`` (``"most"``: its cap) and the books print it as
such ("too close to call").
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Callable

from ..engine.core import GameDef
from ..model import Game
from . import stats
from .bots import LADDER, LabError, ladder
from .run import CHUNK, SEARCH_CHUNK, Lineup, play_many, play_ranges, searches

if TYPE_CHECKING:
    from .executor import Executor

#: games per line-up for the search bot, which thinks for a while every decision
SEARCH_GAMES = 200

#: the books' precision: every stated rate's 95 % interval at most 5 points wide (a share)
PRECISION = 0.05
#: the books' caps: games per line-up, and per line-up with the (slow) search bot in it
BOOK_CAP = 3200
BOOK_SEARCH_CAP = 60
#: the first round of a line-up, and the smallest step after it: whole chunks of
#: :mod:`.run` (200 games; 5 with the search bot)
FIRST, SEARCH_FIRST = CHUNK, 4 * SEARCH_CHUNK


def option_values(game: Game) -> list[tuple[str, Any]]:
    """(option, value) for every printed option value other than the default: each
    choice of a choice option; for a number option, the values the engine tests."""
    gamedef: GameDef = game.gamedef
    out = []
    for info in game.options:
        spec = gamedef.options.get(info.name)
        if spec is None:
            continue
        if spec.choices is not None:
            values = list(spec.choices)
        else:
            values = sorted({s[info.name] for s in gamedef.option_sets if info.name in s},
                            key=str)
        for v in values:
            if v != info.default:
                out.append((info.name, v))
    return out


def _players(gamedef: GameDef, options: dict[str, Any]) -> int:
    import random
    return len(gamedef.new_game(options, random.Random(0)).players)


def plan(game: Game, bots: list[str] | None, per_option: bool, search_seats: bool = True,
         strict: bool = True, printed: bool = False) -> list[dict]:
    """The variants to play: the game as printed, then one per option value. ``printed``
    (the books): only the line-ups a book prints, the seats of the headline bot (the best
    short of search, :func:`headline`) and, for the game as printed, the skill steps."""
    gamedef: GameDef = game.gamedef
    base = gamedef.resolve(game.option_defaults())
    variants = [("as printed", {}, base)]
    if per_option:
        for name, v in option_values(game):
            variants.append((f"{name}: {v}", {name: v}, gamedef.resolve({**base, name: v})))
    out = []
    for vi, (label, changed, opts) in enumerate(variants):
        available = ladder(gamedef, opts)
        wanted = list(bots) if bots else [b for b in available if b != "search"]
        if not strict:  # the books' figures: what the ladder has; search for the game as printed
            wanted = [b for b in wanted if b in available and (vi == 0 or b != "search")]
        for b in wanted:
            if b not in LADDER:
                raise LabError(f"unknown bot '{b}' (the ladder: {', '.join(LADDER)})")
        decisions = len(available) > 1
        if not decisions:
            if bots and strict and any(b != "random" for b in bots):
                raise LabError(f"{game.slug} has no decisions (no player ever has a choice), "
                               f"so only the random bot plays it")
            wanted = ["random"]
        else:
            missing = [b for b in wanted if b not in available]
            if missing:
                raise LabError(f"{game.slug} has no {missing[0]} bot (its ladder: "
                               f"{', '.join(available)})")
        seat_bots = [b for b in wanted if search_seats or b != "search"]
        if printed:
            seat_bots = [b for b in ("heuristic", "random") if b in seat_bots][:1]
        out.append({"label": label, "changed": changed, "options": opts,
                    "decisions": decisions, "bots": wanted, "seat_bots": seat_bots,
                    "skill": not printed or vi == 0,
                    "players": _players(gamedef, opts)})
    return out


def simulate(game: Game, games: int = 2000, bots: list[str] | None = None, seed: int = 0,
             workers: int | None = None, per_option: bool = True,
             search_games: int | None = None, confidence: float = 0.95,
             option_games: int | None = None, search_seats: bool = True,
             strict: bool = True, pairs: str | set[tuple[str, str]] = "all",
             precision: float | None = None, printed: bool = False,
             executor: Executor | None = None) -> dict:
    """Play the figures' games and return them as plain data (JSON-ready, the same for a
    seed whatever the number of workers, and whatever plays them: ``executor``, such as a
    Dask cluster (:mod:`.executor`); None: the local pool of ``workers``).

    ``pairs`` says which skill line-ups to play: ``"all"`` (every bot against every weaker
    one), ``"steps"`` (each bot against the one just below it on the ladder: random <
    heuristic < search, as the books print) or a set of ``(bot, against)`` pairs (either
    order; what balance claims name).

    Without ``precision`` every line-up plays exactly ``games`` games (``option_games`` for
    an option value, ``search_games`` with the search bot). With it (a share: 0.05 is an
    interval 5 points wide) those counts are caps, and each line-up stops as soon as every
    rate it states is that precise (see the module's comment)."""
    gamedef: GameDef = game.gamedef
    if gamedef is None:
        raise LabError(f"{game.slug}: its engine could not be loaded")
    variants = plan(game, bots, per_option, search_seats, strict, printed)
    if executor is not None:
        executor = executor.for_game(game)
    search_games = min(games, SEARCH_GAMES) if search_games is None else search_games
    lead = gamedef.lead is not None
    jobs, keys, caps = [], [], []
    for vi, v in enumerate(variants):
        n = v["players"]
        per = games if vi == 0 or option_games is None else option_games
        for b in v["seat_bots"]:
            count = search_games if b == "search" else per
            jobs.append((gamedef, v["options"], seed, Lineup(f"{vi}/seat/{b}", (b,) * n)))
            keys.append((vi, "seat", b, None))
            caps.append(count)
        ranked = v["bots"] if v["decisions"] and v.get("skill", True) else []
        for i, strong in enumerate(ranked):
            for weak in ranked[:i]:
                if not _wanted(pairs, strong, weak, ranked):
                    continue
                count = search_games if "search" in (strong, weak) else per
                lineup = Lineup(f"{vi}/skill/{strong}/{weak}", (strong,) + (weak,) * (n - 1),
                                rotate=True)
                jobs.append((gamedef, v["options"], seed, lineup))
                keys.append((vi, "skill", strong, weak))
                caps.append(count)

    def figures_of(j: int, recs: list) -> dict:
        vi, what, a, b = keys[j]
        n = variants[vi]["players"]
        if what == "seat":
            return seat_figures(a, recs, n, confidence, lead)
        return skill_figures(a, b, recs, n, confidence, lead)

    if precision is None:
        records = play_many([job + (c,) for job, c in zip(jobs, caps)], workers,
                            executor=executor)
    else:
        records = play_until(jobs, caps, figures_of, precision, confidence, workers,
                             executor=executor)
    out_variants = []
    for v in variants:
        out_variants.append({"label": v["label"], "options": dict(v["changed"]),
                             "decisions": v["decisions"], "players": v["players"],
                             "bots": v["bots"], "seats": [], "skill": []})
    for j, recs in enumerate(records):
        vi, what, _, _ = keys[j]
        fig = figures_of(j, recs)
        if precision is not None:
            fig["precise"] = widest(fig) <= precision + EPS
            fig["most"] = caps[j]  # the line-up's cap
        out_variants[vi]["seats" if what == "seat" else "skill"].append(fig)
    report = {
        "game": game.slug, "title": game.title, "engine": game.engine or gamedef.slug,
        "seed": seed, "games": games, "search_games": search_games,
        "option_games": option_games if option_games is not None else games,
        "confidence": confidence, "round_word": gamedef.round_word,
        "lead": lead, "variants": out_variants,
    }
    if precision is not None:
        report["precision"] = precision
    if game.balance is not None and game.balance.seconds_per_round:
        report["seconds_per_round"] = game.balance.seconds_per_round
    return report


#: the search bots' budgets (rollouts per candidate) of the skill trace, each played
#: against the one before it
TRACE_BUDGETS = (1, 2, 4, 8)


def skill_trace(game: Game, budgets: tuple[int, ...] | list[int] = TRACE_BUDGETS,
                games: int = SEARCH_GAMES, seed: int = 0, workers: int | None = None,
                confidence: float = 0.95, executor: Executor | None = None) -> dict:
    """The skill trace of the game as printed: the search bot of each budget (``search:N``,
    N rollouts per candidate) against copies of the one of the budget before it, seats
    taken in turn, ``games`` games each (a skill line-up's figures, :func:`skill_figures`).
    A trace that climbs while the budget doubles says that thinking harder keeps paying;
    one that falls to the fair share says the game's skill is used up. Expensive (search
    bots on every seat), so ``warbook simulate --skill-trace`` asks for it. ``why``: why
    nothing was played (a game without decisions, or without a search bot)."""
    gamedef: GameDef = game.gamedef
    if gamedef is None:
        raise LabError(f"{game.slug}: its engine could not be loaded")
    budgets = sorted(set(budgets))
    if len(budgets) < 2 or budgets[0] < 1:
        raise LabError("a skill trace needs two budgets or more, each of 1 rollout or more")
    options = gamedef.resolve(game.option_defaults())
    n = _players(gamedef, options)
    out: dict[str, Any] = {"budgets": budgets, "games": games, "players": n, "steps": []}
    available = ladder(gamedef, options)
    if "search" not in available:
        out["why"] = ("no player ever has a choice" if len(available) == 1 else
                      "the engine has no search bot (it does not say which cards a player "
                      "cannot see)")
        return out
    if executor is not None:
        executor = executor.for_game(game)
    jobs = []
    for weak, strong in zip(budgets, budgets[1:]):
        a, b = f"search:{strong}", f"search:{weak}"
        jobs.append((gamedef, options, seed, Lineup(f"trace/{a}/{b}", (a,) + (b,) * (n - 1),
                                                    rotate=True), games))
    records = play_many(jobs, workers, executor=executor)
    lead = gamedef.lead is not None
    for job, recs in zip(jobs, records):
        lineup = job[3]
        out["steps"].append(skill_figures(lineup.bots[0], lineup.bots[1], recs, n,
                                          confidence, lead))
    return out


#: a rounding allowance for comparing widths (the rates are rounded to 6 places)
EPS = 1e-9


def stated_rates(fig: dict) -> list[dict]:
    """The rates a line-up's figures state: each seat's wins, the draws and the cap hits of
    a seat line-up; the wins and draws of a skill line-up and, where games were drawn, the
    share of the decided ones it won (none where every game was drawn: nothing to state)."""
    if "against" not in fig:
        return [*fig["wins"], fig["draws"], fig["cap"]]
    out = [fig["wins"], fig["draws"]]
    if fig["draws"]["count"] and fig.get("decided", {}).get("games"):
        out.append(fig["decided"])
    return out


def width(r: dict) -> float:
    return r["high"] - r["low"]


def widest(fig: dict) -> float:
    """The widest interval among the rates a line-up states."""
    return max(width(r) for r in stated_rates(fig))


def next_size(played: int, rates: list[dict], precision: float, cap: int, step: int,
              confidence: float = 0.95) -> int:
    """How many games a line-up that is not yet precise should have played after its next
    round: the games its least precise rate needs (from the normal approximation of its
    interval, ``(2 z)^2 p (1 - p) / precision^2``, scaled up where the rate counts only some
    games: the decided ones), rounded up to whole steps, at least one step more and at most
    twice as many as now, and never past the cap. From the games played alone, so the same
    whatever the number of workers."""
    z = stats.z_for(confidence)
    need = played + step
    for r in rates:
        if width(r) <= precision + EPS or not r["games"]:
            continue
        p = min(max(r["rate"], 1 / (r["games"] + 1)), 1 - 1 / (r["games"] + 1))
        base = (2 * z) ** 2 * p * (1 - p) / precision ** 2
        need = max(need, math.ceil(base * played / r["games"]))
    need = -(-need // step) * step
    return min(cap, max(played + step, min(need, 2 * played)))


def play_until(jobs: list[tuple], caps: list[int], figures_of: Callable[[int, list], dict],
               precision: float, confidence: float = 0.95,
               workers: int | None = None, executor: Executor | None = None) -> list[list]:
    """Play each job (engine, options, seed, line-up) in rounds until the rates its figures
    state (``figures_of(job, records)``) are within ``precision`` or it reaches its cap;
    every open line-up plays its next round in one batch, so both cores stay busy (or the
    ``executor``'s workers)."""
    on = {"executor": executor} if executor is not None else {}
    records: list[list] = [[] for _ in jobs]
    steps = [SEARCH_CHUNK if searches(job[3].bots) else CHUNK for job in jobs]
    target = [min(cap, SEARCH_FIRST if step == SEARCH_CHUNK else FIRST)
              for cap, step in zip(caps, steps)]
    open_ = [j for j in range(len(jobs)) if caps[j] > 0]
    while open_:
        got = play_ranges([(jobs[j], len(records[j]), target[j]) for j in open_], workers, **on)
        still = []
        for j, recs in zip(open_, got):
            records[j].extend(recs)
            n = len(records[j])
            if n >= caps[j]:
                continue
            rates = stated_rates(figures_of(j, records[j]))
            if all(width(r) <= precision + EPS for r in rates):
                continue
            target[j] = next_size(n, rates, precision, caps[j], steps[j], confidence)
            still.append(j)
        open_ = still
    return records


def _wanted(pairs: str | set[tuple[str, str]], strong: str, weak: str,
            ranked: list[str]) -> bool:
    if pairs == "all":
        return True
    if pairs == "steps":
        return ranked.index(strong) == ranked.index(weak) + 1
    return (strong, weak) in pairs or (weak, strong) in pairs


def seat_figures(bot: str, recs: list, n: int, confidence: float,
                 lead: bool = False) -> dict:
    """A seat line-up's figures, with its design metrics (:func:`design_metrics`); ``lead``:
    whether the engine has a lead measure (``GameDef.lead``)."""
    games = len(recs)
    return {
        "bot": bot, "games": games,
        "wins": [stats.rate(sum(1 for r in recs if r[2] == s), games, confidence)
                 for s in range(n)],
        "draws": stats.rate(sum(1 for r in recs if r[2] < 0), games, confidence),
        "cap": stats.rate(sum(1 for r in recs if r[3]), games, confidence),
        "steps": stats.distribution([r[0] for r in recs], confidence),
        "rounds": stats.distribution([r[1] for r in recs], confidence),
        **design_metrics(recs, confidence, lead),
    }


def skill_figures(strong: str, weak: str, recs: list, n: int, confidence: float,
                  lead: bool = False) -> dict:
    """``strong`` sat in seat ``i mod n`` in game ``i`` (see :class:`Lineup`)."""
    games = len(recs)
    wins = sum(1 for i, r in enumerate(recs) if r[2] == i % n)
    draws = sum(1 for r in recs if r[2] < 0)
    return {"bot": strong, "against": weak, "games": games, "fair": round(1 / n, 6),
            "wins": stats.rate(wins, games, confidence),
            "draws": stats.rate(draws, games, confidence),
            # the share of the games someone won: where many games are drawn, a bot can win
            # fewer than half of all games and still win twice as often as it loses
            "decided": stats.rate(wins, games - draws, confidence),
            **design_metrics(recs, confidence, lead)}


def design_metrics(recs: list, confidence: float = 0.95, lead: bool = False) -> dict:
    """The Ludii-style design metrics of a line-up's games (docs/balance.md, "Design
    metrics"), each with its interval; seat balance, drawishness and duration are the
    figures' ``wins``, ``draws``, ``steps`` and ``rounds``.

    * ``completion``: the share of games that ended before the cap (Wilson).
    * ``branching``: each game's mean number of legal choices per listed decision (one
      decision per deciding player at a decision node, a forced one counting 1; the
      number is the choice's ``size()``, what its ``enumerate()`` lists), then their mean
      over the games with a normal interval; ``decisions``: the listed decisions of all
      games; ``unlisted``: those whose choice is too large to list (sampled choices, such
      as a set of cards to keep: 13 of 26 is ten million ways, which would swamp every
      other decision), left out of the mean. No games (``"games": 0``): nothing counted,
      as where the engine's ``fast_random`` played the games without counting them.
    * ``decisiveness`` (None where the engine has no lead measure, ``GameDef.lead``): for
      each game someone won, the share of its steps played before the winner led for good
      (0: it led from the deal; 1: only the last step put it ahead); the mean, with a
      normal interval, and the median, with a distribution-free one.

    Records of four fields (steps, rounds, winner, capped) carry no metrics: their games
    count for completion alone."""
    games = len(recs)
    full = [r for r in recs if len(r) >= 8]
    per_game = [r[4] / r[5] for r in full if r[5]]
    out: dict[str, Any] = {
        "completion": stats.rate(sum(1 for r in recs if not r[3]), games, confidence),
        "branching": {**stats.mean_interval(per_game, confidence),
                      "decisions": sum(r[5] for r in full),
                      "unlisted": sum(r[6] for r in full)},
        "decisiveness": None,
    }
    if lead:
        shares = [round(r[7] / r[0], 6) for r in full if r[7] >= 0 and r[0] > 0]
        out["decisiveness"] = {"games": len(shares),
                               "mean": stats.mean_interval(shares, confidence, (0.0, 1.0)),
                               "median": stats.median_interval(shares, confidence)}
    return out


def headline(report: dict, variant: int = 0) -> dict | None:
    """The seat figures of the game as printed between the best equal players the ladder
    has short of search (heuristic where there are decisions, else random)."""
    v = report["variants"][variant]
    for want in ("heuristic", "random"):
        for s in v["seats"]:
            if s["bot"] == want:
                return s
    return v["seats"][0] if v["seats"] else None


def playing_time(report: dict, variant: int = 0) -> dict | None:
    """Median and 90th-percentile minutes at the table, from the rounds of the headline
    games and the game's seconds per round."""
    sec = report.get("seconds_per_round")
    h = headline(report, variant)
    if not sec or h is None or "median" not in h["rounds"]:
        return None
    med = h["rounds"]["median"]["value"] * sec / 60
    p90 = h["rounds"]["p90"]["value"] * sec / 60
    if _minutes(med) == _minutes(p90):
        return {"median": med, "p90": p90, "text": f"about {_minutes(med)}",
                "short": f"about {_minutes(med)}"}
    return {"median": med, "p90": p90, "text": f"{_minutes(med)} (9 games in 10 within "
            f"{_minutes(p90)})", "short": f"{_minutes(med)}, 90 % within {_minutes(p90)}"}


def _minutes(m: float) -> str:
    if m < 1:
        return "under a minute"
    if m < 90:
        n = round(m)
        return f"{n} minute{'s' if n != 1 else ''}"
    h = m / 60
    return f"{h:.1f} hours".replace(".0 ", " ")


#: what the books' figures are played with (part of the figures' key: a change of policy
#: measures every game again)
BOOK_POLICY = (f"printed line-ups (the headline bot's seats, the ladder's steps as printed, "
               f"search as printed only); each line-up in rounds of whole chunks ({FIRST} "
               f"games, then up to twice as many) until every stated rate's 95 % interval is "
               f"at most {PRECISION * 100:g} points wide, or {BOOK_CAP} games ({BOOK_SEARCH_CAP}"
               f" with search, first round {SEARCH_FIRST})")


#: the books' figures' seed (``warbook simulate GAME`` without ``--seed`` plays the same)
BOOK_SEED = 0


def env_cap() -> int | None:
    """``WARBOOK_LAB_GAMES`` as a positive whole number: every line-up of the books'
    figures is capped at it (the test suite sets 150); None (unset, or not a positive
    number): the full policy."""
    text = (os.environ.get("WARBOOK_LAB_GAMES") or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def book_report(game: Game, workers: int | None = None, cap: int | None = None,
                seed: int | None = None, per_option: bool = True,
                precision: float = PRECISION, executor: Executor | None = None) -> dict:
    """The figures every rulebook and game page prints: the ladder's steps for the game as
    printed and the headline seats for each option value, each line-up played until its
    stated rates are within ``precision`` or :data:`BOOK_CAP` games (:data:`BOOK_SEARCH_CAP`
    with the search bot); seed 0 unless given. ``warbook simulate GAME`` prints the same
    figures. ``cap`` caps every line-up at that many games (None: ``WARBOOK_LAB_GAMES``, if
    set, which the test suite sets to 150). ``executor``: where to play them (None: the
    local pool of ``workers``)."""
    if cap is None:
        cap = env_cap()
    games, search_games = BOOK_CAP, BOOK_SEARCH_CAP
    if cap is not None:
        games, search_games = min(games, cap), min(search_games, cap)
    return simulate(game, games=games, option_games=games, seed=BOOK_SEED if seed is None else seed,
                    bots=["random", "heuristic", "search"], workers=workers,
                    search_games=search_games, search_seats=False, strict=False,
                    pairs="steps", precision=precision, printed=True, per_option=per_option,
                    executor=executor)
