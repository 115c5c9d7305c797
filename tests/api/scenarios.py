"""Stacked-deck matches for the end-to-end tests: the deals, each seat's script, and the exact
results worked out by hand from RULES.md (so a wrong score or payment on the server fails).
Stacked deals are for free play only (no stake or buy-in), so payments are in points; the chips
they move at a stake are checked on fairly shuffled matches (tests/api/test_concurrency.py).

A script is the list of turns in play order; a turn is ``(seat, [action, ...])``. Seats follow
the rules' order (dealer's left first, GEN-6/STD-4), and each client plays only its own turns.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"

Turn = tuple[int, list[dict[str, Any]]]


def pack(decks: int = 1, jokers: int = 0) -> list[str]:
    """The game's pack in a fixed order (deck by deck, suit by suit, ace to king, jokers)."""
    return [r + s for s in SUITS for r in RANKS] * decks + ["JK"] * jokers


def stack(hands: list[list[str]], upcard: list[str], stock_top: list[str],
          decks: int = 1, jokers: int = 0) -> dict[str, Any]:
    """A PROTOCOL.md §4 deal: the given hands, upcard and top of the stock; the rest of the pack
    follows in the stock in pack order (never drawn by the scripts)."""
    rest = Counter(pack(decks, jokers))
    rest.subtract(Counter(c for h in hands for c in h))
    rest.subtract(Counter(upcard + stock_top))
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"a card is used twice: {[c for c, n in rest.items() if n < 0]}")
    tail = [c for c in pack(decks, jokers) if rest[c] > 0 and not rest.subtract({c: 1})]
    return {"hands": hands, "stock": stock_top + tail, "discard": upcard}


def draw(source: str = "stock") -> dict[str, Any]:
    return {"type": "draw", "source": source}


def meld(*melds: list[str]) -> dict[str, Any]:
    return {"type": "meld", "melds": list(melds)}


