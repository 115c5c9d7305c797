"""Scenario tests for the general model (RULES.md §1, GEN-1 .. GEN-16) as it applies to Standard
Rummy, plus the meld validator under every ace model and with wild cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import JOKER, Card, Placed, standard_pack
from app.engine.deal import shuffled_deal
from app.engine.errors import IllegalAction
from app.engine.game import MAX_RESTOCKS, apply, new_match, next_dealer
from app.engine.games import match_rules
from app.engine.melds import AceModel, Meld, MeldRules, extend_meld, form_meld
from app.engine.state import Phase, State
from app.engine.views import player_view, redact_events
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


def entries(listing: str) -> list[tuple[str, str | None]]:
    """'6H JK:7H 8H' -> [("6H", None), ("JK", "7H"), ("8H", None)]."""
    out: list[tuple[str, str | None]] = []
    for item in listing.split():
        card, _, target = item.partition(":")
        out.append((card, target or None))
    return out


def meld(listing: str, rules: MeldRules) -> Meld:
    return form_meld(entries(listing), rules)


def shown(m: Meld) -> str:
    """A meld as PROTOCOL text, wild cards with their designation."""
    return " ".join(str(p) for p in m.cards)


def bad_meld(listing: str, rules: MeldRules, code: str = "invalid_meld") -> None:
    with pytest.raises(IllegalAction) as info:
        meld(listing, rules)
    assert info.value.code == code, info.value


def strings(obj: Any) -> set[str]:
    """Every string (key or value) anywhere in a JSON-like structure."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(k) | strings(v) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


LOW = MeldRules(ace=AceModel.LOW)
HIGH_OR_LOW = MeldRules(ace=AceModel.HIGH_OR_LOW)
WRAP = MeldRules(ace=AceModel.WRAP)
HIGH_ONLY = MeldRules(ace=AceModel.HIGH_ONLY)
JOKERS = MeldRules(ace=AceModel.LOW, wilds=frozenset({JOKER}))

# A two-player Standard deal used by several tests: seat 1 (dealer's left) plays first.
SEAT1_HAND = ["2C", "3C", "4C", "5C", "7D", "8D", "9D", "TS", "JS", "QS"]
SEAT0_HAND = ["KH", "QH", "JH", "TH", "9H", "8H", "AH", "AS", "AD", "AC"]


def two_player(upcard: str = "KD", stock_top: list[str] | None = None) -> State:
    return stacked("standard", [list(SEAT0_HAND), list(SEAT1_HAND)], discard=[upcard],
                   stock_top=stock_top or ["6S", "7S"])


# --- GEN-1 cards and packs ------------------------------------------------------------------


def test_gen1_standard_pack_has_52_distinct_cards_and_no_joker():
    # One pack: 4 suits x 13 ranks, each card once, no joker.
    pack = standard_pack()
    assert len(pack) == 52
    assert len(set(pack)) == 52
    assert JOKER not in pack
    assert {c[1] for c in pack} == set("CDHS")
    assert {c[0] for c in pack} == set("A23456789TJQK")
    assert match_rules("standard", {}, 4).pack_size() == (1, 0)


def test_gen1_two_packs_share_codes_and_joker_has_no_rank_or_suit():
    # Several packs shuffled together: identical cards share one code; a joker is rank-less.
    pack = standard_pack(2, 2)
    assert len(pack) == 106
    assert pack.count("7H") == 2
    assert pack.count(JOKER) == 2
    joker = Card.parse("jk")
    assert joker.is_joker and joker.rank == 0 and joker.suit is None


def test_gen1_a_shuffled_standard_deal_uses_exactly_the_pack():
    # Every card of the pack is dealt, stocked or turned up exactly once.
    rules = match_rules("standard", {}, 4)
    deal = shuffled_deal(rules, 0, random.Random(11))
    everything = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.discard)
    assert sorted(everything) == sorted(standard_pack())


# --- GEN-2 numeric ranks and ace models -----------------------------------------------------


def test_gen2_numeric_ranks():
    # A=1, pip cards their number, J=11, Q=12, K=13.
    ranks = [Card.parse(c).rank for c in ("AS", "2S", "9S", "TS", "JS", "QS", "KS")]
    assert ranks == [1, 2, 9, 10, 11, 12, 13]


def test_gen2_ace_low_accepts_a23_only():
    # ACE_LOW: A-2-3 is a run; Q-K-A and K-A-2 are not.
    run = meld("AH 2H 3H", LOW)
    assert run.kind == "run" and run.start == 1
    bad_meld("QH KH AH", LOW)
    bad_meld("KH AH 2H", LOW)
    bad_meld("AH QH KH", LOW)


