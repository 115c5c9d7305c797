"""Scenario tests for Phỏm / Tá lả (RULES.md §4.7, PHOM-1 .. PHOM-15) on stacked deals.

Seat 0 deals unless stated, so seat 1 (the dealer's left) holds ten cards and opens by
discarding. Play order with four players: 1, 2, 3, 0; with two: 1, 0.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import InvalidDeal, InvalidOptions
from app.engine.game import new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.melds import AceModel
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import (
    DRAW_DISCARD,
    DRAW_STOCK,
    act,
    discard,
    lay_off,
    rejected,
    shown,
    stacked,
)


def show(*listings: str) -> dict[str, Any]:
    return {"type": "show", "melds": [m.split() for m in listings]}


def declare(*listings: str, discard: str | None = None) -> dict[str, Any]:
    return {"type": "declare", "melds": [m.split() for m in listings], "discard": discard}


class Recorder:
    """Plays actions on a state and records them as match-log entries."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.deal = {"hands": [list(h) for h in st.hands], "stock": list(st.stock),
                     "discard": list(st.discard)}
        self.actions: list[dict[str, Any]] = []

    def __call__(self, seat: int, *actions: dict[str, Any]) -> State:
        for action in actions:
            self.st = act(self.st, seat, action)
            self.actions.append({"seat": seat, "action": action})
        return self.st

    def pass_turn(self, seat: int) -> State:
        """Draw from the stock and discard the drawn card."""
        self(seat, DRAW_STOCK)
        return self(seat, discard(self.st.hands[seat][-1]))


def pass_turn(st: State) -> State:
    seat = st.turn
    st = act(st, seat, DRAW_STOCK)
    return act(st, seat, discard(st.hands[seat][-1]))


# --- PHOM-1 players and pack ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_phom1_two_to_four_players_one_pack(players: int):
    # One 52-card pack without jokers for 2 to 4 players.
    assert match_rules("phom", {}, players).pack_size() == (1, 0)


@pytest.mark.parametrize("players", [1, 5])
def test_phom1_other_player_counts_are_refused(players: int):
    with pytest.raises(InvalidOptions) as info:
        match_rules("phom", {}, players)
    assert info.value.code == "bad_players"


# --- PHOM-2 deal ----------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "sizes"), [(0, [9, 10, 9, 9]), (2, [9, 9, 9, 10])])
def test_phom2_nine_each_ten_to_the_dealers_left_no_upcard(dealer: int, sizes: list[int]):
    # A seeded 4-player deal: 9 cards each, 10 to the first player; the 15 others are stock.
    rules = match_rules("phom", {}, 4)
    deal = shuffled_deal(rules, dealer, random.Random(77))
    assert [len(h) for h in deal.hands] == sizes
    assert list(deal.discard) == []
    assert len(deal.stock) == 15
    st = start_hand(new_match(rules), deal, dealer)
    assert (st.turn, st.phase) == ((dealer + 1) % 4, Phase.OPENING)


def test_phom2_deal_with_an_upcard_or_ten_to_the_dealer_is_refused():
    # No upcard in Phom; and the tenth card is the dealer's left's, not the dealer's.
    rules = match_rules("phom", {}, 2)
    pack = standard_pack()
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:9], pack[9:19]], "stock": pack[20:],
                                "discard": [pack[19]]})
    assert info.value.code == "bad_deal"
    with pytest.raises(InvalidDeal) as info:
        stacked_deal(rules, 0, {"hands": [pack[0:10], pack[10:19]], "stock": pack[19:],
                                "discard": []})
    assert info.value.code == "bad_deal"


# --- Two-player scenario used by PHOM-3, -5, -6, -7, -9, -13 --------------------------------
# Seat 1 (10): opens with 7H, discards 7S on turn 2, shows JD QD KD on turn 4.
# Seat 0 (9): takes 7H (7C 7D 7H) and 7S (7S 8S 9S); shows both on turn 4 and lays off TD
# on seat 1's JD QD KD; keeps 2H 4S (6). Seat 1 keeps AS 3H 5C 9C KH 6D (37).

SEAT1 = ["7H", "7S", "JD", "QD", "KD", "AS", "3H", "5C", "9C", "KH"]
SEAT0 = ["7C", "7D", "8S", "9S", "TD", "2H", "4S", "QH", "JC"]
STOCK = ["6D", "AC", "KC", "8H", "QC"]


