"""Scenario tests for Continental Rummy (RULES.md §4.5, CONT-1 .. CONT-12) on stacked deals.

Two players unless stated: seat 0 deals, seat 1 plays first. Seat 1 usually holds a complete
15-card hand of runs and declares it; every opponent pays the winner (zero-sum), totals start
at 100.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked


def declare(*listings: str, discard: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": [m.split() for m in listings], "discard": discard}


def cards_of(*listings: str) -> list[str]:
    return [c.split(":")[0] for m in listings for c in m.split()]


# 5-4-3-3: a five-card club run, a four-card diamond run, a heart and a spade run.
P5433 = ("3C 4C 5C 6C 7C", "9D TD JD QD", "4H 5H 6H", "JS QS KS")
# 4-4-4-3.
P4443 = ("2C 3C 4C 5C", "7D 8D 9D TD", "5S 6S 7S 8S", "JH QH KH")
# 3-3-3-3-3 with Q-K-A and A-2-3 (CONT-3) and two diamond runs (CONT-4).
P33333 = ("AC 2C 3C", "QD KD AD", "5H 6H 7H", "8S 9S TS", "2D 3D 4D")
# The same 5-4-3-3 hand with one joker standing for 5C.
P5433_JOKER = ("3C 4C JK 6C 7C", "9D TD JD QD", "4H 5H 6H", "JS QS KS")
# Fifteen hearts in one suit, no wild card (CONT-12).
HEARTS = ("AH 2H 3H 4H 5H", "6H 7H 8H 9H", "TH JH QH", "2H 3H 4H")

# Fifteen cards holding no run at all.
LOSER = ["2S", "2H", "8C", "8D", "8H", "9S", "KC", "KD", "AC", "AH", "TS", "5D", "TC", "6S",
         "JC"]
LOSER_B = ["2S", "9H", "8C", "4D", "8H", "6D", "KC", "KD", "AC", "AS", "TS", "QS", "TC", "3S",
           "JC"]


def deal2(winner: list[str], *, stock_top: list[str] | None = None, dealer: int = 0,
          options: dict[str, Any] | None = None, state: State | None = None,
          loser: list[str] | None = None) -> State:
    """Two players; the dealer's left (first to play) holds ``winner``."""
    hands = [list(loser or LOSER), list(loser or LOSER)]
    hands[(dealer + 1) % 2] = list(winner)
    return stacked("continental", hands, discard=["9C"], stock_top=stock_top or ["8S", "KH"],
                   dealer=dealer, options=options, state=state)


# --- CONT-1 packs (recovered table) ---------------------------------------------------------


@pytest.mark.parametrize(("players", "packs", "total"), [
    (2, 2, 106), (3, 2, 106), (5, 2, 106), (6, 3, 159), (8, 3, 159), (9, 4, 212), (12, 4, 212)])
def test_cont1_recovered_pack_table(players: int, packs: int, total: int):
    # 2-5 players: 2 packs + 2 jokers; 6-8: 3 + 3; 9-12: 4 + 4. A seeded deal uses all of them.
    rules = match_rules("continental", {}, players)
    assert rules.pack_size() == (packs, packs)
    deal = shuffled_deal(rules, 0, random.Random(500 + players))
    cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert len(cards) == total
    counts = Counter(cards)
    assert counts["JK"] == packs
    assert counts["7H"] == packs and counts["AS"] == packs


@pytest.mark.parametrize("players", [1, 13])
def test_cont1_player_counts_outside_2_to_12_are_refused(players: int):
    # The table stops at 12 players; one player is no game.
    with pytest.raises(InvalidOptions) as info:
        match_rules("continental", {}, players)
    assert info.value.code == "bad_players"


def test_cont1_stacked_deal_with_one_pack_is_refused():
    # Two players need 106 cards: a deal from one 52-card pack is not Continental's pack.
    rules = match_rules("continental", {}, 2)
    pack = standard_pack()
    raw = {"hands": [pack[0:15], pack[15:30]], "stock": pack[31:], "discard": [pack[30]]}
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, raw)
    assert info.value.code == "bad_deal"


