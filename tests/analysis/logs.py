"""Match logs for the analysis tests, dealt exactly as given (the rest of the pack follows the
named stock cards in pack order) with the actions as given."""

from __future__ import annotations

from typing import Any

from app.engine.cards import standard_pack
from app.engine.games import match_rules
from app.engine.matchlog import MatchLog
from app.engine.solver import best_arrangement


def hand_log(game: str, hands: list[list[str]], actions: list[tuple[int, dict[str, Any]]], *,
             stock_top: list[str] = (), discard: list[str] = (), dealer: int = 0,
             rest: list[str] | None = None, options: dict[str, Any] | None = None
             ) -> dict[str, Any]:
    """One hand of ``game`` as a JSON match log; ``rest`` orders the unnamed stock cards."""
    rules = match_rules(game, options or {}, len(hands))
    pack = standard_pack(*rules.pack_size())
    for card in [c for h in hands for c in h] + [*discard, *stock_top]:
        pack.remove(card)
    if rest is not None:
        assert sorted(rest) == sorted(pack)
        pack = rest
    return {"game": game, "options": options or {}, "players": len(hands), "hands": [{
        "dealer": dealer,
        "deal": {"hands": hands, "stock": [*stock_top, *pack], "discard": list(discard)},
        "actions": [{"seat": s, "action": a} for s, a in actions]}]}


def parsed(log: dict[str, Any]) -> MatchLog:
    return MatchLog.parse(log)


def filler(game: str, used: list[str], size: int, players: int = 2, *,
           meldless: bool = False) -> list[str]:
    """``size`` cards of ``game``'s pack not in ``used``, spread over suits and ranks (every
    fifth card in pack order, then the next fifths: few runs, rarely two of a rank);
    ``meldless``: skipping any card that would make a meld with those already taken."""
    rules = match_rules(game, {}, players)
    pack = standard_pack(*rules.pack_size())
    for card in used:
        pack.remove(card)
    spread = [c for o in (0, 2, 4, 1, 3) for c in pack[o::5] if c != "JK"]
    if not meldless:
        return spread[:size]
    out: list[str] = []
    for card in spread:
        if len(out) < size and not best_arrangement([*out, card], rules.meld, len).melds:
            out.append(card)
    return out
