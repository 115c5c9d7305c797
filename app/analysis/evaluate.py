"""What one candidate move is worth to its seat, judged only from that seat's view.

A candidate is played in each of K *samples* of the hidden cards (``state_for`` with a seeded
generator: the unseen cards shuffled among the other hands and the stock, each seat's public
cards kept, GEN-14); the normal computer player (:class:`~app.bots.sensible.SensibleBot`)
finishes the seat's turn (a draw still needs its discard; a meld its lay-offs and discard),
worked out once and replayed in each sample, and a draw from the stock is taken over the unseen
cards (``outcomes_of``). Then the position is valued by :func:`value`, the one judgement of every
position, in one unit per match (PROTOCOL.md §10 *One unit*): the hand's expected score in the
game's own scoring under the match's options, the seat's less the others' mean (the sign turned
where lower totals win, GERMAN-12),

- a finished hand (went out, declared, knocked, blocked): the engine's own result;
- a hand in progress: over the seats that might win it, each one's chance times the result the
  game's scoring would give were it to go out now with the others keeping their deadwood
  (``Scoring.stakes``), weighed with the same for the next player fed by the top discard by the
  chance that it holds a pair the discard completes (``feed_chance``: a discard that may feed a
  meld costs). The chances fall with the unmatched cards a seat holds, by the game's ``pace``.
  A weighted mean of results, so never above what the seat's going out would score.

The value of a candidate is the mean over the samples.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from app.bots.determinize import state_for
from app.bots.sensible import SensibleBot
from app.engine.actions import Action, Draw
from app.engine.cards import JOKER, SUITS, make_code, rank_of, suit_of
from app.engine.errors import IllegalAction
from app.engine.game import apply, close_call_window
from app.engine.melds import MeldRules, form_meld
from app.engine.rules import GameRules
from app.engine.solver import Arrangement, best_arrangement
from app.engine.state import Phase, State
from app.engine.views import SeatView, seat_view_of

STOCK_CARDS = 4  # cards valued per sample for a draw from the stock (docs/analysis.md)
MAX_TURN_MOVES = 40  # a turn's own moves (melds, lay-offs, discard) never come near this


@dataclass(frozen=True, slots=True)
class Judged:
    """A candidate's mean value over the samples and the share of samples in which it won the
    hand outright at once (went out, or knocked with no deadwood: no hidden card could beat it)."""

    action: Action
    value: float
    wins: float


def samples(view: SeatView, rules: GameRules, seed: str, k: int) -> list[State]:
    """``k`` states consistent with ``view``, the hidden cards shuffled by a generator seeded
    from ``seed`` (the match, hand and index: the same match gives the same analysis)."""
    rng = random.Random(seed)  # noqa: S311 - a repeatable sample, not a secret
    return [state_for(view, rules, rng) for _ in range(k)]


def judge(base: Sequence[State], seat: int, candidates: Sequence[Action], bot: SensibleBot,
          stock: list[tuple[float, float]] | None = None) -> list[Judged]:
    """Each candidate's value to ``seat`` over the sampled states ``base`` (``outcomes_of``).

    The normal player's moves depend on the seat's view alone, the same in every sample, so the
    seat's turn after a candidate is worked out once and played alike in each (``turn_of``); a
    draw from the stock is valued over every card the seat could not see (``stock_outcomes``),
    not over the one card each sample happens to put on top: the draw's worth is mostly which
    card comes, and taking them all removes that from the noise between two runs (an empty stock
    is rebuilt at the draw from the discard pile, GEN-13: its card is known). ``stock``: the
    draw from the stock's outcomes, where already worked out."""
    out = []
    for action in candidates:
        outcomes = (stock if stock and from_stock(action) and base[0].stock
                    else outcomes_of(base, seat, action, bot))
        out.append(Judged(action, sum(v for v, _ in outcomes) / len(outcomes),
                          sum(won for _, won in outcomes) / len(outcomes)))
    return out


def judge_calls(base: Sequence[State], seat: int, calls: Sequence[Action | None]
                ) -> list[tuple[Action | None, float]]:
    """Each way of answering a Rummy call window (a call, or None: not calling) and its value to
    ``seat`` over ``base``, *the call taken as winning* (OPT-CALL-5: other seats' calls are not
    known to it; a losing call costs nothing, OPT-CALL-3, so only a winning one can differ)."""
    out = []
    for call in calls:
        total = 0.0
        for st in base:
            if call is not None:
                st, _ = apply(st, seat, call)
            st, _ = close_call_window(st)
            total += value(st, seat)
        out.append((call, total / len(base)))
    return out


def from_stock(action: Action) -> bool:
    """Whether ``action`` draws the stock's top card: the one move whose outcome is hidden."""
    return isinstance(action, Draw) and action.source == "stock"