# --- CONT-2 deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 7])
def test_cont2_fifteen_cards_each_and_an_upcard(players: int):
    # Seeded deals: 15 cards to every seat, one upcard, the rest the stock.
    rules = match_rules("continental", {}, players)
    deal = shuffled_deal(rules, 0, random.Random(7 * players))
    decks, jokers = rules.pack_size()
    assert [len(h) for h in deal.hands] == [15] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 52 * decks + jokers - 15 * players - 1
    st = start_hand(new_match(rules), deal, 0)
    assert (st.turn, st.phase) == (1, Phase.DRAW)


def test_cont2_dealers_left_plays_first():
    # Dealer 0: seat 1 plays; the dealer may not draw first.
    st = deal2(list(LOSER_B))
    assert st.turn == 1
    rejected(st, 0, DRAW_STOCK, "not_your_turn")
    st = act(st, 1, DRAW_STOCK, discard("8S"))
    assert st.turn == 0


def test_cont2_the_winner_deals_the_next_hand():
    # The dealer (seat 0) wins the first hand on his first turn: he deals again (not seat 1).
    st = stacked("continental", [cards_of(*P5433), list(LOSER)], discard=["9C"],
                 stock_top=["KH", "8S"])
    st = act(st, 1, DRAW_STOCK, discard("KH"))
    st = act(st, 0, DRAW_STOCK, declare(*P5433, discard="8S"))
    assert st.results[-1].winner == 0
    assert next_dealer(st) == 0
    st = deal2(cards_of(*P4443), dealer=next_dealer(st), state=st)
    assert (st.dealer, st.turn) == (0, 1)


# --- CONT-3 ace -----------------------------------------------------------------------------


def test_cont3_ace_high_or_low_in_a_declaration():
    # Q-K-A and A-2-3 both count; the model is ACE_HIGH_OR_LOW.
    assert match_rules("continental", {}, 2).meld.ace is AceModel.HIGH_OR_LOW
    st = deal2(cards_of(*P33333))
    st = act(st, 1, DRAW_STOCK, declare(*P33333, discard="8S"))
    assert [str(p) for p in st.melds[1].cards] == ["QD", "KD", "AD"]
    assert st.results[-1].scores == (-1, 1)


def test_cont3_ace_never_in_the_middle():
    # K-A-2 is not a run: the declaration is refused.
    hand = ("AC 2C 3C", "KD AD 2D", "5H 6H 7H", "8S 9S TS", "QD JD TD")
    st = deal2(cards_of(*hand))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*hand, discard="8S"), "invalid_meld")


# --- CONT-4 melds ---------------------------------------------------------------------------


def test_cont4_sets_are_refused_inside_a_declaration():
    # Three sevens of different suits would be a set elsewhere; here only runs count.
    hand = ("3C 4C 5C 6C 7C", "9D TD JD QD", "7S 7D 7H", "JS QS KS")
    st = deal2(cards_of(*hand))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*hand, discard="8S"), "invalid_meld")


def test_cont4_several_runs_of_one_suit_and_jokers_wild():
    # Two heart runs (one joker standing for 5H) and two spade runs make a 4-4-4-3 hand.
    hand = ("AH 2H 3H 4H", "JK 6H 7H 8H", "2S 3S 4S 5S", "9S TS JS")
    st = deal2(cards_of(*hand), loser=LOSER_B)
    st = act(st, 1, DRAW_STOCK, declare(*hand, discard="8S"))
    assert str(st.melds[1].cards[0]) == "JK:5H"
    assert [m.kind for m in st.melds] == ["run"] * 4
    assert st.results[-1].scores == (-3, 3)  # 1 for winning + 2 for the joker


# --- CONT-5 no partial melding --------------------------------------------------------------


def test_cont5_meld_and_lay_off_are_not_in_this_game():
    # After drawing, a single meld or a lay-off is refused; drawing and discarding is the turn.
    st = deal2(cards_of(*P5433))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, {"type": "meld", "melds": [["3C", "4C", "5C"]]}, "not_in_this_game")
    rejected(st, 1, {"type": "lay_off", "meld": 0, "cards": ["8S"]}, "not_in_this_game")
    st = act(st, 1, discard("8S"))
    assert (st.turn, st.phase, st.melds) == (0, Phase.DRAW, [])


