"""The easy and hard computer players: legal play in every game, and the hard one's card memory."""

from __future__ import annotations

import pytest

from app.bots import make_bot
from app.bots.levels import HardBot
from app.bots.selfplay import play_match
from app.engine.actions import Action, Discard, Draw
from app.engine.games import GAMES, match_rules
from app.engine.state import State


@pytest.mark.parametrize("game", list(GAMES))
def test_easy_and_hard_play_every_game(game: str) -> None:
    """Two hands of each game with an easy, a hard and a normal player: no action is refused
    (``play_match`` raises ``BotRejected`` otherwise) and every hand ends."""
    players = min(3, GAMES[game].max_players)
    rules = match_rules(game, {}, players)
    kinds = ["easy", "hard", "sensible"][:players]
    st, log = play_match(rules, [make_bot(k, 40 + s) for s, k in enumerate(kinds)], 4, 2)
    assert len(log.hands) == len(st.results) >= 1


def test_hard_remembers_what_the_opponent_threw_and_took() -> None:
    """In a two-player Standard hand the hard player's memory holds exactly the cards its
    opponent discarded (and the upcard) and the cards its opponent took from the pile."""
    rules = match_rules("standard", {}, 2)
    hard = make_bot("hard", 1)
    assert isinstance(hard, HardBot)
    thrown: list[str] = []
    taken: set[str] = set()

    def observe(before: State, seat: int | None, action: Action | None, after: State) -> None:
        if before.hand_no != after.hand_no or seat != 1 or after.hand_over:
            return
        if isinstance(action, Discard):
            thrown.append(action.card)
        elif isinstance(action, Draw) and action.source == "discard":
            taken.add(before.discard[-1])

    checked = 0
    for seed in range(6):
        thrown.clear()
        taken.clear()
        st, log = play_match(rules, [hard, make_bot("sensible", 2)], seed, 1, observe)
        first = log.hands[0].deal.discard[-1:]  # the upcard
        remembered = set(hard._thrown.elements())
        assert remembered <= set(thrown) | set(first), (remembered, thrown)
        assert hard._picked <= taken, (hard._picked, taken)
        checked += len(remembered)
    assert checked > 0
