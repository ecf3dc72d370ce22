"""Reads ``balance:`` in a game.yaml: the pace of play at the table and the designer's
balance claims, checked here for form only (the lab tests them against played games,
``warbook check --balance``). Every mistake is a located error, never a failed build.

    balance:
      seconds_per_round: 20     # one round (trick, battle, turn) at the table
      games: 2000               # games per line-up behind the figures (default 2000)
      confidence: 95%           # for every claim that does not set its own
      claims:
        - {claim: length, rounds: 200, share: 99%}   # ends within 200 rounds in 99 % of games
        - {claim: seat, at_most: 52%}                # no seat wins more than 52 %
        - {claim: skill, bot: heuristic, against: random, at_least: 60%}
        - {claim: draws, at_most: 5%}
        - {claim: cap, at_most: 1%}

See docs/balance.md.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Located, describe, suggest
from ..model import Balance, Claim
from ..yamlsrc import LocDict, LocList
from . import fields
from .base import Reader

BOTS = ("random", "heuristic", "search")
KEYS = ("seconds_per_round", "games", "confidence", "claims")
#: each kind of claim: the keys it needs, and the keys it may have
CLAIMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "length": (("rounds", "share"), ("bots", "confidence")),
    "seat": (("at_most",), ("bots", "confidence")),
    "skill": (("bot", "against", "at_least"), ("confidence",)),
    "draws": ((), ("at_most", "at_least", "bots", "confidence")),
    "cap": ((), ("at_most", "at_least", "bots", "confidence")),
}
MAX_GAMES = 1_000_000


class BalanceReader(Reader):
    """Reads a game.yaml's ``balance:`` into a :class:`Balance` (None when it has none)."""

    def read(self, data: LocDict) -> Balance | None:
        if "balance" not in data:
            return None
        b = data["balance"]
        if not isinstance(b, LocDict):
            self.diags.error(data.at("balance"), "balance must be a mapping (seconds_per_round, "
                             "games, confidence, claims)")
            return None
        out = Balance(where=data.at("balance"))
        self.unknown_keys(b, KEYS, "balance")
        if "seconds_per_round" in b:
            v = b["seconds_per_round"]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 3600:
                self.diags.error(b.at("seconds_per_round"), "balance.seconds_per_round must be "
                                 f"a number of seconds above 0 (at most 3600), got {v!r}")
            else:
                out.seconds_per_round = float(v)
        if "games" in b:
            out.games = self.field(b, "games", fields.whole(10, MAX_GAMES),
                                   "balance.games") or out.games
        confidence = 0.95
        if "confidence" in b:
            c = self.field(b, "confidence", fields.share, "balance.confidence")
            if c is not None and not 0.5 <= c < 1:
                self.diags.error(b.at("confidence"), "balance.confidence must be from 50% to "
                                 f"below 100%, got {b['confidence']!r}")
            elif c is not None:
                confidence = c
        claims = b.get("claims")
        if claims is None:
            return out
        if not isinstance(claims, LocList):
            self.diags.error(b.at("claims"), "balance.claims must be a list of claims, each "
                             "a mapping such as {claim: seat, at_most: 52%}")
            return out
        for i, item in enumerate(claims):
            c = self.claim(item, claims.at(i), confidence)
            if c is not None:
                out.claims.append(c)
        return out

    def claim(self, item: Any, where: Located, confidence: float) -> Claim | None:
        if not isinstance(item, LocDict) or "claim" not in item:
            self.diags.error(where, "a balance claim must be a mapping with a kind, such as "
                             "{claim: seat, at_most: 52%} (kinds: " + ", ".join(CLAIMS) + ")")
            return None
        kind = item["claim"]
        if kind not in CLAIMS:
            self.diags.error(item.at("claim"), f"unknown kind of claim '{kind}' (kinds: "
                             f"{', '.join(CLAIMS)})" + suggest(kind, CLAIMS))
            return None
        need, may = CLAIMS[kind]
        ok = self.unknown_keys(item, need + may, f"a {kind} claim", skip=("claim",))
        for key in need:
            if key not in item:
                self.diags.error(where, f"a {kind} claim needs '{key}'")
                ok = False
        if kind in ("draws", "cap") and "at_most" not in item and "at_least" not in item:
            self.diags.error(where, f"a {kind} claim needs at_most or at_least")
            ok = False
        c = Claim(kind, item.at("claim"), confidence=confidence)
        for key in ("bots", "bot", "against"):
            if key in item:
                v = item[key]
                if v not in BOTS:
                    self.diags.error(item.at(key), f"{key} must name a bot of the ladder "
                                     f"({', '.join(BOTS)}), got {describe(v)}" + suggest(v, BOTS))
                    ok = False
                elif key == "against":
                    c.against = v
                else:
                    c.bots = v
        if kind == "skill" and ok and c.bots == c.against:
            self.diags.error(item.at("against"), "a skill claim compares two different bots")
            ok = False
        for key in ("at_least", "at_most", "share"):
            if key in item:
                v = self.field(item, key, fields.share, key)
                if v is None:
                    ok = False
                setattr(c, key, v)
        if "rounds" in item:
            v = item["rounds"]
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                self.diags.error(item.at("rounds"), f"rounds must be a whole number above 0, "
                                 f"got {v!r}")
                ok = False
            else:
                c.rounds = v
        if "confidence" in item:
            v = self.field(item, "confidence", fields.share, "confidence")
            if v is None:
                ok = False
            elif not 0.5 <= v < 1:
                self.diags.error(item.at("confidence"), "confidence must be from 50% to below "
                                 f"100%, got {item['confidence']!r}")
                ok = False
            else:
                c.confidence = v
        return c if ok else None
