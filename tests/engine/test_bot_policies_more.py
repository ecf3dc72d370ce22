"""The heuristic players of Battle Lines, Winning the Battle, Deck Management and Ultimate,
held to the policy each engine's ``heuristic`` docstring states (as test_bot_policies.py
does for Battle). Each position is built so that one part of the policy alone decides, and
the expected decision is worked by hand in the test's docstring. The balance figures the
rulebooks print (docs/balance.md) are measured with these bots, so a changed weight or a
flipped comparison that makes a bot play differently must fail here."""

from __future__ import annotations

import random

import pytest

from builder.engine.battle_lines import GAME as LINES, Line, Reinforcement
from builder.engine.core import Card, parse_cards
from builder.engine.deck_management import GAME as DECK
from builder.engine.ultimate import GAME as ULTIMATE
from builder.engine.winning_the_battle import GAME as WTB

SEEDS = range(20)


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def setup(game, piles: dict[str, str], **extra):
    return game.from_setup(game.resolve(extra.pop("options", {})),
                           {"piles": {k: v.split() for k, v in piles.items()}, **extra})


# --------------------------------------------------------------------------- Battle Lines
def line(text: str) -> Line:
    """``"5H 2C -"``: the cards at left, centre and right (``-`` for an empty position)."""
    got = [None if w == "-" else Card.parse(w) for w in text.split()]
    return Line(*got)


def lines_turn(p1_hand: str, p2_hand: str):
    """A normal turn: both hold four, both decks hold more."""
    return setup(LINES, {"p1.hand": p1_hand, "p1.deck": "7C 8C", "p2.hand": p2_hand,
                         "p2.deck": "7D 8D"})


def blind(state, player="p1", seed=0) -> tuple[Line, Card]:
    """The bot's line and the card it keeps back."""
    got = LINES.heuristic(state, player, random.Random(seed))
    kept = [c for c in state.hands[player] if c not in got.cards()]
    assert len(kept) == 1
    return got, kept[0]


def test_lines_blind_keeps_the_low_card_back_and_the_strongest_in_the_centre():
    """Hand 3H 9C JD KS, four suits, so no reserve can match a flank card. Every card kept
    back is lost to the line, so the bot keeps the lowest, 3H; of the line 9C JD KS the
    strongest, KS, goes to the centre, which no reserve can help."""
    got, kept = blind(lines_turn("3H 9C JD KS", "2D 4D 5D 6D"))
    assert kept == Card("3", "H")
    assert got.centre == Card("K", "S")


def test_lines_blind_keeps_a_matching_card_back_over_a_lower_unmatched_one():
    """Hand 3H 5S 9S KD. Kept back, 5S can reinforce the flank where 9S lies (same suit);
    3H matches no other card. By the docstring a matching reserve counts 0.6 of its rank
    and an unmatched one 0.25, so keeping 5S costs 0.4 x 5 = 2.0 and keeping 3H costs
    0.75 x 3 = 2.25: the bot keeps 5S, puts 9S on a flank and KD in the centre. (A bot
    that valued every reserve at 0.25 would keep the 3.)"""
    got, kept = blind(lines_turn("3H 5S 9S KD", "2D 4D 6D 7D"))
    assert kept == Card("5", "S")
    assert got.centre == Card("K", "D")
    assert Card("9", "S") in (got.left, got.right)


def test_lines_blind_gives_up_the_centre_bonus_for_a_reserve_that_can_help():
    """Hand 5S KS JD 9C; 5S is the lowest card and matches only KS. With KS on a flank
    (JD in the centre) the reserve 5S can reinforce there: 33 + 0.1 x 11 + 0.6 x 5 = 37.1.
    With KS in the centre it matches nothing: 33 + 0.1 x 13 + 0.25 x 5 = 35.55. A tenth of
    a rank for the centre is a tie-break, worth less than a reserve that can help: KS goes
    to a flank. (Keeping 9C back instead: 29 + 1.3 + 0.25 x 9 = 32.55.)"""
    got, kept = blind(lines_turn("5S KS JD 9C", "2D 4D 6D 7D"))
    assert kept == Card("5", "S")
    assert got.centre == Card("J", "D")


def reinforce_position(p1_line: str, p1_reserve: str, p2_line: str):
    s = lines_turn(" ".join(w for w in p1_line.split() + [p1_reserve] if w != "-"),
                   p2_line.replace("-", "") + " KD")
    s.apply({"p1": line(p1_line), "p2": line(p2_line)})
    assert s.phase == "reinforce"
    return s


