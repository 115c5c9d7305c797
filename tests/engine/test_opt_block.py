"""OPT-BLOCK (Block Rummy, RULES.md §3.12) on Standard Rummy.

The first scenarios use a real stacked 6-player deal (6 cards each, upcard 9C, 15 stock cards):
every player draws from the stock and discards the drawn card until the stock is empty; seat 4 is
then to play. The tie examples of OPT-BLOCK-4 use `Deal` + `start_hand` with an empty stock.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.errors import InvalidOptions
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked

HANDS6 = [
    ["AC", "AD", "AH", "AS", "2C", "2D"],     # seat 0: 8
    ["2H", "2S", "3C", "3D", "3H", "3S"],     # seat 1: 16
    ["4C", "4D", "4H", "4S", "5C", "5D"],     # seat 2: 26
    ["KC", "KD", "KH", "KS", "QC", "QD"],     # seat 3: 60
    ["5H", "5S", "6C", "6D", "6H", "6S"],     # seat 4: 34
    ["7C", "7D", "7H", "7S", "8C", "8D"],     # seat 5: 44
]
COUNTS6 = [8, 16, 26, 60, 34, 44]
BLOCK = {"block_rummy": True}
def run_stock_out(options: dict[str, Any]) -> State:
    """Everyone draws from the stock and discards the drawn card until the stock is empty."""
    st = stacked("standard", HANDS6, options=options, discard=["9C"])
    assert len(st.stock) == 15
    while st.stock:
        seat = st.turn
        assert seat is not None
        st = act(st, seat, DRAW_STOCK)
        st = act(st, seat, discard(st.hands[seat][-1]))
    assert st.turn == 4 and len(st.discard) == 16 and st.results == []
    return st


def test_opt_block_1_2_drawing_from_the_empty_stock_ends_the_hand() -> None:
    """OPT-BLOCK-1/2/3/4: no restock; seat 4 declines the discard, the lowest count wins."""
    st = run_stock_out(BLOCK)
    discards = list(st.discard)
    st = act(st, 4, DRAW_STOCK)
    result = st.results[-1]
    # Seat 0 has the lowest count, 8: 8 + 18 + 52 + 26 + 36 = 140.
    assert (result.winner, result.reason) == (0, "blocked")
    assert result.scores == (140, 0, 0, 0, 0, 0)
    assert result.detail["counts"] == COUNTS6
    # OPT-BLOCK-3: all hands are revealed, unchanged: the declining player drew nothing.
    assert [list(h) for h in result.revealed] == HANDS6
    assert st.stock == [] and st.discard == discards
    assert st.totals == [140, 0, 0, 0, 0, 0]
    assert st.game_over and st.game_winner == 0       # 140 >= 100 (STD-14)


def test_opt_block_1_contrast_gen_13_restocks_without_the_option() -> None:
    """GEN-13 contrast: without block_rummy the discards (but the top) become the stock."""
    st = run_stock_out({})
    top = st.discard[-1]
    oldest = st.discard[0]
    st = act(st, 4, DRAW_STOCK)
    assert st.results == [] and st.discard == [top]
    assert st.hands[4][-1] == oldest == "9C" and len(st.stock) == 14


def test_opt_block_2_after_the_block_nobody_can_act() -> None:
    """OPT-BLOCK-2 / GEN-11: the declining player does nothing else; the hand is over."""
    st = act(run_stock_out(BLOCK), 4, DRAW_STOCK)
    rejected(st, 4, discard("5H"), "hand_over")
    rejected(st, 4, DRAW_DISCARD, "hand_over")
    rejected(st, 5, DRAW_DISCARD, "hand_over")


def test_opt_block_2_must_take_the_discard_and_play_goes_on() -> None:
    """OPT-BLOCK-2: with the stock empty, taking the top discard continues the hand normally."""
    st = run_stock_out(BLOCK)
    assert st.discard[-1] == "QS"
    rejected(st, 4, {"type": "draw", "source": "discard", "card": "9C"}, "card_not_available")
    st = act(st, 4, DRAW_DISCARD)
    assert st.hands[4][-1] == "QS" and st.results == []
    rejected(st, 4, discard("QS"), "cannot_discard_taken_card")          # GEN-8 still applies
    st = act(st, 4, discard("5H"))
    assert st.turn == 5 and st.stock == [] and st.discard[-1] == "5H"
    # Seat 5 too must take the discard; seat 0 then declines and ends the hand.
    st = act(st, 5, DRAW_DISCARD, discard("8D"))
    st = act(st, 0, DRAW_STOCK)
    result = st.results[-1]
    assert result.detail["counts"] == [8, 16, 26, 60, 34 - 5 + 10, 44 - 8 + 5]
    assert (result.winner, result.scores) == (0, (8 + 18 + 52 + 31 + 33, 0, 0, 0, 0, 0))


def test_opt_block_2_going_out_still_ends_the_hand_normally() -> None:
    """OPT-BLOCK-2: with the stock empty, a player who goes out wins as usual (STD-13)."""
    rules = match_rules("standard", BLOCK, 2)
    d = Deal(hands=(("KC", "QC", "2D"), ("5H", "6H")), stock=(), discard=("9S", "7H"))
    st = start_hand(new_match(rules), d, 0)
    st = act(st, 1, DRAW_DISCARD, {"type": "meld", "melds": [["5H", "6H", "7H"]]})
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "went_out", (0, 22))


def test_opt_block_gen_13_single_discard_without_block_is_stock_empty() -> None:
    """GEN-13 contrast: without block_rummy an empty stock and a one-card pile is refused."""
    rules = match_rules("standard", {}, 2)
    d = Deal(hands=(("KC", "QC"), ("5H", "6H")), stock=(), discard=("7H",))
    st = start_hand(new_match(rules), d, 0)
    rejected(st, 1, DRAW_STOCK, "stock_empty")
    # With block_rummy the same draw ends the hand instead.
    st = start_hand(new_match(match_rules("standard", BLOCK, 2)), d, 0)
    st = act(st, 1, DRAW_STOCK)
    assert st.results[-1].reason == "blocked" and st.results[-1].scores == (0, 9)


def block4(hands: tuple[tuple[str, ...], ...], options: dict[str, Any] | None = None) -> State:
    """A 4-player hand with an empty stock; seat 1 (dealer 0's left) declines at once."""
    rules = match_rules("standard", BLOCK | (options or {}), 4)
    st = start_hand(new_match(rules), Deal(hands=hands, stock=(), discard=("9S", "9H")), 0)
    st, _ = apply(st, 1, DRAW_STOCK)
    return st


def test_opt_block_4_two_winners_share_22() -> None:
    """OPT-BLOCK-4 example: counts 5, 5, 12, 20 -> 7 + 15 = 22 -> 11 each; no single winner."""
    st = block4((("AC", "4C"), ("2D", "3D"), ("5H", "7H"), ("KS", "TS")))
    result = st.results[-1]
    assert result.detail["counts"] == [5, 5, 12, 20]
    assert (result.winner, result.reason, result.scores) == (None, "blocked", (11, 11, 0, 0))
    assert st.totals == [11, 11, 0, 0]
    assert not st.game_over and st.game_winner is None


def test_opt_block_4_three_winners_share_7_remainder_lost() -> None:
    """OPT-BLOCK-4 example: three winners sharing 7 score 2 each; 1 point is lost."""
    st = block4((("3C",), ("AD", "2D"), ("3H",), ("TS",)))
    result = st.results[-1]
    assert result.detail["counts"] == [3, 3, 3, 10]
    assert (result.winner, result.scores) == (None, (2, 2, 2, 0))


def test_opt_block_4_single_lowest_count_wins_all_differences() -> None:
    """OPT-BLOCK-4: a single lowest count (seat 2, 1) wins 4 + 11 + 19 = 34."""
    st = block4((("AC", "4C"), ("2D", "3D", "7D"), ("AH",), ("KS", "TS")))
    result = st.results[-1]
    assert result.detail["counts"] == [5, 12, 1, 20]
    assert (result.winner, result.scores) == (2, (0, 0, 34, 0))


def test_opt_block_3_counts_use_around_the_corner_aces() -> None:
    """OPT-BLOCK-3 + OPT-ATC-2: an ace in hand counts 11 in the block count."""
    st = block4((("AC",), ("2D", "3D"), ("5H", "7H"), ("KS", "TS")), {"around_the_corner": True})
    result = st.results[-1]
    assert result.detail["counts"] == [11, 5, 12, 20]
    assert (result.winner, result.scores) == (1, (0, 6 + 7 + 15, 0, 0))


def test_opt_block_4_tie_at_the_target_plays_on() -> None:
    """GEN-15 / OPT-WIN-4: tied winners both past the target: no game winner, play goes on."""
    st = block4((("AC", "4C"), ("2D", "3D"), ("5H", "7H"), ("KS", "TS")), {"target_score": 10})
    assert st.totals == [11, 11, 0, 0]
    assert not st.game_over and st.game_winner is None


def test_opt_block_4_tie_with_each_hand_own_game_has_no_winner() -> None:
    """OPT-WIN-4: with each_hand_own_game a tied block ends the game without a winner."""
    st = block4((("AC", "4C"), ("2D", "3D"), ("5H", "7H"), ("KS", "TS")),
                {"each_hand_own_game": True})
    result = st.results[-1]
    assert result.winner is None and result.scores == (0, 0, 0, 0)
    assert st.game_over and st.game_winner is None


@pytest.mark.parametrize("value", ["true", 1, None])
def test_opt_block_bad_value_is_rejected(value: object) -> None:
    """PROTOCOL.md §2: block_rummy must be a boolean."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"block_rummy": value}, 2)
    assert info.value.code == "bad_option_value"