def test_gen2_ace_high_or_low_ace_is_one_end_or_the_other():
    # ACE_HIGH_OR_LOW: A-2-3 (ace low, listed first) and Q-K-A (ace high, listed last); not K-A-2.
    low = meld("AH 2H 3H", HIGH_OR_LOW)
    high = meld("QH KH AH", HIGH_OR_LOW)
    assert (low.start, high.start) == (1, 12)
    assert shown(high) == "QH KH AH"
    bad_meld("KH AH 2H", HIGH_OR_LOW)


def test_gen2_ace_high_or_low_run_has_at_most_13_cards():
    # A..K and 2..A are 13-card runs; the ace can never be both ends (A..K..A is 14 cards).
    assert len(meld("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", HIGH_OR_LOW).cards) == 13
    assert meld("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", HIGH_OR_LOW).start == 2
    bad_meld("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", HIGH_OR_LOW)


def test_gen2_ace_high_or_low_lay_off_never_between_king_and_two():
    # Q-K-A (ace high) cannot take a 2; A-2-3 (ace low) cannot take a K.
    with pytest.raises(IllegalAction) as info:
        extend_meld(meld("QH KH AH", HIGH_OR_LOW), entries("2H"), HIGH_OR_LOW)
    assert info.value.code == "invalid_meld"
    with pytest.raises(IllegalAction) as info:
        extend_meld(meld("AH 2H 3H", HIGH_OR_LOW), entries("KH"), HIGH_OR_LOW)
    assert info.value.code == "invalid_meld"
    assert shown(extend_meld(meld("JH QH KH", HIGH_OR_LOW), entries("AH"), HIGH_OR_LOW)) == \
        "JH QH KH AH"


def test_gen2_ace_wrap_turns_the_corner():
    # ACE_WRAP: Q-K-A-2 and K-A-2-3 are runs, listed in cyclic order.
    assert shown(meld("QH KH AH 2H", WRAP)) == "QH KH AH 2H"
    assert shown(meld("KH AH 2H 3H", WRAP)) == "KH AH 2H 3H"
    assert meld("AH 2H 3H", WRAP).start == 1
    bad_meld("AH KH QH", WRAP)  # not listed in cyclic order


def test_gen2_ace_wrap_run_has_3_to_13_distinct_ranks():
    # 13 cards starting anywhere is fine; a 14th card would repeat a rank.
    assert len(meld("5D 6D 7D 8D 9D TD JD QD KD AD 2D 3D 4D", WRAP).cards) == 13
    bad_meld("5D 6D 7D 8D 9D TD JD QD KD AD 2D 3D 4D 5D", WRAP)
    bad_meld("KD AD", WRAP)


def test_gen2_ace_high_only():
    # ACE_HIGH_ONLY: Q-K-A is a run; A-2-3 and K-A-2 are not.
    assert meld("QH KH AH", HIGH_ONLY).start == 12
    bad_meld("AH 2H 3H", HIGH_ONLY)
    bad_meld("KH AH 2H", HIGH_ONLY)


def test_gen2_wild_designations_under_each_ace_model():
    # A joker at the high end of Q-K is an ace where the ace may be high, never under ACE_LOW.
    for rules in (
        MeldRules(ace=AceModel.HIGH_OR_LOW, wilds=frozenset({JOKER})),
        MeldRules(ace=AceModel.HIGH_ONLY, wilds=frozenset({JOKER})),
        MeldRules(ace=AceModel.WRAP, wilds=frozenset({JOKER})),
    ):
        assert shown(meld("QH KH JK", rules)) == "QH KH JK:AH", rules.ace
    bad_meld("QH KH JK", JOKERS)
    bad_meld("QH KH JK:AH", JOKERS)
    # Around the corner the joker between K and 2 is the ace.
    wrap = MeldRules(ace=AceModel.WRAP, wilds=frozenset({JOKER}))
    assert shown(meld("KH JK 2H", wrap)) == "KH JK:AH 2H"
    # High only: a joker below the 2 would be a low ace.
    bad_meld("JK 2H 3H", MeldRules(ace=AceModel.HIGH_ONLY, wilds=frozenset({JOKER})))
    # Low: a joker below the 2 is the ace.
    assert shown(meld("JK 2H 3H", JOKERS)) == "JK:AH 2H 3H"


# --- GEN-3 meld types -----------------------------------------------------------------------


