"""Scenario tests for the lay-off restriction, OPT-LAYOFF-1 (RULES.md §3.7), on Standard Rummy.

Two players, dealer 0, seat 1 plays first.

- seat 1: 2H 3H 4H 5H 6H 9C 9D 9S 7D 8D; draws KH, melds 2H 3H 4H (meld 0), lays off
  5H 6H
- seat 0: 7H 8H AC 3C 5C JD QD KD TD 4S; draws 2D
"""

from __future__ import annotations

from typing import Any

from app.engine.state import State
from tests.engine.helpers import act, discard, rejected, stacked

RESTRICT = {"layoff_requires_meld": True}
SEAT0 = ["7H", "8H", "AC", "3C", "5C", "JD", "QD", "KD", "TD", "4S"]
SEAT1 = ["2H", "3H", "4H", "5H", "6H", "9C", "9D", "9S", "7D", "8D"]
DRAW = {"type": "draw", "source": "stock"}


def meld(*cards: str) -> dict[str, Any]:
    return {"type": "meld", "melds": [list(cards)]}


def lay_off(meld_no: int, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": meld_no, "cards": list(cards)}


def cards_of(st: State, meld_no: int) -> list[str]:
    return [p.card for p in st.melds[meld_no].cards]


def deal(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", [SEAT0, SEAT1], options=RESTRICT if options is None else options,
                   discard=["KS"], stock_top=["KH", "2D", "6D"])


def seat0_turn(options: dict[str, Any] | None = None) -> State:
    """Seat 1 has melded 2H..6H and discarded KH; seat 0 (no meld yet) has drawn 2D."""
    st = act(deal(options), 1, DRAW, meld("2H", "3H", "4H"), lay_off(0, "5H", "6H"),
             discard("KH"))
    return act(st, 0, DRAW)


def test_opt_layoff_1_no_lay_off_before_own_meld() -> None:
    """OPT-LAYOFF-1: seat 0 has no meld of his own: laying 7H off on seat 1's run is refused."""
    st = seat0_turn()
    rejected(st, 0, lay_off(0, "7H"), "must_meld_first")
    rejected(st, 0, lay_off(0, "7H", "8H"), "must_meld_first")


def test_opt_layoff_1_lay_off_same_turn_after_melding() -> None:
    """OPT-LAYOFF-1: once seat 0 has laid JD QD KD he may lay off in the same turn, on
    another player's meld and on his own."""
    st = act(seat0_turn(), 0, meld("JD", "QD", "KD"))
    st = act(st, 0, lay_off(0, "7H", "8H"), lay_off(1, "TD"))
    assert cards_of(st, 0) == ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    assert cards_of(st, 1) == ["TD", "JD", "QD", "KD"]
    assert sorted(st.hands[0]) == ["2D", "3C", "4S", "5C", "AC"]


def test_opt_layoff_1_melder_lays_off_in_his_melding_turn() -> None:
    """OPT-LAYOFF-1: seat 1 melds 2H 3H 4H and lays off 5H 6H in the same turn."""
    st = act(deal(), 1, DRAW, meld("2H", "3H", "4H"), lay_off(0, "5H"), lay_off(0, "6H"))
    assert cards_of(st, 0) == ["2H", "3H", "4H", "5H", "6H"]


def test_opt_layoff_1_restriction_holds_for_later_turns_until_melding() -> None:
    """OPT-LAYOFF-1: the restriction lasts the whole hand until the player's first meld;
    having melded in an earlier turn is enough later."""
    st = act(seat0_turn(), 0, discard("2D"))
    st = act(st, 1, DRAW, discard("6D"))
    st = act(st, 0, DRAW)
    rejected(st, 0, lay_off(0, "7H"), "must_meld_first")
    st = act(st, 0, meld("JD", "QD", "KD"), discard("4S"))
    st = act(st, 1, DRAW)
    st = act(st, 1, discard(st.hands[1][-1]))
    st = act(st, 0, DRAW, lay_off(0, "7H"))
    assert cards_of(st, 0)[-1] == "7H"


def test_opt_layoff_1_without_option_lay_off_without_meld() -> None:
    """OPT-LAYOFF-1 (control), STD-9: without the option seat 0 lays off at once."""
    st = act(seat0_turn({}), 0, lay_off(0, "7H", "8H"))
    assert cards_of(st, 0)[-2:] == ["7H", "8H"]
