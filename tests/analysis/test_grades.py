"""The analysis on stacked deals where the best move is known by hand (PROTOCOL.md §10), and the
information rule: what a seat could not see never changes its grades."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.analysis import Decision, analyse
from app.analysis.report import grade_of

from .logs import hand_log, parsed

DRAW = {"type": "draw", "source": "stock"}
TAKE = {"type": "draw", "source": "discard"}
BAD = ("mistake", "blunder")
# Seat 1 (left of dealer 0, first to play, GEN-6) holds three melds of ten cards.
MELDED = ["AS", "2S", "3S", "4S", "4H", "5H", "6H", "7C", "7D", "7S"]
OTHER = ["AH", "2H", "3D", "4C", "5S", "6D", "7H", "8C", "9S", "JD"]
ALL_MELDS = {"type": "meld", "melds": [["AS", "2S", "3S", "4S"], ["4H", "5H", "6H"],
                                       ["7C", "7D", "7S"]]}


def discard(card: str) -> dict[str, str]:
    return {"type": "discard", "card": card}


def decision(log: dict[str, Any], index: int, key: str = "m") -> Decision:
    found = [d for d in analyse(parsed(log), key).decisions if d.index == index]
    assert found, f"no decision at index {index}"
    return found[0]


def test_standard_going_out_at_once_is_best_with_no_loss():
    # STD-10: seat 1 draws KD, melds all ten cards and goes out discarding KD.
    log = hand_log("standard", [OTHER, MELDED], [(1, DRAW), (1, ALL_MELDS), (1, discard("KD"))],
                   stock_top=["KD"], discard=["QC"])
    melded = decision(log, 1)
    assert (melded.grade, melded.loss) == ("best", 0.0)


def test_standard_passing_up_going_out_is_a_blunder():
    # Seat 1 could meld everything and go out; it discards KD holding its melds instead.
    log = hand_log("standard", [OTHER, MELDED], [(1, DRAW), (1, discard("KD"))],
                   stock_top=["KD"], discard=["QC"])
    held = decision(log, 1)
    assert held.grade == "blunder"
    assert held.best.type == "meld"


def test_standard_throwing_away_the_card_that_wins():
    # Seat 1 draws 7S, which completes its third meld (it could go out throwing 9C): it throws
    # the 7S away.
    hand = ["AS", "2S", "3S", "4S", "4H", "5H", "6H", "7C", "7D", "9C"]
    log = hand_log("standard", [OTHER, hand], [(1, DRAW), (1, discard("7S"))],
                   stock_top=["7S"], discard=["QC"])
    thrown = decision(log, 1)
    assert thrown.grade in BAD
    assert thrown.loss > 0


def test_knock_at_zero_is_best():
    # KNOCK-4, KNOCK-6: seat 1 draws KD and knocks with no deadwood, discarding it (the rum
    # bonus, and no hidden hand can undercut a knock at 0).
    log = hand_log("knock", [OTHER, MELDED], [(1, DRAW), (1, {"type": "knock", "discard": "KD"})],
                   stock_top=["KD"], discard=["QC"])
    knocked = decision(log, 1)
    assert (knocked.grade, knocked.loss) == ("best", 0.0)


def test_knock_not_knocking_at_zero_is_bad():
    log = hand_log("knock", [OTHER, MELDED], [(1, DRAW), (1, discard("KD"))],
                   stock_top=["KD"], discard=["QC"])
    held = decision(log, 1)
    assert held.grade in BAD
    assert held.best.type == "knock"


# Seat 0 takes seat 1's QD and QC from the discard pile (GEN-14: both seats know it holds them),
# then seat 1 draws QH: throwing QH feeds the set, throwing KC (no king seen) is safe.
FEEDER = ["2C", "4D", "6S", "8H", "TS", "KC", "3H", "5C", "9D", "JS"]
TAKER = ["AH", "2H", "3D", "4C", "5S", "6D", "7H", "8C", "9S", "JD"]


def _feed(last: str, rest: list[str] | None = None, hands: list[list[str]] | None = None
          ) -> dict[str, Any]:
    actions = [(1, DRAW), (1, discard("QD")), (0, TAKE), (0, discard("9S")),
               (1, DRAW), (1, discard("QC")), (0, TAKE), (0, discard("8C")),
               (1, DRAW), (1, discard(last))]
    return hand_log("standard", hands or [TAKER, FEEDER], actions,
                    stock_top=["QD", "QC", "QH"], discard=["AD"], rest=rest)


def test_a_discard_that_feeds_an_obvious_meld_is_graded_worse_than_a_safe_one():
    fed, safe = decision(_feed("QH"), 9), decision(_feed("KC"), 9)
    assert fed.loss > safe.loss
    order = ["best", "good", "inaccuracy", "mistake", "blunder"]
    assert order.index(fed.grade) > order.index(safe.grade)


def test_the_same_match_gives_the_same_analysis():
    log = parsed(_feed("QH"))
    assert analyse(log, "m1") == analyse(log, "m1")


def _unseen_by_seat_1() -> tuple[list[str], list[str]]:
    """Seat 0's cards it never showed, and the stock below the three cards seat 1 drew."""
    hidden = [c for c in TAKER if c not in ("9S", "8C")]
    log = _feed("QH")
    return hidden, log["hands"][0]["deal"]["stock"][3:]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_information_rule_hidden_cards_do_not_change_a_seats_grades(data):
    hidden, stock = _unseen_by_seat_1()
    shuffled = data.draw(st.permutations(hidden + stock))
    taker = [*shuffled[:len(hidden)], "9S", "8C"]
    log = _feed("QH", rest=shuffled[len(hidden):], hands=[taker, FEEDER])
    mine = [d for d in analyse(parsed(log), "m").decisions if d.seat == 1]
    original = [d for d in analyse(parsed(_feed("QH")), "m").decisions if d.seat == 1]
    assert mine == original


def test_thresholds_scale_with_the_game():
    assert grade_of(0.0, 1.0) == "best"
    assert grade_of(20.0, 1.0) == "blunder"
    assert grade_of(1.0, 0.05) == "blunder"  # Nowrang: a whole hand is one point
