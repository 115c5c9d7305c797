"""What each seat may see (GEN-14, STYLE habit 7): the only way state leaves the engine live.

A seat's view is two typed parts: the `TableView` every seat and spectator shares (built once
per change) and the seat's own `SeatPart`; no key is in both, so the view is their union. The
wire gets their union as one dict (`player_view`); computer players get them as a `SeatView`,
without the prompts a client draws from (``draws``, ``throws``, ``aids``): a computer player
asks the engine instead, and working them out was a fifth of a bot's move.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypedDict

from .aids import seat_aids
from .melds import Meld
from .moves import legal_draws, legal_throws, legal_types
from .state import HandResult, Phase, State


class TurnState(TypedDict):
    """This turn's public bookkeeping."""

    taken: list[str]
    drawn: int
    melds: int
    acted: bool
    must_use: str | None
    jokers_to_play: int


class TableView(TypedDict):
    """What every seat and spectator sees alike."""

    game: str
    players: int
    phase: str
    turn: int | None
    dealer: int
    hand_no: int
    hand_counts: list[int]
    stock_count: int
    restocks: int
    discard: list[str]
    melds: list[Any]
    known: list[list[str]]
    locked: list[list[str]]
    opened: list[bool]
    shown: list[bool]
    turns: list[int]
    hand_scores: list[int]
    totals: list[int]
    hand_over: bool
    game_over: bool
    game_winner: int | None
    results: list[dict[str, Any]]
    revealed: list[list[str]]
    turn_state: TurnState


class CallView(TypedDict):
    card: str
    discarder: int
    called: bool


class SeatPart(TypedDict):
    """What only one seat sees (a spectator: no hand, nothing legal)."""

    seat: int | None
    hand: list[str]
    call_window: CallView | None
    legal: list[str]
    draws: dict[str, Any] | None
    throws: dict[str, list[str]] | None
    aids: dict[str, Any]


class SeatView(NamedTuple):
    """One seat's view as a computer player reads it: the two typed parts of its `player_view`,
    and the table's melds and finished hands as the engine's own values (the same public facts
    as ``table["melds"]`` and ``table["results"]``), so that a bot need not parse them back."""

    table: TableView
    part: SeatPart
    melds: tuple[Meld, ...]
    results: tuple[HandResult, ...]

    @property
    def seat(self) -> int:
        """The seat whose view this is (`seat_view_of` makes none for a spectator)."""
        seat = self.part["seat"]
        if seat is None:
            raise ValueError("a spectator's view has no seat to play")
        return seat


def seat_view_of(st: State, seat: int) -> SeatView:
    """The view of ``seat`` for its computer player: what `player_view` holds, typed, less the
    client's prompts (``draws`` and ``throws`` None, no ``aids``)."""
    return SeatView(table_view(st), seat_part(st, seat, prompts=False), tuple(st.melds),
                    tuple(st.results))


def player_view(st: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator): own hand, the public table, counts, never the
    other hands or the stock order. Hands become public only when the hand's end reveals them."""
    return seat_view(table_view(st), st, seat)


def table_view(st: State) -> TableView:
    """What every seat and spectator sees alike: built once per change, shared by the seats'
    views (`seat_view`)."""
    revealed = st.results[-1].revealed if st.hand_over and st.results else ()
    return {
        "game": st.rules.key,
        "players": st.players,
        "phase": st.phase.value,
        "turn": st.turn,
        "dealer": st.dealer,
        "hand_no": st.hand_no,
        "hand_counts": [len(h) for h in st.hands],
        "stock_count": len(st.stock),
        "restocks": st.restocks,
        "discard": list(st.discard),
        "melds": [m.to_json() for m in st.melds],
        "known": [list(k) for k in st.known],
        "locked": [list(k) for k in st.locked],
        "opened": list(st.opened),
        "shown": list(st.shown),
        "turns": list(st.turns),
        "hand_scores": list(st.hand_scores),
        "totals": list(st.totals),
        "hand_over": st.hand_over,
        "game_over": st.game_over,
        "game_winner": st.game_winner,
        "results": [r.to_json() for r in st.results],
        "revealed": [list(h) for h in revealed],
        "turn_state": _turn_state(st),
    }


def seat_view(table: TableView, st: State, seat: int | None) -> dict[str, Any]:
    """``table`` (from `table_view` of the same state) completed with `seat_part`."""
    return {**table, **seat_part(st, seat)}


def seat_part(st: State, seat: int | None, prompts: bool = True) -> SeatPart:
    """What only ``seat`` sees: its own hand, its part in a Call Rummy window, its legal
    actions and (with ``prompts``) where it may draw from, the cards it may throw and its aids
    (no key of `table_view`'s)."""
    if seat is None:  # a spectator
        return {"seat": None, "hand": [], "call_window": _call_view(st, None), "legal": [],
                "draws": None, "throws": None, "aids": {}}
    types = legal_types(st, seat)  # worked out once, for the draws and throws too
    return {
        "seat": seat,
        "hand": list(st.hands[seat]) if st.hands else [],
        "call_window": _call_view(st, seat),
        "legal": types,
        "draws": legal_draws(st, seat, types) if prompts else None,
        "throws": legal_throws(st, seat, types) if prompts else None,
        "aids": seat_aids(st, seat) if prompts else {},
    }


def _turn_state(st: State) -> TurnState:
    """This turn's public bookkeeping: what was taken, drawn, melded and still owed."""
    return {"taken": list(st.taken), "drawn": st.drawn, "melds": st.melds_this_turn,
            "acted": st.acted, "must_use": st.must_use, "jokers_to_play": st.jokers_to_play}


def _call_view(st: State, seat: int | None) -> CallView | None:
    if st.phase is not Phase.CALL or st.call is None:
        return None
    return {"card": st.call.card, "discarder": st.call.discarder,
            "called": seat in st.call.calls if seat is not None else False}


def redact_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: a secret card only for the seat that drew it."""
    out = []
    for event in events:
        if "secret" in event:
            event = dict(event)
            owner = event.pop("secret")
            if owner != seat:
                event.pop("card", None)
        out.append(event)
    return out
