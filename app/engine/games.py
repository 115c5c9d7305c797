"""The registry of the ten games (RULES.md §2 and §4) and the catalogue the API lists."""

from __future__ import annotations

from typing import Any

from ..refusals import Code
from .errors import InvalidOptions, excerpt
from .melds import AceModel, MeldRules
from .options import option_defaults, options_schema
from .parts import (
    CONTINENTAL_ORDER,
    END_JOKER_MOVES,
    EXCHANGE_AFTER_OPENING,
    EXCHANGE_BEFORE_MELDING,
    KNOCKING,
    TAKE_FOR_OPENING,
    TAKE_TWO,
)
from .phom import ROUNDS
from .rules import CardValues, GameDef, GameRules
from .scoring import Scoring

JOKERS = frozenset({"JK"})
_WIN = frozenset({"target_score", "each_hand_own_game"})


def _deal_10_7_6(players: int) -> int:
    """STD-2, KNOCK-2: 10 cards with two players, 7 with three or four, 6 with five or six."""
    return 10 if players == 2 else 7 if players <= 4 else 6


def _continental_packs(players: int) -> int:
    """CONT-1 (recovered table): 2 packs up to 5 players, 3 up to 8, 4 up to 12."""
    return 2 if players <= 5 else 3 if players <= 8 else 4


STANDARD = GameDef(
    key="standard", name="Standard Rummy",
    description=(
        "The classic game for 2 to 6 players: draw from the stock or the discard pile, lay down "
        "sets and runs, lay off on any meld and go out first; the winner scores the cards left "
        "in the other hands. Every optional rule can be switched on."),
    min_players=2, max_players=6,
    allowed_options=frozenset({
        "call_rummy", "around_the_corner", "borrowing", "borrowing_any_meld",
        "one_meld_per_turn", "layoff_requires_meld", "going_rummy", "mandatory_discard",
        "complete_rummy", "card_count_scoring", "block_rummy", "throw_down"}) | _WIN,
    deal_size=_deal_10_7_6, meld=MeldRules(ace=AceModel.LOW), values=CardValues(ace=1),
    scoring=Scoring.WINNER_TAKES_HANDS,
)

BOAT_HOUSE = GameDef(
    key="boat_house", name="Boat House Rummy",
    description=(
        "Nothing is melded during the hand: take the top discard together with a second card, "
        "build your whole hand into sets and runs (around the corner allowed) and declare it; "
        "the winner scores the other players' unmatched cards."),
    min_players=2, max_players=6,
    allowed_options=frozenset({"card_count_scoring"}) | _WIN,
    deal_size=_deal_10_7_6, meld=MeldRules(ace=AceModel.WRAP), values=CardValues(ace=11),
    table_melds=False, declare=True, take=TAKE_TWO,
    scoring=Scoring.WINNER_TAKES_DEADWOOD,
)

KALUKI = GameDef(
    key="kaluki", name="Caloochi (Kaluki)",
    description=(
        "Two packs and four jokers, 15 cards each. Your first meld must be worth 51 points; "
        "until then you may take the discard only to use it in that opening. Jokers on the "
        "table can be exchanged for the card they stand for."),
    min_players=2, max_players=4,
    allowed_options=frozenset({"call_rummy", "mandatory_discard", "card_count_scoring"}) | _WIN,
    deal_size=lambda players: 15, decks=lambda players: 2, jokers=lambda players: 4,
    meld=MeldRules(ace=AceModel.HIGH_OR_LOW, wilds=JOKERS, designate_set_wilds=True),
    values=CardValues(ace=15, joker=25),
    initial_meld=51, take=TAKE_FOR_OPENING, exchange=EXCHANGE_BEFORE_MELDING,
    scoring=Scoring.WINNER_TAKES_HANDS, pace=7.5,
)

DOUBLE_RUM = GameDef(
    key="double_rum", name="Double Rum",
    description=(
        "Two packs and four jokers, 10 cards each. Sets may hold any number of cards of one "
        "rank, even identical ones, and a joker at the end of a run can be moved to the other "
        "end by laying off the card it stands for."),
    min_players=2, max_players=4,
    allowed_options=frozenset({"call_rummy", "one_meld_per_turn", "layoff_requires_meld",
                               "going_rummy", "mandatory_discard", "card_count_scoring"}) | _WIN,
    deal_size=lambda players: 10, decks=lambda players: 2, jokers=lambda players: 4,
    meld=MeldRules(ace=AceModel.HIGH_OR_LOW, set_max=None, set_distinct_suits=False,
                   wilds=JOKERS),
    values=CardValues(ace=11, joker=15), end_jokers=END_JOKER_MOVES,
    scoring=Scoring.WINNER_TAKES_HANDS,
)

KNOCK = GameDef(
    key="knock", name="Knock Rummy",
    description=(
        "The forerunner of Gin Rummy: melds stay in the hand. After drawing, knock to end the "
        "hand; the lowest deadwood wins the differences, going rum earns a bonus and a knocker "
        "who is undercut pays 10."),
    min_players=2, max_players=5, allowed_options=_WIN,
    deal_size=_deal_10_7_6, meld=MeldRules(ace=AceModel.LOW), values=CardValues(ace=1),
    table_melds=False, hand_end=KNOCKING, scoring=Scoring.KNOCK,
)

