"""The engine's one memo: a bounded store of a pure function's answers, one per kind of question.

The solver, the move lists and the legality checks ask the same questions again and again
(which melds a hand can form, whether a listing is a meld, what a card is worth). Each kind of
question has one `Memo`: a dict emptied when it reaches its bound, which is all a bounded store
of pure answers needs (no order is kept, so a hit is one lookup). Each counts its misses and
clears, so `stats` (printed by `python -m bench.engine`) shows whether a bound fits.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MEMOS: list[Memo[Any, Any]] = []


class Memo(Generic[K, V]):
    __slots__ = ("name", "bound", "_store", "misses", "clears")

    def __init__(self, name: str, bound: int) -> None:
        self.name = name
        self.bound = bound
        self._store: dict[K, V] = {}
        self.misses = 0
        self.clears = 0
        _MEMOS.append(self)

    def get(self, key: K, work: Callable[..., V], *args: Any) -> V:
        """The answer for ``key``: remembered, or ``work(*args)`` kept for next time."""
        try:
            return self._store[key]
        except KeyError:
            pass
        self.misses += 1
        if len(self._store) >= self.bound:
            self._store.clear()
            self.clears += 1
        got = self._store[key] = work(*args)
        return got


def stats() -> list[dict[str, Any]]:
    """Every memo's name, bound, size now, misses and clears since the process started."""
    return [{"name": m.name, "bound": m.bound, "size": len(m._store), "misses": m.misses,
             "clears": m.clears} for m in _MEMOS]