def test_cont5_declaring_is_never_forced():
    # Seat 1 holds a winning hand, draws and simply discards; the hand goes on.
    st = deal2(cards_of(*P5433))
    st = act(st, 1, DRAW_STOCK, discard("8S"))
    assert st.phase is Phase.DRAW and st.results == []


# --- CONT-6 going out -----------------------------------------------------------------------


@pytest.mark.parametrize("pattern", [P5433, P4443, P33333], ids=["5-4-3-3", "4-4-4-3", "3x5"])
def test_cont6_declare_after_drawing_in_each_pattern(pattern: tuple[str, ...]):
    # Seat 1 draws 8S (16 cards), declares its 15 and discards the 16th.
    st = deal2(cards_of(*pattern))
    st = act(st, 1, DRAW_STOCK)
    assert len(st.hands[1]) == 16
    st = act(st, 1, declare(*pattern, discard="8S"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["9C", "8S"]
    assert st.hands[1] == []
    assert sorted(len(m.cards) for m in st.melds) == sorted(len(m.split()) for m in pattern)
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (-1, 1)
    assert st.totals == [99, 101]


@pytest.mark.parametrize("pattern", [
    ("3C 4C 5C 6C 7C 8C", "9D TD JD", "4H 5H 6H", "JS QS KS"),      # 6-3-3-3
    ("3C 4C 5C 6C 7C", "9D TD JD QD KD", "4H 5H 6H 7H 8H"),         # 5-5-5
    ("3C 4C 5C 6C 7C 8C 9C", "TD JD QD KD", "4H 5H 6H 7H"),         # 7-4-4
], ids=["6-3-3-3", "5-5-5", "7-4-4"])
def test_cont6_other_patterns_are_refused(pattern: tuple[str, ...]):
    # Fifteen cards in valid runs but not in one of the three patterns.
    st = deal2(cards_of(*pattern), stock_top=["2S", "KH"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*pattern, discard="2S"), "wrong_pattern")


def test_cont6_declaration_must_hold_the_whole_hand():
    # With 16 cards, declaring 15 without a discard leaves a card out.
    st = deal2(cards_of(*P5433))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*P5433), "declare_incomplete")


def test_cont6_first_turn_declaration_before_drawing():
    # Seat 1 declares its 15 dealt cards at once: no draw, no discard.
    st = deal2(cards_of(*P4443))
    st = act(st, 1, declare(*P4443))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["9C"]
    assert st.stock[0] == "8S"  # nothing drawn
    assert st.results[-1].scores == (-1, 1)


def test_cont6_dealers_own_first_turn_declaration_before_drawing():
    # The dealer's own first turn comes after seat 1's: he may still declare undrawn.
    st = stacked("continental", [cards_of(*P33333), list(LOSER)], discard=["9C"],
                 stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK, discard("KH"))
    st = act(st, 0, declare(*P33333))
    assert st.results[-1].scores == (1, -1)


def test_cont6_no_declaration_without_drawing_after_the_first_turn():
    # Seat 1's second turn: declaring before drawing is refused; after drawing it is fine.
    st = deal2(cards_of(*P5433), stock_top=["8S", "KH", "2S"])
    st = act(st, 1, DRAW_STOCK, discard("8S"))
    st = act(st, 0, DRAW_STOCK, discard("KH"))
    rejected(st, 1, declare(*P5433), "must_draw_first")
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="2S"))
    assert st.results[-1].scores == (-1, 1)


# --- CONT-7 settlement ----------------------------------------------------------------------


def test_cont7_example_four_players_one_joker():
    # RULES example: 4 players, the winner used one joker: each opponent pays 3, winner +9.
    others = [list(LOSER), list(LOSER_B), ["3D", "3H", "5S", "6D", "7H", "9H", "JD", "QC",
                                            "KS", "AD", "4S", "6C", "TH", "7D", "9D"]]
    hands = [others[0], cards_of(*P5433_JOKER), others[1], others[2]]
    st = stacked("continental", hands, discard=["9C"], stock_top=["8S"])
    st = act(st, 1, DRAW_STOCK, declare(*P5433_JOKER, discard="8S"))
    assert st.results[-1].scores == (-3, 9, -3, -3)
    assert sum(st.results[-1].scores) == 0
    assert st.totals == [97, 109, 97, 97]
    rejected(st, 2, DRAW_STOCK, "hand_over")  # settled: nobody plays on