CONTINENTAL = GameDef(
    key="continental", name="Continental Rummy",
    description=(
        "2 to 12 players with two to four packs and jokers, 15 cards each. Only runs count and "
        "you go out all at once in one of three patterns; every other player pays the winner, "
        "with bonuses for jokers and, as options, for quick or special hands."),
    min_players=2, max_players=12,
    allowed_options=frozenset({"twos_wild", "quick_meld_bonus", "special_bonus",
                               "starting_score", "hands"}),
    deal_size=lambda players: 15, decks=_continental_packs, jokers=_continental_packs,
    meld=MeldRules(ace=AceModel.HIGH_OR_LOW, sets=False, wilds=JOKERS),
    values=CardValues(),
    table_melds=False, declare=True,
    declare_sizes=((5, 4, 3, 3), (4, 4, 4, 3), (3, 3, 3, 3, 3)), order=CONTINENTAL_ORDER,
    mandatory_discard=False, scoring=Scoring.CONTINENTAL, fixed_hands=True, pace=7.5,
)

QUEEN_CITY = GameDef(
    key="queen_city", name="Queen City Rum",
    description=(
        "Seven cards each and no partial melds: go out by melding your whole hand at once; you "
        "score the value of your own melds for every other player."),
    min_players=2, max_players=6, allowed_options=_WIN,
    deal_size=lambda players: 7, meld=MeldRules(ace=AceModel.LOW), values=CardValues(ace=1),
    table_melds=False, declare=True, scoring=Scoring.QUEEN_CITY, pace=3.5,
)

PHOM = GameDef(
    key="phom", name="Phỏm (Tá lả)",
    description=(
        "Vietnamese rummy for 2 to 4: four rounds per hand. Take a discard only to complete a "
        "hidden meld, show your melds on your fourth turn and keep your unmatched cards low; "
        "going Ù with a whole hand of melds wins at once."),
    min_players=2, max_players=4,
    allowed_options=frozenset({"hands", "no_layoff_on_others", "discard_penalties"}),
    deal_size=lambda players: 9, first_player_extra=1, upcard=False,
    meld=MeldRules(ace=AceModel.LOW), values=CardValues(ace=1, jack=11, queen=12, king=13),
    table_melds=False, declare=True, take=ROUNDS, rounds=ROUNDS, scoring=Scoring.PHOM,
    fixed_hands=True, pace=4.5,
)

GERMAN = GameDef(
    key="german", name="German Rummy (Rommé)",
    description=(
        "Two packs and six jokers, 13 cards each. Open with 40 points of new melds, exchange "
        "jokers after opening and go out by discarding your last card; cards left in hand are "
        "penalty points and the lowest total wins."),
    min_players=2, max_players=6, allowed_options=frozenset({"hands"}),
    deal_size=lambda players: 13, decks=lambda players: 2, jokers=lambda players: 6,
    meld=MeldRules(ace=AceModel.HIGH_OR_LOW, wilds=JOKERS, wilds_at_most_naturals=True,
                   designate_set_wilds=True),
    values=CardValues(ace=11, joker=30), initial_meld=40, low_ace_in_run=1,
    mandatory_discard=True, exchange=EXCHANGE_AFTER_OPENING, scoring=Scoring.PENALTY,
    fixed_hands=True, pace=6.5,
)

NOWRANG = GameDef(
    key="nowrang", name="Nowrang",
    description=(
        "An Afghan two-player game: the non-dealer opens with 11 cards by discarding; the first "
        "to hold one four-card run and two three-card runs declares and wins the game."),
    min_players=2, max_players=2, allowed_options=frozenset(),
    deal_size=lambda players: 10, first_player_extra=1, upcard=False,
    meld=MeldRules(ace=AceModel.HIGH_ONLY, sets=False), values=CardValues(),
    table_melds=False, declare=True, declare_sizes=((4, 3, 3),), mandatory_discard=True,
    scoring=Scoring.TALLY, pace=2.0,
)

GAMES: dict[str, GameDef] = {g.key: g for g in (
    STANDARD, BOAT_HOUSE, KALUKI, DOUBLE_RUM, KNOCK, CONTINENTAL, QUEEN_CITY, PHOM, GERMAN,
    NOWRANG)}


def game_def(key: object) -> GameDef:
    if not isinstance(key, str) or key not in GAMES:
        raise InvalidOptions(Code.UNKNOWN_GAME, f"unknown game: {excerpt(key)}")
    return GAMES[key]


def match_rules(game: object, options: object, players: object) -> GameRules:
    """Validate a match's game, options and player count (PROTOCOL.md §2)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidOptions(Code.BAD_PLAYERS,
                             f"players must be an integer, not {excerpt(players)}")
    return game_def(game).rules(options, players)


def game_catalog() -> list[dict[str, Any]]:
    """Each game with its player range, description and options' JSON schema and defaults."""
    return [{
        "key": g.key, "name": g.name, "description": g.description,
        "min_players": g.min_players, "max_players": g.max_players,
        "options_schema": options_schema(g.allowed_options),
        "options_defaults": option_defaults(g.allowed_options),
    } for g in GAMES.values()]
