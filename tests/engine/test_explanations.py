"""Refusals and results that explain themselves: the real reason first, and the figures a
player's message names (RuleError.fields, HandResult.detail), on stacked deals."""

from __future__ import annotations

from app.engine.actions import parse_action
from app.engine.designate import could_meld
from app.engine.game import refusal
from app.engine.games import match_rules
from app.engine.state import State
from tests.engine.helpers import (
    DRAW_DISCARD,
    DRAW_STOCK,
    act,
    discard,
    lay_off,
    melds,
    rejected,
    stacked,
)
from tests.engine.test_phom import example_hand

# Kaluki: seat 0 may take the KD (KS KH KD + QS QH QD is worth 60) and also holds three twos.
TWOS_TAKER = ["KS", "KH", "QS", "QH", "QD", "JS", "JH", "JD", "2C", "2H", "2S", "3D", "7D", "9D",
              "4S"]
JUNK = ["2C", "4C", "6C", "8C", "TC", "2D", "4D", "6D", "8D", "TD", "3H", "5H", "7H", "9H", "AS"]


def took_kd() -> State:
    """Seat 1 draws the KD and discards it; seat 0 takes it (KALUKI-6)."""
    st = stacked("kaluki", [list(TWOS_TAKER), list(JUNK)], discard=["5C"],
                 stock_top=["KD", "8S"])
    st = act(st, 1, DRAW_STOCK, discard("KD"))
    return act(st, 0, DRAW_DISCARD)


def agrees(st: State, seat: int, action: dict[str, object], code: str) -> dict[str, object]:
    """``apply`` refuses with ``code``, ``game.refusal`` (verify alone) names it, and the error's
    fields (returned) travel in the room's error reply beside its four fixed fields."""
    error = rejected(st, seat, action, code)
    assert refusal(st, seat, parse_action(action)) == code
    reply = error.reply("a1")
    assert (reply["type"], reply["id"], reply["code"]) == ("error", "a1", code)
    return error.fields


def test_kaluki6_a_low_opening_without_the_taken_card_names_the_card():
    # KALUKI-6 before KALUKI-5: after taking the KD, a set of twos (6 points) that leaves out
    # the KD is refused for the KD, what the player must change first; one with the KD worth
    # too little (KS KH KD: 30) is refused for the 51-point minimum, with its figures.
    st = took_kd()
    assert agrees(st, 0, melds("2C 2H 2S"), "must_use_taken_card") == {"card": "KD"}
    assert agrees(st, 0, melds("KS KH KD"), "initial_meld_too_low") == {"need": 51, "points": 30}


def test_kaluki6_an_opening_worth_51_without_the_taken_card_names_it():
    # KALUKI-6: QS QH QD + JS JH JD is worth 60 but leaves out the KD taken: that is the reason.
    st = took_kd()
    assert agrees(st, 0, melds("QS QH QD", "JS JH JD"), "must_use_taken_card") == {"card": "KD"}
    assert agrees(st, 0, discard("3D"), "must_use_taken_card") == {"card": "KD"}
    st = act(st, 0, melds("KS KH KD", "QS QH QD"))  # the opening with the KD is taken
    assert st.opened[0] and st.must_use is None


# Standard, two players: seat 1 melds three fives and holds the 3H and the 5H.
FIVES = ["5C", "5D", "5S", "3H", "5H", "8C", "9D", "JS", "QH", "KC"]
OTHER = ["2C", "4D", "6S", "7H", "9C", "TD", "JC", "QS", "KD", "AH"]


def test_gen10_a_lay_off_that_does_not_fit_names_the_meld_and_the_card():
    # GEN-10: the 3H does not fit the set of fives: the refusal names meld 0 and the 3H; of
    # 5H and 3H laid together the 3H is named, the 5H alone would fit.
    st = stacked("standard", [list(OTHER), list(FIVES)], discard=["4C"], stock_top=["2D"])
    st = act(st, 1, DRAW_STOCK, melds("5C 5D 5S"))
    assert agrees(st, 1, lay_off(0, "3H"), "invalid_meld") == {"meld": 0, "card": "3H"}
    assert agrees(st, 1, lay_off(0, "5H 3H"), "invalid_meld") == {"meld": 0, "card": "3H"}
    act(st, 1, lay_off(0, "5H"))  # it fits alone


def test_gen3_a_new_meld_that_is_none_names_its_cards():
    # GEN-3: of two melds listed, the one that is no meld is named (A♣ 10♣ 2♦).
    st = stacked("standard", [list(OTHER), list(FIVES)], discard=["4C"], stock_top=["AC"])
    st = act(st, 1, DRAW_STOCK)
    fields = agrees(st, 1, melds("5C 5D 5S", "AC 8C 9D"), "invalid_meld")
    assert fields == {"cards": ["AC", "8C", "9D"]}


def test_std13_the_result_records_what_each_loser_owed():
    # STD-13: seat 1 goes out; seat 0 owed the 34 points left in its hand, seat 2 its 44, the
    # winner nothing.
    st = stacked("standard", [["AS", "2S", "3H", "4H", "6D", "8D", "TD"],
                              ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                              ["AH", "2H", "5S", "7S", "9S", "JS", "QH"]],
                 discard=["KC"], stock_top=["KS"])
    st = act(st, 1, DRAW_STOCK, melds("3C 4C 5C 6C 7C 8C 9C"), discard("KS"))
    result = st.results[-1]
    assert result.winner == 1
    assert result.detail["owed"] == [34, None, 44]
    assert result.to_json()["owed"] == [34, None, 44]
    assert result.scores == (0, 78, 0)


def test_phom11_the_showdown_records_each_players_place():
    # PHOM-11 example: A and B tie on 12 and A (seat 1) wins by play order; B is 2nd, C 3rd,
    # D (seat 0) is móm and has no place.
    result = example_hand().st.results[-1]
    assert result.detail["places"] == [None, 1, 2, 3]
    assert result.to_json()["places"] == [None, 1, 2, 3]


def test_gen3_only_groups_that_could_be_a_meld_may_be_staged():
    # GEN-3: A♣ 10♣ 2♦ is no meld in any order, nor are two cards; three fives are, a run listed
    # in any order is, and so is a group whose joker the player has yet to designate (GEN-4,
    # KALUKI-4: a joker in a set of three must be designated).
    standard = match_rules("standard", {}, 2).meld
    kaluki = match_rules("kaluki", {}, 2).meld
    assert not could_meld(["AC", "TC", "2D"], standard)
    assert not could_meld(["5C", "5D"], standard)
    assert could_meld(["5C", "5D", "5S"], standard)
    assert could_meld(["9H", "7H", "8H"], standard)
    assert could_meld(["5C", "JK", "5D"], kaluki)
    assert not could_meld(["5C", "JK", "9D"], kaluki)
