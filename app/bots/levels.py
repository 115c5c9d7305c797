"""The easy and hard computer players; the normal one is :class:`~.sensible.SensibleBot`.

*Easy* plays legal, careless moves: it never takes the discard unless the game makes it the only
sensible draw, and half of its discards are a random card it may discard (still melding and going
out when it can, so its hands end).

*Hard* remembers, for the hand in progress, every card it has seen — what opponents discarded,
what they took from the discard pile, what lies in melds — and so knows which cards are still
unseen (in the stock or in opponents' hands). From that it:

- values a draw with the solver: a discard that completes a meld is taken only when the hand it
  leaves (after the best discard) has less deadwood than the average over the unseen cards a
  stock draw could bring;
- estimates what the next player collects — the chance that two unseen cards in its hand make a
  meld with a discard, more near the cards it took, a card that extends a table meld — and
  avoids feeding it, preferring cards near those opponents threw away;
- counts a pair or two-card run as worth keeping only while a card completing it is unseen;
- judges hands by the number of unmatched cards first and their points second in the games
  won by going out first (a race), and never throws a random card to break a long hand;
- knocks in Knock Rummy as soon as its least deadwood is at most 14.

Which of these pay was measured per game with ``python -m bench.strength``: feeding is not
guarded in Knock Rummy and Boat House, and in Continental, where every judgement lost more games
than it won, the hard player plays as the normal one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

from app.engine.actions import Action, CallRummy, Declare, Discard, Knock
from app.engine.cards import JOKER, make_code, rank_of
from app.engine.deal import pack_for
from app.engine.games import Scoring
from app.engine.rules import GameRules
from app.engine.state import State
from app.engine.views import SeatView

from .sensible import KNOCK_ANYWAY, SensibleBot, _minus, _Turn

KNOCK_AT = 14       # knock with this much deadwood or less
COUNT_WEIGHT = 10   # what holding one more unmatched card costs, beside its points
URGENT = 5          # ... unless an opponent holds this few cards
# Games won by going out first (the loser pays for the cards left): a race, so unmatched cards
# are counted before their points.
RACES = frozenset({Scoring.WINNER_TAKES_HANDS, Scoring.WINNER_TAKES_DEADWOOD,
                   Scoring.QUEEN_CITY, Scoring.PENALTY})
FEED = 10.0        # cost of a discard that completes a meld for the next player
LAY_OFF_FEED = 9.0  # cost of a discard that an opponent could lay off at once
# Games where guarding discards lost more than it won when measured (bench.strength): Knock
# Rummy (what counts is knocking first) and Boat House (two cards are taken from the pile).
UNGUARDED = frozenset({Scoring.KNOCK, Scoring.WINNER_TAKES_DEADWOOD})
PATTERN_SCALE = 0.1  # the feeding costs where every card is worth 1 (Continental, Nowrang)
SAFE = 2.0         # bonus of a discard whose rank or suit neighbour an opponent threw away


class EasyBot(SensibleBot):
    """Legal, careless play: stock draws, and a random discard half of the time."""

    def _take_gain(self, t: _Turn, card: str) -> int:
        return 0  # never takes a discard for its own sake

    def _discard(self, t: _Turn) -> Action | None:
        discards = t.of(Discard)
        if discards and self.rng.random() < 0.5:
            return self.rng.choice(discards)
        return super()._discard(t)


class HardBot(SensibleBot):
    """Card memory, draws valued with the solver, and discards that do not feed opponents."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._hand_key: tuple[int, int] | None = None
        self._mine: Counter[str] = Counter()       # cards this seat discarded
        self._thrown: Counter[str] = Counter()     # cards opponents discarded
        self._picked: set[str] = set()             # cards opponents took from the discard pile
        self._last_pile: list[str] = []
        self._seat = 0
        self._turns = 0

    # --- memory --------------------------------------------------------------------------

    def _observe(self, view: SeatView) -> None:
        """Read what changed since the last view: new discards are opponents' (this seat's own
        are recorded when it makes them), and cards taken by opponents are what they collect."""
        table = view.table
        self._seat = seat = view.seat
        key = (table["hand_no"], len(view.results))
        turns = sum(table["turns"])  # grows through a hand; smaller: a new match's hand
        if key != self._hand_key or turns < self._turns:
            self._hand_key = key
            self._mine, self._thrown, self._picked = Counter(), Counter(), set()
            self._last_pile = []
        self._turns = turns
        pile = table["discard"]
        common = 0
        while common < min(len(pile), len(self._last_pile)) and pile[common] == self._last_pile[
                common]:
            common += 1
        for card in pile[common:]:
            if self._mine[card] > 0:
                self._mine[card] -= 1
            else:
                self._thrown[card] += 1
        for s, cards in enumerate(table["known"]):
            if s != seat:
                self._picked.update(cards)
        self._last_pile = list(pile)

    def choose(self, view: SeatView, rules: GameRules) -> Action:
        self._observe(view)
        action = super().choose(view, rules)
        gone = _discarded(action)
        if gone is not None:
            self._mine[gone] += 1
        return action

    def maybe_call(self, view: SeatView, rules: GameRules) -> CallRummy | None:
        self._observe(view)
        call = super().maybe_call(view, rules)
        if call is not None:
            self._mine[call.discard] += 1
        return call

    def _unseen(self, st: State, seat: int) -> Counter[str]:
        """Cards this seat has not seen: the pack less its hand, the discard pile, the melds
        and the cards opponents are known to hold."""
        seen = Counter(st.hands[seat])
        seen.update(st.discard)
        seen.update(c for m in st.melds for c in m.codes)
        for s, cards in enumerate(st.known):
            if s != seat:
                seen.update(cards)
        return Counter(pack_for(st.rules)) - seen

    def _valuer(self, st: State) -> Callable[[str], int]:
        """Every unmatched card is a card still to get rid of: count cards first, points
        second (ten per card plus its value)."""
        base = super()._valuer(st)
        if st.rules.game.scoring not in RACES or self._urgent(st):
            return base
        return _counting(base)

    def _urgent(self, st: State) -> bool:
        """An opponent may go out soon: only points count now."""
        return any(len(h) <= URGENT for s, h in enumerate(st.hands) if s != self._seat)

    def _knock(self, t: _Turn) -> Action | None:
        """KNOCK-4: knock, shedding the card that leaves the least deadwood, as soon as that
        deadwood is at most ``KNOCK_AT`` (an opponent rarely has less this early)."""
        knocks = t.of(Knock)
        if not knocks:
            return None
        left, best = min((self._deadwood(t.st, _minus(t.hand, [k.discard])), k.discard)
                         for k in knocks)
        if left <= KNOCK_AT or t.st.turns[t.seat] >= KNOCK_ANYWAY:
            return next(k for k in knocks if k.discard == best)
        return None

    def _stalling(self, t: _Turn) -> bool:
        """Never plays at random to break a long hand (the normal player does, and so does
        the hard one in Continental)."""
        return _plain(t.st) and super()._stalling(t)

    # --- drawing -------------------------------------------------------------------------

    def _take_gain(self, t: _Turn, card: str) -> int:
        """Take the discard when the turn it leaves beats the average stock draw."""
        if super()._take_gain(t, card) <= 0 or _plain(t.st):
            return super()._take_gain(t, card)
        unseen = self._unseen(t.st, t.seat)
        total = sum(unseen.values())
        if not total:
            return 1
        take = self._after_draw(t.st, t.hand, card, keep=card)
        stock = sum(k * self._after_draw(t.st, t.hand, c, None) for c, k in unseen.items()) / total
        return 1 if take < stock else 0

    def _after_draw(self, st: State, hand: Sequence[str], card: str, keep: str | None) -> float:
        """Deadwood after drawing ``card`` and shedding the best other card than ``keep``."""
        best = self._arrangement(st, [*hand, card])
        value = self._valuer(st)
        shed = max((value(c) for c in best.deadwood if c != keep), default=0)
        return best.deadwood_value - shed

    # --- discarding ----------------------------------------------------------------------

    def _near(self, st: State, card: str, hand: list[str]) -> int:
        """Neighbours of ``card`` that still have an unseen card to complete a meld with it
        (a pair whose other suits are all seen is dead)."""
        if _plain(st):
            return super()._near(st, card, hand)
        unseen = self._unseen(st, self._seat)
        return sum(1 for other in hand if other != card and _near(card, other) and any(
            unseen[c] for c in _completing(card, other)))

    def _risk(self, st: State, card: str) -> float:
        """How much the next player would like ``card``, in points of a card of average value
        where the game counts points (a tenth of that where only the pattern counts)."""
        if st.rules.game.scoring in UNGUARDED or _plain(st):
            return 0.0
        scale = 1.0 if st.rules.game.declare_sizes == () else PATTERN_SCALE
        return scale * self._feed(st, card)

    def _feed(self, st: State, card: str) -> float:
        """A lay-off on a table meld, or the chance that two of the cards the next player might
        hold (each unseen card, in proportion to its hand size) make a meld with ``card``; more
        near the cards it took, less near those it threw."""
        if card == JOKER or card in st.rules.meld.wilds:
            return LAY_OFF_FEED
        risk = 0.0
        if any(_extends(card, m.kind, m.codes) for m in st.melds):
            risk += LAY_OFF_FEED
        unseen = self._unseen(st, self._seat)
        total = sum(unseen.values())
        held = len(st.hands[(self._seat + 1) % st.players])
        if total > 1:
            both = held * (held - 1) / (total * (total - 1))
            for a, b in _pairs(card):
                if unseen[a] and unseen[b]:
                    risk += FEED * both * unseen[a] * unseen[b]
                elif (unseen[a] and b in self._picked) or (unseen[b] and a in self._picked):
                    risk += FEED * held / total
        if any(_near(card, c) or c == card for c in self._thrown):
            risk -= SAFE
        return risk


