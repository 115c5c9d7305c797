"""The interface every computer player implements, and the registry that makes one by name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from app.engine.actions import Action
from app.engine.moves import legal_actions
from app.engine.rules import GameRules
from app.engine.state import State

from .view_state import state_from_view


class NoLegalAction(RuntimeError):
    """The engine offers this seat no legal action where it is asked to act (an engine bug)."""


class Bot(ABC):
    """A computer player: it sees one seat's ``player_view`` and answers with an action's JSON.

    Bots are pure: no I/O, no clock, and randomness only from the injected ``random.Random``.
    """

    @abstractmethod
    def choose(self, view: dict[str, Any], rules: GameRules) -> dict[str, Any]:
        """The action (PROTOCOL.md §3 JSON) for the seat of ``view``, whose turn it is."""

    @abstractmethod
    def maybe_call(self, view: dict[str, Any], rules: GameRules) -> dict[str, Any] | None:
        """During an open Call Rummy window: a ``call_rummy`` action, or None to pass."""


def own_legal(view: dict[str, Any], rules: GameRules) -> tuple[State, int, list[Action]]:
    """The rebuilt state, the view's seat and that seat's legal actions in it."""
    st = state_from_view(view, rules)
    seat = view["seat"]
    return st, seat, legal_actions(st, seat)