def test_lines_reinforces_where_the_reserve_wins_rather_than_where_it_ties():
    """p1's left 5H faces p2's right 9H; p1's right 4S faces p2's left 6H; the reserve 4H
    matches a card on each flank, so both are legal. Left: 5 + 4 = 9 only ties 9H; right:
    4 + 4 = 8 beats 6H. A win comes before a tie: the bot reinforces its right flank."""
    s = reinforce_position("5H 2C 4S", "4H", "6H 3C 9H")
    assert LINES.heuristic(s, "p1", random.Random(0)) == Reinforcement(("right",))


def test_lines_reinforces_to_tie_when_no_win_is_in_reach():
    """p1's left 5H faces 9H and the reserve 4H makes it 9: a tie, which saves the 5H and
    keeps the 4H in p1's own captured pile, better than losing the 5H. The right flank KS
    beats 6H and cannot be reinforced. The bot reinforces its left flank."""
    s = reinforce_position("5H 2C KS", "4H", "6H 3C 9H")
    assert LINES.heuristic(s, "p1", random.Random(0)) == Reinforcement(("left",))


def test_lines_passes_when_the_reserve_cannot_turn_the_loss():
    """p1's left 5H faces QH; the reserve 4H (legal: same suit) makes 9, still a loss, and
    would only hand the 4H over too. The bot passes."""
    s = reinforce_position("5H 2C KS", "4H", "6H 3C QH")
    assert LINES.heuristic(s, "p1", random.Random(0)) == Reinforcement(())


def all_tied_turn():
    """One turn played in which every position tied: p1's 5H 6H 7H (left to right) meet
    p2's 7S 6S 5S (p2's left faces p1's right), so 5-5, 6-6, 7-7; nobody can reinforce
    (no card is lower), and every line card goes back to its owner's hand."""
    s = lines_turn("5H 6H 7H 2C", "7S 6S 5S 2D")
    s.apply({"p1": line("5H 6H 7H"), "p2": line("7S 6S 5S")})
    assert s.turns == 1 and set(s.battles.values()) == {"tie"}
    return s


def test_lines_changes_its_line_after_a_turn_that_tied_everywhere():
    """After the all-tie turn the bot holds the same four cards; its blind choice would be
    the same line, which would tie again. By the policy it deploys at random instead: over
    twenty seeds it does not play one line only."""
    s = all_tied_turn()
    assert len({LINES.heuristic(s, "p1", random.Random(seed)) for seed in SEEDS}) > 1


def test_lines_keeps_its_blind_choice_after_a_turn_that_did_not_tie_everywhere():
    """The same cards, but p1's left 5H beat p2's 4S: two ties and a capture. Nothing
    calls for a change: the bot deploys by its blind choice, the same line every seed. Its
    hand is 2C (the reserve), 6H and 7H (back from the ties) and 7C (drawn); it keeps the
    lowest, 2C, back."""
    s = lines_turn("5H 6H 7H 2C", "7S 6S 4S 2D")
    s.apply({"p1": line("5H 6H 7H"), "p2": line("7S 6S 4S")})
    assert s.turns == 1 and sorted(s.battles.values()) == ["p1", "tie", "tie"]
    got = {LINES.heuristic(s, "p1", random.Random(seed)) for seed in SEEDS}
    assert len(got) == 1
    (chosen,) = got
    assert set(s.hands["p1"]) - set(chosen.cards()) == {Card("2", "C")}


def last_turn(p1_hand: str, p2_hand: str, p1_line: str):
    """The last turn with unequal holdings: both decks are empty; p1 holds more, deploys
    ``p1_line`` face up, and p2 deploys after seeing it."""
    s = setup(LINES, {"p1.hand": p1_hand, "p2.hand": p2_hand})
    assert s.phase == "deploy-first" and s.first == "p1"
    s.apply({"p1": line(p1_line)})
    assert s.phase == "deploy-second"
    return s


def test_lines_seen_deployment_takes_the_default_rather_than_a_loss():
    """p1 holds two and lays 3H on the left and KC on the right, the centre empty; p2's
    one card, 2S, loses to both. Facing either, p2 loses two cards and the other p1 card
    captures by default: net -3. In the centre, 2S captures by default and both p1 cards
    do too: net +1 - 2 = -1. The bot plays 2S in its centre."""
    s = last_turn("3H KC", "2S", "3H - KC")
    assert LINES.heuristic(s, "p2", random.Random(0)) == line("- 2S -")


def test_lines_seen_deployment_wins_a_card_rather_than_take_the_default():
    """The same p1 line (3H left, KC right); p2 holds AS, which beats both. Facing a card:
    +2 for the win, -1 for the other p1 card's default: net +1. In the centre: +1 - 2 = -1.
    Both wins take two cards; the wider margin breaks the tie: the ace faces 3H (a margin
    of 11, against 1 over KC), from p2's right."""
    s = last_turn("3H KC", "AS", "3H - KC")
    assert LINES.heuristic(s, "p2", random.Random(0)) == line("- - AS")