def lay_off(meld_no: int, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": meld_no, "cards": list(cards)}


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


@dataclass
class Scenario:
    game: str
    options: dict[str, Any]
    players: int
    deals: list[dict[str, Any]]
    scripts: list[list[Turn]]                     # per hand
    hand_scores: list[list[int]]                  # per hand, per seat
    totals: list[int]
    winner: int
    payments: list[list[tuple[int, int, int]]]    # per hand: (payer, payee, points)
    decks: int = 1
    jokers: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def actions(self, hand: int) -> list[tuple[int, dict[str, Any]]]:
        return [(seat, a) for seat, acts in self.scripts[hand] for a in acts]


# Standard Rummy, 3 players (7 cards each), two hands to a target of 20.
#
# Hand 0, dealer 0, seat 1 plays first. Seat 1 melds 5C 5D 5H and 7S 8S 9S, discards QD; seat 2
# takes QD from the discard pile for a set of queens and throws JH; seat 0 lays 5S off on the
# fives and melds 9D TD JD, throwing JC; seat 1 lays 6S off on its run and goes out by discarding
# 2D. Seat 1 scores what is left: seat 0 AS 2S 3H = 6, seat 2 3C 4C AD 2H = 10, so 16 (STD-13).
# 16 < 20: a second hand is dealt by seat 1 (STD-15), seat 2 plays first.
#
# Hand 1: seat 2 melds 6C 6D 6H and throws KS; seat 0 takes KS (GEN-8: throws 2S instead); seat 1
# draws JH and throws it; seat 2 draws JC and melds 7C..JC, going out with no discard (STD-11).
# Left: seat 0 AS 3D 4D 5S 8H QD KS = 1+3+4+5+8+10+10 = 41; seat 1 2D 3S 7H 9D TS JS 5D =
# 2+3+7+9+10+10+5 = 46: seat 2 scores 87, totals 0/16/87, seat 2 wins (GEN-15).
#
# Payments (each loser owes the winner what the winner scored from him, in points): hand 0 seat 0
# owes 6 and seat 2 owes 10 to seat 1; hand 1 seat 0 owes 41 and seat 1 owes 46 to seat 2.
STANDARD = Scenario(
    game="standard", options={"target_score": 20}, players=3,
    deals=[
        stack(hands=[["9D", "TD", "JD", "AS", "2S", "3H", "JC"],
                     ["5C", "5D", "5H", "7S", "8S", "2D", "QD"],
                     ["QS", "QH", "3C", "4C", "AD", "2H", "JH"]],
              upcard=["KC"], stock_top=["9S", "5S", "6S"]),
        stack(hands=[["AS", "2S", "3D", "4D", "5S", "8H", "QD"],
                     ["2D", "3S", "7H", "9D", "TS", "JS", "5D"],
                     ["6C", "6D", "6H", "7C", "8C", "9C", "TC"]],
              upcard=["4H"], stock_top=["KS", "JH", "JC"]),
    ],
    scripts=[
        [(1, [draw(), meld(["5C", "5D", "5H"], ["7S", "8S", "9S"]), discard("QD")]),
         (2, [draw("discard"), meld(["QD", "QH", "QS"]), discard("JH")]),
         (0, [draw(), lay_off(0, "5S"), meld(["9D", "TD", "JD"]), discard("JC")]),
         (1, [draw(), lay_off(1, "6S"), discard("2D")])],
        [(2, [draw(), meld(["6C", "6D", "6H"]), discard("KS")]),
         (0, [draw("discard"), discard("2S")]),
         (1, [draw(), discard("JH")]),
         (2, [draw(), meld(["7C", "8C", "9C", "TC", "JC"])])],
    ],
    hand_scores=[[0, 16, 0], [0, 0, 87]],
    totals=[0, 16, 87],
    winner=2,
    payments=[[(0, 1, 6), (2, 1, 10)], [(0, 2, 41), (1, 2, 46)]],
)

# Kaluki, 2 players (two packs and four jokers, 15 cards each), target 50.
#
# Dealer 0, seat 1 plays first. Seat 1 draws 4S and opens with KH KD KS (30) and 9C TC JC (29):
# 59 >= 51 (KALUKI-5), throwing QS. Seat 0 draws 8C and throws it. Seat 1 draws 6H, melds 2H..6H
# and 7S 7D with a joker named 7C (KALUKI-4: a joker in a three-card set is designated), lays QC
# off on 9C TC JC and goes out by throwing 4S. Seat 0 holds its fifteen cards, among them the
# second copies of KH, 7D, 9C, 2H and a joker (so a leak of a twin shows in the counts):
# KH 10, 7D 7, 9C 9, 2H 2, JK 25, AS 15, 3C 3, 5D 5, 6S 6, 8H 8, TD 10, JS 10, QD 10, 4C 4,
# 2C 2 = 126 (KALUKI-8). 126 >= 50 ends the match; seat 0 owes seat 1 the 126 points.
KALUKI = Scenario(
    game="kaluki", options={"target_score": 50}, players=2,
    decks=2, jokers=4,
    deals=[
        stack(hands=[["KH", "7D", "9C", "2H", "JK", "AS", "3C", "5D", "6S", "8H", "TD", "JS",
                      "QD", "4C", "2C"],
                     ["KH", "KD", "KS", "9C", "TC", "JC", "2H", "3H", "4H", "5H", "7S", "7D",
                      "JK", "QC", "QS"]],
              upcard=["5C"], stock_top=["4S", "8C", "6H"], decks=2, jokers=4),
    ],
    scripts=[
        [(1, [draw(), meld(["KH", "KD", "KS"], ["9C", "TC", "JC"]), discard("QS")]),
         (0, [draw(), discard("8C")]),
         (1, [draw(), meld(["2H", "3H", "4H", "5H", "6H"], ["7S", "7D", "JK:7C"]),
              lay_off(1, "QC"), discard("4S")])],
    ],
    hand_scores=[[0, 126]],
    totals=[0, 126],
    winner=1,
    payments=[[(0, 1, 126)]],
)


def physical(entry: str) -> str:
    """The card itself of a meld entry (``JK:7C`` is the joker)."""
    return entry.split(":", 1)[0]


@dataclass
class Snapshot:
    """The table after some actions of a hand, tracked independently of the server."""

    hands: list[list[str]]
    stock: list[str]
    discard: list[str]
    melds: list[list[str]]
    known: list[list[str]]   # cards taken from the discard pile and still held (GEN-14)
    over: bool = False

    def copy(self) -> Snapshot:
        return Snapshot([list(h) for h in self.hands], list(self.stock), list(self.discard),
                        [list(m) for m in self.melds], [list(k) for k in self.known], self.over)

    def allowed(self, seat: int) -> Counter[str]:
        """The cards `seat` may know of: its own hand and everything public, with copies
        counted (two packs hold two of each code). Hands are public once the hand is over."""
        seen: Counter[str] = Counter(self.discard)
        for m in self.melds:
            seen.update(m)
        for other, hand in enumerate(self.hands):
            seen.update(hand if other == seat or self.over else self.known[other])
        return seen


def _take(cards: list[str], card: str) -> None:
    cards.remove(card)


def _apply(snap: Snapshot, seat: int, action: dict[str, Any]) -> Snapshot:
    new = snap.copy()
    hand, known = new.hands[seat], new.known[seat]
    kind = action["type"]
    if kind == "draw" and action["source"] == "stock":
        hand.append(new.stock.pop(0))
    elif kind == "draw":
        card = new.discard.pop()
        hand.append(card)
        known.append(card)
    elif kind in ("meld", "lay_off", "discard"):
        groups = action["melds"] if kind == "meld" else [
            action["cards"] if kind == "lay_off" else [action["card"]]]
        for group in groups:
            cards = [physical(c) for c in group]
            for card in cards:
                _take(hand, card)
                if card in known:
                    _take(known, card)
            if kind == "meld":
                new.melds.append(cards)
            elif kind == "lay_off":
                new.melds[action["meld"]].extend(cards)
            else:
                new.discard.extend(cards)
    else:
        raise ValueError(f"the tracker does not know {kind!r}")
    return new


def snapshots(scenario: Scenario, hand_no: int) -> list[Snapshot]:
    """The table before the first action of a hand and after each one (index = actions done);
    the last action ends the hand."""
    deal = scenario.deals[hand_no]
    snap = Snapshot([list(h) for h in deal["hands"]], list(deal["stock"]),
                    list(deal["discard"]), [], [[] for _ in deal["hands"]])
    out = [snap]
    for seat, action in scenario.actions(hand_no):
        snap = _apply(snap, seat, action)
        out.append(snap)
    out[-1].over = True
    return out


# Two players (dealer 0, seat 1 plays first) who cannot go out for many turns: seat 1's hand,
# the upcard and the next twelve cards of the stock together hold no set (no rank thrice) and
# no run (no three ranks in a row of one suit), and seat 0's hand holds no meld either. For
# tests about the clock, presence and computer players, where a hand must not end by itself.
NO_MELDS = stack(hands=[["3C", "9C", "KC", "5D", "8D", "3H", "9H", "KH", "5S", "AS"],
                        ["AC", "2C", "4C", "5C", "3D", "6D", "9D", "AH", "2H", "4H"]],
                 upcard=["QS"],
                 stock_top=["7C", "TD", "5H", "3S", "8C", "QD", "7H", "6S", "KD", "8H", "9S",
                            "JS"])

# Standard Rummy with Call Rummy (OPT-CALL), 3 players, dealer 0. Seat 1 draws 5S, melds
# 5C 5D 5H and throws 5S, which fits that set: a call window opens (OPT-CALL-1). Seat 0 may call
# it, laying 5S off on meld 0 and throwing JC (OPT-CALL-6); seat 2 is the next to draw.
CALL_WINDOW = stack(hands=[["9D", "TD", "JD", "AS", "2S", "3H", "JC"],
                           ["5C", "5D", "5H", "7S", "8S", "2D", "QD"],
                           ["QS", "QH", "3C", "4C", "AD", "2H", "JH"]],
                    upcard=["KC"], stock_top=["5S", "9S", "6S"])
CALL_OPENER = [draw(), meld(["5C", "5D", "5H"]), discard("5S")]
