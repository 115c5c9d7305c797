"""Room options (RULES.md §3): one frozen, validated model, and which game allows which (§3.14)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..refusals import Code
from .errors import InvalidOptions


class Options(BaseModel):
    """Every option key of RULES.md with its default; a game accepts only its allowed subset."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    call_rummy: bool = Field(False, description=(
        "OPT-CALL: when a discard could be laid off on a meld, any other player may call "
        "Rummy, take it, lay it off and discard."))
    target_score: int | None = Field(None, ge=1, description=(
        "OPT-WIN-1: the total that ends the game (empty: 100; 200 with Complete Rummy; 25 with "
        "card-count scoring)."))
    each_hand_own_game: bool = Field(False, description=(
        "OPT-WIN-2: no points are kept; the winner of each hand wins a game and deals next."))
    around_the_corner: bool = Field(False, description=(
        "OPT-ATC: runs may turn the corner (K-A-2); an ace left in hand counts 11."))
    borrowing: bool = Field(False, description=(
        "OPT-BORROW: take a card from a meld you laid and use it at once in a new meld."))
    borrowing_any_meld: bool = Field(False, description=(
        "OPT-BORROWANY: borrow from any meld on the table (implies borrowing)."))
    one_meld_per_turn: bool = Field(False, description=(
        "OPT-ONEMELD: at most one new meld per turn; lay-offs are not limited."))
    layoff_requires_meld: bool = Field(False, description=(
        "OPT-LAYOFF: no lay-offs until you have laid a meld of your own this hand."))
    going_rummy: bool = Field(False, description=(
        "OPT-HIDDEN: going out in one turn with nothing laid before scores double."))
    mandatory_discard: bool = Field(False, description=(
        "OPT-MANDISC: you may go out only by discarding your last card."))
    complete_rummy: bool = Field(False, description=(
        "OPT-COMPLETE: no melding during the hand; go out by declaring your whole hand."))
    card_count_scoring: bool = Field(False, description=(
        "OPT-VALUES: every card left in hand counts 1 point (a joker 2)."))
    block_rummy: bool = Field(False, description=(
        "OPT-BLOCK: the stock is never rebuilt; when it is empty the lowest count wins."))
    throw_down: bool = Field(False, description=(
        "OPT-THROW: the discard pile is an open area; draw any card from it."))
    twos_wild: bool = Field(False, description="CONT-10: twos are wild as well as jokers.")
    quick_meld_bonus: bool = Field(False, description=(
        "CONT-11: 10 for declaring before drawing, 7 after one draw."))
    special_bonus: bool = Field(False, description=(
        "CONT-12: 10 for a hand with no wild card and 10 for a hand of one suit."))
    starting_score: int = Field(100, description="CONT-8: each player's score at the start.")
    hands: int | None = Field(None, ge=1, description=(
        "The number of hands in the game (empty: one per player)."))
    no_layoff_on_others: bool = Field(False, description=(
        "PHOM-13: on the last turn you may only show your own melds, not lay off."))
    discard_penalties: bool = Field(False, description=(
        "PHOM-14: the discarder pays 1 chip for each discard taken from him."))


OPTION_KEYS = frozenset(Options.model_fields)


def parse_options(raw: Any, allowed: frozenset[str]) -> Options:
    """Validate ``raw`` (a JSON object) against the keys ``allowed`` for a game (§3.14)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidOptions(Code.BAD_OPTIONS, "options must be a JSON object")
    unknown = sorted(set(raw) - OPTION_KEYS)
    if unknown:
        raise InvalidOptions(Code.UNKNOWN_OPTION, f"unknown option: {', '.join(unknown)}")
    refused = sorted(set(raw) - allowed)
    if refused:
        raise InvalidOptions(Code.OPTION_NOT_ALLOWED,
                             f"option not allowed in this game: {', '.join(refused)}")
    try:
        options = Options(**raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidOptions(Code.BAD_OPTION_VALUE, f"option {where}: {first['msg']}") from None
    _check_combinations(options)
    if options.borrowing_any_meld and not options.borrowing:
        options = options.model_copy(update={"borrowing": True})  # OPT-BORROWANY-1
    return options


_NOT_WITH_COMPLETE = ("call_rummy", "borrowing", "borrowing_any_meld", "one_meld_per_turn",
                      "layoff_requires_meld", "going_rummy")


def _check_combinations(options: Options) -> None:
    """Refuse a forbidden combination, naming its options (``InvalidOptions.options``: the one
    option first, then those it cannot be combined with) so that a client can name them too."""
    if options.each_hand_own_game and options.target_score is not None:
        _clash("each_hand_own_game", ["target_score"], "OPT-WIN-3")
    if options.complete_rummy:
        clash = [k for k in _NOT_WITH_COMPLETE if getattr(options, k)]
        if clash:
            _clash("complete_rummy", clash, "OPT-COMPLETE-4")


def _clash(option: str, others: list[str], rule: str) -> None:
    raise InvalidOptions(Code.CONFLICTING_OPTIONS,
                         f"{option} cannot be combined with {', '.join(others)} ({rule})",
                         options=(option, *others))


def options_schema(allowed: frozenset[str]) -> dict[str, Any]:
    """The JSON schema of the options a game allows, for forms and the API."""
    full = Options.model_json_schema()
    props = {k: v for k, v in full["properties"].items() if k in allowed}
    return {"type": "object", "title": "Options", "properties": props,
            "additionalProperties": False}


def option_defaults(allowed: frozenset[str]) -> dict[str, Any]:
    defaults = Options().model_dump()
    return {k: v for k, v in defaults.items() if k in allowed}