def test_lines_seen_deployment_wins_the_most_cards_not_the_biggest_margin():
    """p1 lays 2H, 9D, 10C (left to right) with 4S kept back; p2 holds 3S and AS. Two wins
    are possible, 3S over 2H and the ace over 9D or 10C: +2 +2 and -1 for the p1 card left
    facing an empty position, net +3. Any line that uses the ace on 2H leaves 3S to lose
    (net -1). The bot lays 3S against 2H (on its right) and the ace against 9D or 10C."""
    s = last_turn("2H 9D 10C 4S", "3S AS", "2H 9D 10C")
    got = LINES.heuristic(s, "p2", random.Random(0))
    assert got.right == Card("3", "S")
    assert Card("A", "S") in (got.left, got.centre)


def test_lines_seen_deployment_loses_no_card_it_can_keep():
    """p1 lays 4H, 9D, QC; p2 holds 5S and 10S. 5S beats 4H (p2's right) and 10S beats 9D
    (centre): +2 +2 -1 = +3. Every other line loses a card to QC or to 9D. The bot plays
    exactly that line, with its left flank (facing QC) empty."""
    s = last_turn("4H 9D QC 2C", "5S 10S", "4H 9D QC")
    assert LINES.heuristic(s, "p2", random.Random(0)) == line("- 10S 5S")


def test_lines_seen_deployment_reads_the_other_line_from_either_seat():
    """The seats swapped: p2 holds two and lays 3H on its left (facing p1's right) and KC
    on its right (facing p1's left), the centre empty; p1 holds 2S alone. As for p2 above,
    the centre is best (net -1 against -3): p1 plays 2S in its centre."""
    s = setup(LINES, {"p1.hand": "2S", "p2.hand": "3H KC"})
    assert s.phase == "deploy-first" and s.first == "p2"
    s.apply({"p2": line("3H - KC")})
    assert LINES.heuristic(s, "p1", random.Random(0)) == line("- 2S -")


def test_lines_last_turn_blind_deployment_without_a_reserve():
    """The last turn with equal holdings: both decks are empty and both hold two, so both
    deploy blind, all their cards, with no reserve. The line is worth its ranks plus a
    tenth of the centre's: the king goes to the centre, the five to a flank."""
    s = setup(LINES, {"p1.hand": "5H KS", "p2.hand": "4D 9D"})
    assert s.phase == "deploy" and s.last_turn
    got = LINES.heuristic(s, "p1", random.Random(0))
    assert got.centre == Card("K", "S") and Card("5", "H") in (got.left, got.right)


def test_lines_seen_deployment_wins_by_the_widest_margin_among_equal_lines():
    """p1 lays 2H, 9D, 10C; p2 holds 3S and JS. Two wins either way: 3S over 2H, and JS
    over 9D (margin 2) or over 10C (margin 1). Equal cards, so the wider margins decide:
    JS in the centre against 9D, 3S on the right against 2H."""
    s = last_turn("2H 9D 10C 4S", "3S JS", "2H 9D 10C")
    assert LINES.heuristic(s, "p2", random.Random(0)) == line("- JS 3S")


def test_lines_seen_deployment_takes_a_win_and_a_tie_over_a_wider_win_and_a_loss():
    """p1 lays 5H, 9D, KC; p2 holds 9S and 6S. No line wins twice (6S beats only 5H). 6S
    over 5H and 9S tying 9D: +2 + 0 - 1 = +1. 9S over 5H (the wider margin, 4) leaves 6S
    to lose: +2 - 2 - 1 = -1. More cards first, margins only among equals: 6S on the right
    (against 5H), 9S in the centre (against 9D)."""
    s = last_turn("5H 9D KC 2C", "9S 6S", "5H 9D KC")
    assert LINES.heuristic(s, "p2", random.Random(0)) == line("- 9S 6S")


def test_lines_seen_deployment_prefers_a_win_and_a_loss_to_two_ties():
    """p1 lays 5H, 9D, KC; p2 holds 5S and 9S. Two ties (5-5, 9-9) take nothing: net -1
    (KC captures by default). 9S over 5H and 5S lost to 9D: +2 - 2 - 1 = -1 too. Equal
    cards, and only the second wins anything (by 4): the bot lays 9S against 5H (on its
    right) and does not tie twice."""
    s = last_turn("5H 9D KC 2C", "5S 9S", "5H 9D KC")
    got = LINES.heuristic(s, "p2", random.Random(0))
    assert got.right == Card("9", "S")


# --------------------------------------------------------------------------- Winning the Battle
FULL = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]


