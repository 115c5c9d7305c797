"""OPT-HIDDEN (Going Rummy, RULES.md §3.8) on Standard Rummy, through stacked deals.

The common scenario (3 players, dealer 0, so seats play 1, 2, 0, 1, ...):

- seat 2 melds 8H-JH and keeps K-7-A of clubs (18 points),
- seat 0 melds 8S-QS and keeps 5C 5H (10 points),
- seat 1 plays nothing on his first turn and then lays his whole hand in his second turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.errors import InvalidOptions
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import act, discard, rejected, stacked

SEAT1 = ["QC", "QD", "QH", "2D", "3D", "4D", "7S"]
SEAT2 = ["KC", "7C", "AC", "8H", "9H", "TH", "JH"]
SEAT0 = ["5C", "5H", "8S", "9S", "TS", "JS", "QS"]
UPCARD = ["2C"]


def draw(source: str = "stock", card: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "draw", "source": source}
    if card is not None:
        action["card"] = card
    return action


def meld(*melds: list[str]) -> dict[str, Any]:
    return {"type": "meld", "melds": list(melds)}


def lay_off(index: int, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": index, "cards": list(cards)}


def first_round(options: dict[str, Any], stock_top: list[str] | None = None) -> State:
    """Seat 1 draws and discards 3C; seats 2 and 0 meld and keep 18 and 10 points."""
    st = stacked("standard", [SEAT0, SEAT1, SEAT2], options=options, discard=UPCARD,
                 stock_top=stock_top or ["3C", "4C", "6C", "5D"])
    st = act(st, 1, draw(), discard("3C"))
    st = act(st, 2, draw(), meld(["8H", "9H", "TH", "JH"]), discard("4C"))
    st = act(st, 0, draw(), meld(["8S", "9S", "TS", "JS", "QS"]), discard("6C"))
    assert st.hands[2] == ["KC", "7C", "AC"] and st.hands[0] == ["5C", "5H"]
    assert st.turn == 1 and st.results == []
    return st


def test_opt_hidden_1_2_going_rummy_with_final_discard_doubles_to_56() -> None:
    """OPT-HIDDEN-1/2: the RULES.md example: opponents hold 18 and 10 -> exactly 56."""
    st = first_round({"going_rummy": True})
    # Seat 1 has put nothing on the table; he melds everything and discards his last card.
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), discard("7S"))
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "went_out", (0, 56, 0))
    assert st.totals == [0, 56, 0]
    assert st.hand_over and st.turn is None


def test_opt_hidden_1_going_rummy_by_laying_off_the_last_card() -> None:
    """OPT-HIDDEN-1: a lay-off in the going-out turn is part of playing the whole hand at once."""
    st = first_round({"going_rummy": True})
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), lay_off(1, "7S"))
    assert st.results[-1].scores == (0, 56, 0)
    assert st.melds[1].codes == ["7S", "8S", "9S", "TS", "JS", "QS"]


def test_opt_hidden_2_without_the_option_the_same_hand_scores_28() -> None:
    """STD-13 / OPT-HIDDEN-2 contrast: with the option off the same hand is not doubled."""
    st = first_round({})
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), discard("7S"))
    assert st.results[-1].scores == (0, 28, 0)


def test_opt_hidden_2_doubles_after_around_the_corner_values() -> None:
    """OPT-HIDDEN-2 with OPT-ATC-2: the ace held by seat 2 counts 11 -> (28 + 10) * 2 = 76."""
    st = first_round({"going_rummy": True, "around_the_corner": True})
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), discard("7S"))
    assert st.results[-1].scores == (0, 76, 0)


def test_opt_hidden_2_doubles_after_card_count_values() -> None:
    """OPT-HIDDEN-2 with OPT-VALUES-1: 3 + 2 cards left -> 5 points, doubled to 10."""
    st = first_round({"going_rummy": True, "card_count_scoring": True})
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), discard("7S"))
    assert st.results[-1].scores == (0, 10, 0)


def test_opt_hidden_1_not_doubled_after_an_earlier_meld() -> None:
    """OPT-HIDDEN-1: seat 1 laid a meld on an earlier turn, so going out later scores 28."""
    st = stacked("standard", [SEAT0, SEAT1, SEAT2], options={"going_rummy": True},
                 discard=UPCARD, stock_top=["3C", "4C", "6C", "5D"])
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"]), discard("3C"))
    st = act(st, 2, draw(), meld(["8H", "9H", "TH", "JH"]), discard("4C"))
    st = act(st, 0, draw(), meld(["8S", "9S", "TS", "JS", "QS"]), discard("6C"))
    st = act(st, 1, draw(), meld(["2D", "3D", "4D", "5D"]), discard("7S"))
    assert st.results[-1].scores == (0, 28, 0)


def test_opt_hidden_1_not_doubled_after_an_earlier_lay_off() -> None:
    """OPT-HIDDEN-1: a lay-off on another player's meld on an earlier turn ends eligibility."""
    st = first_round({"going_rummy": True}, stock_top=["3C", "4C", "6C", "KD", "2S", "6D", "5D"])
    st = act(st, 1, draw(), lay_off(1, "7S"), discard("KD"))   # the lay-off puts 7S on the table
    st = act(st, 2, draw(), discard("2S"))
    st = act(st, 0, draw(), discard("6D"))
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]))
    assert st.results[-1].winner == 1
    assert st.results[-1].scores == (0, 28, 0)