def test_cont7_two_jokers_two_players():
    # Two jokers: the loser pays 1 + 2 + 2 = 5.
    hand = ("3C 4C JK 6C 7C", "9D JK JD QD", "4H 5H 6H", "JS QS KS")
    st = deal2(cards_of(*hand))
    st = act(st, 1, DRAW_STOCK, declare(*hand, discard="8S"))
    assert st.results[-1].scores == (-5, 5)
    assert st.totals == [95, 105]


# --- CONT-8 game length ---------------------------------------------------------------------


def test_cont8_starting_score_and_default_number_of_hands():
    # Totals start at 100; the game lasts one hand per player unless `hands` says otherwise.
    rules = match_rules("continental", {}, 3)
    assert rules.hands == 3
    assert new_match(rules).totals == [100, 100, 100]
    assert match_rules("continental", {"hands": 5}, 3).hands == 5
    assert new_match(match_rules("continental", {"starting_score": 40}, 2)).totals == [40, 40]


def test_cont8_starting_score_option_and_totals_below_zero():
    # starting_score 0: the loser's total goes below zero.
    st = deal2(cards_of(*P5433_JOKER), options={"starting_score": 0})
    st = act(st, 1, DRAW_STOCK, declare(*P5433_JOKER, discard="8S"))
    assert st.totals == [-3, 3]


@pytest.mark.parametrize("options", [{"hands": 0}, {"starting_score": "100"}, {"hands": True}])
def test_cont8_bad_option_values_are_refused(options: dict[str, Any]):
    # `hands` is an integer >= 1; `starting_score` an integer.
    with pytest.raises(InvalidOptions) as info:
        match_rules("continental", options, 2)
    assert info.value.code == "bad_option_value"


def test_cont8_game_over_after_the_set_number_of_hands_highest_total_wins():
    # Two players, two hands: seat 1 wins 1, then (dealing, as winner) loses 3 to seat 0.
    st = deal2(cards_of(*P5433))
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="8S"))
    assert (st.phase, st.totals) == (Phase.HAND_OVER, [99, 101])
    assert st.game_winner is None
    dealer = next_dealer(st)
    assert dealer == 1
    st = deal2(cards_of(*P5433_JOKER), dealer=dealer, state=st)
    assert st.turn == 0
    st = act(st, 0, DRAW_STOCK, declare(*P5433_JOKER, discard="8S"))
    assert st.results[-1].scores == (3, -3)
    assert st.totals == [102, 98]
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 0
    rules = st.rules
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(rules, 0, random.Random(1)), 0)
    assert info.value.code == "game_over"


def test_cont8_tied_best_total_is_a_shared_win():
    # Two hands of one point each, one per seat: 100 each, no single game winner.
    st = deal2(cards_of(*P5433))
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="8S"))
    st = deal2(cards_of(*P4443), dealer=next_dealer(st), state=st)
    st = act(st, 0, DRAW_STOCK, declare(*P4443, discard="8S"))
    assert st.totals == [100, 100]
    assert (st.phase, st.game_winner) == (Phase.GAME_OVER, None)


# --- CONT-9 stock exhausted -----------------------------------------------------------------


def test_cont9_empty_stock_is_restocked_from_the_discard_pile():
    # 75 stock cards run down (each player discards what he draws); seat 1 turns the pile.
    st = deal2(list(LOSER_B))
    stock = list(st.stock)
    assert len(stock) == 106 - 31
    while st.stock:
        st = act(st, st.turn, DRAW_STOCK, discard(st.stock[0]))
    assert st.turn == 0  # 75 draws: seat 1 drew 38, seat 0 37
    assert st.discard == ["9C"] + stock
    st = act(st, 0, DRAW_STOCK)
    assert st.hands[0][-1] == "9C"
    assert st.stock == stock[:-1]
    assert st.discard == [stock[-1]]


def test_cont9_one_card_pile_cannot_restock():
    # Stock emptied, only the upcard in the pile: the stock draw is refused.
    st = deal2(list(LOSER_B))
    st.stock.clear()
    rejected(st, 1, DRAW_STOCK, "stock_empty")
    st = act(st, 1, DRAW_DISCARD)
    assert st.hands[1][-1] == "9C"


