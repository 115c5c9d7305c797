"""Valid designations of a group's wild cards (GEN-4, GERMAN-5, KALUKI-4) and Phỏm's ``legal``
by turn (PHOM-9): what the client is offered is exactly what ``apply`` accepts."""

from __future__ import annotations

import pytest

from app.engine.designate import answer, designations, open_wilds
from app.engine.errors import IllegalAction, MalformedAction
from app.engine.games import match_rules
from app.engine.melds import extend_meld, form_meld
from app.engine.moves import legal_types
from tests.engine.helpers import DRAW_STOCK, act, discard
from tests.engine.test_phom import show, to_seat1_fourth_turn, two_player


def kaluki():
    return match_rules("kaluki", {}, 2).meld


def test_a_set_of_kings_with_a_joker_offers_the_two_missing_suits():
    # The case: K♣ K♦ + joker may be only K♥ or K♠, never 7♥.
    assert designations(["KC", "KD", "JK"], kaluki()) == [["KC", "KD", "JK:KH"],
                                                          ["KC", "KD", "JK:KS"]]


def test_a_gap_in_a_run_has_one_designation():
    assert designations(["5H", "JK", "7H"], kaluki()) == [["5H", "JK:6H", "7H"]]


def test_two_jokers_offer_sets_and_runs_each_once_listed_lowest_first():
    found = designations(["5H", "JK", "JK"], kaluki())
    assert ["JK:3H", "JK:4H", "5H"] in found
    assert ["5H", "JK:6H", "JK:7H"] in found
    assert ["5H", "JK:5C", "JK:5D"] in found
    assert len(found) == len({tuple(sorted(f)) for f in found}) == 6


def test_every_offer_is_accepted_and_nothing_else_is():
    rules = kaluki()
    cards = ["9S", "JK", "JS"]
    offered = designations(cards, rules)
    assert offered == [["9S", "JK:TS", "JS"]]
    for listing in offered:
        form_meld([_entry(c) for c in listing], rules)
    with pytest.raises(IllegalAction):
        form_meld([("9S", None), ("JK", "7H"), ("JS", None)], rules)


def test_a_lay_off_offers_either_end_of_the_run():
    rules = kaluki()
    meld = form_meld([("5H", None), ("6H", None), ("7H", None)], rules)
    assert designations(["JK"], rules, meld) == [["JK:4H"], ["JK:8H"]]
    for listing in designations(["JK"], rules, meld):
        extend_meld(meld, [_entry(c) for c in listing], rules)


def test_wild_twos_may_stand_for_themselves_when_natural():
    rules = match_rules("continental", {"twos_wild": True}, 3).meld
    assert open_wilds(["5H", "2C", "7H"], rules) == [1]
    assert designations(["5H", "2C", "7H"], rules) == [["5H", "2C:6H", "7H"]]
    assert ["2H", "3H", "4H"] in designations(["2H", "3H", "4H"], rules)


def test_no_wilds_or_no_fit_offers_nothing():
    rules = kaluki()
    assert designations(["5H", "6H", "7H"], rules) == []
    assert designations(["5H", "9C", "JK"], rules) == []


def test_a_query_reads_the_clients_codes_and_the_tables_meld():
    rules = kaluki()
    run = form_meld([("5H", None), ("6H", None), ("7H", None)], rules)
    assert answer(["kc", "kd", "jk"], rules, []) == {
        "wilds": [2], "options": [["KC", "KD", "JK:KH"], ["KC", "KD", "JK:KS"]], "valid": True}
    assert answer(["JK"], rules, [run], 0)["options"] == [["JK:4H"], ["JK:8H"]]
    with pytest.raises(MalformedAction) as bad:
        answer(["KC", "ZZ"], rules, [run])
    assert bad.value.code == "bad_card"
    with pytest.raises(IllegalAction) as missing:
        answer(["JK"], rules, [run], 1)  # one meld on the table: index 0
    assert missing.value.code == "no_such_meld"


def _entry(code: str) -> tuple[str, str | None]:
    card, _, designation = code.partition(":")
    return card, designation or None


# --- Phỏm's legal types follow PHOM-9 -------------------------------------------------------


def test_phom_show_is_legal_only_on_the_fourth_turn_and_lay_off_only_after_it():
    st = two_player()
    st = act(st, 1, discard("7H"))
    st = act(st, 0, DRAW_STOCK)
    assert "show" not in legal_types(st, 0) and "discard" in legal_types(st, 0)
    st = to_seat1_fourth_turn()
    assert st.turns == [3, 4]
    legal = legal_types(st, 1)
    assert "show" in legal and "discard" not in legal and "lay_off" not in legal  # must_show
    st = act(st, 1, show("JD QD KD"))
    assert "show" not in legal_types(st, 1) and "discard" in legal_types(st, 1)


# --- live aids in a seat's own view --------------------------------------------------------


def test_aids_follow_each_game():
    from app.engine.views import player_view
    from tests.engine.helpers import stacked

    knock = stacked("knock", [["AC", "2C", "3C", "9H", "9S", "KD", "QD", "5S", "6S", "7H"],
                              ["4D", "5D", "6D", "7D", "8D", "9D", "TD", "JC", "QC", "KC"]],
                    discard=["2H"], dealer=1)
    # Seat 0's best melds AC 2C 3C; the rest 9+9+10+10+5+6+7 = 56 deadwood.
    assert player_view(knock, 0)["aids"] == {"deadwood": 56}
    assert player_view(knock, None)["aids"] == {}
    german = stacked("german", [["KC", "KD", "KH", "5S", "6S", "7S", "2D", "9H", "3C", "4H",
                                 "8C", "TD", "JC"],
                                ["AD", "3D", "5D", "7D", "9D", "JD", "KS", "2S", "4S", "8D",
                                 "6C", "QH", "QD"]],
                     discard=["QC"])
    assert player_view(german, 1)["aids"]["opening"]["need"] == 40
    assert player_view(german, 0)["aids"]["opening"] == {"points": 48, "need": 40}
    spades, hearts = [r + "S" for r in "A23456789TJQK"], [r + "H" for r in "A23456789TJQK"]
    contract = stacked("continental", [spades[:13] + hearts[:2], hearts[2:13] + spades[:4],
                                       hearts[:4] + spades[4:13] + ["AD", "2D"]],
                       discard=["KC"])
    assert player_view(contract, 2)["aids"] == {"contract": [[5, 4, 3, 3], [4, 4, 4, 3],
                                                             [3, 3, 3, 3, 3]]}
    st = to_seat1_fourth_turn()
    assert player_view(st, 1)["aids"] == {"round": {"n": 4, "of": 4}}
