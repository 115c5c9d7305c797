"""Scenario tests for Knock Rummy (RULES.md §4.4, KNOCK-1 .. KNOCK-9) on stacked deals.

Three-player scenarios are dealt by seat 2, so seat 0 plays first and is the knocker K; seat 1 is
P and seat 2 is Q, as in the examples of KNOCK-7.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from app.engine.views import player_view
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked

GAME = "knock"
def knock(card: str) -> dict[str, str]:
    return {"type": "knock", "discard": card}


def knock_hand(k: list[str], p: list[str], q: list[str], *, extra: str = "KS",
               state: State | None = None) -> State:
    """K (seat 0) draws ``extra`` from the stock and knocks, discarding it."""
    st = stacked(GAME, [list(k), list(p), list(q)], discard=["QC"], stock_top=[extra],
                 dealer=2, state=state)
    assert st.turn == 0
    return act(st, 0, DRAW_STOCK, knock(extra))


def counts(st: State) -> list[int]:
    return st.results[-1].detail["counts"]


# Knocker hands.
K_4 = ["2C", "3C", "4C", "5D", "5H", "5S", "4H"]          # 2C-4C, three 5s, 4H
K_0 = ["AC", "2C", "3C", "4C", "5D", "5H", "5S"]          # A-4 clubs, three 5s
K_6 = ["AC", "2C", "3C", "5D", "5H", "5S", "6D"]          # 6D
K_8 = ["AC", "2C", "3C", "5D", "5H", "5S", "8D"]          # 8D
# P hands: TD JD QD + KC KD KH + one card.
P_9 = ["TD", "JD", "QD", "KC", "KD", "KH", "9H"]
P_0 = ["TD", "JD", "QD", "KC", "KD", "KH", "KS"]
P_6 = ["TD", "JD", "QD", "KC", "KD", "KH", "6H"]
P_3 = ["TD", "JD", "QD", "KC", "KD", "KH", "3H"]
# Q hands.
Q_15 = ["6S", "7S", "8S", "9S", "JH", "4D", "AC"]         # JH 4D AC
Q_12 = ["6S", "7S", "8S", "9S", "JH", "AH", "AD"]         # JH AH AD
Q_10 = ["6S", "7S", "8S", "9S", "TS", "JS", "TH"]         # TH
Q_3 = ["6S", "7S", "8S", "9S", "TS", "JS", "3D"]          # 3D


# --- KNOCK-1 players, pack, ace low ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_knock1_two_to_five_players_one_pack(players: int):
    # KNOCK-1: 2 to 5 players, one 52-card pack, no jokers, ace low.
    rules = match_rules(GAME, {}, players)
    assert rules.pack_size() == (1, 0)
    assert rules.meld.ace is AceModel.LOW


@pytest.mark.parametrize("players", [1, 6])
def test_knock1_other_player_counts_rejected(players: int):
    # KNOCK-1: six players is not Knock Rummy.
    with pytest.raises(InvalidOptions) as info:
        match_rules(GAME, {}, players)
    assert info.value.code == "bad_players"


def test_knock1_ace_low_counts():
    # KNOCK-1 / KNOCK-5: AD 2D 3D is a run (0) but QH KH AH is not (10+10+1 = 21).
    st = stacked(GAME, [["QH", "KH", "AH", "AD", "2D", "3D", "5C", "6C", "7C", "8C"],
                        ["9S", "TS", "8D", "TD", "JC", "9H", "2H", "4S", "6S", "JD"]],
                 discard=["QC"], stock_top=["4H"], dealer=1)
    st = act(st, 0, DRAW_STOCK, knock("4H"))
    # Seat 1 has no meld: 9+10+8+10+10+9+2+4+6+10 = 78; the knocker wins 78 - 21.
    assert counts(st) == [21, 78]
    assert st.results[-1].scores == (57, 0)


# --- KNOCK-2 deal ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6)])
def test_knock2_deal_sizes(players: int, size: int):
    # KNOCK-2 (recovered table): 10 / 7 / 7 / 6 cards and one upcard.
    deal = shuffled_deal(match_rules(GAME, {}, players), 0, random.Random(players))
    assert [len(h) for h in deal.hands] == [size] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 52 - size * players - 1


def test_knock2_wrong_deal_rejected():
    # KNOCK-2: five players get 6 cards, not 7.
    rules = match_rules(GAME, {}, 5)
    pack = standard_pack()
    raw = {"hands": [pack[i * 7:(i + 1) * 7] for i in range(5)], "stock": pack[36:],
           "discard": [pack[35]]}
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, raw)
    assert info.value.code == "bad_deal"


# --- KNOCK-3 play ----------------------------------------------------------------------------


def test_knock3_draw_and_discard_with_gen8():
    # KNOCK-3: K takes QC from the pile; it may not discard QC this turn, but any other card.
    st = stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2)
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 0, discard("QC"), "cannot_discard_taken_card")
    st = act(st, 0, discard("4H"))
    assert st.discard == ["4H"] and st.turn == 1
    st = act(st, 1, DRAW_STOCK)
    assert st.phase is Phase.PLAY


def test_knock3_melds_stay_in_the_hand():
    # KNOCK-3: meld, lay_off and declare are always refused.
    st = act(stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2),
             0, DRAW_STOCK)
    rejected(st, 0, {"type": "meld", "melds": [["2C", "3C", "4C"]]}, "not_in_this_game")
    rejected(st, 0, {"type": "lay_off", "meld": 0, "cards": ["4H"]}, "not_in_this_game")
    rejected(st, 0, {"type": "declare", "melds": [["2C", "3C", "4C"]], "discard": None},
             "not_in_this_game")


# --- KNOCK-4 knocking ------------------------------------------------------------------------


def test_knock4_knock_with_a_discard_ends_the_hand():
    # KNOCK-4: K draws KS and knocks throwing it: the hand ends at once.
    st = knock_hand(K_4, P_9, Q_15)
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["QC", "KS"]
    assert st.results[-1].reason == "knock"
    assert st.results[-1].detail["knocker"] == 0
    rejected(st, 1, DRAW_STOCK, "hand_over")
    rejected(st, 1, knock("9H"), "hand_over")


def test_knock4_knock_refusals():
    # KNOCK-4: not before drawing, not out of turn, not with a card not held, and (GEN-8) not
    # with the card just taken from the discard pile.
    st = stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2)
    rejected(st, 0, knock("4H"), "must_draw_first")
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 1, knock("9H"), "not_your_turn")
    rejected(st, 0, knock("QC"), "cannot_discard_taken_card")
    rejected(st, 0, knock("KS"), "card_not_in_hand")
    st = act(st, 0, knock("4H"))
    assert st.results[-1].detail["counts"] == [10, 9, 15]  # K keeps QC: 10


def test_knock4_the_view_offers_only_the_throws_the_engine_accepts():
    # The view's `throws`: nothing before drawing; then every card but the discard just taken
    # (GEN-8), as a discard or a knock; nothing for a seat not to play.
    st = stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2)
    assert player_view(st, 0)["throws"] == {"discard": [], "knock": []}
    st = act(st, 0, DRAW_DISCARD)
    assert player_view(st, 0)["throws"] == {"discard": K_4, "knock": K_4}
    assert player_view(st, 1)["throws"] == {"discard": [], "knock": []}


def test_knock4_no_deadwood_limit():
    # KNOCK-4: K may knock holding 10+10+10+9+9+8+8 in no meld; P undercuts it.
    st = knock_hand(["KS", "QH", "JC", "9D", "9C", "8D", "8H"], P_9, Q_15, extra="7C")
    assert counts(st) == [64, 9, 15]
    # P wins: (64 - 9) + (15 - 9) + 10 = 71; K pays 10.
    assert st.results[-1].scores == (-10, 71, 0)


# --- KNOCK-5 counts --------------------------------------------------------------------------


def test_knock5_counts_by_best_arrangement():
    # KNOCK-5 / GEN-12: 9H fits 7H 8H 9H or 9H 9C 9D; the set leaves 7+8 (+A+2) = 18, the run
    # would leave 9+9 (+A+2) = 21. Seat 1 holds 10 in TD; J-Q-K runs or sets both give 10.
    st = stacked(GAME, [["7H", "8H", "9H", "9C", "9D", "2C", "3C", "4C", "AS", "2S"],
                        ["KS", "QS", "JS", "KH", "QH", "JH", "KC", "QC", "JC", "TD"]],
                 discard=["5D"], stock_top=["KD"], dealer=1)
    st = act(st, 0, DRAW_STOCK)
    rejected(st, 0, discard("5D"), "card_not_in_hand")
    st = act(st, 0, knock("KD"))
    assert counts(st) == [18, 10]
    deadwood = st.results[-1].detail["arrangements"][0]["deadwood"]
    assert sorted(deadwood) == ["2S", "7H", "8H", "AS"]
    # Seat 1 undercuts: 18 - 10 + 10.
    assert st.results[-1].scores == (-10, 18)


# --- KNOCK-6 winner and KNOCK-7 points: the four examples ----------------------------------


def test_knock7_example_1_knocker_lowest():
    # KNOCK-6 (a), KNOCK-7: K 4, P 9, Q 15 -> K wins 5 + 11 = 16.
    st = knock_hand(K_4, P_9, Q_15)
    assert counts(st) == [4, 9, 15]
    assert st.results[-1].winner == 0
    assert st.results[-1].scores == (16, 0, 0)
    assert st.totals == [16, 0, 0]
    rejected(st, 2, DRAW_STOCK, "hand_over")


def test_knock7_example_2_rum_knocker_beats_rum_opponent():
    # KNOCK-6 (b) exception, KNOCK-7 rum bonus: K 0, P 0, Q 12 -> K wins 0 + 12 + 50 = 62.
    st = knock_hand(K_0, P_0, Q_12, extra="QS")
    assert counts(st) == [0, 0, 12]
    assert st.results[-1].winner == 0
    assert st.results[-1].scores == (62, 0, 0)
    rejected(st, 1, DRAW_STOCK, "hand_over")


def test_knock7_example_3_tie_goes_to_the_other_player():
    # KNOCK-6 (b): K 6, P 6, Q 10 -> P wins 0 + 4 = 4; K pays nothing.
    st = knock_hand(K_6, P_6, Q_10)
    assert counts(st) == [6, 6, 10]
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (0, 4, 0)
    rejected(st, 0, DRAW_STOCK, "hand_over")


def test_knock7_example_4_undercut_knocker_pays_10():
    # KNOCK-6 (c): K 8, P 3, Q 10 -> P wins 5 + 7 + 10 = 22; K's total -10.
    st = knock_hand(K_8, P_3, Q_10)
    assert counts(st) == [8, 3, 10]
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (-10, 22, 0)
    assert st.totals == [-10, 22, 0]
    rejected(st, 1, knock("3H"), "hand_over")


def test_knock7_joint_winners_split_remainder_lost():
    # KNOCK-6 Resolution / KNOCK-7: K 8, P 3, Q 3 -> pot 5 + 10 = 15; 7 each, 1 is lost.
    st = knock_hand(K_8, P_3, Q_3)
    assert counts(st) == [8, 3, 3]
    assert st.results[-1].winner is None
    assert st.results[-1].scores == (-10, 7, 7)
    rejected(st, 2, DRAW_STOCK, "hand_over")


def test_knock7_rum_bonus_to_a_non_knocker():
    # KNOCK-7 Resolution: K 8, P 0, Q 10 -> P wins 8 + 10 + 10 + 50 = 78.
    st = knock_hand(K_8, P_0, Q_10, extra="QS")
    assert counts(st) == [8, 0, 10]
    assert st.results[-1].scores == (-10, 78, 0)


# --- KNOCK-8 stock exhausted -----------------------------------------------------------------


def test_knock8_empty_stock_restocks():
    # KNOCK-8 / GEN-13: the stock is run down; the next stock draw turns the pile over, and with
    # only one card in the pile the stock draw is refused.
    st = stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2)
    stock = list(st.stock)
    while st.stock:
        st = act(st, st.turn, DRAW_STOCK, discard(st.stock[0]))
    assert st.discard == ["QC"] + stock
    seat = st.turn
    st = act(st, seat, DRAW_STOCK)
    assert st.hands[seat][-1] == "QC"
    assert st.discard == [stock[-1]]
    st = act(st, seat, discard("QC"))
    lone = stacked(GAME, [list(K_4), list(P_9), list(Q_15)], discard=["QC"], dealer=2)
    lone.stock.clear()
    rejected(lone, 0, DRAW_STOCK, "stock_empty")


# --- KNOCK-9 game end ------------------------------------------------------------------------


def test_knock9_first_to_100_wins():
    # KNOCK-9: hand 1 K +62 (62, not over). Hand 2 (dealer 0): seat 1 knocks with 12 while
    # seat 0 is rum and seat 2 holds 9: seat 0 wins 12 + 9 + 10 + 50 = 81 -> 143.
    st = knock_hand(K_0, P_0, Q_12, extra="QS")
    assert st.phase is Phase.HAND_OVER and st.totals == [62, 0, 0]
    dealer = next_dealer(st)
    assert dealer == 0
    st = stacked(GAME, [list(K_0), list(Q_12), list(P_9)], discard=["QC"], stock_top=["QS"],
                 dealer=dealer, state=st)
    assert st.turn == 1
    st = act(st, 1, DRAW_STOCK, knock("QS"))
    assert counts(st) == [0, 12, 9]
    assert st.results[-1].scores == (81, -10, 0)
    assert st.totals == [143, -10, 0]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 0
    rejected(st, 2, DRAW_STOCK, "hand_over")
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(st.rules, 1, random.Random(9)), 1)
    assert info.value.code == "game_over"


# --- replay ----------------------------------------------------------------------------------


def test_knock_replay_reproduces_example_4():
    # KNOCK-7 example 4 as a match log: K -10, P +22.
    st = stacked(GAME, [list(K_8), list(P_3), list(Q_10)], discard=["QC"], stock_top=["KS"],
                 dealer=2)
    log: dict[str, Any] = {"game": GAME, "players": 3, "hands": [{
        "dealer": 2,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 0, "action": DRAW_STOCK},
            {"seat": 0, "action": knock("KS")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "knock",
                             "scores": [-10, 22, 0]}]
    assert out["totals"] == [-10, 22, 0] and out["game_over"] is False
