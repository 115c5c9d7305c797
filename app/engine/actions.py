"""The action vocabulary (PROTOCOL.md §3) as value types that parse from and print back to JSON.

``parse_action(obj)`` is the one place where untrusted input becomes a typed action; anything
malformed raises :class:`MalformedAction` with a code naming the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..refusals import Code
from .cards import parse_code, parse_entry
from .errors import MalformedAction, excerpt
from .melds import Entry


def _entry_text(entry: Entry) -> str:
    card, designation = entry
    return card if designation is None else f"{card}:{designation}"


def _melds_json(melds: tuple[tuple[Entry, ...], ...]) -> list[list[str]]:
    return [[_entry_text(e) for e in meld] for meld in melds]


@dataclass(frozen=True, slots=True)
class Draw:
    source: str  # "stock" or "discard"
    card: str | None = None
    type = "draw"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "draw", "source": self.source}
        if self.card is not None:
            out["card"] = self.card
        return out


@dataclass(frozen=True, slots=True)
class MeldAction:
    melds: tuple[tuple[Entry, ...], ...]
    type = "meld"

    def to_json(self) -> dict[str, Any]:
        return {"type": "meld", "melds": _melds_json(self.melds)}


@dataclass(frozen=True, slots=True)
class LayOff:
    meld: int
    cards: tuple[Entry, ...]
    type = "lay_off"

    def to_json(self) -> dict[str, Any]:
        return {"type": "lay_off", "meld": self.meld, "cards": [_entry_text(e) for e in self.cards]}


@dataclass(frozen=True, slots=True)
class SwapJoker:
    meld: int
    card: str
    type = "swap_joker"

    def to_json(self) -> dict[str, Any]:
        return {"type": "swap_joker", "meld": self.meld, "card": self.card}


@dataclass(frozen=True, slots=True)
class Borrow:
    meld: int
    card: str
    into: tuple[Entry, ...]
    type = "borrow"

    def to_json(self) -> dict[str, Any]:
        return {"type": "borrow", "meld": self.meld, "card": self.card,
                "into": [_entry_text(e) for e in self.into]}


@dataclass(frozen=True, slots=True)
class Discard:
    card: str
    type = "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "card": self.card}


@dataclass(frozen=True, slots=True)
class Knock:
    discard: str
    type = "knock"

    def to_json(self) -> dict[str, Any]:
        return {"type": "knock", "discard": self.discard}


@dataclass(frozen=True, slots=True)
class Declare:
    melds: tuple[tuple[Entry, ...], ...]
    discard: str | None
    type = "declare"

    def to_json(self) -> dict[str, Any]:
        return {"type": "declare", "melds": _melds_json(self.melds), "discard": self.discard}


@dataclass(frozen=True, slots=True)
class Show:
    melds: tuple[tuple[Entry, ...], ...]
    type = "show"

    def to_json(self) -> dict[str, Any]:
        return {"type": "show", "melds": _melds_json(self.melds)}


@dataclass(frozen=True, slots=True)
class CallRummy:
    meld: int
    discard: str
    card: Entry | None = None  # the called card with its designation (PROTOCOL.md §3)
    type = "call_rummy"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "call_rummy", "meld": self.meld, "discard": self.discard}
        if self.card is not None:
            out["card"] = _entry_text(self.card)
        return out


Action = (Draw | MeldAction | LayOff | SwapJoker | Borrow | Discard | Knock | Declare | Show
          | CallRummy)
ACTION_TYPES = ("draw", "meld", "lay_off", "swap_joker", "borrow", "discard", "knock", "declare",
                "show", "call_rummy")


def _field(obj: dict[str, Any], name: str) -> Any:
    if name not in obj:
        raise MalformedAction(Code.MISSING_FIELD,
                              f"{obj.get('type')} needs the field {excerpt(name)}")
    return obj[name]


def _index(obj: dict[str, Any], name: str) -> int:
    value = _field(obj, name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MalformedAction(Code.BAD_FIELD, f"{name} must be a meld number, not {excerpt(value)}")
    return value


def _entries(value: Any, name: str) -> tuple[Entry, ...]:
    if not isinstance(value, list) or len(value) > 200:
        raise MalformedAction(Code.BAD_FIELD, f"{name} must be a list of cards")
    return tuple(parse_entry(c) for c in value)


def _meld_list(obj: dict[str, Any]) -> tuple[tuple[Entry, ...], ...]:
    value = _field(obj, "melds")
    if not isinstance(value, list) or len(value) > 60:
        raise MalformedAction(Code.BAD_FIELD, "melds must be a list of card lists")
    return tuple(_entries(m, "each meld") for m in value)


def _parse_draw(obj: dict[str, Any]) -> Draw:
    source = _field(obj, "source")
    if source not in ("stock", "discard"):
        raise MalformedAction(Code.BAD_FIELD,
                              f"source must be 'stock' or 'discard', not {excerpt(source)}")
    card = obj.get("card")
    return Draw(source, None if card is None else parse_code(card))


def _parse_declare(obj: dict[str, Any]) -> Declare:
    discard = obj.get("discard")
    return Declare(_meld_list(obj), None if discard is None else parse_code(discard))


def _parse_call(obj: dict[str, Any]) -> CallRummy:
    card = obj.get("card")
    return CallRummy(_index(obj, "meld"), parse_code(_field(obj, "discard")),
                     None if card is None else parse_entry(card))


_PARSERS: dict[str, Callable[[dict[str, Any]], Action]] = {
    "draw": _parse_draw,
    "meld": lambda o: MeldAction(_meld_list(o)),
    "lay_off": lambda o: LayOff(_index(o, "meld"), _entries(_field(o, "cards"), "cards")),
    "swap_joker": lambda o: SwapJoker(_index(o, "meld"), parse_code(_field(o, "card"))),
    "borrow": lambda o: Borrow(_index(o, "meld"), parse_code(_field(o, "card")),
                               _entries(_field(o, "into"), "into")),
    "discard": lambda o: Discard(parse_code(_field(o, "card"))),
    "knock": lambda o: Knock(parse_code(_field(o, "discard"))),
    "declare": _parse_declare,
    "show": lambda o: Show(_meld_list(o)),
    "call_rummy": _parse_call,
}


def parse_action(obj: object) -> Action:
    """Turn a JSON action object into a typed action, or raise :class:`MalformedAction`."""
    if isinstance(obj, _ACTION_CLASSES):
        return obj
    if not isinstance(obj, dict):
        raise MalformedAction(Code.MALFORMED_ACTION, "an action must be a JSON object")
    kind = obj.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise MalformedAction(Code.UNKNOWN_ACTION, f"unknown action type: {excerpt(kind)}")
    return parser(obj)


_ACTION_CLASSES = (Draw, MeldAction, LayOff, SwapJoker, Borrow, Discard, Knock, Declare, Show,
                   CallRummy)
