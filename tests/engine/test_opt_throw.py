"""OPT-THROW (Throw Down Rummy, RULES.md §3.13) on Standard Rummy.

The discard pile becomes an open area (PROTOCOL.md §3: `draw` with `source: discard` and the
`card`). State order of the area is the time order of discards (docs/engine.md).
"""

from __future__ import annotations

from typing import Any

from app.engine.deal import Deal
from app.engine.game import new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import DRAW_STOCK, act, discard, rejected, stacked

THROW = {"throw_down": True}
SEAT0 = ["KC", "KD", "QC", "QD", "JC", "JD", "9H", "8H", "7S", "6S"]
SEAT1 = ["AC", "2C", "3C", "4D", "5D", "6D", "TH", "TS", "2H", "3S"]
def take(card: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "draw", "source": "discard"}
    if card is not None:
        action["card"] = card
    return action


def area_of_three(options: dict[str, Any]) -> State:
    """2 players, upcard 9C; seat 1 throws TS, seat 0 throws KD: the area is 9C TS KD."""
    st = stacked("standard", [SEAT0, SEAT1], options=options, discard=["9C"],
                 stock_top=["5S", "4S", "8C"])
    st = act(st, 1, DRAW_STOCK, discard("TS"))
    st = act(st, 0, DRAW_STOCK, discard("KD"))
    assert st.discard == ["9C", "TS", "KD"] and st.turn == 1
    return st


def test_opt_throw_1_2_take_any_card_of_the_area() -> None:
    """OPT-THROW-1/2: seat 1 takes the buried upcard 9C; the rest of the area stays."""
    st = act(area_of_three(THROW), 1, take("9C"))
    assert st.hands[1][-1] == "9C"
    assert st.discard == ["TS", "KD"] and st.taken == ["9C"]


def test_opt_throw_2_card_required_and_card_not_available() -> None:
    """OPT-THROW-2: the card must be named and must lie in the area."""
    st = area_of_three(THROW)
    rejected(st, 1, take(), "card_required")
    rejected(st, 1, take("KC"), "card_not_available")      # in seat 0's hand
    rejected(st, 1, take("5S"), "card_not_available")      # drawn by seat 1 earlier
    # Taking the stock top is still allowed.
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-1] == "8C" and st.discard == ["9C", "TS", "KD"]


def test_opt_throw_2_only_one_card_per_turn() -> None:
    """OPT-THROW-2: one card is taken per turn."""
    st = act(area_of_three(THROW), 1, take("TS"))
    rejected(st, 1, take("9C"), "already_drew")
    rejected(st, 1, DRAW_STOCK, "already_drew")


def test_opt_throw_2_gen_8_applies_to_the_taken_card() -> None:
    """OPT-THROW-2 + GEN-8: the card taken from the area cannot be discarded this turn."""
    st = act(area_of_three(THROW), 1, take("9C"))
    rejected(st, 1, discard("9C"), "cannot_discard_taken_card")
    st = act(st, 1, discard("2H"))
    assert st.discard == ["TS", "KD", "2H"] and st.turn == 0


def test_opt_throw_2_contrast_without_the_option_only_the_top() -> None:
    """STD-7 contrast: without throw_down only the top discard can be taken."""
    st = area_of_three({})
    rejected(st, 1, take("9C"), "card_not_available")
    st = act(st, 1, take("KD"))
    assert st.hands[1][-1] == "KD" and st.discard == ["9C", "TS"]


def test_opt_throw_4_restock_keeps_the_latest_discard() -> None:
    """OPT-THROW-4: the latest discard stays; the others become the stock, oldest on top."""
    rules = match_rules("standard", THROW, 2)
    d = Deal(hands=(("KC", "QC", "JD"), ("5H", "6H", "2S")), stock=(),
             discard=("4C", "7D", "9S", "TH"))
    st = start_hand(new_match(rules), d, 0)
    st = act(st, 1, take("7D"), discard("2S"))       # area in time order: 4C 9S TH 2S
    assert st.discard == ["4C", "9S", "TH", "2S"]
    st = act(st, 0, DRAW_STOCK)
    assert st.hands[0][-1] == "4C"
    assert st.stock == ["9S", "TH"] and st.discard == ["2S"]