def wtb(p1_deck: str | int, p2_deck: str | int, stones: dict[str, int] | None = None):
    """A position at the start of a battle; a deck given as a number is that many cards."""
    decks = {p: (" ".join(FULL[:d]) if isinstance(d, int) else d)
             for p, d in (("p1.deck", p1_deck), ("p2.deck", p2_deck))}
    return setup(WTB, decks, **({"stones": stones} if stones else {}))


def draws(state, player="p1") -> set[int]:
    return {WTB.heuristic(state, player, random.Random(seed)) for seed in SEEDS}


def test_wtb_draws_one_more_than_the_opponents_share_give_or_take_one():
    """The first battle: 52 cards each, three stones to win. Each spreads their deck over
    the battles they still need plus one to spare: 52 / 4 = 13. The bot tries to draw one
    more than the opponent's share, 14, and adds noise of -1..+1: over twenty seeds it
    draws 13, 14 and 15 and nothing else."""
    assert draws(wtb(52, 52)) == {13, 14, 15}


def test_wtb_noise_keeps_the_plan_half_the_time():
    """The first battle again (plan 14). The noise leaves the plan half the time and takes
    one off or adds one a quarter of the time each: over 2,000 seeds 14 is drawn in 46-54 %
    of them and 13 and 15 in 21-29 % each (each band over four standard deviations
    wide)."""
    s = wtb(52, 52)
    got = [WTB.heuristic(s, "p1", random.Random(seed)) for seed in range(2000)]
    assert 0.46 < got.count(14) / 2000 < 0.54
    assert 0.21 < got.count(13) / 2000 < 0.29 and 0.21 < got.count(15) / 2000 < 0.29


def test_wtb_spreads_its_own_deck_when_that_share_is_larger():
    """p1 holds a stone (needs two more) and 45 cards; p2 needs three and holds 20. p1's
    share is 45 / (2 + 1) = 15; one more than p2's is 20 / 4 + 1 = 6. The larger, 15, with
    the noise: 14, 15 or 16."""
    assert draws(wtb(45, 20, {"middle": 2, "p1": 1, "p2": 0})) == {14, 15, 16}


def test_wtb_reckons_the_opponents_share_from_the_stones_they_need():
    """p2 holds two stones (needs one) and 30 cards; p1 needs three and holds 30. p1's own
    share is 30 / 4 = 7.5; the opponent spreads over 1 + 1 battles: 30 / 2 = 15, and one
    more is 16. With the noise: 15, 16 or 17."""
    assert draws(wtb(30, 30, {"middle": 1, "p1": 0, "p2": 2})) == {15, 16, 17}


def test_wtb_keeps_one_card_back():
    """p1 holds 3 cards against 40: the plan (40 / 4 + 1 = 11) is far above what p1 has,
    but a player who cannot draw at the start of a battle loses, so p1 keeps one back and
    draws 2, whatever the noise. With one card left there is nothing to keep: it draws 1."""
    assert draws(wtb(3, 40)) == {2}
    assert draws(wtb(2, 40)) == {1}
    assert draws(wtb(1, 40)) == {1}


def test_wtb_draws_at_least_one_card_when_the_noise_would_take_it_to_none():
    """p1 holds 5 cards, p2 only 1, both need three stones: the plan is max(5 / 4, 1 / 4 +
    1) = 1.25 -> 1, and the noise -1..+1 makes 0, 1 or 2. A player draws at least one
    card: 1 or 2, both seen over twenty seeds."""
    assert draws(wtb(5, 1)) == {1, 2}


def test_wtb_draws_its_whole_deck_when_that_surely_wins_the_outflank_and_the_game():
    """p1 needs one stone and holds 5 cards against p2's 4. Drawing all 5, p1 is sure to
    hold the longer line (p2 can draw at most 4), and this battle can end the game: the
    policy drops the card kept back and draws 5 (the plan, 5 / 2 = 2.5 -> 2, give or take
    one, is raised to 4 + 1). With 2 cards against 1 it likewise draws both."""
    assert draws(wtb(5, 4, {"middle": 1, "p1": 2, "p2": 0})) == {5}
    assert draws(wtb(2, 1, {"middle": 1, "p1": 2, "p2": 0})) == {2}


def test_wtb_draws_just_enough_to_outflank_when_it_holds_plenty():
    """p1 needs one stone and holds 8 cards against 4: the plan is 8 / 2 = 4, give or take
    one (3..5), raised to one more than p2 can draw, 5. It need not draw more: always 5."""
    assert draws(wtb(8, 4, {"middle": 1, "p1": 2, "p2": 0})) == {5}


