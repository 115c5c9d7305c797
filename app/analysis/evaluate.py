"""What one candidate move is worth to its seat, judged only from that seat's view.

A candidate is played in each of K *samples* of the hidden cards (``state_for`` with a seeded
generator: the unseen cards shuffled among the other hands and the stock, each seat's public
cards kept, GEN-14); the normal computer player (:class:`~app.bots.sensible.SensibleBot`)
finishes the seat's turn (a draw still needs its discard; a meld its lay-offs and discard).
Then the position is valued by :func:`value`, the one judgement of every position, in one unit
per match (PROTOCOL.md §10 *One unit*): the hand's expected score in the game's own scoring
under the match's options, the seat's less the others' mean (the sign turned where lower
totals win, GERMAN-12),

- a finished hand (went out, declared, knocked, blocked): the engine's own result;
- a hand in progress: over the seats that might win it, each one's chance times the result the
  game's scoring would give were it to go out now with the others keeping their deadwood
  (``Scoring.stakes``; the next player's hand judged with the top discard if taking it lowers
  its deadwood: a discard that feeds a meld costs). The chances fall with the unmatched cards a
  seat holds, by the game's ``pace``. A weighted mean of results, so never above what the seat's
  going out would score.

The value of a candidate is the mean over the samples.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.determinize import state_for
from app.bots.sensible import SensibleBot
from app.engine.actions import Action
from app.engine.game import apply, close_call_window
from app.engine.rules import GameRules
from app.engine.solver import Arrangement, best_arrangement
from app.engine.state import Phase, State
from app.engine.views import SeatView, seat_view_of

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


def judge(base: Sequence[State], seat: int, candidates: Sequence[Action],
          bot: SensibleBot) -> list[Judged]:
    """Each candidate's value to ``seat`` over the sampled states ``base``."""
    out = []
    for action in candidates:
        total = wins = 0.0
        for st in base:
            value, won = play_out(st, seat, action, bot)
            total += value
            wins += won
        out.append(Judged(action, total / len(base), wins / len(base)))
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


def play_out(st: State, seat: int, action: Action, bot: SensibleBot) -> tuple[float, bool]:
    """The candidate, then the rest of the seat's turn by the normal player; its value."""
    st, _ = apply(st, seat, action)
    for _ in range(MAX_TURN_MOVES):
        if st.hand_over or st.turn != seat or st.phase not in (Phase.PLAY, Phase.DRAW_SECOND):
            break
        st, _ = apply(st, seat, bot.choose(seat_view_of(st, seat), st.rules))
    if st.hand_over and len(st.results) > st.hand_no:
        result = st.results[st.hand_no]
        sure = result.reason == "went_out" or (
            result.reason == "knock" and result.detail["counts"][seat] == 0)
        return value(st, seat), result.winner == seat and sure
    return value(st, seat), False


def value(st: State, seat: int) -> float:
    """The position's worth to ``seat``: the hand's expected score in the game's own scoring
    under the match's options, finished or not (the module's docstring; PROTOCOL.md §10)."""
    if st.hand_over and len(st.results) > st.hand_no:
        return relative(st, st.results[st.hand_no].scores, seat)
    held = holdings(st)
    scoring = st.rules.game.scoring
    return sum(chance * relative(st, scoring.stakes(st, s, held), seat)
               for s, chance in enumerate(chances(held, st.rules)))


def relative(st: State, scores: Sequence[int], seat: int) -> float:
    """The seat's score less the others' mean, higher better in every game."""
    others = [scores[s] for s in range(len(scores)) if s != seat]
    sign = 1 if st.rules.game.scoring.better(1, 0) else -1
    return sign * (scores[seat] - sum(others) / len(others))


def holdings(st: State) -> list[Arrangement]:
    """Each seat's best arrangement (GEN-12, the solver); the next player's with the top
    discard taken and its costliest unmatched card thrown, where that lowers its deadwood."""
    top = st.discard[-1] if st.discard else None
    out = []
    for s, hand in enumerate(st.hands):
        held = best_arrangement(hand, st.rules.meld, st.rules.values.of)
        if top is not None and s == st.turn and st.phase in (Phase.DRAW, Phase.CALL):
            taken = _with_card(hand, top, st.rules)
            if taken.deadwood_value < held.deadwood_value:
                held = taken
        out.append(held)
    return out


def chances(held: Sequence[Arrangement], rules: GameRules) -> list[float]:
    """Each seat's chance to win the hand in progress: falling by a factor e for every
    ``pace`` (the game's) unmatched cards it holds more than another."""
    pace = rules.game.pace
    weights = [math.exp(-len(h.deadwood) / pace) for h in held]
    total = sum(weights)
    return [w / total for w in weights]


def _with_card(hand: Sequence[str], card: str, rules: GameRules) -> Arrangement:
    """The arrangement after taking ``card`` and throwing the costliest unmatched card."""
    best = best_arrangement([*hand, card], rules.meld, rules.values.of)
    if not best.deadwood:
        return best
    thrown = max(best.deadwood, key=rules.values.of)
    left = list(best.deadwood)
    left.remove(thrown)
    return Arrangement(best.melds, tuple(left), best.deadwood_value - rules.values.of(thrown))
