"""Seeded bot-vs-bot matches with per-action invariants and a replay check (shared by tests)."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.deal import pack_for
from app.engine.games import match_rules
from app.engine.matchlog import MatchLog, final_state
from app.engine.replay import run_replay
from app.engine.state import State

MAX_HANDS_PER_MATCH = 8


def conserved(st: State, pack: Counter[str]) -> bool:
    """Hands, stock, discard pile and melds hold exactly the pack."""
    cards = Counter(c for hand in st.hands for c in hand)
    cards.update(st.stock)
    cards.update(st.discard)
    cards.update(c for meld in st.melds for c in meld.codes)
    return cards == pack


def check_replay(st: State, log: MatchLog, context: str) -> None:
    """The recorded match log prints to JSON and parses back equal, folds to exactly the state
    the bots reached, and replays (through JSON) to the same hand results and totals."""
    text = json.dumps(log.to_json())
    assert MatchLog.parse(json.loads(text)) == log, f"log does not round-trip: {context}"
    assert final_state(log).to_json() == st.to_json(), f"the fold differs from play: {context}"
    out = run_replay(json.loads(text))
    assert out["ok"], f"replay rejected {out['rejected']}: {context}"
    played = [{"ended": True, "winner": r.winner, "reason": r.reason, "scores": list(r.scores)}
              for r in st.results]
    assert out["hands"] == played, f"replayed hands differ: {context}"
    assert out["totals"] == st.totals, f"replayed totals differ: {context}"
    assert out["game_over"] == st.game_over and out["game_winner"] == st.game_winner, context


def play_config(game: str, options: dict[str, Any], players: int, kinds: tuple[str, ...],
                quota: int, base_seed: int) -> dict[str, Any]:
    """Play matches until ``quota`` complete hands; return counts and seconds (raises on any
    rejected action, lost card, unfinished hand or replay mismatch)."""
    rules = match_rules(game, options, players)
    pack = Counter(pack_for(rules))
    hands = actions = 0
    reasons: Counter[str] = Counter()
    seed = base_seed
    start = time.perf_counter()
    while hands < quota:
        context = f"game={game} options={options} players={players} kinds={kinds} seed={seed}"
        bots = [make_bot(kinds[s % len(kinds)], seed * 100 + s) for s in range(players)]

        def observe(before: State, seat: int | None, action: Any, after: State,
                    context: str = context) -> None:
            assert conserved(after, pack), f"cards not conserved after {action}: {context}"

        st, log = play_match(rules, bots, seed, min(MAX_HANDS_PER_MATCH, quota - hands),
                             observe)
        assert len(st.results) == len(log.hands), f"a hand did not end: {context}"
        check_replay(st, log, context)
        hands += len(log.hands)
        reasons.update(r.reason for r in st.results)
        actions += sum(len(h.actions) for h in log.hands)
        seed += 1
    return {"hands": hands, "actions": actions, "reasons": dict(reasons),
            "seconds": time.perf_counter() - start}
