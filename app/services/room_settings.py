"""A room's settings: what its host chose, validated once when the value is made.

Creation, the stored room record, the lobby summary and a rematch all hold this one frozen
value, so a check lives in one place and a new setting is added once. It sits beside the
record (services) because the SQL store rebuilds records and services never import the rooms.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from typing import Any

import orjson

from app.engine.deal import stacked_deal
from app.engine.errors import InvalidDeal, InvalidOptions, RuleError
from app.engine.games import match_rules
from app.engine.rules import GameRules
from app.refusals import Code, Refusal

MAX_TURN_SECONDS = 600
MAX_STAKE = 1_000_000
MAX_GRACE_SECONDS = 3600



@dataclass(frozen=True)
class RoomSettings:
    """The host's choices (PROTOCOL.md §5 room fields); ``rules`` is the engine's reading of
    game, options and seats, worked out once."""

    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    stake: int = 0
    buy_in: int = 0
    turn_seconds: int = 0
    grace_seconds: int = 60  # no turn timer: a computer player stands in for one gone this long
    private: bool = False
    spectator_chat: bool = False  # spectators (no seat) may chat too
    rated: bool = False  # a finished match updates its players' ratings; people only
    # A tournament table: a seat whose player is not connected is played by a computer player
    # from its turn's start, and the match neither waits for its people nor is abandoned.
    stand_in_for_absent: bool = False
    # Refuse a person's seat from a client address a person already seated in the room joined
    # from (docs/security.md, "One account per address"); None: on in a room with a stake,
    # resolved when the value is made, so a made value always holds True or False.
    one_per_address: bool | None = None
    deals: list[dict[str, Any]] | None = None  # stacked deals (RUMMY_DEV_STACKED_DECKS only)
    rules: GameRules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.deals is not None and (self.stake or self.buy_in):
            raise Refusal(Code.DEALS_NOT_ALLOWED, "stacked deals are for free play only: a "
                                  "room with a stake or a buy-in is always dealt a fair shuffle")
        try:
            rules = match_rules(self.game, self.options, self.seats)
            if self.deals is not None:
                _check_deals(rules, self.deals)
        except RuleError as exc:
            named = exc.options if isinstance(exc, InvalidOptions) and exc.options else None
            raise Refusal(exc.code, exc.message,
                                  {"options": list(named)} if named else None) from None
        _check_stake(self.stake, self.buy_in)
        if not 0 <= self.turn_seconds <= MAX_TURN_SECONDS:
            raise Refusal(Code.BAD_TURN_SECONDS,
                                  f"turn_seconds must be 0..{MAX_TURN_SECONDS}")
        if not 0 <= self.grace_seconds <= MAX_GRACE_SECONDS:
            raise Refusal(Code.BAD_GRACE_SECONDS,
                                  f"grace_seconds must be 0..{MAX_GRACE_SECONDS}")
        object.__setattr__(self, "rules", rules)
        if self.one_per_address is None:
            object.__setattr__(self, "one_per_address", self.stake > 0)

    def shown(self) -> dict[str, Any]:
        """The settings as a room's summary shows them (all but the stacked deals)."""
        return {"game": self.game, "options": self.options, "seats": self.seats,
                "stake": self.stake, "buy_in": self.buy_in, "turn_seconds": self.turn_seconds,
                "grace_seconds": self.grace_seconds, "private": self.private,
                "spectator_chat": self.spectator_chat, "rated": self.rated,
                "stand_in_for_absent": self.stand_in_for_absent,
                "one_per_address": self.one_per_address}

    def table_key(self) -> str:
        """What quick seat matches callers on: these settings with every option of the game
        filled in (so ``{}`` and the defaults spelled out are one table), as a short digest."""
        identity = {"game": self.game, "seats": self.seats, "stake": self.stake,
                    "buy_in": self.buy_in, "turn_seconds": self.turn_seconds,
                    "rated": self.rated, "options": self.rules.options.model_dump()}
        return hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)
                              ).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        """Every setting (a rematch carries them between processes); ``from_json`` reads it."""
        return {**self.shown(), "deals": self.deals}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomSettings:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.init})


def _check_stake(stake: int, buy_in: int) -> None:
    """Both 0 to 1,000,000 (`bad_stake`), and a stake only with a buy-in that can pay it
    (`stake_needs_buy_in`): a hand moves at most the payer's chips at the table (docs/server.md,
    "Chips"), so at a stake with no buy-in nobody would win or lose anything."""
    if not 0 <= stake <= MAX_STAKE or not 0 <= buy_in <= MAX_STAKE:
        raise Refusal(Code.BAD_STAKE, "stake and buy-in must be between 0 and 1,000,000")
    if stake > 0 and buy_in == 0:
        raise Refusal(Code.STAKE_NEEDS_BUY_IN, f"a stake of {stake} per point needs a "
                              "buy-in: a hand moves at most the chips a player has at the table, "
                              "so with none nothing is won or lost (for example "
                              f"{min(stake * 100, MAX_STAKE)}, enough for 100 points)")


def _check_deals(rules: GameRules, deals: list[dict[str, Any]]) -> None:
    """Stacked deals must be the game's pack dealt the game's way before a room takes them: the
    first for the first dealer (seat 0, GEN-6), each later one for some dealer (who deals later
    depends on the play). Raises the engine's ``InvalidDeal``."""
    for hand_no, deal in enumerate(deals):
        dealers = [0] if hand_no == 0 else range(rules.players)
        refusals: list[RuleError] = []
        for dealer in dealers:
            try:
                stacked_deal(rules, dealer, deal)
                break
            except RuleError as exc:
                refusals.append(exc)
        else:
            raise InvalidDeal(refusals[0].code, f"deal {hand_no}: {refusals[0].message}")
