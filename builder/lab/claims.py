"""Testing a game's balance claims (``balance.claims`` in game.yaml) against played games.

A claim fails only when the data **contradict** it at the claim's confidence: the whole
interval of the measured rate lies on the wrong side of the claimed bound (a rate claimed
at most 52 % whose interval starts above 52 %). A claim the games cannot yet tell apart
from its bound holds; more games narrow the interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..model import Claim, Game
from . import stats
from .bots import LabError
from .simulate import simulate

if TYPE_CHECKING:
    from .executor import Executor

DEFAULT_GAMES = 2000


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@dataclass
class Verdict:
    claim: Claim
    holds: bool
    said: str  # the claim in words
    measured: str  # the figure, with its interval and sample

    def diagnostic(self) -> Diagnostic:
        return Diagnostic.at(self.claim.where, f"balance claim not borne out: {self.said}; "
                             f"measured: {self.measured}")


def _equal_bots(claim: Claim, decisions: bool) -> str:
    return claim.bots or ("heuristic" if decisions else "random")


def bots_needed(game: Game, decisions: bool) -> list[str]:
    want = {"random"}
    for c in game.balance.claims if game.balance else []:
        if c.kind == "skill":
            want.update((c.bots, c.against))
        else:
            want.add(_equal_bots(c, decisions))
    return [b for b in ("random", "heuristic", "search") if b in want]


def plays_search(game: Game) -> bool:
    """Whether the game's claims have the search bot play (so ``--search-games`` counts)."""
    return any("search" in (c.bots, c.against)
               for c in (game.balance.claims if game.balance else []))


def _interval(x: dict, conf: float) -> tuple[float, float]:
    return stats.wilson(x["count"], x["games"], conf)


def judge(claim: Claim, report: dict) -> Verdict:
    v = report["variants"][0]
    conf = claim.confidence
    cw = f"{round(conf * 100, 1):g}%"
    seats = {s["bot"]: s for s in v["seats"]}

    def bound(count: int, games: int) -> tuple[bool, str]:
        lo, hi = stats.wilson(count, games, conf)
        text = f"{_pct(count / games)} ({cw} interval {_pct(lo)} to {_pct(hi)})"
        ok = True
        if claim.at_least is not None and hi < claim.at_least:
            ok = False
        if claim.at_most is not None and lo > claim.at_most:
            ok = False
        return ok, text

    def limits() -> str:
        parts = []
        if claim.at_least is not None:
            parts.append(f"at least {_pct(claim.at_least)}")
        if claim.at_most is not None:
            parts.append(f"at most {_pct(claim.at_most)}")
        return " and ".join(parts)

    if claim.kind == "skill":
        if not v["decisions"]:
            raise LabError(f"{report['game']} has no decisions, so no bot can be better than "
                           f"another: a skill claim cannot hold")
        for k in v["skill"]:
            if {k["bot"], k["against"]} == {claim.bots, claim.against}:
                n = k["games"]
                wins = k["wins"]["count"]
                if k["bot"] != claim.bots:  # the claim names the weaker bot first
                    wins = n - wins - k["draws"]["count"]
                ok, text = bound(wins, n)
                return Verdict(claim, ok, f"the {claim.bots} bot wins {limits()} of games "
                               f"against the {claim.against} bot",
                               f"{text} of {n:,} games, seats alternated")
        raise LabError(f"no games of {claim.bots} against {claim.against} were played")
    bots = _equal_bots(claim, v["decisions"])
    s = seats[bots]
    n = s["games"]
    who = f"{n:,} games between {bots} bots"
    if claim.kind == "seat":
        worst = max(range(len(s["wins"])), key=lambda i: s["wins"][i]["count"])
        ok, text = bound(s["wins"][worst]["count"], n)
        return Verdict(claim, ok, f"no seat wins more than {_pct(claim.at_most)}",
                       f"Player {worst + 1} wins {text} of {who}")
    if claim.kind in ("draws", "cap"):
        x = s["draws"] if claim.kind == "draws" else s["cap"]
        ok, text = bound(x["count"], n)
        word = "games are drawn" if claim.kind == "draws" else "games hit the cap"
        return Verdict(claim, ok, f"{limits()} of {word}", f"{text} of {who}")
    # length: the game ends within `rounds` rounds in at least `share` of games
    within = sum(c for x, c in s["rounds"].get("histogram", []) if x <= claim.rounds)
    lo, hi = stats.wilson(within, n, conf)
    ok = hi >= claim.share
    rw = report.get("round_word", "round")
    return Verdict(claim, ok, f"the game ends within {claim.rounds:,} {rw}s in "
                   f"{_pct(claim.share)} of games",
                   f"{_pct(within / n)} of {who} do ({cw} interval {_pct(lo)} to "
                   f"{_pct(hi)}; the longest took {s['rounds'].get('longest', 0):,})")


def check_balance(game: Game, games: int | None = None, seed: int = 0,
                  workers: int | None = None, executor: Executor | None = None,
                  search_games: int | None = None) -> tuple[list[Verdict], dict | None]:
    """Play what the claims need and judge each. No claims: nothing is played. The games
    are played by ``executor`` (:mod:`.executor`; None: the local pool of ``workers``);
    ``search_games`` per line-up with the search bot (None: the smaller of the games and
    200)."""
    if game.balance is None or not game.balance.claims:
        return [], None
    from .bots import ladder
    decisions = len(ladder(game.gamedef, game.gamedef.resolve(game.option_defaults()))) > 1
    n = games or game.balance.games or DEFAULT_GAMES
    search_seats = any(c.kind != "skill" and c.bots == "search" for c in game.balance.claims)
    report = simulate(game, games=n, bots=bots_needed(game, decisions) if decisions else None,
                      seed=seed, workers=workers, executor=executor, per_option=False,
                      search_seats=search_seats, search_games=search_games,
                      pairs={(c.bots, c.against) for c in game.balance.claims
                             if c.kind == "skill"})
    verdicts = []
    for c in game.balance.claims:
        try:
            verdicts.append(judge(c, report))
        except LabError as e:
            verdicts.append(Verdict(c, False, f"a {c.kind} claim", str(e)))
    return verdicts, report
