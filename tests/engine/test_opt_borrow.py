"""Scenario tests for Borrowing, OPT-BORROW-1..3 and OPT-BORROWANY-1 (RULES.md §3.4, §3.5).

Two players, dealer 0, seat 1 plays first.

- seat 1: 5H 6H 7H 8H 5C 5D 6C 6D 9C 9D; draws 9H and melds 5H 6H 7H 8H (meld 0) and
  9C 9D 9H (meld 1), keeping 5C 5D 6C 6D.
- seat 0: KC KD KH KS QS JS 7C 7D 3H 4H; draws AD.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.games import match_rules
from app.engine.state import Phase, State
from tests.engine.helpers import act, discard, rejected, stacked

BORROW = {"borrowing": True}
SEAT0 = ["KC", "KD", "KH", "KS", "QS", "JS", "7C", "7D", "3H", "4H"]
SEAT1 = ["5H", "6H", "7H", "8H", "5C", "5D", "6C", "6D", "9C", "9D"]
UPCARD = ["TD"]
STOCK = ["9H", "AD", "AS", "AC"]
DRAW = {"type": "draw", "source": "stock"}
MELD_BOTH = {"type": "meld", "melds": [["5H", "6H", "7H", "8H"], ["9C", "9D", "9H"]]}


def borrow(meld_no: int, card: str, *into: str) -> dict[str, Any]:
    return {"type": "borrow", "meld": meld_no, "card": card, "into": list(into)}


def cards_of(st: State, meld_no: int) -> list[str]:
    return [p.card for p in st.melds[meld_no].cards]


def deal(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", [SEAT0, SEAT1], options=BORROW if options is None else options,
                   discard=UPCARD, stock_top=STOCK)


def melded(options: dict[str, Any] | None = None) -> State:
    """Seat 1 has drawn 9H and laid meld 0 (5H..8H) and meld 1 (9C 9D 9H)."""
    st = act(deal(options), 1, DRAW, MELD_BOTH)
    assert sorted(st.hands[1]) == ["5C", "5D", "6C", "6D"]
    return st


def seat0_turn(options: dict[str, Any] | None = None) -> State:
    """After ``melded``, seat 1 discards 6D and seat 0 draws AD."""
    return act(act(melded(options), 1, discard("6D")), 0, DRAW)


# --- OPT-BORROW-1: own melds, in the play phase, one atomic action ---------------------------

def test_opt_borrow_1_end_card_of_own_run_into_new_set() -> None:
    """OPT-BORROW-1: seat 1 takes 5H from his run and melds 5C 5D 5H at once."""
    st = act(melded(), 1, borrow(0, "5H", "5C", "5D", "5H"))
    assert cards_of(st, 0) == ["6H", "7H", "8H"]
    assert cards_of(st, 2) == ["5C", "5D", "5H"]
    assert st.melds[2].kind == "set"
    assert sorted(st.hands[1]) == ["6C", "6D"]
    assert st.phase is Phase.PLAY and st.turn == 1


def test_opt_borrow_1_not_before_drawing() -> None:
    """OPT-BORROW-1, GEN-7: borrowing is a PLAY-phase move."""
    st = act(deal({"borrowing_any_meld": True}), 1, DRAW, MELD_BOTH, discard("6D"))
    rejected(st, 0, borrow(0, "5H", "3H", "4H", "5H"), "must_draw_first")


def test_opt_borrow_1_not_out_of_turn() -> None:
    """OPT-BORROW-1: only in one's own turn."""
    st = melded({"borrowing_any_meld": True})
    rejected(st, 0, borrow(0, "5H", "3H", "4H", "5H"), "not_your_turn")


def test_opt_borrow_1_other_players_meld_rejected() -> None:
    """OPT-BORROW-1: seat 0 may not take 5H from seat 1's run (``not_your_meld``)."""
    st = seat0_turn()
    rejected(st, 0, borrow(0, "5H", "3H", "4H", "5H"), "not_your_meld")


def test_opt_borrow_1_off_by_default() -> None:
    """OPT-BORROW (control): without the option the action is not available."""
    st = melded({})
    rejected(st, 1, borrow(0, "5H", "5C", "5D", "5H"), "not_in_this_game")


def test_opt_borrow_1_card_must_be_in_the_meld() -> None:
    """OPT-BORROW-1: the borrowed card is taken from the named meld."""
    st = melded()
    rejected(st, 1, borrow(1, "5H", "5C", "5D", "5H"), "card_not_in_meld")
    rejected(st, 1, borrow(5, "5H", "5C", "5D", "5H"), "no_such_meld")


# --- OPT-BORROW-2: the source meld stays valid --------------------------------------------

def test_opt_borrow_2_middle_of_a_run_rejected() -> None:
    """OPT-BORROW-2: 6H is inside 5H..8H; a run is never split."""
    rejected(melded(), 1, borrow(0, "6H", "6C", "6D", "6H"), "cannot_borrow")


def test_opt_borrow_2_three_card_meld_rejected() -> None:
    """OPT-BORROW-2: after giving 5H, 6H 7H 8H has three cards and cannot give another, though
    6C 6D 6H would be a valid new meld."""
    st = act(melded(), 1, borrow(0, "5H", "5C", "5D", "5H"))
    rejected(st, 1, borrow(0, "6H", "6C", "6D", "6H"), "cannot_borrow")


def test_opt_borrow_2_set_of_four_may_give_a_card() -> None:
    """OPT-BORROW-2: seat 0's KC KD KH KS gives KS to JS QS KS; three kings stay."""
    st = seat0_turn()
    st = act(st, 0, {"type": "meld", "melds": [["KC", "KD", "KH", "KS"]]})
    st = act(st, 0, borrow(2, "KS", "JS", "QS", "KS"))
    assert sorted(cards_of(st, 2)) == ["KC", "KD", "KH"]
    assert cards_of(st, 3) == ["JS", "QS", "KS"]
    assert st.melds[3].owner == 0