def outcomes_of(base: Sequence[State], seat: int, action: Action, bot: SensibleBot
                ) -> list[tuple[float, float]]:
    """The candidate's outcome in each of ``base`` (its value, and whether it won outright): a
    draw from the stock over the unseen cards (``stock_outcomes``); any other move's turn worked
    out once and played in each, up to a draw from the stock later in the turn (BOAT-2's second
    card after taking the discard), which is valued over the unseen cards in turn."""
    if from_stock(action) and base[0].stock:
        return stock_outcomes(base, seat, action, bot)
    moves, first = turn_of(base[0], seat, action, bot)
    drawn = next((i for i, move in enumerate(moves) if i and from_stock(move)), None)
    if drawn is None:
        return [outcome(st, seat) for st in replayed(base, seat, moves, first)]
    before = [_played(st, seat, moves[:drawn]) for st in base]
    return outcomes_of(before, seat, moves[drawn], bot)


def turn_of(st: State, seat: int, action: Action, bot: SensibleBot
            ) -> tuple[tuple[Action, ...], State]:
    """The candidate and the rest of the seat's turn as the normal player finishes it from
    ``st`` (a draw still needs its discard; a meld its lay-offs and discard), and the state
    where the turn ends."""
    moves = [action]
    st, _ = apply(st, seat, action)
    for _ in range(MAX_TURN_MOVES):
        if st.hand_over or st.turn != seat or st.phase not in (Phase.PLAY, Phase.DRAW_SECOND):
            break
        move = bot.choose(seat_view_of(st, seat), st.rules)
        moves.append(move)
        st, _ = apply(st, seat, move)
    return tuple(moves), st


def replayed(base: Sequence[State], seat: int, moves: Sequence[Action], first: State
             ) -> list[State]:
    """Where the seat's turn ``moves`` (worked out by ``turn_of`` in ``base[0]``, ending in
    ``first``) ends in each of ``base``: the same moves, since the normal player's depend on the
    view alone; the caller's turn draws no hidden card after its first move."""
    return [first, *(_played(st, seat, moves) for st in base[1:])]


def stock_outcomes(base: Sequence[State], seat: int, draw: Action, bot: SensibleBot
                   ) -> list[tuple[float, float]]:
    """A draw from the stock's outcome in each sample of ``base`` (its value, and the share of
    its cards that won outright): the mean over the cards dealt to it, on top of the stock.
    ``STOCK_CARDS`` cards per sample are taken evenly through the unseen cards in card order
    (each as often as it is unseen) from where the first sample's top card stands, and dealt
    round the samples, so the cards cover the unseen ones in proportion and each sample weighs
    alike (the pairing with the other candidates)."""
    cards = sorted(unseen(base[0], seat).elements())
    picks = min(len(cards), STOCK_CARDS * len(base))
    start, step = cards.index(base[0].stock[0]), len(cards) / picks
    dealt: list[list[str]] = [[] for _ in base]
    for j in range(max(picks, len(base))):
        dealt[j % len(base)].append(cards[(start + int(j % picks * step)) % len(cards)])
    out = []
    for st, mine in zip(base, dealt, strict=True):
        got = [outcome(turn_of(on_top(st, seat, card), seat, draw, bot)[1], seat)
               for card in mine]
        out.append((sum(v for v, _ in got) / len(got), sum(won for _, won in got) / len(got)))
    return out


def outcome(st: State, seat: int) -> tuple[float, bool]:
    """The value of ``st`` to ``seat`` where its turn ended, and whether it won the hand outright
    at once (went out, or knocked with no deadwood: no hidden card could beat it)."""
    if st.hand_over and len(st.results) > st.hand_no:
        result = st.results[st.hand_no]
        sure = result.reason == "went_out" or (
            result.reason == "knock" and result.detail["counts"][seat] == 0)
        return value(st, seat), result.winner == seat and sure
    return value(st, seat), False


def unseen(st: State, seat: int) -> Counter[str]:
    """The cards ``seat`` cannot see in ``st``: the stock, and the other hands less what each
    showed (GEN-14). The same multiset in every sample of one view."""
    out = Counter(st.stock)
    for s, hand in enumerate(st.hands):
        if s != seat:
            out += Counter(hand) - Counter(st.known[s])
    return out


def on_top(st: State, seat: int, card: str) -> State:
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


def _played(st: State, seat: int, moves: Sequence[Action]) -> State:
    for move in moves:
        st, _ = apply(st, seat, move)
    return st


def value(st: State, seat: int) -> float:
    """The position's worth to ``seat``: the hand's expected score in the game's own scoring
    under the match's options, finished or not (the module's docstring; PROTOCOL.md §10)."""
    if st.hand_over and len(st.results) > st.hand_no:
        return relative(st, st.results[st.hand_no].scores, seat)
    held = holdings(st)
    now = expected(st, held, seat)
    taker = st.turn if st.discard and st.phase in (Phase.DRAW, Phase.CALL) else None
    if taker is None or taker == seat:
        return now
    chance = feed_chance(st, seat, taker)
    if not chance:
        return now
    fed = list(held)
    fed[taker] = _fed(held[taker], st.discard[-1], st.rules)
    return (1 - chance) * now + chance * expected(st, fed, seat)


