"""Scenario tests for Boat House Rummy (RULES.md §4.1, BOAT-1 .. BOAT-7) on stacked deals."""

from __future__ import annotations

import random
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
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked

GAME = "boat_house"
def declare(*listings: str, out: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": [m.split() for m in listings], "discard": out}


# Two players. Seat 0 holds nothing useful; seat 1 (first to play) holds three ready melds.
FILLER = ["2D", "4D", "6D", "8H", "TH", "QH", "3S", "5S", "7C", "9C"]
READY = ["2C", "3C", "4C", "5C", "7D", "8D", "9D", "TS", "JS", "QS"]
READY_MELDS = ("2C 3C 4C 5C", "7D 8D 9D", "TS JS QS")


def two_discards() -> State:
    """Seat 1 draws KH from the stock and discards it at once (BOAT-3: a stock card may be
    discarded); seat 0 is then to draw with KH on the upcard AH."""
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH", "KD"])
    st = act(st, 1, DRAW_STOCK, discard("KH"))
    assert st.discard == ["AH", "KH"] and st.turn == 0
    return st


# --- BOAT-1 players, pack, deal --------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_boat1_deal_as_standard(players: int, size: int):
    # BOAT-1: one 52-card pack without jokers, dealt 10 / 7 / 6 with one upcard.
    rules = match_rules(GAME, {}, players)
    assert rules.pack_size() == (1, 0)
    deal = shuffled_deal(rules, 0, random.Random(players))
    assert [len(h) for h in deal.hands] == [size] * players
    assert len(deal.discard) == 1
    assert len(deal.stock) == 52 - size * players - 1


@pytest.mark.parametrize("players", [1, 7])
def test_boat1_other_player_counts_rejected(players: int):
    # BOAT-1: 2 to 6 players only.
    with pytest.raises(InvalidOptions) as info:
        match_rules(GAME, {}, players)
    assert info.value.code == "bad_players"


def test_boat1_stacked_deal_must_follow_std2():
    # BOAT-1: three players get 7 cards each; a 10-card deal is refused.
    rules = match_rules(GAME, {}, 3)
    pack = standard_pack()
    raw = {"hands": [pack[0:10], pack[10:20], pack[20:30]], "stock": pack[31:],
           "discard": [pack[30]]}
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, raw)
    assert info.value.code == "bad_deal"


# --- BOAT-2 draw -----------------------------------------------------------------------------


def test_boat2_stock_draw_is_one_card():
    # BOAT-2: a stock draw takes one card and the turn goes on to play; no second draw.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK)
    assert st.phase is Phase.PLAY
    assert len(st.hands[1]) == 11
    rejected(st, 1, DRAW_STOCK, "already_drew")
    rejected(st, 1, DRAW_DISCARD, "already_drew")


def test_boat2_discard_top_then_next_discard():
    # BOAT-2: seat 0 takes KH then AH from the discard pile; its hand grows to 12, then 11.
    st = two_discards()
    st = act(st, 0, DRAW_DISCARD)
    assert st.phase is Phase.DRAW_SECOND
    assert st.hands[0][-1] == "KH" and st.discard == ["AH"]
    st = act(st, 0, DRAW_DISCARD)
    assert st.phase is Phase.PLAY
    assert st.hands[0][-2:] == ["KH", "AH"] and st.discard == []
    assert len(st.hands[0]) == 12
    rejected(st, 0, DRAW_STOCK, "already_drew")
    st = act(st, 0, discard("2D"))
    assert len(st.hands[0]) == 11
    assert st.discard == ["2D"] and st.turn == 1


def test_boat2_discard_top_then_stock_top():
    # BOAT-2: the second card may come from the stock instead (KD).
    st = two_discards()
    st = act(st, 0, DRAW_DISCARD, DRAW_STOCK)
    assert st.hands[0][-2:] == ["KH", "KD"]
    assert st.discard == ["AH"]
    assert st.phase is Phase.PLAY


def test_boat2_nothing_else_between_the_two_draws():
    # BOAT-2: after the first discard card, only the second draw is accepted.
    st = act(two_discards(), 0, DRAW_DISCARD)
    rejected(st, 0, discard("2D"), "must_draw_first")
    rejected(st, 0, declare("2D 4D 6D"), "must_draw_first")
    rejected(st, 0, {"type": "meld", "melds": [["2D", "4D", "6D"]]}, "not_in_this_game")
    rejected(st, 0, {"type": "knock", "discard": "2D"}, "not_in_this_game")
    rejected(st, 1, DRAW_STOCK, "not_your_turn")
    rejected(st, 1, discard("2C"), "not_your_turn")


def test_boat2_empty_discard_pile_second_card_from_stock():
    # BOAT-2 Resolution: seat 1 takes the only discard (AH); the second card must be the stock.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH"])
    st = act(st, 1, DRAW_DISCARD)
    assert st.phase is Phase.DRAW_SECOND and st.discard == []
    rejected(st, 1, DRAW_DISCARD, "discard_empty")
    rejected(st, 1, discard("2C"), "must_draw_first")
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-2:] == ["AH", "KH"]
    assert st.phase is Phase.PLAY


