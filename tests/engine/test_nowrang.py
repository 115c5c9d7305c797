"""Scenario tests for Nowrang (RULES.md §4.9, NOWRANG-1 .. NOWRANG-7) on stacked deals.

Two players; seat 0 deals unless stated, so seat 1 (the non-dealer) holds 11 cards and opens
by discarding; seat 0 holds 10.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import InvalidDeal, InvalidOptions
from app.engine.game import new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked


def declare(*listings: str, discard: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": [m.split() for m in listings], "discard": discard}


# Seat 1 (11 cards, no goal): opens with KC.
JUNK_11 = ["KC", "2C", "5C", "JD", "3D", "6D", "9H", "QH", "2S", "6S", "AD"]
# Seat 0 (10): draws 9C to hold TS JS QS KS + 3H 4H 5H + 7C 8C 9C, discards 2D.
WIN_10 = ["TS", "JS", "QS", "KS", "3H", "4H", "5H", "7C", "8C", "2D"]
WIN_MELDS = ("TS JS QS KS", "3H 4H 5H", "7C 8C 9C")

# Eleven cards whose ten form the goal with an ace-high garwanj; 2S is the eleventh.
OPEN_WIN = ["JH", "QH", "KH", "AH", "4C", "5C", "6C", "7D", "8D", "9D", "2S"]
OPEN_MELDS = ("JH QH KH AH", "4C 5C 6C", "7D 8D 9D")
JUNK_10 = ["TS", "JS", "QS", "KS", "3S", "5H", "7C", "8C", "2D", "6H"]


def game(seat0: list[str], seat1: list[str], stock_top: list[str] | None = None, *,
         dealer: int = 0, state: State | None = None) -> State:
    return stacked("nowrang", [list(seat0), list(seat1)], stock_top=stock_top, dealer=dealer,
                   state=state)


def after_opening(seat0: list[str], draw: str) -> State:
    """Seat 1 opens with KC; seat 0 (holding ``seat0``) draws ``draw`` from the stock."""
    st = game(seat0, JUNK_11, [draw])
    st = act(st, 1, discard("KC"))
    return act(st, 0, DRAW_STOCK)


# --- NOWRANG-1 players and pack -------------------------------------------------------------


def test_nowrang1_two_players_one_pack_no_jokers():
    rules = match_rules("nowrang", {}, 2)
    assert rules.pack_size() == (1, 0)


@pytest.mark.parametrize("players", [1, 3, 4])
def test_nowrang1_only_two_players(players: int):
    with pytest.raises(InvalidOptions) as info:
        match_rules("nowrang", {}, players)
    assert info.value.code == "bad_players"


def test_nowrang1_takes_no_options():
    with pytest.raises(InvalidOptions) as info:
        match_rules("nowrang", {"hands": 3}, 2)
    assert info.value.code == "option_not_allowed"


# --- NOWRANG-2 ace --------------------------------------------------------------------------


def test_nowrang2_ace_high_only_q_k_a_is_a_run():
    # J-Q-K-A of hearts is the garwanj of seat 1's opening declaration.
    assert match_rules("nowrang", {}, 2).meld.ace is AceModel.HIGH_ONLY
    st = game(JUNK_10, OPEN_WIN)
    st = act(st, 1, declare(*OPEN_MELDS, discard="2S"))
    assert st.melds[0].codes == ["JH", "QH", "KH", "AH"]
    assert st.results[-1].winner == 1


@pytest.mark.parametrize("low", ["AH 2H 3H 4H", "KH AH 2H 3H"], ids=["A-2-3-4", "K-A-2-3"])
def test_nowrang2_ace_low_or_around_the_corner_is_refused(low: str):
    hand = low.split() + ["4C", "5C", "6C", "7D", "8D", "9D", "2S"]
    st = game(JUNK_10, hand)
    rejected(st, 1, declare(low, "4C 5C 6C", "7D 8D 9D", discard="2S"), "invalid_meld")


# --- NOWRANG-3 deal -------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "sizes"), [(0, [10, 11]), (1, [11, 10])])
def test_nowrang3_eleven_to_the_non_dealer_ten_to_the_dealer(dealer: int, sizes: list[int]):
    rules = match_rules("nowrang", {}, 2)
    deal = shuffled_deal(rules, dealer, random.Random(11 + dealer))
    assert [len(h) for h in deal.hands] == sizes
    assert list(deal.discard) == []
    assert len(deal.stock) == 31
    st = start_hand(new_match(rules), deal, dealer)
    assert (st.turn, st.phase) == (1 - dealer, Phase.OPENING)


def test_nowrang3_deal_with_an_upcard_is_refused():
    rules = match_rules("nowrang", {}, 2)
    pack = standard_pack()
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:10], pack[10:20]], "stock": pack[21:],
                                "discard": [pack[20]]})
    assert info.value.code == "bad_deal"


# --- NOWRANG-4 opening ----------------------------------------------------------------------


def test_nowrang4_opening_is_a_discard_only():
    # Seat 1 may not draw; it discards KC, which starts the pile.
    st = game(WIN_10, JUNK_11, ["9C"])
    assert st.discard == []
    rejected(st, 1, DRAW_STOCK, "must_discard")
    rejected(st, 1, DRAW_DISCARD, "must_discard")
    rejected(st, 0, DRAW_STOCK, "not_your_turn")
    st = act(st, 1, discard("KC"))
    assert st.discard == ["KC"]
    assert len(st.hands[1]) == 10
    assert (st.turn, st.phase) == (0, Phase.DRAW)


def test_nowrang4_immediate_declaration_with_ten_of_eleven():
    # Seat 1's dealt hand already holds the goal: it declares and discards 2S at once.
    st = game(JUNK_10, OPEN_WIN)
    st = act(st, 1, declare(*OPEN_MELDS, discard="2S"))
    assert st.discard == ["2S"]
    assert st.results[-1].scores == (0, 1)
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


def test_nowrang4_opening_declaration_still_needs_the_discard():
    # Declaring ten cards without discarding the eleventh is refused.
    st = game(JUNK_10, OPEN_WIN)
    rejected(st, 1, declare(*OPEN_MELDS), "must_keep_discard")
    rejected(st, 1, declare(*OPEN_MELDS, discard="KD"), "card_not_in_hand")


# --- NOWRANG-5 turns ------------------------------------------------------------------------


def test_nowrang5_draw_either_pile_then_discard():
    # Seat 0 takes seat 1's KC; it may not discard it at once (GEN-8), so it discards 2D.
    st = game(WIN_10, JUNK_11, ["9C"])
    st = act(st, 1, discard("KC"))
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == "KC"
    rejected(st, 0, DRAW_STOCK, "already_drew")
    rejected(st, 0, discard("KC"), "cannot_discard_taken_card")
    st = act(st, 0, discard("2D"))
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-1] == "9C"


def test_nowrang5_no_meld_or_lay_off():
    # Runs stay in the hand until the declaration.
    st = after_opening(WIN_10, "9C")
    rejected(st, 0, {"type": "meld", "melds": [["3H", "4H", "5H"]]}, "not_in_this_game")
    rejected(st, 0, {"type": "lay_off", "meld": 0, "cards": ["6H"]}, "not_in_this_game")


def test_nowrang5_empty_stock_is_restocked():
    # GEN-13: 31 stock cards run down; the next draw turns the pile over, top card kept.
    st = game(WIN_10, JUNK_11)
    st = act(st, 1, discard("KC"))
    stock = list(st.stock)
    assert len(stock) == 31
    while st.stock:
        st = act(st, st.turn, DRAW_STOCK, discard(st.stock[0]))
    assert st.discard == ["KC"] + stock
    seat = st.turn
    st = act(st, seat, DRAW_STOCK)
    assert st.hands[seat][-1] == "KC"
    assert st.stock == stock[:-1]
    assert st.discard == [stock[-1]]


def test_nowrang5_one_card_pile_cannot_restock():
    st = act(game(WIN_10, JUNK_11), 1, discard("KC"))
    st.stock.clear()
    rejected(st, 0, DRAW_STOCK, "stock_empty")
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == "KC"


# --- NOWRANG-6 declaring --------------------------------------------------------------------


def test_nowrang6_declare_four_three_three_and_discard_the_eleventh():
    st = after_opening(WIN_10, "9C")
    st = act(st, 0, declare(*WIN_MELDS, discard="2D"))
    assert st.phase is Phase.GAME_OVER
    assert st.discard == ["KC", "2D"]
    assert st.hands[0] == []
    assert [len(m.cards) for m in st.melds] == [4, 3, 3]


def test_nowrang6_declaration_needs_the_discard():
    st = after_opening(WIN_10, "9C")
    rejected(st, 0, declare(*WIN_MELDS), "must_keep_discard")
    rejected(st, 0, declare("TS JS QS KS", "3H 4H 5H", "7C 8C 9C 2D"), "must_keep_discard")


def test_nowrang6_other_patterns_are_refused():
    # Two five-card runs hold ten cards but are not the goal.
    seat0 = ["9S", "TS", "JS", "QS", "KS", "3H", "4H", "5H", "6H", "2D"]
    st = after_opening(seat0, "7H")
    rejected(st, 0, declare("9S TS JS QS KS", "3H 4H 5H 6H 7H", discard="2D"), "wrong_pattern")
    rejected(st, 0, declare("9S TS JS QS", "KS 3H 4H 5H 6H 7H", discard="2D"),
             "wrong_pattern")


def test_nowrang6_sets_are_not_recognised():
    # 7C 7D 7S would be a set elsewhere: the 4-3-3 declaration is refused.
    seat0 = ["TS", "JS", "QS", "KS", "7C", "7D", "7S", "3H", "4H", "2D"]
    st = after_opening(seat0, "5H")
    rejected(st, 0, declare("TS JS QS KS", "7C 7D 7S", "3H 4H 5H", discard="2D"), "invalid_meld")


def test_nowrang6_no_declaration_before_drawing_after_the_opening():
    # Only the opening player may declare without drawing: seat 0 must draw first.
    st = game(WIN_10, JUNK_11, ["9C"])
    st = act(st, 1, discard("KC"))
    rejected(st, 0, declare("TS JS QS KS", "3H 4H 5H", "7C 8C 2D"), "must_draw_first")


# --- NOWRANG-7 result -----------------------------------------------------------------------


def test_nowrang7_declarer_wins_the_game_at_once():
    # +1 tally for the declarer, 0 for the other; the game is over.
    st = after_opening(WIN_10, "9C")
    st = act(st, 0, declare(*WIN_MELDS, discard="2D"))
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (0, "went_out", (1, 0))
    assert st.totals == [1, 0]
    assert st.game_over and st.game_winner == 0
    rejected(st, 1, DRAW_STOCK, "hand_over")


def test_nowrang7_the_deal_alternates_between_games():
    # Game 1 (dealer 0) is won by the dealer; game 2 is still dealt by seat 1, and seat 0
    # (now the non-dealer, 11 cards) declares at its opening.
    st = game(WIN_10, JUNK_11, ["QD", "9C"])
    st = act(st, 1, discard("KC"))
    st = act(st, 0, DRAW_STOCK, discard("QD"))
    st = act(st, 1, DRAW_STOCK, discard("9C"))
    st = act(st, 0, DRAW_DISCARD, declare(*WIN_MELDS, discard="2D"))
    assert st.game_winner == 0
    dealer = next_dealer(st)
    assert dealer == 1
    st = game(OPEN_WIN, JUNK_10, dealer=dealer, state=st)
    assert (st.dealer, st.turn, st.phase, st.hand_no) == (1, 0, Phase.OPENING, 1)
    assert st.game_winner is None
    st = act(st, 0, declare(*OPEN_MELDS, discard="2S"))
    assert st.results[-1].scores == (1, 0)
    assert st.totals == [2, 0]
    assert st.game_winner == 0
    assert next_dealer(st) == 0


# --- replay ---------------------------------------------------------------------------------


def test_replay_of_a_stacked_game_reproduces_the_result():
    st = game(WIN_10, JUNK_11, ["9C"])
    log = {"game": "nowrang", "options": {}, "players": 2, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": discard("KC")},
            {"seat": 0, "action": DRAW_STOCK},
            {"seat": 0, "action": declare(*WIN_MELDS, discard="2D")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [{"ended": True, "winner": 0, "reason": "went_out",
                             "scores": [1, 0]}]
    assert out["totals"] == [1, 0]
    assert out["game_over"] is True and out["game_winner"] == 0
