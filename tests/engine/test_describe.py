"""The state lines printed under every diagram (each engine's ``describe`` hook) say what
the state holds, in words: checked after every step of a few seeded games of every engine
and option set against the state's own view.

* one line per player still at the table, in seat order, then one for the game;
* a count said in words is the count in the view: "21 in deck" is the deck's size,
  "9 cards killed" the Killed pile's, "14 points won" the score (the phrases are the ones
  docs/games.md's view keys describe);
* a player who is out is said to be out; the game line ends with who won (or a draw) once
  the game is over, and says nothing of it before; what comes next is said in the words
  of the phase;
* the words pass the narration's house style (house_style_problems in tests/helpers.py),
  as fragments.
"""

from __future__ import annotations

import re

import pytest
from helpers import PLAYER_NAMES, house_style_problems

from builder.engine.core import play_game, random_bot
from builder.engine.registry import registered_engines
from builder.engine.words import size

GAMES = {slug: g for slug, g in registered_engines().items() if g.describe}

#: a phrase in a player's line -> the view key (after "p1.") whose size it states
PHRASES = {
    r"(\d+|no) (?:cards? )?in deck": "deck",
    r"(\d+|no) (?:cards? )?in hand": "hand",
    r"(\d+|no) (?:cards? )?in the discard pile": "discard",
    r"(\d+|no) face down": "stack",
    r"(\d+|no) in the won pile": "won",
    r"(\d+|no) captured": "captured",
    r"(\d+|no) out of the game": "out",
    r"(\d+|no) points? won": "score",
}
#: a phrase in the game's line -> the view key whose size it states
GAME_PHRASES = {r"(\d+|no) cards? killed": "killed", r"^round (\d+)": "round",
                r"(\d+|no) leftover cards? in the middle": "middle"}
#: what the game line says comes next, by phase (War with Deck Management)
NEXT = {"war-draw": "next, a won pile is shuffled", "shuffle": "next, the players make their new stacks",
        "arrange": "next, the players make their new stacks", "discard": "discards"}


#: counts a game says otherwise: Ultimate's won cards as the points they are worth and its
#: round as "2 of 13 rounds played"; Winning the Battle's hand as the extra cards drawn
UNSAID = {"ultimate": {"won", "round"}, "winning-the-battle": {"hand"}}


def number(word: str) -> int:
    return 0 if word == "no" else int(word)


def check(slug: str, view: dict, lines: list, where: str, matched: set) -> None:
    players = [k[:-len(".status")] for k in view if k.endswith(".status")] or sorted(
        {k.split(".")[0] for k in view if re.fullmatch(r"p\d\.\w+", k)})
    said = [p for p, _ in lines]
    assert said[:-1] == players and said[-1] == "", (slug, where, said)
    for p, text in lines:
        named = text
        for pid, name in PLAYER_NAMES.items():   # the ids as the renderers fill them in
            named = named.replace("{" + pid + "}", name)
        wrong = [w for w in house_style_problems(named)
                 if "start" not in w and "sentence" not in w]
        assert not wrong, (slug, where, text, wrong)
        if p and view.get(f"{p}.status") == "out":
            assert text == "out of the game", (slug, where, p, text)
            continue
        for phrase, key in (PHRASES if p else GAME_PHRASES).items():
            m = re.search(phrase, text)
            if m:
                matched.add(key)
                held = view[f"{p}.{key}" if p else key]
                assert number(m.group(1)) == size(held), (slug, where, p, text, key, held)
    game = lines[-1][1]
    result = view.get("result", "none")
    if result == "draw":
        assert game.endswith("game over: a draw"), (slug, where, game)
    elif result not in ("none", None):
        assert game.endswith(f"game over: {{{result}}} wins"), (slug, where, game)
    else:
        assert "game over" not in game, (slug, where, game)
        phase = view.get("phase")
        if phase in NEXT:
            assert NEXT[phase] in game, (slug, where, phase, game)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_state_lines_say_what_the_view_holds(slug):
    game = GAMES[slug]
    matched: set = set()
    keys: set = set()
    for opts in game.option_sets:
        options = game.resolve(opts)
        for seed in range(4):
            count = [0]

            def on_step(state, node, decided, events, seed=seed):
                count[0] += 1
                view = state.view()
                keys.update(k.partition(".")[2] if k.startswith("p1.") else k for k in view)
                check(slug, view, game.describe(view, options), f"{opts} seed {seed} "
                                                                 f"step {count[0]}", matched)

            play_game(game, opts, seed, random_bot if seed % 2 else game.heuristic,
                      on_step=on_step)
    # every count the view holds and the phrases know is said somewhere in these games
    # (a deck is not always called a deck: Deck Management's is a face-down stack)
    said = {"deck", "hand", "discard", "stack", "won", "captured", "out", "score", "killed",
            "round", "middle"} & keys - UNSAID.get(slug, set())
    assert said and said <= matched, (slug, sorted(said - matched))