# --- BOAT-3 taken cards ----------------------------------------------------------------------


def test_boat3_neither_discard_card_may_be_discarded():
    # BOAT-3: both KH and AH came from the pile: neither can be discarded this turn.
    st = act(two_discards(), 0, DRAW_DISCARD, DRAW_DISCARD)
    rejected(st, 0, discard("KH"), "cannot_discard_taken_card")
    rejected(st, 0, discard("AH"), "cannot_discard_taken_card")
    st = act(st, 0, discard("QH"))
    assert st.discard == ["QH"]


def test_boat3_stock_card_of_a_double_draw_may_be_discarded():
    # BOAT-3: KH (discard) may not go back, KD (stock, second card) may.
    st = act(two_discards(), 0, DRAW_DISCARD, DRAW_STOCK)
    rejected(st, 0, discard("KH"), "cannot_discard_taken_card")
    st = act(st, 0, discard("KD"))
    assert st.discard == ["AH", "KD"]
    assert "KH" in st.hands[0]


def test_boat3_declaration_cannot_discard_a_taken_card():
    # BOAT-3 with BOAT-5: seat 1 takes the upcard AS (then KS from the stock); declaring with AS
    # as the discard is refused, declaring it inside TS JS QS KS AS is accepted.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AS"], stock_top=["KS"])
    st = act(st, 1, DRAW_DISCARD, DRAW_STOCK)
    rejected(st, 1, declare("2C 3C 4C 5C", "7D 8D 9D", "TS JS QS KS", out="AS"),
             "cannot_discard_taken_card")
    st = act(st, 1, declare("2C 3C 4C 5C", "7D 8D 9D", "TS JS QS KS AS"))
    assert st.phase is Phase.HAND_OVER
    assert st.results[-1].scores == (0, 64)


# --- BOAT-4 around the corner ----------------------------------------------------------------

CORNER = ["QH", "KH", "AH", "2H", "KC", "AC", "2C", "3C", "9S", "9D"]
# Seat 0: KS AS 2S (around the corner), 5D 6D 7D, JC JD JS, and 4H: deadwood 4.
CORNER_LOSER = ["KS", "AS", "2S", "5D", "6D", "7D", "JC", "JD", "JS", "4H"]


def test_boat4_runs_around_the_corner():
    # BOAT-4: Q-K-A-2 and K-A-2-3 are runs; the loser's K-A-2 also counts as matched.
    assert match_rules(GAME, {}, 2).meld.ace is AceModel.WRAP
    st = stacked(GAME, [list(CORNER_LOSER), list(CORNER)], discard=["8C"], stock_top=["9C"])
    st = act(st, 1, DRAW_STOCK, declare("QH KH AH 2H", "KC AC 2C 3C", "9S 9D 9C"))
    assert st.phase is Phase.HAND_OVER
    assert [" ".join(m.codes) for m in st.melds] == ["QH KH AH 2H", "KC AC 2C 3C", "9S 9D 9C"]
    assert st.results[-1].scores == (0, 4)  # seat 1 scores the 4H only


