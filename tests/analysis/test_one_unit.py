"""One unit (PROTOCOL.md §10): every value of a match's analysis is the hand's score in the game's
own scoring under the match's options, finished or not. Over every game and every combination of
the options that change how a hand scores (``SCORING``), on the stacked positions of
``test_games`` (seat 1 can go out at once): going out is `best` with no loss, passing it up is a
mistake or blunder, and the judgement of a hand in progress stands on the scale of the engine's
results."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from app.analysis.evaluate import holdings, outcome, relative, turn_of
from app.analysis.report import _Steady
from app.bots.sensible import SensibleBot
from app.engine.actions import parse_action
from app.engine.games import GAMES
from app.engine.matchlog import fold

from .logs import parsed
from .test_games import BAD, READY, TEN, TEN_MELDS, Ready

# The options that change what a hand scores: cards counted one (OPT-VALUES), going rummy doubled
# (OPT-HIDDEN), a hand won is the game (OPT-WIN-2), an ace left counting 11 (OPT-ATC-2), twos wild
# and the bonuses of Continental (CONT-10..12), Phỏm's discard penalties (PHOM-14).
SCORING = ("card_count_scoring", "going_rummy", "each_hand_own_game", "around_the_corner",
           "twos_wild", "quick_meld_bonus", "special_bonus", "discard_penalties")
ALL_READY = [
    # STD-10: melding all ten cards, then going out with the discard of the drawn KD.
    Ready("standard", TEN, "KD", {"type": "meld", "melds": TEN_MELDS}, "KD"),
    # KNOCK-4/6: knocking with no deadwood, the drawn KD thrown.
    Ready("knock", TEN, "KD", {"type": "knock", "discard": "KD"}, "KD"),
    *READY,
]
assert {r.game for r in ALL_READY} == set(GAMES)  # every game


def _combinations(game: str) -> list[dict[str, Any]]:
    """Every combination of the scoring options ``game`` allows (the empty one first)."""
    mine = [o for o in SCORING if o in GAMES[game].allowed_options]
    return [dict.fromkeys(c, True) for n in range(len(mine) + 1) for c in combinations(mine, n)]


CASES = [pytest.param(r, o, id="-".join([r.game, *o]))
         for r in ALL_READY for o in _combinations(r.game)]


@pytest.mark.parametrize(("ready", "options"), CASES)
def test_going_out_at_once_is_best_under_every_option(ready: Ready, options: dict[str, Any]):
    out = ready.decision(ready.out, options)
    assert (out.grade, out.loss) == ("best", 0.0)


@pytest.mark.parametrize(("ready", "options"), CASES)
def test_passing_up_going_out_is_bad_under_every_option(ready: Ready, options: dict[str, Any]):
    held = ready.decision({"type": "discard", "card": ready.passed}, options)
    assert held.grade in BAD
    assert held.loss > 0
    assert held.best is not None and held.best.type == ready.out["type"]


# Phỏm's Ù pays a fixed amount (6 or 12, PHOM-8) that no hand in progress is valued by: its
# hands in progress stand to win the showdown (PHOM-11), another event.
SCALE = [c for c in CASES if c.values[0].game != "phom"]


@pytest.mark.parametrize(("ready", "options"), SCALE)
def test_a_hand_in_progress_is_valued_on_the_scale_of_the_hands_result(
        ready: Ready, options: dict[str, Any]):
    # Just before seat 1 goes out, the judgement of the hand in progress (``Scoring.stakes``:
    # the result were seat 1 to go out now, the other seat keeping its deadwood) and the
    # engine's result of going out are the same number: the other seat holds no meld, so its
    # deadwood is what it is left with. Rescaling either side (a share, a cap, points for a
    # tally) breaks it.
    log = parsed(ready.log(ready.out, options, meldless=True))
    steps = [s for s in fold(log) if s.error is None]
    before = steps[-2].state  # the position the going out is played from
    assert not holdings(before)[0].melds
    stakes = before.rules.game.scoring.stakes(before, 1, holdings(before))
    judged = relative(before, stakes, 1)
    finished, won = outcome(turn_of(before, 1, parse_action(ready.out), SensibleBot(_Steady()))[1],
                            1)
    assert won
    assert judged == pytest.approx(finished)
    assert finished > 0
