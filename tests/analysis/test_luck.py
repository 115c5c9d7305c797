"""Luck beside skill (issue 23, docs/analysis.md): per draw from the stock, the value of the card
that came less the mean over the cards the seat could not see, summed per hand and seat."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.analysis import analyse
from app.analysis.evaluate import samples, stock_outcomes, unseen
from app.analysis.luck import draw_luck
from app.analysis.report import _Steady
from app.bots.sensible import SensibleBot
from app.engine.actions import Draw
from app.engine.matchlog import fold
from app.engine.views import seat_view_of

from .logs import hand_log, parsed

DRAW = {"type": "draw", "source": "stock"}
OTHER = ["AH", "2H", "3D", "4C", "5S", "6D", "7H", "8C", "9S", "JD"]
# Seat 1 (first to play, GEN-6) needs one of 7H 7S (7H is seat 0's) or 8C/3S... to go out:
# AS 2S 3S 4S, 4H 5H 6H, 7C 7D and 9C.
WAITING = ["AS", "2S", "3S", "4S", "4H", "5H", "6H", "7C", "7D", "9C"]


def _log(card: str) -> dict:
    return hand_log("standard", [OTHER, WAITING], [(1, DRAW), (1, {"type": "discard",
                                                                    "card": "9C"})],
                    stock_top=[card], discard=["QC"])


def test_drawing_the_card_that_completes_the_meld_is_lucky():
    # 7S makes 7C 7D 7S (GEN-3): seat 1 can meld everything and go out on this turn.
    lucky = analyse(parsed(_log("7S")), "l")
    assert lucky.luck[1].seat == 1 and lucky.luck[1].draws == 1
    assert lucky.luck[1].luck > 0
    assert lucky.seats[1].luck == lucky.luck[1].luck
    assert (lucky.luck[0].draws, lucky.luck[0].luck) == (0, 0.0)  # seat 0 never drew


def test_drawing_a_card_that_fits_nothing_is_unlucky():
    # KD fits nothing of seat 1's: worse than the average card, some of which go out.
    assert analyse(parsed(_log("KD")), "l").luck[1].luck < 0


def test_the_answer_carries_luck_per_seat_and_hand():
    out = analyse(parsed(_log("7S")), "l").to_json()
    assert [x["seat"] for x in out["luck"]] == [0, 1]
    assert all("luck" in seat for seat in out["seats"])




@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["7S", "KD", "8D", "3H", "TC"]), st.text(min_size=1, max_size=8))
def test_a_stock_draws_luck_is_zero_on_average_over_the_unseen_cards(card, seed):
    # The mean, over every card seat 1 could have drawn (counted as often as unseen), of the
    # luck that card would have brought is zero: luck measures the cards, not the player. Here
    # the draw's value takes every unseen card once (one sample per card).
    steps = list(fold(parsed(_log(card))))
    before = steps[0].state  # dealt, seat 1 to draw
    world = samples(seat_view_of(before, 1), before.rules, seed, 1)[0]
    cards = sorted(unseen(world, 1).elements())
    assert len(cards) == 52 - 10 - 1  # the stock and seat 0's hand: not its own, not the upcard
    base = [world] * len(cards)
    bot = SensibleBot(_Steady())
    stock = stock_outcomes(base, 1, Draw("stock"), bot)
    lucks = [draw_luck(base, 1, Draw("stock"), c, stock, bot) for c in cards]
    assert abs(sum(lucks) / len(lucks)) < 1e-9
    assert max(lucks) > 0 > min(lucks)