def test_gen3_sets_of_three_or_four_different_suits():
    # A set is 3-4 cards of one rank, all of different suits.
    assert meld("7C 7D 7H", LOW).kind == "set"
    assert len(meld("7C 7D 7H 7S", LOW).cards) == 4
    bad_meld("7C 7C 7D", LOW)  # two clubs
    bad_meld("7C 7D 8H", LOW)  # mixed ranks
    bad_meld("7C 7D", LOW)  # too short


def test_gen3_set_maximum_four_even_with_two_packs():
    # Two packs, suits not required distinct: still at most 4 cards.
    rules = MeldRules(set_distinct_suits=False)
    assert len(meld("7C 7C 7D 7H", rules).cards) == 4
    bad_meld("7C 7C 7D 7H 7S", rules)


def test_gen3_runs_one_suit_consecutive_listed_lowest_first():
    # A run is 3+ cards of one suit, consecutive, without repeated rank, lowest first.
    assert shown(meld("4S 5S 6S 7S 8S", LOW)) == "4S 5S 6S 7S 8S"
    bad_meld("4S 5H 6S", LOW)  # mixed suits
    bad_meld("4S 5S 7S", LOW)  # gap
    bad_meld("6S 5S 4S", LOW)  # listed highest first
    bad_meld("4S 5S 5S 6S", LOW)  # repeated rank


# --- GEN-4 wild cards -----------------------------------------------------------------------


def test_gen4_joker_in_run_designated_by_position():
    # 6H JK 8H: the joker stands for 7H, given or inferred.
    given = meld("6H JK:7H 8H", JOKERS)
    inferred = meld("6H JK 8H", JOKERS)
    assert given.cards[1] == Placed("JK", "7H")
    assert inferred.cards[1] == Placed("JK", "7H")
    assert shown(given) == "6H JK:7H 8H"


def test_gen4_designation_must_match_position():
    # JK:9H between 6H and 8H is not where a 9H goes; a natural card cannot stand for another.
    bad_meld("6H JK:9H 8H", JOKERS)
    bad_meld("6H JK:7D 8H", JOKERS)
    bad_meld("6H 7H:7D 8H", JOKERS)


def test_gen4_joker_in_set_first_missing_suit_c_d_h_s():
    # No exchange rule: the engine picks the first missing suit in the order C, D, H, S.
    assert meld("7C 7D JK", JOKERS).cards[2] == Placed("JK", "7H")
    assert meld("7C 7H JK", JOKERS).cards[2] == Placed("JK", "7D")
    assert meld("7D 7H 7S JK", JOKERS).cards[3] == Placed("JK", "7C")
    assert meld("7C 7D JK:7S", JOKERS).cards[2] == Placed("JK", "7S")
    bad_meld("7C 7D JK:7C", JOKERS)  # suit already present
    bad_meld("7C 7D JK:8H", JOKERS)  # wrong rank


def test_gen4_set_suit_must_be_designated_where_wilds_can_be_exchanged():
    # With designate_set_wilds (KALUKI-7, GERMAN-8) and two suits possible, say which.
    rules = MeldRules(wilds=frozenset({JOKER}), designate_set_wilds=True)
    bad_meld("7C 7D JK", rules, "designation_required")
    assert meld("7C 7D JK:7S", rules).cards[2] == Placed("JK", "7S")
    # Only one suit missing: the designation is determined.
    assert meld("7C 7D 7H JK", rules).cards[3] == Placed("JK", "7S")


def test_gen4_every_meld_needs_a_natural_card():
    # An all-wild meld has no definite identity.
    bad_meld("JK JK JK", JOKERS)
    bad_meld("JK:7C JK:7D JK:7H", JOKERS)


def test_gen4_ambiguous_set_or_run_needs_designation():
    # 7H JK JK could be a set of sevens or 7H-8H-9H: each wild needs a definite designation.
    bad_meld("7H JK JK", JOKERS, "designation_required")
    assert shown(meld("7H JK:8H JK:9H", JOKERS)) == "7H JK:8H JK:9H"
    assert shown(meld("7H JK:7C JK:7D", JOKERS)) == "7H JK:7C JK:7D"


def test_gen4_lay_off_wild_on_run_needs_designation_when_both_ends_fit():
    # A joker laid off on 6H-7H-8H could be 5H or 9H.
    run = meld("6H 7H 8H", JOKERS)
    with pytest.raises(IllegalAction) as info:
        extend_meld(run, entries("JK"), JOKERS)
    assert info.value.code == "designation_required"
    grown = extend_meld(run, entries("JK:9H"), JOKERS)
    assert shown(grown) == "6H 7H 8H JK:9H"
    assert shown(extend_meld(run, entries("JK:5H"), JOKERS)) == "JK:5H 6H 7H 8H"


