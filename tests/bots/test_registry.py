"""``make_bot`` by name, and the interface: ``choose`` answers a typed view with an action that
prints as its JSON and parses back; same seed, same play."""

from __future__ import annotations

import pytest

from app.bots import Bot, RandomBot, SensibleBot, make_bot
from app.bots.levels import EasyBot, HardBot
from app.bots.registry import LEVELS, level_of
from app.bots.selfplay import play_match
from app.engine.actions import ACTION_TYPES, parse_action
from app.engine.deal import shuffled_deal
from app.engine.game import new_match, start_hand
from app.engine.games import match_rules
from app.engine.views import seat_view_of


def test_kinds() -> None:
    assert isinstance(make_bot("sensible", 1), SensibleBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("easy", 1), EasyBot) and isinstance(make_bot("hard", 1), HardBot)
    assert [level_of(LEVELS[level]) for level in LEVELS] == ["easy", "normal", "hard"]
    assert level_of("random") is None and level_of(None) is None
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("clever", 1)


@pytest.mark.parametrize("kind", ["sensible", "random", "easy", "hard"])
def test_choose_returns_an_action(kind: str) -> None:
    import random

    rules = match_rules("standard", {}, 2)
    st = start_hand(new_match(rules), shuffled_deal(rules, 0, random.Random(3)), 0)
    assert st.turn is not None
    bot: Bot = make_bot(kind, 5)
    action = bot.choose(seat_view_of(st, st.turn), rules)
    assert action.type in ACTION_TYPES and parse_action(action.to_json()) == action
    assert bot.maybe_call(seat_view_of(st, 0), rules) is None


def test_same_seed_same_match() -> None:
    rules = match_rules("kaluki", {"call_rummy": True}, 3)
    logs = [play_match(rules, [make_bot("sensible", s) for s in range(3)], 9, 2)[1]
            for _ in range(2)]
    assert logs[0] == logs[1]
