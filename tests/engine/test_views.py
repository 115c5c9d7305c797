"""Leak tests: during seeded playouts, no seat's view or events show what it may not see.

After every applied action, for every seat (and a spectator): ``player_view`` holds exactly that
seat's hand; no card that is hidden from it (in another hand or the stock, and not public: the
discard pile, the melds, the taken discards in ``known``) appears anywhere in the serialized
view; there is no ``stock`` key, only ``stock_count``. With one deck a code names one card, so
a hidden code showing up anywhere is a leak. The action's events, redacted for that seat, show
no hidden card either, and a stock draw keeps its ``card`` only for the drawer. Finished hands
may reveal every hand (``revealed`` and ``results``, and the ``hand_over`` event).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.engine.actions import Action
from app.engine.state import State
from app.engine.views import player_view, redact_events

from .players import play_match

# (id, options, players, seeds): Standard Rummy with options that change what is public.
COMBOS = [
    ("plain-3p", {}, 3, range(0, 12)),
    ("call-4p", {"call_rummy": True}, 4, range(100, 110)),
    ("throw-borrowany-5p", {"throw_down": True, "borrowing_any_meld": True}, 5, range(200, 208)),
    ("complete-2p", {"complete_rummy": True}, 2, range(300, 310)),
    ("block-6p", {"block_rummy": True, "each_hand_own_game": True}, 6, range(400, 408)),
]
HAND_END_KEYS = ("results", "revealed")


def _strings(value: Any, skip: tuple[str, ...] = ()) -> Iterator[str]:
    """Every string leaf (dictionary keys included), leaving out the top-level keys ``skip``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in skip:
                continue
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str):
        yield value


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _hidden(st: State, seat: int | None) -> set[str]:
    """Codes ``seat`` must not see: other hands and the stock, less whatever is public."""
    own = set(st.hands[seat]) if seat is not None else set()
    public = set(st.discard) | {c for m in st.melds for c in m.codes} | {
        c for k in st.known for c in k}
    secret = {c for s, h in enumerate(st.hands) if s != seat for c in h} | set(st.stock)
    return secret - own - public


def _leaks(strings: Iterator[str], hidden: set[str]) -> list[str]:
    # A meld entry is "CARD" or "CARD:DESIGNATION"; a designation names no physical card.
    return sorted({s for s in strings if s.partition(":")[0] in hidden})


class LeakChecks:
    """A ``play_match`` observer checking every seat's view and events after each action."""

    def __init__(self, context: str) -> None:
        self.context = context
        self.views = 0

    def __call__(self, before: State, seat: int, action: Action, after: State,
                 events: list[dict[str, Any]]) -> None:
        where = f"{self.context} hand {after.hand_no} seq {after.seq} seat {seat} " \
                f"{action.to_json()}"
        for viewer in [*range(after.players), None]:
            self._check_view(after, viewer, where)
            self._check_events(before, after, viewer, events, where)

    def _check_view(self, st: State, viewer: int | None, where: str) -> None:
        view = json.loads(json.dumps(player_view(st, viewer)))
        self.views += 1
        at = f"view of {viewer}: {where}"
        assert view["hand"] == (list(st.hands[viewer]) if viewer is not None else []), at
        assert "stock" not in set(_keys(view)), at
        assert view["stock_count"] == len(st.stock), at
        assert len(view["results"]) == len(st.results), at
        if not st.hand_over:
            assert view["revealed"] == [], at
        leaks = _leaks(_strings(view, skip=HAND_END_KEYS), _hidden(st, viewer))
        assert not leaks, f"hidden cards {leaks} in the {at}"

    def _check_events(self, before: State, after: State, viewer: int | None,
                      events: list[dict[str, Any]], where: str) -> None:
        shown = json.loads(json.dumps(redact_events(events, viewer)))
        hidden = _hidden(after, viewer) & _hidden(before, viewer)
        for event in shown:
            at = f"event {event} for {viewer}: {where}"
            assert "secret" not in event, at
            if event["type"] == "draw" and event.get("source") == "stock":
                assert ("card" in event) == (viewer == event["seat"]), at
            if event["type"] in ("hand_over", "game_over"):
                continue  # the hand's end reveals every hand
            leaks = _leaks(_strings(event), hidden)
            assert not leaks, f"hidden cards {leaks} in {at}"


@pytest.mark.parametrize(("options", "players", "seeds"),
                         [pytest.param(o, p, s, id=i) for i, o, p, s in COMBOS])
def test_views_never_leak(options: dict[str, Any], players: int, seeds: range) -> None:
    hands = 0
    for seed in seeds:
        checks = LeakChecks(f"seed={seed} options={options} players={players}")
        _, log = play_match("standard", options, players, seed, 4, checks)
        hands += len(log.hands)
        assert checks.views > 0
    assert hands >= len(seeds)
