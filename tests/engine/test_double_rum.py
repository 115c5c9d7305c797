"""Scenario tests for Double Rum (RULES.md §4.3, DOUBLE-1 .. DOUBLE-8) on stacked deals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine.actions import CallRummy, parse_action
from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.moves import legal_actions
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import DRAW_STOCK, act, discard, lay_off, melds, rejected, shown, stacked

GAME = "double_rum"
FILLER = ["2D", "4D", "6D", "8H", "TH", "QH", "3S", "5S", "7C", "JC"]


# --- DOUBLE-1 players and pack ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_double1_two_packs_four_jokers(players: int):
    # DOUBLE-1: 108 cards, for 2 to 4 players.
    rules = match_rules(GAME, {}, players)
    assert rules.pack_size() == (2, 4)
    deal = shuffled_deal(rules, 0, random.Random(players))
    cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert Counter(cards) == Counter(standard_pack(2, 4))


@pytest.mark.parametrize("players", [1, 5])
def test_double1_other_player_counts_rejected(players: int):
    # DOUBLE-1 Resolution: 2 to 4 players.
    with pytest.raises(InvalidOptions) as info:
        match_rules(GAME, {}, players)
    assert info.value.code == "bad_players"


# --- DOUBLE-2 deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_double2_ten_cards_each(players: int):
    # DOUBLE-2: 10 cards each and an upcard, whatever the number of players.
    deal = shuffled_deal(match_rules(GAME, {}, players), 0, random.Random(20 + players))
    assert [len(h) for h in deal.hands] == [10] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 108 - 10 * players - 1


def test_double2_seven_card_deal_rejected():
    # DOUBLE-2: three players get 10 cards, not 7 as in Standard Rummy.
    rules = match_rules(GAME, {}, 3)
    pack = standard_pack(2, 4)
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:7], pack[7:14], pack[14:21]],
                                "stock": pack[22:], "discard": [pack[21]]})
    assert info.value.code == "bad_deal"


# --- DOUBLE-3 ace ----------------------------------------------------------------------------


def test_double3_ace_high_or_low_but_not_around_the_corner():
    # DOUBLE-3: AH 2H 3H and QS KS AS are runs; KD AD 2D is refused.
    assert match_rules(GAME, {}, 2).meld.ace is AceModel.HIGH_OR_LOW
    hand = ["AH", "2H", "3H", "QS", "KS", "AS", "KD", "AD", "2D", "9C"]
    st = stacked(GAME, [list(FILLER), hand], discard=["5C"], stock_top=["7C"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("KD AD 2D"), "invalid_meld")
    rejected(st, 1, melds("AS QS KS"), "invalid_meld")
    st = act(st, 1, melds("AH 2H 3H", "QS KS AS"))
    assert [m.kind for m in st.melds] == ["run", "run"]


# --- DOUBLE-4 sets ---------------------------------------------------------------------------

SETS = ["7H", "7H", "7S", "7S", "7D", "9C", "9C", "9D", "4D", "KS"]


def test_double4_sets_with_identical_cards_and_more_than_four():
    # DOUBLE-4: 7H 7H 7S 7S 7D (five cards, two pairs of identical cards) and 9C 9C 9D are
    # sets; seat 0 lays off a sixth seven and 9H 9S on them.
    st = stacked(GAME, [["7C", "9H", "9S", "2C", "4C", "6C", "8D", "TD", "QD", "KH"], SETS],
                 discard=["5C"], stock_top=["QC", "JC"])
    st = act(st, 1, DRAW_STOCK, melds("7H 7H 7S 7S 7D", "9C 9C 9D"), discard("QC"))
    assert [len(m.cards) for m in st.melds] == [5, 3]
    st = act(st, 0, DRAW_STOCK, lay_off(0, "7C"), lay_off(1, "9H 9S"))
    assert sorted(st.melds[0].codes) == ["7C", "7D", "7H", "7H", "7S", "7S"]
    assert sorted(st.melds[1].codes) == ["9C", "9C", "9D", "9H", "9S"]


def test_double4_set_refusals():
    # DOUBLE-4: two cards are not a set; mixed ranks are neither a set nor a run.
    st = stacked(GAME, [list(FILLER), SETS], discard=["5C"], stock_top=["QC"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("7H 7H"), "invalid_meld")
    rejected(st, 1, melds("7H 7S 9C"), "invalid_meld")
    rejected(st, 1, melds("7H 7H 4D"), "invalid_meld")


# --- DOUBLE-5 jokers -------------------------------------------------------------------------

WILD = ["JK", "JK", "JK", "5C", "7C", "9D", "9S", "QD", "KD", "3H"]


def test_double5_jokers_in_any_meld():
    # DOUBLE-5: 5C JK 7C (the 6C), 9D 9S JK (inferred 9C) and QD KD JK (the high AD).
    st = stacked(GAME, [list(FILLER), WILD], discard=["5D"], stock_top=["8S"])
    st = act(st, 1, DRAW_STOCK, melds("5C JK 7C", "9D 9S JK", "QD KD JK"))
    assert shown(st, 0) == "5C JK:6C 7C"
    assert shown(st, 1) == "9D 9S JK:9C"
    assert shown(st, 2) == "QD KD JK:AD"


def test_double5_at_least_one_natural_and_no_exchange():
    # DOUBLE-5 / GEN-4: JK JK JK is refused; there is no joker exchange in Double Rum.
    st = stacked(GAME, [list(FILLER), WILD], discard=["5D"], stock_top=["8S"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, melds("JK JK JK"), "invalid_meld")
    st = act(st, 1, melds("5C JK 7C"))
    rejected(st, 1, {"type": "swap_joker", "meld": 0, "card": "6C"}, "not_in_this_game")


# --- DOUBLE-6 moving an end joker -----------------------------------------------------------

# Seat 1 lays JK 5C 6C (joker = 4C) and JK QS KS AS (joker = JS). Seat 0 lays AH 2H JK
# (joker = 3H) and 5D JK 7D (joker = 6D, inside), then tries the cards the jokers stand for.
MOVER_1 = ["JK", "5C", "6C", "JK", "QS", "KS", "AS", "9D", "TH", "2S"]
MOVER_0 = ["AH", "2H", "JK", "5D", "JK", "7D", "4C", "7C", "JS", "3H"]


def jokers_laid() -> State:
    st = stacked(GAME, [list(MOVER_0), list(MOVER_1)], discard=["KC"], stock_top=["8H", "6D"])
    st = act(st, 1, DRAW_STOCK, melds("JK 5C 6C", "JK QS KS AS"), discard("8H"))
    st = act(st, 0, DRAW_STOCK, melds("AH 2H JK", "5D JK 7D"))
    assert [shown(st, i) for i in range(4)] == [
        "JK:4C 5C 6C", "JK:JS QS KS AS", "AH 2H JK:3H", "5D JK:6D 7D"]
    return st


def test_double6_end_joker_moves_to_the_other_end():
    # DOUBLE-6: 4C takes the joker's place, the joker becomes the 7C; then 7C sends it back
    # below as the 3C (no limit on moves).
    st = act(jokers_laid(), 0, lay_off(0, "4C"))
    assert shown(st, 0) == "4C 5C 6C JK:7C"
    assert st.melds[0].owner == 1
    st = act(st, 0, lay_off(0, "7C"))
    assert shown(st, 0) == "JK:3C 4C 5C 6C 7C"


def test_double6_joker_cannot_move_past_the_ace():
    # DOUBLE-6: JS for JK QS KS AS would push the joker above the ace; 3H for AH 2H JK below it.
    st = jokers_laid()
    rejected(st, 0, lay_off(1, "JS"), "invalid_meld")
    rejected(st, 0, lay_off(2, "3H"), "invalid_meld")


def test_double6_inside_joker_never_moves():
    # DOUBLE-6: 6D cannot replace the joker inside 5D JK 7D.
    st = jokers_laid()
    rejected(st, 0, lay_off(3, "6D"), "invalid_meld")


# --- DOUBLE-6 with Call Rummy (OPT-CALL-1..3, PROTOCOL.md §3) ---------------------------------

CALLS = {"call_rummy": True}


def call(meld_no: int, discard_card: str, card: str | None = None) -> dict[str, object]:
    action: dict[str, object] = {"type": "call_rummy", "meld": meld_no, "discard": discard_card}
    if card is not None:
        action["card"] = card
    return action


def test_double6_card_that_moves_an_end_joker_opens_a_call_window():
    # Seat 0 discards 4C, which fits meld 0 (JK:4C 5C 6C) only by moving its joker to 7C
    # (DOUBLE-6): a window opens (OPT-CALL-1) and seat 1's call lays it off that way.
    st = stacked(GAME, [list(MOVER_0), list(MOVER_1)], options=CALLS, discard=["KC"],
                 stock_top=["8H", "6D", "QC"])
    st = act(st, 1, DRAW_STOCK, melds("JK 5C 6C", "JK QS KS AS"), discard("8H"))
    st = act(st, 0, DRAW_STOCK, melds("AH 2H JK", "5D JK 7D"), discard("4C"))
    assert st.phase is Phase.CALL and st.call is not None and st.call.card == "4C"
    rejected(st, 0, call(0, "7C"), "cannot_call_own_discard")
    rejected(st, 1, call(3, "9D"), "invalid_meld")  # the joker inside 5D JK 7D never moves
    rejected(st, 1, call(1, "9D"), "invalid_meld")
    st = act(st, 1, call(0, "9D"), DRAW_STOCK)
    assert shown(st, 0) == "4C 5C 6C JK:7C"
    assert st.discard == ["KC", "8H", "9D"]
    assert Counter(st.hands[1]) == Counter(["TH", "2S", "QC"])  # 9D went, the stock's QC came


JOKER_0 = ["JK", "3D", "7H", "9S", "KD", "4S", "6H", "8D", "TC", "QS"]
JOKER_1 = ["JK", "5C", "6C", "9D", "TH", "2S", "3S", "KH", "QD", "8C"]


def joker_window() -> State:
    """Seat 1 lays JK 5C 6C (JK:4C) and discards 4H; seat 0 draws and discards a joker."""
    st = stacked(GAME, [list(JOKER_0), list(JOKER_1)], options=CALLS, discard=["KC"],
                 stock_top=["4H", "AD"])
    st = act(st, 1, DRAW_STOCK, melds("JK 5C 6C"), discard("4H"))
    assert st.phase is Phase.DRAW  # 4H fits nothing: no window
    st = act(st, 0, DRAW_STOCK, discard("JK"))
    assert st.phase is Phase.CALL and st.call is not None and st.call.card == "JK"
    return st


def test_opt_call_3_call_on_a_discarded_joker_names_its_designation():
    # PROTOCOL.md §3: the call's optional card says what the joker stands for (GEN-4).
    st = joker_window()
    rejected(st, 1, call(0, "9D"), "designation_required")  # 3C or 7C?
    offered = {a.card for a in legal_actions(st, 1) if isinstance(a, CallRummy)}
    assert offered == {("JK", "3C"), ("JK", "7C")}
    rejected(st, 1, call(0, "9D", "JK:9C"), "invalid_meld")
    rejected(st, 1, call(0, "9D", "7C"), "card_not_available")
    rejected(st, 1, call(0, "9D", "JK:JK"), "bad_card")
    st = act(st, 1, call(0, "9D", "jk:7c"), DRAW_STOCK)
    assert shown(st, 0) == "JK:4C 5C 6C JK:7C"
    assert st.discard == ["KC", "4H", "9D"]
    assert "9D" not in st.hands[1] and len(st.hands[1]) == 7


def test_opt_call_3_designated_call_round_trips_through_a_match_log():
    st = joker_window()
    action = call(0, "9D", "JK:3C")
    assert parse_action(action).to_json() == action
    assert parse_action(call(0, "9D")).to_json() == call(0, "9D")
    st = act(st, 1, action, DRAW_STOCK)
    assert shown(st, 0) == "JK:3C JK:4C 5C 6C"


# --- DOUBLE-7 scoring ------------------------------------------------------------------------

OUT = ["2C", "3C", "4C", "5C", "6D", "7D", "8D", "9S", "9H", "9D"]
OUT_MELDS = ("2C 3C 4C 5C", "6D 7D 8D", "9S 9H 9D")
# JK 15 + AS 11 + KD QH JC 30 + 5H + 2D 3D 4D (a run, but in the hand) 9 + TS 10 = 80.
LOSER_80 = ["JK", "AS", "KD", "QH", "JC", "5H", "2D", "3D", "4D", "TS"]


def go_out(loser: list[str], dealer: int = 0, state: State | None = None) -> State:
    """The dealer's left draws KH, melds ten cards and discards KH."""
    winner = (dealer + 1) % 2
    hands = [list(loser), list(loser)]
    hands[winner] = list(OUT)
    st = stacked(GAME, hands, discard=["QC"], stock_top=["KH"], dealer=dealer, state=state)
    return act(st, winner, DRAW_STOCK, melds(*OUT_MELDS), discard("KH"))