def two_player(options: dict[str, Any] | None = None, seat0: list[str] | None = None) -> State:
    return stacked("phom", [list(seat0 or SEAT0), list(SEAT1)], stock_top=list(STOCK),
                   options=options)


def to_seat1_fourth_turn(options: dict[str, Any] | None = None) -> State:
    """Play up to seat 1's fourth turn, after its draw."""
    st = two_player(options)
    st = act(st, 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    st = act(st, 1, DRAW_STOCK, discard("7S"))
    st = act(st, 0, DRAW_DISCARD, discard("JC"))
    st = act(st, 1, DRAW_STOCK, discard("AC"))
    st = act(st, 0, DRAW_STOCK, discard("KC"))
    return act(st, 1, DRAW_STOCK)


def to_seat0_fourth_turn(options: dict[str, Any] | None = None) -> State:
    """Seat 1 shows JD QD KD and discards 8H; seat 0 draws QC on its fourth turn."""
    st = to_seat1_fourth_turn(options)
    st = act(st, 1, show("JD QD KD"), discard("8H"))
    return act(st, 0, DRAW_STOCK)


# --- PHOM-3 opening -------------------------------------------------------------------------


def test_phom3_opening_is_a_discard_only_and_counts_as_turn_one():
    # Seat 1 may not draw (nothing to draw from, and the opening is a discard); it discards.
    st = two_player()
    assert st.phase is Phase.OPENING and st.discard == []
    rejected(st, 1, DRAW_STOCK, "must_discard")
    rejected(st, 1, DRAW_DISCARD, "must_discard")
    rejected(st, 1, show("JD QD KD"), "must_discard")
    rejected(st, 0, discard("QH"), "not_your_turn")
    st = act(st, 1, discard("7H"))
    assert st.discard == ["7H"]
    assert st.turns == [0, 1]
    assert len(st.hands[1]) == 9
    assert (st.turn, st.phase) == (0, Phase.DRAW)


# --- PHOM-4 melds ---------------------------------------------------------------------------


def test_phom4_ace_low_runs_and_sets_of_three_or_four():
    # Ù at the opening: A-2-3 of clubs, a set of four nines, 4D 5D 6D.
    assert match_rules("phom", {}, 2).meld.ace is AceModel.LOW
    hand = ("AC 2C 3C", "9H 9S 9C 9D", "4D 5D 6D")
    st = stacked("phom", [["KH", "QH", "JH", "2H", "3H", "5S", "6S", "7S", "8S"],
                          [c for m in hand for c in m.split()]])
    st = act(st, 1, declare(*hand))
    assert [m.kind for m in st.melds] == ["run", "set", "run"]


def test_phom4_queen_king_ace_is_not_a_run():
    # Q-K-A (ACE_LOW) and a two-card "meld" are refused in a declaration.
    hand = ("QC KC AC", "9H 9S 9C 9D", "4D 5D 6D")
    st = stacked("phom", [["KH", "QH", "JH", "2H", "3H", "5S", "6S", "7S", "8S"],
                          [c for m in hand for c in m.split()]])
    rejected(st, 1, declare(*hand), "invalid_meld")
    rejected(st, 1, declare("QC KC", "AC 9H 9S 9C 9D", "4D 5D 6D"), "invalid_meld")


# --- PHOM-5 draw ----------------------------------------------------------------------------


def test_phom5_take_the_discard_into_a_meld_with_two_hand_cards():
    # Seat 0 takes 7H with 7C 7D: the taken card is public.
    st = act(two_player(), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD)
    assert st.hands[0][-1] == "7H"
    assert st.known[0] == ["7H"]
    assert st.locked[0] == ["7H"]
    assert st.discard == []


def test_phom5_discard_that_forms_no_meld_cannot_be_taken():
    # Seat 1 cannot take seat 0's QH: it holds KH but no JH, and no other queen.
    st = act(two_player(), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    rejected(st, 1, DRAW_DISCARD, "cannot_use_discard")
    st = act(st, 1, DRAW_STOCK)
    assert st.hands[1][-1] == "6D"


# --- PHOM-6 taken cards ---------------------------------------------------------------------


def test_phom6_locked_card_cannot_be_discarded():
    # After taking 7H, seat 0 may not discard it (now or later).
    st = act(two_player(), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 0, discard("7H"), "card_locked")
    st = act(st, 0, discard("QH"))
    st = act(st, 1, DRAW_STOCK, discard("7S"))
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 0, discard("7H"), "card_locked")


def test_phom6_discard_breaking_a_locked_meld_is_refused():
    # 7C and 7D are the only meld partners of the locked 7H: neither may go.
    st = act(two_player(), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 0, discard("7C"), "breaks_locked_meld")
    rejected(st, 0, discard("7D"), "breaks_locked_meld")
    st = act(st, 0, discard("8S"))  # 8S is not needed by 7H's meld
    assert st.discard == ["8S"]


def test_phom6_one_taken_card_per_meld():
    # Without 8S 9S, 7S could only join 7H's set: the take is refused. With them it is fine.
    seat0 = ["7C", "7D", "3S", "TS", "TD", "2H", "4S", "QH", "JC"]
    st = act(two_player(seat0=seat0), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    st = act(st, 1, DRAW_STOCK, discard("7S"))
    rejected(st, 0, DRAW_DISCARD, "cannot_use_discard")
    st = act(two_player(), 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    st = act(st, 1, DRAW_STOCK, discard("7S"))
    st = act(st, 0, DRAW_DISCARD)
    assert st.locked[0] == ["7H", "7S"]


def test_phom6_grouping_may_be_rearranged():
    # Seat 0 holds 7C 7D 7S and takes 7H: it may discard 7C, since 7D 7S 7H still holds the
    # locked 7H (the grouping is not fixed at the take).
    seat0 = ["7C", "7D", "7S", "8C", "TD", "2H", "4S", "QH", "JC"]
    seat1 = ["7H", "6S", "JD", "QD", "KD", "AS", "3H", "5C", "9C", "KH"]
    st = stacked("phom", [seat0, seat1], stock_top=list(STOCK))
    st = act(st, 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("7C"))
    assert sorted(st.hands[0]) == sorted(["7D", "7S", "7H", "8C", "TD", "2H", "4S", "QH", "JC"])


# --- PHOM-7 length of a hand ----------------------------------------------------------------


def test_phom7_hand_ends_after_every_players_fourth_turn():
    # Seat 0 is last: after its fourth discard the hand is over, not before.
    st = to_seat0_fourth_turn()
    st = act(st, 0, show("7C 7D 7H", "7S 8S 9S"))
    assert st.phase is Phase.PLAY and st.results == []
    st = act(st, 0, discard("QC"))
    assert st.turns == [4, 4]
    assert st.phase is Phase.HAND_OVER  # hands option defaults to 2: a further hand follows
    rejected(st, 1, DRAW_STOCK, "hand_over")


# --- PHOM-8 Ù --------------------------------------------------------------------------------

FOUR_OTHERS = [["KH", "QH", "JH", "2H", "3H", "5S", "6S", "7S", "8S"],
               ["KS", "QS", "JS", "TS", "2S", "3S", "4S", "TH", "8H"],
               ["KC", "QC", "JC", "TC", "8C", "4H", "5H", "6H", "7H"]]


def four(first: list[str], stock_top: list[str] | None = None) -> State:
    return stacked("phom", [FOUR_OTHERS[0], first, FOUR_OTHERS[1], FOUR_OTHERS[2]],
                   stock_top=stock_top)


def test_phom8_u_with_ten_cards_at_the_opening_pays_twelve_each():
    # Seat 1 declares all ten dealt cards instead of its opening discard.
    hand = ("AC 2C 3C", "9H 9S 9C 9D", "4D 5D 6D")
    st = four([c for m in hand for c in m.split()])
    st = act(st, 1, declare(*hand))
    result = st.results[-1]
    assert result.winner == 1
    assert result.scores == (-12, 36, -12, -12)
    assert st.discard == []
    assert st.phase is Phase.HAND_OVER


def test_phom8_u_with_nine_and_the_opening_discard_pays_six_each():
    # Seat 1 melds nine cards and discards KD.
    hand = ("AC 2C 3C", "9H 9S 9C", "4D 5D 6D")
    st = four([c for m in hand for c in m.split()] + ["KD"])
    st = act(st, 1, declare(*hand, discard="KD"))
    assert st.results[-1].scores == (-6, 18, -6, -6)
    assert st.discard == ["KD"]


def test_phom8_u_after_drawing():
    # Seat 2 (9 cards) draws 8D and declares all ten: 12 each; the same with a discard: 6.
    seat1 = ["AD", "2D", "3D", "5C", "6C", "7C", "8C", "TD", "JD", "KD"]
    seat2 = ["AC", "2C", "3C", "9H", "9S", "9C", "5D", "6D", "7D"]
    others = [["KH", "QH", "JH", "2H", "3H", "5S", "6S", "7S", "8S"],
              ["KS", "QS", "JS", "TS", "2S", "3S", "4S", "TH", "8H"]]
    base = stacked("phom", [others[0], seat1, seat2, others[1]], stock_top=["8D"])
    st = act(base, 1, discard("KD"))
    rejected(st, 2, declare("AC 2C 3C", "9H 9S 9C", "5D 6D 7D"), "must_draw_first")
    st = act(st, 2, DRAW_STOCK)
    won = act(st, 2, declare("AC 2C 3C", "9H 9S 9C", "5D 6D 7D 8D"))
    assert won.results[-1].scores == (-12, -12, 36, -12)
    won = act(st, 2, declare("AC 2C 3C", "9H 9S 9C", "5D 6D 7D", discard="8D"))
    assert won.results[-1].scores == (-6, -6, 18, -6)


def test_phom8_u_must_meld_the_hand_and_respect_locks():
    # Seat 0 takes 7H (with 7C 7D) and 7S (with 8S 9S TS); Ù with both taken cards in one
    # set is refused; the arrangement with one taken card per meld wins 12.
    seat0 = ["7C", "7D", "8S", "9S", "TS", "3D", "4D", "5D", "QH"]
    seat1 = ["7H", "7S", "AC", "2H", "4C", "6H", "9C", "JD", "KH", "QC"]
    st = stacked("phom", [seat0, seat1], stock_top=["KS"])
    st = act(st, 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    st = act(st, 1, DRAW_STOCK, discard("7S"))
    st = act(st, 0, DRAW_DISCARD)
    rejected(st, 0, declare("7C 7D 7H 7S", "8S 9S TS", "3D 4D 5D"), "two_locked_in_meld")
    rejected(st, 0, declare("7C 7D 7H", "7S 8S 9S", "TS 3D 4D 5D"), "invalid_meld")
    st = act(st, 0, declare("7C 7D 7H", "7S 8S 9S TS", "3D 4D 5D"))
    assert st.results[-1].scores == (12, -12)


def test_phom8_hand_ends_at_once_after_u():
    # After Ù nobody may draw, show or lay off.
    hand = ("AC 2C 3C", "9H 9S 9C 9D", "4D 5D 6D")
    st = four([c for m in hand for c in m.split()])
    st = act(st, 1, declare(*hand))
    rejected(st, 2, DRAW_STOCK, "hand_over")
    rejected(st, 2, show("KS QS JS"), "hand_over")


# --- PHOM-9 fourth turn ---------------------------------------------------------------------


def test_phom9_show_before_the_last_discard():
    # On its fourth turn seat 1 must show before discarding; on earlier turns it cannot show.
    st = two_player()
    st = act(st, 1, discard("7H"))
    st = act(st, 0, DRAW_DISCARD, discard("QH"))
    st = act(st, 1, DRAW_STOCK)
    rejected(st, 1, show("JD QD KD"), "not_last_turn")
    st = to_seat1_fourth_turn()
    assert st.turns == [3, 4]
    rejected(st, 1, discard("8H"), "must_show")
    st = act(st, 1, show("JD QD KD"))
    assert st.shown == [False, True]
    assert st.melds[0].owner == 1
    st = act(st, 1, discard("8H"))
    assert sorted(st.hands[1]) == sorted(["AS", "3H", "5C", "9C", "KH", "6D"])


def test_phom9_no_meld_may_stay_in_hand():
    # An empty show while JD QD KD is held is refused.
    st = to_seat1_fourth_turn()
    rejected(st, 1, show(), "meld_left_in_hand")


def test_phom9_locked_cards_must_be_shown_one_per_meld():
    # Seat 0's taken 7H and 7S: an empty show, a show missing 7S, or both in one set is refused.
    st = to_seat0_fourth_turn()
    rejected(st, 0, discard("QC"), "must_show")
    rejected(st, 0, show(), "locked_card_not_shown")
    rejected(st, 0, show("7C 7D 7H"), "locked_card_not_shown")
    rejected(st, 0, show("7C 7D 7H 7S"), "two_locked_in_meld")
    st = act(st, 0, show("7C 7D 7H", "7S 8S 9S"))
    assert [m.owner for m in st.melds] == [1, 0, 0]


def test_phom9_lay_off_only_on_other_players_melds_after_showing():
    # Seat 0 lays TD on seat 1's JD QD KD; not before its show and not on its own melds.
    st = to_seat0_fourth_turn()
    rejected(st, 0, lay_off(0, "TD"), "must_show")
    st = act(st, 0, show("7C 7D 7H", "7S 8S 9S"))
    rejected(st, 0, lay_off(1, "TD"), "cannot_lay_off_own")
    rejected(st, 0, lay_off(0, "2H"), "invalid_meld")
    st = act(st, 0, lay_off(0, "TD"))
    assert st.melds[0].codes == ["TD", "JD", "QD", "KD"]
    st = act(st, 0, discard("QC"))
    result = st.results[-1]
    # Seat 0 keeps 2H 4S (6), seat 1 AS 3H 5C 9C KH 6D (37): seat 0 wins, seat 1 pays 1.
    assert result.detail["trash"] == [6, 37]
    assert result.winner == 0
    assert result.scores == (1, -1)
    assert st.totals == [1, -1]


def test_phom9_empty_show_is_allowed():
    # A player holding no meld shows nothing (móm) and discards.
    seat1 = ["KS", "AC", "4C", "7C", "TC", "2D", "5D", "8D", "JD", "3H"]
    seat0 = ["6H", "9H", "QH", "KC", "2S", "5S", "8S", "JS", "AD"]
    st = stacked("phom", [seat0, seat1])
    st = act(st, 1, discard("KS"))
    for _ in range(5):
        st = pass_turn(st)
    st = act(st, 1, DRAW_STOCK, show())
    assert st.shown[1] is True and st.melds == []


# Seat 1 (10 cards) opens with KD and holds AC 2C 3C, 4D 5D 6D, 7H 8H 9H; seat 0 (9 cards)
# holds 5S 6S 7S, JS QS KS, TC TD TH. Each passes turns 1-3 (draw from the stock, discard it).
MELDED1 = ["KD", "AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H"]
MELDED0 = ["5S", "6S", "7S", "JS", "QS", "KS", "TC", "TD", "TH"]
MELDED_STOCK = ["QC", "KH", "JH", "2S", "8C", "QD", "6H"]  # seat 1 draws QD, seat 0 6H last


def melded_to_seat1_fourth_turn() -> State:
    st = stacked("phom", [list(MELDED0), list(MELDED1)], stock_top=list(MELDED_STOCK))
    st = act(st, 1, discard("KD"))
    for _ in range(5):
        st = pass_turn(st)
    return act(st, 1, DRAW_STOCK)


def test_phom9_fourth_discard_emptying_the_hand_is_a_showdown_not_u():
    # PHOM-8: Ù only by declaring; PHOM-9: show, then discard. Seat 1 shows nine cards and
    # discards its last one: trash 0, and the hand goes on to seat 0's fourth turn (PHOM-7).
    st = melded_to_seat1_fourth_turn()
    st = act(st, 1, show("AC 2C 3C", "4D 5D 6D", "7H 8H 9H"), discard("QD"))
    assert st.hands[1] == [] and st.results == []
    assert (st.turn, st.phase, st.turns) == (0, Phase.DRAW, [3, 4])
    st = act(st, 0, DRAW_STOCK, show("5S 6S 7S", "JS QS KS", "TC TD TH"), discard("6H"))
    result = st.results[-1]
    # PHOM-11: both trash 0; the tie goes to seat 1, first in play order; seat 0 pays 1, not
    # the 6 of a Ù with a discard (PHOM-8).
    assert result.reason == "showdown"
    assert result.detail["trash"] == [0, 0]
    assert (result.winner, result.scores) == (1, (-1, 1))
    assert st.totals == [-1, 1]


def test_phom9_lay_off_of_the_last_card_is_refused():
    # PHOM-9 ends the fourth turn with a discard: seat 0, left with only 6H after its show,
    # may not lay it off on seat 1's 7H 8H 9H; it discards it.
    st = melded_to_seat1_fourth_turn()
    st = act(st, 1, show("AC 2C 3C", "4D 5D 6D", "7H 8H 9H"), discard("QD"))
    st = act(st, 0, DRAW_STOCK, show("5S 6S 7S", "JS QS KS", "TC TD TH"))
    assert st.hands[0] == ["6H"] and shown(st, 2) == "7H 8H 9H"
    rejected(st, 0, lay_off(2, "6H"), "must_keep_discard")
    st = act(st, 0, discard("6H"))
    assert st.melds[2].codes == ["7H", "8H", "9H"]
    assert (st.results[-1].reason, st.results[-1].scores) == ("showdown", (-1, 1))


# --- PHOM-10 card values --------------------------------------------------------------------


@pytest.mark.parametrize(("trash1", "trash0", "values", "winner"), [
    (["KH", "AD", "2S"], ["TC", "3D", "AH"], [14, 16], 0),   # K 13: 16 > 14 (K as 10: 13 < 14)
    (["QH", "JS", "AD"], ["TC", "9D", "4H"], [23, 24], 0),   # Q 12 + J 11 + 1 = 24 > 23 (10s: 21)
])
def test_phom10_card_values(trash1: list[str], trash0: list[str], values: list[int],
                            winner: int):
    # Both show two melds; the trash left decides: ace 1, pips, J 11, Q 12, K 13.
    seat1 = ["KC", "2C", "3C", "4C", "6D", "6H", "6S"] + trash1
    seat0 = ["7H", "8H", "9H", "5C", "5D", "5S"] + trash0
    st = stacked("phom", [seat0, seat1])
    st = act(st, 1, discard("KC"))
    for _ in range(5):
        st = pass_turn(st)
    st = act(st, 1, DRAW_STOCK, show("2C 3C 4C", "6D 6H 6S"), discard(st.stock[0]))
    st = act(st, 0, DRAW_STOCK, show("7H 8H 9H", "5C 5D 5S"), discard(st.stock[0]))
    result = st.results[-1]
    assert result.detail["trash"] == values
    assert result.winner == winner
    assert result.scores == ((1, -1) if winner == 0 else (-1, 1))


def test_phom10_card_values_are_fixed_no_card_count_option():
    # RULES §3.14: card_count_scoring does not apply to Phom.
    with pytest.raises(InvalidOptions) as info:
        match_rules("phom", {"card_count_scoring": True}, 4)
    assert info.value.code == "option_not_allowed"


# --- PHOM-11 result without Ù --------------------------------------------------------------

# Play order A (seat 1), B (seat 2), C (seat 3), D (seat 0, the dealer).
A = ["2C", "3C", "4C", "5D", "5H", "5S", "AS", "4H", "7D", "KC"]   # keeps AS 4H 7D = 12
B = ["6H", "7H", "8H", "9C", "9D", "9S", "2D", "3S", "7C"]         # keeps 2D 3S 7C = 12
C = ["TD", "JD", "QD", "6S", "6C", "6D", "KD", "9H", "8S"]         # keeps KD 9H 8S = 30
D = ["AC", "5C", "TC", "3D", "8D", "2H", "JH", "4S", "KS"]         # no meld: móm (57)
SHOWS = {1: ("2C 3C 4C", "5D 5H 5S"), 2: ("6H 7H 8H", "9C 9D 9S"),
         3: ("TD JD QD", "6S 6C 6D"), 0: ()}


def example_hand() -> Recorder:
    """The PHOM-11 example: every draw is from the stock and the drawn card is discarded."""
    rec = Recorder(stacked("phom", [D, A, B, C]))
    rec(1, discard("KC"))
    for seat in (2, 3, 0):
        rec.pass_turn(seat)
    for _ in range(2):
        for seat in (1, 2, 3, 0):
            rec.pass_turn(seat)
    for seat in (1, 2, 3, 0):
        rec(seat, DRAW_STOCK)
        drawn = rec.st.hands[seat][-1]
        rec(seat, show(*SHOWS[seat]), discard(drawn))
    return rec


def test_phom11_example_a_12_b_12_c_30_d_mom():
    # A and B tie on 12: A comes first in play order and wins; B pays 1, C 2, D (móm) 4.
    st = example_hand().st
    result = st.results[-1]
    assert result.reason == "showdown"
    assert result.detail["trash"] == [57, 12, 12, 30]
    assert result.detail["mom"] == [True, False, False, False]
    assert result.winner == 1
    assert result.scores == (-4, 7, -1, -2)
    assert sum(result.scores) == 0
    assert st.totals == [-4, 7, -1, -2]
    assert st.stock == []  # PHOM-15: four players use exactly the 15-card stock
    assert st.turns == [4, 4, 4, 4]


def test_phom11_all_mom_lowest_total_wins():
    # Neither player melds: seat 1 (51) beats seat 0 (67); seat 0 pays 4.
    seat1 = ["KS", "AC", "4C", "7C", "TC", "2D", "5D", "8D", "JD", "3H"]
    seat0 = ["6H", "9H", "QH", "KC", "2S", "5S", "8S", "JS", "AD"]
    st = stacked("phom", [seat0, seat1])
    st = act(st, 1, discard("KS"))
    for _ in range(5):
        st = pass_turn(st)
    for seat in (1, 0):
        st = act(st, seat, DRAW_STOCK, show(), discard(st.stock[0]))
    result = st.results[-1]
    assert result.detail["mom"] == [True, True]
    assert result.detail["trash"] == [67, 51]
    assert result.winner == 1
    assert result.scores == (-4, 4)


def test_phom11_mom_player_cannot_win_even_with_the_lowest_total():
    # Seat 1 shows nothing (trash 51); seat 0 shows one meld and keeps more: seat 0 wins,
    # seat 1 pays 4.
    seat1 = ["KS", "AC", "4C", "7C", "TC", "2D", "5D", "8D", "JD", "3H"]
    seat0 = ["6H", "9H", "QH", "KC", "QS", "KD", "JS", "QC", "9D"]
    st = stacked("phom", [seat0, seat1])
    st = act(st, 1, discard("KS"))
    for _ in range(5):
        st = pass_turn(st)
    st = act(st, 1, DRAW_STOCK, show(), discard(st.stock[0]))
    st = act(st, 0, DRAW_STOCK, show("QH QS QC"), discard(st.stock[0]))
    result = st.results[-1]
    assert result.detail["trash"][1] < result.detail["trash"][0]
    assert result.winner == 0
    assert result.scores == (4, -4)


# --- PHOM-12 session ------------------------------------------------------------------------


def test_phom12_session_of_hands_zero_sum_dealer_passes_left():
    # Default: one hand per player. Hand 1: seat 1 Ù (12). Hand 2, seat 1 deals: seat 0 holds
    # ten cards and goes Ù with nine and a discard (6).
    assert match_rules("phom", {}, 2).hands == 2
    assert match_rules("phom", {"hands": 3}, 2).hands == 3
    u10 = ("AC 2C 3C", "9H 9S 9C 9D", "4D 5D 6D")
    other = ["KH", "QH", "JH", "2H", "3H", "5S", "6S", "7S", "8S"]
    st = stacked("phom", [other, [c for m in u10 for c in m.split()]])
    st = act(st, 1, declare(*u10))
    assert (st.phase, st.totals) == (Phase.HAND_OVER, [-12, 12])
    dealer = next_dealer(st)
    assert dealer == 1
    u9 = ("AC 2C 3C", "9H 9S 9C", "4D 5D 6D")
    st = stacked("phom", [[c for m in u9 for c in m.split()] + ["KD"], other], dealer=dealer,
                 state=st)
    assert (st.turn, st.phase) == (0, Phase.OPENING)
    st = act(st, 0, declare(*u9, discard="KD"))
    assert st.results[-1].scores == (6, -6)
    assert st.totals == [-6, 6]
    assert sum(st.totals) == 0
    assert st.phase is Phase.GAME_OVER
    assert st.game_winner == 1


def test_phom12_hands_option_must_be_positive():
    with pytest.raises(InvalidOptions) as info:
        match_rules("phom", {"hands": 0}, 4)
    assert info.value.code == "bad_option_value"


# --- PHOM-13 no lay-off on others -----------------------------------------------------------


def test_phom13_no_layoff_on_others_refuses_lay_off():
    # With the option, seat 0 shows its melds but may not lay TD off; it keeps 2H 4S TD (16).
    st = to_seat0_fourth_turn({"no_layoff_on_others": True})
    st = act(st, 0, show("7C 7D 7H", "7S 8S 9S"))
    rejected(st, 0, lay_off(0, "TD"), "not_in_this_game")
    st = act(st, 0, discard("QC"))
    assert st.results[-1].detail["trash"] == [16, 37]
    assert st.results[-1].scores == (1, -1)


# --- PHOM-14 discard penalties --------------------------------------------------------------
# Three players, order 1, 2, 0. Seat 2 takes seat 1's 6C, 9S and KS and goes Ù with ten cards.

P14_SEAT1 = ["6C", "9S", "KS", "2C", "3D", "5H", "7S", "8D", "JC", "QH"]
P14_SEAT2 = ["4C", "5C", "9D", "9H", "TS", "JS", "QS", "AD", "8H"]
P14_SEAT0 = ["AC", "3C", "7C", "TC", "2H", "4H", "6H", "5D", "6D"]


def three_takes(options: dict[str, Any]) -> State:
    st = stacked("phom", [P14_SEAT0, P14_SEAT1, P14_SEAT2], options=options)
    st = act(st, 1, discard("6C"))
    st = act(st, 2, DRAW_DISCARD)
    if options.get("discard_penalties"):
        assert st.hand_scores == [0, -1, 1]  # 1 chip for the take
    st = act(st, 2, discard("AD"))
    st = pass_turn(st)
    st = act(st, 1, DRAW_STOCK, discard("9S"))
    st = act(st, 2, DRAW_DISCARD, discard("8H"))
    st = pass_turn(st)
    st = act(st, 1, DRAW_STOCK, discard("KS"))
    st = act(st, 2, DRAW_DISCARD)
    return act(st, 2, declare("4C 5C 6C", "9D 9H 9S", "TS JS QS KS"))


def test_phom14_three_takes_then_u_the_predecessor_pays_everything():
    # 3 chips for the takes, then the whole Ù (12 x 2) from seat 1; seat 0 pays nothing.
    st = three_takes({"discard_penalties": True})
    assert st.results[-1].scores == (0, -27, 27)


def test_phom14_without_the_option_every_player_pays():
    # The same hand without discard penalties: 12 from each opponent, no chips for takes.
    st = three_takes({})
    assert st.results[-1].scores == (-12, -12, 24)


def test_phom14_take_penalties_count_in_a_showdown():
    # Two players: seat 0 takes two of seat 1's discards (2 chips) and wins the showdown (+1).
    st = to_seat0_fourth_turn({"discard_penalties": True})
    assert st.hand_scores == [2, -2]
    st = act(st, 0, show("7C 7D 7H", "7S 8S 9S"), lay_off(0, "TD"), discard("QC"))
    assert st.results[-1].scores == (3, -3)


def test_phom14_option_value_must_be_boolean():
    with pytest.raises(InvalidOptions) as info:
        match_rules("phom", {"discard_penalties": 1}, 4)
    assert info.value.code == "bad_option_value"


# --- PHOM-15 stock --------------------------------------------------------------------------


def test_phom15_four_player_stock_is_exactly_enough():
    # 52 - 37 = 15 stock cards, 15 draws in a hand without takes (see the PHOM-11 example).
    st = stacked("phom", [D, A, B, C])
    assert len(st.stock) == 15
    st = example_hand().st
    assert st.stock == [] and st.phase is Phase.HAND_OVER
    rejected(st, 1, DRAW_STOCK, "hand_over")


# --- replay ---------------------------------------------------------------------------------


def test_replay_of_the_phom11_example_reproduces_the_scores():
    rec = example_hand()
    log = {"game": "phom", "options": {}, "players": 4,
           "hands": [{"dealer": 0, "deal": rec.deal, "actions": rec.actions}]}
    out = run_replay(log)
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [{"ended": True, "winner": 1, "reason": "showdown",
                             "scores": [-4, 7, -1, -2]}]
    assert out["totals"] == [-4, 7, -1, -2]
    assert out["game_over"] is False
