"""Scenario tests for Standard Rummy (RULES.md §2, STD-1 .. STD-15) on stacked and seeded deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
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
)

# Two players: the winner holds 2C..6C, 7D 8D 9D, TS JS and draws QS to meld everything.
WINNER = ["2C", "3C", "4C", "5C", "6C", "7D", "8D", "9D", "TS", "JS"]
WINNING_MELDS = ("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS")
# The loser's ten cards: 6H 7H 8H (21), KS KH JH TH (40), AC AD AH (3) = 64.
LOSER = ["6H", "7H", "8H", "KS", "KH", "JH", "TH", "AC", "AD", "AH"]


def instant_win(loser: list[str], *, dealer: int = 0, state: State | None = None,
                options: dict[str, Any] | None = None) -> State:
    """Two players: the dealer's left draws QS and melds his whole hand; ``loser`` is kept."""
    winner = (dealer + 1) % 2
    hands = [list(loser), list(loser)]
    hands[winner] = list(WINNER)
    st = stacked("standard", hands, discard=["KD"], stock_top=["QS"], dealer=dealer,
                 state=state, options=options)
    assert st.turn == winner
    return act(st, winner, DRAW_STOCK, melds(*WINNING_MELDS))


# --- STD-1 players and pack -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_std1_two_to_six_players_one_pack_without_jokers(players: int):
    # Every player count from 2 to 6 is a Standard match with one 52-card pack.
    rules = match_rules("standard", {}, players)
    assert rules.players == players
    assert rules.pack_size() == (1, 0)


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_std1_other_player_counts_are_rejected(players: int):
    # One player or seven are not Standard Rummy.
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {}, players)
    assert info.value.code == "bad_players"


# --- STD-2 deal -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_std2_deal_sizes(players: int, size: int):
    # 10 cards each with 2 players, 7 with 3-4, 6 with 5-6; one upcard; the rest is the stock.
    rules = match_rules("standard", {}, players)
    deal = shuffled_deal(rules, 0, random.Random(1000 + players))
    assert [len(h) for h in deal.hands] == [size] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 52 - players * size - 1
    cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert sorted(cards) == sorted(standard_pack())


def test_std2_stacked_deal_with_wrong_hand_sizes_is_rejected():
    # A two-player deal of 7 cards each is not a Standard deal.
    rules = match_rules("standard", {}, 2)
    pack = standard_pack()
    raw = {"hands": [pack[0:7], pack[7:14]], "stock": pack[15:], "discard": [pack[14]]}
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, raw)
    assert info.value.code == "bad_deal"


# --- STD-3 stock and discard pile -----------------------------------------------------------


def test_std3_upcard_starts_the_discard_pile():
    # A seeded 3-player deal: the card after the hands is the upcard, the rest the stock.
    rules = match_rules("standard", {}, 3)
    pack = standard_pack()
    random.Random(42).shuffle(pack)
    deal = shuffled_deal(rules, 0, random.Random(42))
    assert list(deal.discard) == [pack[21]]
    assert list(deal.stock) == pack[22:]
    st = start_hand(new_match(rules), deal, 0)
    assert st.discard == [pack[21]]
    assert st.stock == pack[22:]
    assert st.phase is Phase.DRAW
    assert len(st.stock) == 30


def test_std3_deal_without_upcard_is_rejected():
    # Standard always turns an upcard: a deal with an empty discard pile is refused.
    rules = match_rules("standard", {}, 2)
    pack = standard_pack()
    raw = {"hands": [pack[0:10], pack[10:20]], "stock": pack[20:], "discard": []}
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, raw)
    assert info.value.code == "bad_deal"


# --- STD-4 order of play --------------------------------------------------------------------

HANDS_3 = [["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
           ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
           ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]


@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 2), (2, 0)])
def test_std4_dealers_left_plays_first(dealer: int, first: int):
    # Three players: the seat after the dealer starts; the dealer himself may not.
    st = stacked("standard", HANDS_3, discard=["KS"], dealer=dealer)
    assert st.turn == first
    rejected(st, dealer, DRAW_STOCK, "not_your_turn")
    st = act(st, first, DRAW_STOCK, discard(st.hands[first][0]))
    assert st.turn == (first + 1) % 3


# --- STD-5 ace ------------------------------------------------------------------------------


