"""The interface every computer player implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from app.engine.actions import Action, CallRummy
from app.engine.moves import legal_actions
from app.engine.rules import GameRules
from app.engine.state import State
from app.engine.views import SeatView

from .determinize import state_for


class NoLegalAction(RuntimeError):
    """The engine offers this seat no legal action where it is asked to act (an engine bug)."""


class Bot(ABC):
    """A computer player: it sees one seat's typed view (`views.seat_view_of`) and answers with
    an action, which its caller applies as it stands (the engine still checks it).

    Bots are pure: no I/O, no clock, and randomness only from the injected ``random.Random``.
    """

    @abstractmethod
    def choose(self, view: SeatView, rules: GameRules) -> Action:
        """The action for the seat of ``view``, whose turn it is."""

    @abstractmethod
    def maybe_call(self, view: SeatView, rules: GameRules) -> CallRummy | None:
        """During an open Call Rummy window: a call, or None to pass."""


def own_legal(view: SeatView, rules: GameRules) -> tuple[State, int, list[Action]]:
    """The view's state (`state_for`), its seat and that seat's legal actions in it."""
    st = state_for(view, rules)
    return st, view.seat, legal_actions(st, view.seat)
