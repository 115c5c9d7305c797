"""Scenario tests for German Rummy / Rommé (RULES.md §4.8, GERMAN-1 .. GERMAN-13) on stacked
deals. Two players unless stated: seat 0 deals, seat 1 plays first; upcard 5S.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import InvalidDeal, InvalidOptions
from app.engine.game import new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import (
    DRAW_DISCARD,
    DRAW_STOCK,
    act,
    discard,
    lay_off,
    melds,
    rejected,
    shown,
    stacked,
    swap,
)

# Seat 1 draws 9D and goes out: Q-K-A of hearts (31) + three 3s (9) open; 5D..8D and three 9s.
GOOD_OUT = ["QH", "KH", "AH", "3C", "3D", "3S", "5D", "6D", "7D", "8D", "9S", "9H", "9C"]
OUT_MELDS = ("QH KH AH", "3C 3D 3S", "5D 6D 7D 8D", "9S 9H 9C")
# Joker 30, ace 11, K Q J T 10 each, 2+3+4+5+6+7+8 = 35: 116 penalty points.
LOSER_116 = ["JK", "AS", "KC", "2H", "3H", "4H", "5C", "6S", "7H", "8C", "TC", "JD", "QS"]
# 2..8 of clubs (35), 2..5 of diamonds (14), 2H 3H (5): 54.
LOSER_54 = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D", "3D", "4D", "5D", "2H", "3H"]


def deal2(first: list[str], other: list[str], *, stock_top: list[str] | None = None,
          dealer: int = 0, state: State | None = None) -> State:
    """Two players; the dealer's left holds ``first``."""
    hands = [list(other), list(other)]
    hands[(dealer + 1) % 2] = list(first)
    return stacked("german", hands, discard=["5S"], stock_top=stock_top or ["9D", "KD"],
                   dealer=dealer, state=state)


def go_out(st: State, seat: int) -> State:
    """``seat`` holds GOOD_OUT: draw 9D, meld thirteen cards and discard 9D."""
    return act(st, seat, DRAW_STOCK, melds(*OUT_MELDS), discard("9D"))


# --- GERMAN-1 players and pack --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_german1_two_packs_and_six_jokers(players: int):
    # 2 x 52 + 6 jokers = 110 cards, whatever the number of players.
    rules = match_rules("german", {}, players)
    assert rules.pack_size() == (2, 6)
    deal = shuffled_deal(rules, 0, random.Random(300 + players))
    cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert len(cards) == 110
    counts = Counter(cards)
    assert counts["JK"] == 6 and counts["QD"] == 2


@pytest.mark.parametrize("players", [1, 7])
def test_german1_other_player_counts_are_refused(players: int):
    with pytest.raises(InvalidOptions) as info:
        match_rules("german", {}, players)
    assert info.value.code == "bad_players"


# --- GERMAN-2 deal --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_german2_thirteen_cards_and_an_upcard(players: int):
    rules = match_rules("german", {}, players)
    deal = shuffled_deal(rules, 0, random.Random(players))
    assert [len(h) for h in deal.hands] == [13] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 110 - 13 * players - 1
    st = start_hand(new_match(rules), deal, 0)
    assert (st.turn, st.phase) == (1, Phase.DRAW)


def test_german2_deal_without_upcard_or_with_wrong_sizes_is_refused():
    rules = match_rules("german", {}, 2)
    pack = standard_pack(2, 6)
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:13], pack[13:26]], "stock": pack[26:],
                                "discard": []})
    assert info.value.code == "bad_deal"
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:12], pack[12:24]], "stock": pack[25:],
                                "discard": [pack[24]]})
    assert info.value.code == "bad_deal"


# --- GERMAN-3 draw --------------------------------------------------------------------------


def test_german3_draw_the_stock_top_or_the_upcard():
    # Seat 1 takes the upcard 5S; seat 0 draws the stock top 9D. No play before a draw.
    st = deal2(GOOD_OUT, LOSER_116)
    rejected(st, 1, melds(*OUT_MELDS[:2]), "must_draw_first")
    rejected(st, 1, discard("9C"), "must_draw_first")
    st = act(st, 1, DRAW_DISCARD)
    assert st.hands[1][-1] == "5S" and st.discard == []
    rejected(st, 1, DRAW_STOCK, "already_drew")
    st = act(st, 1, discard("9C"))
    st = act(st, 0, DRAW_STOCK)
    assert st.hands[0][-1] == "9D"


