"""The balance lab (builder/lab): statistics against published values, determinism whatever
the number of workers, the fast path against the reference engine step for step, lean play
against recorded play, the ``balance:`` reader's located errors, and the claims (every
shipped claim measured at full size: tests/lab/test_shipped_claims.py)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from builder.check import run_check
from builder.content import load_content
from builder.engine.core import ACE_HIGH, ACE_LOW, random_bot
from builder.engine.registry import registered_engines
from builder.lab import stats
from builder.lab.run import play_measured, play_one
from builder.lab.simulate import simulate
from builder.lab.text import to_json

ROOT = Path(__file__).resolve().parents[2]
ENGINES = registered_engines()


# --------------------------------------------------------------------------- statistics
def test_wilson_matches_published_values():
    # Wilson 95 % intervals as tabulated by Newcombe (1998), Statistics in Medicine 17,
    # table I: 81/263 -> 0.2553-0.3662; 15/148 -> 0.0624-0.1605; 0/10 -> 0-0.2775.
    for (x, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 10): (0.0, 0.2775)}.items():
        got = stats.wilson(x, n)
        assert got[0] == pytest.approx(lo, abs=5e-4) and got[1] == pytest.approx(hi, abs=5e-4)


def test_quantiles_worked_by_hand():
    v = list(range(1, 101))  # 1..100
    assert stats.quantile(v, 0.5) == 50 and stats.quantile(v, 0.9) == 90
    assert stats.quantile(v, 0.1) == 10 and stats.quantile([7], 0.9) == 7
    # ranks 50 -/+ 1.96 * 5 = 40.2 and 59.8: the 40th and the 61st values
    assert stats.quantile_interval(v, 0.5) == (40, 61)
    d = stats.distribution([3, 1, 2, 2])
    assert d["longest"] == 3 and d["shortest"] == 1 and d["histogram"] == [[1, 1], [2, 2], [3, 1]]


# --------------------------------------------------------------------------- fast path
def reference_trace(seed: str, lean: bool = False) -> tuple[tuple, list]:
    """Ultimate played on the reference engine, recording every step: the loop the fast
    path stands in for, written out here with ``pending()`` asked afresh each step. With
    ``lean``, the state records nothing (lean play, five times faster: the thousands below
    take it; tests/engine/test_lean_speed_equivalence.py holds lean play to recorded play
    step for step, and the samples hold the fast path to recorded play itself)."""
    game = ENGINES["ultimate"]
    rng = random.Random(seed)
    state = game.new_game(game.resolve({}), rng)
    state.recording = not lean
    trace, steps = [], 0
    while not state.is_terminal():
        node = state.pending()
        if node.kind == "chance":
            state.apply_chance(node.choice.sample(rng))
        else:
            state.apply({p: random_bot(state, p, rng) for p in node.choices})
            v = state.view()
            trace.append((ACE_LOW[v["p1.played"].rank], ACE_LOW[v["p2.played"].rank],
                          v["p1.score"], v["p2.score"]))
        steps += 1
    return (steps, state.view()["round"], state.result.winner, False), trace


def fast_trace(seed: str) -> tuple[tuple, list]:
    trace: list = []
    out = ENGINES["ultimate"].fast_random({}, random.Random(seed), trace)
    return out[:4], trace   # the outcome (the metrics' counts: see below)


@pytest.mark.parametrize("seeds", [range(300)])
def test_the_fast_path_equals_the_engine_step_for_step_sample(seeds):
    for i in seeds:
        assert fast_trace(f"t{i}") == reference_trace(f"t{i}"), i


@pytest.mark.slow
def test_the_fast_path_equals_the_engine_step_for_step_thousands():
    for i in range(5000):
        assert fast_trace(f"slow{i}") == reference_trace(f"slow{i}", lean=True), i


def war_reference_trace(options: dict, seed: str, lean: bool = False) -> tuple[tuple, list]:
    """War on the reference engine between random bots, each trick's two decks as rank
    numbers (top first); ``lean`` as in ``reference_trace``."""
    game = ENGINES["war"]
    opts = game.resolve(options)
    rank = ACE_HIGH if opts["aces"] == "high" else ACE_LOW
    rng = random.Random(seed)
    state = game.new_game(opts, rng)
    state.recording = not lean
    trace, steps = [], 0
    while not state.is_terminal():
        node = state.pending()
        state.apply({p: random_bot(state, p, rng) for p in node.choices})
        v = state.view()
        trace.append(([rank[c.rank] for c in v["p1.deck"]], [rank[c.rank] for c in v["p2.deck"]]))
        steps += 1
    r = state.result
    return (steps, v["tricks"], r.winner, r.rule == "trick-cap"), trace


def war_fast_trace(options: dict, seed: str) -> tuple[tuple, list]:
    trace: list = []
    game = ENGINES["war"]
    return game.fast_random(game.resolve(options), random.Random(seed), trace)[:4], trace


WAR_OPTIONS = [{}, {"wins": "lower"}, {"max_tricks": 60}, {"aces": "low", "war_cards": 1},
               {"war_cards": 0, "max_tricks": 300}]


@pytest.mark.parametrize("options", WAR_OPTIONS)
def test_the_war_fast_path_equals_the_engine_trick_for_trick_sample(options):
    for i in range(40):
        assert war_fast_trace(options, f"w{i}") == war_reference_trace(options, f"w{i}"), i


@pytest.mark.slow
@pytest.mark.parametrize("options", WAR_OPTIONS)
def test_the_war_fast_path_equals_the_engine_trick_for_trick_thousands(options):
    ends = set()
    for i in range(1000):
        fast = war_fast_trace(options, f"slow{i}")
        assert fast == war_reference_trace(options, f"slow{i}", lean=True), i
        ends.add((fast[0][2], fast[0][3]))
    assert len(ends) >= 2  # the seeds reach more than one kind of ending


@pytest.mark.parametrize("slug", ["ultimate", "war"])
def test_the_fast_path_is_what_the_lab_plays_and_it_changes_nothing(slug):
    game = ENGINES[slug]
    opts = game.resolve({})
    n = 200 if slug == "ultimate" else 60
    # whole records: the outcome and the design metrics' counts (choices, decisions, the
    # step from which the winner led for good), read on numbers as the loop reads states
    fast = [play_measured(game, opts, f"x{i}", [random_bot] * 2) for i in range(n)]
    reference = dataclasses.replace(game, fast_random=None)
    slow = [play_measured(reference, opts, f"x{i}", [random_bot] * 2) for i in range(n)]
    assert fast == slow
    assert len({r[7] for r in fast}) > 2   # the winners took the lead at different steps
    # and the outcomes are not all alike (a broken path that always answered one thing)
    assert {r[2] for r in fast} == {0, 1, -1} or {r[2] for r in fast} == {0, 1}


# --------------------------------------------------------------------------- lean play
def recorded_record(game, opts, seed, bots) -> tuple:
    """The reference loop with everything recorded: pending() afresh, table pictures on."""
    rng = random.Random(seed)
    state = game.new_game(opts, rng)
    players = state.players
    steps = decisions = 0
    while not state.is_terminal():
        node = state.pending()
        if node.kind == "chance":
            state.apply_chance(node.choice.sample(rng))
        else:
            state.apply({p: bots[players.index(p)](state, p, rng) for p in node.choices})
            decisions += 1
        state.take_shown()
        steps += 1
    rounds = state.view()[game.round_key] if game.round_key else decisions
    w = state.result.winner
    return (steps, rounds, players.index(w) if w else -1, state.result.rule in game.cap_rules)


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_lean_play_plays_the_same_games_as_recorded_play(slug):
    game = ENGINES[slug]
    for options in game.option_sets:
        opts = game.resolve(options)
        n = len(game.new_game(opts, random.Random(0)).players)
        for i in range(6):
            bots = [random_bot if (i + s) % 2 else game.heuristic for s in range(n)]
            reference = dataclasses.replace(game, fast_random=None)
            assert play_one(reference, opts, f"lean{i}", bots) == \
                recorded_record(game, opts, f"lean{i}", bots), (slug, options, i)


# --------------------------------------------------------------------------- determinism
@pytest.fixture(scope="module")
def shipped():
    content, diags = load_content(ROOT / "content")
    assert not diags.errors
    return content


@pytest.mark.parametrize("slug", ["ultimate", pytest.param("war", marks=pytest.mark.slow)])
def test_a_seed_gives_the_same_bytes_with_one_worker_or_two(shipped, slug):
    game = shipped.game(slug)
    one = to_json(simulate(game, games=60, seed=7, workers=1, search_games=4,
                           bots=None))
    two = to_json(simulate(game, games=60, seed=7, workers=2, search_games=4, bots=None))
    assert one == two
    other = to_json(simulate(game, games=60, seed=8, workers=2, bots=None))
    assert other != one  # the seed matters


def test_war_says_it_has_no_decisions(shipped):
    rep = simulate(shipped.game("war"), games=20, workers=1)
    assert [v["decisions"] for v in rep["variants"]] == [False] * len(rep["variants"])
    assert all(v["skill"] == [] and v["bots"] == ["random"] for v in rep["variants"])
    # one variant per option value the engine tests: the cap at 200 and at 500 tricks
    assert [v["label"] for v in rep["variants"]] == ["as printed", "max_tricks: 200",
                                                    "max_tricks: 500"]


@pytest.mark.slow
def test_the_search_bot_is_named_and_beats_the_heuristic(shipped):
    rep = simulate(shipped.game("ultimate"), games=20, search_games=20,
                   bots=["heuristic", "search"], per_option=False, workers=2)
    skill = rep["variants"][0]["skill"]
    assert [(k["bot"], k["against"]) for k in skill] == [("search", "heuristic")]
    assert skill[0]["wins"]["rate"] > 0.6  # measured 95 % over 200 games


# --------------------------------------------------------------------------- the reader
def with_balance(tmp_path: Path, slug: str, balance: str) -> tuple[Path, int]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / slug, content / slug)
    (content / "index.yaml").write_text(f"games: [{slug}]\n")
    game = content / slug / "game.yaml"
    text = game.read_text()
    start = text.index("\nbalance:\n") + 1
    game.write_text(text[:start] + balance)
    return content, text[:start].count("\n") + 1  # the line "balance:" is on


@pytest.mark.parametrize("balance, where, message", [
    ("balance:\n  seconds_per_rond: 20\n", (1, 3),
     "balance: unknown key 'seconds_per_rond' (allowed: claims, confidence, games, "
     "seconds_per_round); did you mean 'seconds_per_round'?"),
    ("balance:\n  seconds_per_round: -3\n", (1, 22),
     "balance.seconds_per_round must be a number of seconds above 0 (at most 3600), got -3"),
    ("balance:\n  games: 5\n", (1, 10),
     "balance.games must be a whole number from 10 to 1,000,000, got 5"),
    ("balance:\n  claims:\n    - {claim: seats, at_most: 52%}\n", (2, 15),
     "unknown kind of claim 'seats' (kinds: length, seat, skill, draws, cap); did you mean "
     "'seat'?"),
    ("balance:\n  claims:\n    - {claim: seat, at_most: 152%}\n", (2, 30),
     "at_most must be a share such as 52% or 0.52, got '152%'"),
    ("balance:\n  claims:\n    - {claim: skill, bot: heuristc, against: random, at_least: 60%}\n",
     (2, 27), "bot must name a bot of the ladder (random, heuristic, search), got 'heuristc'; "
              "did you mean 'heuristic'?"),
    ("balance:\n  claims:\n    - {claim: length, rounds: 20}\n", (2, 7),
     "a length claim needs 'share'"),
    ("balance:\n  claims:\n    - {claim: seat, at_most: 52%, bots: heuristic, atmost: 1}\n",
     (2, 52), "a seat claim: unknown key 'atmost' (allowed: at_most, bots, confidence); did "
              "you mean 'at_most'?"),
    # a skill claim of a bot against itself; a claim's own confidence out of range
    ("balance:\n  claims:\n    - {claim: skill, bot: search, against: search, at_least: 60%}\n",
     (2, 44), "a skill claim compares two different bots"),
    ("balance:\n  claims:\n    - {claim: seat, at_most: 52%, confidence: 40%}\n",
     (2, 47), "confidence must be from 50% to below 100%, got '40%'"),
    ("balance:\n  claims: {claim: seat}\n", (1, 11),
     "balance.claims must be a list of claims, each a mapping such as {claim: seat, at_most: "
     "52%}"),
])
def test_a_balance_mistake_is_a_located_error(tmp_path, balance, where, message):
    content, first = with_balance(tmp_path, "ultimate", balance)
    report = run_check(content)
    got = [d.format().split("\n")[0].replace(str(content) + "/", "")
           for d in report.diagnostics.errors]
    line, col = where
    assert got == [f"ultimate/game.yaml:{first + line}:{col}: error: {message}"]


# --------------------------------------------------------------------------- claims
def warbook_here(capsys, *args: str) -> subprocess.CompletedProcess:
    """The command line in this process (no interpreter to start): status, out, err."""
    from builder.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out.out, out.err)


def test_search_games_where_no_claim_plays_search_says_it_changes_nothing(capsys):
    """War's claims are all between random bots: --search-games is taken (exit 0, the
    claims judged) and said to change nothing, rather than silently ignored."""
    proc = warbook_here(capsys, "check", "--balance", "--game", "war", "--games", "60",
                        "--search-games", "5", "--content", str(ROOT / "content"))
    assert proc.returncode == 0, proc.stderr
    assert ("warning: --search-games changes nothing here: none of war's claims has the "
            "search bot play") in proc.stderr
    assert "balance: 3 claims tested" in proc.stderr + proc.stdout


def test_a_false_claim_fails_at_its_line_with_the_measured_figure(tmp_path, capsys):
    balance = ("balance:\n  claims:\n"
               "    - {claim: skill, bot: heuristic, against: random, at_least: 60%}\n"
               "    - {claim: seat, at_most: 40%}\n")
    content, first = with_balance(tmp_path, "ultimate", balance)
    proc = warbook_here(capsys, "check", "--balance", "--games", "300", "--content",
                        str(content))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    game = content / "ultimate" / "game.yaml"
    lines = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{game}:{first + 3}:")
    assert "balance claim not borne out: no seat wins more than 40.0%; measured: Player " in lines[0]
    assert "of 300 games between heuristic bots" in lines[0]
    assert "holds: the heuristic bot wins at least 60.0% of games against the random bot" \
        in proc.stdout
    assert "balance: 2 claims tested, 1 borne out, 1 not" in proc.stdout


def test_check_balance_of_one_game_tests_only_its_claims(capsys):
    """``--game`` narrows the claims too: War states three (content/war/game.yaml), and
    only those are played and judged, not the other games' (26 in all)."""
    proc = warbook_here(capsys, "check", "--balance", "--games", "60", "--game", "war")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "balance: 3 claims tested, 3 borne out, 0 not" in proc.stdout
    assert "battle:" not in proc.stdout and "ultimate:" not in proc.stdout