def test_gen4_designation_kept_when_meld_grows():
    # Laying off on the natural end leaves the joker's designation unchanged.
    run = meld("JK:5H 6H 7H", JOKERS)
    grown = extend_meld(run, entries("8H"), JOKERS)
    assert grown.cards[0] == Placed("JK", "5H")
    assert shown(grown) == "JK:5H 6H 7H 8H"


def test_gen4_standard_has_no_wild_cards():
    # Standard Rummy: no jokers in the pack, no wilds in its meld rules.
    rules = match_rules("standard", {}, 2)
    assert rules.meld.wilds == frozenset()
    assert rules.pack_size() == (1, 0)


# --- GEN-5 seats and direction --------------------------------------------------------------


def test_gen5_play_passes_clockwise_with_three_players():
    # Dealer 0: seats 1, 2, 0 play in that order.
    st = stacked("standard", [["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                              ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
                              ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]],
                 discard=["KS"], stock_top=["QS", "JS", "TS"])
    order = []
    for _ in range(3):
        order.append(st.turn)
        seat = st.turn
        st = act(st, seat, DRAW_STOCK, discard(st.stock[0]))
    assert order == [1, 2, 0]
    assert st.turn == 1


def test_gen5_two_players_alternate_and_others_wait():
    # With two players turns alternate; the other seat and unknown seats are refused.
    st = two_player()
    assert st.turn == 1
    rejected(st, 0, DRAW_STOCK, "not_your_turn")
    rejected(st, 2, DRAW_STOCK, "bad_seat")
    st = act(st, 1, DRAW_STOCK, discard("6S"))
    assert st.turn == 0
    st = act(st, 0, DRAW_STOCK, discard("7S"))
    assert st.turn == 1


# --- GEN-6 dealer and deal ------------------------------------------------------------------


def test_gen6_seat_zero_deals_first_and_deal_starts_at_dealers_left():
    # The first dealer is seat 0; cards go one at a time starting with the dealer's left.
    rules = match_rules("standard", {}, 3)
    assert next_dealer(new_match(rules)) == 0
    pack = standard_pack()
    random.Random(5).shuffle(pack)
    deal = shuffled_deal(rules, 1, random.Random(5))
    # Dealer 1: seat 2 gets the 1st, 4th, ... card, seat 0 the 2nd, seat 1 the 3rd.
    assert list(deal.hands[2]) == pack[0:21:3]
    assert list(deal.hands[0]) == pack[1:21:3]
    assert list(deal.hands[1]) == pack[2:21:3]
    assert list(deal.discard) == [pack[21]]
    assert list(deal.stock) == pack[22:]


def test_gen6_next_dealer_is_the_dealers_left():
    # After a hand dealt by seat 2 of 3, seat 0 deals.
    st = stacked("standard", [["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                              ["KD", "3D", "4D", "5D", "6D", "7D", "8D"],
                              ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]],
                 discard=["KS"], stock_top=["9C"], dealer=2)
    assert st.turn == 0
    st = act(st, 0, DRAW_STOCK, melds("2C 3C 4C 5C 6C 7C 8C 9C"))
    assert st.phase is Phase.HAND_OVER
    assert next_dealer(st) == 0


# --- GEN-7 turn structure -------------------------------------------------------------------


def test_gen7_actions_of_the_wrong_phase_are_rejected():
    # Before drawing: no meld, lay-off or discard; after drawing: no second draw.
    st = two_player()
    rejected(st, 1, melds("2C 3C 4C"), "must_draw_first")
    rejected(st, 1, discard("QS"), "must_draw_first")
    rejected(st, 1, lay_off(0, "5C"), "must_draw_first")
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, DRAW_STOCK, "already_drew")
    rejected(st, 1, DRAW_DISCARD, "already_drew")


def test_gen7_actions_are_atomic():
    # A meld action whose second meld is invalid lays nothing (rejected checks the state).
    st = act(two_player(), 1, DRAW_STOCK)
    rejected(st, 1, melds("2C 3C 4C", "7D 8D TS"), "invalid_meld")
    rejected(st, 1, melds("2C 3C 4C", "7D 8D 9H"), "card_not_in_hand")
    st = act(st, 1, melds("2C 3C 4C", "7D 8D 9D"))
    assert [shown(m) for m in st.melds] == ["2C 3C 4C", "7D 8D 9D"]


