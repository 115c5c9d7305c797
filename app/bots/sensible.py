"""A sensible computer player for every game: keep melds, take useful discards, go out early.

:class:`SensibleBot` builds a state from its view (:mod:`.determinize`), asks the engine for its
legal actions and picks one by a few plain rules, judged with the solver's best arrangement
(GEN-12) of the cards it would hold:

- declare / go Ù / go out as soon as it can (declare games: Boat House, Complete Rummy,
  Continental, Queen City, Nowrang, Phỏm);
- draw the discard when it completes or extends a meld (its deadwood after the turn would be
  lower than with a stock draw), always in Phỏm (the engine lets it take only such cards) and
  before a Kaluki opening (the engine allows only a take that opens);
- exchange jokers when the hand is no worse for it (Kaluki; in German Rummy only if the joker
  can be played again and a discard still follows, GERMAN-8);
- meld what its best arrangement melds (the opening minimum is the engine's check), lay off
  deadwood, show its best arrangement on Phỏm's fourth turn, knock in Knock Rummy when its
  deadwood is low for the stock left, call Rummy whenever it can;
- otherwise discard the card whose loss leaves the least deadwood (the highest-value deadwood
  card; never a wild card while a natural will do).

Whatever it picks is one of ``legal_actions`` of that state, so it is never rejected.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from app.engine.actions import (
    Action,
    CallRummy,
    Declare,
    Discard,
    Draw,
    Knock,
    LayOff,
    MeldAction,
    Show,
    SwapJoker,
)
from app.engine.cards import JOKER, RANK_VALUE, parse_entry
from app.engine.errors import RuleError
from app.engine.game import apply, is_legal
from app.engine.melds import form_meld
from app.engine.moves import LegalMoves
from app.engine.rules import GameRules
from app.engine.solver import Arrangement, best_arrangement
from app.engine.state import Phase, State
from app.engine.views import SeatView

from .base import Bot, NoLegalAction
from .determinize import state_for

KNOCK_AT = 5          # KNOCK-4: always knock with this much deadwood or less
KNOCK_STOCK_SHARE = 5  # ... or with up to one point per this many stock cards
KNOCK_ANYWAY = 24     # ... and after this many turns, whatever the deadwood (the hand must end)
STALL_TURNS = 12      # after this many turns of a hand ...
STALL_SHARE = 0.3     # ... this share of discards is a random unmelded card
A = TypeVar("A", bound=Action)


class _Turn:
    """One decision: the view's state, the seat and its legal moves, listed a type at a time as
    the steps ask for them."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.moves = LegalMoves(st, seat)

    @property
    def hand(self) -> list[str]:
        return self.st.hands[self.seat]

    @property
    def legal(self) -> list[Action]:
        """Every legal action but a Rummy call (a call is ``maybe_call``'s)."""
        return [a for a in self.moves.all() if a.type != "call_rummy"]

    def of(self, kind: type[A]) -> list[A]:
        return cast(list[A], self.moves.of(kind.type))


