"""Scenario tests for Around the Corner, OPT-ATC-1..2 (RULES.md §3.3), on Standard Rummy.

Two players, dealer 0, seat 1 plays first.
"""

from __future__ import annotations

from typing import Any

from app.engine.state import Phase, State
from tests.engine.helpers import act, rejected, stacked

ATC = {"around_the_corner": True}
DRAW = {"type": "draw", "source": "stock"}
RANKS = "A23456789TJQK"

# Seat 1 holds a spade run from 6 round the corner to the ace, plus AC.
# Seat 0 holds the rest of the spades' corner (2S 3S 5S, draws 4S) and a diamond corner run.
SEAT0 = ["2S", "3S", "5S", "KD", "AD", "2D", "3D", "QD", "4D", "5D"]
SEAT1 = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "AC"]
UPCARD = ["7H"]
STOCK = ["8H", "4S", "9H"]


def meld(*cards: str) -> dict[str, Any]:
    return {"type": "meld", "melds": [list(cards)]}


def lay_off(meld_no: int, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": meld_no, "cards": list(cards)}


def cards_of(st: State, meld_no: int) -> list[str]:
    return [p.card for p in st.melds[meld_no].cards]


def deal(options: dict[str, Any] | None = None) -> State:
    return stacked("standard", [SEAT0, SEAT1], options=ATC if options is None else options,
                   discard=UPCARD, stock_top=STOCK)


def seat0_to_play() -> State:
    """Seat 1 melds 6S..KS AS (9 cards, past the king to the ace), discards 8H, keeps AC;
    seat 0 draws 4S."""
    st = act(deal(), 1, DRAW, meld("6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"),
             {"type": "discard", "card": "8H"})
    assert st.hands[1] == ["AC"]
    return act(st, 0, DRAW)


# --- OPT-ATC-1: the ace turns the corner ---------------------------------------------------

def test_opt_atc_1_ace_above_king_in_a_run() -> None:
    """OPT-ATC-1: 6S..KS AS is a run with the ace above the king."""
    st = seat0_to_play()
    assert cards_of(st, 0) == ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    assert st.melds[0].kind == "run" and st.melds[0].owner == 1


def test_opt_atc_1_k_a_2_3_run_accepted() -> None:
    """OPT-ATC-1: KD AD 2D 3D is a legal run (the page's own example)."""
    st = act(seat0_to_play(), 0, meld("KD", "AD", "2D", "3D"))
    assert cards_of(st, 1) == ["KD", "AD", "2D", "3D"]
    assert st.melds[1].kind == "run" and st.melds[1].owner == 0


def test_opt_atc_1_lay_offs_at_both_ends_in_cyclic_order() -> None:
    """OPT-ATC-1: QD goes below the king, 4D then 5D above the three."""
    st = act(seat0_to_play(), 0, meld("KD", "AD", "2D", "3D"), lay_off(1, "QD"))
    assert cards_of(st, 1) == ["QD", "KD", "AD", "2D", "3D"]
    st = act(st, 0, lay_off(1, "4D"), lay_off(1, "5D"))
    assert cards_of(st, 1) == ["QD", "KD", "AD", "2D", "3D", "4D", "5D"]


def test_opt_atc_1_lay_off_with_a_gap_rejected() -> None:
    """OPT-ATC-1, GEN-10: 5D does not follow 3D (4D is missing); QD 4D together are fine."""
    st = act(seat0_to_play(), 0, meld("KD", "AD", "2D", "3D"))
    rejected(st, 0, lay_off(1, "5D"), "invalid_meld")
    rejected(st, 0, lay_off(1, "4D", "2S"), "invalid_meld")
    st = act(st, 0, lay_off(1, "QD", "4D"))
    assert cards_of(st, 1) == ["QD", "KD", "AD", "2D", "3D", "4D"]


def test_opt_atc_1_run_grows_to_13_cards_and_goes_out() -> None:
    """OPT-ATC-1: 2S 3S 4S go above the ace, 5S below the six: 13 cards, all ranks once.
    Seat 0 then melds the diamond corner run, lays off everything and goes out; seat 1's
    AC counts 11 (OPT-ATC-2)."""
    st = act(seat0_to_play(), 0, lay_off(0, "2S", "3S", "4S"))
    assert cards_of(st, 0)[-4:] == ["AS", "2S", "3S", "4S"]
    st = act(st, 0, lay_off(0, "5S"))
    run = cards_of(st, 0)
    assert len(run) == 13 and sorted(run) == sorted(r + "S" for r in RANKS)
    # A full cycle: each card is followed by its cyclic successor (GEN-3).
    for a, b in zip(run, run[1:]):
        assert RANKS.index(b[0]) == (RANKS.index(a[0]) + 1) % 13
    st = act(st, 0, meld("KD", "AD", "2D", "3D"), lay_off(1, "QD"), lay_off(1, "4D"))
    st = act(st, 0, lay_off(1, "5D"))
    result = st.results[-1]
    assert result.winner == 0 and result.reason == "went_out"
    assert result.scores == (11, 0)
    assert st.phase is Phase.HAND_OVER


def test_opt_atc_1_wrong_listing_order_rejected() -> None:
    """OPT-ATC-1, GEN-3: each card must be followed by its cyclic successor."""
    st = seat0_to_play()
    rejected(st, 0, meld("AD", "KD", "2D"), "invalid_meld")
    rejected(st, 0, meld("3D", "2D", "AD", "KD"), "invalid_meld")
    rejected(st, 0, meld("KD", "2D", "3D"), "invalid_meld")  # gap at the ace


def test_opt_atc_1_without_option_k_a_2_is_invalid() -> None:
    """OPT-ATC-1 (control), STD-5: under ACE_LOW K-A-2 and Q-K-A are not runs."""
    st = act(deal({}), 1, DRAW)
    rejected(st, 1, meld("QS", "KS", "AS"), "invalid_meld")
    rejected(st, 1, meld("6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"), "invalid_meld")
    st = act(st, 1, {"type": "discard", "card": "8H"})
    st = act(st, 0, DRAW)
    rejected(st, 0, meld("KD", "AD", "2D"), "invalid_meld")
    rejected(st, 0, meld("KD", "AD", "2D", "3D"), "invalid_meld")
    st = act(st, 0, meld("AD", "2D", "3D"))  # the ace is low
    assert cards_of(st, 0) == ["AD", "2D", "3D"]
    rejected(st, 0, lay_off(0, "KD"), "invalid_meld")


# --- OPT-ATC-2: an ace left in hand counts 11 ----------------------------------------------

ACE_HOLDER = ["AC", "AD", "AH", "2C", "5C", "9C", "KC", "3D", "4D", "6H"]  # 33 + 39 = 72
SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]


def spades_go_out(options: dict[str, Any]) -> State:
    """Seat 1 draws QS and melds 2S..QS (11 cards), going out without a discard."""
    st = stacked("standard", [ACE_HOLDER, SPADES], options=options, discard=["7H"],
                 stock_top=["QS"])
    return act(st, 1, DRAW, meld(*SPADES, "QS"))


def test_opt_atc_2_aces_in_hand_count_11() -> None:
    """OPT-ATC-2: three aces at 11 plus 2+5+9+10+3+4+6 = 72."""
    st = spades_go_out(ATC)
    assert st.results[-1].winner == 1 and st.results[-1].scores == (0, 72)
    assert st.totals == [0, 72]


def test_opt_atc_2_without_option_aces_count_1() -> None:
    """OPT-ATC-2 (control), GEN-16: without the option the same hand is worth 42."""
    st = spades_go_out({})
    assert st.results[-1].scores == (0, 42)