def test_gen7_turn_ends_with_exactly_one_discard():
    # After the discard the turn has passed: a second discard is out of turn.
    st = act(two_player(), 1, DRAW_STOCK, discard("QS"))
    assert st.turn == 0 and st.phase is Phase.DRAW
    rejected(st, 1, discard("JS"), "not_your_turn")


# --- GEN-8 taken-discard restriction --------------------------------------------------------


def test_gen8_card_taken_from_discard_cannot_be_discarded_that_turn():
    # Seat 1 takes the upcard KD and tries to throw it straight back.
    st = act(two_player("KD"), 1, DRAW_DISCARD)
    assert st.taken == ["KD"]
    rejected(st, 1, discard("KD"), "cannot_discard_taken_card")
    st = act(st, 1, discard("QS"))
    assert st.discard == ["QS"]


def test_gen8_taken_card_may_be_discarded_on_a_later_turn():
    # Next turn seat 1 (having drawn from the stock) may discard the KD it took earlier.
    st = act(two_player("KD"), 1, DRAW_DISCARD, discard("QS"))
    st = act(st, 0, DRAW_STOCK, discard("6S"))
    st = act(st, 1, DRAW_STOCK, discard("KD"))
    assert st.discard == ["QS", "6S", "KD"]


def test_gen8_stock_card_may_be_discarded_at_once():
    # The card just drawn from the stock (6S) goes straight onto the pile.
    st = act(two_player(), 1, DRAW_STOCK, discard("6S"))
    assert st.discard == ["KD", "6S"]
    assert sorted(st.hands[1]) == sorted(SEAT1_HAND)


def test_gen8_corollary_cannot_meld_everything_but_the_taken_card():
    # Seat 1 takes KD, then melds all ten other cards: only KD would be left to discard.
    st = act(two_player("KD"), 1, DRAW_DISCARD)
    rejected(st, 1, melds("2C 3C 4C 5C", "7D 8D 9D", "TS JS QS"), "no_discardable_card")
    # Keeping one other card is fine.
    st2 = act(st, 1, melds("2C 3C 4C 5C", "7D 8D 9D"))
    assert sorted(st2.hands[1]) == ["JS", "KD", "QS", "TS"]


def test_gen8_corollary_applies_to_lay_offs():
    # After melding 2C-3C-4C, 7D-8D-9D and TS-JS-QS, laying off 5C would leave only the taken KD.
    st = act(two_player("KD"), 1, DRAW_DISCARD, melds("2C 3C 4C", "7D 8D 9D", "TS JS QS"))
    assert sorted(st.hands[1]) == ["5C", "KD"]
    rejected(st, 1, lay_off(0, "5C"), "no_discardable_card")
    st = act(st, 1, discard("5C"))
    assert st.hands[1] == ["KD"]


def test_gen8_taken_card_may_be_used_to_go_out():
    # The taken 6C completes 2C..6C; melding the whole hand goes out with nothing to discard.
    st = act(two_player("6C"), 1, DRAW_DISCARD,
             melds("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS"))
    assert st.phase is Phase.HAND_OVER
    assert st.results[-1].winner == 1


# --- GEN-9 melds on the table ---------------------------------------------------------------


def three_player_table() -> State:
    """Seat 1 lays melds 0 and 1; seat 2 lays meld 2 and lays off on seat 1's melds."""
    st = stacked("standard", [["KH", "QH", "JH", "TH", "AH", "AS", "AD"],
                              ["2C", "3C", "4C", "9D", "9H", "9S", "KS"],
                              ["5C", "6H", "7H", "8H", "9C", "JD", "QD"]],
                 discard=["KC"], stock_top=["QC", "JS", "TS"])
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C", "9D 9H 9S"), discard("KS"))
    return act(st, 2, DRAW_STOCK, melds("6H 7H 8H"), lay_off(0, "5C"), lay_off(1, "9C"))


def test_gen9_melds_numbered_from_zero_with_owner():
    # Melds get indexes 0, 1, 2 in laying order and keep their first layer as owner.
    st = three_player_table()
    assert [(m.id, m.owner, m.kind) for m in st.melds] == [(0, 1, "run"), (1, 1, "set"),
                                                          (2, 2, "run")]
    # Seat 2's lay-offs belong to seat 1's melds.
    assert shown(st.melds[0]) == "2C 3C 4C 5C"
    assert sorted(st.melds[1].codes) == ["9C", "9D", "9H", "9S"]
    view = player_view(st, 0)
    assert [(m["id"], m["owner"]) for m in view["melds"]] == [(0, 1), (1, 1), (2, 2)]