def test_wtb_keeps_a_card_back_when_it_cannot_be_sure_to_outflank():
    """p1 needs one stone but holds no more cards than p2 (3 each), so p2 could match any
    line: p1 keeps one card back. The plan is max(3 / 2, 3 / 4 + 1) = 1.75 -> 2, give or
    take one, capped at 3 - 1 = 2: p1 draws 1 or 2, never all 3."""
    assert draws(wtb(3, 3, {"middle": 1, "p1": 2, "p2": 0})) <= {1, 2}


def outflank(p1_deck: str, p2_deck: str, p1_draws: int, p2_draws: int):
    s = wtb(p1_deck, p2_deck)
    s.apply({"p1": p1_draws, "p2": p2_draws})
    assert s.outflanker == "p1"
    return s


def test_wtb_outflank_weighs_each_rank_by_how_many_unseen_cards_hold_it():
    """p1 draws 4, p2 draws 3. Lines: KC over 2S (p1 wins), 7C against 7S (tie), 5C under
    10S (p2 wins): one win each, worth 0 stones now. p1's unseen cards (the extra 8C in
    hand and the deck 8D 8H 2C JC) are three 8s, a 2 and a jack: 5 cards.
    Position 2 (the tie, against 7): an 8 or the jack wins it (1-2 becomes 2-1, +1 stone,
    +0.01 for the margin), the 2 loses it (-1.01): (3 x 1.01 + 1.01 - 1.01) / 5 = 0.606.
    Position 3 (against 10): only the jack wins it (2-0 with a tie, +1.02), the rest change
    nothing: 1.02 / 5 = 0.204. Position 1 can only get worse (the 2 ties it: -1.01 / 5).
    The bot covers position 2. (Counting each rank once, not by its number of cards, it
    would rate position 2 at (1.01 / 3 - 1.01 + 1.01) / 5 = 0.067 and cover position 3.)"""
    s = outflank("KC 7C 5C 8C 8D 8H 2C JC", "2S 7S 10S 3S 4S", 4, 3)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 2


def test_wtb_outflank_stops_when_every_pair_is_already_won():
    """p1's KC and QC beat 2S and 3S: a clean sweep, two stones. Any cover can only keep
    or lose a position, so no position can be improved: the bot stops."""
    s = outflank("KC QC 4C 5C 6C", "2S 3S 9S", 3, 2)
    assert WTB.heuristic(s, "p1", random.Random(0)) == "stop"


def test_wtb_outflank_chases_the_clean_sweep():
    """p1's KC beats 2S and 7C ties 7S: p1 wins 1-0, one stone. Unseen: QC (the extra), KD
    and 2C. Covering position 2 with the queen or the king wins every pair, a clean sweep
    worth a second stone (+1.01); the 2 loses it, 1-1, no stone (-1.01):
    (1.01 + 1.01 - 1.01) / 3 > 0. Covering position 1 can only lose ground. The bot covers
    position 2 (without the sweep's extra stone it would stop)."""
    s = outflank("KC 7C QC KD 2C", "2S 7S 9S", 3, 2)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 2


def test_wtb_outflank_covers_for_the_margin_when_no_stone_can_change():
    """Four pairs: 2C 3C 4C 9C against KS QS JS 9S: p2 wins three, one tie; p2 takes one
    stone whatever p1's one extra does. The unseen cards are KC (the extra) and KD: a king
    on position 2 or 3 wins it (margin +2, stones unchanged), on 1 or 4 it ties or wins
    (+1). The margin bonus breaks the tie between covering and stopping: the bot covers
    position 2 or 3 rather than discard the king unseen."""
    s = outflank("2C 3C 4C 9C KC KD", "KS QS JS 9S 5S", 5, 4)
    assert WTB.heuristic(s, "p1", random.Random(0)) in (2, 3)


def test_wtb_outflank_weighs_stones_not_the_margin():
    """Five pairs: 2C 3C 4C 9C 5C against KS QS JS 8S 5S: p2 wins three, p1 one, one tie
    (5-5): p2 takes a stone. Unseen: KC (the extra) and 6C 6D 6H 6S, five cards.
    Covering position 2 (against QS) or 3 (JS) with the king wins it: 2-2 and no stone
    moves, +1 stone for p1, with chance 1/5: 1.02 / 5 = 0.204. Covering the tie (5) with
    any of them wins it, but 2-3 still gives p2 the stone: only the margin bonus, 0.01.
    Stones come first, the margin only breaks ties: the bot covers position 2 (the first
    of the two equal ones)."""
    s = outflank("2C 3C 4C 9C 5C KC 6C 6D 6H 6S", "KS QS JS 8S 5S 4S", 6, 5)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 2


