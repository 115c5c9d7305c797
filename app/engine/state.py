"""The game state: one match (totals, hand history) and its current hand, with an explicit phase.

States are treated as values: :func:`app.engine.game.apply` copies the state, changes the copy and
returns it, so a rejected action leaves the caller's state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .melds import Meld
from .rules import GameRules


class Phase(StrEnum):
    """What the hand is waiting for (STYLE habit 4: never inferred from the last action)."""

    DEAL = "deal"                # before the first hand
    DRAW = "draw"                # the player to act must take a card (GEN-7)
    DRAW_SECOND = "draw_second"  # BOAT-2: the second card after taking the discard
    PLAY = "play"                # after drawing: table moves, then one discard
    CALL = "call"                # OPT-CALL-4: the window on the last discard is open
    OPENING = "opening"          # PHOM-3, NOWRANG-4: the first player only discards
    HAND_OVER = "hand_over"      # GEN-11: waiting for the next deal
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it changed (PROTOCOL.md §4 ``hands[]``)."""

    winner: int | None
    reason: str
    scores: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    # Who pays whom, in points, for chip settlement: (payer, payee, points).
    payments: tuple[tuple[int, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"ended": True, "winner": self.winner, "reason": self.reason,
                "scores": list(self.scores), "revealed": [list(h) for h in self.revealed],
                "payments": [list(p) for p in self.payments], **self.detail}


@dataclass(slots=True)
class CallWindow:
    """OPT-CALL: an open window on ``card`` discarded by ``discarder``, and the calls made."""

    card: str
    discarder: int
    calls: dict[int, Any] = field(default_factory=dict)


@dataclass(slots=True)
class State:
    rules: GameRules
    phase: Phase = Phase.DEAL
    dealer: int = 0
    hand_no: int = -1
    totals: list[int] = field(default_factory=list)
    results: list[HandResult] = field(default_factory=list)
    game_winner: int | None = None
    # The current hand.
    turn: int | None = None
    hands: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)      # top card first
    discard: list[str] = field(default_factory=list)    # bottom first; last is the top
    melds: list[Meld] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)    # has laid a meld this hand
    tabled: list[bool] = field(default_factory=list)    # has put anything on the table (OPT-HIDDEN)
    turns: list[int] = field(default_factory=list)      # turns begun this hand, per seat
    known: list[list[str]] = field(default_factory=list)  # GEN-14: taken discards still in hand
    taken: list[str] = field(default_factory=list)      # GEN-8: taken from the discard this turn
    drawn: int = 0                                      # cards drawn this turn
    melds_this_turn: int = 0                            # OPT-ONEMELD
    tabled_at_turn_start: bool = False                  # OPT-HIDDEN-1
    acted: bool = False                                 # KALUKI-7: melded or laid off this turn
    must_use: str | None = None                         # KALUKI-6: taken card the opening needs
    jokers_to_play: int = 0                             # GERMAN-8: exchanged jokers still held
    locked: list[list[str]] = field(default_factory=list)  # PHOM-6: taken cards, per seat
    shown: list[bool] = field(default_factory=list)     # PHOM-9: has shown on the fourth turn
    takes: list[int] = field(default_factory=list)      # PHOM-14: predecessor's discards taken
    hand_scores: list[int] = field(default_factory=list)  # PHOM-14: chips paid during the hand
    restocks: int = 0                                   # GEN-13 rebuilds this hand
    call: CallWindow | None = None
    seq: int = 0                                        # actions applied in the match

    def copy(self) -> State:
        """A copy whose mutable parts can change without touching this state (written out
        field by field: ``dataclasses.replace`` costs more than the whole copy)."""
        new = State.__new__(State)
        new.rules, new.phase, new.dealer, new.hand_no = (
            self.rules, self.phase, self.dealer, self.hand_no)
        new.totals, new.results = self.totals[:], self.results[:]
        new.game_winner, new.turn = self.game_winner, self.turn
        new.hands = [h[:] for h in self.hands]
        new.stock, new.discard, new.melds = self.stock[:], self.discard[:], self.melds[:]
        new.opened, new.tabled, new.turns = self.opened[:], self.tabled[:], self.turns[:]
        new.known = [k[:] for k in self.known]
        new.taken, new.drawn, new.melds_this_turn = self.taken[:], self.drawn, self.melds_this_turn
        new.tabled_at_turn_start, new.acted = self.tabled_at_turn_start, self.acted
        new.must_use, new.jokers_to_play = self.must_use, self.jokers_to_play
        new.locked = [k[:] for k in self.locked]
        new.shown, new.takes, new.hand_scores = self.shown[:], self.takes[:], self.hand_scores[:]
        new.restocks, new.seq = self.restocks, self.seq
        call = self.call
        new.call = None if call is None else CallWindow(call.card, call.discarder,
                                                        dict(call.calls))
        return new

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hand_over(self) -> bool:
        return self.phase in (Phase.HAND_OVER, Phase.GAME_OVER, Phase.DEAL)

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def to_json(self) -> dict[str, Any]:
        """The full state (every hand, the stock order): for replay output and admins only."""
        return {
            "game": self.rules.key, "options": self.rules.options.model_dump(),
            "players": self.players, "phase": self.phase.value, "dealer": self.dealer,
            "hand_no": self.hand_no, "turn": self.turn, "totals": list(self.totals),
            "hands": [list(h) for h in self.hands], "stock": list(self.stock),
            "discard": list(self.discard), "melds": [m.to_json() for m in self.melds],
            "opened": list(self.opened), "turns": list(self.turns),
            "taken_this_turn": list(self.taken), "locked": [list(k) for k in self.locked],
            "shown": list(self.shown), "hand_scores": list(self.hand_scores),
            "call_window": None if self.call is None else {
                "card": self.call.card, "discarder": self.call.discarder,
                "callers": sorted(self.call.calls)},
            "results": [r.to_json() for r in self.results],
            "game_over": self.game_over, "game_winner": self.game_winner, "seq": self.seq,
        }

