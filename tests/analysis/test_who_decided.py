"""Who decided (PROTOCOL.md §10, docs/analysis.md): a move the server made for a person's seat
(``played_for``) is listed with its mark and graded for information only; the seat's figures
count only its player's own decisions, and a seat with none has no accuracy. An analysis stored
before the rule is brought up to it (``reweigh``) exactly as a fresh one is made.

Standard, dealer 0: seat 1 (first to play) holds three melds of ten cards; seat 0 nothing.
Seat 1 draws KD and throws it holding its melds (the blunder of test_grades.py): the stand-in's
move here. Seat 0 draws JH and throws it; seat 1's timer runs out on its next turn (KS).
"""

from __future__ import annotations

import copy
from typing import Any

from app.analysis import analyse
from app.analysis.report import VERSION, accuracy, is_current, reweigh

from .logs import hand_log, parsed
from .test_grades import DRAW, MELDED, OTHER, discard

PLAYED_FOR = {1: "stand_in", 4: "timeout", 5: "timeout"}  # by index in the hand's actions


def _log(played_for: dict[int, str]) -> dict[str, Any]:
    log = hand_log("standard", [OTHER, MELDED],
                   [(1, DRAW), (1, discard("KD")), (0, DRAW), (0, discard("JH")),
                    (1, DRAW), (1, discard("KS"))],
                   stock_top=["KD", "JH", "KS"], discard=["QC"])
    for index, why in played_for.items():
        log["hands"][0]["actions"][index]["played_for"] = why
    return log


def test_the_servers_moves_are_marked_graded_and_not_counted() -> None:
    plain = analyse(parsed(_log({})), "who")
    marked = analyse(parsed(_log(PLAYED_FOR)), "who")
    # The same decisions and grades, the server's marked with why.
    assert [(d.index, d.grade, d.loss) for d in marked.decisions] == [
        (d.index, d.grade, d.loss) for d in plain.decisions]
    assert {d.index: d.played_for for d in marked.decisions} == {
        d.index: PLAYED_FOR.get(d.index) for d in plain.decisions}
    blunder = next(d for d in marked.decisions if d.index == 1)
    assert (blunder.grade, blunder.played_for) == ("blunder", "stand_in")
    assert blunder.to_json()["played_for"] == "stand_in"
    # Seat 1's figures are its own draw's alone; seat 0 made every move of its own.
    own = [d.loss for d in marked.decisions if d.seat == 1 and d.index not in PLAYED_FOR]
    assert own, "seat 1's own draw is a decision"
    seat = marked.seats[1]
    assert (seat.decisions, seat.accuracy, seat.loss) == (
        len(own), accuracy(own, 1.0), round(sum(own), 2))
    assert plain.seats[1].decisions > seat.decisions
    assert plain.seats[1].accuracy is not None and seat.accuracy is not None
    assert plain.seats[1].accuracy < seat.accuracy  # the blunder was not seat 1's player's
    assert marked.seats[0] == plain.seats[0]


def test_a_seat_with_no_decision_of_its_own_has_no_accuracy() -> None:
    every = {0: "stand_in", **PLAYED_FOR}
    found = analyse(parsed(_log(every)), "who").to_json()
    assert found["version"] == VERSION
    assert found["seats"][1] | {"luck": None} == {
        "seat": 1, "decisions": 0, "accuracy": None, "loss": 0.0, "luck": None}
    assert all(d["played_for"] for d in found["decisions"] if d["seat"] == 1)


def test_an_analysis_stored_before_the_rule_is_reweighed_as_a_fresh_one_is_made() -> None:
    for played_for in (PLAYED_FOR, {0: "stand_in", **PLAYED_FOR}, {}):
        stored = analyse(parsed(_log({})), "who").to_json()
        del stored["version"]  # as an analysis made before the rule was stored
        assert not is_current(stored)
        kept = copy.deepcopy(stored)
        marks = {(0, index): why for index, why in played_for.items()}
        again = reweigh(stored, "standard", marks)
        assert again == analyse(parsed(_log(played_for)), "who").to_json()
        assert is_current(again) and stored == kept  # the stored value itself is left alone