def test_boat4_run_must_follow_cyclic_order():
    # BOAT-4: a run is listed as consecutive cyclic ranks; gaps and broken order are refused.
    st = stacked(GAME, [list(CORNER_LOSER), list(CORNER)], discard=["8C"], stock_top=["9C"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare("AH 2H QH KH", "KC AC 2C 3C", "9S 9D 9C"), "invalid_meld")
    rejected(st, 1, declare("QH KH AH 2H", "2C 3C KC AC", "9S 9D 9C"), "invalid_meld")
    rejected(st, 1, declare("QH KH AH", "2H KC AC 2C 3C", "9S 9D 9C"), "invalid_meld")


# --- BOAT-5 declaring ------------------------------------------------------------------------


def test_boat5_declare_all_but_one_with_discard():
    # BOAT-5: seat 1 draws KH, declares its ten cards and discards KH: the hand ends.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK, declare(*READY_MELDS, out="KH"))
    assert st.phase is Phase.HAND_OVER
    assert st.hands[1] == [] and st.discard == ["AH", "KH"]
    assert st.results[-1].winner == 1
    # Seat 0: 2D 4D 6D 8H TH QH 3S 5S 7C 9C, nothing melds: 2+4+6+8+10+10+3+5+7+9 = 64.
    assert st.results[-1].scores == (0, 64)


def test_boat5_declare_whole_hand_without_discard():
    # BOAT-5: seat 1 draws KS and declares all eleven cards, TS..KS as a four-card run.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KS"])
    st = act(st, 1, DRAW_STOCK, declare("2C 3C 4C 5C", "7D 8D 9D", "TS JS QS KS"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["AH"]
    assert st.results[-1].scores == (0, 64)


def test_boat5_no_melds_or_layoffs_during_the_hand():
    # BOAT-5: meld and lay_off are never accepted in Boat House.
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, {"type": "meld", "melds": [["2C", "3C", "4C"]]}, "not_in_this_game")
    rejected(st, 1, {"type": "lay_off", "meld": 0, "cards": ["5C"]}, "not_in_this_game")
    rejected(st, 1, {"type": "swap_joker", "meld": 0, "card": "5C"}, "not_in_this_game")


def test_boat5_declaration_refusals():
    # BOAT-5: only after drawing, and only with the whole hand (less one discard).
    st = stacked(GAME, [list(FILLER), list(READY)], discard=["AH"], stock_top=["KH"])
    rejected(st, 1, declare(*READY_MELDS), "must_draw_first")
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(*READY_MELDS), "declare_incomplete")  # KH left over
    rejected(st, 1, declare("2C 3C 4C 5C", "7D 8D 9D", out="KH"), "declare_incomplete")
    rejected(st, 1, declare(*READY_MELDS, out="KD"), "card_not_in_hand")
    rejected(st, 1, declare("2C 3C 4C", "5C 7D 8D 9D", "TS JS QS", out="KH"), "invalid_meld")


# --- BOAT-6 scoring --------------------------------------------------------------------------

# Three players (7 cards). Seat 1 declares at once. Seat 2: the 9H is wanted by 7H 8H 9H and by
# 9H 9C 9S; the set leaves 7H 8H AS QS = 36 (the run would leave 39). Seat 0: KD is wanted by
# KD AD 2D (around the corner) and by KD KC KS; the set leaves AD 2D 6S AH = 30 (not 37).
BOAT6_HANDS = [["KD", "AD", "2D", "KC", "KS", "6S", "AH"],
               ["2C", "3C", "4C", "5C", "7D", "8D", "9D"],
               ["9H", "9C", "9S", "7H", "8H", "AS", "QS"]]


def test_boat6_winner_scores_best_arrangement_deadwood():
    # BOAT-6 / GEN-12: 30 + 36 = 66, aces 11; melded cards of the losers do not count.
    st = stacked(GAME, [list(h) for h in BOAT6_HANDS], discard=["JC"], stock_top=["TD"])
    st = act(st, 1, DRAW_STOCK, declare("2C 3C 4C 5C", "7D 8D 9D TD"))
    result = st.results[-1]
    assert result.winner == 1
    assert result.scores == (0, 66, 0)
    assert st.totals == [0, 66, 0]
    assert sorted(result.detail["arrangements"][0]["deadwood"]) == ["2D", "6S", "AD", "AH"]
    assert sorted(result.detail["arrangements"][2]["deadwood"]) == ["7H", "8H", "AS", "QS"]
    # GEN-11: nothing more happens in this hand.
    rejected(st, 2, DRAW_STOCK, "hand_over")
    rejected(st, 0, declare("KD KC KS", out="6S"), "hand_over")


def test_boat6_card_count_scoring_counts_unmatched_cards():
    # BOAT-6 with OPT-VALUES: every unmatched card counts 1: four for each loser.
    st = stacked(GAME, [list(h) for h in BOAT6_HANDS], discard=["JC"], stock_top=["TD"],
                 options={"card_count_scoring": True})
    st = act(st, 1, DRAW_STOCK, declare("2C 3C 4C 5C", "7D 8D 9D TD"))
    assert st.results[-1].scores == (0, 8, 0)
    rejected(st, 0, DRAW_STOCK, "hand_over")


# --- BOAT-7 game end -------------------------------------------------------------------------

# Seat 0: no set and no run (even around the corner): two aces 22 + eight court cards 80.
HIGH_LOSER = ["KS", "KH", "QD", "QC", "JS", "JH", "TD", "TC", "AS", "AH"]
FAST = ["2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "8S", "9S"]


def fast_win(state: State | None = None, options: dict[str, Any] | None = None) -> State:
    st = stacked(GAME, [list(HIGH_LOSER), list(FAST)], discard=["2H"], stock_top=["TS"],
                 options=options, state=state)
    return act(st, 1, DRAW_STOCK, declare("2C 3C 4C 5C", "6D 7D 8D 9D", "8S 9S TS"))


def test_boat7_game_ends_at_100():
    # BOAT-7: 102 points in one hand reach the default target of 100.
    assert match_rules(GAME, {}, 2).target == 100
    st = fast_win()
    assert st.results[-1].scores == (0, 102)
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 1
    rejected(st, 0, DRAW_STOCK, "hand_over")
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(st.rules, 1, random.Random(7)), 1)
    assert info.value.code == "game_over"


def test_boat7_below_target_the_game_goes_on():
    # BOAT-7: with target_score 200 the same 102 leaves the game running.
    st = fast_win(options={"target_score": 200})
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    st = fast_win(state=st)
    assert st.totals == [0, 204]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


# --- replay ----------------------------------------------------------------------------------


def test_boat_replay_reproduces_the_hand():
    # The BOAT-6 hand as a match log: the replay gives the same 66.
    st = stacked(GAME, [list(h) for h in BOAT6_HANDS], discard=["JC"], stock_top=["TD"])
    log = {"game": GAME, "players": 3, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": declare("2C 3C 4C 5C", "7D 8D 9D TD")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [0, 66, 0]}]
    assert out["totals"] == [0, 66, 0]
    assert out["game_over"] is False