def test_opt_hidden_1_not_doubled_after_a_won_rummy_call() -> None:
    """OPT-HIDDEN-1, OPT-CALL-9: a won Rummy call counts as a lay-off, so no doubling later."""
    st = first_round({"going_rummy": True, "call_rummy": True},
                     stock_top=["3C", "4C", "6C", "KD", "7H", "6D", "5D"])
    st = act(st, 1, draw(), discard("KD"))
    st = act(st, 2, draw(), discard("7H"))          # 7H fits 8H-JH: a call window opens
    st = act(st, 1, {"type": "call_rummy", "meld": 0, "discard": "7S"})
    st = act(st, 0, draw(), discard("6D"))         # the draw closes the window: seat 1 wins it
    assert st.melds[0].codes == ["7H", "8H", "9H", "TH", "JH"]
    assert sorted(st.hands[1]) == sorted(["QC", "QD", "QH", "2D", "3D", "4D"])
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]))
    assert st.results[-1].scores == (0, 28, 0)


def test_opt_hidden_1_rejected_attempts_do_not_spend_eligibility() -> None:
    """OPT-HIDDEN-1: rejected moves put nothing on the table, so the hand is still doubled."""
    st = first_round({"going_rummy": True})
    st = act(st, 1, draw())
    rejected(st, 1, meld(["QC", "QD", "2D"]), "invalid_meld")
    rejected(st, 1, lay_off(0, "7S"), "invalid_meld")
    rejected(st, 1, meld(["QC", "QD", "QS"]), "card_not_in_hand")
    st = act(st, 1, meld(["QC", "QD", "QH"], ["2D", "3D", "4D", "5D"]), discard("7S"))
    assert st.results[-1].scores == (0, 56, 0)
    # GEN-11: the hand is over; nobody can act any more.
    rejected(st, 2, draw(), "hand_over")
    rejected(st, 1, discard("5D"), "hand_over")


def test_opt_hidden_1_melding_in_the_same_turn_before_going_out_still_doubles() -> None:
    """OPT-HIDDEN-1: several table moves within the one going-out turn keep the doubling."""
    st = first_round({"going_rummy": True})
    st = act(st, 1, draw(), meld(["QC", "QD", "QH"]), meld(["2D", "3D", "4D", "5D"]),
             discard("7S"))
    assert st.results[-1].scores == (0, 56, 0)


def test_opt_hidden_3_block_hand_is_never_doubled() -> None:
    """OPT-HIDDEN-3: seat 1 ends a block with nothing ever tabled; the win is not doubled."""
    rules = match_rules("standard", {"going_rummy": True, "block_rummy": True}, 2)
    deal = Deal(hands=(("KC", "QC"), ("2C", "3H")), stock=(), discard=("9D", "4S"))
    st = start_hand(new_match(rules), deal, 0)
    st, _ = apply(st, 1, draw())     # declining the discard with an empty stock ends the hand
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "blocked", (0, 15))
    assert "going_rummy" not in result.detail


def test_opt_hidden_3_incompatible_with_complete_rummy() -> None:
    """OPT-HIDDEN-3 / OPT-COMPLETE-4: going_rummy with complete_rummy is refused."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"going_rummy": True, "complete_rummy": True}, 3)
    assert info.value.code == "conflicting_options"
    assert match_rules("standard", {"going_rummy": True}, 3).options.going_rummy is True
