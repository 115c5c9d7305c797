"""The match log as a value and its one fold (PROTOCOL.md §4; docs/engine.md "The match log").

Logs are the Standard Rummy scenario of ``test_replay.py`` (seat 1 or 0 goes out at once with two
runs against ten court cards) and Call Rummy playouts of the test player (``players.py``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from app.engine.actions import Discard, Draw
from app.engine.errors import RuleError
from app.engine.fairdeal import DealSeeds
from app.engine.matchlog import InvalidMatchLog, MatchLog, final_state, fold
from app.engine.replay import replay_steps, run_replay
from app.engine.state import State

from .players import play_match
from .test_replay import match_log, seed_log, three_hands, winning_hand


def test_parse_and_to_json_round_trip() -> None:
    """PROTOCOL.md §4: a log prints back as it was given, and parses back equal."""
    log = three_hands()
    parsed = MatchLog.parse(log)
    assert parsed.to_json() == log
    assert MatchLog.parse(json.loads(json.dumps(parsed.to_json()))) == parsed
    assert parsed.game == "standard" and parsed.players == 2
    assert [h.dealer for h in parsed.hands] == [None, None, None]


def test_each_action_is_parsed_once_with_its_seat() -> None:
    """PROTOCOL.md §3: logged actions become the engine's typed actions when the log is read."""
    parsed = MatchLog.parse(three_hands())
    first = parsed.hands[0].actions
    assert (first[0].seat, first[0].action) == (1, Draw("stock"))
    assert (first[2].seat, first[2].action) == (1, Discard("KH"))


def test_seeds_dealers_and_extra_keys_round_trip() -> None:
    """PROTOCOL.md §4, §7: a seed, an explicit dealer, a hand's server_seed and client_seeds and
    an action's client_id and time (an admin's export) survive parse and to_json."""
    log = match_log(winning_hand(1, dealer=0), {"seed": 5, "actions": []})
    log["hands"][0]["server_seed"] = "ab" * 32
    log["hands"][0]["client_seeds"] = ["x", ""]
    log["hands"][0]["actions"][0] |= {"client_id": 7, "at": "2024-05-01T12:00:00"}
    parsed = MatchLog.parse(copy.deepcopy(log))
    assert parsed.to_json() == log
    assert parsed.hands[0].seeds == DealSeeds("ab" * 32, ("x", ""))
    assert parsed.hands[0].extra == {}
    assert parsed.hands[0].actions[0].client_id == 7
    assert parsed.hands[0].actions[1].client_id is None
    assert parsed.hands[1].seed == 5 and parsed.hands[1].deal is None


def test_played_for_is_kept_shown_in_the_steps_and_checked() -> None:
    """PROTOCOL.md §4: a move the server made for a person's seat carries ``played_for``; it
    replays like any action, round-trips, marks its step, and is one of the two reasons."""
    log = match_log(winning_hand(1))
    log["hands"][0]["actions"][0]["played_for"] = "timeout"
    log["hands"][0]["actions"][2]["played_for"] = "stand_in"
    parsed = MatchLog.parse(copy.deepcopy(log))
    assert parsed.to_json() == log
    assert [a.played_for for a in parsed.hands[0].actions[:3]] == ["timeout", None, "stand_in"]
    assert run_replay(log) == run_replay(match_log(winning_hand(1)))
    marks = [(s["index"], s.get("played_for")) for s in replay_steps(log)][:4]
    assert marks == [(None, None), (0, "timeout"), (1, None), (2, "stand_in")]
    log["hands"][0]["actions"][1]["played_for"] = "bot"
    with pytest.raises(InvalidMatchLog, match=r"^hands\[0\]\.actions\[1\]\.played_for"):
        MatchLog.parse(log)


def test_an_exports_other_keys_are_not_the_log() -> None:
    """An admin's export adds results, transfers and chat beside the log: parse leaves them."""
    log = three_hands()
    export = log | {"match": {"id": "m"}, "results": [], "transfers": [], "chat": []}
    assert MatchLog.parse(export).to_json() == log


def test_a_malformed_action_is_kept_and_rejected_where_it_stands() -> None:
    """PROTOCOL.md §4: a malformed action is the replay's rejection, not an invalid log."""
    log = match_log(winning_hand(1))
    log["hands"][0]["actions"][1]["action"] = {"type": "fly", "to": "moon"}
    parsed = MatchLog.parse(log)
    entry = parsed.hands[0].actions[1]
    assert entry.action is None and entry.error is not None
    assert entry.error.code == "unknown_action"
    assert parsed.to_json() == log  # kept as logged
    steps = list(fold(parsed))
    assert [(s.index, s.error is not None) for s in steps] == [(None, False), (0, False),
                                                                (1, True)]
    assert steps[-1].error is entry.error
    assert steps[-1].state is steps[-2].state  # the state just before it


