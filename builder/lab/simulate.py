"""The figures of one game: length, draws, cap hits, seat edge and skill edge, with 95 %
intervals, for the game as printed and for each value of each of its options.

* **Seat edge**: every seat played by the same bot; each seat's win rate.
* **Skill edge**: one bot against copies of another, its seat turning from game to game;
  its win rate (fair would be one game in as many as there are players).
* **Length**: steps (every decision and chance event) and rounds (the engine's count:
  tricks, battles, turns) of the games between equal bots.
"""

from __future__ import annotations

from typing import Any

from ..engine.core import GameDef
from ..model import Game
from . import stats
from .bots import LADDER, LabError, ladder
from .run import Lineup, play_many

#: games per line-up for the search bot, which thinks for a while every decision
SEARCH_GAMES = 200


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
         strict: bool = True) -> list[dict]:
    """The variants to play: the game as printed, then one per option value."""
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
        out.append({"label": label, "changed": changed, "options": opts,
                    "decisions": decisions, "bots": wanted,
                    "seat_bots": [b for b in wanted if search_seats or b != "search"],
                    "players": _players(gamedef, opts)})
    return out


def simulate(game: Game, games: int = 2000, bots: list[str] | None = None, seed: int = 0,
             workers: int | None = None, per_option: bool = True,
             search_games: int | None = None, confidence: float = 0.95,
             option_games: int | None = None, search_seats: bool = True,
             strict: bool = True, pairs: str | set[tuple[str, str]] = "all") -> dict:
    """Play the figures' games and return them as plain data (JSON-ready, the same for a
    seed whatever the number of workers).

    ``pairs`` says which skill line-ups to play: ``"all"`` (every bot against every weaker
    one), ``"steps"`` (each bot against the one just below it on the ladder: random <
    heuristic < search, as the books print) or a set of ``(bot, against)`` pairs (either
    order; what balance claims name)."""
    gamedef: GameDef = game.gamedef
    if gamedef is None:
        raise LabError(f"{game.slug}: its engine could not be loaded")
    variants = plan(game, bots, per_option, search_seats, strict)
    search_games = min(games, SEARCH_GAMES) if search_games is None else search_games
    jobs, keys = [], []
    for vi, v in enumerate(variants):
        n = v["players"]
        per = games if vi == 0 or option_games is None else option_games
        for b in v["seat_bots"]:
            count = search_games if b == "search" else per
            jobs.append((gamedef, v["options"], seed, Lineup(f"{vi}/seat/{b}", (b,) * n), count))
            keys.append((vi, "seat", b, None))
        ranked = v["bots"] if v["decisions"] else []
        for i, strong in enumerate(ranked):
            for weak in ranked[:i]:
                if not _wanted(pairs, strong, weak, ranked):
                    continue
                count = search_games if "search" in (strong, weak) else per
                lineup = Lineup(f"{vi}/skill/{strong}/{weak}", (strong,) + (weak,) * (n - 1),
                                rotate=True)
                jobs.append((gamedef, v["options"], seed, lineup, count))
                keys.append((vi, "skill", strong, weak))
    records = play_many(jobs, workers)
    out_variants = []
    for v in variants:
        out_variants.append({"label": v["label"], "options": dict(v["changed"]),
                             "decisions": v["decisions"], "players": v["players"],
                             "bots": v["bots"], "seats": [], "skill": []})
    for (vi, what, a, b), recs in zip(keys, records):
        target = out_variants[vi]
        n = target["players"]
        if what == "seat":
            target["seats"].append(seat_figures(a, recs, n, confidence))
        else:
            target["skill"].append(skill_figures(a, b, recs, n, confidence))
    report = {
        "game": game.slug, "title": game.title, "engine": game.engine or gamedef.slug,
        "seed": seed, "games": games, "search_games": search_games,
        "option_games": option_games if option_games is not None else games,
        "confidence": confidence, "round_word": gamedef.round_word,
        "variants": out_variants,
    }
    if game.balance is not None and game.balance.seconds_per_round:
        report["seconds_per_round"] = game.balance.seconds_per_round
    return report


def _wanted(pairs: str | set[tuple[str, str]], strong: str, weak: str,
            ranked: list[str]) -> bool:
    if pairs == "all":
        return True
    if pairs == "steps":
        return ranked.index(strong) == ranked.index(weak) + 1
    return (strong, weak) in pairs or (weak, strong) in pairs


def seat_figures(bot: str, recs: list, n: int, confidence: float) -> dict:
    games = len(recs)
    return {
        "bot": bot, "games": games,
        "wins": [stats.rate(sum(1 for r in recs if r[2] == s), games, confidence)
                 for s in range(n)],
        "draws": stats.rate(sum(1 for r in recs if r[2] < 0), games, confidence),
        "cap": stats.rate(sum(1 for r in recs if r[3]), games, confidence),
        "steps": stats.distribution([r[0] for r in recs], confidence),
        "rounds": stats.distribution([r[1] for r in recs], confidence),
    }


def skill_figures(strong: str, weak: str, recs: list, n: int, confidence: float) -> dict:
    """``strong`` sat in seat ``i mod n`` in game ``i`` (see :class:`Lineup`)."""
    games = len(recs)
    wins = sum(1 for i, r in enumerate(recs) if r[2] == i % n)
    draws = sum(1 for r in recs if r[2] < 0)
    return {"bot": strong, "against": weak, "games": games, "fair": round(1 / n, 6),
            "wins": stats.rate(wins, games, confidence),
            "draws": stats.rate(draws, games, confidence),
            # the share of the games someone won: where many games are drawn, a bot can win
            # fewer than half of all games and still win twice as often as it loses
            "decided": stats.rate(wins, games - draws, confidence)}


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
BOOK_POLICY = "steps ladder; 2000 games a line-up as printed, 300 an option value, 60 with search"


def book_report(game: Game, workers: int | None = None) -> dict:
    """The figures every rulebook and game page prints: the ladder's steps for the game as
    printed and for each option value, seed 0 (``warbook simulate`` with the same seed and
    sizes gives the same figures). ``WARBOOK_LAB_GAMES=N`` caps every size at N."""
    from .figures import SEED, sizes

    games, option_games, search_games = sizes()
    return simulate(game, games=games, option_games=option_games, seed=SEED,
                    bots=["random", "heuristic", "search"], workers=workers,
                    search_games=search_games, search_seats=False, strict=False,
                    pairs="steps")