def _discarded(action: Action) -> str | None:
    """The card ``action`` puts on the discard pile, if any."""
    if isinstance(action, Discard):
        return action.card
    if isinstance(action, Knock | Declare):
        return action.discard
    return None


def _plain(st: State) -> bool:
    """Continental: every judgement of the hard player lost more games than it won there when
    measured (bench.strength), so it plays as the normal player does."""
    return st.rules.game.scoring is Scoring.CONTINENTAL


def _near(card: str, other: str) -> bool:
    """Could the two cards be two cards of one meld (same rank, or same suit within two)?"""
    if card == other or JOKER in (card, other):
        return False
    if card[0] == other[0]:
        return True
    return card[1] == other[1] and abs(rank_of(card) - rank_of(other)) <= 2


def _extends(card: str, kind: str, codes: Sequence[str]) -> bool:
    """Could ``card`` be laid off on a meld of these cards (its rank, or a run's next card)?"""
    naturals = [c for c in codes if c != JOKER]
    if not naturals:
        return False
    if kind == "set":
        return card[0] == naturals[0][0] and card not in codes
    suit = naturals[0][1]
    ranks = sorted(rank_of(c) for c in naturals)
    return card[1] == suit and card in (make_code(ranks[0] - 1, suit) if ranks[0] > 1 else "",
                                        make_code(ranks[-1] + 1, suit))


