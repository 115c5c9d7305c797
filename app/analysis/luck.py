"""Luck beside skill (issue 23; GNU Backgammon's luck figure): what each draw from the stock
brought the seat against the average draw, in the units of a decision's loss.

For a draw from the stock, every card the seat could not see (its view's unseen cards: the stock
and the others' hands less what they showed, GEN-14) was equally likely to come. Each is put on
top of the stock in each of ``LUCK_SAMPLES`` samples of the hidden cards (the same samples for
every card: their noise cancels in the differences), drawn, and the seat's turn finished by the
normal player, as a candidate move is (:func:`app.analysis.evaluate._play_out`). The luck of the
draw is the value of the card that came (from the hand's deal, revealed when it is over,
PROTOCOL.md §7) less the mean value over the unseen cards, each counted as often as it is unseen
(two packs). Its mean over the card that might have come is zero by construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.sensible import SensibleBot
from app.engine.actions import Action
from app.engine.state import State
from app.engine.views import seat_view_of

from .evaluate import play_out, samples

LUCK_SAMPLES = 1  # samples per draw; every unseen card is played in each (docs/analysis.md)


@dataclass(frozen=True, slots=True)
class HandLuck:
    """A seat's luck in one hand: the sum over its ``draws`` draws from the stock."""

    hand: int
    seat: int
    draws: int
    luck: float

    def to_json(self) -> dict[str, object]:
        return {"hand": self.hand, "seat": self.seat, "draws": self.draws, "luck": self.luck}


def unseen(st: State, seat: int) -> Counter[str]:
    """The cards ``seat`` cannot see in ``st``: the stock, and the other hands less what each
    showed (GEN-14). The same multiset in every sample of one view."""
    out = Counter(st.stock)
    for s, hand in enumerate(st.hands):
        if s != seat:
            out += Counter(hand) - Counter(st.known[s])
    return out


def card_values(st: State, seat: int, draw: Action, seed: str, bot: SensibleBot,
                k: int = LUCK_SAMPLES) -> dict[str, tuple[float, int]]:
    """For each card ``seat`` might draw by ``draw`` (a stock draw) at ``st``: its value (the
    mean over ``k`` samples of its view) and how many of it are unseen."""
    base = samples(seat_view_of(st, seat), st.rules, seed, k)
    counts = unseen(base[0], seat)
    return {card: (sum(play_out(_on_top(b, seat, card), seat, draw, bot)[0] for b in base) / k,
                   n) for card, n in counts.items()}


def draw_luck(values: dict[str, tuple[float, int]], drawn: str) -> float:
    """The value of ``drawn`` less the mean over the unseen cards (weighted by their counts)."""
    total = sum(n for _, n in values.values())
    mean = sum(v * n for v, n in values.values()) / total
    return values[drawn][0] - mean


def _on_top(st: State, seat: int, card: str) -> State:
    """``st`` with ``card`` (unseen by ``seat``) swapped onto the top of the stock."""
    new = st.copy()
    if card in new.stock:
        i = new.stock.index(card)
        new.stock[0], new.stock[i] = new.stock[i], new.stock[0]
        return new
    for s, hand in enumerate(new.hands):
        if s != seat and (Counter(hand) - Counter(new.known[s]))[card]:
            hand[hand.index(card)] = new.stock[0]
            new.stock[0] = card
            return new
    raise ValueError(f"{card!r} is not unseen by seat {seat}")


def sum_luck(draws: Sequence[tuple[int, int, float]], players: int,
             hands: int) -> list[HandLuck]:
    """Per hand and seat, the sum of the ``(hand, seat, luck)`` of its draws (0 with none)."""
    out = []
    for h in range(hands):
        for s in range(players):
            mine = [x for hh, ss, x in draws if (hh, ss) == (h, s)]
            out.append(HandLuck(h, s, len(mine), round(sum(mine), 2)))
    return out
