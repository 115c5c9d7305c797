"""Stacked-deal grades in the eight games that test_grades.py does not cover (issue 23): in each,
the seat to play can go out at once, so going out is `best` with no loss and passing it up is a
`blunder` (PROTOCOL.md §10: "passing up a win that was there"). Dealer 0; seat 1, the dealer's
left, plays first (GEN-6) and, in Phỏm and Nowrang, holds the extra card and opens (PHOM-3,
NOWRANG-4). The other seat's cards are spread over the pack (``filler``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from app.analysis import Decision
from app.analysis.report import graded

from .logs import filler, hand_log, parsed

DRAW = {"type": "draw", "source": "stock"}
BAD = ("mistake", "blunder")


def melds(*listings: str) -> list[list[str]]:
    return [m.split() for m in listings]


@dataclass(frozen=True)
class Ready:
    """Seat 1's hand, the card it draws (None: it opens without drawing), its going out and
    the plain discard that passes it up."""

    game: str
    hand: list[str]
    drawn: str | None
    out: dict[str, Any]
    passed: str
    upcard: bool = True

    def log(self, action: dict[str, Any], options: dict[str, Any] | None = None,
            meldless: bool = False) -> dict[str, Any]:
        """The hand's log; ``meldless``: the other seat's cards hold no meld."""
        stock = [self.drawn] if self.drawn else []
        upcard = ["QC"] if self.upcard else []
        other = filler(self.game, [*self.hand, *stock, *upcard], len(self.hand) - (
            0 if self.drawn else 1), meldless=meldless)
        actions = [(1, DRAW)] if self.drawn else []
        return hand_log(self.game, [other, self.hand], [*actions, (1, action)],
                        stock_top=stock, discard=upcard, options=options)

    def decision(self, action: dict[str, Any], options: dict[str, Any] | None = None
                 ) -> Decision:
        index = 1 if self.drawn else 0
        found = [d for d in graded(parsed(self.log(action, options)), "g")
                 if d.index == index]
        assert found, f"no decision at index {index}"
        return found[0]


TEN = ["AS", "2S", "3S", "4S", "4H", "5H", "6H", "7C", "7D", "7S"]
TEN_MELDS = melds("AS 2S 3S 4S", "4H 5H 6H", "7C 7D 7S")
# No two in it: with twos wild (CONT-10) a two used as a wild pays more than as itself.
CONT = ["3S", "4S", "5S", "6S", "7S", "6H", "7H", "8H", "9H", "3C", "4C", "5C", "TD", "JD", "QD"]
READY = [
    # BOAT-5: declaring the whole hand but the drawn KD, discarded.
    Ready("boat_house", TEN, "KD", {"type": "declare", "melds": TEN_MELDS, "discard": "KD"},
          "KD"),
    # KALUKI-5/8: 15 cards in four melds worth 55 + 27 + 26 + 9 (≥ 51), the drawn KD thrown.
    Ready("kaluki", ["TS", "JS", "QS", "KS", "AS", "9H", "9D", "9C", "5C", "6C", "7C", "8C",
                     "2D", "3D", "4D"], "KD",
          {"type": "meld", "melds": melds("TS JS QS KS AS", "9H 9D 9C", "5C 6C 7C 8C",
                                          "2D 3D 4D")}, "KD"),
    # DOUBLE-7: melding all ten cards (going out with the discard of KD next).
    Ready("double_rum", TEN, "KD", {"type": "meld", "melds": TEN_MELDS}, "KD"),
    # CONT-6: the 5-4-3-3 pattern, the 16th card (KC) discarded.
    Ready("continental", CONT, "KC",
          {"type": "declare", "melds": melds("3S 4S 5S 6S 7S", "6H 7H 8H 9H", "3C 4C 5C",
                                             "TD JD QD"), "discard": "KC"}, "KC"),
    # QUEEN-2/3: seven cards in melds and the drawn KD discarded: 31 points.
    Ready("queen_city", ["AS", "2S", "3S", "4S", "7C", "7D", "7S"], "KD",
          {"type": "declare", "melds": melds("AS 2S 3S 4S", "7C 7D 7S"), "discard": "KD"},
          "KD"),
    # PHOM-3/8: Ù with the ten dealt cards at the opening, no discard (12 from the other seat).
    Ready("phom", ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "9S"], None,
          {"type": "declare", "melds": melds("AS 2S 3S", "4H 5H 6H", "9C 9D 9H 9S"),
           "discard": None}, "9S", upcard=False),
    # GERMAN-6/10: 13 cards melded (31 + 27 + 26 + 9 ≥ 40), then the last card (KD) discarded.
    Ready("german", ["QS", "KS", "AS", "9H", "9D", "9C", "5C", "6C", "7C", "8C", "2D", "3D",
                     "4D"], "KD",
          {"type": "meld", "melds": melds("QS KS AS", "9H 9D 9C", "5C 6C 7C 8C", "2D 3D 4D")},
          "KD"),
    # NOWRANG-4/6: the garwanj and two runs among the eleven dealt cards, KD discarded.
    Ready("nowrang", ["2S", "3S", "4S", "5S", "6H", "7H", "8H", "9C", "TC", "JC", "KD"], None,
          {"type": "declare", "melds": melds("2S 3S 4S 5S", "6H 7H 8H", "9C TC JC"),
           "discard": "KD"}, "KD", upcard=False),
]
IDS = [r.game for r in READY]


@pytest.mark.parametrize("ready", READY, ids=IDS)
def test_going_out_at_once_is_best_with_no_loss(ready: Ready):
    out = ready.decision(ready.out)
    assert (out.grade, out.loss) == ("best", 0.0)


@pytest.mark.parametrize("ready", READY, ids=IDS)
def test_passing_up_going_out_is_a_blunder(ready: Ready):
    held = ready.decision({"type": "discard", "card": ready.passed})
    assert held.grade == "blunder"
    assert held.loss > 0
    assert held.best.type == ready.out["type"]
