"""Cards and their two-character codes (PROTOCOL.md §1), packs, and point values.

Inside the engine a card is its code string (``"TD"``, ``"JK"``); identical cards of several
decks share one code and hands are multisets of codes. :class:`Card` is the value type for
parsing and printing, and :class:`Placed` is a card on the table with what it stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..refusals import Code
from .errors import MalformedAction, excerpt

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKER = "JK"
RANK_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}  # GEN-2: A=1 .. K=13


@dataclass(frozen=True, slots=True)
class Card:
    """A natural card or a joker; ``str(Card.parse("td")) == "TD"``."""

    code: str

    @classmethod
    def parse(cls, text: object) -> Card:
        return cls(parse_code(text))

    @property
    def is_joker(self) -> bool:
        return self.code == JOKER

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); 0 for a joker."""
        return rank_of(self.code)

    @property
    def suit(self) -> str | None:
        return None if self.is_joker else self.code[1]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def parse_code(text: object) -> str:
    """Normalise a card code (case-insensitive input) or raise ``bad_card``."""
    if not isinstance(text, str) or len(text) != 2:
        raise MalformedAction(Code.BAD_CARD, f"malformed card: {excerpt(text)}")
    code = text.upper()
    if code == JOKER or (code[0] in RANKS and code[1] in SUITS):
        return code
    raise MalformedAction(Code.BAD_CARD, f"malformed card: {excerpt(text)}")


def rank_of(code: str) -> int:
    return 0 if code == JOKER else RANK_VALUE[code[0]]


def suit_of(code: str) -> str:
    return code[1]


def make_code(rank: int, suit: str) -> str:
    """The code of the natural card of ``rank`` (1..13, or 14 for a high ace) and ``suit``."""
    return RANKS[(rank - 1) % 13] + suit


@dataclass(frozen=True, slots=True)
class Placed:
    """A card in a meld: ``card`` is what lies there, ``stands_for`` the natural card it counts as.

    For a natural card both are equal; for a wild card ``stands_for`` is its designation (GEN-4),
    written ``JK:7H``.
    """

    card: str
    stands_for: str

    @property
    def is_wild(self) -> bool:
        return self.card != self.stands_for

    def __str__(self) -> str:
        return f"{self.card}:{self.stands_for}" if self.is_wild else self.card


def parse_entry(text: object) -> tuple[str, str | None]:
    """Parse ``"7H"`` or ``"JK:7H"`` into (card, designation or None)."""
    if isinstance(text, str) and ":" in text:
        card, _, target = text.partition(":")
        target_code = parse_code(target)
        if target_code == JOKER:
            raise MalformedAction(Code.BAD_CARD,
                                  f"a wild card cannot stand for a joker: {excerpt(text)}")
        return parse_code(card), target_code
    return parse_code(text), None


def standard_pack(decks: int = 1, jokers: int = 0) -> list[str]:
    """The pack in a fixed order (deck by deck, suit by suit, ace to king, then jokers)."""
    one = [r + s for s in SUITS for r in RANKS]
    return one * decks + [JOKER] * jokers


def same_cards(a: Iterable[str], b: Iterable[str]) -> bool:
    """Whether two collections hold exactly the same multiset of codes."""
    return Counter(a) == Counter(b)