def test_wtb_outflank_takes_the_sure_draw_over_a_likely_win():
    """Four pairs: KC beats 2S, 6C ties 6S, 2C and 3C lose to 9S and 8S: p2 wins 2-1 and
    takes a stone (worth -1 to p1). Unseen: the extra 7C and 7D 7H 10C 10D. Covering the
    tie: every unseen card beats 6, making it 2-2, no stone: +1 for sure (1.01 with the
    margin). Covering position 3 (against 9): only a 10 wins it, 2 in 5, making it 2-1
    for p1: +2 (2.02) x 2/5 = 0.808. The sure gain is worth more: position 2."""
    s = outflank("KC 6C 2C 3C 7C 7D 7H 10C 10D", "2S 6S 9S 8S 4S", 5, 4)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 2


def test_wtb_outflank_takes_the_likely_win_over_the_sure_draw():
    """The same lines; unseen now the extra 7C and 7D 10C 10D 10H. Covering the tie still
    gains +1 for sure (1.01); covering position 3 against 9 now wins with 3 in 5: +2 (2.02)
    x 3/5 = 1.212. The bot covers position 3. (A stone won and a stone saved weigh the
    same: were the stone p2 takes worth more than the one p1 would take, the sure draw
    would win here; were p1's worth more, the likely win would win the test before.)"""
    s = outflank("KC 6C 2C 3C 7C 7D 10C 10D 10H", "2S 6S 9S 8S 4S", 5, 4)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 3


def test_wtb_outflank_breaks_up_the_opponents_clean_sweep():
    """p2's 5S and 9S beat p1's 2C and 3C: a clean sweep, two stones to p2. Unseen: the
    extra 5D and 7D. On position 1 (against 5S) the 5 ties, ending the sweep (-2 becomes
    -1), and the 7 wins, 1-1 (-2 becomes 0): +1.01 or +2.02, so the bot covers position 1
    (on position 2 neither card beats or ties the 9)."""
    s = outflank("2C 3C 5D 7D", "5S 9S 4S", 3, 2)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 1


# --------------------------------------------------------------------------- Deck Management
def arrange(stack: str, seed: int = 0) -> tuple[Card, ...]:
    s = setup(DECK, {"p1.stack": stack, "p2.stack": "2D"}, start="round",
              options={"deck_order": "arranged"})
    return DECK.heuristic(s, "p1", random.Random(seed))


def test_deck_turns_its_trick_card():
    """A trick is the same for everyone: turn the top card."""
    s = setup(DECK, {"p1.stack": "QS", "p2.stack": "4D"})
    assert DECK.heuristic(s, "p1", random.Random(0)) == "turn"


def test_deck_discards_the_lowest_cards_the_first_held_among_equals():
    """QS takes 4D in the round's last trick; p1 then holds QS 4D (laid on top of the won
    pile) and 5S 9C 5H 5D KC: 7 cards against p2's 5, so p1 discards 2. Only high cards
    win tricks and generals: the lowest go, 4D and then one of the three fives, the first
    held (5S). Suits do not matter."""
    s = setup(DECK, {"p1.stack": "QS", "p2.stack": "4D", "p1.won": "5S 9C 5H 5D KC",
                     "p2.won": "2H 3H 4H 6H 7H"})
    s.apply({p: "turn" for p in s.node().choices})
    assert s.won["p1"] == cards("QS 4D 5S 9C 5H 5D KC")
    assert DECK.heuristic(s, "p1", random.Random(0)) == tuple(cards("4D 5S"))


def test_deck_arranges_five_cards_top_soldiers_general():
    """Five cards AS KH 9D 4C 2C (given shuffled): the ace on top for the first trick,
    the three lowest (2C 4C 9D) next as the soldiers of a war if that trick ties, the
    second-highest (KH) fifth as that war's general."""
    order = arrange("9D 4C KH 2C AS")
    assert order[0] == Card("A", "S") and order[4] == Card("K", "H")
    assert set(order[1:4]) == set(cards("2C 4C 9D"))


def test_deck_arranges_fewer_than_five_cards_highest_first():
    """Four cards cannot hold a trick card, three soldiers and a general: by the policy
    (the docstring) they are stacked highest first, KH 9D 4C 2C."""
    assert arrange("9D 4C KH 2C") == tuple(cards("KH 9D 4C 2C"))


def test_deck_arranges_the_rest_in_a_random_order():
    """Eight cards: AS on top, 2C 3C 4C as soldiers, KH as general; the other three
    (9D 8H 7S) follow in a random order, so the stack is not predictable: over twenty
    seeds they come in more than one order, always the same three."""
    orders = {arrange("9D 4C KH 2C AS 3C 8H 7S", seed) for seed in SEEDS}
    assert {(o[0], frozenset(o[1:4]), o[4]) for o in orders} == {
        (Card("A", "S"), frozenset(cards("2C 3C 4C")), Card("K", "H"))}
    assert {frozenset(o[5:]) for o in orders} == {frozenset(cards("9D 8H 7S"))}
    assert len(orders) > 1


