"""Room options per game (RULES.md §3.14, PROTOCOL.md §2), table-driven.

`ALLOWED` mirrors the §3.14 table for all ten games; games not yet registered in
`app.engine.games.GAMES` are skipped.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.errors import InvalidOptions
from app.engine.games import GAMES, game_catalog, match_rules

ALLOWED: dict[str, frozenset[str]] = {
    "standard": frozenset({
        "call_rummy", "target_score", "each_hand_own_game", "around_the_corner", "borrowing",
        "borrowing_any_meld", "one_meld_per_turn", "layoff_requires_meld", "going_rummy",
        "mandatory_discard", "complete_rummy", "card_count_scoring", "block_rummy",
        "throw_down"}),
    "boat_house": frozenset({"target_score", "each_hand_own_game", "card_count_scoring"}),
    "kaluki": frozenset({"call_rummy", "target_score", "each_hand_own_game", "mandatory_discard",
                         "card_count_scoring"}),
    "double_rum": frozenset({"call_rummy", "target_score", "each_hand_own_game",
                             "one_meld_per_turn", "layoff_requires_meld", "going_rummy",
                             "mandatory_discard", "card_count_scoring"}),
    "knock": frozenset({"target_score", "each_hand_own_game"}),
    "continental": frozenset({"twos_wild", "quick_meld_bonus", "special_bonus",
                              "starting_score", "hands"}),
    "queen_city": frozenset({"target_score", "each_hand_own_game"}),
    "phom": frozenset({"hands", "no_layoff_on_others", "discard_penalties"}),
    "german": frozenset({"hands"}),
    "nowrang": frozenset(),
}
ALL_KEYS = frozenset().union(*ALLOWED.values())
INT_KEYS = {"target_score": 50, "starting_score": 50, "hands": 2}
NULLABLE = {"target_score", "hands"}
COMPLETE_CONFLICTS = ("call_rummy", "borrowing", "borrowing_any_meld", "one_meld_per_turn",
                      "layoff_requires_meld", "going_rummy")


def good_value(key: str) -> Any:
    return INT_KEYS.get(key, True)


def bad_values(key: str) -> list[Any]:
    if key in ("target_score", "hands"):
        return [0, -5, "50", True, 2.5, [3]]
    if key == "starting_score":
        return ["100", True, 2.5, None]
    return ["true", 1, 0, None, "false", [True]]


def registered(game: str) -> str:
    if game not in GAMES:
        pytest.skip(f"{game} is not registered yet")
    return game


def players(game: str) -> int:
    return GAMES[game].min_players


def refused(game: str, options: object, code: str) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as info:
        match_rules(game, options, players(game))
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    return info.value


def cases(kind: str) -> list[tuple[str, str]]:
    out = []
    for game, allowed in ALLOWED.items():
        keys = allowed if kind == "allowed" else ALL_KEYS - allowed
        out += [(game, key) for key in sorted(keys)]
    return out


def test_table_covers_every_known_option_key() -> None:
    """§3.14: the mirrored table names every option key the engine knows, and no other."""
    from app.engine.options import OPTION_KEYS

    assert ALL_KEYS == OPTION_KEYS


@pytest.mark.parametrize("game, key", cases("allowed"))
def test_allowed_option_is_accepted(game: str, key: str) -> None:
    """§3.14: every Y of the table is accepted on its own and resolved into the rules."""
    rules = match_rules(registered(game), {key: good_value(key)}, players(game))
    assert getattr(rules.options, key) == good_value(key)


@pytest.mark.parametrize("game, key", cases("allowed"))
def test_allowed_option_default_is_accepted(game: str, key: str) -> None:
    """§3.14 / PROTOCOL.md §2: an allowed option given with its default value is accepted."""
    from app.engine.options import Options

    default = Options.model_fields[key].default
    rules = match_rules(registered(game), {key: default}, players(game))
    assert getattr(rules.options, key) == default


@pytest.mark.parametrize("game, key", cases("not_allowed"))
def test_option_not_allowed_is_rejected(game: str, key: str) -> None:
    """§3.14: every empty cell of the table is refused with option_not_allowed."""
    refused(registered(game), {key: good_value(key)}, "option_not_allowed")


@pytest.mark.parametrize("game", list(ALLOWED))
def test_unknown_option_is_rejected(game: str) -> None:
    """PROTOCOL.md §2: an unknown key is refused with unknown_option."""
    registered(game)
    refused(game, {"wild_jokers": True}, "unknown_option")
    refused(game, {"Call_Rummy": True}, "unknown_option")
    refused(game, {"": 1}, "unknown_option")


@pytest.mark.parametrize("game, key", cases("allowed"))
def test_wrong_value_type_is_rejected(game: str, key: str) -> None:
    """PROTOCOL.md §2: a value of the wrong type is refused with bad_option_value."""
    registered(game)
    for value in bad_values(key):
        refused(game, {key: value}, "bad_option_value")


@pytest.mark.parametrize("game", [g for g, a in ALLOWED.items() if "target_score" in a])
def test_target_score_null_and_positive_accepted(game: str) -> None:
    """OPT-WIN-1: target_score is an integer >= 1 or null."""
    registered(game)
    assert match_rules(game, {"target_score": 1}, players(game)).target == 1
    assert match_rules(game, {"target_score": None}, players(game)).options.target_score is None


@pytest.mark.parametrize("game", list(ALLOWED))
def test_options_must_be_an_object(game: str) -> None:
    """PROTOCOL.md §2: options are a JSON object (an absent/null object means defaults)."""
    registered(game)
    for raw in (["call_rummy"], "call_rummy", 3, True):
        refused(game, raw, "bad_options")
    match_rules(game, {}, players(game))
    match_rules(game, None, players(game))


@pytest.mark.parametrize("game", [g for g, a in ALLOWED.items()
                                  if {"target_score", "each_hand_own_game"} <= a])
def test_opt_win_3_each_hand_own_game_with_target_score(game: str) -> None:
    """OPT-WIN-3: each_hand_own_game with a non-null target_score is rejected."""
    registered(game)
    refused(game, {"each_hand_own_game": True, "target_score": 50}, "conflicting_options")
    refused(game, {"target_score": 1, "each_hand_own_game": True}, "conflicting_options")
    rules = match_rules(game, {"each_hand_own_game": True, "target_score": None}, players(game))
    assert rules.options.each_hand_own_game
    match_rules(game, {"each_hand_own_game": False, "target_score": 50}, players(game))


@pytest.mark.parametrize("key", COMPLETE_CONFLICTS)
def test_opt_complete_4_forbidden_combinations(key: str) -> None:
    """OPT-COMPLETE-4: complete_rummy with each of these options is rejected."""
    registered("standard")
    refused("standard", {"complete_rummy": True, key: True}, "conflicting_options")
    match_rules("standard", {"complete_rummy": True, key: False}, 2)


def test_opt_complete_4_allowed_companions() -> None:
    """OPT-COMPLETE-4: the options not listed may go with complete_rummy."""
    rules = match_rules("standard", {
        "complete_rummy": True, "mandatory_discard": True, "card_count_scoring": True,
        "around_the_corner": True, "block_rummy": True, "throw_down": True,
        "target_score": 150}, 4)
    assert rules.target == 150


def test_every_standard_option_together_without_conflicts() -> None:
    """§3.14: all Standard options at once (except the forbidden pairs) are accepted."""
    options = {k: good_value(k) for k in ALLOWED["standard"]
               if k not in ("complete_rummy", "each_hand_own_game")}
    rules = match_rules("standard", options, 6)
    assert rules.options.call_rummy and rules.target == 50


def test_opt_borrowany_1_implies_borrowing() -> None:
    """OPT-BORROWANY-1: borrowing_any_meld turns borrowing on."""
    assert match_rules("standard", {"borrowing_any_meld": True}, 2).options.borrowing is True


@pytest.mark.parametrize("n", [1, 7, 0, -2, "3", 2.0, True, None])
def test_bad_player_counts_for_standard(n: object) -> None:
    """STD-1: Standard Rummy is for 2 to 6 players; anything else is bad_players."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {}, n)
    assert info.value.code == "bad_players"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_good_player_counts_for_standard(n: int) -> None:
    """STD-1/STD-2: 2..6 players are accepted."""
    assert match_rules("standard", {}, n).players == n


