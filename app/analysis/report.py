"""A finished match's analysis (PROTOCOL.md §10): every decision of every seat, graded.

A *decision* is a logged action whose seat had another legal move: the draw (stock, discard),
melds, lay-offs and joker exchanges made (holding them back is the other candidate: the
discard), the discard, knocking (KNOCK-4), Phỏm's show (PHOM-9), a declaration (going down,
CONT-6), and a Rummy call made (OPT-CALL: against the seat's other calls and not calling, the
call taken as winning; a call not made is not judged, docs/analysis.md). Each decision is judged
from its
seat's view alone (:mod:`.evaluate`); ``loss`` is what the played move gives up against the best
candidate, graded by thresholds in the match's unit (``scoring.unit_of`` of its rules times
``THRESHOLDS``: the unit of every value, PROTOCOL.md §10 *One unit*).

Who decided (PROTOCOL.md §10): a decision whose action the server made for a person's seat
(``played_for``: their timer ran out, or a stand-in played the seat) is listed with its
``played_for`` and graded for information only; a seat's ``decisions``, ``accuracy`` and
``loss`` count only its player's own, and a seat with none has no accuracy (None).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.bots.sensible import SensibleBot
from app.engine.actions import Action
from app.engine.games import game_def
from app.engine.matchlog import MatchLog, fold
from app.engine.moves import legal_actions
from app.engine.scoring import unit_of
from app.engine.state import Phase, State
from app.engine.views import seat_view_of

from .evaluate import from_stock, judge, judge_calls, samples, stock_outcomes
from .luck import HandLuck, draw_luck, sum_luck

# The stored analysis' rules: 2 counts in a seat's figures only its player's own decisions (an
# analysis stored before, without a version, is brought up to it by `reweigh`).
VERSION = 2
SAMPLES = 8  # determinized samples per decision (docs/analysis.md: grades and speed)
# The most loss, in units, of each grade but "blunder" (above the last).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("best", 0.5), ("good", 2.0), ("inaccuracy", 5.0), ("mistake", 12.0))
ACCURACY_SCALE = 8.0  # units of loss that bring a decision's accuracy to 100/e
NO_CALL = {"type": "no_call"}  # §10 extension: the best answer to a call window was to let it go
_PLAYABLE = (Phase.DRAW, Phase.DRAW_SECOND, Phase.PLAY, Phase.OPENING, Phase.CALL)


@dataclass(frozen=True, slots=True)
class Decision:
    hand: int
    index: int
    seat: int
    played: Action
    best: Action | None  # None: not calling was best (a judged Rummy call), {"type": "no_call"}
    loss: float
    grade: str
    played_for: str | None = None  # the server's move for a person's seat: not their decision

    def to_json(self) -> dict[str, object]:
        best = NO_CALL if self.best is None else self.best.to_json()
        out = {"hand": self.hand, "index": self.index, "seat": self.seat,
               "played": self.played.to_json(), "best": best,
               "loss": self.loss, "grade": self.grade}
        if self.played_for is not None:
            out["played_for"] = self.played_for
        return out


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's figures over its player's own decisions (None: no accuracy without one)."""

    seat: int
    decisions: int
    accuracy: float | None
    loss: float
    luck: float | None  # the sum of its hands' luck (docs/analysis.md); None: stored before it

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "decisions": self.decisions, "accuracy": self.accuracy,
                "loss": self.loss, "luck": self.luck}


@dataclass(frozen=True, slots=True)
class Analysis:
    seats: tuple[SeatSummary, ...]
    decisions: tuple[Decision, ...]
    luck: tuple[HandLuck, ...] = ()  # per hand and seat (hand-major), §10 extension

    def to_json(self) -> dict[str, Any]:
        """The stored form: §10's answer less the match and the seats' players, with the
        ``version`` of the rules it was made by."""
        return {"version": VERSION, "seats": [s.to_json() for s in self.seats],
                "decisions": [d.to_json() for d in self.decisions],
                "luck": [x.to_json() for x in self.luck]}


