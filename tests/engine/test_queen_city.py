"""Scenario tests for Queen City Rum (RULES.md §4.6, QUEEN-1 .. QUEEN-4) on stacked deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import IllegalAction, InvalidDeal, InvalidOptions
from app.engine.game import start_hand
from app.engine.games import match_rules
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, rejected, stacked

GAME = "queen_city"
def declare(*listings: str, out: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": [m.split() for m in listings], "discard": out}


# Seat 1 (first to play with dealer 0): 5H 6H 7H 8H (26) and 9S 9C 9D (27) = 53.
DECLARER = ["5H", "6H", "7H", "8H", "9S", "9C", "9D"]
MELDS_53 = ("5H 6H 7H 8H", "9S 9C 9D")
OTHERS = [["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
          ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
          ["2S", "3S", "4S", "5S", "6S", "7S", "8S"],
          ["AC", "AD", "AH", "AS", "2H", "3H", "4H"],
          ["TH", "JH", "QH", "KH", "TC", "JC", "QC"]]


def deal(players: int, stock_top: list[str], options: dict[str, Any] | None = None,
         state: State | None = None) -> State:
    """``players`` seats; seat 1 holds DECLARER, the others hold OTHERS in order."""
    hands = [OTHERS[0], DECLARER] + OTHERS[1:players - 1]
    return stacked(GAME, [list(h) for h in hands], discard=["QD"], stock_top=stock_top,
                   options=options, state=state)


# --- QUEEN-1 players and deal ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_queen1_seven_cards_whatever_the_player_count(players: int):
    # QUEEN-1: 7 cards each for 2 to 6 players, one pack, one upcard.
    rules = match_rules(GAME, {}, players)
    assert rules.pack_size() == (1, 0)
    d = shuffled_deal(rules, 0, random.Random(players))
    assert [len(h) for h in d.hands] == [7] * players
    assert len(d.discard) == 1
    assert len(d.stock) == 52 - 7 * players - 1


@pytest.mark.parametrize("players", [1, 7])
def test_queen1_other_player_counts_rejected(players: int):
    # QUEEN-1: 2 to 6 players.
    with pytest.raises(InvalidOptions) as info:
        match_rules(GAME, {}, players)
    assert info.value.code == "bad_players"


def test_queen1_standard_deal_sizes_rejected():
    # QUEEN-1: five players get 7 cards, not Standard's 6; 2 players get 7, not 10.
    pack = standard_pack()
    rules = match_rules(GAME, {}, 5)
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[i * 6:(i + 1) * 6] for i in range(5)],
                                "stock": pack[31:], "discard": [pack[30]]})
    assert info.value.code == "bad_deal"
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(match_rules(GAME, {}, 2), 0, {"hands": [pack[0:10], pack[10:20]],
                                                   "stock": pack[21:], "discard": [pack[20]]})
    assert info.value.code == "bad_deal"


# --- QUEEN-2 declaring -----------------------------------------------------------------------


def test_queen2_declare_seven_and_discard():
    # QUEEN-2: seat 1 draws KC, declares its seven cards and discards KC.
    st = act(deal(2, ["KC"]), 1, DRAW_STOCK, declare(*MELDS_53, out="KC"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["QD", "KC"]
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (0, 53)


def test_queen2_declare_eight_without_discard():
    # QUEEN-2: seat 1 draws 9H and declares all eight cards: 26 + 36 = 62 for one opponent.
    st = act(deal(2, ["9H"]), 1, DRAW_STOCK, declare("5H 6H 7H 8H", "9S 9C 9D 9H"))
    assert st.phase is Phase.HAND_OVER
    assert st.discard == ["QD"]
    assert st.results[-1].scores == (0, 62)


def test_queen2_no_partial_melds():
    # QUEEN-2: meld and lay_off are always refused.
    st = act(deal(2, ["KC"]), 1, DRAW_STOCK)
    rejected(st, 1, {"type": "meld", "melds": [["5H", "6H", "7H"]]}, "not_in_this_game")
    rejected(st, 1, {"type": "lay_off", "meld": 0, "cards": ["8H"]}, "not_in_this_game")
    rejected(st, 1, {"type": "knock", "discard": "KC"}, "not_in_this_game")


def test_queen2_declaration_refusals():
    # QUEEN-2: not before drawing; the whole hand (less one discard); valid melds only; and
    # (GEN-8) not discarding the card just taken from the pile.
    st = deal(2, ["KC"])
    rejected(st, 1, declare(*MELDS_53), "must_draw_first")
    drawn = act(st, 1, DRAW_STOCK)
    rejected(drawn, 1, declare(*MELDS_53), "declare_incomplete")
    rejected(drawn, 1, declare("5H 6H 7H 8H", out="KC"), "declare_incomplete")
    rejected(drawn, 1, declare("5H 6H 7H", "8H 9S 9C 9D", out="KC"), "invalid_meld")
    taken = act(st, 1, DRAW_DISCARD)
    rejected(taken, 1, declare(*MELDS_53, out="QD"), "cannot_discard_taken_card")


# --- QUEEN-3 scoring -------------------------------------------------------------------------


def test_queen3_melds_times_other_players():
    # QUEEN-3: five players: 53 x 4 = 212; the discarded KC does not count; nobody else moves.
    st = act(deal(5, ["KC"]), 1, DRAW_STOCK, declare(*MELDS_53, out="KC"))
    assert st.results[-1].scores == (0, 212, 0, 0, 0)
    assert st.totals == [0, 212, 0, 0, 0]
    rejected(st, 2, DRAW_STOCK, "hand_over")
    rejected(st, 2, declare("2D 3D 4D", "5D 6D 7D 8D"), "hand_over")


@pytest.mark.parametrize(("players", "score"), [(2, 53), (3, 106), (4, 159), (6, 265)])
def test_queen3_multiplier_per_player_count(players: int, score: int):
    # QUEEN-3: the same 53 for 1, 2, 3 and 5 other players.
    st = act(deal(players, ["KC"]), 1, DRAW_STOCK, declare(*MELDS_53, out="KC"))
    assert st.results[-1].scores[1] == score
    assert sum(st.results[-1].scores) == score


# --- QUEEN-4 game end ------------------------------------------------------------------------


def test_queen4_target_100():
    # QUEEN-4: 212 passes the default target of 100: the game is over.
    assert match_rules(GAME, {}, 5).target == 100
    st = act(deal(5, ["KC"]), 1, DRAW_STOCK, declare(*MELDS_53, out="KC"))
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1
    with pytest.raises(IllegalAction) as info:
        start_hand(st, shuffled_deal(st.rules, 1, random.Random(4)), 1)
    assert info.value.code == "game_over"


def test_queen4_host_raises_the_target():
    # QUEEN-4: with target_score 300, 212 leaves the game running; a second 212 ends it.
    st = act(deal(5, ["KC"], options={"target_score": 300}), 1, DRAW_STOCK,
             declare(*MELDS_53, out="KC"))
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    st = act(deal(5, ["KC"], state=st), 1, DRAW_STOCK, declare(*MELDS_53, out="KC"))
    assert st.totals == [0, 424, 0, 0, 0]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


# --- replay ----------------------------------------------------------------------------------


def test_queen_replay_reproduces_the_hand():
    # The QUEEN-3 example as a match log: 212 for seat 1 and the game is over.
    st = deal(5, ["KC"])
    log = {"game": GAME, "players": 5, "hands": [{
        "dealer": 0,
        "deal": {"hands": st.hands, "stock": st.stock, "discard": st.discard},
        "actions": [
            {"seat": 1, "action": DRAW_STOCK},
            {"seat": 1, "action": declare(*MELDS_53, out="KC")},
        ]}]}
    out = run_replay(log)
    assert out["ok"] is True
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "went_out",
                             "scores": [0, 212, 0, 0, 0]}]
    assert out["totals"] == [0, 212, 0, 0, 0]
    assert out["game_over"] is True and out["game_winner"] == 1
