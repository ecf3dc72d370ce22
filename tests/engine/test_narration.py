"""The narration printed beside every step of every example reads as English a player would
write (issue 14's house style), checked over a few seeded games of every engine and option
set and every shipped example:

* a sentence starts with a capital (or a number or a card) and ends with a full stop, an
  exclamation mark or a colon;
* nothing is left of the machinery: no ``{p1}``, no ``None``, no word in capitals that is
  not a card code (K♠ is written KS in the text the engines produce);
* articles and numbers agree: "an 8", "an ace", "a king", "1 card", "3 cards";
* an event that belongs to a player names that player.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import CARD_CODE, PLAYER_NAMES, house_style_problems

from builder.check import run_check
from builder.engine.core import play_game, random_bot
from builder.engine.registry import registered_engines

ROOT = Path(__file__).resolve().parents[2]
GAMES = registered_engines()
def narrations(slug: str):
    game = GAMES[slug]
    for opts in game.option_sets:
        for seed in range(6):
            out = []
            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=lambda s, n, d, events: out.extend(events))
            yield from ((ev, f"seed {seed} {opts}") for ev in out)


@pytest.fixture(scope="module")
def shipped():
    found = {}
    for gr in run_check(ROOT / "content").games:
        for rep in gr.replays:
            for step in rep.steps:
                found.setdefault(gr.game.gamedef.slug, []).extend(
                    (ev, f"{rep.example.id} step {step.index}") for ev in step.events)
    return found


@pytest.mark.parametrize("text,wrong", [
    ("Both show an 8: war!", []),
    ("Both show a 8: war!", ["'a' before a vowel sound"]),
    ("Ann takes 1 cards.", ["'1' with a plural"]),
    ("Ann takes 3 card.", ["a number above 1 with a singular"]),
    ("Ann takes 10 cards, an ace and a king.", []),
    ("ann takes KS.", ["does not start with a capital"]),
    ("Ann takes XXKSXX", ["does not end a sentence", "capitals 'XXKSXX'"]),
    ("{p1} takes None.", ["does not start with a capital", "holds '{'", "holds '}'",
                          "holds 'None'"]),
    ("Only 2 pairs ARE matched.", ["capitals 'ARE'"]),
    ("Ann wins 14 POINTs.", ["capitals 'POINTs'"]),
    ("Ann wins 14 pointS.", ["capitals 'pointS'"]),
    ("Both show A king: war!", ["a capital article inside a sentence"]),
    ("Ann's deck are empty.", ["'deck are': the verb does not agree"]),
    ("A king beats An eight.", ["a capital article inside a sentence"]),
])
def test_the_checker_itself(text, wrong):
    assert house_style_problems(text) == wrong


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_narration_reads_as_english(slug, shipped):
    bad = []
    for ev, where in [*narrations(slug), *shipped.get(slug, [])]:
        text = ev.narrate(PLAYER_NAMES)
        wrong = house_style_problems(text)
        if ev.player and PLAYER_NAMES[ev.player] not in text:
            wrong.append(f"does not name {ev.player}")
        if wrong:
            bad.append(f"{where}: {ev.kind}: {text!r}: {', '.join(wrong)}")
    assert not bad, f"{len(bad)} narrations:\n" + "\n".join(sorted(set(bad))[:25])


def test_a_cover_says_what_it_covers():
    """Winning the Battle (rules.md, Outflanking): a first cover lies "over" the line card;
    a cover on a cover lies "on top of" it, and only the top card counts."""
    seen = set()
    for ev, where in narrations("winning-the-battle"):
        if ev.kind != "cover":
            continue
        text = ev.narrate(PLAYER_NAMES)
        under = ev.data["covers"]
        seen.add(ev.rule)
        if ev.rule == "outflank":
            assert f" over {under}" in text and "top card" not in text, (where, text)
        else:
            assert ev.rule == "c-outflank", (where, ev.rule)
            assert f" on top of {under} (only the top card counts)" in text, (where, text)
    assert seen == {"outflank", "c-outflank"}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_what_each_step_asks_reads_as_english(slug):
    """A pending step's ``what`` ("every player plays a card from hand") is printed in the
    books and in the check's messages, inside a sentence: lower case, no machinery."""
    game = GAMES[slug]
    bad = set()
    for opts in game.option_sets:
        for seed in range(3):
            def on_step(state, node, decided, events):
                what = node.what.replace("{", "").replace("}", "")
                wrong = [w for w in house_style_problems(what) if "start" not in w and "sentence" not in w]
                if wrong or not what or what[0].isupper() and not re.match(CARD_CODE, what):
                    bad.add(f"{node.what!r}: {', '.join(wrong) or 'capital'}")

            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=on_step)
    assert not bad, sorted(bad)
