"""What one candidate move is worth to its seat, judged only from that seat's view.

A candidate is played in each of K *samples* of the hidden cards (``state_for`` with a seeded
generator: the unseen cards shuffled among the other hands and the stock, each seat's public
cards kept, GEN-14); the normal computer player (:class:`~app.bots.sensible.SensibleBot`)
finishes the seat's turn (a draw still needs its discard; a meld its lay-offs and discard).
Then, per sample:

- the hand is over (went out, declared, knocked, blocked): the engine's own result, the seat's
  score less the others' mean (the sign turned where lower totals win, GERMAN-12);
- else a static value: what the seat's deadwood (GEN-12, the solver) still risks against what
  the other hands risk, the next player's hand judged with the top discard if taking it lowers
  its deadwood (a discard that feeds a meld costs), weighed by ``RISK`` of the game and, where
  a won hand pays a fixed stake, kept below ``CAP`` (never worth more than going out).

The value of a candidate is the mean over the samples, in points of the hand.
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
from app.engine.solver import best_arrangement
from app.engine.state import Phase, State
from app.engine.views import SeatView, seat_view_of

MAX_TURN_MOVES = 40  # a turn's own moves (melds, lay-offs, discard) never come near this
# The share of its static deadwood difference a hand in progress is worth, per game: the
# chance, roughly, that the hand ends on this table before the cards change (docs/analysis.md).
RISK: dict[str, float] = {"standard": 0.5, "boat_house": 0.5, "kaluki": 0.5,
                          "double_rum": 0.5, "knock": 0.5, "german": 0.5,
                          "queen_city": 0.25, "continental": 0.1, "phom": 0.1,
                          "nowrang": 0.02}
# Where a won hand pays a fixed stake, not the cards left (CONT-7: 1 a seat and 2 a joker;
# NOWRANG-7: 1), the most a hand in progress may be worth, in the hand's points: half of the
# least that going out wins against two players (2 in Continental, 1 in Nowrang), so that no
# static value outbids going out. The deadwood difference is squashed smoothly (tanh) below it.
CAP: dict[str, float] = {"continental": 1.0, "nowrang": 0.5}


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
            if st.hand_over and len(st.results) > st.hand_no:
                total += _relative(st, st.results[st.hand_no].scores, seat)
            else:
                total += _static(st, seat)
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
        return _relative(st, result.scores, seat), result.winner == seat and sure
    return _static(st, seat), False


def _relative(st: State, scores: Sequence[int], seat: int) -> float:
    """The seat's score less the others' mean, higher better in every game."""
    others = [scores[s] for s in range(len(scores)) if s != seat]
    sign = 1 if st.rules.game.scoring.better(1, 0) else -1
    return sign * (scores[seat] - sum(others) / len(others))


def _static(st: State, seat: int) -> float:
    """A hand in progress: the others' deadwood less the seat's, times the game's RISK."""
    rules = st.rules
    n = st.players
    top = st.discard[-1] if st.discard else None
    mine = _deadwood(st.hands[seat], st)
    others = 0.0
    for s in range(n):
        if s == seat:
            continue
        theirs = _deadwood(st.hands[s], st)
        if top is not None and s == st.turn and st.phase in (Phase.DRAW, Phase.CALL):
            theirs = min(theirs, _with_card(st.hands[s], top, st))
        others += theirs
    value = RISK.get(rules.key, 0.5) * (others / (n - 1) - mine)
    cap = CAP.get(rules.key)
    return value if cap is None else cap * math.tanh(value / cap)


def _deadwood(hand: Sequence[str], st: State) -> int:
    return best_arrangement(hand, st.rules.meld, st.rules.values.of).deadwood_value


def _with_card(hand: Sequence[str], card: str, st: State) -> int:
    """The deadwood after taking ``card`` and throwing the costliest unmatched card."""
    best = best_arrangement([*hand, card], st.rules.meld, st.rules.values.of)
    if not best.deadwood:
        return 0
    return best.deadwood_value - max(st.rules.values.of(c) for c in best.deadwood)