@pytest.mark.parametrize(("edit", "field"), [
    (lambda log: log["hands"][1]["deal"]["stock"].pop(), "hands[1].deal"),
    (lambda log: log["hands"][0]["actions"][2].update(seat="1"), "hands[0].actions[2].seat"),
    (lambda log: log["hands"][2]["actions"].__setitem__(0, ["draw"]), "hands[2].actions[0]"),
    (lambda log: log["hands"][0].update(dealer=2), "hands[0].dealer"),
    (lambda log: log["hands"][1].update(actions={}), "hands[1].actions"),
    (lambda log: log["hands"].append("hand"), "hands[3]"),
])
def test_invalid_log_names_the_bad_field(edit: Any, field: str) -> None:
    """docs/engine.md: InvalidMatchLog says which field of the log is wrong."""
    log = three_hands()
    edit(log)
    with pytest.raises(InvalidMatchLog) as info:
        MatchLog.parse(log)
    assert str(info.value).startswith(field), str(info.value)


def test_seed_must_be_an_integer() -> None:
    log = seed_log(3)
    log["hands"][0]["seed"] = "3"
    with pytest.raises(InvalidMatchLog, match=r"hands\[0\]\.seed"):
        MatchLog.parse(log)


def test_the_fold_is_lazy() -> None:
    """A hand that cannot be dealt where it stands is found only when the fold gets there: the
    steps before it are already given (the admin's steps of a broken log start, then stop)."""
    log = three_hands()
    log["hands"][0]["actions"].pop()  # hand 0 never ends, so hand 1 cannot be dealt
    steps = fold(MatchLog.parse(log))
    first = [next(steps) for _ in range(3)]
    assert [s.index for s in first] == [None, 0, 1]
    with pytest.raises(InvalidMatchLog, match=r"hands\[1\]"):
        next(steps)


def test_fold_steps() -> None:
    """One step per deal and per action: hand, index, seat, action, the state after it, events."""
    parsed = MatchLog.parse(three_hands())
    steps = list(fold(parsed))
    assert len(steps) == 3 * (1 + 3)
    deal, draw = steps[0], steps[1]
    assert (deal.hand, deal.index, deal.seat, deal.entry, deal.events) == (0, None, None, None,
                                                                          [])
    assert deal.state.hand_no == 0 and deal.state.seq == 0
    assert (draw.hand, draw.index, draw.seat) == (0, 0, 1)
    assert draw.entry is parsed.hands[0].actions[0]
    assert draw.state.seq == 1 and [e["type"] for e in draw.events] == ["draw"]
    assert steps[-1].state.game_over and steps[-1].error is None
    assert final_state(parsed).to_json() == steps[-1].state.to_json()


def test_final_state_raises_the_first_rejection() -> None:
    log = three_hands()
    log["hands"][1]["actions"][0]["seat"] = 1
    with pytest.raises(RuleError) as info:
        final_state(MatchLog.parse(log))
    assert info.value.code == "not_your_turn"


def test_client_ids_with_the_seq_of_their_action() -> None:
    """A live room's recovery rebuilds its replies from the fold: each logged client id with
    the ``seq`` its action reached."""
    log = three_hands()
    for h, hand in enumerate(log["hands"]):
        for i, entry in enumerate(hand["actions"]):
            entry["client_id"] = f"c{h}.{i}"
    acks = {s.entry.client_id: s.state.seq for s in fold(MatchLog.parse(log))
            if s.entry is not None}
    assert acks == {f"c{h}.{i}": 3 * h + i + 1 for h in range(3) for i in range(3)}


# --- every driver goes through the one fold ----------------------------------------------

CALL_PLAYOUTS = [({"call_rummy": True}, 3, 7), ({"call_rummy": True, "throw_down": True}, 4, 8),
                 ({"call_rummy": True, "each_hand_own_game": True}, 3, 9)]


@pytest.mark.parametrize(("options", "players", "seed"), CALL_PLAYOUTS)
def test_play_replay_and_admin_steps_agree_step_by_step(options: dict[str, Any], players: int,
                                                         seed: int) -> None:
    """OPT-CALL-4: the test player's states after each action are the fold's; replay_steps is
    the fold as JSON, ending at run_replay's state and at the state the player reached."""
    played: dict[tuple[int, int], dict[str, Any]] = {}

    def record(before: State, seat: int, action: Any, after: State,
               events: list[dict[str, Any]]) -> None:
        played[(after.hand_no, after.seq)] = after.to_json()

    st, log = play_match("standard", options, players, seed, 3, record)
    assert any(e.action is not None and e.action.type == "call_rummy"
               for h in log.hands for e in h.actions), "no call in this playout: pick a seed"
    steps = list(fold(log))
    admin = replay_steps(json.loads(json.dumps(log.to_json())))
    assert [s["state"] for s in admin] == [s.state.to_json() for s in steps]
    assert [(s["hand"], s["index"], s["seat"]) for s in admin] == [
        (s.hand, s.index, s.seat) for s in steps]
    assert admin[-1]["state"] == run_replay(log.to_json())["state"] == st.to_json()
    ends = {(h, len(hand.actions) - 1) for h, hand in enumerate(log.hands)}
    for step in steps:
        if step.index is not None and (step.hand, step.index) not in ends:
            # A hand's last action may be a winning call, settled in the same step.
            assert step.state.to_json() == played[(step.hand, step.state.seq)]
