"""Verifiable deals (PROTOCOL.md §7): a deal that anyone can re-derive from revealed seeds.

The server commits to a secret server seed before the players send theirs, deals from the mix of
both, and reveals the server seed when the hand is over; a player then checks that the seed
hashes to the commitment shown earlier, that their own seed is among ``client_seeds``, and that
the seeds give the cards they were dealt. Every step is fixed in §7 so that a program in another
language (the browser's WebCrypto) derives the same cards.

How a live room uses it (the seed itself comes from the OS, outside the pure engine)::

    server_seed = secrets.token_hex(SERVER_SEED_BYTES)
    view["next_deal_commitment"] = commitment(server_seed)    # shown before seeds are accepted
    chosen[seat] = parse_client_seed(message["value"])        # a `seed` message; InvalidSeed
    seeds = DealSeeds.of(server_seed, [chosen.get(s, "") for s in seats], rules.players)
    deal = seeds.deal(rules, dealer)      # seeded_deal(rules, dealer, server_seed, client_seeds)
    HandLog(dealer, deal, actions, seeds=seeds)               # logged beside its deal
    last_deal = {"hand_no": h, "dealer": dealer, **seeds.to_json(),
                 "commitment": seeds.commitment}              # once the hand is over
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..refusals import Code
from .deal import Deal, shuffled_deal
from .errors import InvalidSeed, excerpt
from .rules import GameRules

SERVER_SEED_BYTES = 32
_SERVER_SEED = re.compile(r"[0-9a-f]{64}")
_CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
_WORDS = 1 << 32


def parse_server_seed(text: object) -> str:
    """A server seed as 64 lowercase hex characters (any case accepted), or ``bad_seed``."""
    seed = text.lower() if isinstance(text, str) else None
    if seed is None or not _SERVER_SEED.fullmatch(seed):
        raise InvalidSeed(Code.BAD_SEED, f"a server seed is 64 hex characters, not {excerpt(text)}")
    return seed


def parse_client_seed(text: object) -> str:
    """A player's seed: 1–64 characters of ``A-Z a-z 0-9 _ -`` (§7 step 2), or ``bad_seed``."""
    if not isinstance(text, str) or not _CLIENT_SEED.fullmatch(text):
        raise InvalidSeed(Code.BAD_SEED, "a seed is 1 to 64 characters of A-Z a-z 0-9 _ -, "
                          f"not {excerpt(text)}")
    return text


def parse_client_seeds(raw: object, players: int) -> tuple[str, ...]:
    """One seed per seat, ``""`` for a seat that sent none."""
    if not isinstance(raw, list | tuple) or len(raw) != players:
        raise InvalidSeed(Code.BAD_SEED,
                          f"client_seeds must list {players} texts, not {excerpt(raw)}")
    return tuple("" if s == "" else parse_client_seed(s) for s in raw)


def commitment(server_seed: str) -> str:
    """The lowercase hex SHA-256 of the seed's 32 bytes (not of its hex text)."""
    return hashlib.sha256(bytes.fromhex(parse_server_seed(server_seed))).hexdigest()


def deck_seed(server_seed: str, client_seeds: Sequence[str]) -> bytes:
    """SHA-256 of the server seed's bytes, then each seat's seed in ASCII and a newline."""
    mixed = bytes.fromhex(parse_server_seed(server_seed)) + b"".join(
        ("" if s == "" else parse_client_seed(s)).encode("ascii") + b"\n" for s in client_seeds)
    return hashlib.sha256(mixed).digest()


def byte_stream(seed: bytes) -> Iterator[bytes]:
    """The 32-byte blocks SHA-256(deck seed ‖ counter), counter 0, 1, … as 8 bytes big-endian."""
    counter = 0
    while True:
        yield hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        counter += 1


def stream_words(seed: bytes) -> Iterator[int]:
    """The byte stream read as 4-byte big-endian unsigned integers."""
    for block in byte_stream(seed):  # 32 bytes: a word never straddles two blocks
        for k in range(0, len(block), 4):
            yield int.from_bytes(block[k:k + 4], "big")


def uniform_below(words: Iterator[int], bound: int) -> int:
    """A uniform integer in 0..bound-1 from 32-bit words: a word at or above the last whole
    multiple of ``bound`` below 2³² is skipped, so that no remainder is likelier than another."""
    limit = _WORDS - _WORDS % bound
    word = next(words)
    while word >= limit:
        word = next(words)
    return word % bound


class StreamShuffler:
    """Fisher–Yates from the top index down, driven by a deck seed's stream (§7 step 6);
    a :class:`~app.engine.deal.Shuffler`."""

    def __init__(self, seed: bytes) -> None:
        self._words = stream_words(seed)

    def shuffle(self, x: list[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = uniform_below(self._words, i + 1)
            x[i], x[j] = x[j], x[i]


def seeded_deal(rules: GameRules, dealer: int, server_seed: str,
                client_seeds: Sequence[str]) -> Deal:
    """The hand §7 deals: the canonical pack shuffled by the seeds' stream, dealt one card at a
    time from the dealer's left, then the upcard and the stock."""
    seeds = parse_client_seeds(client_seeds, rules.players)
    return shuffled_deal(rules, dealer, StreamShuffler(deck_seed(server_seed, seeds)))


@dataclass(frozen=True, slots=True)
class DealSeeds:
    """A hand's revealed seeds, as a match log gives them (PROTOCOL.md §4, §7)."""

    server_seed: str
    client_seeds: tuple[str, ...]

    @classmethod
    def of(cls, server_seed: object, client_seeds: object, players: int) -> DealSeeds:
        """Checked seeds: a server seed and one client seed (or ``""``) per seat."""
        return cls(parse_server_seed(server_seed), parse_client_seeds(client_seeds, players))

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def deal(self, rules: GameRules, dealer: int) -> Deal:
        return seeded_deal(rules, dealer, self.server_seed, self.client_seeds)

    def to_json(self) -> dict[str, Any]:
        return {"server_seed": self.server_seed, "client_seeds": list(self.client_seeds)}
