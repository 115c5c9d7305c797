"""OPT-MANDISC (mandatory discard, RULES.md §3.9) on Standard Rummy.

3 players, dealer 0: seat 1 plays first with 2H 3H 4H 5H 8C 8D 8S. The upcard is KD (or 6H,
which fits his run) and the stock top is 6H (or 9C).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import DRAW_DISCARD, DRAW_STOCK, act, discard, rejected, stacked

SEAT1 = ["2H", "3H", "4H", "5H", "8C", "8D", "8S"]
SEAT2 = ["KC", "KH", "KS", "QC", "QD", "QH", "JC"]     # 70 points
SEAT0 = ["9C", "9D", "9H", "TC", "TD", "TH", "JD"]     # 67 points
MANDISC = {"mandatory_discard": True}

def meld(*melds: list[str]) -> dict[str, Any]:
    return {"type": "meld", "melds": list(melds)}


def deal(options: dict[str, Any], upcard: str = "KD", stock_top: str = "6H") -> State:
    return stacked("standard", [SEAT0, SEAT1, SEAT2], options=options, discard=[upcard],
                   stock_top=[stock_top])


def test_opt_mandisc_1_meld_that_empties_the_hand_is_rejected() -> None:
    """OPT-MANDISC-1: melding all eight cards would leave nothing to discard."""
    st = act(deal(MANDISC), 1, DRAW_STOCK)
    rejected(st, 1, meld(["2H", "3H", "4H", "5H", "6H"], ["8C", "8D", "8S"]), "must_keep_discard")
    # Accepted: meld all but one card, then go out by discarding it.
    st = act(st, 1, meld(["2H", "3H", "4H", "5H"], ["8C", "8D", "8S"]))
    assert st.hands[1] == ["6H"] and st.results == []
    st = act(st, 1, discard("6H"))
    result = st.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "went_out", (0, 137, 0))
    assert st.discard[-1] == "6H"


def test_opt_mandisc_1_lay_off_that_empties_the_hand_is_rejected() -> None:
    """OPT-MANDISC-1: laying off the last card is refused; nothing changes."""
    st = act(deal(MANDISC), 1, DRAW_STOCK, meld(["2H", "3H", "4H", "5H"], ["8C", "8D", "8S"]))
    rejected(st, 1, {"type": "lay_off", "meld": 0, "cards": ["6H"]}, "must_keep_discard")
    assert st.hands[1] == ["6H"]


def test_opt_mandisc_1_without_the_option_melding_everything_goes_out() -> None:
    """STD-11 contrast: without mandatory_discard the same meld goes out at once."""
    st = act(deal({}), 1, DRAW_STOCK,
             meld(["2H", "3H", "4H", "5H", "6H"], ["8C", "8D", "8S"]))
    assert st.results[-1].scores == (0, 137, 0)
    assert st.discard == ["KD"]


def test_opt_mandisc_1_taken_card_melded_with_everything_else_is_rejected() -> None:
    """OPT-MANDISC-1: the taken upcard 6H completes the run, but the hand would be empty."""
    st = act(deal(MANDISC, upcard="6H", stock_top="9S"), 1, DRAW_DISCARD)
    rejected(st, 1, meld(["2H", "3H", "4H", "5H", "6H"], ["8C", "8D", "8S"]), "must_keep_discard")
    st = act(st, 1, meld(["2H", "3H", "4H", "5H", "6H"]), discard("8S"))
    assert st.hands[1] == ["8C", "8D"] and st.turn == 2


def test_opt_mandisc_1_with_gen_8_the_kept_card_must_be_discardable() -> None:
    """OPT-MANDISC-1 + GEN-8: keeping only the card just taken from the discard is refused."""
    st = act(deal(MANDISC), 1, DRAW_DISCARD)          # takes KD
    rejected(st, 1, meld(["2H", "3H", "4H", "5H"], ["8C", "8D", "8S"]), "no_discardable_card")
    rejected(st, 1, discard("KD"), "cannot_discard_taken_card")
    # Accepted: keep 5H as well and discard it; KD stays in hand for a later turn.
    st = act(st, 1, meld(["2H", "3H", "4H"], ["8C", "8D", "8S"]), discard("5H"))
    assert st.hands[1] == ["KD"] and st.turn == 2 and st.results == []


@pytest.mark.parametrize("options, out", [(MANDISC, False), ({}, True)])
def test_opt_mandisc_1_borrow_that_empties_the_hand(options: dict[str, Any], out: bool) -> None:
    """OPT-MANDISC-1 with OPT-BORROW: a borrow that uses the last hand cards is refused."""
    rules = match_rules("standard", {"borrowing": True, **options}, 2)
    d = Deal(hands=(("KC", "QC", "JC"), ("5H", "6H", "7H", "5C", "5D")),
             stock=("8H", "2S", "3S"), discard=("9D",))
    st = start_hand(new_match(rules), d, 0)
    st = act(st, 1, DRAW_STOCK, meld(["5H", "6H", "7H", "8H"]))
    borrow = {"type": "borrow", "meld": 0, "card": "5H", "into": ["5C", "5D", "5H"]}
    if not out:
        rejected(st, 1, borrow, "must_keep_discard")
    else:
        st, _ = apply(st, 1, borrow)
        assert st.results[-1].scores == (0, 30) and st.results[-1].winner == 1