def test_opt_throw_4_one_card_area_cannot_restock() -> None:
    """OPT-THROW-4 / GEN-13: with one card in the area, the stock draw is stock_empty."""
    rules = match_rules("standard", THROW, 2)
    d = Deal(hands=(("KC", "QC"), ("5H", "6H")), stock=(), discard=("4C",))
    st = start_hand(new_match(rules), d, 0)
    rejected(st, 1, DRAW_STOCK, "stock_empty")
    st = act(st, 1, take("4C"))
    assert st.discard == []


def test_opt_throw_5_call_rummy_calls_the_card_just_thrown() -> None:
    """OPT-THROW-5 / OPT-CALL-9: the callable card is the one just thrown, not a buried one."""
    rules = match_rules("standard", THROW | {"call_rummy": True}, 3)
    d = Deal(hands=(("4D", "4S", "QC"), ("5H", "6H", "7H", "4H", "KD"), ("8H", "2C", "3S")),
             stock=("TC", "2D", "9D", "5C"), discard=("JS",))
    st = start_hand(new_match(rules), d, 0)
    st = act(st, 1, DRAW_STOCK, {"type": "meld", "melds": [["5H", "6H", "7H"]]}, discard("4H"))
    assert st.call is not None and st.call.card == "4H"     # 4H fits: a window opens
    st = act(st, 2, DRAW_STOCK)                               # nobody called: the window closes
    st = act(st, 2, discard("8H"))
    assert st.call is not None and st.call.card == "8H"
    st = act(st, 0, {"type": "call_rummy", "meld": 0, "discard": "QC"})
    st = act(st, 0, DRAW_STOCK)                               # closes the window: call applied
    assert st.melds[0].codes == ["5H", "6H", "7H", "8H"]
    assert st.discard == ["JS", "4H", "QC"]                   # the buried 4H stays in the area
    assert sorted(st.hands[0]) == ["4D", "4S", "9D"]


def test_opt_throw_5_no_window_on_a_buried_callable_card() -> None:
    """OPT-THROW-5: a callable card lying in the area does not open a window later."""
    rules = match_rules("standard", THROW | {"call_rummy": True}, 3)
    d = Deal(hands=(("4D", "4S", "QC"), ("5H", "6H", "7H", "4H", "KD"), ("8H", "2C", "3S")),
             stock=("TC", "2D", "9D", "5C"), discard=("JS",))
    st = start_hand(new_match(rules), d, 0)
    st = act(st, 1, DRAW_STOCK, {"type": "meld", "melds": [["5H", "6H", "7H"]]}, discard("4H"))
    st = act(st, 2, DRAW_STOCK, discard("2C"))                # 2C fits nothing: no window
    assert st.call is None and "4H" in st.discard
    rejected(st, 0, {"type": "call_rummy", "meld": 0, "discard": "QC"}, "call_window_closed")


def test_opt_throw_5_block_must_take_some_card_from_the_area() -> None:
    """OPT-THROW-5 + OPT-BLOCK-2: stock empty: take any area card (named), or end the hand."""
    rules = match_rules("standard", THROW | {"block_rummy": True}, 2)
    d = Deal(hands=(("KC", "QC"), ("5H", "6H")), stock=(), discard=("4C", "7D", "9S"))
    st = start_hand(new_match(rules), d, 0)
    rejected(st, 1, take(), "card_required")
    rejected(st, 1, take("KC"), "card_not_available")
    taken = act(st, 1, take("4C"))                            # a buried card: accepted
    assert taken.hands[1][-1] == "4C" and taken.discard == ["7D", "9S"]
    ended = act(st, 1, DRAW_STOCK)                            # declining ends the hand
    result = ended.results[-1]
    assert (result.winner, result.reason, result.scores) == (1, "blocked", (0, 9))
    assert ended.discard == ["4C", "7D", "9S"]