def test_std5_ace_low_in_play():
    # Standard uses ACE_LOW: AH 2H 3H melds; Q-K-A and K-A-2 are refused.
    assert match_rules("standard", {}, 2).meld.ace is AceModel.LOW
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["AH", "2H", "3H", "QS", "KS", "AS", "AC", "2C", "KC", "9C"]],
                 discard=["KD"], stock_top=["QC"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("QS KS AS"), "invalid_meld")
    rejected(st, 1, melds("KC AC 2C"), "invalid_meld")
    rejected(st, 1, melds("QC KC AC"), "invalid_meld")
    st = act(st, 1, melds("AH 2H 3H"))
    assert shown(st, 0) == "AH 2H 3H"


# --- STD-6 melds ----------------------------------------------------------------------------


def test_std6_sets_and_runs():
    # Seat 1 lays a set of 4, a set of 3 and a 4-card run; mixed or short melds are refused.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "8H", "7H", "6H", "5H", "4H", "AD"],
                              ["9C", "9D", "9S", "9H", "5C", "5D", "5S", "2S", "3S", "4S"]],
                 discard=["KD"], stock_top=["QC"])
    assert st.turn == 1
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("9C 9D"), "invalid_meld")
    rejected(st, 1, melds("9C 9D 5C"), "invalid_meld")
    rejected(st, 1, melds("3S 4S 5C"), "invalid_meld")
    rejected(st, 1, melds("2S 3S 5S"), "invalid_meld")
    st = act(st, 1, melds("9C 9D 9S 9H", "5C 5D 5S", "2S 3S 4S"))
    assert [(m.kind, len(m.cards)) for m in st.melds] == [("set", 4), ("set", 3), ("run", 3)]
    assert st.hands[1] == ["QC"]


# --- STD-7 draw -----------------------------------------------------------------------------


def test_std7_draw_top_of_stock_or_discard():
    # Seat 1 draws the stock top (QC); seat 0 then takes seat 1's discard, the pile's top.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "8H", "7H", "6H", "5H", "4H", "AD"],
                              ["9C", "9D", "9S", "9H", "5C", "5D", "5S", "2S", "3S", "4S"]],
                 discard=["KD"], stock_top=["QC", "JC"])
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-1] == "QC"
    assert st.stock[0] == "JC"
    st = act(st, 1, discard("9H"))
    assert st.discard == ["KD", "9H"]
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == "9H"
    assert st.discard == ["KD"]
    assert st.known[0] == ["9H"]


def test_std7_exactly_one_card_per_turn():
    # After drawing, neither pile may be drawn again; the other seat may not draw.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "8H", "7H", "6H", "5H", "4H", "AD"],
                              ["9C", "9D", "9S", "9H", "5C", "5D", "5S", "2S", "3S", "4S"]],
                 discard=["KD"], stock_top=["QC", "JC"])
    rejected(st, 0, DRAW_STOCK, "not_your_turn")
    st = act(st, 1, DRAW_DISCARD)
    rejected(st, 1, DRAW_STOCK, "already_drew")
    rejected(st, 1, DRAW_DISCARD, "already_drew")


# --- STD-8 melding --------------------------------------------------------------------------


def test_std8_any_number_of_melds_after_drawing_and_never_compulsory():
    # Seat 1 lays two melds in one action and a third in another; seat 0 melds nothing.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["9C", "9D", "9S", "5C", "5D", "5S", "2S", "3S", "4S", "KC"]],
                 discard=["KD"], stock_top=["QC", "JC"])
    st = act(st, 1, DRAW_STOCK, melds("9C 9D 9S", "5C 5D 5S"), melds("2S 3S 4S"))
    assert len(st.melds) == 3
    st = act(st, 1, discard("KC"))
    assert st.hands[1] == ["QC"]
    # Seat 0 holds a long heart run but need not meld it.
    st = act(st, 0, DRAW_STOCK, discard("JC"))
    assert len(st.hands[0]) == 10 and len(st.melds) == 3


def test_std8_melding_refused_before_drawing_or_with_cards_not_held():
    # A meld before the draw, or of cards seat 1 does not hold, is refused.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["9C", "9D", "9S", "5C", "5D", "5S", "2S", "3S", "4S", "KC"]],
                 discard=["KD"], stock_top=["QC", "JC"])
    rejected(st, 1, melds("9C 9D 9S"), "must_draw_first")
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("9C 9D 9H"), "card_not_in_hand")
    rejected(st, 1, melds("9C 9D 9S", "9C 5D 5S"), "card_not_in_hand")


# --- STD-9 laying off -----------------------------------------------------------------------