class SensibleBot(Bot):
    """One class for every game; the few games that differ have small hooks below."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # --- the interface -------------------------------------------------------------------

    def choose(self, view: SeatView, rules: GameRules) -> Action:
        return self._pick(_Turn(state_for(view, rules), view.seat))

    def maybe_call(self, view: SeatView, rules: GameRules) -> CallRummy | None:
        """OPT-CALL: call whenever possible, discarding what leaves the least deadwood."""
        if "call_rummy" not in view.part["legal"]:
            return None
        st, seat = state_for(view, rules), view.seat
        calls = cast(list[CallRummy], LegalMoves(st, seat).of("call_rummy"))
        if not calls:
            return None
        card, _ = self._shed(st, st.hands[seat], [a.discard for a in calls])
        return next(a for a in calls if a.discard == card)

    # --- the decision --------------------------------------------------------------------

    def _pick(self, t: _Turn) -> Action:
        declares = t.of(Declare)
        if declares:  # go out as soon as possible
            return self._go_out(t, declares)
        if t.st.phase in (Phase.DRAW, Phase.DRAW_SECOND, Phase.CALL):
            return self._draw(t)
        for step in (self._knock, self._show, self._swap, self._play_joker, self._meld,
                     self._lay_off, self._discard):
            action = step(t)
            if action is not None:
                return action
        return self._fallback(t)

    def _go_out(self, t: _Turn, declares: list[Declare]) -> Declare:
        """Which declaration to make: the whole hand without a discard first."""
        return min(declares, key=lambda a: a.discard is not None)

    def _fallback(self, t: _Turn) -> Action:
        """The least harmful legal action: a discard, else anything but a table move."""
        for kind in (Discard, Knock, Draw, Show):
            found: list[Action] = t.of(kind)
            if found:
                return found[0]
        legal = t.legal
        if not legal:
            raise NoLegalAction(f"seat {t.seat} has no legal action in phase {t.st.phase.value}")
        return legal[0]

    # --- drawing -------------------------------------------------------------------------

    def _draw(self, t: _Turn) -> Action:
        draws = t.of(Draw)
        stock = next((d for d in draws if d.source == "stock"), None)
        takes = [d for d in draws if d.source == "discard"]
        declining = stock is not None and not t.st.stock and t.st.rules.options.block_rummy
        if takes and t.st.rules.game.take.melds_only(t.st, t.seat):
            return takes[0]  # the engine allows only a take that melds (PHOM-5, KALUKI-6)
        best, gain = None, 0
        if stock is not None and not declining and self._stalling(t):
            return stock  # a long hand: the same discards may be going round in a circle
        for take in takes:
            card = take.card or t.st.discard[-1]
            got = self._take_gain(t, card)
            if got > gain:
                best, gain = take, got
        if best is not None:
            return best
        if declining and takes and self._hand_value(t) > KNOCK_AT \
                and t.st.turns[t.seat] < KNOCK_ANYWAY:
            return takes[0]  # OPT-BLOCK-2: declining ends the hand; a costly hand plays on
        if stock is not None:
            return stock
        return draws[0] if draws else self._fallback(t)

    def _stalling(self, t: _Turn) -> bool:
        """After ``STALL_TURNS`` turns, now and then (``STALL_SHARE``): play differently."""
        return t.st.turns[t.seat] > STALL_TURNS and self.rng.random() < STALL_SHARE

    def _take_gain(self, t: _Turn, card: str) -> int:
        """How much less deadwood the turn leaves if ``card`` is taken (and the worst other
        card discarded) than the hand holds now; 0 unless ``card`` completes or extends a meld."""
        rules = t.st.rules
        value = self._valuer(t.st)
        with_card = best_arrangement([*t.hand, card], rules.meld, value)
        if with_card.deadwood.count(card) > t.hand.count(card):  # the card would stay unmatched
            return 0
        new = with_card.deadwood_value - max(
            [value(c) for c in with_card.deadwood if c != card], default=0)
        old = self._deadwood(t.st, t.hand)  # a stock card is assumed useless
        return old - new if new < old else 0

    # --- knocking and showing ------------------------------------------------------------

    def _knock(self, t: _Turn) -> Action | None:
        knocks = t.of(Knock)
        if not knocks:
            return None
        card, left = self._shed(t.st, t.hand, [k.discard for k in knocks])
        best = next(k for k in knocks if k.discard == card)
        limit = max(KNOCK_AT, len(t.st.stock) // KNOCK_STOCK_SHARE)
        if left <= limit or t.st.turns[t.seat] >= KNOCK_ANYWAY:
            return best
        return None

    def _show(self, t: _Turn) -> Action | None:
        """PHOM-9: show the melds that leave the least trash."""
        shows = t.of(Show)
        if not shows:
            return None
        return min(shows, key=lambda s: (
            sum(self._value(t.st, c) for c in _minus(t.hand, _cards(s.melds))), -len(s.melds)))

    # --- jokers --------------------------------------------------------------------------

    def _swap(self, t: _Turn) -> Action | None:
        """KALUKI-7, GERMAN-8: take a joker for its natural card if the hand is no worse."""
        now = self._deadwood(t.st, t.hand)
        for swap in t.of(SwapJoker):
            if swap.card == JOKER or swap.card in t.st.taken:
                continue  # never give away the card just taken (the engine allows it, KALUKI-6)
            after_hand = [*_minus(t.hand, [swap.card]), JOKER]
            if self._deadwood(t.st, after_hand) > now:
                continue
            if t.st.rules.game.exchange.jokers_owed and not self._joker_playable(t, swap):
                continue
            return swap
        return None

    def _joker_playable(self, t: _Turn, swap: SwapJoker) -> bool:
        """GERMAN-8: after the exchange, can the joker go on the table with a discard to follow?"""
        after, _ = apply(t.st, t.seat, swap)
        return self._joker_move(LegalMoves(after, t.seat)) is not None

    def _joker_move(self, legal: LegalMoves) -> Action | None:
        """A legal meld or lay-off that plays a held joker and still allows a discard."""
        st, seat = legal.st, legal.seat
        moves = sorted(_joker_placings(legal), key=lambda a: (a.type != "meld", -len(_placed(a))))
        for move in moves:
            after, _ = apply(st, seat, move)
            if after.hand_over or after.jokers_to_play or any(
                    is_legal(after, seat, Discard(c)) for c in set(after.hands[seat])):
                return move
        return None

    def _play_joker(self, t: _Turn) -> Action | None:
        if not t.st.jokers_to_play:
            return None
        move = self._joker_move(t.moves)
        if move is not None:
            return move
        placings = _joker_placings(t.moves)
        return placings[0] if placings else None

    # --- melding and laying off ----------------------------------------------------------

    def _meld(self, t: _Turn) -> Action | None:
        """Meld what keeps the least deadwood in hand (the best arrangement's melds)."""
        melds = t.of(MeldAction)
        if not melds:
            return None
        now = self._deadwood(t.st, t.hand)
        scored = [(self._deadwood(t.st, _minus(t.hand, _cards(m.melds))), -len(_cards(m.melds)),
                   i) for i, m in enumerate(melds)]
        left, _, index = min(scored)
        opening = t.st.rules.game.initial_meld and not t.st.opened[t.seat]
        if left <= now or opening or t.st.must_use is not None:
            return melds[index]
        return None

    def _lay_off(self, t: _Turn) -> Action | None:
        """Lay off a card the hand does not need (not a wild card, unless nearly out)."""
        now = self._deadwood(t.st, t.hand)
        best: tuple[int, int] | None = None
        pick = None
        for move in t.of(LayOff):
            cards = [c for c, _ in move.cards]
            wild = any(c == JOKER or c in t.st.rules.meld.wilds for c in cards)
            if wild and len(t.hand) > 2:
                continue
            left = self._deadwood(t.st, _minus(t.hand, cards))
            key = (left - now, -sum(self._value(t.st, c) for c in cards))
            if left <= now and (best is None or key < best) and _sound(t.st, t.seat, move):
                best, pick = key, move
        return pick

    # --- discarding ----------------------------------------------------------------------

    def _discard(self, t: _Turn) -> Action | None:
        discards = t.of(Discard)
        if not discards:
            return None
        wilds = t.st.rules.meld.wilds | {JOKER}
        if self._stalling(t):
            # Break a stalemate (every seat hoarding the cards another needs): sometimes let go
            # of a card that is not in a meld, chosen at random.
            dead = set(self._arrangement(t.st, t.hand).deadwood)
            loose = sorted((d for d in discards if d.card in dead and d.card not in wilds),
                           key=lambda d: d.card)
            if loose:
                return self.rng.choice(loose)
        card, _ = self._shed(t.st, t.hand, [d.card for d in discards])
        return next(d for d in discards if d.card == card)

    def _shed(self, st: State, hand: list[str], allowed: list[str]) -> tuple[str, int]:
        """The card of ``allowed`` whose loss leaves the least deadwood, and that deadwood.

        An unmatched card with a neighbour (a pair, two cards of a run) counts half its value
        as kept. Ties: a natural before a wild card, the dearer card, fewer neighbours.
        Losing card ``c`` leaves at least ``deadwood(hand) - value(c)``, exactly that for an
        unmatched card, so a melded card is evaluated only if it could do better.
        """
        best = self._arrangement(st, hand)
        dead = Counter(best.deadwood)
        wilds = st.rules.meld.wilds | {JOKER}
        worth = self._valuer(st)
        found: tuple[tuple[float, bool, int, int, str], int] | None = None
        order = sorted(set(allowed))  # code order first: a set's order changes per process
        for card in sorted(order, key=lambda c: (c not in dead, -worth(c))):
            value = worth(card)
            left = best.deadwood_value - value
            risk = self._risk(st, card)
            score: float = left + risk
            if card in dead:
                near = self._near(st, card, hand)
                score += value / 2 if near else 0  # half a meld: worth keeping a while
            else:
                if found is not None and score > found[0][0]:  # at best a tie: see its key
                    continue
                near = self._near(st, card, hand)
                left = self._deadwood(st, _minus(hand, [card]))
                score = left + risk
            key = (score, card in wilds, -value, near, card)
            if found is None or key < found[0]:
                found = (key, left)
        if found is None:
            raise ValueError("nothing to shed")
        return found[0][-1], found[1]

    def _near(self, st: State, card: str, hand: list[str]) -> int:
        """How many cards of ``hand`` could make a meld with ``card`` (kept a while if any)."""
        return _neighbours(card, hand)

    def _risk(self, st: State, card: str) -> float:
        """What discarding ``card`` may give away (the normal player does not ask)."""
        return 0.0

    # --- values --------------------------------------------------------------------------

    def _valuer(self, st: State) -> Callable[[str], int]:
        """Card worth for judging hands: the game's values; where cards have no value
        (Continental, Nowrang: the pattern is all that counts) every card is worth 1."""
        if st.rules.game.declare_sizes:
            return _one
        return st.rules.values.of

    def _value(self, st: State, card: str) -> int:
        return self._valuer(st)(card)

    def _hand_value(self, t: _Turn) -> int:
        return sum(self._value(t.st, c) for c in t.hand)

    def _arrangement(self, st: State, cards: Sequence[str]) -> Arrangement:
        """The solver's best arrangement of ``cards`` (GEN-12) by this player's card values."""
        return best_arrangement(cards, st.rules.meld, self._valuer(st))

    def _deadwood(self, st: State, cards: Sequence[str]) -> int:
        return self._arrangement(st, cards).deadwood_value


def _one(card: str) -> int:
    return 1


def _neighbours(card: str, cards: Sequence[str]) -> int:
    """Cards of ``cards`` of the same rank, or of the same suit within two ranks of ``card``."""
    if card == JOKER:
        return len(cards)
    rank, suit = card[0], card[1]
    value = RANK_VALUE[rank]
    return sum(1 for other in cards if other != card and other != JOKER and (
        other[0] == rank or (other[1] == suit and abs(RANK_VALUE[other[0]] - value) <= 2)))


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    left = list(hand)
    for card in cards:
        if card in left:
            left.remove(card)
    return left


def _cards(melds: Sequence[Sequence[tuple[str, str | None]]]) -> list[str]:
    return [c for m in melds for c, _ in m]


def _placed(action: Action) -> list[str]:
    if isinstance(action, MeldAction | Declare | Show):
        return _cards(action.melds)
    if isinstance(action, LayOff):
        return [c for c, _ in action.cards]
    return []


def _joker_placings(legal: LegalMoves) -> list[Action]:
    """The legal melds and lay-offs that put a joker on the table, melds first."""
    return [a for a in legal.of("meld") + legal.of("lay_off") if JOKER in _placed(a)]


def _sound(st: State, seat: int, move: LayOff) -> bool:
    """Whether the meld a lay-off produces is a meld a player could lay as it is (GEN-10)."""
    try:
        after, _ = apply(st, seat, move)
        if after.hand_over:
            return True
        meld = after.melds[move.meld]
        form_meld([parse_entry(str(p)) for p in meld.cards], st.rules.meld)
    except RuleError:
        return False
    return True
