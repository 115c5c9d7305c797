"""Match logs (PROTOCOL.md §4): replay a log through the engine and report the result."""

from __future__ import annotations

import random
from typing import Any

from .deal import Deal, shuffled_deal, stacked_deal
from .errors import RuleError
from .game import apply, can_start_hand, close_call_window, new_match, next_dealer, start_hand
from .games import match_rules
from .rules import GameRules
from .state import State


class InvalidMatchLog(ValueError):
    """The input is not a valid match log (exit status 1 of ``replay``)."""


def run_replay(log: object) -> dict[str, Any]:
    """Apply ``log`` and return the PROTOCOL.md §4 output object; stop at the first rejection."""
    rules, hands = _parse_log(log)
    st = new_match(rules)
    summaries: list[dict[str, Any]] = []
    rejected: dict[str, Any] | None = None
    for h, hand in enumerate(hands):
        st = _deal_hand(st, hand, h)
        for i, entry in enumerate(_actions(hand, h)):
            try:
                st, _ = apply(st, entry["seat"], entry["action"])
            except RuleError as exc:
                rejected = {"hand": h, "index": i, "code": exc.code, "message": exc.message}
                break
        if rejected is not None:
            summaries.append(hand_summary(st, h))
            break
        st = settle_calls(st)
        summaries.append(hand_summary(st, h))
    return {
        "ok": rejected is None, "rejected": rejected, "hands": summaries,
        "totals": list(st.totals), "game_over": st.game_over, "game_winner": st.game_winner,
        "state": st.to_json(),
    }


def replay_steps(log: object) -> list[dict[str, Any]]:
    """Every state of a match log: after each deal and after each action (the admin replay).

    A rejected action (which a recorded log never holds) ends the list with its error.
    """
    rules, hands = _parse_log(log)
    st = new_match(rules)
    steps: list[dict[str, Any]] = []
    for h, hand in enumerate(hands):
        st = _deal_hand(st, hand, h)
        steps.append({"hand": h, "index": None, "seat": None, "action": None,
                      "state": st.to_json()})
        for i, entry in enumerate(_actions(hand, h)):
            step = {"hand": h, "index": i, "seat": entry["seat"], "action": entry["action"]}
            try:
                st, _ = apply(st, entry["seat"], entry["action"])
            except RuleError as exc:
                steps.append({**step, "state": st.to_json(),
                              "error": {"code": exc.code, "message": exc.message}})
                return steps
            steps.append({**step, "state": st.to_json()})
        st = settle_calls(st)
        steps[-1]["state"] = st.to_json()
    return steps


def settle_calls(st: State) -> State:
    """A log's calls end its hand's actions: the window closes there (OPT-CALL-4), so that a
    hand won by a call ends before the next hand or the end of the log."""
    if st.call is not None and st.call.calls:
        st, _ = close_call_window(st)
    return st


def hand_summary(st: State, h: int) -> dict[str, Any]:
    if h < len(st.results):
        r = st.results[h]
        return {"ended": True, "winner": r.winner, "reason": r.reason, "scores": list(r.scores)}
    return {"ended": False, "winner": None, "reason": None, "scores": [0] * st.players}


def _parse_log(log: object) -> tuple[GameRules, list[dict[str, Any]]]:
    if not isinstance(log, dict):
        raise InvalidMatchLog("a match log is a JSON object")
    for key in ("game", "players", "hands"):
        if key not in log:
            raise InvalidMatchLog(f"missing {key!r}")
    try:
        rules = match_rules(log["game"], log.get("options") or {}, log["players"])
    except RuleError as exc:
        raise InvalidMatchLog(f"{exc.code}: {exc.message}") from None
    hands = log["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise InvalidMatchLog("hands must be a list of objects")
    return rules, hands


def _deal_hand(st: State, hand: dict[str, Any], h: int) -> State:
    if not can_start_hand(st):
        raise InvalidMatchLog(f"hand {h}: the previous hand has not ended or the game is over")
    dealer = hand.get("dealer", next_dealer(st))
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < st.players:
        raise InvalidMatchLog(f"hand {h}: bad dealer {dealer!r}")
    return start_hand(st, _deal(st.rules, hand, dealer, h), dealer)


def _deal(rules: GameRules, hand: dict[str, Any], dealer: int, h: int) -> Deal:
    if ("deal" in hand) == ("seed" in hand):
        raise InvalidMatchLog(f"hand {h}: give exactly one of 'deal' and 'seed'")
    if "seed" in hand:
        seed = hand["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidMatchLog(f"hand {h}: seed must be an integer")
        return shuffled_deal(rules, dealer, random.Random(seed))
    try:
        return stacked_deal(rules, dealer, hand["deal"])
    except RuleError as exc:
        raise InvalidMatchLog(f"hand {h}: {exc.message}") from None


def _actions(hand: dict[str, Any], h: int) -> list[dict[str, Any]]:
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidMatchLog(f"hand {h}: actions must be a list")
    for i, entry in enumerate(actions):
        if not isinstance(entry, dict) or "action" not in entry or not isinstance(
                entry.get("seat"), int) or isinstance(entry.get("seat"), bool):
            raise InvalidMatchLog(f"hand {h}, action {i}: needs an integer seat and an action")
    return actions
