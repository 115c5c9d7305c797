"""OPT-VALUES (card-count scoring, RULES.md §3.11) on Standard Rummy.

2 players. The winner holds two five-card runs, draws KH and discards it; the loser keeps ten
court cards: 100 points by card values, 10 points by count.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.errors import IllegalAction, InvalidOptions
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import act, stacked

WINNER = ["AC", "2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "TD"]
LOSER = ["KC", "KD", "KS", "QC", "QD", "QH", "QS", "JC", "JD", "JH"]   # 100 points
COUNT = {"card_count_scoring": True}


def go_out_hand(dealer: int, winner: int, options: dict[str, Any] | None = None,
                state: State | None = None) -> State:
    """Deal a hand that ``winner`` wins in his first turn (the loser, if first, draws 2S and
    discards it); the winner draws KH, melds both runs and discards KH."""
    loser = 1 - winner
    hands = [LOSER, WINNER] if winner == 1 else [WINNER, LOSER]
    first = (dealer + 1) % 2
    st = stacked("standard", hands, options=options, discard=["9S"],
                 stock_top=["2S", "KH"] if first == loser else ["KH"], dealer=dealer,
                 state=state)
    if first == loser:
        st = act(st, loser, {"type": "draw", "source": "stock"}, {"type": "discard", "card": "2S"})
    return act(st, winner, {"type": "draw", "source": "stock"},
               {"type": "meld", "melds": [WINNER[:5], WINNER[5:]]},
               {"type": "discard", "card": "KH"})


def test_opt_values_1_each_card_counts_one() -> None:
    """OPT-VALUES-1: the loser's ten court cards score 10, not 100."""
    st = go_out_hand(0, 1, COUNT)
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "went_out", (0, 10))
    assert st.totals == [0, 10]


def test_opt_values_1_contrast_card_values() -> None:
    """GEN-16 / STD-13 contrast: without the option the same hand scores 100 and ends the game."""
    st = go_out_hand(0, 1)
    assert st.results[-1].scores == (0, 100)
    assert st.game_over and st.game_winner == 1


def test_opt_values_2_default_target_is_25() -> None:
    """OPT-VALUES-2 / OPT-WIN-1: 10 + 10 = 20 plays on; 30 ends the game at target 25."""
    assert match_rules("standard", COUNT, 2).target == 25
    assert match_rules("standard", COUNT | {"complete_rummy": True}, 2).target == 25
    st = go_out_hand(0, 1, COUNT)
    st = go_out_hand(1, 1, state=st)        # dealer 1: seat 0 plays first, seat 1 wins again
    assert st.totals == [0, 20] and not st.game_over
    st = go_out_hand(0, 1, state=st)
    assert st.totals == [0, 30]
    assert st.game_over and st.game_winner == 1
    # The game is over: no further hand can be dealt.
    with pytest.raises(IllegalAction) as info:
        go_out_hand(1, 1, state=st)
    assert info.value.code == "game_over"


def test_opt_values_2_explicit_target_replaces_25() -> None:
    """OPT-WIN-1: target_score 10 with card counting ends the game after the first hand."""
    assert match_rules("standard", COUNT | {"target_score": 10}, 2).target == 10
    st = go_out_hand(0, 1, COUNT | {"target_score": 10})
    assert st.game_over and st.game_winner == 1


def test_opt_values_1_applies_to_block_counts() -> None:
    """OPT-VALUES-1 + OPT-BLOCK-3/4: counts are numbers of cards: 2, 1, 3 -> winner scores 3."""
    rules = match_rules("standard", COUNT | {"block_rummy": True}, 3)
    d = Deal(hands=(("KC", "QC"), ("AD",), ("2C", "3C", "4D")), stock=(), discard=("9S", "9H"))
    st = start_hand(new_match(rules), d, 0)
    st, _ = apply(st, 1, {"type": "draw", "source": "stock"})
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "blocked", (0, 3, 0))
    assert result.detail["counts"] == [2, 1, 3]


def test_opt_values_1_block_counts_contrast_card_values() -> None:
    """OPT-BLOCK-3 contrast: by card values the same hands count 20, 1, 9 -> 27."""
    rules = match_rules("standard", {"block_rummy": True}, 3)
    d = Deal(hands=(("KC", "QC"), ("AD",), ("2C", "3C", "4D")), stock=(), discard=("9S", "9H"))
    st = start_hand(new_match(rules), d, 0)
    st, _ = apply(st, 1, {"type": "draw", "source": "stock"})
    assert st.results[-1].scores == (0, 27, 0)


@pytest.mark.parametrize("value", ["true", 1, 0, None, [True]])
def test_opt_values_bad_value_is_rejected(value: object) -> None:
    """PROTOCOL.md §2: card_count_scoring must be a boolean."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"card_count_scoring": value}, 2)
    assert info.value.code == "bad_option_value"