def test_std9_lay_off_on_any_meld_without_having_melded():
    # Seat 1 melds 9C 9D 9S; seat 0, who has not melded, lays off 9H on it and 4H on nothing.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["9C", "9D", "9S", "5C", "5D", "5S", "2S", "3S", "4S", "KC"]],
                 discard=["KD"], stock_top=["QC", "JC"])
    st = act(st, 1, DRAW_STOCK, melds("9C 9D 9S", "2S 3S 4S"), discard("KC"))
    st = act(st, 0, DRAW_STOCK)
    assert st.opened[0] is False
    rejected(st, 0, lay_off(1, "4H"), "invalid_meld")
    rejected(st, 0, lay_off(2, "4H"), "no_such_meld")
    st = act(st, 0, lay_off(0, "9H"))
    assert sorted(st.melds[0].codes) == ["9C", "9D", "9H", "9S"]
    assert st.melds[0].owner == 1
    assert "9H" not in st.hands[0]


def test_std9_lay_off_several_cards_onto_own_meld():
    # Seat 1 extends its own 2S 3S 4S with AS and 5S in one lay-off.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["AS", "5S", "2S", "3S", "4S", "5C", "5D", "9C", "9D", "KC"]],
                 discard=["KD"], stock_top=["QC"])
    st = act(st, 1, DRAW_STOCK, melds("2S 3S 4S"), lay_off(0, "AS 5S"))
    assert shown(st, 0) == "AS 2S 3S 4S 5S"
    rejected(st, 1, lay_off(0, "5C"), "invalid_meld")


# --- STD-10 discard -------------------------------------------------------------------------


def test_std10_discard_ends_the_turn():
    # Seat 1 discards KC: it tops the pile and seat 0 is to draw.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["9C", "9D", "9S", "5C", "5D", "5S", "2S", "3S", "4S", "KC"]],
                 discard=["KD"], stock_top=["QC"])
    st = act(st, 1, DRAW_STOCK, discard("KC"))
    assert st.discard == ["KD", "KC"]
    assert len(st.hands[1]) == 10
    assert (st.turn, st.phase) == (0, Phase.DRAW)


def test_std10_discard_refusals():
    # Not before drawing, not a card not held, not the card just taken from the pile.
    st = stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"],
                              ["9C", "9D", "9S", "5C", "5D", "5S", "2S", "3S", "4S", "KC"]],
                 discard=["KD"], stock_top=["QC"])
    rejected(st, 1, discard("KC"), "must_draw_first")
    st = act(st, 1, DRAW_DISCARD)
    rejected(st, 1, discard("KD"), "cannot_discard_taken_card")
    rejected(st, 1, discard("KH"), "card_not_in_hand")
    st = act(st, 1, discard("KC"))
    assert st.discard == ["KC"]


# --- STD-11 going out -----------------------------------------------------------------------


def test_std11_going_out_by_melding_needs_no_discard():
    # Seat 1 draws QS and melds all eleven cards: the hand is over at once, no discard.
    st = instant_win(["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"])
    assert st.phase is Phase.HAND_OVER
    assert st.hands[1] == []
    assert st.discard == ["KD"]
    assert st.results[-1].winner == 1
    assert st.results[-1].reason == "went_out"


def test_std11_going_out_by_laying_off():
    # Seat 1 keeps 9H and 6C after its first turn; seat 0 lays 6H 7H 8H; seat 1 draws JD and
    # lays off all three cards, the last one ending the hand.
    st = stacked("standard", [["6H", "7H", "8H", "KS", "QS", "JS", "TS", "AC", "AD", "AH"],
                              ["2C", "3C", "4C", "5C", "7D", "8D", "9D", "TD", "9H", "KC"]],
                 discard=["KD"], stock_top=["6C", "5S", "JD"])
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C 5C", "7D 8D 9D TD"), discard("KC"))
    assert sorted(st.hands[1]) == ["6C", "9H"]
    st = act(st, 0, DRAW_STOCK, melds("6H 7H 8H"), discard("5S"))
    st = act(st, 1, DRAW_STOCK, lay_off(2, "9H"), lay_off(0, "6C"))
    assert st.hands[1] == ["JD"]
    rejected(st, 1, lay_off(2, "JD"), "invalid_meld")
    st = act(st, 1, lay_off(1, "JD"))
    assert st.phase is Phase.HAND_OVER
    assert shown(st, 1) == "7D 8D 9D TD JD"
    # Seat 0 holds KS QS JS TS (40) and AC AD AH (3).
    assert st.results[-1].scores == (0, 43)