# --- GERMAN-4 melds -------------------------------------------------------------------------

G4 = ["7C", "7C", "7D", "7H", "7S", "QS", "KS", "AS", "2S", "4D", "9H", "TC", "8D"]


def test_german4_set_suits_must_differ_and_sets_hold_at_most_four():
    # Two 7C from the two packs do not make a set; a fifth seven is too many.
    st = act(deal2(G4, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("QS KS AS", "7C 7C 7D"), "invalid_meld")
    rejected(st, 1, melds("QS KS AS", "7C 7D 7H 7S 7C"), "invalid_meld")
    st = act(st, 1, melds("QS KS AS", "7C 7D 7H 7S"))
    assert [m.kind for m in st.melds] == ["run", "set"]


def test_german4_ace_high_or_low_never_around_the_corner():
    # K-A-2 is refused; Q-K-A (ace high) opens.
    assert match_rules("german", {}, 2).meld.ace is AceModel.HIGH_OR_LOW
    st = act(deal2(G4, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("KS AS 2S", "7C 7D 7H 7S"), "invalid_meld")
    st = act(st, 1, melds("QS KS AS", "7C 7D 7H"))
    assert shown(st, 0) == "QS KS AS"


# --- GERMAN-5 jokers ------------------------------------------------------------------------

JOKERS = ["KC", "KD", "JK", "JK", "7C", "TS", "JS", "QS", "3C", "3D", "3S", "8H", "2D"]


def test_german5_more_jokers_than_naturals_is_refused():
    # 7C with two jokers: 2 wild > 1 natural.
    st = act(deal2(JOKERS, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("7C JK JK", "TS JS QS"), "invalid_meld")
    rejected(st, 1, melds("JK JK 7C", "TS JS QS"), "invalid_meld")


def test_german5_as_many_jokers_as_naturals_is_allowed():
    # KC KD JK JK: the jokers take the two missing suits (KH, KS); worth exactly 40.
    st = act(deal2(JOKERS, LOSER_116), 1, DRAW_STOCK)
    st = act(st, 1, melds("KC KD JK JK"))
    assert shown(st, 0) == "KC KD JK:KH JK:KS"
    assert st.opened[1] is True


def test_german5_joker_in_a_set_of_undetermined_suit_must_be_designated():
    # KC KD JK could be KH or KS: it must be named.
    st = act(deal2(JOKERS, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("KC KD JK", "TS JS QS"), "designation_required")
    st = act(st, 1, melds("KC KD JK:KS", "TS JS QS"))
    assert shown(st, 0) == "KC KD JK:KS"


# --- GERMAN-6 initial meld ------------------------------------------------------------------

OPENER = ["QH", "KH", "AH", "3C", "3D", "3S", "AS", "2S", "3S", "KC", "KD", "7H", "8C"]


def test_german6_example_forty_points_open():
    # RULES example: Q-K-A of hearts (31) + 3C 3D 3S (9) = 40, in one meld action.
    st = act(deal2(OPENER, LOSER_116), 1, DRAW_STOCK)
    st = act(st, 1, melds("QH KH AH", "3C 3D 3S"))
    assert st.opened[1] is True
    assert len(st.melds) == 2


def test_german6_low_ace_run_is_worth_six_and_too_low():
    # RULES example: A-2-3 of spades is worth 6; with three 3s (9) it is still only 15.
    st = act(deal2(OPENER, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("AS 2S 3S"), "initial_meld_too_low")
    rejected(st, 1, melds("AS 2S 3S", "3C 3D 3S"), "initial_meld_too_low")
    assert st.opened[1] is False


def test_german6_initial_meld_is_the_first_meld_action_only():
    # Q-K-A alone (31) is refused even though 3C 3D 3S could follow in a second action.
    st = act(deal2(OPENER, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("QH KH AH"), "initial_meld_too_low")


# --- GERMAN-7 after the initial meld --------------------------------------------------------


def test_german7_after_opening_melds_need_no_minimum():
    # Once opened, A-2-3 (6) may follow in the same turn.
    st = act(deal2(OPENER, LOSER_116), 1, DRAW_STOCK, melds("QH KH AH", "3C 3D 3S"))
    st = act(st, 1, melds("AS 2S 3S"))
    assert shown(st, 2) == "AS 2S 3S"


# --- GERMAN-7 / GERMAN-8 joker exchange -----------------------------------------------------
# Seat 1 opens with QH KH JK(=AH) + 3C 3D 3S. Seat 0 holds AH and JH and must open first.

EXCH_1 = ["QH", "KH", "JK", "3C", "3D", "3S", "7H", "8C", "2D", "5C", "9H", "TC", "4S"]
EXCH_0 = ["AH", "JH", "TS", "JS", "QS", "4C", "4D", "4H", "7D", "8D", "KS", "2C", "9S"]


def exchange_position() -> State:
    st = stacked("german", [EXCH_0, EXCH_1], discard=["5S"], stock_top=["6C", "5H"])
    st = act(st, 1, DRAW_STOCK, melds("QH KH JK", "3C 3D 3S"), discard("6C"))
    assert shown(st, 0) == "QH KH JK:AH"  # the joker counts as AH: 31 + 9 = 40
    return act(st, 0, DRAW_STOCK)


def test_german7_no_lay_off_or_exchange_before_opening():
    st = exchange_position()
    rejected(st, 0, swap(0, "AH"), "must_meld_first")
    rejected(st, 0, lay_off(0, "JH"), "must_meld_first")


def test_german8_exchange_after_opening_and_play_the_joker_the_same_turn():
    # Seat 0 opens (30 + 12), takes the joker for AH, must play it before discarding.
    st = exchange_position()
    st = act(st, 0, melds("TS JS QS", "4C 4D 4H"))
    rejected(st, 0, swap(0, "KS"), "no_joker_for_card")
    st = act(st, 0, swap(0, "AH"))
    assert shown(st, 0) == "QH KH AH"
    assert "JK" in st.hands[0]
    rejected(st, 0, discard("5H"), "joker_must_be_played")
    st = act(st, 0, melds("7D 8D JK"))
    assert shown(st, 4) == "7D 8D JK:9D"
    st = act(st, 0, lay_off(0, "JH"))
    assert shown(st, 0) == "JH QH KH AH"
    st = act(st, 0, discard("5H"))
    assert (st.turn, st.phase) == (1, Phase.DRAW)


def test_german8_exchanged_joker_may_be_laid_off():
    # The joker goes onto seat 0's TS JS QS as KS (named: it could also be 9S).
    st = exchange_position()
    st = act(st, 0, melds("TS JS QS", "4C 4D 4H"), swap(0, "AH"))
    rejected(st, 0, lay_off(2, "JK"), "designation_required")
    st = act(st, 0, lay_off(2, "JK:KS"), discard("5H"))
    assert shown(st, 2) == "TS JS QS JK:KS"


# --- GERMAN-9 card values -------------------------------------------------------------------

VALUES = ["AC", "AD", "AH", "2S", "3S", "4S", "JK", "KC", "KD", "KH", "9C", "TD", "6H"]


def test_german9_aces_in_a_set_count_eleven():
    # AC AD AH (33) + 2S 3S 4S (9) = 42 opens.
    st = act(deal2(VALUES, LOSER_116), 1, DRAW_STOCK, melds("AC AD AH", "2S 3S 4S"))
    assert st.opened[1] is True


def test_german9_joker_counts_as_the_card_it_stands_for():
    # JK 2S 3S: the joker is a low ace (1), so 6 + KC KD KH (30) = 36 is too low;
    # the joker as a king in KC KD KH JK (40) opens.
    st = act(deal2(VALUES, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("JK 2S 3S", "KC KD KH"), "initial_meld_too_low")
    st = act(st, 1, melds("KC KD KH JK"))
    assert shown(st, 0) == "KC KD KH JK:KS"


# --- GERMAN-10 going out --------------------------------------------------------------------


def test_german10_must_go_out_by_discarding():
    # Melding all 14 cards, or laying off the last one, is refused; the discard wins.
    st = act(deal2(GOOD_OUT, LOSER_116), 1, DRAW_STOCK)
    rejected(st, 1, melds("QH KH AH", "3C 3D 3S", "5D 6D 7D 8D 9D", "9S 9H 9C"),
             "must_keep_discard")
    st = act(st, 1, melds(*OUT_MELDS))
    assert st.hands[1] == ["9D"]
    rejected(st, 1, lay_off(2, "9D"), "must_keep_discard")
    st = act(st, 1, discard("9D"))
    assert st.phase is Phase.HAND_OVER
    assert st.results[-1].winner == 1
    assert st.discard == ["5S", "9D"]


# --- GERMAN-11 scoring ----------------------------------------------------------------------


def test_german11_penalty_points_joker_30_ace_11():
    # Seat 0 keeps JK (30), AS (11), three tens/courts (30) and 2..8 (35): 116.
    st = go_out(deal2(GOOD_OUT, LOSER_116), 1)
    assert st.results[-1].scores == (116, 0)
    assert st.totals == [116, 0]
    rejected(st, 0, DRAW_STOCK, "hand_over")  # the hand is scored and over


def test_german11_cards_melded_in_hand_still_count():
    # Seat 0's 2C..8C run was never laid: it counts (54).
    st = go_out(deal2(GOOD_OUT, LOSER_54), 1)
    assert st.results[-1].scores == (54, 0)


# --- GERMAN-12 game end ---------------------------------------------------------------------


def test_german12_fixed_hands_lowest_total_wins():
    # Two hands: seat 0 takes 116, then wins hand 2 while seat 1 takes 54: seat 1 (54) wins.
    assert match_rules("german", {}, 3).hands == 3
    assert match_rules("german", {"hands": 4}, 2).hands == 4
    st = go_out(deal2(GOOD_OUT, LOSER_116), 1)
    assert (st.phase, st.game_winner) == (Phase.HAND_OVER, None)
    st = deal2(GOOD_OUT, LOSER_54, dealer=next_dealer(st), state=st)
    assert (st.dealer, st.turn) == (1, 0)
    st = go_out(st, 0)
    assert st.results[-1].scores == (0, 54)
    assert st.totals == [116, 54]
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 1


def test_german12_hands_option_must_be_positive():
    with pytest.raises(InvalidOptions) as info:
        match_rules("german", {"hands": 0}, 2)
    assert info.value.code == "bad_option_value"


# --- GERMAN-13 otherwise Standard: GEN-8, GEN-13, next dealer --------------------------------


def test_german13_taken_discard_cannot_be_discarded_the_same_turn():
    st = act(deal2(GOOD_OUT, LOSER_116), 1, DRAW_DISCARD)
    rejected(st, 1, discard("5S"), "cannot_discard_taken_card")
    st = act(st, 1, discard("9C"))
    assert st.discard == ["9C"]


def test_german13_next_dealer_is_the_left_not_the_winner():
    # The dealer (seat 0) wins; the deal still passes to seat 1.
    st = deal2(LOSER_116, GOOD_OUT, stock_top=["KD", "9D"])
    st = act(st, 1, DRAW_STOCK, discard("KD"))
    st = go_out(st, 0)
    assert st.results[-1].winner == 0
    assert next_dealer(st) == 1


def test_german13_empty_stock_is_restocked():
    # 83 stock cards run down; the player to draw turns the pile over, keeping its top card.
    st = deal2(LOSER_54, LOSER_116)
    stock = list(st.stock)
    assert len(stock) == 110 - 27
    while st.stock:
        st = act(st, st.turn, DRAW_STOCK, discard(st.stock[0]))
    st = act(st, st.turn, DRAW_STOCK)
    assert st.stock == stock[:-1]
    assert st.discard == [stock[-1]]


def test_german13_one_card_pile_cannot_restock():
    st = deal2(LOSER_54, LOSER_116)
    st.stock.clear()
    rejected(st, 1, DRAW_STOCK, "stock_empty")


# --- replay ---------------------------------------------------------------------------------


def test_replay_of_a_stacked_hand_reproduces_the_scores():
    st = deal2(GOOD_OUT, LOSER_116)
    log = {"game": "german", "options": {}, "players": 2, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": melds(*OUT_MELDS)},
            {"seat": 1, "action": discard("9D")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [116, 0]}]
    assert out["totals"] == [116, 0]
    assert out["game_over"] is False and out["game_winner"] is None
