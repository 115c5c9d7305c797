"""Scenario tests for One meld per turn, OPT-ONEMELD-1..3 (RULES.md §3.6), on Standard Rummy.

Two players, dealer 0, seat 1 plays first.

- seat 1: 2H 3H 4H 5H 6H 9C 9D 9S 7D 8D
- seat 0: 7H 8H AC 3C 5C JD QS KD TC 4S  (after laying off 7H 8H: 53 points)
- upcard KS; stock KH 2D 6D ...
"""

from __future__ import annotations

from typing import Any

from app.engine.state import Phase, State
from tests.engine.helpers import act, discard, rejected, stacked

ONE = {"one_meld_per_turn": True}
SEAT0 = ["7H", "8H", "AC", "3C", "5C", "JD", "QS", "KD", "TC", "4S"]
SEAT1 = ["2H", "3H", "4H", "5H", "6H", "9C", "9D", "9S", "7D", "8D"]
DRAW = {"type": "draw", "source": "stock"}


def melds(*listed: list[str]) -> dict[str, Any]:
    return {"type": "meld", "melds": [list(m) for m in listed]}


def lay_off(meld_no: int, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": meld_no, "cards": list(cards)}


def cards_of(st: State, meld_no: int) -> list[str]:
    return [p.card for p in st.melds[meld_no].cards]


def deal(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", [SEAT0, SEAT1], options=ONE if options is None else options,
                   discard=["KS"], stock_top=["KH", "2D", "6D"])


def second_turn(options: dict[str, Any] | None = None) -> State:
    """Turn 1: seat 1 draws KH, melds 2H 3H 4H, lays off 5H and 6H, discards KH.
    Seat 0 draws 2D, lays off 7H and 8H without melding, discards 2D.
    Seat 1 draws 6D and holds 9C 9D 9S 7D 8D 6D: two melds, his whole hand."""
    st = act(deal(options), 1, DRAW, melds(["2H", "3H", "4H"]), lay_off(0, "5H"),
             lay_off(0, "6H"), discard("KH"))
    st = act(st, 0, DRAW, lay_off(0, "7H"), lay_off(0, "8H"), discard("2D"))
    st = act(st, 1, DRAW)
    assert sorted(st.hands[1]) == ["6D", "7D", "8D", "9C", "9D", "9S"]
    return st


# --- OPT-ONEMELD-1: at most one new meld per turn -------------------------------------------

def test_opt_onemeld_1_two_melds_in_one_action_rejected() -> None:
    """OPT-ONEMELD-1: a ``meld`` action listing two melds is refused."""
    st = act(deal(), 1, DRAW)
    rejected(st, 1, melds(["2H", "3H", "4H"], ["9C", "9D", "9S"]), "one_meld_per_turn")


def test_opt_onemeld_1_second_meld_action_rejected() -> None:
    """OPT-ONEMELD-1: one meld is accepted; a second ``meld`` in the same turn is refused."""
    st = act(deal(), 1, DRAW, melds(["2H", "3H", "4H"]))
    assert cards_of(st, 0) == ["2H", "3H", "4H"]
    rejected(st, 1, melds(["9C", "9D", "9S"]), "one_meld_per_turn")


def test_opt_onemeld_1_limit_resets_next_turn() -> None:
    """OPT-ONEMELD-1: the limit is per turn; seat 1 melds again in his next turn."""
    st = act(second_turn(), 1, melds(["6D", "7D", "8D"]))
    assert cards_of(st, 1) == ["6D", "7D", "8D"]
    rejected(st, 1, melds(["9C", "9D", "9S"]), "one_meld_per_turn")
    st = act(st, 1, discard("9S"))
    assert st.turn == 0 and st.phase is Phase.DRAW


def test_opt_onemeld_1_without_option_two_melds_accepted() -> None:
    """OPT-ONEMELD-1 (control): without the option both melds go down in one action."""
    st = act(deal({}), 1, DRAW, melds(["2H", "3H", "4H"], ["9C", "9D", "9S"]))
    assert len(st.melds) == 2


# --- OPT-ONEMELD-2: lay-offs are not limited ------------------------------------------------

def test_opt_onemeld_2_lay_offs_after_melding_unlimited() -> None:
    """OPT-ONEMELD-2: after his one meld, seat 1 lays off 5H and 6H (two lay-offs)."""
    st = act(deal(), 1, DRAW, melds(["2H", "3H", "4H"]), lay_off(0, "5H"), lay_off(0, "6H"))
    assert cards_of(st, 0) == ["2H", "3H", "4H", "5H", "6H"]
    rejected(st, 1, melds(["9C", "9D", "9S"]), "one_meld_per_turn")


def test_opt_onemeld_2_lay_offs_without_melding() -> None:
    """OPT-ONEMELD-2: seat 0, who has no meld this turn, lays off 7H and 8H."""
    st = second_turn()
    assert cards_of(st, 0) == ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    assert st.melds[0].owner == 1


# --- OPT-ONEMELD-3: the limit applies on going out ----------------------------------------

def test_opt_onemeld_3_cannot_go_out_with_two_melds() -> None:
    """OPT-ONEMELD-3: seat 1's last six cards are two melds; laying both is refused."""
    st = second_turn()
    rejected(st, 1, melds(["6D", "7D", "8D"], ["9C", "9D", "9S"]), "one_meld_per_turn")


def test_opt_onemeld_3_without_option_goes_out_with_exact_score() -> None:
    """OPT-ONEMELD-3 (control): without the option seat 1 goes out with both melds and
    scores seat 0's AC 3C 5C JD QS KD TC 4S = 1+3+5+10+10+10+10+4 = 53."""
    st = act(second_turn({}), 1, melds(["6D", "7D", "8D"], ["9C", "9D", "9S"]))
    result = st.results[-1]
    assert result.winner == 1 and result.reason == "went_out" and result.scores == (0, 53)
    assert st.phase is Phase.HAND_OVER


def test_opt_onemeld_3_go_out_with_one_meld_and_lay_offs() -> None:
    """OPT-ONEMELD-3: one meld plus lay-offs plus a discard is a legal way out.
    Seat 1 melds 2H..TH (9 cards), lays off the drawn JH and discards 9C; seat 0 holds 53+15."""
    seat1 = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "9C"]
    seat0 = ["AC", "3C", "5C", "JD", "QS", "KD", "TC", "4S", "7D", "8D"]
    st = stacked("standard", [seat0, seat1], options=ONE, discard=["KS"], stock_top=["JH"])
    st = act(st, 1, DRAW, melds(seat1[:9]), lay_off(0, "JH"), discard("9C"))
    result = st.results[-1]
    assert result.winner == 1 and result.scores == (0, 68)
