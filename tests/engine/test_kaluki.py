"""Scenario tests for Caloochi / Kaluki (RULES.md §4.2, KALUKI-1 .. KALUKI-9) on stacked deals."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from app.engine.views import player_view
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

GAME = "kaluki"
# Fifteen cards with no set, no run and no opening even with any one more card: pairs and gaps.
JUNK = ["2C", "4C", "6C", "8C", "TC", "2D", "4D", "6D", "8D", "TD", "3H", "5H", "7H", "9H", "AS"]


# --- KALUKI-1 players and pack ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kaluki1_two_packs_and_four_jokers(players: int):
    # KALUKI-1: 108 cards: two 52-card packs and four jokers, for 2 to 4 players.
    rules = match_rules(GAME, {}, players)
    assert rules.pack_size() == (2, 4)
    deal = shuffled_deal(rules, 0, random.Random(players))
    cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert len(cards) == 108
    assert Counter(cards) == Counter(standard_pack(2, 4))
    assert Counter(cards)["JK"] == 4 and Counter(cards)["7H"] == 2


@pytest.mark.parametrize("players", [1, 5])
def test_kaluki1_other_player_counts_rejected(players: int):
    # KALUKI-1: not for one player nor five.
    with pytest.raises(InvalidOptions) as info:
        match_rules(GAME, {}, players)
    assert info.value.code == "bad_players"


# --- KALUKI-2 deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kaluki2_fifteen_cards_each_and_an_upcard(players: int):
    # KALUKI-2: 15 cards each, one upcard, the rest of the 108 is the stock.
    rules = match_rules(GAME, {}, players)
    deal = shuffled_deal(rules, 0, random.Random(10 + players))
    assert [len(h) for h in deal.hands] == [15] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 108 - 15 * players - 1


def test_kaluki2_wrong_deals_rejected():
    # KALUKI-2: 14-card hands, or a 109-card pack with a fifth joker, are not Kaluki deals.
    rules = match_rules(GAME, {}, 2)
    pack = standard_pack(2, 4)
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:14], pack[14:28]], "stock": pack[29:],
                                "discard": [pack[28]]})
    assert info.value.code == "bad_deal"
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:15], pack[15:30]], "stock": pack[31:] + ["JK"],
                                "discard": [pack[30]]})
    assert info.value.code == "bad_deal"


# --- KALUKI-3 ace high or low ----------------------------------------------------------------

ACES = ["JD", "QD", "KD", "AD", "2D", "3D", "4D", "2H", "2S", "2C", "9C", "7S", "5H", "8H", "TS"]


def test_kaluki3_ace_high_run_opens_with_ace_15():
    # KALUKI-3 + KALUKI-5: J-Q-K-A (10+10+10+15 = 45) and 2H 2S 2C (6) make exactly 51.
    assert match_rules(GAME, {}, 2).meld.ace is AceModel.HIGH_OR_LOW
    st = stacked(GAME, [list(JUNK), list(ACES)], discard=["KS"], stock_top=["9D"])
    st = act(st, 1, DRAW_STOCK, melds("JD QD KD AD", "2H 2S 2C"))
    assert shown(st, 0) == "JD QD KD AD"
    assert st.opened[1] is True


def test_kaluki3_ace_low_run_and_no_wrap():
    # KALUKI-3: A-2-3-4 is a run (15+2+3+4 = 24); K-A-2 is refused.
    st = stacked(GAME, [list(JUNK), list(ACES)], discard=["KS"], stock_top=["9D"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("KD AD 2D", "2H 2S 2C"), "invalid_meld")
    rejected(st, 1, melds("QD KD AD 2D", "2H 2S 2C"), "invalid_meld")
    st = act(st, 1, melds("AD 2D 3D 4D", "JD QD KD", "2H 2S 2C"))  # 24 + 30 + 6 = 60
    assert shown(st, 0) == "AD 2D 3D 4D"


# --- KALUKI-4 melds --------------------------------------------------------------------------

SETS = ["KS", "KH", "KD", "KC", "KC", "QS", "QS", "QH", "JK", "5D", "6D", "7D", "8H", "2C", "3S"]


def test_kaluki4_set_limits():
    # KALUKI-4: at most 4 cards, no two naturals of one suit (second-pack duplicates too).
    st = stacked(GAME, [list(JUNK), list(SETS)], discard=["9S"], stock_top=["9D"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("KS KH KD KC KC"), "invalid_meld")
    rejected(st, 1, melds("KS KH KD KC", "QS QS QH"), "invalid_meld")
    rejected(st, 1, melds("KS KH KD KC", "QS QH JK:QS"), "invalid_meld")
    st = act(st, 1, melds("KS KH KD KC", "QS QH JK:QD"))  # 40 + 30
    assert [m.kind for m in st.melds] == ["set", "set"]
    assert shown(st, 1) == "QS QH JK:QD"


def test_kaluki4_joker_in_three_card_set_must_be_designated():
    # KALUKI-4: QS QH JK could be QC or QD: the melder must say which.
    st = stacked(GAME, [list(JUNK), list(SETS)], discard=["9S"], stock_top=["9D"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("KS KH KD KC", "QS QH JK"), "designation_required")
    # In a four-card set only one suit is missing: KS KH KD JK is the KC.
    st = act(st, 1, melds("KS KH KD JK", "5D 6D 7D"))  # 40 + 18 = 58
    assert shown(st, 0) == "KS KH KD JK:KC"


def test_kaluki4_joker_in_a_run_and_all_wild_meld():
    # KALUKI-4 / GEN-4: 5D 6D JK is 5D-6D-7D; a meld without a natural card is refused.
    hand = ["JK", "JK", "JK", "5D", "6D", "KS", "KH", "KD", "QS", "QH", "QD", "2C", "4S", "8H",
            "TC"]
    st = stacked(GAME, [list(JUNK), hand], discard=["9S"], stock_top=["9D"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("JK JK JK", "KS KH KD", "QS QH QD"), "invalid_meld")
    st = act(st, 1, melds("5D 6D JK", "KS KH KD", "QS QH QD"))
    assert shown(st, 0) == "5D 6D JK:7D"


# --- KALUKI-5 initial meld of 51 ------------------------------------------------------------

OPENER = ["AC", "2C", "3C", "4C", "9S", "9H", "9D", "KS", "KH", "KD", "5D", "6D", "7D", "5C",
          "8H"]


def test_kaluki5_opening_below_51_rejected():
    # KALUKI-5: AC 2C 3C (20) + KS KH KD (30) = 50; A-4 alone = 24: both too low.
    st = stacked(GAME, [list(JUNK), list(OPENER)], discard=["JS"], stock_top=["QS"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("AC 2C 3C", "KS KH KD"), "initial_meld_too_low")
    rejected(st, 1, melds("AC 2C 3C 4C"), "initial_meld_too_low")
    rejected(st, 1, melds("5D 6D 7D", "9S 9H 9D"), "initial_meld_too_low")  # 18 + 27 = 45


def test_kaluki5_several_melds_add_up_to_51_then_no_minimum():
    # KALUKI-5: AC 2C 3C 4C (ace 15: 24) + 9S 9H 9D (27) = 51 opens; afterwards 5D 6D 7D (18)
    # and a lay-off of 5C are accepted without any minimum.
    st = stacked(GAME, [list(JUNK), list(OPENER)], discard=["JS"], stock_top=["QS"])
    st = act(st, 1, DRAW_STOCK, melds("AC 2C 3C 4C", "9S 9H 9D"))
    assert st.opened[1] is True
    st = act(st, 1, melds("5D 6D 7D"), lay_off(0, "5C"))
    assert shown(st, 0) == "AC 2C 3C 4C 5C"
    st = act(st, 1, discard("QS"))
    assert sorted(st.hands[1]) == ["8H", "KD", "KH", "KS"]


JOKER_OPENER = ["2S", "2H", "JK", "JC", "QC", "KC", "9S", "9H", "AC", "2C", "3C", "4C", "5D",
                "8H", "KD"]


def test_kaluki5_joker_counts_as_the_card_it_represents():
    # KALUKI-5: 2S 2H JK:2D is worth 6 (not 25+4), so with JC QC KC it is 36: too low;
    # 9S 9H JK:9D (27) + AC 2C 3C 4C (24) = 51 opens.
    st = stacked(GAME, [list(JUNK), list(JOKER_OPENER)], discard=["7S"], stock_top=["6S"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("2S 2H JK:2D", "JC QC KC"), "initial_meld_too_low")
    st = act(st, 1, melds("9S 9H JK:9D", "AC 2C 3C 4C"))
    assert shown(st, 0) == "9S 9H JK:9D"


# --- KALUKI-6 before the initial meld -------------------------------------------------------

# Seat 0 could open with QS QH QD + JS JH JD (60) and can use a KD with KS KH.
TAKER = ["KS", "KH", "QS", "QH", "QD", "JS", "JH", "JD", "3C", "7C", "9C", "3D", "7D", "9D",
         "4S"]


def kd_on_the_pile() -> State:
    """Seat 1 (junk) may not take the upcard 5C; it draws KD and discards it."""
    st = stacked(GAME, [list(TAKER), list(JUNK)], discard=["5C"], stock_top=["KD", "8S"])
    rejected(st, 1, DRAW_DISCARD, "cannot_use_discard")
    return act(st, 1, DRAW_STOCK, discard("KD"))


def test_kaluki6_discard_take_only_for_a_51_opening():
    # KALUKI-6: with 4C 5C 6C seat 1 reaches only 15: the 5C cannot be taken (above); seat 0
    # can use KD in KS KH KD + QS QH QD (60), so it may take it.
    st = kd_on_the_pile()
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == "KD"
    assert st.must_use == "KD"


def test_kaluki6_the_view_offers_only_the_draws_the_engine_accepts():
    # The view's `draws`: seat 1 may not take the 5C (above), seat 0 may take the KD; no one
    # draws out of turn, and a spectator has no draws.
    st = stacked(GAME, [list(TAKER), list(JUNK)], discard=["5C"], stock_top=["KD", "8S"])
    assert player_view(st, 1)["draws"] == {"from_stock": True, "takes": []}
    assert player_view(st, 0)["draws"] == {"from_stock": False, "takes": []}
    assert player_view(st, None)["draws"] is None
    st = act(st, 1, DRAW_STOCK, discard("KD"))
    assert player_view(st, 0)["draws"] == {"from_stock": True, "takes": ["KD"]}


def test_kaluki6_discard_take_refused_even_if_hand_could_open_without_it():
    # KALUKI-6: seat 0 could open with queens and jacks, but 8S is of no use in an opening.
    st = stacked(GAME, [list(TAKER), list(JUNK)], discard=["5C"], stock_top=["8S"])
    st = act(st, 1, DRAW_STOCK, discard("8S"))
    rejected(st, 0, DRAW_DISCARD, "cannot_use_discard")
    st = act(st, 0, DRAW_STOCK)
    assert st.hands[0][-1] != "8S"


def test_kaluki6_opening_must_use_the_taken_card_and_no_discard_before():
    # KALUKI-6: after taking KD, seat 0 may not discard, nor open without KD, nor lay off;
    # KS KH KD + QS QH QD opens, then it discards.
    st = act(kd_on_the_pile(), 0, DRAW_DISCARD)
    rejected(st, 0, discard("3C"), "must_use_taken_card")
    rejected(st, 0, melds("QS QH QD", "JS JH JD"), "must_use_taken_card")
    rejected(st, 0, lay_off(0, "3C"), "must_meld_first")
    rejected(st, 0, melds("KS KH KD"), "initial_meld_too_low")
    st = act(st, 0, melds("KS KH KD", "QS QH QD"), discard("3C"))
    assert st.opened[0] is True and st.turn == 1


def test_kaluki6_a_low_opening_without_the_taken_card_is_refused_for_the_card():
    # KALUKI-6 before KALUKI-5 (as before the legality rewrite): after taking KD, an opening
    # that leaves it out and is worth less than 51 (QS QH QD: 30; two sets: 60 is refused the
    # same) is refused with must_use_taken_card, the rule the player broke; with the KD and
    # still below 51 (KS KH KD: 30) the minimum is the reason.
    st = act(kd_on_the_pile(), 0, DRAW_DISCARD)
    rejected(st, 0, melds("QS QH QD"), "must_use_taken_card")
    rejected(st, 0, melds("JS JH JD"), "must_use_taken_card")
    rejected(st, 0, melds("KS KH KD"), "initial_meld_too_low")


def test_kaluki6_no_lay_off_before_opening():
    # KALUKI-6: seat 1 opens; seat 0 (not opened) may not lay off its KC; once opened it may.
    opener = ["KS", "KH", "KD", "QS", "QH", "QD", "2C", "4C", "6C", "8C", "2D", "4D", "6D",
              "8D", "3H"]
    layer = ["KC", "JS", "JH", "JD", "TS", "TH", "TD", "3C", "5C", "7C", "9C", "3D", "5D", "7D",
             "9D"]
    st = stacked(GAME, [layer, opener], discard=["5S"], stock_top=["AH", "AS"])
    st = act(st, 1, DRAW_STOCK, melds("KS KH KD", "QS QH QD"), discard("AH"))
    st = act(st, 0, DRAW_STOCK)
    rejected(st, 0, lay_off(0, "KC"), "must_meld_first")
    st = act(st, 0, melds("JS JH JD", "TS TH TD"), lay_off(0, "KC"))  # 30 + 30 = 60
    assert sorted(st.melds[0].codes) == ["KC", "KD", "KH", "KS"]


# Seat 0 (first with dealer 1) can open only as JK 2H 3H 4H with the joker as the low AH
# (15 + 2 + 3 + 4 = 24) plus KS KH KD (30) = 54; as the 5H the run is worth 14 (44 in all), and
# KS KH KD JK (40) + 2H 3H 4H (9) is 49. The rest of the hand cannot meld at all.
LOW_ACE_JOKER = ["2H", "4H", "JK", "KS", "KH", "KD", "5C", "9C", "QC", "3D", "7D", "6S", "TS",
                 "8H", "JD"]


def test_kaluki5_joker_as_low_ace_counts_15():
    # KALUKI-5: the joker stands for the AH and counts 15: JK 2H 3H 4H + KS KH KD = 54 opens;
    # with the joker designated as the 5H (44) the same cards are too low.
    st = stacked(GAME, [list(LOW_ACE_JOKER), list(JUNK)], discard=["KC"], stock_top=["3H"],
                 dealer=1)
    st = act(st, 0, DRAW_STOCK)
    rejected(st, 0, melds("2H 3H 4H JK", "KS KH KD"), "initial_meld_too_low")
    st = act(st, 0, melds("JK 2H 3H 4H", "KS KH KD"))
    assert shown(st, 0) == "JK:AH 2H 3H 4H"


def test_kaluki6_discard_take_counts_the_best_joker_designation():
    # KALUKI-6: the upcard 3H can be used in a 51 opening (JK:AH 2H 3H 4H + KS KH KD = 54), so
    # seat 0 may take it, and that opening is then accepted.
    st = stacked(GAME, [list(LOW_ACE_JOKER), list(JUNK)], discard=["3H"], dealer=1)
    st = act(st, 0, DRAW_DISCARD)
    assert st.must_use == "3H"
    st = act(st, 0, melds("JK 2H 3H 4H", "KS KH KD"), discard("5C"))
    assert st.opened[0] is True and st.turn == 1


# --- KALUKI-7 joker exchange ----------------------------------------------------------------

JOKER_TABLE = ["7H", "JK", "9H", "TH", "KS", "KH", "JK", "2C", "4C", "6C", "8C", "2D", "4D",
               "6D", "6H"]
EXCHANGER = ["8H", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "3C", "5C", "7C", "3D", "5D", "7D",
             "KC"]


def jokers_on_the_table() -> State:
    """Seat 1 opens with 7H JK(8H) 9H TH (34) and KS KH JK:KD (30); seat 0 has drawn."""
    st = stacked(GAME, [list(EXCHANGER), list(JOKER_TABLE)], discard=["5S"],
                 stock_top=["AH", "AS"])
    st = act(st, 1, DRAW_STOCK, melds("7H JK 9H TH", "KS KH JK:KD"), discard("AH"))
    assert shown(st, 0) == "7H JK:8H 9H TH"
    assert shown(st, 1) == "KS KH JK:KD"
    return st


def test_kaluki7_exchange_after_drawing_several_times_without_opening():
    # KALUKI-7: seat 0 (not opened) exchanges 8H and KD for both jokers, then melds with them.
    st = jokers_on_the_table()
    rejected(st, 0, swap(0, "8H"), "must_draw_first")
    st = act(st, 0, DRAW_STOCK, swap(0, "8H"))
    assert shown(st, 0) == "7H 8H 9H TH"
    assert st.hands[0].count("JK") == 1 and "8H" not in st.hands[0]
    st = act(st, 0, swap(1, "KD"))
    assert shown(st, 1) == "KS KH KD"
    assert st.hands[0].count("JK") == 2
    st = act(st, 0, melds("QS QH QD", "JS JH JD", "3C JK 5C"))  # 30 + 30 + 12
    assert shown(st, 4) == "3C JK:4C 5C"


def test_kaluki7_exchange_refusals():
    # KALUKI-7: only the natural card the joker stands for; only cards held; not after melding.
    st = act(jokers_on_the_table(), 0, DRAW_STOCK)
    rejected(st, 0, swap(1, "KC"), "no_joker_for_card")
    rejected(st, 0, swap(0, "7H"), "no_joker_for_card")
    rejected(st, 0, swap(0, "8D"), "no_joker_for_card")
    rejected(st, 0, swap(2, "8H"), "no_such_meld")
    st = act(st, 0, melds("QS QH QD", "JS JH JD"))
    rejected(st, 0, swap(0, "8H"), "swap_too_late")
    rejected(st, 0, swap(1, "KD"), "swap_too_late")


def test_kaluki7_exchange_needs_the_card_in_hand():
    # KALUKI-7: seat 1 itself has no 8H to put in the joker's place.
    st = act(jokers_on_the_table(), 0, DRAW_STOCK, discard("3C"))
    st = act(st, 1, DRAW_STOCK)
    assert "8H" not in st.hands[1]
    rejected(st, 1, swap(0, "8H"), "card_not_in_hand")


def test_kaluki7_not_after_a_lay_off():
    # KALUKI-7: on its second turn seat 1 draws KD; swapping it for the KD joker and then
    # laying off 6H is accepted, laying off 6H first makes the exchange too late.
    st = stacked(GAME, [list(EXCHANGER), list(JOKER_TABLE)], discard=["5S"],
                 stock_top=["AH", "AS", "KD"])
    st = act(st, 1, DRAW_STOCK, melds("7H JK 9H TH", "KS KH JK:KD"), discard("AH"))
    st = act(st, 0, DRAW_STOCK, discard("3C"))
    st = act(st, 1, DRAW_STOCK)
    late = act(st, 1, lay_off(0, "6H"))
    assert shown(late, 0) == "6H 7H JK:8H 9H TH"
    rejected(late, 1, swap(1, "KD"), "swap_too_late")
    st = act(st, 1, swap(1, "KD"), lay_off(0, "6H"))
    assert shown(st, 1) == "KS KH KD"
    assert "JK" in st.hands[1]


# --- KALUKI-8 going out and scoring ---------------------------------------------------------

WINNER = ["AH", "2H", "3H", "4H", "5H", "JC", "QC", "KC", "AC", "7S", "7D", "7C", "TD", "TH",
          "TS"]
WINNER_MELDS = ("AH 2H 3H 4H 5H", "JC QC KC AC", "7S 7D 7C", "TD TH TS")
# 15 + 25 + 10 + (2+3+4) + (5+5+5) + (9+9) + 10 + 10 + 7 + 8 = 127 (melds in hand count too).
LOSER_127 = ["AS", "JK", "KD", "2C", "3C", "4C", "5H", "5D", "5S", "9H", "9D", "TC", "QS", "7H",
             "8S"]
# 2+3+4 + 5+5 + 6+6 + 8+8 + 3 + 4 + 6 + 9 + 9 + 10 = 88.
LOSER_88 = ["2C", "3C", "4C", "5D", "5S", "6D", "6S", "8D", "8S", "3S", "4S", "6C", "9H", "9S",
            "TC"]


def go_out_by_discard(loser: list[str], state: State | None = None,
                      options: dict[str, Any] | None = None) -> State:
    st = stacked(GAME, [list(loser), list(WINNER)], discard=["QH"], stock_top=["8D"],
                 state=state, options=options)
    return act(st, 1, DRAW_STOCK, melds(*WINNER_MELDS), discard("8D"))


def test_kaluki8_going_out_by_discard_scores_ace_15_joker_25():
    # KALUKI-8: seat 1 melds 15 cards and discards the 16th; seat 0's hand is worth 127.
    st = go_out_by_discard(LOSER_127)
    result = st.results[-1]
    assert result.winner == 1 and result.reason == "went_out"
    assert result.scores == (0, 127)
    rejected(st, 0, DRAW_STOCK, "hand_over")


def test_kaluki8_going_out_by_melding_the_last_card():
    # KALUKI-8: seat 1 draws 6H and melds all 16 cards (AH..6H): no discard is needed.
    st = stacked(GAME, [list(LOSER_88), list(WINNER)], discard=["QH"], stock_top=["6H"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("AH 2H 3H 4H 5H 6H", "JC QC KC AC", "7S 7D 7C", "TD TH"),
             "invalid_meld")
    st = act(st, 1, melds("AH 2H 3H 4H 5H 6H", "JC QC KC AC", "7S 7D 7C", "TD TH TS"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["QH"]
    assert st.results[-1].scores == (0, 88)


# --- KALUKI-9 game end -----------------------------------------------------------------------


def test_kaluki9_target_100():
    # KALUKI-9: 88 does not end the game; another 127 does (215 >= 100).
    assert match_rules(GAME, {}, 2).target == 100
    st = stacked(GAME, [list(LOSER_88), list(WINNER)], discard=["QH"], stock_top=["8D"])
    st = act(st, 1, DRAW_STOCK, melds(*WINNER_MELDS), discard("8D"))
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    assert st.totals == [0, 88]
    st = stacked(GAME, [list(WINNER), list(LOSER_127)], discard=["QH"], stock_top=["8D"],
                 dealer=1, state=st)
    st = act(st, 0, DRAW_STOCK, melds(*WINNER_MELDS), discard("8D"))
    assert st.totals == [127, 88]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 0
    rejected(st, 1, DRAW_STOCK, "hand_over")
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(st.rules, 0, random.Random(1)), 0)
    assert info.value.code == "game_over"


def test_kaluki9_host_target():
    # KALUKI-9 with target_score 200: 127 is not enough.
    st = go_out_by_discard(LOSER_127, options={"target_score": 200})
    assert st.phase is Phase.HAND_OVER and st.totals == [0, 127]


# --- replay ----------------------------------------------------------------------------------


def test_kaluki_replay_reproduces_the_hand():
    # The KALUKI-8 hand as a match log: 127 for seat 1, and the game is over.
    st = stacked(GAME, [list(LOSER_127), list(WINNER)], discard=["QH"], stock_top=["8D"])
    log = {"game": GAME, "players": 2, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": melds(*WINNER_MELDS)},
            {"seat": 1, "action": discard("8D")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [0, 127]}]
    assert out["totals"] == [0, 127]
    assert out["game_over"] is True and out["game_winner"] == 1
