"""Rummy calls in the analysis (OPT-CALL, docs/analysis.md): a call made is judged against the
caller's other calls in that window and against not calling, the call taken as winning; a call
not made is never listed.

The deal of tests/engine/test_opt_call.py (Standard, three players, dealer 0): seat 1 draws 2C,
melds 2H 3H 4H (meld 0) and discards 5H, which fits it (OPT-CALL-1).
"""

from __future__ import annotations

from typing import Any

from app.analysis import Decision, analyse
from app.engine.actions import parse_action

from .logs import hand_log, parsed

HANDS = [["AH", "6S", "7D", "8S", "JC", "QS", "3C"],
         ["2H", "3H", "4H", "5H", "9C", "TD", "KS"],
         ["6C", "7C", "8C", "JD", "QD", "KD", "4S"]]
DRAW = {"type": "draw", "source": "stock"}
OPENING = [(1, DRAW), (1, {"type": "meld", "melds": [["2H", "3H", "4H"]]}),
           (1, {"type": "discard", "card": "5H"})]


def call(card: str) -> dict[str, Any]:
    return {"type": "call_rummy", "meld": 0, "discard": card}


def log(*then: tuple[int, dict[str, Any]], opening: list[tuple[int, dict[str, Any]]] = OPENING
        ) -> dict[str, Any]:
    return hand_log("standard", HANDS, [*opening, *then], stock_top=["2C", "2D", "3D", "4D"],
                    discard=["9H"], options={"call_rummy": True})


def judged(played: dict[str, Any], index: int = 3,
           opening: list[tuple[int, dict[str, Any]]] = OPENING) -> Any:
    decisions = analyse(parsed(log(played, (2, DRAW), opening=opening)), "c").decisions
    found = [d for d in decisions if d.index == index]
    assert len(found) == 1
    return found[0]


def test_a_call_that_goes_out_is_best_with_no_loss():
    # OPT-CALL-6: seat 2 is down to 4S when seat 1 throws 5H; calling it onto 2H 3H 4H and
    # throwing 4S empties its hand: it goes out (the test_opt_call.py ``late`` table).
    late = [(1, DRAW), (1, {"type": "meld", "melds": [["2H", "3H", "4H"]]}),
            (1, {"type": "discard", "card": "2C"}),
            (2, DRAW), (2, {"type": "meld", "melds": [["6C", "7C", "8C"], ["JD", "QD", "KD"]]}),
            (2, {"type": "discard", "card": "2D"}),
            (0, DRAW), (0, {"type": "discard", "card": "3D"}),
            (1, DRAW), (1, {"type": "discard", "card": "5H"})]
    called = analyse(parsed(hand_log("standard", HANDS, [*late, (2, call("4S"))],
                                     stock_top=["2C", "2D", "3D", "4D"], discard=["9H"],
                                     options={"call_rummy": True})), "c").decisions[-1]
    assert (called.index, called.seat, called.played.type) == (10, 2, "call_rummy")
    assert (called.grade, called.loss) == ("best", 0.0)


def test_a_call_shedding_the_ace_is_worse_than_shedding_a_court_card():
    # Seat 0 (AH 6S 7D 8S JC QS 3C) calls 5H and throws AH (1) where QS or JC (10) were there:
    # nine points more deadwood kept (GEN-12); calling at all beats not calling.
    ace, queen = judged((0, call("AH"))), judged((0, call("QS")))
    assert ace.loss > queen.loss
    assert ace.grade in ("inaccuracy", "mistake", "blunder")
    assert ace.best is not None and ace.best.to_json()["discard"] != "AH"


def test_a_call_not_made_is_not_listed():
    # Seat 0 and seat 2 could call 5H; nobody does: seat 2 draws. No decision names a call.
    decisions = analyse(parsed(log((2, DRAW), (2, {"type": "discard", "card": "4S"}))),
                        "c").decisions
    assert [d.index for d in decisions if d.seat == 2] == [3, 4]  # the hand was read through
    assert all(d.played.type != "call_rummy" and d.best is not None for d in decisions)


def test_not_calling_as_best_is_written_no_call():
    # §10 extension (docs/analysis.md): a judged call whose best answer was to let it go.
    letting_go = Decision(0, 3, 0, parse_action(call("AH")), None, 1.0, "good")
    assert letting_go.to_json()["best"] == {"type": "no_call"}