# --------------------------------------------------------------------------- Ultimate
class NoMixing(random.Random):
    """A table where the bot never takes the step-4 detour (one card higher or lower three
    times in ten): ``random()`` is always one half. Its other draws (the guess's give or
    take one, the choice among the lowest third) stay random."""

    def random(self) -> float:
        return 0.5

    def getrandbits(self, k: int) -> int:
        # defined here so that choice and randrange keep drawing from the generator's bits
        # (a subclass that overrides only random() has them use random() instead)
        return super().getrandbits(k)


def ultimate(p1: str, p2: str, diamonds: str, pot: str = "", played: str = ""):
    piles = {"p1.hand": p1, "p2.hand": p2, "diamonds": diamonds}
    if pot:
        piles |= {"pot": pot, "pot.played": played}
    return setup(ULTIMATE, piles)


def bids(state, rng=NoMixing) -> set[Card]:
    return {ULTIMATE.heuristic(state, "p1", rng(seed)) for seed in SEEDS}


def test_ultimate_bids_the_smallest_card_that_beats_the_guess():
    """QD is turned up (12 points); the hidden diamonds 2D 3D 4D are all worth less, so the
    pot rates 3/3 = 1: worth fighting for. The opponent holds 2S 3S 4S 5S; the guess sits
    at share 1 of that hand, the highest (5S), give or take one card: 4S or 5S. The
    smallest club that beats either is 6C (4C only ties 4S), not the king: the bot bids
    6C."""
    s = ultimate("AC 4C 6C KC", "2S 3S 4S 5S", "QD 2D 3D 4D")
    assert bids(s) == {Card("6", "C")}


def test_ultimate_gives_up_with_the_lowest_card_when_nothing_beats_the_guess():
    """The same pot (rated 1), but the opponent holds 10S JS QS KS: the guess is QS or KS,
    and none of 2C 5C 7C 9C beats it. The bot gives the round up with its lowest, 2C."""
    s = ultimate("2C 5C 7C 9C", "10S JS QS KS", "QD 2D 3D 4D")
    assert bids(s) == {Card("2", "C")}


def test_ultimate_dumps_one_of_the_lowest_third_on_a_poor_pot():
    """2D is turned up (2 points) and every hidden diamond is worth more: the pot rates 0,
    not worth fighting for. The bot dumps one of the lowest third of its hand: of seven
    cards, the lowest two (AC or 3C), each seen over twenty seeds; of four cards or of two,
    only the lowest."""
    s = ultimate("AC 3C 5C 7C 9C JC KC", "AS 3S 5S 7S 9S JS KS", "2D 8D 9D 10D JD QD KD")
    assert bids(s) == {Card("A", "C"), Card("3", "C")}
    s = ultimate("3C 5C 9C KC", "3S 5S 9S KS", "2D 8D 9D 10D")
    assert bids(s) == {Card("3", "C")}
    s = ultimate("5C KC", "5S KS", "2D 9D")
    assert bids(s) == {Card("5", "C")}


def test_ultimate_counts_an_equal_hidden_diamond_as_half():
    """A tie left 2D in the pot; 3D is turned up: the pot is worth 5. Hidden: 5D (equal,
    counts half) and 9D (more): the pot rates 0.5 / 2 = 0.25, below one half: the bot
    dumps its lowest card (a hand of three: the lowest third is one card), 2C. (Counting
    the equal diamond whole would rate it 0.5 and bid 7C, which beats every guess.)"""
    s = ultimate("2C 7C 8C", "3S 4S 6S", "3D 5D 9D", pot="2D", played="10C 10S")
    assert bids(s) == {Card("2", "C")}


def test_ultimate_fights_for_a_pot_rated_exactly_one_half():
    """A tie left 2D in the pot; 3D is turned up: 5 points. Hidden: AD (less), 5D (equal,
    half) and 9D (more): (1 + 0.5) / 3 = 0.5, worth fighting for. The guess sits at one half
    of 3S 4S 6S 7S (round(1.5) = 2: 6S), give or take one: 4S, 6S or 7S. The smallest
    club beating each is 8C: the bot bids 8C, not its lowest."""
    s = ultimate("2C 8C 9C JC", "3S 4S 6S 7S", "3D AD 5D 9D", pot="2D", played="10C 10S")
    assert bids(s) == {Card("8", "C")}


