"""Every error message of the content readers (builder/content/), each from a small broken
content folder: the file, line, column and wording a designer reads.

The base folder is High Five (tests/fixtures/high-five: a game with its own engine.py and
four rules), written out line by line in tests/helpers.py so that each expected position
can be counted by hand from the text of the case. Each case breaks one thing and lists every error that
the check reports in the broken file, in order. Columns are counted in the file (1-based);
``col(line, text)`` is that count done on the case's own text.

``test_every_message_has_a_case`` reads the readers' modules and fails when a message is
added that no case here pins.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

# High Five and its helpers (tests/helpers.py); the cases below write its files' paths short
from helpers import (
    EXAMPLE,
    EXAMPLE_FILE,
    FIXTURE,
    FIXTURES,
    GAME,
    GAME_FILE,
    GLOSSARY,
    GLOSSARY_FILE,
    INDEX,
    INDEX_FILE,
    ROOT,
    RULES,
    RULES_FILE,
    col,
    copy_shipped_game,
    edit_once,
    errors,
    nth,
    replace,
)

from builder.check import run_check

HTML_HINT = "; write Markdown, or escape the '<' as '\\<'"
LINK_RULE = "is not allowed: links may go to http, https, mailto addresses or within the site"
PICTURE = ("pictures are not allowed in content text (a picture's address would be fetched "
           "by the build and by readers' browsers)")
GAME_KEYS = ("accent, balance, changes, compare, components, cover_cards, credit, decks, designer, engine, kit, "
             "options, player_colours, players, quickref, slug, summary, tagline, time, title")


def test_the_base_folder_has_no_error(content: Path):
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics] == []
    assert [r.status for g in report.games for r in g.replays] == ["pass"]


# --------------------------------------------------------------------------- cases
# (id, {file under content/: its new text, or None to delete it}, the file the errors are
#  in, [expected error lines])
def _cases():
    g_title = replace(GAME, "title: High Five", "title: [High, Five]")
    yield ("require-wrong-kind", {"high-five/game.yaml": g_title}, GAME_FILE,
           [f"{GAME_FILE}:2:8: error: game.yaml: 'title' must be text, got [High, Five]"])
    yield ("require-missing", {"high-five/game.yaml": replace(GAME, "title: High Five\n", "")},
           GAME_FILE, [f"{GAME_FILE}:1:1: error: game.yaml: 'title' is missing"])
    yield ("unknown-key-with-hint", {"high-five/game.yaml": GAME + "titel: High Five\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:1: error: game.yaml: unknown key 'titel' (allowed: {GAME_KEYS}); "
            "did you mean 'title'?"])
    yield ("unknown-key", {"high-five/game.yaml": GAME + "zzz: 1\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:1: error: game.yaml: unknown key 'zzz' (allowed: {GAME_KEYS})"])

    # ---- index.yaml
    yield ("index-not-a-mapping", {"index.yaml": "- high-five\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:1:1: error: index.yaml must be a mapping"])
    line = "games: [high-five, chess]"
    yield ("index-no-game-folder", {"index.yaml": line + "\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:1:{col(line, 'chess')}: error: no game folder 'chess' with a game.yaml"])
    yield ("index-unknown-key", {"index.yaml": INDEX + "game: x\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:1: error: index.yaml: unknown key 'game' (allowed: book, games, intro, words); "
            "did you mean 'games'?"])
    yield ("index-words-not-a-mapping", {"index.yaml": INDEX + "words: Hello\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:8: error: words must be a mapping (lead, intro_title, "
            "compare_title, compare_note to one line of text each), got 'Hello'"])
    yield ("index-words-too-long", {"index.yaml": INDEX + "words: {intro_title: " + "x" * 81
                                    + "}\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:22: error: words.intro_title must be at most 80 characters (it "
            "is printed on the home page), got 81"])
    line = "intro: Hello <b>you</b>"
    yield ("raw-html-in-yaml-text", {"index.yaml": INDEX + line + "\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:{col(line, '<b>')}: error: raw HTML is not allowed in content ('<b>')"
            + HTML_HINT])
    yield ("book-not-a-mapping", {"index.yaml": "book: x\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:1:7: error: book must be a mapping (title, subtitle, credits, accent, paper, "
            "logo, fonts, version, date)"])
    yield ("book-title-not-text", {"index.yaml": "book:\n  title: ''\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:10: error: book.title must be some text, got ''"])
    yield ("book-version-a-decimal", {"index.yaml": "book:\n  version: 1.10\n" + INDEX},
           INDEX_FILE, [f"{INDEX_FILE}:2:12: error: book.version must be text: put it in quotes, "
                        "such as version: \"1.2\" (unquoted, YAML reads a number, and 1.10 "
                        "becomes 1.1)"])
    yield ("book-date-format", {"index.yaml": "book:\n  date: 28/11/2026\n" + INDEX},
           INDEX_FILE, [f"{INDEX_FILE}:2:9: error: book.date must be a date written YYYY-MM-DD, "
                        "such as 2026-11-28, got '28/11/2026'"])
    yield ("book-date-calendar", {"index.yaml": "book:\n  date: 2026-02-30\n" + INDEX},
           INDEX_FILE, [f"{INDEX_FILE}:2:9: error: book.date must be a day of the calendar, "
                        "got '2026-02-30'"])
    yield ("changes-not-a-list", {"high-five/game.yaml": GAME + "changes: x\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:10: error: changes must be a list of entries, each {{date: "
            "YYYY-MM-DD, rule: RULE-ID, text: ...}"])
    yield ("change-not-a-mapping", {"high-five/game.yaml": GAME + "changes: [x]\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:11: error: a change is a mapping: {{date: YYYY-MM-DD, rule: "
            "RULE-ID, text: what changed}"])
    line = "  - {date: 2026-11-28, rule: tei, text: x}"
    yield ("change-unknown-rule", {"high-five/game.yaml": GAME + "changes:\n" + line + "\n"},
           GAME_FILE, [f"{GAME_FILE}:8:{col(line, 'tei')}: error: change: unknown rule id 'tei'; "
                       "did you mean 'tie'? (a change names the rule it changed, by its id in "
                       "rules.md)"])
    line = "  - {date: 2026-11-28, rule: tie, text: " + "x" * 1001 + "}"
    yield ("change-text-too-long", {"high-five/game.yaml": GAME + "changes:\n" + line + "\n"},
           GAME_FILE, [f"{GAME_FILE}:8:{col(line, 'xxx')}: error: change: text must be at most "
                       "1,000 characters, got 1,001"])
    yield ("book-paper", {"index.yaml": "book:\n  paper: lettre\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:10: error: book.paper must be one of a4, letter, got 'lettre'; "
            "did you mean 'letter'?"])
    yield ("book-accent-colour", {"index.yaml": "book:\n  accent: red\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:11: error: book.accent must be a colour written #rrggbb "
            "(such as \"#7a4b1e\"), got 'red'"])
    yield ("book-logo-not-a-path", {"index.yaml": "book:\n  logo: 3\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo must be the path of a file in the content folder, "
            "got 3"])
    yield ("book-logo-no-file", {"index.yaml": "book:\n  logo: nope.png\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo: no file 'nope.png' in the content folder"])
    yield ("book-logo-outside", {"index.yaml": "book:\n  logo: ../logo.svg\n" + INDEX,
                                 "../logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo: '../logo.svg' is outside the content folder "
            "(or a link); put the file inside it"])
    yield ("book-logo-kind", {"index.yaml": "book:\n  logo: logo.gif\n" + INDEX,
                              "logo.gif": "GIF89a"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo: 'logo.gif' must be a .svg or .png file"])
    yield ("book-logo-too-large", {"index.yaml": "book:\n  logo: logo.png\n" + INDEX,
                                   "logo.png": "x" * (2 * 1024 * 1024 + 1)}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo: 'logo.png' is larger than 2 MB"])
    yield ("book-logo-script", {"index.yaml": "book:\n  logo: logo.svg\n" + INDEX,
                                "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'>"
                                            "<script>alert(1)</script></svg>"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:9: error: book.logo: 'logo.svg' holds a <script> element; a logo may hold "
            "only drawing (no scripts, event handlers or outside links)"])
    yield ("book-fonts-not-a-mapping", {"index.yaml": "book:\n  fonts: x\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:2:10: error: book.fonts must map text and headings to their font files"])
    yield ("book-fonts-role", {"index.yaml": "book:\n  fonts:\n    text: x.otf\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:3:11: error: book.fonts.text must map faces (regular, italic, bold) to font "
            "files, regular at least"])
    line = "    text: {family: 3}"
    yield ("book-fonts-family-not-a-name",
           {"index.yaml": "book:\n  fonts:\n" + line + "\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:3:{col(line, '3')}: error: book.fonts.text.family must be a font family's "
            "name, got 3"])
    line = "    text: {family: Zzzq Xxvv}"
    yield ("book-fonts-family-not-installed",
           {"index.yaml": "book:\n  fonts:\n" + line + "\n" + INDEX}, INDEX_FILE,
           [f"{INDEX_FILE}:3:{col(line, 'Zzzq')}: error: book.fonts.text: no installed font family "
            "'Zzzq Xxvv' with a regular face (or give font files inside the content folder)"])

    # ---- game.yaml
    yield ("game-not-a-mapping", {"high-five/game.yaml": "- high-five\n"}, GAME_FILE,
           [f"{GAME_FILE}:1:1: error: game.yaml must be a mapping"])
    yield ("game-slug", {"high-five/game.yaml": replace(GAME, "slug: high-five",
                                                        "slug: high-six")}, GAME_FILE,
           [f"{GAME_FILE}:1:7: error: slug 'high-six' does not match its folder 'high-five'"])
    yield ("game-no-engine", {"high-five/engine.py": None}, GAME_FILE,
           [f"{GAME_FILE}:1:1: error: game.yaml has no 'engine:' (the engine that plays the game, such "
            "as 'war'), and the folder has no engine.py"])
    yield ("game-engine-not-a-name", {"high-five/game.yaml": GAME + "engine: [war]\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:9: error: engine must be a name, such as 'war'"])
    yield ("game-engine-broken-file",
           {"high-five/engine.py": "GAME = None\n\ndef broken(:\n    pass\n"},
           "content/high-five/engine.py",
           ["content/high-five/engine.py:3:1: error: the engine file does not parse: "
            "invalid syntax"])
    yield ("game-options-not-a-mapping", {"high-five/game.yaml": GAME + "options: 5\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:10: error: options must be a mapping of option name to details"])
    yield ("game-unknown-option", {"high-five/game.yaml": GAME + "options:\n  hands: 3\n"}, GAME_FILE,
           [f"{GAME_FILE}:8:3: error: the high-five engine has no option 'hands' (it has: hand); "
            "did you mean 'hand'?"])
    yield ("game-option-setting-value", {"high-five/game.yaml": GAME + "options:\n  hand: 0\n"},
           GAME_FILE, [f"{GAME_FILE}:8:9: error: option 'hand' must be at least 1, got 0"])
    line = "  hand: {default: 99, label: Hand size, text: Cards in each hand.}"
    yield ("game-option-default-value",
           {"high-five/game.yaml": GAME + "options:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:8:{col(line, '99')}: error: option 'hand' must be at most 26, got 99"])
    line = "  hand: {default: 5, label: Hand size, txt: Cards in each hand.}"
    yield ("game-option-unknown-key",
           {"high-five/game.yaml": GAME + "options:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:8:{col(line, 'txt')}: error: option 'hand': unknown key 'txt' (allowed: "
            "default, label, text); did you mean 'text'?"])
    yield ("game-accent", {"high-five/game.yaml": GAME + "accent: blue\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:9: error: accent must be a colour written #rrggbb (such as \"#7a4b1e\"), "
            "got 'blue'"])
    yield ("game-player-colours-not-a-mapping",
           {"high-five/game.yaml": GAME + "player_colours: red\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:17: error: player_colours must map player ids (p1, p2, ...) to colours"])
    yield ("game-player-colours-no-player",
           {"high-five/game.yaml": GAME + "player_colours: {p3: \"#000000\"}\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:18: error: player_colours: no player 'p3' (players: p1, p2)"])
    yield ("game-cover-cards-count", {"high-five/game.yaml": GAME + "cover_cards: []\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:14: error: cover_cards must list one to four card codes, such as [AS, KH]"])
    yield ("game-cover-cards-card", {"high-five/game.yaml": GAME + "cover_cards: [2S, 1H]\n"},
           GAME_FILE, [f"{GAME_FILE}:7:14: error: cover_cards: unknown card '1H' (a card is a rank A 2-10 J Q K "
               "then a suit C D H S, e.g. QD or 10H)"])
    line = "players: {min: 2, max: 3}"
    yield ("players-the-engine-does-not-play",
           {"high-five/game.yaml": replace(GAME, "players: {min: 2, max: 2}", line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, '3}')}: error: players.max is 3, but the high-five engine "
            "plays 2 players (hint: set players.max to a count the engine plays, or change the "
            "engine)"])
    line = "players: {min: 2, max: 2, names: North}"
    yield ("game-player-names", {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, 'North')}: error: players.names must map p1, p2, ... to names"])
    line = "compare: {players: \"2\", deck: Ten cards, choices: A card, win: [a, b], length: Five rounds}"
    yield ("game-compare-not-text", {"high-five/game.yaml": replace(GAME, nth(GAME, 4), line)},
           GAME_FILE, [f"{GAME_FILE}:4:{col(line, '[a, b]')}: error: compare: 'win' must be text; quote a value "
               "that contains ': '"])
    line = "compare: {players: \"2\", deck: Ten cards, choices: A card, win: More points}"
    yield ("game-compare-missing", {"high-five/game.yaml": replace(GAME, nth(GAME, 4), line)},
           GAME_FILE, [f"{GAME_FILE}:4:10: error: compare: 'length' is missing (the comparison table needs "
               "players, deck, choices, win, length)"])
    yield ("game-quickref-not-a-list",
           {"high-five/game.yaml": replace(GAME, "quickref:\n  - Play a card; the higher card "
                                           "scores.\n", "quickref: Play a card.\n")}, GAME_FILE,
           [f"{GAME_FILE}:5:11: error: quickref must be a list of lines"])
    yield ("game-quickref-line-not-text",
           {"high-five/game.yaml": GAME + "  - Then: the next round.\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:5: error: a quickref line must be text; quote a line that contains ': ' "
            "(YAML reads it as a mapping)"])
    line = 'summary: "Read [this](javascript:alert(1)) first."'
    yield ("link-in-yaml-text", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, 'javascript')}: error: a link to 'javascript:alert(1' {LINK_RULE}"])
    line = 'summary: "See ![a cat](cat.png) here."'
    yield ("picture-in-yaml-text", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, '![')}: error: {PICTURE}"])
    yield ("game-folder-name", {"High_Five/game.yaml": GAME}, "content/High_Five/game.yaml",
           ["content/High_Five/game.yaml:1:1: error: the game's folder name 'High_Five' must be "
            "lower-case letters, digits and hyphens, starting with a letter or digit (it "
            "becomes part of file names and web addresses)"])

    # ---- rules.md
    yield ("rules-missing", {"high-five/rules.md": None}, RULES_FILE,
           [f"{RULES_FILE}:0:0: error: rules.md is missing"])
    yield ("rules-engine-cites-undefined",
           {"high-five/rules.md": replace(RULES, "{#tie}", "{#draw}")}, RULES_FILE,
           [f"{RULES_FILE}:1:1: error: the engine cites rule 'tie', which rules.md does not define"])
    yield ("rules-text-before-heading", {"high-five/rules.md": "Welcome.\n\n" + RULES}, RULES_FILE,
           [f"{RULES_FILE}:1:1: error: text before the first heading; every rule belongs to a section"])
    yield ("rules-no-sections", {"high-five/rules.md": "Welcome.\n"}, RULES_FILE,
           [f"{RULES_FILE}:1:1: error: text before the first heading; every rule belongs to a section",
            f"{RULES_FILE}:1:1: error: rules.md has no numbered sections"])
    yield ("rules-too-deep", {"high-five/rules.md": RULES + "\n#### Deeper {#deeper}\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: rules go three levels deep at most (#, ##, ###: 1., 1.1, 1.1.1)"])
    line = "## Ties again"
    yield ("rules-heading-without-id", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:{len(line)}: error: heading 'Ties again' has no id; end it with {{#some-id}}"])
    line = "## Ties again {#Ties_Again}"
    yield ("rules-bad-id", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:{col(line, '{#')}: error: rule id 'Ties_Again' must be lower-case letters, "
            "digits and hyphens"])
    yield ("rules-duplicate-id", {"high-five/rules.md": RULES + "\n## Ties again {#tie}\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: rule id 'tie' is already used on line 11"])
    # a rule named as an example's place in the book and on the site (``ex-`` and its id)
    yield ("rules-id-of-an-example",
           {"high-five/rules.md": RULES + "\n## Short game {#ex-short-game}\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: rule id 'ex-short-game' is also the place name of "
            f"example 'short-game' ({EXAMPLE_FILE}:1) in the book and on the website, so "
            "links to one would land on the other; give the rule another id"])
    yield ("rules-skipped-level",
           {"high-five/rules.md": RULES + "\n# More {#more}\n\n### Deep {#deep}\n"}, RULES_FILE,
           [f"{RULES_FILE}:23:1: error: heading level 3 directly under level 1; do not skip a level"])
    line = "See [[nowhere]] for more."
    yield ("rules-unknown-cross-reference", {"high-five/rules.md": RULES + "\n" + line + "\n"},
           RULES_FILE, [f"{RULES_FILE}:21:{col(line, '[[')}: error: unknown rule id 'nowhere' in cross-reference"])
    line = "A <b>bold</b> claim."
    yield ("rules-raw-html", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:{col(line, '<b>')}: error: raw HTML is not allowed in content ('<b>')"
            + HTML_HINT])
    line = "Read [this](file:///etc/passwd)."
    yield ("rules-link", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:{col(line, 'file:')}: error: a link to 'file:///etc/passwd' {LINK_RULE}"])
    line = "Look: ![a map](map.png)"
    yield ("rules-picture", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:{col(line, '![')}: error: {PICTURE}"])

    # ---- glossary.yaml
    yield ("glossary-missing", {"high-five/glossary.yaml": None}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:0:0: error: glossary.yaml is missing"])
    yield ("glossary-not-a-list", {"high-five/glossary.yaml": "term: Point\n"}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:1:1: error: glossary.yaml must be a list of terms"])
    yield ("glossary-entry-not-a-mapping", {"high-five/glossary.yaml": "- Point\n"}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:1:3: error: a glossary entry needs 'term' and 'definition'"])
    yield ("glossary-definition-missing", {"high-five/glossary.yaml": "- term: Point\n"}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:1:3: error: glossary entry: 'definition' is missing"])
    yield ("glossary-unknown-key",
           {"high-five/glossary.yaml": replace(GLOSSARY, "  see:", "  sea:")}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:3:3: error: glossary entry: unknown key 'sea' (allowed: definition, see, "
            "term); did you mean 'see'?"])
    line = "  see: higher-score"
    yield ("glossary-unknown-rule-alone",
           {"high-five/glossary.yaml": replace(GLOSSARY, nth(GLOSSARY, 3), line)}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:3:{col(line, 'higher')}: error: unknown rule id 'higher-score'"])
    line = "  see: [higher-score]"
    yield ("glossary-unknown-rule",
           {"high-five/glossary.yaml": replace(GLOSSARY, nth(GLOSSARY, 3), line)}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:3:{col(line, 'higher')}: error: unknown rule id 'higher-score'"])
    line = "  definition: What the higher card scores ([[scoring]])."
    yield ("glossary-unknown-cross-reference",
           {"high-five/glossary.yaml": replace(GLOSSARY, nth(GLOSSARY, 2), line)}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:2:{col(line, '[[')}: error: unknown rule id 'scoring' in cross-reference"])

    # ---- examples
    yield ("example-not-a-mapping", {"high-five/examples/01-short.yaml": "- short-game\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:1:1: error: an example file must be a mapping"])
    yield ("example-unknown-key",
           {"high-five/examples/01-short.yaml": EXAMPLE + "outtro: The end.\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:1: error: example: unknown key 'outtro' (allowed: draft, id, intro, options, "
            "outro, rules, setup, steps, title); did you mean 'outro'?"])
    yield ("example-id-missing",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "id: short-game\n", "")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:1:1: error: example: 'id' is missing"])
    yield ("example-bad-id",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "id: short-game",
                                                        "id: Short_Game")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:1:5: error: example id 'Short_Game' must be lower-case letters, digits and "
            "hyphens"])
    yield ("example-rules-not-a-list",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, nth(EXAMPLE, 3), "rules: play")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:3:8: error: rules must be a list of rule ids"])
    line = "rules: [play, higher-scores, tie, most-point]"
    yield ("example-unknown-rule",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, nth(EXAMPLE, 3), line)}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:3:{col(line, 'most-point')}: error: unknown rule id 'most-point'; "
            "did you mean 'most-points'?"])
    yield ("example-options-not-a-mapping",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "options:\n  hand: 2\n",
                                                        "options: 2\n")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:4:10: error: options must be a mapping"])
    yield ("example-setup-not-a-mapping",
           {"high-five/examples/01-short.yaml": EXAMPLE.split("setup:")[0] + "setup: none\n"
            + "steps:" + EXAMPLE.split("steps:")[1]}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:6:8: error: example: 'setup' must be a mapping (piles: ...)"])
    yield ("example-steps-empty",
           {"high-five/examples/01-short.yaml": EXAMPLE.split("steps:")[0] + "steps: []\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:10:8: error: example: 'steps' must be a non-empty list"])
    yield ("example-steps-missing",
           {"high-five/examples/01-short.yaml": EXAMPLE.split("steps:")[0]}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:1:1: error: example: 'steps' must be a non-empty list"])
    yield ("step-not-a-mapping",
           {"high-five/examples/01-short.yaml": EXAMPLE + "  - turn up\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:5: error: a step must be a mapping (decide:, chance:, expect:, comment:)"])
    yield ("step-unknown-key",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "    expect:\n      p2",
                                                        "    expct:\n      p2")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:16:5: error: step: unknown key 'expct' (allowed: chance, comment, decide, "
            "expect, refused, repeat, turn); did you mean 'expect'?"])
    yield ("step-decide-and-chance",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "  - decide: {p1: 4D, p2: 9C}",
                                                        "  - decide: {p1: 4D, p2: 9C}\n"
                                                        "    chance: [4D]")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:15:5: error: a step is either a decision or a chance outcome, not both"])
    yield ("step-decide-not-a-mapping",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "  - decide: {p1: 4D, p2: 9C}",
                                                        "  - decide: 4D")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:15:13: error: decide: must map each deciding player (p1, p2, ...) to a "
            "decision"])
    yield ("step-repeat-not-a-count",
           {"high-five/examples/01-short.yaml": EXAMPLE + "  - repeat: 0\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:13: error: repeat must be a whole number of at least 1"])
    yield ("step-repeat-text",
           {"high-five/examples/01-short.yaml": EXAMPLE + "  - repeat: two\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:13: error: repeat must be a whole number of at least 1"])
    yield ("step-repeat-boolean",
           {"high-five/examples/01-short.yaml": EXAMPLE + "  - repeat: true\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:13: error: repeat must be a whole number of at least 1"])
    first = "  - decide: {p1: KS, p2: KH}\n"
    refused = "  - decide: {p1: QS, p2: KH}\n    refused: plya\n" + first
    yield ("step-refused-unknown-rule",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, first, refused)}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:12:14: error: refused: must be the id of the rule that forbids "
            "the decision, got 'plya'; did you mean 'play'?"])
    yield ("step-refused-without-decide",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, first,
                                                        "  - refused: play\n" + first)},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:11:14: error: refused: is for a decision the rules "
                          "forbid; write that decision with decide:"])
    # a turn made of parts (turn:), written wrong
    second = "  - decide: {p1: 4D, p2: 9C}\n"
    turn = "  - turn: [{decide: {p1: 4D, p2: 9C}}, draw]\n"
    yield ("step-turn-with-decide",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, second, second + "    turn: [{decide: {p1: 4D}}, {decide: {p2: 9C}}]\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:13: error: a step with turn: has its decisions "
                          "and chance outcomes in the turn's parts; move decide: into one of "
                          "them"])
    yield ("step-turn-with-refused",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, second, "  - turn: [{decide: {p1: 4D}}, {}]\n    refused: play\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:16:14: error: refused: cannot go with turn: (a turn "
                          "is played once, and a refused move is a step of its own)"])
    yield ("step-turn-of-one-part",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, second, "  - turn: [{decide: {p1: 4D, p2: 9C}}]\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:11: error: turn: must list the turn's parts in "
                          "order, at least two, each a decide: or a chance: (e.g. [{decide: "
                          "{p1: draw}}, {decide: {p1: 7H}}])"])
    yield ("step-turn-part-not-a-mapping",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, second, turn)},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:{col(turn, 'draw')}: error: a part of a turn must "
                          "be a mapping: {decide: {p1: ...}} or {chance: ...}"])
    mixed = "  - turn: [{decide: {p1: 4D}}, {decide: {p2: 9C}}]\n"
    yield ("step-turn-of-two-players",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, second, mixed)},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:{col(mixed, '{p2')}: error: a turn is the turn of "
                          "p1, but this part is decided by p2; write another player's turn as a "
                          "step of its own"])
    both = "  - turn: [{decide: {p1: 4D, p2: 9C}, chance: [4D]}, {}]\n"
    yield ("step-turn-part-decide-and-chance",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, second, both)},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:{col(both, '{decide')}: error: a part of a turn "
                          "is either a decision or a chance outcome, not both"])
    yield ("step-refused-empty-decide",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, first,
                                                        "  - decide: {}\n    refused: play\n"
                                                        + first)},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:11:13: error: decide: is empty; write the decision "
                          "the rules forbid, such as {p1: QS}"])
    yield ("step-refused-with-expect",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, first, "  - decide: {p1: QS, p2: KH}\n    refused: play\n"
                               "    expect: {p1.points: 0}\n" + first)}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:13:13: error: a refused step changes nothing, so it has no "
            "expect:; write what happens next in the following step"])
    yield ("step-repeat-with-decide",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "  - decide: {p1: 4D, p2: 9C}",
                                                        "  - decide: {p1: 4D, p2: 9C}\n"
                                                        "    repeat: 2")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:16:13: error: repeat is only for forced steps (no decide:, no chance:)"])
    yield ("step-expect-not-a-mapping",
           {"high-five/examples/01-short.yaml": EXAMPLE.split("  - decide: {p1: 4D")[0]
            + "  - decide: {p1: 4D, p2: 9C}\n    expect: p2 wins\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:16:13: error: expect: must map state names to expected values"])
    line = "    comment: As in [[scoring]], nobody scores."
    yield ("step-comment-cross-reference",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "      p1.points: 0\n",
                                                        "      p1.points: 0\n" + line + "\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:{col(line, '[[')}: error: unknown rule id 'scoring' in cross-reference"])
    # ---- issue 13: empty files, wrong types, bounds
    yield ("game-empty", {"high-five/game.yaml": "  \n"}, GAME_FILE,
           [f"{GAME_FILE}:1:1: error: the file is empty (or holds only comments)"])
    yield ("example-empty", {"high-five/examples/01-short.yaml": "# nothing yet\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:1:1: error: the file is empty (or holds only comments)"])
    yield ("index-games-not-a-list", {"index.yaml": "games: high-five\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:1:8: error: games must be a list of game folder names, such as [war, peace], "
            "got 'high-five'"])
    yield ("index-games-mapping", {"index.yaml": "games: {high-five: 1}\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:1:8: error: games must be a list of game folder names, such as [war, peace], "
            "got a mapping"])
    line = "games: [high-five, {a: b}]"
    yield ("index-games-item", {"index.yaml": line + "\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:1:{col(line, '{a')}: error: games: a mapping is not a game folder's name "
            "(lower-case letters, digits and hyphens)"])
    yield ("game-compare-not-a-mapping",
           {"high-five/game.yaml": replace(GAME, nth(GAME, 4), "compare: 5")}, GAME_FILE,
           [f"{GAME_FILE}:4:10: error: compare must be a mapping (players, deck, choices, win, length "
            "to text), got 5",
            f"{GAME_FILE}:4:10: error: compare: 'players' is missing (the comparison table needs "
            "players, deck, choices, win, length)",
            f"{GAME_FILE}:4:10: error: compare: 'deck' is missing (the comparison table needs "
            "players, deck, choices, win, length)",
            f"{GAME_FILE}:4:10: error: compare: 'choices' is missing (the comparison table needs "
            "players, deck, choices, win, length)",
            f"{GAME_FILE}:4:10: error: compare: 'win' is missing (the comparison table needs "
            "players, deck, choices, win, length)",
            f"{GAME_FILE}:4:10: error: compare: 'length' is missing (the comparison table needs "
            "players, deck, choices, win, length)"])
    line = "players: {min: '1e3', max: 2}"
    yield ("game-players-min-text", {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)},
           GAME_FILE, [f"{GAME_FILE}:3:{col(line, chr(39) + '1e3')}: error: players.min must be a whole number "
               "from 1 to 12, got '1e3'"])
    line = "players: {min: 2, max: 1000000000000}"
    yield ("game-players-max-huge", {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)},
           GAME_FILE, [f"{GAME_FILE}:3:{col(line, '1000')}: error: players.max must be a whole number from 1 "
               "to 12, got 1000000000000"])
    line = "players: {min: 3, max: 2}"
    yield ("game-players-min-above-max",
           {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, '3')}: error: players.min (3) is above players.max (2)"])
    line = "players: {min: 2, max: 2, names: {p1: North, p3: West}}"
    yield ("game-player-names-no-player",
           {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, 'p3')}: error: players.names: 'p3' is not a player of this game "
            "(p1 to p2)"])
    line = "players: {min: 2, max: 2, names: {p1: {a: b}}}"
    yield ("game-player-name-not-text",
           {"high-five/game.yaml": replace(GAME, nth(GAME, 3), line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, '{a')}: error: players.names.p1 must be a name, got a mapping"])
    yield ("game-components-not-a-list",
           {"high-five/game.yaml": GAME + "components: {name: deck}\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:13: error: components must be a list, each item such as {{name: Standard "
            "52-card deck, count: 1}"])
    yield ("game-component-not-a-mapping",
           {"high-five/game.yaml": GAME + "components: [deck]\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:14: error: a component must be a mapping such as {{name: Standard 52-card "
            "deck, count: 1}"])
    line = 'components: [{name: "Deck ![a cat](cat.png)", count: 1}]'
    yield ("game-component-name-picture", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, '![')}: error: {PICTURE}"])
    line = "components: [{name: Deck, count: many}]"
    yield ("game-component-count", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, 'many')}: error: component: 'count' must be a whole number from "
            "1 to 999, got 'many'"])
    line = "  see: 5"
    yield ("glossary-see-not-ids",
           {"high-five/glossary.yaml": replace(GLOSSARY, nth(GLOSSARY, 3), line)}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:3:{col(line, '5')}: error: glossary entry: 'see' must be a rule id or a list "
            "of rule ids"])
    line = "designer: {name: Ann}"
    yield ("game-text-not-text", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, '{')}: error: game.yaml: 'designer' must be text, got a mapping; "
            "quote a text that contains ': '"])
    # ---- issue 13: what the Markdown renderer is given is bounded
    yield ("rules-paragraph-too-long",
           {"high-five/rules.md": RULES + "\n" + "word " * 1000 + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: this paragraph is too large for the rulebook's Markdown: "
            "5,000 characters long (at most 4,000); split it with blank lines"])
    yield ("rules-paragraph-brackets",
           {"high-five/rules.md": RULES + "\nSee\n" + "[a] " * 101 + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: this paragraph is too large for the rulebook's Markdown: "
            "101 '[' (at most 100); split it with blank lines"])
    yield ("rules-nested-markers",
           {"high-five/rules.md": RULES + "\n" + "- " * 9 + "deep\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: more than 8 list or quote markers open on one line; nest lists "
            "at most 8 deep"])
    line = "## Long " + "[" * 101 + " {#long}"
    yield ("rules-heading-too-long", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: a heading of {len(line)} characters (101 '['); keep headings "
            "short"])
    line = '  definition: "' + "> " * 9 + 'x"'
    yield ("glossary-nested-markers-in-yaml",
           {"high-five/glossary.yaml": replace(GLOSSARY, nth(GLOSSARY, 2), line)}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:2:{col(line, '> >')}: error: more than 8 list or quote markers open on one "
            "line; nest lists at most 8 deep"])
    yield ("glossary-term-too-long",
           {"high-five/glossary.yaml": replace(GLOSSARY, "term: Point", "term: " + "P" * 81)},
           GLOSSARY_FILE, [f"{GLOSSARY_FILE}:1:9: error: glossary entry: a term is one to 80 characters long"])
    yield ("example-duplicate-id",
           {"high-five/examples/02-again.yaml": EXAMPLE}, "content/high-five/examples/02-again.yaml",
           [f"content/high-five/examples/02-again.yaml:1:1: error: example id 'short-game' is "
            f"already used at {EXAMPLE_FILE}:1"])
    # ---- from a mutation sample of content.py (scripts/mutation.py content --seed 2)
    yield ("require-missing-slug", {"high-five/game.yaml": replace(GAME, "slug: high-five\n", "")},
           GAME_FILE, [f"{GAME_FILE}:1:1: error: game.yaml: 'slug' is missing"])
    yield ("players-not-a-mapping",
           {"high-five/game.yaml": replace(GAME, "players: {min: 2, max: 2}", "players: 5")}, GAME_FILE,
           [f"{GAME_FILE}:3:10: error: game.yaml: 'players' must be a mapping, got 5"])
    line = 'players: {min: 2, max: 2, names: {p1: "  "}}'
    yield ("players-blank-name",
           {"high-five/game.yaml": replace(GAME, "players: {min: 2, max: 2}", line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, chr(34))}: error: players.names.p1 must be a name, got '  '"])
    yield ("example-repeat-with-chance",
           {"high-five/examples/01-short.yaml": replace(EXAMPLE, "  - decide: {p1: 4D, p2: 9C}\n",
                                                         "  - repeat: 2\n    chance: [KS]\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:15:13: error: repeat is only for forced steps (no decide:, no chance:)"])
    line = "title: High ![x](y.png) Five"
    yield ("game-title-picture",
           {"high-five/game.yaml": replace(GAME, "title: High Five", line)}, GAME_FILE,
           [f"{GAME_FILE}:2:{col(line, '![')}: error: {PICTURE}"])
    line = "![a](m.png)[c](javascript:x)"      # a link right after a picture is a link
    yield ("rules-link-after-picture", {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: {PICTURE}",
            f"{RULES_FILE}:21:{col(line, 'javascript')}: error: a link to 'javascript:x' {LINK_RULE}"])
    # a block text (comment: |) starts on the line after its key: the picture is on line 21
    yield ("example-block-text-line",
           {"high-five/examples/01-short.yaml": EXAMPLE + "    comment: |\n      Fine.\n"
                                                       "      ![p](x.png)\n"},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:21:7: error: {PICTURE}"])
    line = "components: [5, {name: Deck, count: x}]"   # every component is read
    yield ("components-each-read", {"high-five/game.yaml": GAME + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:{col(line, '5')}: error: a component must be a mapping such as "
            "{name: Standard 52-card deck, count: 1}",
            f"{GAME_FILE}:7:{col(line, 'x')}: error: component: 'count' must be a whole number from 1 "
            "to 999, got 'x'"])
    yield ("example-block-text-paragraph-line",
           {"high-five/examples/01-short.yaml": EXAMPLE + "    comment: |\n      Fine.\n\n      "
                                                       + "word " * 1000 + "\n"},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:22:7: error: this paragraph is too large for the rulebook's Markdown: "
               "5,000 characters long (at most 4,000); split it with blank lines"])
    line = "![a][](javascript:x)"   # a reference picture, then a link of its own
    yield ("rules-link-right-after-a-reference-picture",
           {"high-five/rules.md": RULES + "\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: {PICTURE}",
            f"{RULES_FILE}:21:{col(line, 'javascript')}: error: a link to 'javascript:x' {LINK_RULE}"])
    # ---- a third sample (scripts/mutation.py content --seed 3)
    yield ("example-without-setup",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, "setup:\n  hands:\n    p1: [KS, 4D]\n    p2: [KH, 9C]\n", "")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:1:1: error: example: 'setup' must be a mapping (piles: ...)"])
    line = "intro: Look ![x](y.png) here."
    yield ("example-intro-picture",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, "title: A two-round game\n", f"title: A two-round game\n{line}\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:3:{col(line, '![')}: error: {PICTURE}"])
    line = "    text: See [[nowhere]]."
    yield ("option-text-cross-reference",
           {"high-five/game.yaml": GAME + "options:\n  hand:\n    default: 5\n" + line + "\n"},
           GAME_FILE, [f"{GAME_FILE}:10:{col(line, '[[')}: error: unknown rule id 'nowhere' in cross-reference"])
    line = "A <b>bold</b> claim."        # a body after a blank line: its own line is counted
    yield ("rules-body-after-a-blank-line",
           {"high-five/rules.md": RULES + "\n## Bold {#bold}\n\n" + line + "\n"}, RULES_FILE,
           [f"{RULES_FILE}:23:{col(line, '<b>')}: error: raw HTML is not allowed in content ('<b>')"
            + HTML_HINT])
    # ---- a fourth sample (scripts/mutation.py content --seed 4)
    line = "intro: See [[nowhere]]."
    yield ("example-intro-cross-reference",
           {"high-five/examples/01-short.yaml": replace(
               EXAMPLE, "title: A two-round game\n", f"title: A two-round game\n{line}\n")},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:3:{col(line, '[[')}: error: unknown rule id 'nowhere' in cross-reference"])
    yield ("step-comment-not-text",
           {"high-five/examples/01-short.yaml": EXAMPLE + "    comment: [a, b]\n"},
           EXAMPLE_FILE, [f"{EXAMPLE_FILE}:19:14: error: step: 'comment' must be text, got [a, b]; quote a text that "
               "contains ': '"])
    yield ("option-text-not-text",
           {"high-five/game.yaml": GAME + "options:\n  hand:\n    default: 5\n    text: [a]\n"},
           GAME_FILE, [f"{GAME_FILE}:10:11: error: option 'hand': 'text' must be text, got [a]; quote a text "
               "that contains ': '"])
    yield ("rules-nested-markers-read-no-further",       # the line's HTML is not read too
           {"high-five/rules.md": RULES + "\n" + "- " * 9 + "<b>deep</b>\n"}, RULES_FILE,
           [f"{RULES_FILE}:21:1: error: more than 8 list or quote markers open on one line; nest lists "
            "at most 8 deep"])
    # ---- a fifth sample (scripts/mutation.py content --seed 5)
    yield ("index-intro-not-text", {"index.yaml": INDEX + "intro: [a, b]\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:2:8: error: index.yaml: 'intro' must be text, got [a, b]; quote a text that "
            "contains ': '"])
    yield ("book-subtitle-not-text", {"index.yaml": INDEX + "book:\n  subtitle: [a, b]\n"}, INDEX_FILE,
           [f"{INDEX_FILE}:3:13: error: book.subtitle must be some text, got [a, b]"])

    # ---- issue 22: limits on what valid content can ask for (builder/limits.py), each
    # just past its limit (tests/content/test_content_limits.py holds each just under it)
    yield ("limit-steps", {"high-five/examples/01-short.yaml": EXAMPLE + "  - {}\n" * 100}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:117:5: error: the example 'short-game' has 102 steps; at most 100 steps per "
            "example (each repeat counted); step 101 passes it"])
    yield ("limit-steps-repeated", {"high-five/examples/01-short.yaml":
                                    EXAMPLE + "  - repeat: 99\n"}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:13: error: the example 'short-game' has 101 steps; at most 100 steps per "
            "example (each repeat counted); step 3 passes it"])
    intro = "intro: |\n" + ("  " + "a" * 2999 + "\n\n") * 6 + "  " + "a" * 2999 + "\n"
    yield ("limit-example-words", {"high-five/examples/01-short.yaml": replace(
        EXAMPLE, "title: A two-round game\n", "title: A two-round game\n" + intro)}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:3:8: error: the example 'short-game' has 21,006 characters; at most 20,000 "
            "characters of words (intro, outro and comments) per example; the text here "
            "passes it"])
    hand = "    p1: [" + ", ".join(["KS"] * 519) + ", 4D]\n"
    yield ("limit-setup-cards", {"high-five/examples/01-short.yaml": replace(
        EXAMPLE, "    p1: [KS, 4D]\n", hand)}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:9:10: error: the setup of example 'short-game' has 522 cards; at most 520 "
            "cards per setup (all its lists together); this card is the first past it"])
    terms = "".join(f"- term: T{i}\n  definition: D.\n" for i in range(301))
    yield ("limit-glossary-terms", {"high-five/glossary.yaml": terms}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:601:3: error: glossary.yaml has 301 terms; at most 300 terms per glossary; "
            "this entry is the first past it"])
    words = "".join(f"- term: Point{i:02d}\n  definition: {'d' * 2993}\n" for i in range(21))
    yield ("limit-glossary-text", {"high-five/glossary.yaml": words}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:41:3: error: glossary.yaml has 63,000 characters; at most 60,000 characters "
            "of terms and definitions per glossary; this entry passes it"])
    long_rules = RULES + ("\n" + "r" * 2999 + "\n") * 67        # 7 headings' text + 201,000
    at = long_rules[:200_000]
    yield ("limit-rules-text", {"high-five/rules.md": long_rules}, RULES_FILE,
           [f"{RULES_FILE}:{at.count(chr(10)) + 1}:{200_000 - at.rfind(chr(10))}: error: rules.md has "
            f"{len(long_rules):,} characters; at most 200,000 characters per rules.md; the text "
            "here passes it"])
    many = RULES + "".join(f"\n## Rule {i} {{#r-{i}}}\n\nText.\n" for i in range(295))
    yield ("limit-rules-count", {"high-five/rules.md": many}, RULES_FILE,   # 6 + 295; 19 + 4 * 294 + 2
           [f"{RULES_FILE}:1197:1: error: rules.md has 301 rules; at most 300 rules (headings) per "
            "rules.md; this heading is the first past it"])
    extra = {f"high-five/examples/{i + 2:02d}-more.yaml":
             replace(EXAMPLE, "id: short-game", f"id: more-{i}") for i in range(40)}
    yield ("limit-examples", extra, "content/high-five/examples/41-more.yaml",
           ["content/high-five/examples/41-more.yaml:1:1: error: the game 'high-five' has 41 "
            "examples; at most 40 examples per game; this is the first example past it"])
    big = {f"high-five/examples/{i + 2:02d}-big.yaml":
           f"id: big-{i + 1}\ntitle: Big\nsetup: {{}}\nsteps:\n" + "  - {}\n" * 100
           for i in range(4)}
    yield ("limit-diagrams", big, "content/high-five/examples/05-big.yaml",
           ["content/high-five/examples/05-big.yaml:98:5: error: the rulebook of 'high-five' "
            "has 407 diagrams; at most 400 diagrams per rulebook (one per example and one per "
            "step as replayed); example 'big-4' passes it here"])
    games = {}
    for i in range(1, 21):
        games[f"g{i:02d}/game.yaml"] = replace(GAME, "slug: high-five", f"slug: g{i:02d}")
        games[f"g{i:02d}/rules.md"] = RULES
        games[f"g{i:02d}/glossary.yaml"] = GLOSSARY
        games[f"g{i:02d}/engine.py"] = (FIXTURE / "engine.py").read_text()
    yield ("limit-games", games, "content/g20/game.yaml",
           ["content/g20/game.yaml:1:1: error: the content folder has 21 games; at most 20 "
            "games per content folder; 'g20' is the first game past it"])
    # the rulebook's words: rules.md, glossary and examples each under its own limit, past
    # 300,000 together in the third 18,005-character intro
    sentences = ("Both players choose a card from their hand and reveal the two together.",
                 "The higher card (ace high) scores its player a point.",
                 "If the two cards are equal, nobody scores.",
                 "When the hands are empty, the player with more points wins; equal points is "
                 "a draw.")
    titles = ("Playing", "A round", "Scoring", "Equal cards", "The end", "More points")
    intro = "intro: |\n" + ("  " + "a" * 2999 + "\n\n") * 5 + "  " + "a" * 2999 + "\n"
    book = {"high-five/rules.md": RULES + ("\n" + "r" * 2999 + "\n") * 66,
            "high-five/glossary.yaml": "".join(f"- term: Point{i:02d}\n  definition: "
                                               f"{'d' * 2993}\n" for i in range(19))}
    book.update({f"high-five/examples/0{i}-words.yaml": replace(
        EXAMPLE, "title: A two-round game\n", f"title: Words\n{intro}").replace(
        "id: short-game", f"id: words-{i}") for i in (2, 3, 4)})
    total = (sum(map(len, titles)) + sum(map(len, sentences)) + 66 * 3001 + 19 * 3000
             + len("Play a card; the higher card scores.") + len("A two-round game")
             + 3 * (len("Words") + 5 * 3001 + 3000))
    yield ("limit-book-text", book, "content/high-five/examples/04-words.yaml",
           [f"content/high-five/examples/04-words.yaml:1:1: error: the rulebook of 'high-five' "
            f"has {total:,} characters; at most 300,000 characters of text per rulebook (rules, "
            "glossary, examples' words); the text here passes it"])
    yield ("limit-quickref", {"high-five/game.yaml": GAME + "  - A line.\n" * 40}, GAME_FILE,
           [f"{GAME_FILE}:46:5: error: quickref has 41 lines; at most 40 lines per quickref"])
    # ---- issue 22: nothing vanishes silently
    yield ("kind-templates-a-file", {"templates": "not a folder\n"}, "content/templates",
           ["content/templates:1:1: error: 'templates' must be a folder (of template "
            "overrides), not a file"])
    yield ("kind-game-file-misspelt", {"other/game.yml": GAME}, "content/other/game.yml",
           ["content/other/game.yml:1:1: error: a game's file must be named 'game.yaml', not "
            "'game.yml' (without it the folder is not a game)"])
    yield ("kind-engine-a-folder", {"high-five/engine.py": None, "high-five/engine.py/x": "x"},
           "content/high-five/engine.py",
           ["content/high-five/engine.py:1:1: error: engine.py must be a file (the game's own "
            "engine), not a folder or device"])
    yield ("kind-examples-a-file", {"high-five/examples": "not a folder\n"},
           "content/high-five/examples",
           ["content/high-five/examples:1:1: error: 'examples' must be a folder of example "
            "files (*.yaml), not a file; the game's examples would vanish"])
    yield ("kind-examples-sub-folder", {"high-five/examples/notes/a.txt": "x\n"},
           "content/high-five/examples/notes",
           ["content/high-five/examples/notes:1:1: error: 'notes' in examples/ is a folder; "
            "examples/ holds only example files, each named *.yaml (rename or move it)"])
    yield ("engine-unknown-name", {"high-five/engine.py": None,
                                   "high-five/game.yaml": GAME + "engine: wra\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:9: error: unknown engine 'wra' (available: battle, battle-lines, "
            "deck-management, happy-families, ultimate, war, winning-the-battle); did you mean "
            "'war'?"])
    yield ("rules-heading-only-an-id", {"high-five/rules.md": RULES + "\n## {#blank}\n\nText.\n"},
           RULES_FILE, [f"{RULES_FILE}:21:4: error: the rule's title has no visible character "
                        "(only spaces or invisible characters)"])
    yield ("kind-example-not-yaml", {"high-five/examples/02-more.yml": EXAMPLE},
           "content/high-five/examples/02-more.yml",
           ["content/high-five/examples/02-more.yml:1:1: error: '02-more.yml' in examples/ is "
            "not a .yaml file; examples/ holds only example files, each named *.yaml (rename "
            "or move it)"])
    yield ("name-term-zero-width", {"high-five/glossary.yaml": replace(
        GLOSSARY, "term: Point", "term: \u200b")}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:1:9: error: glossary entry: the term holds an invisible character (U+200B "
            "ZERO WIDTH SPACE); delete it"])
    yield ("name-term-inside", {"high-five/glossary.yaml": replace(
        GLOSSARY, "term: Point", "term: Po\u00adint")}, GLOSSARY_FILE,
           [f"{GLOSSARY_FILE}:1:9: error: glossary entry: the term holds an invisible character (U+00AD "
            "SOFT HYPHEN); delete it"])
    yield ("name-player-bom", {"high-five/game.yaml": replace(
        GAME, "players: {min: 2, max: 2}", "players: {min: 2, max: 2, names: {p1: \ufeff}}")},
           GAME_FILE, [f"{GAME_FILE}:3:39: error: players.names.p1 holds an invisible character (U+FEFF "
               "ZERO WIDTH NO-BREAK SPACE); delete it"])
    yield ("name-game-title-bidi", {"high-five/game.yaml": replace(
        GAME, "title: High Five", "title: \u202eHigh Five")}, GAME_FILE,
           [f"{GAME_FILE}:2:8: error: game.yaml: 'title' holds an invisible character (U+202E "
            "RIGHT-TO-LEFT OVERRIDE); delete it"])
    yield ("name-rule-title-blank", {"high-five/rules.md": replace(
        RULES, "## Equal cards {#tie}", "## \u2060 {#tie}")}, RULES_FILE,
           [f"{RULES_FILE}:11:4: error: the rule's title holds an invisible character (U+2060 WORD "
            "JOINER); delete it"])
    yield ("name-example-title-filler", {"high-five/examples/01-short.yaml": replace(
        EXAMPLE, "title: A two-round game", "title: \u3164")}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:2:8: error: example: the title has no visible character (only spaces or "
            "invisible characters)"])
    yield ("name-book-title-escape", {"index.yaml": INDEX + 'book:\n  title: "\\u200b"\n'}, INDEX_FILE,
           [f"{INDEX_FILE}:3:10: error: book.title holds an invisible character (U+200B ZERO WIDTH "
            "SPACE); delete it"])
    yield ("name-component", {"high-five/game.yaml": GAME + "components:\n  - {name: \u00a0}\n"},
           GAME_FILE, [f"{GAME_FILE}:8:12: error: component: 'name' has no visible character (only spaces or "
               "invisible characters)"])
    yield ("name-option-label", {"high-five/game.yaml": GAME + "options:\n  hand:\n    "
                                 "default: 2\n    label: \u200c\n    text: Cards in hand.\n"},
           GAME_FILE, [f"{GAME_FILE}:10:12: error: option 'hand': the label holds an invisible character "
               "(U+200C ZERO WIDTH NON-JOINER); delete it"])
    # ---- a ninth sample (scripts/mutation.py content --seed 9); balance: (balance.py)
    # is read for form only, its claims tested by ``warbook check --balance``
    yield ("balance-not-a-mapping", {"high-five/game.yaml": GAME + "balance: 20\n"}, GAME_FILE,
           [f"{GAME_FILE}:7:10: error: balance must be a mapping (seconds_per_round, games, "
            "confidence, claims)"])
    yield ("balance-confidence-out-of-range",
           {"high-five/game.yaml": GAME + "balance:\n  confidence: 40%\n"}, GAME_FILE,
           [f"{GAME_FILE}:8:15: error: balance.confidence must be from 50% to below 100%, "
            "got '40%'"])
    line = "  claims: [seat]"
    yield ("balance-claim-not-a-mapping", {"high-five/game.yaml": GAME + "balance:\n" + line + "\n"},
           GAME_FILE, [f"{GAME_FILE}:8:{col(line, 'seat')}: error: a balance claim must be a "
                       "mapping with a kind, such as {claim: seat, at_most: 52%} (kinds: "
                       "length, seat, skill, draws, cap)"])
    line = "    - {claim: length, rounds: 0, share: 99%}"
    yield ("balance-claim-rounds",
           {"high-five/game.yaml": GAME + "balance:\n  claims:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:9:{col(line, '0,')}: error: rounds must be a whole number above 0, "
            "got 0"])
    line = "    - {claim: seat, at_most: 55%, bots: serch}"
    yield ("balance-claim-bots-unknown",
           {"high-five/game.yaml": GAME + "balance:\n  claims:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:9:{col(line, 'serch')}: error: bots must name a bot of the ladder "
            "(random, heuristic, search), got 'serch'; did you mean 'search'?"])
    line = "  - {name: Deck, cuont: 1}"
    yield ("component-unknown-key", {"high-five/game.yaml": GAME + "components:\n" + line + "\n"},
           GAME_FILE, [f"{GAME_FILE}:8:{col(line, 'cuont')}: error: component: unknown key "
                       "'cuont' (allowed: count, name); did you mean 'count'?"])
    # players.max not written is players.min's count: said at the players: mapping
    line = "players: {min: 3}"
    yield ("players-the-engine-does-not-play-unwritten",
           {"high-five/game.yaml": replace(GAME, "players: {min: 2, max: 2}", line)}, GAME_FILE,
           [f"{GAME_FILE}:3:{col(line, '3')}: error: players.min is 3, but the high-five engine "
            "plays 2 players (hint: set players.min to a count the engine plays, or change the "
            "engine)",
            f"{GAME_FILE}:3:{col(line, '{')}: error: players.max is 3, but the high-five engine "
            "plays 2 players (hint: set players.max to a count the engine plays, or change the "
            "engine)"])
    # ---- an eleventh sample (scripts/mutation.py content --seed 11)
    # a confidence of 100% is out of range (below 100%), and so is a rounds: that is a
    # number but not a whole one, or a yes/no
    yield ("balance-confidence-a-hundred",
           {"high-five/game.yaml": GAME + "balance:\n  confidence: 100%\n"}, GAME_FILE,
           [f"{GAME_FILE}:8:15: error: balance.confidence must be from 50% to below 100%, "
            "got '100%'"])
    line = "    - {claim: length, rounds: 1.5, share: 99%}"
    yield ("balance-claim-rounds-not-whole",
           {"high-five/game.yaml": GAME + "balance:\n  claims:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:9:{col(line, '1.5')}: error: rounds must be a whole number above 0, "
            "got 1.5"])
    line = "    - {claim: length, rounds: true, share: 99%}"
    yield ("balance-claim-rounds-yes",
           {"high-five/game.yaml": GAME + "balance:\n  claims:\n" + line + "\n"}, GAME_FILE,
           [f"{GAME_FILE}:9:{col(line, 'true')}: error: rounds must be a whole number above 0, "
            "got True"])
    # the comment that passes the limit on an example's words is where it is said
    comment = "    comment: |\n" + ("      " + "a" * 2999 + "\n\n") * 6 + "      " + "a" * 2999 + "\n"
    yield ("limit-example-words-in-a-comment",
           {"high-five/examples/01-short.yaml": EXAMPLE + comment}, EXAMPLE_FILE,
           [f"{EXAMPLE_FILE}:19:14: error: the example 'short-game' has 21,006 characters; at "
            "most 20,000 characters of words (intro, outro and comments) per example; the text "
            "here passes it"])


# --------------------------------------------------------------------------- decks
#: High Five's engine made to play the game's own cards (GameDef cards="own")
OWN_ENGINE = replace((FIXTURE / "engine.py").read_text(), 'slug="high-five", title="High Five",',
                     'cards="own", slug="high-five", title="High Five",')
DECK_FILE = "content/high-five/cards.csv"
#: a good deck file: the cases break one row or cell of it
CARDS = "code,name,colour,number,count\nR7,Red seven,red,7,2\nB3,Blue three,blue,3,1\n"


def _deck_cases():
    own = {"high-five/engine.py": OWN_ENGINE}

    def deck(decks: str, cards: str | None = CARDS, **more):
        files = {**own, "high-five/game.yaml": GAME + decks, **more}
        if cards is not None:
            files["high-five/cards.csv"] = cards
        return files

    one = "decks:\n  colours: {cards: cards.csv}\n"       # line 7: decks, line 8: colours
    yield ("deck-own-engine-none", own, GAME_FILE,
           [f"{GAME_FILE}:1:1: error: the high-five engine plays the game's own cards "
            "(GameDef cards='own'), and game.yaml declares none"])
    yield ("deck-french-engine", {"high-five/game.yaml": GAME + one, "high-five/cards.csv": CARDS},
           GAME_FILE, [f"{GAME_FILE}:8:3: error: the high-five engine plays the French 52 cards, "
                       "so the game cannot have decks of its own"])
    yield ("deck-not-a-mapping", deck("decks: [cards.csv]\n"), GAME_FILE,
           [f"{GAME_FILE}:7:8: error: decks must be a mapping of deck names to their files and "
            "sizes, got [cards.csv]"])
    five = "decks:\n" + "".join(f"  d{i}: cards.csv\n" for i in range(5))
    yield ("deck-too-many", deck(five), GAME_FILE,
           [f"{GAME_FILE}:8:3: error: the game has 5 decks; at most 4 decks per game"])
    yield ("deck-bad-name", deck("decks:\n  Colours: {cards: cards.csv}\n"), GAME_FILE,
           [f"{GAME_FILE}:8:12: error: a deck's name must be lower-case letters, digits and "
            "hyphens, starting with a letter, got 'Colours'"])
    yield ("deck-spec-kind", deck("decks:\n  colours: [cards.csv]\n"), GAME_FILE,
           [f"{GAME_FILE}:8:12: error: deck 'colours' must be a mapping with cards: (the deck "
            "file) and size:, got [cards.csv]"])
    yield ("deck-no-cards", deck("decks:\n  colours: {size: poker}\n"), GAME_FILE,
           [f"{GAME_FILE}:8:12: error: deck 'colours': 'cards' is missing (the deck file: one "
            "row per card, .csv or .yaml)"])
    yield ("deck-size-unknown", deck("decks:\n  colours: {cards: cards.csv, size: pokr}\n"),
           GAME_FILE, [f"{GAME_FILE}:8:37: error: deck 'colours': unknown card size 'pokr' "
                       "(sizes: poker, bridge, mini, tarot, square, or [width, height] in mm); "
                       "did you mean 'poker'?"])
    yield ("deck-size-range", deck("decks:\n  colours: {cards: cards.csv, size: [63, 300]}\n"),
           GAME_FILE, [f"{GAME_FILE}:8:37: error: deck 'colours': a card of 63 x 300 mm; each "
                       "side must be 20 to 210 mm"])
    yield ("deck-size-kind", deck("decks:\n  colours: {cards: cards.csv, size: 63}\n"),
           GAME_FILE, [f"{GAME_FILE}:8:37: error: deck 'colours': size must be one of poker, "
                       "bridge, mini, tarot, square or [width, height] in mm, got 63"])
    yield ("deck-file-kind", deck("decks:\n  colours: {cards: 7}\n"), GAME_FILE,
           [f"{GAME_FILE}:8:20: error: deck 'colours': cards must be the name of a file in the "
            "game's folder, got 7"])
    yield ("deck-file-missing", deck("decks:\n  colours: {cards: card.csv}\n"), GAME_FILE,
           [f"{GAME_FILE}:8:20: error: deck 'colours': cards: no file 'card.csv' in "
            "content/high-five/; did you mean 'cards.csv'?"])
    yield ("deck-file-outside", deck("decks:\n  colours: {cards: ../../cards.csv}\n",
                                     **{"../cards.csv": CARDS}),
           GAME_FILE, [f"{GAME_FILE}:8:20: error: deck 'colours': cards: '../../cards.csv' is "
                       "outside the content folder (or a link); put the file in the game's folder"])
    yield ("deck-file-type", deck("decks:\n  colours: {cards: rules.md}\n"), GAME_FILE,
           [f"{GAME_FILE}:8:20: error: deck 'colours': cards: 'rules.md' must be a .csv or "
            ".yaml or .yml file"])
    yield ("deck-empty", deck(one, ""), DECK_FILE,
           [f"{DECK_FILE}:1:1: error: the deck file is empty: its first line names the columns "
            "(code, name, count and the cards' fields)"])
    yield ("deck-header-quote", deck(one, 'code,"name\nR7,x\n'), DECK_FILE,
           [f"{DECK_FILE}:1:1: error: a quote is left open in the header line"])
    yield ("deck-column-twice", deck(one, "code,name,name\nR7,a,b\n"), DECK_FILE,
           [f"{DECK_FILE}:1:11: error: the column 'name' is named twice"])
    yield ("deck-no-code-column", deck(one, "cod,name\nR7,a\n"), DECK_FILE,
           [f"{DECK_FILE}:1:1: error: the header names no 'code' column (each card's code, "
            "such as R7, which the examples write); did you mean 'cod'?"])
    rows = "code\n" + "".join(f"C{i}\n" for i in range(301))
    yield ("deck-too-many-rows", deck(one, rows), DECK_FILE,
           [f"{DECK_FILE}:302:1: error: the deck file has 301 rows; at most 300 rows "
            "(distinct cards) per deck"])
    yield ("deck-row-quote", deck(one, CARDS + 'G2,"Green two,green,2,1\n'), DECK_FILE,
           [f"{DECK_FILE}:4:1: error: a quote is left open on this line (a cell may not run "
            "over two lines)"])
    yield ("deck-row-long", deck(one, CARDS + "G2,Green two,green,2,1,extra\n"), DECK_FILE,
           [f"{DECK_FILE}:4:{col('G2,Green two,green,2,1,extra', 'extra')}: error: this row "
            "has 6 cells but the header names 5 columns"])
    yield ("deck-yaml-kind", deck("decks:\n  colours: {cards: cards.yaml}\n", None,
                                  **{"high-five/cards.yaml": "code: R7\n"}),
           "content/high-five/cards.yaml",
           ["content/high-five/cards.yaml:1:1: error: a YAML deck file is a list of cards, one "
            "mapping each (code:, name:, count: and the fields)"])
    many = "".join(f"- {{code: C{i}}}\n" for i in range(301))
    yield ("deck-yaml-too-many", deck("decks:\n  colours: {cards: cards.yaml}\n", None,
                                      **{"high-five/cards.yaml": many}),
           "content/high-five/cards.yaml",
           ["content/high-five/cards.yaml:301:3: error: the deck file has 301 rows; at most 300 "
            "rows (distinct cards) per deck"])
    yield ("deck-yaml-card-kind", deck("decks:\n  colours: {cards: cards.yaml}\n", None,
                                       **{"high-five/cards.yaml": "- {code: R7}\n- R8\n"}),
           "content/high-five/cards.yaml",
           ["content/high-five/cards.yaml:2:3: error: a card must be a mapping (code:, name:, "
            "count: and its fields), got 'R8'"])
    yield ("deck-no-rows", deck(one, "code,name\n"), DECK_FILE,
           [f"{DECK_FILE}:1:1: error: deck 'colours' has no cards"])
    yield ("deck-field-name", deck(one, "code,Colour\nR7,red\n"), DECK_FILE,
           [f"{DECK_FILE}:2:4: error: 'Colour' cannot name a field of the cards (a field is "
            "named in lower-case letters, digits and _, starting with a letter)"])
    yield ("deck-field-attribute", deck(one, "code,suit\nR7,red\n"), DECK_FILE,
           [f"{DECK_FILE}:2:4: error: 'suit' cannot name a field of the cards (a card's own "
            "attribute)"])
    wide = "code," + ",".join(f"f{i}" for i in range(31)) + "\nR7" + "," * 31 + "\n"
    yield ("deck-too-many-fields", deck(one, wide), DECK_FILE,
           [f"{DECK_FILE}:2:1: error: deck 'colours' has 31 fields; at most 30 fields per card"])
    yield ("deck-no-code", deck(one, CARDS + ",Green two,green,2,1\n"), DECK_FILE,
           [f"{DECK_FILE}:4:1: error: this card has no code (the name examples use for it, "
            "such as R7)"])
    yield ("deck-code-form", deck(one, CARDS + "G 2,Green two,green,2,1\n"), DECK_FILE,
           [f"{DECK_FILE}:4:1: error: card code 'G 2' must be letters, digits, '-', '_' or '+' "
            "(at most 16, starting with a letter or digit)"])
    yield ("deck-code-word", deck(one, CARDS + "pass,Green two,green,2,1\n"), DECK_FILE,
           [f"{DECK_FILE}:4:1: error: card code 'pass' is a word YAML or the decisions read "
            "otherwise (all, any, false, n, no, none, null, off, on, pass, true, y, yes); "
            "choose another code"])
    yield ("deck-code-twice", deck(one, CARDS + "r7,Red again,red,7,1\n"), DECK_FILE,
           [f"{DECK_FILE}:4:1: error: card code 'r7' is already used at {DECK_FILE}:2:1 (codes "
            "differ only in case)"])
    yield ("deck-count", deck(one, CARDS + "G2,Green two,green,2,0\n"), DECK_FILE,
           [f"{DECK_FILE}:4:22: error: card 'G2': count must be a whole number from 1 to 999, "
            "got 0"])
    yield ("deck-name-kind", deck("decks:\n  colours: {cards: cards.yaml}\n", None,
                                  **{"high-five/cards.yaml": "- {code: R7, name: [a]}\n"}),
           "content/high-five/cards.yaml",
           ["content/high-five/cards.yaml:1:20: error: card 'R7': name must be text, got [a]"])
    yield ("deck-name-invisible", deck(one, CARDS + "G2,\u200b,green,2,1\n"), DECK_FILE,
           [f"{DECK_FILE}:4:4: error: card 'G2': name holds an invisible character (U+200B ZERO "
            "WIDTH SPACE); delete it"])
    yield ("deck-field-kind", deck("decks:\n  colours: {cards: cards.yaml}\n", None,
                                   **{"high-five/cards.yaml": "- {code: R7, colour: {a: 1}}\n"}),
           "content/high-five/cards.yaml",
           ["content/high-five/cards.yaml:1:22: error: card 'R7': field 'colour' must be text "
            "or a number, got a mapping"])
    yield ("deck-field-long", deck(one, CARDS + "G2,Green two," + "g" * 601 + ",2,1\n"),
           DECK_FILE, [f"{DECK_FILE}:4:14: error: card 'G2': field 'colour' has 601 characters; "
                       "at most 600"])
    yield ("deck-too-many-cards", deck(one, "code,count\nR7,999\n"), DECK_FILE,
           [f"{DECK_FILE}:1:1: error: deck 'colours' has 999 cards; at most 520 cards per "
            "deck, copies counted"])
    two = "decks:\n  colours: {cards: cards.csv}\n  more: {cards: more.csv}\n"
    yield ("deck-code-two-decks", deck(two, CARDS, **{"high-five/more.csv": "code\nX1\nR7\n"}),
           "content/high-five/more.csv",
           ["content/high-five/more.csv:3:1: error: card code 'R7' is in two decks of the game: "
            f"here in 'more' and first in 'colours' at {DECK_FILE}:2:1"])


CASES = list(_cases()) + list(_deck_cases())


@pytest.mark.parametrize("files,path,expected",
                         [pytest.param(f, p, e, id=i) for i, f, p, e in CASES])
def test_a_broken_file_is_a_located_error(content: Path, files, path, expected):
    for name, text in files.items():
        target = content / name
        if target.is_dir():     # a file where the folder was (kind-examples-a-file)
            shutil.rmtree(target)
        if text is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    assert errors(content, path) == expected


def test_a_fenced_block_is_not_read_as_rules(content: Path):
    """A heading inside a code fence is text, not a rule (no "has no id" error)."""
    (content / "high-five" / "rules.md").write_text(RULES + "\n```\n# Not a heading\n```\n")
    assert errors(content) == []


def test_a_game_for_one_player_is_allowed(content: Path):
    """players.min may be 1 (docs/content-format.md: 1 <= min <= max): the format takes it,
    and only the engine, which plays 2 (High Five), refuses it."""
    game = content / "high-five" / "game.yaml"
    game.write_text(replace(GAME, "players: {min: 2, max: 2}", "players: {min: 1, max: 2}"))
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:3:16: error: players.min is 1, but the high-five engine plays 2 players "
        "(hint: set players.min to a count the engine plays, or change the engine)"]


def test_a_glossary_term_too_long_is_left_out(content: Path):
    (content / "high-five" / "glossary.yaml").write_text(
        replace(GLOSSARY, "term: Point", "term: " + "P" * 81))
    report = run_check(Path("content"))
    assert any("a term is one to 80 characters long" in d.message for d in report.diagnostics)
    assert report.content.games[0].glossary == []


def test_an_example_past_the_setup_limit_is_not_replayed(content: Path):
    """The limit on a setup's cards is checked before anything replays the example: after
    its one error the example is left out, so no replay of 522 cards follows."""
    hand = "    p1: [" + ", ".join(["KS"] * 519) + ", 4D]\n"
    (content / "high-five" / "examples" / "01-short.yaml").write_text(
        replace(EXAMPLE, "    p1: [KS, 4D]\n", hand))
    report = run_check(Path("content"))
    said = [d.message for d in report.diagnostics.errors]
    assert len(said) == 1 and "has 522 cards; at most 520" in said[0]
    assert "short-game" not in [e.id for e in report.content.games[0].examples]


def test_a_rule_keeps_every_letter_of_its_text(content: Path):
    """A rule's text is kept as written, blank lines around it aside: a text that begins
    and ends with an X keeps both."""
    (content / "high-five" / "rules.md").write_text(
        RULES + "\n## Xylophones {#xylo}\n\nXylophones are not used; nor is a sax.X\n\n")
    report = run_check(Path("content"))
    rule = report.content.games[0].rule_index()["xylo"]
    assert rule.body == "Xylophones are not used; nor is a sax.X"


def test_a_heading_id_is_the_last_braces_of_the_heading(content: Path):
    """``{#id}`` ends a heading; an earlier ``{#...}`` is part of its title."""
    (content / "high-five" / "rules.md").write_text(
        RULES + "\n## Marks like {#this} in a title {#odd-title}\n\nText.\n")
    assert errors(content) == []
    rule = run_check(Path("content")).content.games[0].rule_index()["odd-title"]
    assert rule.title == "Marks like {#this} in a title"


def test_a_one_letter_term_is_allowed(content: Path):
    (content / "high-five" / "glossary.yaml").write_text(
        replace(GLOSSARY, "term: Point", "term: X"))
    assert errors(content) == []
    assert [t.term for t in run_check(Path("content")).content.games[0].glossary] == ["X"]


@pytest.mark.parametrize("players, counts", [("{}", (2, 2)), ("{min: 1}", (1, 1)),
                                             ("{max: 4}", (2, 4)), ("{min: 3, max: 4}", (3, 4))])
def test_the_player_counts_default_as_documented(content: Path, players, counts):
    """docs/content-format.md: ``min`` defaults to 2, ``max`` to ``min``."""
    game = content / "high-five" / "game.yaml"
    game.write_text(replace(GAME, "players: {min: 2, max: 2}", f"players: {players}"))
    g = run_check(Path("content")).content.games[0]
    assert (g.players_min, g.players_max) == counts


def test_a_hundred_brackets_in_a_paragraph_are_allowed(content: Path):
    """The bound is more than 100 '[' in a paragraph (rules-paragraph-brackets): 100 are
    fine."""
    (content / "high-five" / "rules.md").write_text(RULES + "\nSee\n" + "[a] " * 100 + "\n")
    assert errors(content) == []


def test_a_paragraph_over_the_bound_that_starts_indented_is_said_at_its_line(content: Path):
    """A paragraph of a YAML text whose first line starts with spaces (an indented code
    block in Markdown) has no word at column 1 to find in the file: the error is said at
    the paragraph's first line (line 5 of index.yaml; 'intro: |' is line 2)."""
    (content / "index.yaml").write_text(INDEX + "intro: |\n  Fine.\n\n      "
                                        + "[a] " * 101 + "\n")
    assert errors(content, INDEX_FILE) == [
        f"{INDEX_FILE}:5:1: error: this paragraph is too large for the rulebook's Markdown: "
        "101 '[' (at most 100); split it with blank lines"]


def test_an_option_label_that_is_refused_falls_back_to_the_name(content: Path):
    """name-option-label: the label is refused; the option keeps its name as its label."""
    (content / "high-five" / "game.yaml").write_text(
        GAME + "options:\n  hand:\n    default: 2\n    label: \u200c\n    text: Cards.\n")
    game = run_check(Path("content")).content.games[0]
    assert [(o.name, o.label) for o in game.options] == [("hand", "hand")]


def test_an_examples_folder_that_cannot_be_read(content: Path, monkeypatch):
    """An examples folder the build may not list (tests run as root, who may list any, so
    the refusal is the operating system's error made by hand)."""
    folder = content / "high-five" / "examples"
    real = Path.iterdir

    def iterdir(self):
        if self.name == "examples":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert errors(content, str(folder.relative_to(content.parent))) == [
        "content/high-five/examples:1:1: error: cannot read the examples folder: "
        "Permission denied"]


def test_an_empty_step_is_a_forced_step(content: Path):
    """A step written as a bare ``-`` is a step with nothing written: a forced step, which
    High Five never has (so the replay asks for a decision), not a step of the wrong kind."""
    (content / "high-five" / "examples" / "01-short.yaml").write_text(
        EXAMPLE.split("steps:")[0] + "steps:\n  -\n")
    report = run_check(Path("content"))
    said = [d.format().splitlines()[0] for d in report.diagnostics.errors]
    assert said == [f"{EXAMPLE_FILE}:11:4: error: example 'short-game', step 1: a decision is "
                    "needed (both choose a card from their hand); write it with decide: (p1: "
                    "KS, 4D; p2: KH, 9C)"]


def eights(tmp_path: Path, monkeypatch) -> Path:
    """Crazy Eights (tests/fixtures/eights, whose examples write turns of several parts)
    under ``content/eights`` in a fresh working folder."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURES / "eights", tmp_path / "content" / "eights")
    (tmp_path / "content" / "index.yaml").write_text("games: [eights]\n")
    return tmp_path / "content" / "eights"


def test_a_turn_of_parts_is_one_step_of_its_parts_and_replayed(tmp_path: Path, monkeypatch):
    """A step written with turn: is read as one step holding its parts in order (a draw,
    a reshuffle's chance outcome, a play), and its example is replayed like any other."""
    eights(tmp_path, monkeypatch)
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics] == []
    assert [(r.example.id, r.status) for g in report.games for r in g.replays] == [
        ("eights-suit-or-rank", "pass"), ("eights-an-eight", "pass"),
        ("eights-drawing", "pass"), ("eights-new-stock", "pass"),
        ("eights-out-on-an-eight", "pass")]
    stock = report.content.games[0].examples[3]
    assert [(p.decide, p.chance) for p in stock.steps[0].parts] == [
        ({"p1": "draw"}, None), (None, ["5D", "3S", "AH"]), ({"p1": "5D"}, None)]


def test_a_bare_part_of_a_turn_is_a_forced_part(tmp_path: Path, monkeypatch):
    """A part written as a bare ``-`` is a part with nothing written: a forced part (Bo,
    who can follow nothing after his draw, can only pass), not a part of the wrong kind."""
    game = eights(tmp_path, monkeypatch)
    edit_once(game / "examples" / "03-drawing.yaml", "      - decide: {p2: pass}\n", "      -\n")
    report = run_check(Path("content"))
    assert [d.format() for d in report.diagnostics] == []
    drawing = [r for g in report.games for r in g.replays if r.example.id == "eights-drawing"]
    assert [r.status for r in drawing] == ["pass"]
    assert [(p.decide, p.chance) for p in drawing[0].example.steps[1].parts] == [
        ({"p2": "draw"}, None), (None, None)]


def test_a_claim_takes_the_balance_confidence_unless_it_sets_its_own(content: Path):
    """balance.confidence is the confidence of every claim that does not set its own
    (docs/balance.md); without it, 95%."""
    game = content / "high-five" / "game.yaml"
    game.write_text(GAME + "balance:\n  confidence: 90%\n  claims:\n"
                    "    - {claim: seat, at_most: 52%}\n"
                    "    - {claim: draws, at_most: 5%, confidence: 99%}\n")
    assert errors(content) == []
    claims = run_check(Path("content")).content.games[0].balance.claims
    assert [c.confidence for c in claims] == [pytest.approx(0.9), pytest.approx(0.99)]
    game.write_text(GAME + "balance:\n  claims:\n    - {claim: seat, at_most: 52%}\n")
    claims = run_check(Path("content")).content.games[0].balance.claims
    assert [c.confidence for c in claims] == [pytest.approx(0.95)]


def test_the_texts_of_a_game_and_of_the_collection_are_kept(content: Path):
    (content / "high-five" / "game.yaml").write_text(GAME + "summary: Five cards, five "
                                                     "rounds.\n")
    report = run_check(Path("content"))
    assert report.content.games[0].summary == "Five cards, five rounds."
    assert report.content.intro == ""   # index.yaml without intro: no introduction
    (content / "index.yaml").unlink()     # no index.yaml at all: none either
    assert run_check(Path("content")).content.intro == ""


def test_a_heading_of_the_longest_length_is_allowed(content: Path):
    """A heading line may be MAX_PARAGRAPH characters long (rules-heading-too-long is one
    more)."""
    from builder.content import MAX_PARAGRAPH

    heading = "## " + "A" * (MAX_PARAGRAPH - len("## ") - len(" {#long}")) + " {#long}"
    assert len(heading) == MAX_PARAGRAPH
    (content / "high-five" / "rules.md").write_text(RULES + "\n" + heading + "\n\nText.\n")
    assert [e for e in errors(content) if "a heading of" in e] == []


@pytest.mark.parametrize("counts, said", [((2,), "2"), ((2, 4), "2 or 4"),
                                          ((2, 3, 4), "2 to 4"), ((2, 3, 5), "2, 3 or 5")])
def test_the_player_counts_in_words(counts, said):
    from builder.content.game import players_text_plain

    assert players_text_plain(counts) == said


def test_eight_nested_markers_are_allowed(content: Path):
    """The bound is more than 8 markers on a line (rules-nested-markers): 8 are fine."""
    (content / "high-five" / "rules.md").write_text(RULES + "\n" + "- " * 8 + "deep\n")
    assert errors(content) == []


def test_no_content_folder(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert [d.format() for d in run_check(Path("nope")).diagnostics] == [
        "nope:0:0: error: content folder not found"]


def test_no_games(content: Path):
    shutil.rmtree(content / "high-five")
    (content / "index.yaml").write_text("games: []\n")
    assert errors(content) == ["content:0:0: error: no games here (expected <slug>/game.yaml "
                               "folders)"]


def test_a_file_that_is_not_a_font(content: Path):
    (content / "bad.otf").write_bytes(b"not a font at all")
    (content / "index.yaml").write_text("book:\n  fonts:\n    text: {regular: bad.otf}\n" + INDEX)
    line = "    text: {regular: bad.otf}"
    got = errors(content)                   # in any file: the one error, nothing after it
    assert len(got) == 1, got
    assert run_check(Path("content")).content.book.fonts == {}     # and the file is not used
    assert got[0].startswith(f"{INDEX_FILE}:3:{col(line, 'bad.otf')}: error: 'bad.otf' is not a font "
                             "file fontTools can read (")


def test_a_font_without_the_letters_the_books_need(content: Path):
    from fontTools import subset

    font = subset.load_font("/usr/share/fonts/opentype/cabin/Cabin-Regular.otf",
                            subset.Options())
    subsetter = subset.Subsetter()
    subsetter.populate(unicodes=[ord(c) for c in "AZaz"])
    subsetter.subset(font)
    font.save(str(content / "thin.otf"))
    line = "    text: {regular: thin.otf}"
    (content / "index.yaml").write_text("book:\n  fonts:\n" + line + "\n" + INDEX)
    assert errors(content, INDEX_FILE) == [
        f"{INDEX_FILE}:3:{col(line, 'thin.otf')}: error: 'thin.otf' lacks letters the books need (09.,:)"]
    assert run_check(Path("content")).content.book.fonts == {}     # and the file is not used


# --------------------------------------------------------------------------- completeness
#: call sites whose wording comes from elsewhere (the engine's option check, the engine
#: registry, the card parser), with the case above that pins what they print
RELAYED = {"msg": "game-option-setting-value", "str(e)": "game-engine-broken-file"}


#: the content readers' modules (builder/content/); the kit's and the balance's messages
#: are pinned by tests/test_kit.py and tests/test_lab.py
READERS = sorted(p for p in (ROOT / "builder" / "content").glob("*.py")
                 if p.name not in ("kit.py", "balance.py"))
KIT_AND_BALANCE_FIELDS = {"boolean", "share", "size_mm", "box_mm", "line"}


def _message_fragments() -> list[tuple[str, int, str]]:
    """(module, line, the longest literal piece of the message) of every error the content
    readers report, and of every message a field validator raises (ValueError)."""
    out = []
    for path in READERS:
        tree = ast.parse(path.read_text())
        tree.body = [node for node in tree.body  # the validators only the kit and balance
                     if not (isinstance(node, ast.FunctionDef)  # use: theirs to pin
                             and node.name in KIT_AND_BALANCE_FIELDS)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "error":
                msg = node.args[1]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "ValueError" and node.args:
                msg = node.args[0]
            else:
                continue
            pieces = [c.value for c in ast.walk(msg)
                      if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            literal = max(pieces, key=len) if pieces else ast.unparse(msg)
            out.append((path.name, node.lineno, literal))
    return sorted(out)


def test_every_message_has_a_case():
    expected = " ".join(line for case in CASES for line in case[3])
    expected += " content folder not found no games here (expected <slug>/game.yaml folders)"
    expected += " ' is not a font file fontTools can read ( ' lacks letters the books need ("
    # tests/content/test_content_kinds.py and test_font_check.py: a file given as the content
    # folder, an unreadable examples folder (root reads any), a font over the size limit or
    # unreadable
    # tests/content/test_decks.py: two games give one shipped engine two sets of decks
    expected += " decks: "
    expected += (" the content folder is a file, not a folder cannot read the examples folder: "
                 " bytes per font file ' cannot be read: ")
    ids = {case[0] for case in CASES}
    missing = []
    for module, lineno, fragment in _message_fragments():
        if fragment in RELAYED:
            assert RELAYED[fragment] in ids
            continue
        if fragment.strip() not in expected:
            missing.append(f"builder/content/{module}:{lineno}: {fragment!r}")
    assert not missing, "messages no case pins:\n" + "\n".join(missing)
    assert len(_message_fragments()) >= 70


@pytest.mark.parametrize("value, said", [
    ("[lower]", "9: error: option 'wins' must be one of higher, lower, got ['lower']"),
    ("-0.0", "9: error: option 'wins' must be one of higher, lower, got -0.0"),
    # a mapping is a printed option (default, label, text): the merged key is unknown
    ("{<<: {a: 1}}", "15: error: option 'wins': unknown key 'a' (allowed: default, label, "
                     "text)"),
])
def test_a_fixed_setting_of_the_wrong_type_is_said_at_its_line(tmp_path: Path, value, said):
    """Peace fixes War's ``wins`` option in its game.yaml; a value the engine's option
    refuses is an error at its line, and the engine never sees it (it was an internal
    error: the engine's SetupError when the rules were counted)."""
    content = copy_shipped_game(tmp_path, "peace")
    game = content / "peace" / "game.yaml"
    text = game.read_text()
    edit_once(game, "\n  wins: lower\n", f"\n  wins: {value}\n")
    line = text[:text.index("\n  wins: lower\n")].count("\n") + 2
    report = run_check(content)
    first = report.diagnostics.errors[0].format().split("\n")[0]
    assert first == f"{content}/peace/game.yaml:{line}:{said}"


@pytest.mark.parametrize("old, new, key, plays", [
    ("  max: 2\n", "  max: 6\n", "max", "2"),
    ("  min: 2\n", "  min: 1\n", "min", "2"),
])
def test_player_counts_the_engine_does_not_play_are_said(tmp_path: Path, old, new, key, plays):
    """The engine is the one source of player counts (the covers print its counts): a
    game.yaml that says War plays 2 to 6 is an error at the count."""
    content = copy_shipped_game(tmp_path, "war")
    game = content / "war" / "game.yaml"
    text = game.read_text()
    edit_once(game, old, new)
    line = text[:text.index(old)].count("\n") + 1
    (error,) = [d.format().split("\n")[0] for d in run_check(content).diagnostics.errors]
    value = new.split(":")[1].strip()
    assert error == (f"{content}/war/game.yaml:{line}:8: error: players.{key} is {value}, but "
                     f"the war engine plays {plays} players (hint: set players.{key} to a "
                     f"count the engine plays, or change the engine)")


def test_an_unknown_option_lists_every_option_of_the_engine(content: Path):
    """game-unknown-option with an engine of two options (High Five's engine given a
    second): the error names them both, separated by a comma."""
    engine = content / "high-five" / "engine.py"
    edit_once(engine, "minimum=1, maximum=26)}",
              "minimum=1, maximum=26),\n           \"ace\": Option(\"ace\", \"high\", \"Aces.\", "
              "choices=(\"high\", \"low\"))}")
    (content / "high-five" / "game.yaml").write_text(GAME + "options:\n  hands: 3\n")
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:8:3: error: the high-five engine has no option 'hands' (it has: hand, "
        "ace); did you mean 'hand'?"]


def test_the_tagline_of_a_game_is_kept(content: Path):
    (content / "high-five" / "game.yaml").write_text(GAME + "tagline: Five cards, one winner.\n")
    assert run_check(Path("content")).content.games[0].tagline == "Five cards, one winner."


def test_cover_cards_are_kept_as_written_when_the_engine_cannot_be_read(content: Path):
    """With engine.py broken (game-engine-broken-file) the cover's codes cannot be checked:
    none is called wrong, and the cover shows them as written."""
    (content / "high-five" / "engine.py").write_text("GAME = None\n\ndef broken(:\n    pass\n")
    (content / "high-five" / "game.yaml").write_text(GAME + "cover_cards: [2S, 1H]\n")
    report = run_check(Path("content"))
    assert [e for e in errors(content) if "cover_cards" in e] == []
    assert report.content.games[0].cover_cards == ["2S", "1H"]


def test_a_misnamed_game_file_is_said_after_a_folder_that_cannot_be_read(content: Path,
                                                                           monkeypatch):
    """kind-game-file-misspelt in a folder after one the build may not list: the unreadable
    folder is passed over, not the end of the search (the refusal is made by hand: tests run
    as root)."""
    (content / "aaa").mkdir()
    (content / "other").mkdir()
    (content / "other" / "game.yml").write_text(GAME)
    real = Path.iterdir

    def iterdir(self):
        if self.name == "aaa":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert errors(content, "content/other/game.yml") == [
        "content/other/game.yml:1:1: error: a game's file must be named 'game.yaml', not "
        "'game.yml' (without it the folder is not a game)"]


def test_rules_hold_their_part_and_parent(content: Path):
    """Each rule of rules.md is in the rules part (not golden rules, not clarifications),
    and a rule under a heading names that heading's rule as its parent."""
    rules = run_check(Path("content")).content.games[0].rules
    every = [r for top in rules for r in [top, *top.children]]
    assert [(r.id, r.parent, r.part) for r in every] == [
        ("playing", None, "rules"), ("play", "playing", "rules"),
        ("higher-scores", "playing", "rules"), ("tie", "playing", "rules"),
        ("end", None, "rules"), ("most-points", "end", "rules")]


@pytest.mark.parametrize("written", ["  zzz: 1\n", "  zzz: {default: 1, label: Z, text: A setting.}\n"])
def test_an_option_war_does_not_have_is_said_and_left_out(tmp_path: Path, monkeypatch, written):
    """An option the engine does not have is said at its name and never reaches the
    engine (War refuses a setup with an unknown option: the check once stopped there with
    an internal error)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "content" / "war", tmp_path / "content" / "war")
    (tmp_path / "content" / "index.yaml").write_text("games: [war]\n")
    game = tmp_path / "content" / "war" / "game.yaml"
    game.write_text(game.read_text().replace("options:\n", "options:\n" + written, 1))
    report = run_check(Path("content"))
    assert [d.format().splitlines()[0] for d in report.diagnostics.errors] == [
        "content/war/game.yaml:19:3: error: the war engine has no option 'zzz' (it has: "
        "max_tricks, wins, aces, war_cards)"]
    assert "zzz" not in report.content.games[0].option_defaults()
    assert [r.status for r in report.games[0].replays] == ["pass"] * 8