def test_gen9_meld_numbers_restart_each_hand():
    # A new hand of the same match starts again at meld 0.
    st = stacked("standard", [SEAT0_HAND, ["2C", "3C", "4C", "5C", "6C", "7D", "8D", "9D",
                                           "TS", "JS"]],
                 discard=["KD"], stock_top=["QS"])
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS"))
    assert st.phase is Phase.HAND_OVER
    st = stacked("standard", [SEAT0_HAND, ["2C", "3C", "4C", "5C", "6C", "7D", "8D", "9D",
                                           "TS", "JS"]],
                 discard=["KD"], stock_top=["QS", "6S"], dealer=1, state=st)
    st = act(st, 0, DRAW_STOCK, melds("AH AS AD AC"), discard("KH"))
    assert [(m.id, m.owner) for m in st.melds] == [(0, 0)]


# --- GEN-10 laying off ----------------------------------------------------------------------


def test_gen10_lay_off_at_either_end_of_a_run():
    # 5H and 9H both fit 6H-7H-8H, one at each end, in one lay-off.
    run = meld("6H 7H 8H", LOW)
    grown = extend_meld(run, entries("5H 9H"), LOW)
    assert shown(grown) == "5H 6H 7H 8H 9H"
    assert grown.kind == "run"


def test_gen10_no_lay_off_into_the_middle_or_past_a_gap():
    # A card already in the run's range (second deck 7H), a gap, or a wrong suit is refused.
    run = meld("6H 7H 8H", LOW)
    for cards in ("7H", "TH", "9D", "QS"):
        with pytest.raises(IllegalAction) as info:
            extend_meld(run, entries(cards), LOW)
        assert info.value.code == "invalid_meld", cards


def test_gen10_set_grows_only_to_its_maximum():
    # A set of three takes its fourth suit; a set of four takes nothing (even a second-deck card).
    three = meld("9C 9D 9H", LOW)
    four = extend_meld(three, entries("9S"), LOW)
    assert four.kind == "set" and len(four.cards) == 4
    loose = MeldRules(set_distinct_suits=False)
    with pytest.raises(IllegalAction) as info:
        extend_meld(meld("9C 9D 9H 9S", loose), entries("9C"), loose)
    assert info.value.code == "invalid_meld"
    with pytest.raises(IllegalAction) as info:
        extend_meld(three, entries("9C"), LOW)
    assert info.value.code == "invalid_meld"


def test_gen10_lay_off_in_play_and_its_refusals():
    # Seat 0 lays off on seat 2's 6H-7H-8H; a JD, an unknown meld number are refused.
    st = three_player_table()
    st = act(st, 2, discard("JS"))
    st = act(st, 0, DRAW_STOCK)
    rejected(st, 0, lay_off(2, "TH"), "invalid_meld")
    rejected(st, 0, lay_off(3, "TH"), "no_such_meld")
    rejected(st, 0, lay_off(2, "5H"), "card_not_in_hand")
    st2 = act(st, 0, melds("TH JH QH"))
    assert shown(st2.melds[3]) == "TH JH QH"
    rejected(st2, 0, lay_off(2, "KH"), "invalid_meld")


def test_gen10_cards_on_the_table_cannot_be_moved():
    # Standard without OPT-BORROW has no move that takes a card off a meld.
    st = act(three_player_table(), 2, discard("JS"))
    st = act(st, 0, DRAW_STOCK)
    rejected(st, 0, {"type": "borrow", "meld": 0, "card": "5C", "into": ["5C", "5H", "5D"]},
             "not_in_this_game")
    rejected(st, 0, {"type": "swap_joker", "meld": 0, "card": "5C"}, "not_in_this_game")


# --- GEN-11 going out and the end of the hand -----------------------------------------------


def test_gen11_nothing_happens_after_the_hand_ends():
    # Seat 1 goes out; seat 0 still holds melds (AH AS AD AC, TH JH QH KH) but may do nothing.
    st = act(two_player("6C"), 1, DRAW_DISCARD,
             melds("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS"))
    assert st.phase is Phase.HAND_OVER and st.turn is None
    for seat in (0, 1):
        rejected(st, seat, DRAW_STOCK, "hand_over")
        rejected(st, seat, DRAW_DISCARD, "hand_over")
        rejected(st, seat, melds("AH AS AD AC"), "hand_over")
        rejected(st, seat, lay_off(0, "7C"), "hand_over")
        rejected(st, seat, discard("KH"), "hand_over")