# --- CONT-10 twos wild ----------------------------------------------------------------------

TWOS = ("AD 2D 3D", "3C 4C 2S:5C 6C 7C", "9H TH JK QH", "JS QS KS")


def test_cont10_wild_two_earns_one_natural_two_nothing():
    # 2S stands for 5C (wild, +1); 2D sits in A-2-3 of diamonds (natural, +0); one joker (+2).
    st = deal2(cards_of(*TWOS), options={"twos_wild": True})
    st = act(st, 1, DRAW_STOCK, declare(*TWOS, discard="8S"))
    assert str(st.melds[1].cards[2]) == "2S:5C"
    assert str(st.melds[0].cards[1]) == "2D"
    assert st.results[-1].scores == (-4, 4)


def test_cont10_natural_twos_only_earn_nothing():
    # Twos wild, but the only two (2C) is natural in A-2-3 of clubs: 1 point.
    st = deal2(cards_of(*P33333), options={"twos_wild": True})
    st = act(st, 1, DRAW_STOCK, declare(*P33333, discard="8S"))
    assert st.results[-1].scores == (-1, 1)


def test_cont10_a_two_that_can_only_be_wild_needs_no_designation():
    # PROTOCOL.md §1: 3C 4C 2S 6C 7C can only mean 2S standing for 5C, so it is inferred and
    # scores as the designated hand does (CONT-7, CONT-10: 1 + 1 for the wild two + 2 joker).
    inferred = ("AD 2D 3D", "3C 4C 2S 6C 7C", "9H TH JK QH", "JS QS KS")
    st = deal2(cards_of(*inferred), options={"twos_wild": True})
    st = act(st, 1, DRAW_STOCK, declare(*inferred, discard="8S"))
    assert str(st.melds[1].cards[2]) == "2S:5C"
    assert str(st.melds[0].cards[1]) == "2D"  # valid as natural: stays natural
    assert st.results[-1].scores == (-4, 4)


def test_cont10_twos_that_could_be_read_two_ways_need_designations():
    # 2C 2D 2H is A-2-3 of diamonds (2C:AD 2D 2H:3D) or 2-3-4 of clubs (2C 2D:3C 2H:4C).
    ambiguous = ("2C 2D 2H", "QD KD AD", "5H 6H 7H", "8S 9S TS", "3D 4D 5D")
    st = act(deal2(cards_of(*ambiguous), options={"twos_wild": True}), 1, DRAW_STOCK)
    rejected(st, 1, declare(*ambiguous, discard="8S"), "designation_required")
    designated = ("2C:AD 2D 2H", *ambiguous[1:])  # one designation settles the other two
    st = act(st, 1, declare(*designated, discard="8S"))
    assert " ".join(str(p) for p in st.melds[0].cards) == "2C:AD 2D 2H:3D"
    assert st.results[-1].scores == (-3, 3)  # 1 + two wild twos


def test_cont10_undesignated_twos_stay_natural_without_the_option():
    inferred = ("AD 2D 3D", "3C 4C 2S 6C 7C", "9H TH JK QH", "JS QS KS")
    st = act(deal2(cards_of(*inferred)), 1, DRAW_STOCK)
    rejected(st, 1, declare(*inferred, discard="8S"), "invalid_meld")


def test_cont10_twos_are_not_wild_without_the_option():
    # Without twos_wild, 2S cannot stand for 5C.
    st = deal2(cards_of(*TWOS))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*TWOS, discard="8S"), "invalid_meld")


# --- CONT-11 quick meld bonus ---------------------------------------------------------------


def test_cont11_declaring_before_drawing_earns_ten():
    # 1 + 10 from each opponent.
    st = deal2(cards_of(*P5433), options={"quick_meld_bonus": True})
    st = act(st, 1, declare(*P5433))
    assert st.results[-1].scores == (-11, 11)


def test_cont11_declaring_after_one_draw_earns_seven():
    # First turn, one card drawn: 1 + 7.
    st = deal2(cards_of(*P5433), options={"quick_meld_bonus": True})
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="8S"))
    assert st.results[-1].scores == (-8, 8)