def analyse_json(log: object, key: str) -> dict[str, Any]:
    """``analyse`` of a JSON match log, as JSON: what a worker process is given and returns."""
    return analyse(MatchLog.parse(log), key).to_json()


def analyse(log: MatchLog, key: str, k: int = SAMPLES) -> Analysis:
    """The analysis of ``log``; ``key`` (the match id) seeds the samples, so it is repeatable."""
    decisions: list[Decision] = []
    draws: list[tuple[int, int, float]] = []
    for found in _judged(log, key, k, SensibleBot(_Steady()), grade=True, luck=True):
        if isinstance(found, Decision):
            decisions.append(found)
        else:
            draws.append(found)
    luck = tuple(sum_luck(draws, log.players, len(log.hands)))
    unit = unit_of(log.rules)
    seats = tuple(_summary(s, [d.loss for d in decisions
                               if d.seat == s and d.played_for is None], unit,
                           sum(x.luck for x in luck if x.seat == s))
                  for s in range(log.players))
    return Analysis(seats, tuple(decisions), luck)


def is_current(stored: Mapping[str, Any]) -> bool:
    """Whether a stored analysis was made by this ``VERSION``'s rules."""
    return bool(stored.get("version", 1) >= VERSION)


def reweigh(stored: Mapping[str, Any], game: str,
            played_for: Mapping[tuple[int, int], str]) -> dict[str, Any]:
    """An analysis stored before ``VERSION`` 2, brought up to it without working it out again:
    each decision at a ``(hand, index)`` in ``played_for`` (the match log's moves that the
    server made for a person's seat) is marked so, and each seat's figures are summed again
    over its player's own decisions. A decision's grade, loss and best move, and the luck,
    never depended on who decided: they stand."""
    decisions = [{**d, "played_for": played_for[(d["hand"], d["index"])]}
                 if (d["hand"], d["index"]) in played_for else dict(d)
                 for d in stored["decisions"]]
    unit = game_def(game).scoring.unit  # the unit its losses were judged in (before options)
    seats = [_summary(s["seat"], [d["loss"] for d in decisions
                                  if d["seat"] == s["seat"] and "played_for" not in d],
                      unit, s.get("luck")).to_json() for s in stored["seats"]]
    return {**stored, "version": VERSION, "seats": seats, "decisions": decisions}


def grade_of(loss: float, unit: float) -> str:
    """The grade of a loss in a game whose unit is ``unit`` points."""
    for grade, most in THRESHOLDS:
        if loss <= most * unit:
            return grade
    return "blunder"


def accuracy(losses: list[float], unit: float) -> float | None:
    """100 times the mean of exp(-loss / (ACCURACY_SCALE units)): 100 when every move is best;
    None without a decision (a seat whose player made none of its moves)."""
    if not losses:
        return None
    scale = ACCURACY_SCALE * unit
    return round(100 * sum(math.exp(-loss / scale) for loss in losses) / len(losses), 1)


def _summary(seat: int, losses: list[float], unit: float, luck: float | None) -> SeatSummary:
    """A seat's figures from the losses of its player's own decisions."""
    return SeatSummary(seat, len(losses), accuracy(losses, unit), round(sum(losses), 2),
                       None if luck is None else round(luck, 2))


def draw_lucks(log: MatchLog, key: str, k: int = SAMPLES, bot: SensibleBot | None = None
               ) -> Iterator[tuple[int, int, float]]:
    """``(hand, seat, luck)`` of every draw from the stock (:mod:`.luck`), in the log's order."""
    for found in _judged(log, key, k, bot or SensibleBot(_Steady()), grade=False, luck=True):
        if not isinstance(found, Decision):
            yield found


def graded(log: MatchLog, key: str, k: int = SAMPLES, bot: SensibleBot | None = None
           ) -> tuple[Decision, ...]:
    """The decisions of ``log`` graded (``analyse`` without the luck and the seats' figures)."""
    return tuple(found for found in _judged(log, key, k, bot or SensibleBot(_Steady()),
                                            grade=True, luck=False)
                 if isinstance(found, Decision))


