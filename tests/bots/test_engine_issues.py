"""Engine bugs found by the bot playouts, kept as regression tests."""

from __future__ import annotations

import pytest

from app.engine.actions import SwapJoker
from app.engine.deal import shuffled_deal
from app.engine.errors import RuleError
from app.engine.game import apply, is_legal, new_match, start_hand
from app.engine.games import match_rules
from app.engine.melds import form_meld
from app.engine.moves import legal_actions
from app.engine.state import Phase


def test_german_exchange_never_leaves_the_player_without_a_move() -> None:
    """GERMAN-8 with GEN-8: seat 0 (opened) took the 6♠ from the discard pile and holds 6♠ 6♣;
    the run 5♣ JK:6♣ 7♣ 8♣ is on the table. ``swap_joker`` 6♣ is legal, but then the joker must
    be played this turn, and playing it (lay-off at 4♣ or 9♣) leaves only the 6♠, which may not
    be discarded this turn (``no_discardable_card``); the discard itself is refused
    (``joker_must_be_played``): ``legal_actions`` is empty and the hand cannot go on. Random
    German playouts reach this within a few hands (3 players, seeds 1, 2, 4)."""
    rules = match_rules("german", {}, 2)
    st = start_hand(new_match(rules), shuffled_deal(rules, 0, _Rng()), 0)
    st = st.copy()
    st.turn, st.phase = 0, Phase.PLAY
    st.hands[0] = ["6S", "6C"]
    st.opened = [True, True]
    st.taken, st.known[0], st.drawn = ["6S"], ["6S"], 1
    st.melds = [form_meld([("5C", None), ("JK", "6C"), ("7C", None), ("8C", None)],
                          rules.meld, owner=1)]
    # The engine refuses the exchange that would strand the player (joker_unplayable).
    assert not [a for a in legal_actions(st, 0) if a.type == "swap_joker"]
    with pytest.raises(RuleError) as info:
        apply(st, 0, SwapJoker(0, "6C"))
    assert info.value.code == "joker_unplayable"
    assert legal_actions(st, 0), "the player still has a legal move"


class _Rng:
    def shuffle(self, x: list[object]) -> None:
        x.reverse()


def test_kaluki_taken_card_cannot_be_exchanged_away() -> None:
    """KALUKI-6 with KALUKI-7: before opening, seat 0 took the A♠ from the discard pile (so its
    opening must use it); the set A♣ A♦ JK:A♠ is on the table. ``legal_actions`` offers
    ``swap_joker`` A♠, and ``apply`` accepts it: the A♠ goes into the meld, yet ``must_use``
    still names it. Then ``legal_actions`` raises ``ValueError`` (moves.py ``rest.remove``),
    a discard is refused (``must_use_taken_card``) and no opening can include the A♠: the
    player is stuck. Seen in bot playouts (kaluki, mandatory_discard, 4 players, seed 22016:
    draw AS from the discard pile, swap AH, swap AS)."""
    rules = match_rules("kaluki", {}, 2)
    st = start_hand(new_match(rules), shuffled_deal(rules, 0, _Rng()), 0).copy()
    st.turn, st.phase = 0, Phase.PLAY
    st.hands[0] = ["AS", "KH", "KD", "QH", "7C", "5D", "9S"]
    st.taken, st.known[0], st.drawn, st.must_use = ["AS"], ["AS"], 1, "AS"
    st.melds = [form_meld([("AC", None), ("AD", None), ("JK", "AS")], rules.meld, owner=1)]
    st.opened = [False, True]
    swap = SwapJoker(0, "AS")
    assert not is_legal(st, 0, swap)
    with pytest.raises(RuleError) as info:
        apply(st, 0, swap)
    assert info.value.code == "must_use_taken_card"
