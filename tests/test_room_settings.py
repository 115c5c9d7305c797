"""A room's settings are one frozen value, refused on construction with the wire's codes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app.refusals import Refusal
from app.services.room_settings import RoomSettings


@pytest.mark.parametrize(("changes", "code"), [
    ({"stake": -1}, "bad_stake"),
    ({"buy_in": 1_000_001}, "bad_stake"),
    ({"stake": 5}, "stake_needs_buy_in"),
    ({"turn_seconds": 601}, "bad_turn_seconds"),
    ({"grace_seconds": -1}, "bad_grace_seconds"),
    ({"stake": 1, "buy_in": 100, "deals": []}, "deals_not_allowed"),
    ({"seats": 9}, "bad_players"),
    ({"options": {"each_hand_own_game": True, "target_score": 50}}, "conflicting_options"),
])
def test_bad_settings_are_refused_with_their_code(changes: dict[str, Any], code: str) -> None:
    with pytest.raises(Refusal) as refused:
        RoomSettings(**{"game": "standard", "seats": 2, **changes})
    assert refused.value.code == code


def test_an_options_conflict_names_its_options() -> None:
    with pytest.raises(Refusal) as refused:
        RoomSettings(game="standard", seats=2,
                     options={"each_hand_own_game": True, "target_score": 50})
    assert set(refused.value.fields["options"]) == {"each_hand_own_game", "target_score"}


def test_settings_are_frozen_and_travel_as_json() -> None:
    settings = RoomSettings(game="standard", seats=3, stake=2, buy_in=200, turn_seconds=30,
                            rated=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.stake = 0  # type: ignore[misc]
    assert RoomSettings.from_json(settings.to_json()) == settings
    assert settings.rules.players == 3
    assert "deals" not in settings.shown()


@pytest.mark.parametrize(("changes", "kept"), [
    ({}, False),  # a free room: several accounts from one address may sit
    ({"stake": 1, "buy_in": 100}, True),  # a room with a stake: one account per address
    ({"buy_in": 100}, False),  # a buy-in with no stake moves no chips between players
    ({"stake": 1, "buy_in": 100, "one_per_address": False}, False),  # the host turned it off
    ({"one_per_address": True}, True),  # or on in a free room
])
def test_one_account_per_address_is_on_by_default_with_a_stake(changes: dict[str, Any],
                                                              kept: bool) -> None:
    settings = RoomSettings(game="standard", seats=2, **changes)
    assert settings.one_per_address is kept
    assert settings.shown()["one_per_address"] is kept
    assert RoomSettings.from_json(settings.to_json()).one_per_address is kept