def test_cont11_no_bonus_on_a_later_turn_or_without_the_option():
    # Second turn: only the 1 for winning. Without the option, no bonus before drawing.
    st = deal2(cards_of(*P5433), options={"quick_meld_bonus": True},
               stock_top=["8S", "KH", "2S"])
    st = act(st, 1, DRAW_STOCK, discard("8S"))
    st = act(st, 0, DRAW_STOCK, discard("KH"))
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="2S"))
    assert st.results[-1].scores == (-1, 1)
    st = deal2(cards_of(*P5433))
    st = act(st, 1, declare(*P5433))
    assert st.results[-1].scores == (-1, 1)


def test_cont11_option_not_in_another_game():
    # quick_meld_bonus belongs to Continental only.
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"quick_meld_bonus": True}, 2)
    assert info.value.code == "option_not_allowed"


# --- CONT-12 special bonus ------------------------------------------------------------------


def test_cont12_no_wild_card_earns_ten():
    # Mixed suits, no wild: 1 + 10.
    st = deal2(cards_of(*P5433), options={"special_bonus": True})
    st = act(st, 1, DRAW_STOCK, declare(*P5433, discard="8S"))
    assert st.results[-1].scores == (-11, 11)


def test_cont12_one_suit_without_wilds_earns_twenty():
    # Fifteen hearts, no wild: 1 + 10 + 10.
    st = deal2(cards_of(*HEARTS), options={"special_bonus": True}, loser=LOSER_B)
    st = act(st, 1, DRAW_STOCK, declare(*HEARTS, discard="8S"))
    assert st.results[-1].scores == (-21, 21)


def test_cont12_one_suit_with_a_joker():
    # The joker stands for 7H and counts as a heart: 1 + 2 (joker) + 10 (one suit), no
    # no-wild bonus.
    hand = ("AH 2H 3H 4H 5H", "6H JK 8H 9H", "TH JH QH", "2H 3H 4H")
    st = deal2(cards_of(*hand), options={"special_bonus": True}, loser=LOSER_B)
    st = act(st, 1, DRAW_STOCK, declare(*hand, discard="8S"))
    assert st.results[-1].scores == (-13, 13)


def test_cont12_wild_two_cancels_the_no_wild_bonus():
    # Twos wild and special bonus: a wild two is a wild card (1 + 1 + 2 for the joker).
    st = deal2(cards_of(*TWOS), options={"special_bonus": True, "twos_wild": True})
    st = act(st, 1, DRAW_STOCK, declare(*TWOS, discard="8S"))
    assert st.results[-1].scores == (-4, 4)


@pytest.mark.parametrize(("game", "option"), [
    ("german", {"special_bonus": True}), ("phom", {"twos_wild": True}),
    ("standard", {"starting_score": 50}), ("continental", {"card_count_scoring": True}),
    ("continental", {"target_score": 100})])
def test_cont12_continental_options_only_in_continental(game: str, option: dict[str, Any]):
    # RULES §3.14: the bonus options belong to Continental, which takes no scoring options.
    with pytest.raises(InvalidOptions) as info:
        match_rules(game, option, 2)
    assert info.value.code == "option_not_allowed"


def test_cont12_special_bonus_must_be_boolean():
    with pytest.raises(InvalidOptions) as info:
        match_rules("continental", {"special_bonus": "yes"}, 2)
    assert info.value.code == "bad_option_value"


# --- replay ---------------------------------------------------------------------------------


def test_replay_of_a_stacked_hand_reproduces_the_scores():
    # The CONT-7 example as a match log: 4 players, one joker.
    others = [list(LOSER), list(LOSER_B), ["3D", "3H", "5S", "6D", "7H", "9H", "JD", "QC",
                                            "KS", "AD", "4S", "6C", "TH", "7D", "9D"]]
    hands = [others[0], cards_of(*P5433_JOKER), others[1], others[2]]
    st = stacked("continental", hands, discard=["9C"], stock_top=["8S"])
    log = {"game": "continental", "options": {}, "players": 4, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": declare(*P5433_JOKER, discard="8S")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [-3, 9, -3, -3]}]
    assert out["totals"] == [97, 109, 97, 97]
    assert out["game_over"] is False
