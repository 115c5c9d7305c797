"""Seeded random playouts of Standard Rummy across option combinations (property tests).

Every combination plays matches with the legal-move player of ``players.py`` until it has played
its quota of complete hands. After every applied action: the cards are conserved (hands, stock,
discard pile and melds hold exactly the pack), every meld a move changed is still a valid meld of
its kind (``form_meld`` accepts it as listed), ``seq`` grows by one, the turn passes to the left
after a discard that does not end the hand (and stays put after any other action), and a hand
that ends says why (``went_out`` or ``blocked``). On a sample of states every action that
``legal_actions`` offers (sent as JSON) is accepted by ``check``. At the end of each match, the
recorded match log folds to exactly the state the player reached, and, round-tripped through
JSON, replays (``run_replay``) to the same results.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.engine.actions import Action
from app.engine.deal import pack_for
from app.engine.errors import RuleError
from app.engine.game import check
from app.engine.matchlog import MatchLog, final_state
from app.engine.melds import form_meld
from app.engine.moves import legal_actions
from app.engine.replay import run_replay
from app.engine.state import State

from .players import play_match

TOTAL_HANDS = 2000
LEGALITY_SAMPLE = 0.03  # share of states whose every legal action is re-checked through JSON

# (id, options, players, hands to play). All 14 options of Standard Rummy appear, and 2..6 players.
COMBOS: list[tuple[str, dict[str, Any], int, int]] = [
    ("plain-2p", {}, 2, 130),
    ("plain-4p", {}, 4, 110),
    ("call-3p", {"call_rummy": True}, 3, 110),
    ("call-layoff-onemeld-5p",
     {"call_rummy": True, "layoff_requires_meld": True, "one_meld_per_turn": True}, 5, 110),
    ("block-2p", {"block_rummy": True}, 2, 130),
    ("block-cardcount-4p", {"block_rummy": True, "card_count_scoring": True}, 4, 110),
    ("throw-atc-3p", {"throw_down": True, "around_the_corner": True}, 3, 110),
    ("throw-call-4p", {"throw_down": True, "call_rummy": True}, 4, 110),
    ("complete-2p", {"complete_rummy": True}, 2, 110),
    ("complete-mandisc-atc-3p",
     {"complete_rummy": True, "mandatory_discard": True, "around_the_corner": True}, 3, 110),
    ("borrow-3p", {"borrowing": True}, 3, 110),
    ("borrowany-onemeld-4p", {"borrowing_any_meld": True, "one_meld_per_turn": True}, 4, 110),
    ("hidden-mandisc-2p", {"going_rummy": True, "mandatory_discard": True}, 2, 110),
    ("hidden-layoff-6p", {"going_rummy": True, "layoff_requires_meld": True}, 6, 110),
    ("ownhand-call-3p", {"each_hand_own_game": True, "call_rummy": True}, 3, 110),
    ("target50-cardcount-5p", {"target_score": 50, "card_count_scoring": True}, 5, 100),
    ("ownhand-block-throw-6p",
     {"each_hand_own_game": True, "block_rummy": True, "throw_down": True}, 6, 100),
    ("target300-atc-borrow-2p",
     {"target_score": 300, "around_the_corner": True, "borrowing": True}, 2, 110),
]
MAX_HANDS_PER_MATCH = 6
HANDS_PLAYED: dict[str, int] = {}


def test_combos_cover_every_option_and_player_count() -> None:
    from app.engine.games import STANDARD

    used = {key for _, options, _, _ in COMBOS for key in options}
    assert used == set(STANDARD.allowed_options)
    assert {players for _, _, players, _ in COMBOS} == {2, 3, 4, 5, 6}
    assert sum(quota for *_, quota in COMBOS) >= TOTAL_HANDS


class Invariants:
    """The per-action checks, as a ``play_match`` observer."""

    def __init__(self, context: str, rng: random.Random) -> None:
        self.context = context
        self.rng = rng
        self.pack: Counter[str] | None = None
        self.actions = 0

    def __call__(self, before: State, seat: int, action: Action, after: State,
                 events: list[dict[str, Any]]) -> None:
        self.actions += 1
        where = f"{self.context} hand {after.hand_no} seq {after.seq} seat {seat} " \
                f"{action.to_json()}"
        if self.pack is None:
            self.pack = Counter(pack_for(after.rules))
        assert after.seq == before.seq + 1, f"seq {before.seq} -> {after.seq}: {where}"
        cards = [c for hand in after.hands for c in hand] + after.stock + after.discard + [
            c for meld in after.melds for c in meld.codes]
        have = Counter(cards)
        assert have == self.pack, (
            f"cards not conserved: extra {dict(have - self.pack)} missing "
            f"{dict(self.pack - have)}: {where}")
        for index, meld in enumerate(after.melds):
            if index < len(before.melds) and meld is before.melds[index]:
                continue
            entries = [(p.card, p.stands_for if p.is_wild else None) for p in meld.cards]
            try:
                valid = form_meld(entries, after.rules.meld)
            except RuleError as exc:
                raise AssertionError(f"meld {index} {meld.to_json()['cards']} on the table is "
                                     f"not a valid meld ({exc.code}: {exc}): {where}") from None
            assert valid.kind == meld.kind, f"meld {index} is not a {meld.kind}: {where}"
        n = after.players
        if after.hand_over:
            assert len(after.results) == len(before.results) + 1, where
            assert after.results[-1].reason in ("went_out", "blocked", "exhausted"), where
            assert after.turn is None, where
        else:
            assert len(after.results) == len(before.results), where
            if action.type == "discard":
                assert after.turn == (seat + 1) % n, (
                    f"turn {after.turn} after seat {seat}'s discard: {where}")
            elif action.type != "call_rummy":
                assert after.turn == seat, f"turn moved to {after.turn}: {where}"
            else:
                assert after.turn == before.turn, where
        if self.rng.random() < LEGALITY_SAMPLE and before.turn is not None:
            for legal in legal_actions(before, before.turn):
                check(before, before.turn, json.loads(json.dumps(legal.to_json())))


def _replay_matches(st: State, log: MatchLog, context: str) -> None:
    assert final_state(log).to_json() == st.to_json(), f"the fold differs from play: {context}"
    out = run_replay(json.loads(json.dumps(log.to_json())))
    assert out["ok"], f"replay rejected {out['rejected']}: {context}"
    assert out["totals"] == st.totals, f"{context}"
    assert out["game_over"] == st.game_over, context
    assert out["game_winner"] == st.game_winner, context
    played = [{"ended": True, "winner": r.winner, "reason": r.reason, "scores": list(r.scores)}
              for r in st.results]
    assert out["hands"] == played, context


@pytest.mark.parametrize(("index", "options", "players", "quota"),
                         [pytest.param(k, o, p, q, id=i) for k, (i, o, p, q) in enumerate(COMBOS)])
def test_playouts(index: int, options: dict[str, Any], players: int, quota: int,
                  capsys: pytest.CaptureFixture[str]) -> None:
    hands = 0
    seed = 1000 * index
    while hands < quota:
        context = f"seed={seed} options={options} players={players}"
        check_actions = Invariants(context, random.Random(seed))
        try:
            st, log = play_match("standard", options, players, seed,
                                 min(MAX_HANDS_PER_MATCH, quota - hands), check_actions)
        except AssertionError:
            raise
        except Exception as exc:  # an engine crash: say which playout
            raise AssertionError(f"engine raised {exc!r}: {context}") from exc
        assert len(st.results) == len(log.hands), f"a hand did not end: {context}"
        _replay_matches(st, log, context)
        hands += len(log.hands)
        seed += 1
    HANDS_PLAYED[COMBOS[index][0]] = hands
    with capsys.disabled():
        print(f"\n  {COMBOS[index][0]}: {hands} hands", end="")


def test_total_hands() -> None:
    """Runs after the playouts (file order): at least TOTAL_HANDS complete hands were played."""
    if len(HANDS_PLAYED) < len(COMBOS):
        pytest.skip("run the whole module to count the hands")
    assert sum(HANDS_PLAYED.values()) >= TOTAL_HANDS, HANDS_PLAYED
