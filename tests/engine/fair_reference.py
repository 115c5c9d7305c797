"""PROTOCOL.md §7 written a second time, from the text alone, without the engine.

The fixed vectors of ``test_fair_deal.py``, the command's tests and the worked example of
docs/fairness.md are checked against this code, so that the engine's deal is the one an
independent program derives. Only ``hashlib`` and ``struct``; no import from ``app``.
"""

from __future__ import annotations

import hashlib
import struct


def commitment(server_seed_hex: str) -> str:
    """§7.1: SHA-256 of the 32 bytes the hex text stands for."""
    return hashlib.sha256(bytes.fromhex(server_seed_hex)).hexdigest()


def deck_seed(server_seed_hex: str, client_seeds: list[str]) -> bytes:
    """§7.3: the server seed's bytes, then each seat's text and a newline, hashed."""
    h = hashlib.sha256(bytes.fromhex(server_seed_hex))
    for text in client_seeds:
        h.update(text.encode("ascii"))
        h.update(b"\x0a")
    return h.digest()


class Stream:
    """§7.5: SHA-256(deck seed ‖ 8-byte big-endian counter), blocks read as one byte string."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.buffer = b""
        self.pos = 0
        self.counter = 0

    def take(self, n: int) -> bytes:
        while len(self.buffer) - self.pos < n:
            self.buffer += hashlib.sha256(self.seed + struct.pack(">Q", self.counter)).digest()
            self.counter += 1
        out = self.buffer[self.pos:self.pos + n]
        self.pos += n
        return out

    def word(self) -> int:
        (x,) = struct.unpack(">I", self.take(4))
        return x


def pack(decks: int, jokers: int) -> list[str]:
    """§7.4: pack by pack, suits C D H S, each A..K; then the jokers."""
    cards = []
    for _ in range(decks):
        for suit in "CDHS":
            for rank in "A23456789TJQK":
                cards.append(rank + suit)
    return cards + ["JK"] * jokers


def shuffle(cards: list[str], seed: bytes) -> list[str]:
    """§7.6: Fisher–Yates, i from n-1 down to 1, rejection sampling on 32-bit words."""
    order = list(cards)
    stream = Stream(seed)
    i = len(order) - 1
    while i >= 1:
        m = i + 1
        x = stream.word()
        while x >= 2**32 - (2**32 % m):
            x = stream.word()
        j = x % m
        order[i], order[j] = order[j], order[i]
        i -= 1
    return order


def deal(order: list[str], dealer: int, sizes: list[int], upcard: bool) -> dict[str, list]:
    """§7.7: one card at a time from seat dealer+1 round the seats, skipping full seats; then
    the upcard (if the game turns one) and the stock, top first."""
    players = len(sizes)
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    seat = (dealer + 1) % players
    while any(len(hands[s]) < sizes[s] for s in range(players)):
        if len(hands[seat]) < sizes[seat]:
            hands[seat].append(order[pos])
            pos += 1
        seat = (seat + 1) % players
    rest = order[pos:]
    discard = rest[:1] if upcard else []
    return {"hands": hands, "stock": rest[len(discard):], "discard": discard}


def derive(server_seed_hex: str, client_seeds: list[str], decks: int, jokers: int, dealer: int,
           sizes: list[int], upcard: bool) -> dict[str, list]:
    """The whole of §7: a hand's deal as a PROTOCOL.md §4 ``deal`` object."""
    order = shuffle(pack(decks, jokers), deck_seed(server_seed_hex, client_seeds))
    return deal(order, dealer, sizes, upcard)