def test_std11_going_out_by_discarding_the_last_card():
    # Seat 1 draws KH, melds ten cards and discards KH, its last card.
    st = stacked("standard", [["6H", "7H", "8H", "KS", "QS", "JS", "TS", "AC", "AD", "AH"],
                              ["2C", "3C", "4C", "5C", "6C", "7D", "8D", "9D", "TD", "JD"]],
                 discard=["KD"], stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C 5C 6C", "7D 8D 9D TD JD"))
    assert st.hands[1] == ["KH"] and st.phase is Phase.PLAY
    st = act(st, 1, discard("KH"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["KD", "KH"]
    # Seat 0: 6H 7H 8H (21), KS QS JS TS (40), AC AD AH (3).
    assert st.results[-1].scores == (0, 64)
    assert st.turn is None


def test_std11_no_play_after_going_out():
    # The hand is over: seat 0 may not draw, meld its 6H 7H 8H or discard.
    st = instant_win(LOSER)
    rejected(st, 0, DRAW_STOCK, "hand_over")
    rejected(st, 0, melds("6H 7H 8H"), "hand_over")
    rejected(st, 0, discard("KS"), "hand_over")


def test_std11_mandatory_discard_option_forbids_going_out_without_discard():
    # With OPT-MANDISC on, melding the whole hand is refused; melding all but one is fine.
    st = stacked("standard", [list(LOSER), list(WINNER)], options={"mandatory_discard": True},
                 discard=["KD"], stock_top=["QS"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds(*WINNING_MELDS), "must_keep_discard")
    st = act(st, 1, melds("2C 3C 4C 5C 6C", "7D 8D 9D"), discard("QS"))
    assert sorted(st.hands[1]) == ["JS", "TS"]


# --- STD-12 stock exhausted -----------------------------------------------------------------


def run_down_stock(st: State) -> State:
    """Each player draws from the stock and discards the drawn card until the stock is empty."""
    while st.stock:
        seat = st.turn
        st = act(st, seat, DRAW_STOCK, discard(st.stock[0]))
    return st


def test_std12_empty_stock_is_restocked_from_the_discard_pile():
    # Three players, 30 stock cards run down; seat 1 (to play) turns the pile over.
    st = stacked("standard", HANDS_3, discard=["KS"])
    stock = list(st.stock)
    assert len(stock) == 30
    st = run_down_stock(st)
    assert st.turn == 1
    assert st.discard == ["KS"] + stock
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-1] == "KS"  # the oldest discard was on top of the new stock
    assert st.stock == stock[:29]
    assert st.discard == [stock[29]]


def test_std12_one_card_discard_pile_cannot_restock():
    # Stock emptied by hand, only the upcard in the pile: a stock draw is refused.
    st = stacked("standard", HANDS_3, discard=["KS"])
    st.stock.clear()
    rejected(st, 1, DRAW_STOCK, "stock_empty")
    st = act(st, 1, DRAW_DISCARD)
    assert st.hands[1][-1] == "KS"


# --- STD-13 scoring -------------------------------------------------------------------------


def test_std13_winner_scores_cards_left_in_opponents_hands():
    # Three players. Seat 2 melds its tens keeping K-7-A; seat 0 melds a spade run keeping
    # 5-5; seat 1 then draws 9H and melds its whole hand: 18 + 10 = 28.
    st = stacked("standard", [["5H", "5D", "2S", "3S", "4S", "5S", "6S"],
                              ["2C", "3C", "4C", "5C", "6H", "7H", "8H"],
                              ["KS", "7D", "AC", "TC", "TD", "TH", "TS"]],
                 discard=["KC"], stock_top=["QC", "QD", "QH", "9H"])
    st = act(st, 1, DRAW_STOCK, discard("QC"))
    st = act(st, 2, DRAW_STOCK, melds("TC TD TH TS"), discard("QD"))
    st = act(st, 0, DRAW_STOCK, melds("2S 3S 4S 5S 6S"), discard("QH"))
    assert sorted(st.hands[2]) == ["7D", "AC", "KS"]
    assert sorted(st.hands[0]) == ["5D", "5H"]
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C 5C", "6H 7H 8H 9H"))
    result = st.results[-1]
    assert result.winner == 1
    assert result.scores == (0, 28, 0)  # melds on the table do not count
    assert st.totals == [0, 28, 0]
    assert st.phase is Phase.HAND_OVER
    rejected(st, 2, DRAW_STOCK, "hand_over")


def test_std13_only_the_winner_scores_and_totals_accumulate():
    # Two hands in a row: seat 1 wins 64, then seat 0 wins 33; losers' totals never drop.
    st = instant_win(LOSER)
    assert st.results[-1].scores == (0, 64)
    st = instant_win(LOSER_33, dealer=1, state=st)
    assert st.results[-1].scores == (33, 0)
    assert st.totals == [33, 64]


# --- STD-14 game end ------------------------------------------------------------------------

LOSER_60 = ["KH", "QH", "JH", "TH", "KS", "AH", "AS", "AD", "AC", "6H"]  # 50 + 4 + 6
LOSER_33 = ["2H", "3H", "4H", "5H", "2S", "3S", "2D", "3D", "4D", "5D"]  # 14 + 5 + 14
LOSER_40 = ["9H", "8H", "7H", "6H", "AH", "AS", "AD", "AC", "2H", "4H"]  # 30 + 4 + 6


def play_to_100() -> State:
    """Seat 1 wins 60 (dealer 0), seat 0 wins 33 (dealer 1), seat 1 wins 40 (dealer 0)."""
    st = instant_win(LOSER_60)
    assert st.totals == [0, 60]
    assert (st.phase, st.game_winner) == (Phase.HAND_OVER, None)
    st = instant_win(LOSER_33, dealer=next_dealer(st), state=st)
    assert st.dealer == 1
    assert st.totals == [33, 60]
    assert (st.phase, st.game_winner) == (Phase.HAND_OVER, None)
    return instant_win(LOSER_40, dealer=next_dealer(st), state=st)


def test_std14_game_ends_when_a_total_reaches_100():
    # Three hands: 60, then 33 for the other seat, then 40: exactly 100 ends the game.
    st = play_to_100()
    assert st.dealer == 0
    assert st.totals == [33, 100]
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 1
    assert [r.winner for r in st.results] == [1, 0, 1]
    assert [r.scores for r in st.results] == [(0, 60), (33, 0), (0, 40)]


def test_std14_no_hand_after_the_game_is_over():
    # After the game-ending hand no action is accepted and no further hand can be dealt.
    st = play_to_100()
    assert st.game_over
    rejected(st, 0, DRAW_STOCK, "hand_over")
    rejected(st, 1, DRAW_STOCK, "hand_over")
    deal = shuffled_deal(st.rules, 1, random.Random(3))
    with pytest.raises(IllegalAction) as info:
        start_hand(st, deal, 1)
    assert info.value.code == "game_over"


def test_std14_default_target_is_100():
    # Without options the Standard target is 100.
    assert match_rules("standard", {}, 2).target == 100
    assert match_rules("standard", {"target_score": 200}, 2).target == 200


# --- STD-15 next dealer ---------------------------------------------------------------------

RUN_7 = ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]
OTHERS_3 = [["2D", "3D", "4D", "5D", "6D", "7D", "8D"], ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]


def quick_hand_3(dealer: int, state: State | None) -> State:
    """Three players: the dealer's left draws 9C and melds 2C..9C at once."""
    first = (dealer + 1) % 3
    others = iter(OTHERS_3)
    hands = [list(RUN_7) if seat == first else list(next(others)) for seat in range(3)]
    st = stacked("standard", hands, discard=["KS"], stock_top=["9C"], dealer=dealer, state=state)
    assert st.turn == first
    return act(st, first, DRAW_STOCK, melds("2C 3C 4C 5C 6C 7C 8C 9C"))


def test_std15_deal_passes_to_the_left():
    # Three hands with three players: dealers 0, 1, 2 and then 0 again.
    st = new_match(match_rules("standard", {}, 3))
    dealers = []
    for _ in range(4):
        dealer = next_dealer(st)
        dealers.append(dealer)
        st = quick_hand_3(dealer, None if st.hand_no < 0 else st)
    assert dealers == [0, 1, 2, 0]
    assert [r.winner for r in st.results] == [1, 2, 0, 1]
    # Each hand the two losers hold 2..8 of one suit (35 each): the winner scores 70.
    assert st.totals == [70, 140, 70]


def test_std15_new_dealers_left_starts_the_next_hand():
    # Two players: after dealer 0's hand, seat 1 deals and seat 0 (not seat 1) plays first.
    st = instant_win(LOSER_60)
    dealer = next_dealer(st)
    assert dealer == 1
    st = stacked("standard", [list(WINNER), list(LOSER_60)], discard=["KD"], stock_top=["QS"],
                 dealer=dealer, state=st)
    assert (st.dealer, st.turn, st.hand_no) == (1, 0, 1)
    rejected(st, 1, DRAW_STOCK, "not_your_turn")
    st = act(st, 0, DRAW_STOCK)
    assert st.hands[0][-1] == "QS"