# --- GEN-13 stock exhaustion ----------------------------------------------------------------


def run_down_stock(st: State) -> tuple[State, list[str]]:
    """Every player draws from the stock and discards the drawn card until the stock is empty."""
    drawn = []
    while st.stock:
        seat = st.turn
        card = st.stock[0]
        st = act(st, seat, DRAW_STOCK, discard(card))
        drawn.append(card)
    return st, drawn


def test_gen13_restock_keeps_top_card_and_puts_oldest_discard_on_top():
    # Two players: 31 stock cards drawn and discarded; the next stock draw turns the pile over.
    st = two_player("KD")
    initial_stock = list(st.stock)
    assert len(initial_stock) == 31
    st, drawn = run_down_stock(st)
    assert drawn == initial_stock
    assert st.stock == [] and st.discard == ["KD"] + initial_stock
    assert st.turn == 0
    st, events = apply(st, 0, DRAW_STOCK)
    # The oldest discard (the upcard KD) was the new stock's top card: seat 0 drew it.
    assert st.hands[0][-1] == "KD"
    assert st.stock == initial_stock[:30]
    assert st.discard == [initial_stock[30]]
    assert [e["type"] for e in events] == ["restock", "draw"]


def test_gen13_empty_stock_player_may_take_the_top_discard_instead():
    # Taking the top discard with an empty stock does not restock.
    st, drawn = run_down_stock(two_player("KD"))
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == drawn[-1]
    assert st.stock == []
    assert st.discard == ["KD"] + drawn[:-1]


def test_gen13_one_card_pile_cannot_restock():
    # Built by hand (Standard play always leaves at least two discards once the stock is empty):
    # an empty stock and only the upcard in the pile: the stock draw is refused.
    st = two_player("KD")
    st.stock.clear()
    rejected(st, 1, DRAW_STOCK, "stock_empty")
    st = act(st, 1, DRAW_DISCARD)
    assert st.hands[1][-1] == "KD" and st.discard == []


# --- GEN-14 information ---------------------------------------------------------------------


def test_gen14_view_hides_other_hands_and_the_stock_order():
    # Seat 1 takes the upcard KD and discards QS; seat 0's view.
    st = act(two_player("KD"), 1, DRAW_DISCARD, discard("QS"))
    view = player_view(st, 0)
    seen = strings(view)
    assert view["hand"] == SEAT0_HAND
    assert view["hand_counts"] == [10, 10]
    assert view["stock_count"] == 31
    assert view["discard"] == ["QS"]
    # The taken discard is public and still held.
    assert view["known"] == [[], ["KD"]]
    private = set(st.hands[1]) - {"KD"}
    assert private and not seen & private
    assert not seen & set(st.stock)
    assert "KD" in seen
    # A spectator sees no hand at all, only the same public table.
    spectator = player_view(st, None)
    assert spectator["hand"] == []
    assert spectator["known"] == [[], ["KD"]]
    assert not strings(spectator) & (set(st.hands[0]) | private | set(st.stock))


def test_gen14_known_card_leaves_known_when_played():
    # Seat 1 takes 6C and melds it: it is on the table, no longer listed as held.
    st = act(two_player("6C"), 1, DRAW_DISCARD)
    assert player_view(st, 0)["known"] == [[], ["6C"]]
    st = act(st, 1, melds("2C 3C 4C 5C 6C"))
    assert player_view(st, 0)["known"] == [[], []]


def test_gen14_stock_draw_seen_only_by_the_drawer():
    # The drawn stock card is in the event for the drawer only.
    st, events = apply(two_player(stock_top=["6S", "7S"]), 1, DRAW_STOCK)
    mine = redact_events(events, 1)
    theirs = redact_events(events, 0)
    assert mine == [{"type": "draw", "seat": 1, "source": "stock", "card": "6S"}]
    assert theirs == [{"type": "draw", "seat": 1, "source": "stock"}]
    assert "6S" not in strings(player_view(st, 0))
    assert "6S" in player_view(st, 1)["hand"]


# --- GEN-15 scores and game end -------------------------------------------------------------