def expected(st: State, held: Sequence[Arrangement], seat: int) -> float:
    """Over the seats that might win the hand, each one's chance times the result were it to go
    out now with the others keeping the deadwood of ``held``."""
    scoring = st.rules.game.scoring
    return sum(chance * relative(st, scoring.stakes(st, s, held), seat)
               for s, chance in enumerate(chances(held, st.rules)))


def relative(st: State, scores: Sequence[int], seat: int) -> float:
    """The seat's score less the others' mean, higher better in every game."""
    others = [scores[s] for s in range(len(scores)) if s != seat]
    sign = 1 if st.rules.game.scoring.better(1, 0) else -1
    return sign * (scores[seat] - sum(others) / len(others))


def holdings(st: State) -> list[Arrangement]:
    """Each seat's best arrangement (GEN-12, the solver)."""
    return [best_arrangement(hand, st.rules.meld, st.rules.values.of) for hand in st.hands]


def feed_chance(st: State, seat: int, taker: int) -> float:
    """The chance that ``taker`` (to draw next) holds two cards that make a meld with the top
    discard, over every hand it might hold as ``seat`` sees it: the cards it took and still
    holds count as held, each unseen card as held in proportion to the share of the unseen
    cards its hidden part is (GEN-14). A sample's own hand holds such a pair or not; the chance
    taken from eight of them moves in steps of an eighth, which is more noise between two runs
    than the whole difference between two discards."""
    top = st.discard[-1]
    if top == JOKER or top in st.rules.meld.wilds:
        return 1.0
    pairs = completing_pairs(top, st.rules.meld)
    others = [s for s in range(st.players) if s != seat]
    total = len(st.stock) + sum(len(st.hands[s]) - len(st.known[s]) for s in others)
    if not pairs or not total:
        return 0.0
    known = st.known[taker]
    share = (len(st.hands[taker]) - len(known)) / total
    hidden = Counter(st.stock)
    for s in others:
        hidden.update(st.hands[s])
        hidden.subtract(st.known[s])

    def held(card: str) -> float:
        return 1.0 if card in known else min(1.0, share * hidden[card])

    return min(1.0, sum(held(a) * held(b) for a, b in pairs))


@cache
def completing_pairs(card: str, rules: MeldRules) -> tuple[tuple[str, str], ...]:
    """The two natural cards that make a three-card meld with ``card`` under ``rules`` (sets
    of its rank, runs of its suit around it: the engine's own meld check decides)."""
    suit, rank = suit_of(card), rank_of(card)
    kin = [make_code(rank, s) for s in SUITS if s != suit]
    listings: list[tuple[str, ...]] = [(card, *pair) for pair in combinations(kin, 2)]
    for place in (1, 14) if rank == 1 else (rank,):  # an ace ends a run low or high (GEN-2)
        for low in range(max(1, place - 2), min(place, 13) + 1):  # 13: K A 2 (ace_wrap)
            listings.append(tuple(make_code(v, suit) for v in range(low, low + 3)))
    return tuple(dict.fromkeys(_others(listing, card) for listing in listings
                               if _melds(listing, rules)))


def _others(listing: tuple[str, ...], card: str) -> tuple[str, str]:
    first, second = (c for c in listing if c != card)
    return first, second


def _melds(listing: tuple[str, ...], rules: MeldRules) -> bool:
    """Whether the natural cards of ``listing``, in its order, are a valid meld."""
    try:
        form_meld([(c, None) for c in listing], rules)
    except IllegalAction:
        return False
    return True


def chances(held: Sequence[Arrangement], rules: GameRules) -> list[float]:
    """Each seat's chance to win the hand in progress: falling by a factor e for every
    ``pace`` (the game's) unmatched cards it holds more than another."""
    pace = rules.game.pace
    weights = [math.exp(-len(h.deadwood) / pace) for h in held]
    total = sum(weights)
    return [w / total for w in weights]


def _fed(held: Arrangement, top: str, rules: GameRules) -> Arrangement:
    """``held`` after taking ``top`` into a meld with two of its unmatched cards and throwing a
    third: its three costliest unmatched cards go (which two the meld needs is hidden, so the
    costliest stand for them: a feed is judged at its worst)."""
    order = sorted(held.deadwood, key=rules.values.of, reverse=True)
    gone, left = order[:3], tuple(order[3:])
    melds = (*held.melds, (top, *gone[:2])) if len(gone) >= 2 else held.melds
    return Arrangement(melds, left, sum(rules.values.of(c) for c in left))
