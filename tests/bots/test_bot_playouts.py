"""Bot-vs-bot playouts of all ten games: at least 500 complete hands per game.

Every action is chosen by a bot from ``seat_view_of(state, seat)`` alone (``choose``, and
``maybe_call`` for every seat but the discarder in a Call Rummy window) and applied by the
engine. Checked: no bot action is ever rejected, the cards are conserved after every action,
every hand ends within ``MAX_ACTIONS_PER_HAND`` actions, and every recorded match log replays
(``run_replay``) to the same hand scores and totals. Seats cycle through ``kinds`` (some are the
random legal bot).

The configurations run in two worker processes (this machine has two cores); each game's test
waits for its own configurations.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from app.engine.games import GAMES

from .playouts import play_config

HANDS_PER_GAME = 500
# Continental's share of the two worker processes is about two minutes on a quiet machine and
# ten times that beside the suite's other workers at a load of 15-20: a limit for a hang, twice
# the suite's (pyproject.toml).
pytestmark = pytest.mark.timeout(1800)
S, R = "sensible", "random"

# game -> [(options, players, seat kinds, hands)]
CONFIGS: dict[str, list[tuple[dict[str, Any], int, tuple[str, ...], int]]] = {
    "standard": [
        ({}, 2, (S, R), 50),
        ({"call_rummy": True}, 3, (S, S, R), 50),
        ({"block_rummy": True}, 4, (S,), 50),
        ({"throw_down": True}, 3, (S, R), 50),
        ({"complete_rummy": True}, 2, (S,), 50),
        ({"borrowing": True}, 3, (S, S, R), 50),
        ({"going_rummy": True, "mandatory_discard": True}, 2, (S,), 50),
        ({"call_rummy": True, "layoff_requires_meld": True, "one_meld_per_turn": True}, 5,
         (S, R), 50),
        ({"around_the_corner": True, "card_count_scoring": True, "borrowing_any_meld": True},
         6, (S,), 50),
        ({"throw_down": True, "call_rummy": True, "each_hand_own_game": True}, 4, (S, S, R), 50),
    ],
    "boat_house": [
        ({}, 2, (S,), 130),
        ({}, 4, (S, R), 125),
        ({"card_count_scoring": True}, 6, (S,), 125),
        ({"each_hand_own_game": True}, 3, (S, S, R), 120),
    ],
    "kaluki": [
        ({}, 2, (S,), 130),
        ({"call_rummy": True}, 3, (S, S, R), 125),
        ({"mandatory_discard": True}, 4, (S,), 125),
        ({"call_rummy": True, "mandatory_discard": True}, 2, (S, R), 120),
    ],
    "double_rum": [
        ({}, 2, (S, R), 125),
        ({"going_rummy": True}, 3, (S,), 125),
        ({"call_rummy": True, "one_meld_per_turn": True}, 4, (S, S, R), 125),
        ({"layoff_requires_meld": True, "mandatory_discard": True,
          "card_count_scoring": True}, 2, (S,), 125),
    ],
    "knock": [
        ({}, 2, (S,), 130),
        ({}, 3, (S, R), 125),
        ({}, 5, (S,), 125),
        ({"each_hand_own_game": True}, 4, (S, S, R), 120),
    ],
    "continental": [
        ({}, 2, (S,), 130),
        ({"twos_wild": True, "quick_meld_bonus": True, "special_bonus": True}, 4, (S, R), 125),
        ({"twos_wild": True, "hands": 3}, 8, (S,), 125),
        ({"quick_meld_bonus": True, "special_bonus": True, "starting_score": 50}, 12,
         (S, S, R), 120),
    ],
    "queen_city": [
        ({}, 2, (S,), 170),
        ({}, 4, (S, R), 165),
        ({"target_score": 300}, 6, (S,), 165),
    ],
    "phom": [
        ({}, 4, (S,), 130),
        ({"discard_penalties": True}, 3, (S, R), 125),
        ({"no_layoff_on_others": True, "discard_penalties": True}, 4, (S, S, R), 125),
        ({"hands": 5}, 2, (S,), 120),
    ],
    # German seats are all sensible: a random seat soon reaches a state with no legal action
    # (an engine bug, see test_engine_issues.py::test_german_swap_can_leave_no_legal_action).
    "german": [
        ({}, 2, (S,), 170),
        ({"hands": 4}, 4, (S,), 165),
        ({}, 6, (S,), 165),
    ],
    "nowrang": [
        ({}, 2, (S,), 250),
        ({}, 2, (S, R), 250),
    ],
}

_POOL: ProcessPoolExecutor | None = None
_FUTURES: dict[str, list[Future[dict[str, Any]]]] = {}


def test_every_game_has_its_quota() -> None:
    assert set(CONFIGS) == set(GAMES)
    for game, configs in CONFIGS.items():
        assert sum(c[3] for c in configs) >= HANDS_PER_GAME, game
        players = {c[1] for c in configs}
        assert min(players) == GAMES[game].min_players, game
        assert max(players) == GAMES[game].max_players, game


@pytest.fixture(scope="module")
def futures() -> Iterator[dict[str, list[Future[dict[str, Any]]]]]:
    """Every configuration, submitted at once to two worker processes."""
    pool = ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork"))
    out: dict[str, list[Future[dict[str, Any]]]] = {}
    for g, (game, configs) in enumerate(CONFIGS.items()):
        out[game] = [pool.submit(play_config, game, options, players, kinds, quota,
                                 10_000 * g + 1_000 * k)
                     for k, (options, players, kinds, quota) in enumerate(configs)]
    yield out
    pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize("game", list(CONFIGS))
def test_bots_play_every_game(game: str, futures: dict[str, list[Future[dict[str, Any]]]],
                              capsys: pytest.CaptureFixture[str]) -> None:
    results = [f.result() for f in futures[game]]
    hands = sum(r["hands"] for r in results)
    with capsys.disabled():
        print(f"\n  {game}: {hands} hands, {sum(r['actions'] for r in results)} actions in "
              f"{len(results)} configurations ({sum(r['seconds'] for r in results):.1f} s)",
              end="")
    assert hands >= HANDS_PER_GAME
