"""The compendium's index (builder/render/book/backindex.py): entries made from the games'
glossaries and numbered rules, filed as a reader looks them up. Worked by hand on three
small games."""

from __future__ import annotations

from types import SimpleNamespace as NS

from builder.render.book.backindex import compendium_index, sort_key


def game(title, slug, terms=(), rules=()):
    return NS(title=title,
              glossary=[NS(term=t, anchor=f"{slug}--term-{t.lower()}") for t in terms],
              all_rules=[NS(title=t, number=n, anchor=f"{slug}--{n}") for n, t in rules])


def flat(groups):
    return [(grp.letter, e.heading, [(r.game, r.what) for r in e.refs]) for grp in groups
            for e in grp.entries]


def test_a_heading_games_share_is_one_entry_in_the_games_order():
    games = [game("War", "war", terms=["Deck", "General"], rules=[("3.1", "Dealing"), ("4.", "The war")]),
             game("Peace", "peace", terms=["deck"], rules=[("3.1", "Dealing")]),
             game("Battle", "battle", rules=[("2.", "Aces"), ("5.6", "The end of a battle")])]
    assert flat(compendium_index(games)) == [
        ("A", "Aces", [("Battle", "2")]),                      # "2." prints as "2"
        ("D", "Dealing", [("War", "3.1"), ("Peace", "3.1")]),
        ("D", "Deck", [("War", "glossary"), ("Peace", "glossary")]),  # case ignored
        ("E", "The end of a battle", [("Battle", "5.6")]),     # filed under its words
        ("G", "General", [("War", "glossary")]),
        ("W", "The war", [("War", "4")]),
    ]


def test_a_rule_and_a_term_of_one_name_gather_under_their_game():
    games = [game("Battle Lines", "bl", terms=["Flank"], rules=[("4.3", "Flank")]),
             game("War", "war", terms=["Flank"])]
    (group,) = compendium_index(games)
    (entry,) = group.entries
    assert [(g, [r.what for r in refs]) for g, refs in entry.by_game] == [
        ("Battle Lines", ["4.3", "glossary"]), ("War", ["glossary"])]


def test_filing_passes_over_articles_accents_and_case_and_puts_the_rest_last():
    assert sorted(["The Zebra", "an apple", "Éclair", "banana"], key=sort_key) == [
        "an apple", "banana", "Éclair", "The Zebra"]
    groups = compendium_index([game("G", "g", terms=["3 of a kind", "Ace"])])
    assert [grp.letter for grp in groups] == ["A", "#"]
