"""The seating policy (app/seating_policy.py), pure: every rule, each way a person asks, both
directions of a block, the tournament's exemption, fair-play flags, one account per address,
one waiting quick-seat seat per person, the host's cap, and whose chat a listener is shown."""

from __future__ import annotations

import pytest

from app.fairplay.apart import apart
from app.refusals import Code, Refusal
from app.seating_policy import (
    Ask,
    How,
    Table,
    Ties,
    WaitingSeat,
    avoids,
    check,
    may_open,
    refusal,
    shown,
)

PEOPLE = How.JOIN, How.INVITE, How.QUICK_SEAT, How.REMATCH  # a person's own request
ROOM = Table("r1", frozenset({"bob", "cat"}))
NO_TIES = Ties()


def _code(ask: Ask, ties: Ties = NO_TIES) -> Code | None:
    refused = refusal(ask, ties)
    return None if refused is None else refused.code


@pytest.mark.parametrize("how", list(How))
def test_no_ties_no_refusal(how: How) -> None:
    assert _code(Ask("ann", how, ROOM, "10.0.0.1")) is None
    assert not avoids(Ask("ann", how, ROOM), Ties())
    check(Ask("ann", how, ROOM), Ties())  # raises nothing


@pytest.mark.parametrize("how", PEOPLE)
def test_a_block_refuses_whoever_made_it(how: How) -> None:
    # `Ties.blocks` names the players a block stands between, either way: the store reads
    # both directions (tests/api/test_moderation.py), the policy weighs them alike.
    ask = Ask("ann", how, ROOM)
    assert _code(ask, Ties(blocks=frozenset({"bob"}))) is Code.BLOCKED
    assert _code(ask, Ties(blocks=frozenset({"dan"}))) is None  # dan is not seated
    with pytest.raises(Refusal) as raised:
        check(ask, Ties(blocks=frozenset({"cat"})))
    assert raised.value.code is Code.BLOCKED


def test_a_tournament_table_ignores_blocks_and_addresses() -> None:
    table = Table("t1", frozenset({"bob"}), frozenset({"10.0.0.1"}), one_per_address=True)
    ask = Ask("ann", How.TOURNAMENT, table, "10.0.0.1")
    assert _code(ask, Ties(blocks=frozenset({"bob"}))) is None
    assert _code(Ask("ann", How.JOIN, table, "10.0.0.1"),
                 Ties(blocks=frozenset({"bob"}))) is Code.BLOCKED


def test_a_person_seated_already_is_never_refused() -> None:
    table = Table("q1", frozenset({"ann", "bob"}), frozenset({"10.0.0.1"}), True, True)
    ties = Ties(blocks=frozenset({"bob"}), waiting=WaitingSeat("q2", 0))
    assert _code(Ask("ann", How.QUICK_SEAT, table, "10.0.0.1"), ties) is None


@pytest.mark.parametrize("how", PEOPLE)
def test_one_account_per_address_where_the_room_keeps_it(how: How) -> None:
    kept = Table("r1", frozenset({"bob"}), frozenset({"10.0.0.1"}), one_per_address=True)
    assert _code(Ask("ann", how, kept, "10.0.0.1")) is Code.SAME_ADDRESS
    assert _code(Ask("ann", how, kept, "10.0.0.2")) is None
    assert _code(Ask("ann", how, kept, None)) is None  # an address not known never refuses
    free = Table("r1", frozenset({"bob"}), frozenset({"10.0.0.1"}), one_per_address=False)
    assert _code(Ask("ann", how, free, "10.0.0.1")) is None


def test_a_block_is_named_before_an_address() -> None:
    kept = Table("r1", frozenset({"bob"}), frozenset({"10.0.0.1"}), one_per_address=True)
    assert _code(Ask("ann", How.JOIN, kept, "10.0.0.1"),
                 Ties(blocks=frozenset({"bob"}))) is Code.BLOCKED


@pytest.mark.parametrize("how", PEOPLE)
def test_one_waiting_quick_seat_seat_per_person(how: How) -> None:
    quick = Table("q1", frozenset({"bob"}), quick_seat=True)
    elsewhere = Ties(waiting=WaitingSeat("q2", 1))
    refused = refusal(Ask("ann", how, quick), elsewhere)
    assert refused is not None and refused.code is Code.ALREADY_WAITING
    assert refused.fields == {"room": "q2", "seat": 1}  # quick seat answers that seat again
    assert _code(Ask("ann", how, quick), Ties(waiting=WaitingSeat("q1", 1))) is None
    # Only a quick-seat room that waits counts: a host's room, or one playing, takes anyone.
    assert _code(Ask("ann", how, Table("r1", frozenset({"bob"}))), elsewhere) is None


def test_the_waiting_seat_is_named_before_a_block() -> None:
    quick = Table("q1", frozenset({"bob"}), quick_seat=True)
    ties = Ties(blocks=frozenset({"bob"}), waiting=WaitingSeat("q2", 0))
    assert _code(Ask("ann", How.QUICK_SEAT, quick), ties) is Code.ALREADY_WAITING


def test_flags_are_avoided_by_quick_seat_and_the_draw_only() -> None:
    ties = Ties(flagged=frozenset({"bob"}))
    assert avoids(Ask("ann", How.QUICK_SEAT, ROOM), ties)
    assert avoids(Ask("ann", How.TOURNAMENT, ROOM), ties)
    for how in (How.JOIN, How.INVITE, How.REMATCH):  # asked for by name: not judged by flags
        assert not avoids(Ask("ann", how, ROOM), ties)
        assert _code(Ask("ann", how, ROOM), ties) is None
    assert not avoids(Ask("ann", How.QUICK_SEAT, ROOM), Ties(flagged=frozenset({"dan"})))
    assert _code(Ask("ann", How.QUICK_SEAT, ROOM), ties) is None  # avoided, never refused


def test_the_draw_keeps_flagged_pairs_apart_by_the_policy() -> None:
    assert apart(["a", "b", "c", "d"], [2, 2], set()) == ["a", "b", "c", "d"]
    seated = apart(["a", "b", "c", "d"], [2, 2], {("a", "b")})
    assert sorted(seated) == ["a", "b", "c", "d"]
    assert {"a", "b"} not in ({*seated[:2]}, {*seated[2:]})
    # Two tables of two, everyone flagged with everyone: no swap helps, the draw stands.
    everyone = {(x, y) for x in "abcd" for y in "abcd" if x < y}
    assert apart(["a", "b", "c", "d"], [2, 2], everyone) == ["a", "b", "c", "d"]


def test_the_hosts_cap_of_waiting_rooms() -> None:
    assert may_open(0, 5) is None and may_open(4, 5) is None
    refused = may_open(5, 5)
    assert refused is not None and refused.code is Code.TOO_MANY_WAITING_ROOMS
    assert "5" in refused.message
    assert may_open(6, 5) is not None


def test_a_line_is_not_shown_to_who_blocked_its_speaker() -> None:
    blockers = frozenset({"ann"})
    assert not shown("ann", "bob", blockers)
    assert shown("cat", "bob", blockers)
    assert shown("bob", "bob", blockers)  # the speaker sees their own line
    assert shown("ann", None, frozenset())  # nobody's line (carried before speakers were kept)
    # One way only: bob, whom ann blocked, still reads ann's lines (PROTOCOL.md §9).
    assert shown("bob", "ann", frozenset())
