"""The engine's errors: one small hierarchy of refusals, each with a code of the registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..refusals import Code, Refusal

T = TypeVar("T")

EXCERPT = 40  # characters of a refused input an error message may quote


def excerpt(value: object) -> str:
    """``repr(value)`` cut to a short excerpt: a refusal never echoes a long input back."""
    shown = repr(value)
    return shown if len(shown) <= EXCERPT else shown[:EXCERPT - 1] + "…"


class RuleError(Refusal):
    """An action or input the engine refuses. Nothing changed when this is raised.

    ``fields`` holds the figures a player's message names (the card that does not fit, the
    meld, the points an opening needs): the error reply carries them beside code and message.
    """


def outcome(work: Callable[..., T], *args: object) -> T | RuleError:
    """``work(*args)``, or the refusal it raised: the form a memo keeps a checked answer in.

    The refusal is kept without its traceback and chained exceptions: `raised` only reads its
    code, message and fields, and a traceback would keep every frame of the check alive (the
    states it read) for as long as the memo holds the answer, for the garbage collector to walk.
    """
    try:
        return work(*args)
    except RuleError as exc:
        exc.__traceback__ = exc.__context__ = exc.__cause__ = None
        return exc


def raised(got: T | RuleError) -> T:
    """The answer ``outcome`` kept, or a fresh copy of its refusal raised (a kept exception is
    never raised itself: each raise would lengthen its traceback)."""
    if isinstance(got, RuleError):
        raise type(got)(got.code, got.message, dict(got.fields))
    return got


class MalformedAction(RuleError):
    """The action is not well formed: unknown type, missing field, bad card code."""


class IllegalAction(RuleError):
    """The action is well formed but the rules do not allow it now."""


class InvalidOptions(RuleError):
    """A room's options are unknown, of the wrong type, not allowed for the game, or conflict;
    ``options`` names the options of a conflict (empty otherwise)."""

    def __init__(self, code: Code, message: str, options: tuple[str, ...] = ()) -> None:
        super().__init__(code, message)
        self.options = options


class InvalidDeal(RuleError):
    """A stacked deal is not exactly the game's pack dealt the game's way."""


class InvalidSeed(RuleError):
    """A server seed or a player's seed is not of the form PROTOCOL.md §7 fixes."""