def test_gen15_tie_at_the_top_plays_on():
    # Block Rummy (three players, target 20): seats 0 and 1 tie for the lowest count and split
    # the pot to 21 each, both past the target. The game plays on; seat 2 then wins a hand.
    st = stacked("standard", [["AC", "2C", "3C", "4C", "5C", "6C", "7C"],
                              ["AD", "2D", "3D", "4D", "5D", "6D", "7D"],
                              ["KC", "KD", "KH", "KS", "QC", "QD", "QH"]],
                 options={"block_rummy": True, "target_score": 20}, discard=["QS"])
    st, drawn = run_down_stock(st)
    assert len(drawn) == 30 and st.turn == 1
    st = act(st, 1, DRAW_STOCK)  # declines the discard: the hand is blocked
    result = st.results[-1]
    assert result.detail["counts"] == [28, 28, 70]
    assert result.scores == (21, 21, 0)
    assert st.totals == [21, 21, 0]
    assert st.phase is Phase.HAND_OVER
    assert st.game_winner is None
    dealer = next_dealer(st)
    assert dealer == 1
    st = stacked("standard", [["AC", "AD", "AH", "AS", "2C", "2D", "2S"],
                              ["3C", "3D", "3S", "4C", "4D", "4S", "5C"],
                              ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]],
                 discard=["KS"], stock_top=["9H"], dealer=dealer, state=st)
    assert st.turn == 2
    st = act(st, 2, DRAW_STOCK, melds("2H 3H 4H 5H 6H 7H 8H 9H"))
    assert st.results[-1].scores == (0, 0, 36)
    assert st.totals == [21, 21, 36]
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 2


def test_gen15_hand_reports_each_seats_score_change():
    # Only the winner's score changes; the result lists every seat.
    st = act(two_player("6C"), 1, DRAW_DISCARD,
             melds("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS"))
    # Seat 0 holds KH QH JH TH (40) 9H 8H (17) AH AS AD AC (4).
    assert st.results[-1].scores == (0, 61)
    assert st.totals == [0, 61]
    assert st.results[-1].reason == "went_out"


# --- GEN-16 card values ---------------------------------------------------------------------


@pytest.mark.parametrize(("options", "expected"), [({}, 1 + 10 + 10 + 10 + 10 + 9 + 2 + 3 + 4 + 5),
                                                   ({"around_the_corner": True}, 74)])
def test_gen16_standard_card_values(options: dict[str, Any], expected: int):
    # Seat 0 keeps AH KH QH JH TH 9H 2S 3S 4S 5S: ace 1 (11 around the corner), face cards 10.
    st = stacked("standard", [["AH", "KH", "QH", "JH", "TH", "9H", "2S", "3S", "4S", "5S"],
                              ["2C", "3C", "4C", "5C", "6C", "7D", "8D", "9D", "TS", "JS"]],
                 options=options, discard=["KD"], stock_top=["QS"])
    st = act(st, 1, DRAW_STOCK, melds("2C 3C 4C 5C 6C", "7D 8D 9D", "TS JS QS"))
    assert st.results[-1].scores == (0, expected)


def test_gen16_card_values_table():
    # Standard: A 1, pips face value, J/Q/K 10; no jokers.
    values = match_rules("standard", {}, 2).values
    assert [values.of(c) for c in ("AS", "2S", "7S", "TS", "JS", "QS", "KS")] == \
        [1, 2, 7, 10, 10, 10, 10]
    assert match_rules("standard", {"around_the_corner": True}, 2).values.of("AS") == 11
    counting = match_rules("standard", {"card_count_scoring": True}, 2).values
    assert [counting.of(c) for c in ("AS", "KS", "JK")] == [1, 1, 2]


def test_gen13_resolution_hand_ends_after_too_many_restocks() -> None:
    """GEN-13 resolution (docs/engine.md): after MAX_RESTOCKS rebuilds the hand is exhausted."""
    st = stacked("standard", [["AS", "2S", "3S", "KD", "KC", "KH", "9C"],
                              ["5H", "5D", "7C", "8C", "9D", "TD", "JD"],
                              ["2H", "3H", "4H", "6C", "6D", "QS", "QH"]], discard=["5C"])
    # Seat 1 is to draw with the stock empty and a long discard pile behind the upcard.
    st.discard = st.stock[:-1] + st.discard
    st.stock = []
    rebuilt = act(st, 1, {"type": "draw", "source": "stock"})
    assert rebuilt.restocks == 1 and not rebuilt.hand_over  # an ordinary GEN-13 rebuild
    st.restocks = MAX_RESTOCKS
    ended = act(st, 1, {"type": "draw", "source": "stock"})
    assert ended.hand_over and ended.results[-1].reason == "exhausted"
    assert ended.results[-1].winner is None and ended.results[-1].scores == (0, 0, 0)
    rejected(ended, 2, {"type": "draw", "source": "stock"}, "hand_over")
