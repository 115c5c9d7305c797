"""OPT-COMPLETE (Complete Rummy, RULES.md §3.10) on Standard Rummy.

3 players, dealer 0: seat 1 plays first with 2H 3H 4H 8C 8D 8S 8H and draws 5H from the stock,
so he holds two complete melds (2H-5H, the four eights). The upcard is KD. Seats 2 and 0 hold
70 and 67 points: a declaration scores exactly 137.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.errors import InvalidOptions
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, rejected, stacked

SEAT1 = ["2H", "3H", "4H", "8C", "8D", "8S", "8H"]
SEAT2 = ["KC", "KH", "KS", "QC", "QD", "QH", "JC"]     # 70 points
SEAT0 = ["9C", "9D", "9H", "TC", "TD", "TH", "JD"]     # 67 points
COMPLETE = {"complete_rummy": True}
RUN = ["2H", "3H", "4H", "5H"]
EIGHTS = ["8C", "8D", "8S", "8H"]

def declare(*melds: list[str], discard: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": list(melds), "discard": discard}


def deal(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", [SEAT0, SEAT1, SEAT2], options=COMPLETE | (options or {}),
                   discard=["KD"], stock_top=["5H", "6C"])


def test_opt_complete_1_meld_and_lay_off_are_not_in_this_game() -> None:
    """OPT-COMPLETE-1: no melds and no lay-offs during the hand."""
    st = act(deal(), 1, DRAW_STOCK)
    rejected(st, 1, {"type": "meld", "melds": [RUN]}, "not_in_this_game")
    rejected(st, 1, {"type": "lay_off", "meld": 0, "cards": ["5H"]}, "not_in_this_game")
    # Accepted: an ordinary discard still ends the turn.
    st = act(st, 1, {"type": "discard", "card": "5H"})
    assert st.turn == 2 and st.melds == []


def test_opt_complete_1_declare_is_not_in_plain_standard() -> None:
    """OPT-COMPLETE-1 contrast: without complete_rummy, `declare` is not a Standard move."""
    st = stacked("standard", [SEAT0, SEAT1, SEAT2], discard=["KD"], stock_top=["5H"])
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, declare(RUN, EIGHTS), "not_in_this_game")


def test_opt_complete_1_2_declare_whole_hand_without_discard() -> None:
    """OPT-COMPLETE-1/2: the whole hand as melds; score = every card in the other hands."""
    st = act(deal(), 1, DRAW_STOCK, declare(RUN, EIGHTS))
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "went_out", (0, 137, 0))
    assert [m.codes for m in st.melds] == [RUN, EIGHTS]
    assert st.discard == ["KD"]
    assert st.hands[1] == [] and len(st.hands[0]) == len(st.hands[2]) == 7


def test_opt_complete_1_2_declare_all_but_one_and_discard() -> None:
    """OPT-COMPLETE-1/2: all but one card declared, the last one discarded."""
    st = act(deal(), 1, DRAW_STOCK, declare(RUN, ["8C", "8D", "8S"], discard="8H"))
    assert st.results[-1].scores == (0, 137, 0)
    assert st.discard == ["KD", "8H"]
    assert st.totals == [0, 137, 0]


def test_opt_complete_1_declare_before_drawing_is_rejected() -> None:
    """OPT-COMPLETE-1 / GEN-7: the declaration comes after drawing, in the player's own turn."""
    st = deal()
    rejected(st, 1, declare(["2H", "3H", "4H"], EIGHTS), "must_draw_first")
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 2, declare(RUN, EIGHTS), "not_your_turn")


def test_opt_complete_1_incomplete_declarations_are_rejected() -> None:
    """OPT-COMPLETE-1: the declaration must hold the whole hand (less the one discard)."""
    st = act(deal(), 1, DRAW_STOCK)
    rejected(st, 1, declare(RUN, ["8C", "8D", "8S"]), "declare_incomplete")      # 8H left
    rejected(st, 1, declare(["2H", "3H", "4H"], ["8C", "8D", "8S"], discard="8H"),
             "declare_incomplete")                                              # 5H left
    rejected(st, 1, declare(RUN, ["8C", "8D", "8S", "8H"], discard="5H"),
             "declare_incomplete")                                              # 5H twice


def test_opt_complete_1_invalid_melds_in_a_declaration_are_rejected() -> None:
    """OPT-COMPLETE-1, GEN-3: every declared meld must be valid."""
    st = act(deal(), 1, DRAW_STOCK)
    rejected(st, 1, declare(["2H", "3H", "5H", "4H"], EIGHTS), "invalid_meld")   # out of order
    rejected(st, 1, declare(["2H", "3H", "4H", "5H", "8H"], ["8C", "8D", "8S"]), "invalid_meld")
    rejected(st, 1, declare(["2H", "3H"], ["4H", "5H"], EIGHTS), "invalid_meld")  # too short


def test_opt_complete_1_declared_discard_obeys_gen_8() -> None:
    """OPT-COMPLETE-1 + GEN-8: the card just taken from the discard cannot be the discard."""
    st = act(deal(), 1, DRAW_DISCARD)          # takes KD; 2H 3H 4H and the eights remain
    rejected(st, 1, declare(["2H", "3H", "4H"], EIGHTS, discard="KD"),
             "cannot_discard_taken_card")
    rejected(st, 1, declare(["2H", "3H", "4H"], EIGHTS, discard="QS"), "card_not_in_hand")


def test_opt_complete_3_default_target_is_200() -> None:
    """OPT-COMPLETE-3 / OPT-WIN-1: 137 points do not end the game; the target is 200."""
    assert match_rules("standard", COMPLETE, 3).target == 200
    st = act(deal(), 1, DRAW_STOCK, declare(RUN, EIGHTS))
    assert st.totals == [0, 137, 0] and not st.game_over and st.game_winner is None


def test_opt_complete_3_explicit_target_still_wins() -> None:
    """OPT-WIN-1: an explicit target_score replaces the 200 of Complete Rummy."""
    assert match_rules("standard", COMPLETE | {"target_score": 100}, 3).target == 100
    st = act(deal({"target_score": 100}), 1, DRAW_STOCK, declare(RUN, EIGHTS))
    assert st.game_over and st.game_winner == 1


@pytest.mark.parametrize("key", ["call_rummy", "borrowing", "borrowing_any_meld",
                                 "one_meld_per_turn", "layoff_requires_meld", "going_rummy"])
def test_opt_complete_4_forbidden_combinations(key: str) -> None:
    """OPT-COMPLETE-4: each of these options together with complete_rummy is rejected."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"complete_rummy": True, key: True}, 3)
    assert info.value.code == "conflicting_options"
    # Accepted: the option switched off, or on without complete_rummy.
    match_rules("standard", {"complete_rummy": True, key: False}, 3)
    match_rules("standard", {key: True}, 3)


def test_opt_complete_4_with_mandatory_discard_a_declaration_needs_a_discard() -> None:
    """OPT-COMPLETE-4 / OPT-MANDISC-1: the declaration must include a discard."""
    st = act(deal({"mandatory_discard": True}), 1, DRAW_STOCK)
    rejected(st, 1, declare(RUN, EIGHTS), "must_keep_discard")
    st = act(st, 1, declare(RUN, ["8C", "8D", "8S"], discard="8H"))
    assert st.results[-1].scores == (0, 137, 0)
