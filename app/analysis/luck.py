"""Luck beside skill (issue 23; GNU Backgammon's luck figure): what each draw from the stock
brought the seat against the average draw, in the units of a decision's loss.

For a draw from the stock, every card the seat could not see (its view's unseen cards: the stock
and the others' hands less what they showed, GEN-14) was equally likely to come. The draw's own
value is the decision's (:func:`app.analysis.evaluate.stock_outcomes`: the unseen cards dealt
round the decision's samples, each on top of the stock, drawn, and the seat's turn finished by
the normal player); the card that came (from the hand's deal, revealed when it is over,
PROTOCOL.md §7) is drawn in every one of the same samples. Its luck is its value less the
draw's: the samples' own noise cancels in the difference, and over the cards that might have
come it averages zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.sensible import SensibleBot
from app.engine.actions import Action
from app.engine.state import State

from .evaluate import on_top, replayed, turn_of, value


@dataclass(frozen=True, slots=True)
class HandLuck:
    """A seat's luck in one hand: the sum over its ``draws`` draws from the stock."""

    hand: int
    seat: int
    draws: int
    luck: float

    def to_json(self) -> dict[str, object]:
        return {"hand": self.hand, "seat": self.seat, "draws": self.draws, "luck": self.luck}


def draw_luck(base: Sequence[State], seat: int, draw: Action, drawn: str,
              stock: Sequence[tuple[float, float]], bot: SensibleBot) -> float:
    """The value of ``drawn`` on top of the stock in each of ``base``, less the draw's value
    there (``stock``: :func:`~app.analysis.evaluate.stock_outcomes` of the same samples)."""
    dealt = [on_top(b, seat, drawn) for b in base]
    came = [value(st, seat) for st in replayed(dealt, seat, *turn_of(dealt[0], seat, draw, bot))]
    return sum(came) / len(came) - sum(v for v, _ in stock) / len(stock)


def sum_luck(draws: Sequence[tuple[int, int, float]], players: int,
             hands: int) -> list[HandLuck]:
    """Per hand and seat, the sum of the ``(hand, seat, luck)`` of its draws (0 with none)."""
    out = []
    for h in range(hands):
        for s in range(players):
            mine = [x for hh, ss, x in draws if (hh, ss) == (h, s)]
            out.append(HandLuck(h, s, len(mine), round(sum(mine), 2)))
    return out
