"""Games as validated presets of one engine (STYLE habit 2).

A :class:`GameDef` is the static description of a game (RULES.md parameter block); combined with
validated :class:`Options` and a player count it yields the :class:`GameRules` of one match,
which is everything the engine consults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from ..refusals import Code
from .cards import JOKER, rank_of
from .errors import InvalidOptions, excerpt
from .melds import AceModel, Meld, MeldRules
from .options import Options, parse_options
from .parts import (
    FIXED_END_JOKERS,
    GOING_OUT,
    NO_EXCHANGE,
    PLAIN_ORDER,
    TAKE_ONE,
    EndJokers,
    Exchange,
    HandEnd,
    Order,
    Take,
)

if TYPE_CHECKING:
    from .phom import Rounds
    from .scoring import WinnerTakesHands


@dataclass(frozen=True, slots=True)
class CardValues:
    """GEN-16: what a card left in a hand is worth."""

    ace: int = 1
    jack: int = 10
    queen: int = 10
    king: int = 10
    joker: int = 0
    count_cards: bool = False  # OPT-VALUES: every card 1, a joker 2

    def of(self, code: str) -> int:
        if self.count_cards:
            return 2 if code == JOKER else 1
        if code == JOKER:
            return self.joker
        rank = rank_of(code)
        if rank == 1:
            return self.ace
        if rank <= 10:
            return rank
        return (self.jack, self.queen, self.king)[rank - 11]


@dataclass(frozen=True)
class GameDef:
    """One of the ten games: the data of its RULES.md parameter block and the parts
    (``parts.py``, ``scoring.py``, ``phom.py``) where it differs from the others."""

    key: str
    name: str
    description: str
    min_players: int
    max_players: int
    allowed_options: frozenset[str]
    deal_size: Callable[[int], int]
    meld: MeldRules
    values: CardValues
    scoring: WinnerTakesHands  # a part of scoring.py's ``Scoring``
    decks: Callable[[int], int] = lambda players: 1
    jokers: Callable[[int], int] = lambda players: 0
    upcard: bool = True
    first_player_extra: int = 0  # PHOM-2, NOWRANG-3: the first player gets one card more
    table_melds: bool = True
    declare: bool = False
    declare_sizes: tuple[tuple[int, ...], ...] = ()  # CONT-6, NOWRANG-6: meld size patterns
    initial_meld: int = 0
    low_ace_in_run: int | None = None  # GERMAN-9: an ace below the 2 counts 1 in a meld
    mandatory_discard: bool = False
    # The parts where games differ (parts.py): each game names one of each, the plain by default.
    take: Take = TAKE_ONE  # BOAT-2, KALUKI-6, PHOM-5
    order: Order = PLAIN_ORDER  # CONT-2, CONT-6
    end_jokers: EndJokers = FIXED_END_JOKERS  # DOUBLE-6
    exchange: Exchange = NO_EXCHANGE  # KALUKI-7, GERMAN-7, GERMAN-8
    hand_end: HandEnd = GOING_OUT  # KNOCK-4
    rounds: Rounds | None = None  # PHOM-3..14: four rounds, locked cards, show
    default_target: int | None = 100
    fixed_hands: bool = False
    # The analysis' judgement of a hand in progress (docs/analysis.md): each seat's chance to win
    # the hand falls by a factor e for every ``pace`` unmatched cards it holds more than another;
    # half the cards a hand holds with two players (5 of 10), so that longer hands, whose
    # unmatched cards differ more, are judged alike.
    pace: float = 5.0

    def meld_points(self, meld: Meld) -> int:
        """A meld's worth for the initial-meld minimum (KALUKI-5, GERMAN-9)."""
        total = 0
        for i, placed in enumerate(meld.cards):
            low_ace = meld.kind == "run" and meld.start + i == 1
            if low_ace and self.low_ace_in_run is not None:
                total += self.low_ace_in_run
            else:
                total += self.values.of(placed.stands_for)
        return total

    def rules(self, raw_options: object, players: int) -> GameRules:
        """Validate options and player count and resolve this game's rules for one match."""
        options = parse_options(raw_options, self.allowed_options)
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise InvalidOptions(Code.BAD_PLAYERS, f"{self.name} is for {self.min_players} to "
                                 f"{self.max_players} players, not {excerpt(players)}")
        return _resolve(self, options, players)


@dataclass(frozen=True)
class GameRules:
    """The resolved rules of one match: a game, its options and its number of players."""

    game: GameDef
    options: Options
    players: int
    meld: MeldRules
    values: CardValues
    table_melds: bool
    declare: bool
    mandatory_discard: bool
    target: int | None
    hands: int | None
    each_hand_a_game: bool  # OPT-WIN-2, NOWRANG-7: a hand won is the game won

    @property
    def key(self) -> str:
        return self.game.key

    def pack_size(self) -> tuple[int, int]:
        return self.game.decks(self.players), self.game.jokers(self.players)

    @cached_property
    def action_types(self) -> frozenset[str]:
        """The action types this game with these options ever allows (worked out once)."""
        game, options = self.game, self.options
        types = {"draw", "discard"}
        if self.table_melds:
            types |= {"meld", "lay_off"} | ({"borrow"} if options.borrowing else set())
        types |= game.exchange.action_types()
        if self.declare:
            types.add("declare")
        types |= game.hand_end.action_types()
        if game.rounds is not None:
            types |= game.rounds.action_types(options)
        return frozenset(types)


def _resolve(game: GameDef, options: Options, players: int) -> GameRules:
    meld = game.meld
    values = game.values
    if options.around_the_corner:  # OPT-ATC-1, OPT-ATC-2
        meld = replace(meld, ace=AceModel.WRAP)
        values = replace(values, ace=11)
    if options.card_count_scoring:  # OPT-VALUES-1
        values = replace(values, count_cards=True)
    if options.twos_wild:  # CONT-10
        meld = replace(meld, wilds=meld.wilds | {"2C", "2D", "2H", "2S"})
    target: int | None = None
    hands: int | None = None
    each_hand_a_game = options.each_hand_own_game or game.scoring.each_hand_a_game
    if game.fixed_hands:
        hands = options.hands or players
    elif not each_hand_a_game:
        target = options.target_score or _default_target(game, options)
    complete = options.complete_rummy
    return GameRules(
        game=game, options=options, players=players, meld=meld, values=values,
        table_melds=game.table_melds and not complete,
        declare=game.declare or complete,
        mandatory_discard=game.mandatory_discard or options.mandatory_discard,
        target=target, hands=hands, each_hand_a_game=each_hand_a_game)


def _default_target(game: GameDef, options: Options) -> int | None:
    """OPT-WIN-1: 25 with card counting, else 200 with Complete Rummy, else the game's own."""
    if options.card_count_scoring:
        return 25
    if options.complete_rummy:
        return 200
    return game.default_target
