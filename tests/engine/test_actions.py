"""Malformed actions (PROTOCOL.md §3, docs/engine.md error codes), card codes (PROTOCOL.md §1)
and the JSON round trip of every action type. Rule anchors: GEN-7 (every action is atomic: a
refused action changes nothing) and GEN-1 (card codes)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from app.engine.actions import parse_action
from app.engine.cards import Card, parse_entry
from app.engine.errors import MalformedAction, RuleError
from app.engine.game import apply
from app.engine.state import State
from tests.engine.helpers import act, rejected, stacked


def fresh() -> State:
    """Two players, dealer 0: seat 1 is to draw."""
    return stacked("standard", [["KH", "QH", "JH", "TH", "9H", "8H", "AH", "AS", "AD", "AC"],
                                ["2C", "3C", "4C", "5C", "7D", "8D", "9D", "TS", "JS", "QS"]],
                   discard=["KD"], stock_top=["6C"])


def after_draw() -> State:
    return act(fresh(), 1, {"type": "draw", "source": "stock"})


def malformed(st: State, action: Any, code: str) -> None:
    """The action is refused as malformed with ``code`` and the state is unchanged."""
    error = rejected(st, 1, action, code)
    assert isinstance(error, MalformedAction)


# --- not an object / unknown type -----------------------------------------------------------


@pytest.mark.parametrize("action", [None, "draw", 42, 1.5, True, ["draw"], ("discard",)])
def test_gen7_non_object_action_is_malformed_action(action: Any):
    # Anything that is not a JSON object is refused as a whole.
    malformed(fresh(), action, "malformed_action")


@pytest.mark.parametrize("action", [{}, {"type": "fly"}, {"type": "DRAW", "source": "stock"},
                                    {"type": None}, {"type": 3}, {"type": ["draw"]},
                                    {"source": "stock"}, {"type": ""}])
def test_gen7_unknown_or_missing_type_is_unknown_action(action: dict[str, Any]):
    # No type, a non-string type or a type the protocol does not define.
    malformed(fresh(), action, "unknown_action")


# --- card codes -----------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["1X", "10H", "1H", "TX", "ZH", "", "T", "TDX", "JK:", " TD",
                                  5, None, ["TD"], {"card": "TD"}, True])
def test_gen1_bad_card_code_in_discard_is_bad_card(card: Any):
    # Only rank+suit codes (A 2..9 T J Q K, C D H S) and JK are cards.
    malformed(after_draw(), {"type": "discard", "card": card}, "bad_card")


@pytest.mark.parametrize("cards", [["2C", "3C", "1C"], ["2C", "3C", "4X"], ["2C", "3C", 4],
                                   ["2C", "JK:JK", "4C"], ["2C", "JK:10C", "4C"],
                                   ["2C", None, "4C"]])
def test_gen1_bad_card_in_meld_is_bad_card(cards: list[Any]):
    # One bad code spoils the whole meld action, including a wild standing for a joker.
    malformed(after_draw(), {"type": "meld", "melds": [cards]}, "bad_card")


def test_gen1_bad_card_in_lay_off_and_draw():
    # Lay-off cards and the optional draw card are card codes too.
    malformed(after_draw(), {"type": "lay_off", "meld": 0, "cards": ["10C"]}, "bad_card")
    malformed(fresh(), {"type": "draw", "source": "discard", "card": "10D"}, "bad_card")


def test_gen1_card_codes_are_case_insensitive_and_print_upper_case():
    # "td" is the ten of diamonds; output is always upper case.
    card = Card.parse("td")
    assert str(card) == "TD"
    assert card == Card.parse("TD")
    assert (card.rank, card.suit) == (10, "D")
    assert str(Card.parse("jk")) == "JK"
    assert parse_entry("jk:7h") == ("JK", "7H")
    assert parse_entry("7h") == ("7H", None)


@pytest.mark.parametrize("text", ["10H", "1X", "", "JKR", 7, None])
def test_gen1_card_parse_rejects_malformed_codes(text: Any):
    # Card.parse raises MalformedAction(bad_card), never another exception.
    with pytest.raises(MalformedAction) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"


def test_gen1_lower_case_discard_is_accepted_as_the_card():
    # {"card": "qs"} discards the queen of spades.
    st = act(after_draw(), 1, {"type": "discard", "card": "qs"})
    assert st.discard == ["KD", "QS"]


# --- missing fields -------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "needs_draw"), [
    ({"type": "draw"}, False),
    ({"type": "discard"}, True),
    ({"type": "meld"}, True),
    ({"type": "lay_off", "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": 0}, True),
    ({"type": "swap_joker", "meld": 0}, True),
    ({"type": "swap_joker", "card": "6C"}, True),
    ({"type": "borrow", "meld": 0, "card": "6C"}, True),
    ({"type": "borrow", "meld": 0, "into": ["6C", "7C", "8C"]}, True),
    ({"type": "knock"}, True),
    ({"type": "declare"}, True),
    ({"type": "show"}, True),
    ({"type": "call_rummy", "meld": 0}, True),
    ({"type": "call_rummy", "discard": "6C"}, True),
])
def test_gen7_missing_field_is_missing_field(action: dict[str, Any], needs_draw: bool):
    # Each action type names the fields it needs (PROTOCOL.md §3).
    malformed(after_draw() if needs_draw else fresh(), action, "missing_field")


# --- wrong field types ----------------------------------------------------------------------


@pytest.mark.parametrize(("action", "needs_draw"), [
    ({"type": "draw", "source": "pile"}, False),
    ({"type": "draw", "source": None}, False),
    ({"type": "draw", "source": ["stock"]}, False),
    ({"type": "draw", "source": "STOCK"}, False),
    ({"type": "meld", "melds": "2C 3C 4C"}, True),
    ({"type": "meld", "melds": ["2C", "3C", "4C"]}, True),
    ({"type": "meld", "melds": {"0": ["2C", "3C", "4C"]}}, True),
    ({"type": "meld", "melds": None}, True),
    ({"type": "lay_off", "meld": "0", "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": -1, "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": 1.0, "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": True, "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": None, "cards": ["6C"]}, True),
    ({"type": "lay_off", "meld": 0, "cards": "6C"}, True),
    ({"type": "lay_off", "meld": 0, "cards": None}, True),
    ({"type": "borrow", "meld": 0, "card": "6C", "into": "6C 7C 8C"}, True),
    ({"type": "call_rummy", "meld": "first", "discard": "6C"}, True),
])
def test_gen7_wrong_field_type_is_bad_field(action: dict[str, Any], needs_draw: bool):
    # Fields of the wrong JSON type or outside their domain.
    malformed(after_draw() if needs_draw else fresh(), action, "bad_field")


JUNK: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x", "2C", "JK:7H", [], [None], ["2C"],
                   [["2C"]], [[["2C"]]], {}, {"a": 1}, [{}], float("nan")]
FIELDS = {
    "draw": ["source", "card"], "meld": ["melds"], "lay_off": ["meld", "cards"],
    "swap_joker": ["meld", "card"], "borrow": ["meld", "card", "into"], "discard": ["card"],
    "knock": ["discard"], "declare": ["melds", "discard"], "show": ["melds"],
    "call_rummy": ["meld", "discard"],
}
VALID = {
    "draw": {"source": "stock"}, "meld": {"melds": [["2C", "3C", "4C"]]},
    "lay_off": {"meld": 0, "cards": ["5C"]}, "swap_joker": {"meld": 0, "card": "5C"},
    "borrow": {"meld": 0, "card": "5C", "into": ["5C", "6C", "7C"]},
    "discard": {"card": "QS"}, "knock": {"discard": "QS"},
    "declare": {"melds": [["2C", "3C", "4C"]], "discard": "QS"},
    "show": {"melds": [["2C", "3C", "4C"]]}, "call_rummy": {"meld": 0, "discard": "QS"},
}


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_gen7_junk_in_any_field_raises_only_rule_errors(kind: str):
    # Every field of every action type filled with junk, before and after drawing: the engine
    # answers with a RuleError (a MalformedAction if the junk made it malformed), never a crash.
    for st in (fresh(), after_draw()):
        before = st.to_json()
        for name in FIELDS[kind]:
            for junk in JUNK:
                action = {"type": kind, **VALID[kind], name: junk}
                with contextlib.suppress(RuleError):
                    apply(st, 1, action)
                assert st.to_json() == before


@pytest.mark.parametrize("junk", [None, "", "x", 1.5, [], {}])
def test_gen7_well_typed_card_fields_only_bad_card(junk: Any):
    # A discard whose card is junk is always bad_card, whoever sends it and whenever.
    for st in (fresh(), after_draw()):
        for seat in (0, 1):
            with pytest.raises(MalformedAction) as info:
                apply(st, seat, {"type": "discard", "card": junk})
            assert info.value.code == "bad_card"


def test_gen7_malformed_is_reported_before_turn_or_phase():
    # A malformed action from the wrong seat is malformed, not out of turn.
    st = fresh()
    error = rejected(st, 0, {"type": "discard", "card": "10H"}, "bad_card")
    assert isinstance(error, MalformedAction)


# --- JSON round trip ------------------------------------------------------------------------


@pytest.mark.parametrize("obj", [
    {"type": "draw", "source": "stock"},
    {"type": "draw", "source": "discard"},
    {"type": "draw", "source": "discard", "card": "TD"},
    {"type": "meld", "melds": [["2C", "3C", "4C"], ["6H", "JK:7H", "8H"]]},
    {"type": "lay_off", "meld": 2, "cards": ["5C", "JK:6C"]},
    {"type": "swap_joker", "meld": 1, "card": "7H"},
    {"type": "borrow", "meld": 0, "card": "5C", "into": ["5C", "5D", "5H"]},
    {"type": "discard", "card": "QS"},
    {"type": "knock", "discard": "AS"},
    {"type": "declare", "melds": [["2C", "3C", "4C"]], "discard": "QS"},
    {"type": "declare", "melds": [["2C", "3C", "4C"], ["JK", "9S", "TS"]], "discard": None},
    {"type": "show", "melds": [["9C", "9D", "9H"]]},
    {"type": "call_rummy", "meld": 3, "discard": "KD"},
])
def test_gen7_actions_round_trip_through_json(obj: dict[str, Any]):
    # parse_action(obj).to_json() == obj, and parsing that again gives the same action.
    action = parse_action(obj)
    assert action.type == obj["type"]
    assert action.to_json() == obj
    assert parse_action(action.to_json()) == action


def test_gen1_round_trip_normalises_case():
    # Lower-case input comes back upper case.
    action = parse_action({"type": "meld", "melds": [["td", "jk:jd", "qd"]]})
    assert action.to_json() == {"type": "meld", "melds": [["TD", "JK:JD", "QD"]]}
    assert parse_action({"type": "discard", "card": "td"}).to_json() == \
        {"type": "discard", "card": "TD"}


def test_gen7_typed_actions_are_accepted_by_apply():
    # apply takes a parsed action as well as its JSON.
    st = fresh()
    a, _ = apply(st, 1, parse_action({"type": "draw", "source": "stock"}))
    b, _ = apply(st, 1, {"type": "draw", "source": "stock"})
    assert a.to_json() == b.to_json()
    assert a.hands[1][-1] == "6C"
