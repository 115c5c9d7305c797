"""The easy and hard computer players; the normal one is :class:`~.sensible.SensibleBot`.

*Easy* plays legal, careless moves: it never takes the discard unless the game makes it the only
sensible draw, and half of its discards are a random card it may discard (still melding and going
out when it can, so its hands end).

*Hard* remembers, for the hand in progress, every card it has seen — what opponents discarded,
what they took from the discard pile, what lies in melds — and so knows which cards are still
unseen (in the stock or in opponents' hands). It never throws a random card to break a long hand
(the normal player does). Per game:

- Every game but Continental: a discard that completes a meld is taken only when the hand it
  leaves (after the best discard) has less deadwood than the average over the unseen cards a
  stock draw could bring; it estimates what the next player collects — the chance that two
  unseen cards in its hand make a meld with a discard, more near the cards it took, a card that
  extends a table meld — and avoids feeding it, preferring cards near those opponents threw
  away; a pair or two-card run is worth keeping only while a card completing it is unseen; in
  the games won by going out first (a race) it counts unmatched cards first, points second.
- Phỏm: while its hand holds no meld and draws are to come, it keeps the cards that may still
  make one (PHOM-11: a hand that shows no meld pays 4 rather than 1 and cannot win).
- Knock Rummy: it knocks as soon as its least deadwood is at most 14, and does not guard its
  discards (what counts is knocking first); nor does it in Boat House (two cards are taken).
- Continental: it judges draws and discards by how many cards the hand is short of a
  declaration (:mod:`.shortfall`: runs over 15 places, a place it does not hold filled by a
  joker or a card still unseen), ties by how many unseen cards would bring it closer, then as
  the normal player; it takes a discard only when that brings the hand closer, and declares
  with as many jokers as it can (CONT-7: two points each).

Which of these pay was measured per game with ``python -m bench.strength``
(docs/benchmarks.md, issue 20).
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
from app.engine.phom import LAST_TURN
from app.engine.rules import GameRules
from app.engine.state import State
from app.engine.views import SeatView

from .sensible import KNOCK_ANYWAY, SensibleBot, _cards, _minus, _Turn
from .shortfall import outs, shortfall

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
PATTERN_SCALE = 0.1  # the feeding costs where every card is worth 1 (Nowrang)
SAFE = 2.0         # bonus of a discard whose rank or suit neighbour an opponent threw away
MOM = 20.0         # cost of a Phỏm discard that may leave the hand without a meld (PHOM-11)


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

    def _go_out(self, t: _Turn, declares: list[Declare]) -> Declare:
        """CONT-7: each joker in the declared runs is worth two more points, so declare with
        as many jokers as the hand allows."""
        if not _by_shortfall(t.st):
            return super()._go_out(t, declares)
        return min(declares, key=lambda a: (-_cards(a.melds).count(JOKER), a.discard is not None))

    def _stalling(self, t: _Turn) -> bool:
        """Never plays at random to break a long hand (the normal player does)."""
        return False

    # --- drawing -------------------------------------------------------------------------

    def _take_gain(self, t: _Turn, card: str) -> int:
        """Take the discard when the turn it leaves beats the average stock draw (in
        Continental: when it leaves the hand fewer cards short of a declaration)."""
        if _by_shortfall(t.st):
            return self._closer(t, card)
        gain = super()._take_gain(t, card)
        if gain <= 0:
            return gain
        unseen = self._unseen(t.st, t.seat)
        total = sum(unseen.values())
        if not total:
            return 1
        take = self._after_draw(t.st, t.hand, card, keep=card)
        stock = sum(k * self._after_draw(t.st, t.hand, c, None) for c, k in unseen.items()) / total
        return 1 if take < stock else 0

    def _closer(self, t: _Turn, card: str) -> int:
        """1 if taking ``card`` and discarding another leaves the hand fewer cards short of a
        declaration (one card more brings it at most one closer), else 0."""
        unseen = self._unseen(t.st, t.seat)
        now = self._short(t.st, t.hand, unseen)
        hand = [*t.hand, card]
        for other in sorted(set(t.hand)):
            if other != card and self._short(t.st, _minus(hand, [other]), unseen) < now:
                return 1  # GEN-8: the taken card itself may not be discarded
        return 0

    def _after_draw(self, st: State, hand: Sequence[str], card: str, keep: str | None) -> float:
        """Deadwood after drawing ``card`` and shedding the best other card than ``keep``."""
        best = self._arrangement(st, [*hand, card])
        value = self._valuer(st)
        shed = max((value(c) for c in best.deadwood if c != keep), default=0)
        return best.deadwood_value - shed

    # --- discarding ----------------------------------------------------------------------

    def _discard(self, t: _Turn) -> Action | None:
        """In Continental, among the discards that leave the hand fewest cards short of a
        declaration (CONT-6), the normal player's choice; elsewhere the normal player's."""
        discards = t.of(Discard)
        if not discards or not _by_shortfall(t.st):
            return super()._discard(t)
        unseen = self._unseen(t.st, t.seat)
        short = {d.card: self._short(t.st, _minus(t.hand, [d.card]), unseen) for d in discards}
        least = min(short.values())
        tied = sorted(c for c, n in short.items() if n == least)
        if len(tied) > 1 and least:
            reach = {c: outs(_minus(t.hand, [c]), unseen) for c in tied}
            most = max(reach.values())
            tied = [c for c in tied if reach[c] == most]
        card, _ = self._shed(t.st, t.hand, tied)
        return next(d for d in discards if d.card == card)

    def _short(self, st: State, hand: list[str], unseen: Counter[str]) -> int:
        """Cards ``hand`` still needs for a declaration: :func:`.shortfall.shortfall`, or the
        solver's unmatched cards where they are fewer (two runs sharing a rank: a second copy
        of a card)."""
        short = shortfall(hand, unseen)
        naturals = [c for c in hand if c != JOKER]
        if short and len(set(naturals)) < len(naturals):
            return min(short, self._deadwood(st, hand))
        return short

    def _near(self, st: State, card: str, hand: list[str]) -> int:
        """Neighbours of ``card`` that still have an unseen card to complete a meld with it
        (a pair whose other suits are all seen is dead)."""
        if _by_shortfall(st):
            return super()._near(st, card, hand)
        unseen = self._unseen(st, self._seat)
        return sum(1 for other in hand if other != card and _near(card, other) and any(
            unseen[c] for c in _completing(card, other)))

    def _risk(self, st: State, card: str) -> float:
        """How much the next player would like ``card``, in points of a card of average value
        where the game counts points (a tenth of that where only the pattern counts); in Phỏm
        also what losing a chance of a meld costs (:meth:`_mom_risk`)."""
        if st.rules.game.scoring in UNGUARDED or _by_shortfall(st):
            return 0.0
        scale = 1.0 if st.rules.game.declare_sizes == () else PATTERN_SCALE
        return scale * self._feed(st, card) + self._mom_risk(st, card)

    def _mom_risk(self, st: State, card: str) -> float:
        """PHOM-11: a hand that shows no meld (móm) pays 4 instead of 1 and cannot win, so
        while the hand has no meld and draws are to come, a card that may still make one
        (:meth:`_near`) costs ``MOM`` to discard, more than any card's points."""
        if st.rules.game.rounds is None or st.turns[self._seat] >= LAST_TURN:
            return 0.0
        hand = st.hands[self._seat]
        if self._arrangement(st, _minus(hand, [card])).melds or not self._near(st, card, hand):
            return 0.0
        return MOM

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


def _by_shortfall(st: State) -> bool:
    """Continental: the hard player judges draws and discards by how many cards the hand is
    short of a declaration (:mod:`.shortfall`); its other judgements (feeding, counting, dead
    pairs, the average stock draw) lost more games than they won there when measured."""
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