def test_ultimate_guesses_the_bid_at_the_pots_share_of_the_opponents_hand():
    """7D is turned up; of the eight hidden diamonds four are lower (2-5) and four higher:
    the pot rates 0.5. The opponent holds 2S..10S; one half of the way up is the fifth
    card, 6S: the guess is 6S half the time, 5S or 7S a quarter of the time each. p1's
    smallest winning clubs are then 7C, 6C and 8C (a guess two cards off, 4S or 8S, would
    give 5C or JC). Over 2,000 seeds without the step-4 detour: 7C in 46-54 % of them,
    6C and 8C in 21-29 % each, nothing else."""
    s = ultimate("AC 2C 5C 6C 7C 8C JC QC KC", "2S 3S 4S 5S 6S 7S 8S 9S 10S",
                 "7D 2D 3D 4D 5D 9D 10D JD QD")
    got = [ULTIMATE.heuristic(s, "p1", NoMixing(seed)) for seed in range(2000)]
    assert set(got) == set(cards("6C 7C 8C"))
    assert 0.46 < got.count(Card("7", "C")) / 2000 < 0.54
    assert 0.21 < got.count(Card("6", "C")) / 2000 < 0.29
    assert 0.21 < got.count(Card("8", "C")) / 2000 < 0.29


def test_ultimate_plays_its_last_card():
    """The last diamond: one card left in each hand, nothing to choose."""
    s = ultimate("9C", "3S", "5D")
    assert bids(s, random.Random) == {Card("9", "C")}


def test_ultimate_guess_stays_within_the_opponents_hand():
    """Two cards left: 2D in the pot from a tie and 3D turned up, 5 points; the one hidden
    diamond, 5D, is equal: the pot rates 0.5, worth fighting for. The guess sits at
    round(0.5 x 1) = 0, give or take one, kept within the hand: 3S (from -1 or 0) or 9S
    (from 1). Against 3S the bot bids 5C, against 9S JC: both are seen over twenty
    seeds."""
    s = ultimate("5C JC", "3S 9S", "3D 5D", pot="2D", played="10C 10S")
    assert bids(s) == {Card("5", "C"), Card("J", "C")}


def test_ultimate_mixes_one_card_up_or_down_three_times_in_ten():
    """QD turned up over hidden 2D-5D rates the pot 1; the opponent holds AS-5S, so the
    guess is 4S or 5S and the plan is always 6C, the middle of AC 3C 6C 9C KC. Three times
    in ten the bot bids one card higher or lower: over 2,000 seeded games about 30 % of
    the bids are 3C or 9C (between 27 % and 33 %, over six standard deviations of a fair
    count away from 20 % or 40 %), both occur, and AC or KC, two cards off, never do."""
    s = ultimate("AC 3C 6C 9C KC", "AS 2S 3S 4S 5S", "QD 2D 3D 4D 5D")
    got = [ULTIMATE.heuristic(s, "p1", random.Random(seed)) for seed in range(2000)]
    off = [c for c in got if c != Card("6", "C")]
    assert 0.27 < len(off) / len(got) < 0.33
    assert set(off) == {Card("3", "C"), Card("9", "C")}


def test_ultimate_mixing_stays_within_the_hand():
    """The plan is the highest card: the guess is JS or QS (share 1 of 9S-QS) and only KC
    beats either. A step up from the top of the hand stays on KC; a step down is 6C. At
    the bottom of the hand a step down likewise stays on the lowest card."""
    s = ultimate("AC 3C 6C KC", "9S 10S JS QS", "QD 2D 3D 4D")
    got = [ULTIMATE.heuristic(s, "p1", random.Random(seed)) for seed in range(2000)]
    assert set(got) == {Card("K", "C"), Card("6", "C")}
    # a step down (half of three in ten) shows as 6C in about 15 %; a step up stays on KC
    assert 0.12 < got.count(Card("6", "C")) / len(got) < 0.18
    # at the bottom: nothing beats QS or KS, so the plan is the lowest card, 2C; a step
    # down stays on it, so only a step up (half of three in ten) shows: 5C in about 15 %
    s = ultimate("2C 5C 7C 9C", "10S JS QS KS", "QD 2D 3D 4D")
    got = [ULTIMATE.heuristic(s, "p1", random.Random(seed)) for seed in range(2000)]
    assert set(got) == {Card("2", "C"), Card("5", "C")}
    assert 0.12 < got.count(Card("5", "C")) / len(got) < 0.18


def test_wtb_outflank_covers_to_tie_when_a_tie_ends_the_sweep():
    """p2's 5S and 9S beat p1's 2C and 3C: a clean sweep, two stones. The one unseen card
    is 5D: on position 1 it only ties 5S, but a tie ends the sweep (p2 wins one pair of two:
    one stone, not two), +1.01. The bot covers position 1 rather than stop."""
    s = outflank("2C 3C 5D", "5S 9S 4S", 3, 2)
    assert WTB.heuristic(s, "p1", random.Random(0)) == 1