@pytest.mark.parametrize("game", ["gin", "Standard", "", None, 3, ["standard"]])
def test_unknown_game(game: object) -> None:
    """PROTOCOL.md §2: only the ten game keys exist."""
    with pytest.raises(InvalidOptions) as info:
        match_rules(game, {}, 2)
    assert info.value.code == "unknown_game"


def test_default_targets() -> None:
    """STD-14, OPT-WIN-1, OPT-COMPLETE-3, OPT-VALUES-2: 100, 200, 25; null with OPT-WIN-2."""
    assert match_rules("standard", {}, 2).target == 100
    assert match_rules("standard", {"complete_rummy": True}, 2).target == 200
    assert match_rules("standard", {"card_count_scoring": True}, 2).target == 25
    assert match_rules("standard", {"target_score": 7}, 2).target == 7
    assert match_rules("standard", {"each_hand_own_game": True}, 2).target is None


def test_game_catalog_lists_standard_with_schema_and_defaults() -> None:
    """PROTOCOL.md §5 `GET /api/games`: each game with its options' JSON schema and defaults."""
    catalog = {entry["key"]: entry for entry in game_catalog()}
    assert set(catalog) == set(GAMES)
    assert set(catalog) <= set(ALLOWED)
    std = catalog["standard"]
    assert (std["min_players"], std["max_players"]) == (2, 6)
    assert std["name"] and std["description"]
    schema = std["options_schema"]
    assert schema["type"] == "object"
    assert set(schema["properties"]) == ALLOWED["standard"]
    defaults = {k: False for k in ALLOWED["standard"]} | {"target_score": None}
    assert std["options_defaults"] == defaults
    for key, entry in catalog.items():
        assert set(entry["options_schema"]["properties"]) == ALLOWED[key]
        assert set(entry["options_defaults"]) == ALLOWED[key]
