"""Dealing (GEN-6): shuffled by an injected generator, or a stacked deal checked against the pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..refusals import Code
from .cards import parse_code, same_cards, standard_pack
from .errors import InvalidDeal, MalformedAction
from .rules import GameRules


class Shuffler(Protocol):
    """Has ``shuffle``: ``fairdeal.StreamShuffler`` for seeded deals, ``random.Random(seed)`` for
    logs with an integer seed and for tests."""

    def shuffle(self, x: list[Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand's cards as dealt: ``stock`` top first, ``discard`` bottom first (PROTOCOL.md §4)."""

    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    discard: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "stock": list(self.stock),
                "discard": list(self.discard)}


def pack_for(rules: GameRules) -> list[str]:
    decks, jokers = rules.pack_size()
    return standard_pack(decks, jokers)


def deal_sizes(rules: GameRules, dealer: int) -> list[int]:
    """Cards each seat receives; the first player (dealer's left) may get an extra card."""
    n = rules.players
    sizes = [rules.game.deal_size(n) for _ in range(n)]
    sizes[(dealer + 1) % n] += rules.game.first_player_extra
    return sizes


def shuffled_deal(rules: GameRules, dealer: int, rng: Shuffler) -> Deal:
    """Shuffle the game's pack with ``rng`` and deal one card at a time from the dealer's left."""
    pack = pack_for(rules)
    rng.shuffle(pack)
    sizes = deal_sizes(rules, dealer)
    n = rules.players
    hands: list[list[str]] = [[] for _ in range(n)]
    cards = iter(pack)
    for round_ in range(max(sizes)):
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            if round_ < sizes[seat]:
                hands[seat].append(next(cards))
    rest = list(cards)
    upcard = rest[:1] if rules.game.upcard else []
    stock = rest[len(upcard):]
    return Deal(tuple(tuple(h) for h in hands), tuple(stock), tuple(upcard))


def stacked_deal(rules: GameRules, dealer: int, raw: object) -> Deal:
    """Check a ``deal`` object of a match log: exactly the game's pack, dealt the game's way."""
    deal = parse_deal(rules, raw)
    check_deal_sizes(rules, dealer, deal)
    return deal


def parse_deal(rules: GameRules, raw: object) -> Deal:
    """A ``deal`` object as a :class:`Deal`: card codes, the upcard, exactly the game's pack.

    The hand sizes depend on the dealer (``first_player_extra``), which a match log may leave to
    the game's rule: :func:`check_deal_sizes` checks them once the dealer is known.
    """
    if not isinstance(raw, dict):
        raise InvalidDeal(Code.BAD_DEAL, "deal must be an object with hands, stock and discard")
    try:
        hands = raw["hands"]
        stock = [parse_code(c) for c in raw["stock"]]
        discard = [parse_code(c) for c in raw.get("discard", [])]
        if not isinstance(hands, list):
            raise TypeError
        parsed = [[parse_code(c) for c in h] for h in hands]
    except (KeyError, TypeError) as exc:
        raise InvalidDeal(Code.BAD_DEAL,
                          f"deal needs hands (card lists) and stock: {exc}") from None
    except MalformedAction as exc:
        raise InvalidDeal(Code.BAD_DEAL, f"deal: {exc.message}") from None
    if len(parsed) != rules.players:
        raise InvalidDeal(Code.BAD_DEAL,
                          f"hands must list {rules.players} hands, not {len(parsed)}")
    if len(discard) != (1 if rules.game.upcard else 0):
        raise InvalidDeal(Code.BAD_DEAL, "the discard pile must hold exactly the upcard"
                          if rules.game.upcard else "this game has no upcard")
    everything = [c for h in parsed for c in h] + stock + discard
    if not same_cards(everything, pack_for(rules)):
        raise InvalidDeal(Code.BAD_DEAL, "the deal is not exactly the game's pack")
    return Deal(tuple(tuple(h) for h in parsed), tuple(stock), tuple(discard))


def check_deal_sizes(rules: GameRules, dealer: int, deal: Deal) -> None:
    """Each seat holds what the game deals it when ``dealer`` deals (GEN-6)."""
    sizes = deal_sizes(rules, dealer)
    if [len(h) for h in deal.hands] != sizes:
        raise InvalidDeal(Code.BAD_DEAL, f"hands must hold {sizes} cards with dealer {dealer}, "
                          f"not {[len(h) for h in deal.hands]}")
