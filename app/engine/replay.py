"""The ``replay`` command (PROTOCOL.md §4) and the admin's steps: a match log's fold as JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .game import new_match
from .matchlog import MatchLog, fold
from .state import State


def run_replay(log: object) -> dict[str, Any]:
    """Apply ``log`` and return the PROTOCOL.md §4 output object; stop at the first rejection."""
    match = log if isinstance(log, MatchLog) else MatchLog.parse(log)
    st = new_match(match.rules)
    rejected: dict[str, Any] | None = None
    for step in fold(match):
        st = step.state
        if step.error is not None:
            rejected = {"hand": step.hand, "index": step.index, "code": step.error.code,
                        "message": step.error.message}
    return {
        "ok": rejected is None, "rejected": rejected,
        "hands": [hand_summary(st, h) for h in range(st.hand_no + 1)],
        "totals": list(st.totals), "game_over": st.game_over, "game_winner": st.game_winner,
        "state": st.to_json(),
    }


def replay_steps(log: object,
                 view: Callable[[State], dict[str, Any]] = State.to_json) -> list[dict[str, Any]]:
    """Every state of a match log: after each deal and after each action, each shown through
    ``view`` (the admin replay: the full state; a player's: ``views.player_view`` for a seat).
    A step whose action the server made for a person's seat carries its ``played_for``
    (PROTOCOL.md §4). A rejected action (which a recorded log never holds) ends the list with
    its error.
    """
    match = log if isinstance(log, MatchLog) else MatchLog.parse(log)
    steps: list[dict[str, Any]] = []
    for step in fold(match):
        entry = step.entry
        out = {"hand": step.hand, "index": step.index, "seat": step.seat,
               "action": None if entry is None else entry.action_json(),
               "state": view(step.state)}
        if entry is not None and entry.played_for is not None:
            out["played_for"] = entry.played_for
        if step.error is not None:
            out["error"] = {"code": step.error.code, "message": step.error.message}
        steps.append(out)
    return steps


def hand_summary(st: State, h: int) -> dict[str, Any]:
    if h < len(st.results):
        r = st.results[h]
        return {"ended": True, "winner": r.winner, "reason": r.reason, "scores": list(r.scores)}
    return {"ended": False, "winner": None, "reason": None, "scores": [0] * st.players}