def test_opt_borrow_3_new_meld_must_be_valid() -> None:
    """OPT-BORROW-3: 8H is an end card (the run would stay valid), but 5C 5D 8H is no meld."""
    rejected(melded(), 1, borrow(0, "8H", "5C", "5D", "8H"), "invalid_meld")


# --- OPT-BORROW-3: the new meld ----------------------------------------------------------

def test_opt_borrow_3_needs_two_hand_cards() -> None:
    """OPT-BORROW-3: the borrowed card plus at least two cards of the hand."""
    rejected(melded(), 1, borrow(0, "5H", "5C", "5H"), "invalid_meld")


def test_opt_borrow_3_new_meld_must_contain_the_borrowed_card() -> None:
    """OPT-BORROW-3, PROTOCOL §3: ``into`` is the whole new meld including the borrowed card."""
    st = melded()
    rejected(st, 1, borrow(0, "5H", "5C", "5D", "6D"), "invalid_meld")


def test_opt_borrow_3_hand_cards_must_be_held() -> None:
    """OPT-BORROW-3: the other cards of the new meld come from the hand."""
    rejected(melded(), 1, borrow(0, "5H", "5C", "5S", "5H"), "card_not_in_hand")


def test_opt_borrow_3_new_meld_owned_by_borrower_and_borrowed_card_not_in_hand() -> None:
    """OPT-BORROW-3: the new meld is seat 1's; 5H never enters the hand, so it cannot be
    discarded; seat 1 then discards 6D and keeps 6C."""
    st = act(melded(), 1, borrow(0, "5H", "5C", "5D", "5H"))
    assert st.melds[2].owner == 1
    assert "5H" not in st.hands[1]
    rejected(st, 1, discard("5H"), "card_not_in_hand")
    st = act(st, 1, discard("6D"))
    assert st.hands[1] == ["6C"] and st.turn == 0


def test_opt_borrow_3_several_borrows_in_a_turn() -> None:
    """OPT-BORROW-3: each borrow forms its own new meld."""
    st = seat0_turn({"borrowing_any_meld": True})
    st = act(st, 0, {"type": "meld", "melds": [["KC", "KD", "KH", "KS"]]})
    st = act(st, 0, borrow(2, "KS", "JS", "QS", "KS"))
    st = act(st, 0, borrow(0, "5H", "3H", "4H", "5H"))
    assert cards_of(st, 3) == ["JS", "QS", "KS"] and cards_of(st, 4) == ["3H", "4H", "5H"]
    assert st.melds[3].owner == 0 and st.melds[4].owner == 0
    assert sorted(st.hands[0]) == ["7C", "7D", "AD"]


def test_opt_borrow_3_counts_as_a_meld_for_one_meld_per_turn() -> None:
    """OPT-BORROW-3, OPT-ONEMELD-1: a borrow after a meld is a second new meld; next turn the
    borrow is the turn's only meld, and a meld after it is refused."""
    options = {"borrowing": True, "one_meld_per_turn": True}
    st = act(deal(options), 1, DRAW, {"type": "meld", "melds": [["5H", "6H", "7H", "8H"]]})
    rejected(st, 1, borrow(0, "5H", "5C", "5D", "5H"), "one_meld_per_turn")
    st = act(st, 1, discard("6D"))
    st = act(st, 0, DRAW, discard("AD"))
    st = act(st, 1, DRAW, borrow(0, "5H", "5C", "5D", "5H"))
    assert cards_of(st, 1) == ["5C", "5D", "5H"]
    rejected(st, 1, {"type": "meld", "melds": [["9C", "9D", "9H"]]}, "one_meld_per_turn")


# --- OPT-BORROWANY-1 -----------------------------------------------------------------------

def test_opt_borrowany_1_borrow_from_another_players_meld() -> None:
    """OPT-BORROWANY-1: seat 0 takes 5H from seat 1's run into 3H 4H 5H, which is his."""
    st = seat0_turn({"borrowing_any_meld": True})
    st = act(st, 0, borrow(0, "5H", "3H", "4H", "5H"))
    assert cards_of(st, 0) == ["6H", "7H", "8H"] and st.melds[0].owner == 1
    assert cards_of(st, 2) == ["3H", "4H", "5H"] and st.melds[2].owner == 0


def test_opt_borrowany_1_source_must_stay_valid() -> None:
    """OPT-BORROWANY-1 with OPT-BORROW-2: seat 1's run cannot give its middle 7H (though
    7C 7D 7H would be a meld), nor, once down to 6H 7H 8H, any card."""
    options = {"borrowing_any_meld": True}
    st = seat0_turn(options)
    rejected(st, 0, borrow(0, "7H", "7C", "7D", "7H"), "cannot_borrow")
    st = act(melded(options), 1, borrow(0, "5H", "5C", "5D", "5H"), discard("6D"))
    st = act(st, 0, DRAW)
    rejected(st, 0, borrow(0, "7H", "7C", "7D", "7H"), "cannot_borrow")


@pytest.mark.parametrize("options", [{"borrowing_any_meld": True},
                                     {"borrowing_any_meld": True, "borrowing": False}])
def test_opt_borrowany_1_implies_borrowing(options: dict[str, Any]) -> None:
    """OPT-BORROWANY-1: turning it on implies ``borrowing``; own melds too."""
    assert match_rules("standard", options, 2).options.borrowing is True
    st = act(melded(options), 1, borrow(0, "5H", "5C", "5D", "5H"))
    assert cards_of(st, 2) == ["5C", "5D", "5H"]