def test_double7_winner_scores_opponents_hands():
    # DOUBLE-7: J/Q/K 10, ace 11, joker 15, pip: 80.
    st = go_out(LOSER_80)
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (0, 80)
    rejected(st, 0, DRAW_STOCK, "hand_over")
    rejected(st, 0, melds("2D 3D 4D"), "hand_over")


def test_double7_three_players_both_hands_count():
    # DOUBLE-7: seat 1 goes out; seats 0 and 2 pay with everything they hold (80 + 26).
    st = stacked(GAME, [list(LOSER_80), list(OUT), ["2H", "3H", "4H", "5S", "6S", "AC", "AD",
                                                     "AH", "2S", "3S"]],
                 discard=["QC"], stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, discard("QC"), "card_not_in_hand")
    st = act(st, 1, melds(*OUT_MELDS), discard("KH"))
    # Seat 2: 2+3+4+5+6 + 11*3 + 2+3 = 58.
    assert st.results[-1].scores == (0, 138, 0)


# --- DOUBLE-8 game end -----------------------------------------------------------------------


def test_double8_game_to_100():
    # DOUBLE-8: 80 for seat 1, 80 for seat 0 (dealer 1), 80 for seat 1: 160 ends the game.
    assert match_rules(GAME, {}, 2).target == 100
    st = go_out(LOSER_80)
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    st = go_out(LOSER_80, dealer=next_dealer(st), state=st)
    assert st.results[-1].scores == (80, 0)
    assert st.totals == [80, 80]
    assert st.phase is Phase.HAND_OVER
    st = go_out(LOSER_80, dealer=next_dealer(st), state=st)
    assert st.totals == [80, 160]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(st.rules, 1, random.Random(2)), 1)
    assert info.value.code == "game_over"


# --- replay ----------------------------------------------------------------------------------


def test_double_replay_reproduces_the_hand():
    # The DOUBLE-7 hand as a match log: 80 for seat 1.
    st = stacked(GAME, [list(LOSER_80), list(OUT)], discard=["QC"], stock_top=["KH"])
    log = {"game": GAME, "players": 2, "hands": [{
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": melds(*OUT_MELDS)},
            {"seat": 1, "action": discard("KH")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [0, 80]}]
    assert out["totals"] == [0, 80] and out["game_over"] is False