def _judged(log: MatchLog, key: str, k: int, bot: SensibleBot, *, grade: bool, luck: bool
            ) -> Iterator[Decision | tuple[int, int, float]]:
    """The decisions (``grade``) and the stock draws' ``(hand, seat, luck)`` (``luck``) of
    ``log`` in its order; a draw from the stock that is both is judged on the same samples, and
    its luck is the card that came against the draw's own value (:mod:`.luck`)."""
    before: State | None = None
    unit = unit_of(log.rules)
    for step in fold(log):
        if step.error is not None:
            return
        entry = step.entry
        if entry is None or before is None or entry.action is None:
            before = step.state
            continue
        seat, played, seed = entry.seat, entry.action, f"{key}:{step.hand}:{step.index}"
        assert step.index is not None  # noqa: S101 - an action's step has its index
        if played.type == "call_rummy" and before.phase is Phase.CALL:
            if grade:
                yield _decide_call(before, step.hand, step.index, seat, played, seed, k, unit,
                                   entry.played_for)
        elif played.type != "call_rummy" and before.phase in _PLAYABLE and before.turn == seat:
            drawn = Counter(step.state.hands[seat]) - Counter(before.hands[seat])
            lucky = luck and from_stock(played) and bool(before.stock) and len(drawn) == 1
            base = samples(seat_view_of(before, seat), before.rules, seed, k) if (
                grade or lucky) else []
            stock = None
            if lucky:
                stock = stock_outcomes(base, seat, played, bot)
                yield step.hand, seat, draw_luck(base, seat, played, next(iter(drawn)), stock,
                                                 bot)
            decision = _decide(before, step.hand, step.index, seat, played, base, bot, unit,
                               entry.played_for, stock) if grade else None
            if decision is not None:
                yield decision
        before = step.state


def _decide(st: State, hand: int, index: int, seat: int, played: Action, base: list[State],
            bot: SensibleBot, unit: float, played_for: str | None,
            stock: list[tuple[float, float]] | None) -> Decision | None:
    """The decision at ``st`` judged on the samples ``base`` (None when the seat had no other
    move); ``played_for``: who decided, where it was the server for the seat's person;
    ``stock``: the draw from the stock's outcomes, where already worked out."""
    candidates = list(dict.fromkeys(a for a in legal_actions(st, seat)
                                    if a.type != "call_rummy"))
    if played not in candidates:
        candidates.append(played)
    if len(candidates) < 2:
        return None
    judged = judge(base, seat, candidates, bot, stock)
    best = max(judged, key=lambda j: j.value)
    mine = next(j for j in judged if j.action == played)
    loss = round(max(0.0, best.value - mine.value), 2)
    grade = grade_of(loss, unit)
    if max(j.wins for j in judged) == 1.0 and mine.wins < 1.0 and loss > 0:
        grade = "blunder"  # §10: passing up a win that was there
    return Decision(hand, index, seat, played, best.action if loss > 0 else played, loss, grade,
                    played_for)


def _decide_call(st: State, hand: int, index: int, seat: int, played: Action, seed: str, k: int,
                 unit: float, played_for: str | None) -> Decision:
    """A Rummy call made: against the seat's other calls in this window and not calling."""
    calls: list[Action | None] = list(dict.fromkeys(
        a for a in legal_actions(st, seat) if a.type == "call_rummy"))
    if played not in calls:
        calls.append(played)
    judged = judge_calls(samples(seat_view_of(st, seat), st.rules, seed, k), seat,
                         [*calls, None])
    best, top = max(judged, key=lambda j: j[1])
    mine = next(v for a, v in judged if a == played)
    loss = round(max(0.0, top - mine), 2)
    return Decision(hand, index, seat, played, best if loss > 0 else played, loss,
                    grade_of(loss, unit), played_for)


class _Steady(random.Random):
    """The judging player's generator: the normal player's stall-breaking random discards
    (``STALL_SHARE``) would only add noise between candidates, so it never draws below 1."""

    def random(self) -> float:
        return 1.0