# --------------------------------------------------------------------------- the command
def test_simulate_json_through_the_command_line(capsys):
    proc = warbook_here(capsys, "simulate", "winning-the-battle", "--games", "40", "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    v = rep["variants"][0]
    assert rep["games"] == 40 and v["decisions"] and v["bots"] == ["random", "heuristic"]
    assert [s["games"] for s in v["seats"]] == [40, 40]
    assert 0 <= v["skill"][0]["wins"]["low"] <= v["skill"][0]["wins"]["rate"] \
        <= v["skill"][0]["wins"]["high"] <= 1


SLOW = pytest.mark.slow


@pytest.mark.parametrize("args, message", [
    (["simulate", "ultimat"], "error: no game 'ultimat' (games: war, peace, winning-the-battle, "
     "battle-lines, deck-management, battle, ultimate, happy-families); did you mean "
     "'ultimate'?"),
    pytest.param(["simulate", "war", "--bots", "heuristic"], "error: war has no decisions (no "
                 "player ever has a choice), so only the random bot plays it", marks=SLOW),
    (["simulate", "ultimate", "--bots", "clever"], "error: unknown bot 'clever' (the ladder: "
     "random, heuristic, search)"),
    pytest.param(["simulate", "ultimate", "--games", "0"], "error: --games must be at least 1, "
                 "got 0", marks=SLOW),
    pytest.param(["check", "--balance", "--game", "war", "--search-games", "0"], "error: "
                 "--search-games must be at least 1, got 0", marks=SLOW),
])
def test_simulate_refuses_plainly(args, message, capsys):
    proc = warbook_here(capsys, *args, "--content", str(ROOT / "content"))
    assert proc.returncode == 1 and message in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_game_whose_engine_hides_nothing_has_no_search_bot(capsys, monkeypatch):
    """Every shipped game with decisions can deal its hidden cards again; an engine without
    ``determinize`` (a designer's, say) gets no search bot, and the command says why."""
    from builder.engine import battle

    monkeypatch.setattr(battle.GAME, "determinize", None)
    proc = warbook_here(capsys, "simulate", "battle", "--bots", "search", "--content",
                        str(ROOT / "content"))
    assert proc.returncode == 1
    assert "error: battle has no search bot (its ladder: random, heuristic)" in proc.stderr


# --------------------------------------------------------------------------- the products
GAME_SLUGS = ["war", "peace", "winning-the-battle", "battle-lines", "deck-management", "battle",
              "ultimate", "happy-families"]


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_every_rulebook_has_its_numbers_with_charts_as_vector_text(built, slug):
    from pypdf import PdfReader

    r = PdfReader(str(built / "pdf" / f"{slug}-rules.pdf"))
    pages = [p.extract_text() for p in r.pages]
    # the section's pages (the contents page lists it too)
    where = [i for i, t in enumerate(pages)
             if "By the numbers" in t and not t.startswith("Contents")]
    assert where, "no By the numbers section"
    # the section starts a page of its own: its heading is the page's first line (the
    # running head comes last in the text), nothing of the worked examples above it
    assert pages[where[0]].startswith("By the numbers\n"), pages[where[0]][:200]
    # words as read, whatever line they were broken on
    text = " ".join(" ".join(pages[where[0]:where[0] + 3]).split())
    # the charts' own words, set as text in the PDF (not pictures of words)
    assert "Wins by seat" in text and "games won (%)" in text
    assert "between equal players" in text
    # the players' words: no bot jargon, no option keys
    section = text.split("By the numbers", 1)[1].split("Glossary")[0]
    assert not re.search(r"heuristic|search bot|\bbots?\b|\b[a-z]+_[a-z_]+\b|With the option",
                         section), section
    if slug in ("war", "peace"):
        assert "No player ever has a choice" in text
        assert "skill" not in text.lower().split("by the numbers")[1].split("glossary")[0] \
            .replace("no skill edge", "")
    else:
        assert "Skill: one way of playing against another" in text
        assert "a player who follows simple good habits" in section.lower()
    # the cover's playing time is measured: "N minutes" rather than the typed "N to M minutes"
    cover = pages[0]
    assert "minute" in cover and " to " not in cover.split("Playing time")[1].split("\n")[0]


def test_the_compendium_table_prints_measured_times(built):
    from pypdf import PdfReader

    r = PdfReader(str(built / "pdf" / "compendium.pdf"))
    text = " ".join(" ".join(p.extract_text() for p in r.pages[:8]).split())  # cells wrap
    assert "Length and playing time" in text
    assert "90 % within" in text


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_every_game_page_has_its_charts_and_no_script(built, slug):
    html = (built / "site" / f"{slug}.html").read_text()
    start = html.index('<section class="numbers"')
    section = html[start:html.index("</section>", start)]
    # length, seats and skill; no skill chart without decisions, no length chart where
    # every game is as long (Ultimate's 13 rounds)
    assert section.count('class="pygal-chart"') == {"war": 2, "peace": 2, "ultimate": 2}.get(slug, 3)
    assert "<script" not in section and "javascript:" not in section
    assert "Player 1" in section and "<text" in section


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_by_the_numbers_is_in_every_rulebooks_contents(built, slug):
    """The contents page lists By the numbers between the examples and the glossary, with
    the page its heading landed on (read from the PDF's bookmarks)."""
    import re

    from pypdf import PdfReader

    r = PdfReader(str(built / "pdf" / f"{slug}-rules.pdf"))
    landed = [r.get_destination_page_number(m) for m in r.outline
              if not isinstance(m, list) and m.title == "By the numbers"]
    assert len(landed) == 1
    toc = r.pages[1].extract_text()
    assert toc.startswith("Contents")
    labels = [m.group(1).strip() for m in re.finditer(r"^(.+?)\s+\d+\s*$", toc, re.M)]
    assert "By the numbers" in labels
    i = labels.index("By the numbers")
    assert labels[i + 1] == "Glossary" and labels[i - 1].startswith("Example")
    page = re.search(r"^By the numbers\s+(\d+)\s*$", toc, re.M).group(1)
    assert int(page) == landed[0] + 1  # the folio is the page's number, counted from 1


def test_by_the_numbers_is_in_the_compendiums_contents(built):
    """Under each game's name in the compendium's contents: a By the numbers line."""
    from pypdf import PdfReader

    r = PdfReader(str(built / "pdf" / "compendium.pdf"))
    # the contents' pages: those listing the games' golden rules
    contents = [t for t in (p.extract_text() for p in r.pages[1:5]) if "Golden rules" in t]
    lines = [" ".join(x.split()) for t in contents for x in t.splitlines()]
    entries = [x for x in lines if x.startswith("By the numbers ")]
    assert len(entries) == len(GAME_SLUGS)
    assert all(x.rsplit(" ", 1)[1].isdigit() for x in entries)


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_every_game_pages_contents_lists_by_the_numbers(built, slug):
    """The page's contents nav links to By the numbers, after the worked examples and
    before the glossary, and the link lands on the section's heading."""
    from html.parser import HTMLParser

    class Page(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.links, self.depth, self.href = set(), [], 0, None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if a.get("id"):
                self.ids.add(a["id"])
            if tag == "nav" and a.get("id") == "toc":
                self.depth = 1
            elif tag == "nav" and self.depth:
                self.depth += 1
            if self.depth and tag == "a":
                self.href = a.get("href")
                self.links.append([self.href, ""])

        def handle_endtag(self, tag):
            if tag == "nav" and self.depth:
                self.depth -= 1
            if tag == "a":
                self.href = None

        def handle_data(self, data):
            if self.href is not None:
                self.links[-1][1] += data

    page = Page()
    page.feed((built / "site" / f"{slug}.html").read_text(encoding="utf-8"))
    hrefs = [h for h, _ in page.links]
    assert ["#by-the-numbers", "By the numbers"] in page.links
    i = hrefs.index("#by-the-numbers")
    assert hrefs[i + 1] == "#glossary" and hrefs.index("#worked-examples") < i
    assert "by-the-numbers" in page.ids


def test_the_skill_reading_weighs_the_decided_games_where_many_are_drawn():
    """Worked by hand: of 200 games the stronger bot wins 95, 58 are drawn, it loses 47.
    It wins under half of all games, yet 95 of the 142 decided ones: 66.9 %, Wilson 95 %
    interval about [58.8 %, 74.1 %], all above the fair 50 %. Printed whole (the intervals
    span more than 2 points): 47.5 % as 48 % [40.7, 54.4], 23.5 % lost as 24 %."""
    from builder.lab.simulate import skill_figures
    from builder.lab.text import skill_sentence

    recs = ([(1, 1, i % 2, False) for i in range(95)]
            + [(1, 1, -1, False) for _ in range(95, 153)]
            + [(1, 1, (i + 1) % 2, False) for i in range(153, 200)])
    k = skill_figures("heuristic", "random", recs, 2, 0.95)
    assert (k["wins"]["count"], k["draws"]["count"], k["decided"]["games"]) == (95, 58, 142)
    assert k["decided"]["low"] == pytest.approx(0.588, abs=0.001)
    assert k["decided"]["high"] == pytest.approx(0.741, abs=0.001)
    assert skill_sentence(k) == (
        "A player who follows simple good habits, against one who picks any legal move at "
        "random, wins 48 % (41–54 %) of 200 games, seats taken in turn, and loses 24 %, the "
        "rest drawn: 67 % (59–74 %) of the 142 games someone won (a fair share is 50 %): "
        "skill tells.")


@pytest.mark.parametrize("claim", ["{claim: draws, at_least: 1%}", "{claim: draws, at_most: 5%}",
                                   "{claim: cap, at_least: 0%, at_most: 10%}"])
def test_a_draws_or_cap_claim_needs_one_bound_of_the_two(tmp_path, claim):
    content, _ = with_balance(tmp_path, "ultimate", f"balance:\n  claims:\n    - {claim}\n")
    report = run_check(content)
    assert [d.format() for d in report.diagnostics.errors] == []