def _completing(a: str, b: str) -> list[str]:
    """The cards that make a three-card meld with ``a`` and ``b`` (two cards ``_near``)."""
    if a[0] == b[0]:
        return [a[0] + s for s in "CDHS" if s not in (a[1], b[1])]
    low, high = sorted((rank_of(a), rank_of(b)))
    suit = a[1]
    values = [low + 1] if high - low == 2 else [low - 1, high + 1]
    return [make_code(v, suit) for v in values if 1 <= v <= 13]


def _pairs(card: str) -> list[tuple[str, str]]:
    """The two-card sets that make a three-card meld with ``card``."""
    rank, suit = rank_of(card), card[1]
    others = [card[0] + s for s in "CDHS" if s != suit]
    pairs = [(others[0], others[1]), (others[0], others[2]), (others[1], others[2])]
    for low in (rank - 2, rank - 1, rank):
        values = [v for v in (low, low + 1, low + 2) if v != rank]
        if low >= 1 and low + 2 <= 14:
            pairs.append((make_code(values[0], suit), make_code(values[1], suit)))
    return pairs


@cache
def _counting(value: Callable[[str], int]) -> Callable[[str], int]:
    """``value`` with ten more per card (one function per value function, so the solver's
    store of card values stays small)."""
    return lambda card: COUNT_WEIGHT + value(card)
