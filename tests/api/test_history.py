"""Players' history, replays, profiles, ratings, leaderboards, the guest upgrade, the name change
and the top-up, over HTTP and real websockets on one real server with PostgreSQL.

Matches are the stacked Kaluki match of tests/api/scenarios.py (seat 1 wins 126 to 0 in one
hand), played by two scripted people; chips at a stake come from a one-hand Standard match that
a computer player finishes for its host. Ratings are checked against OpenSkill's own
computation of the same order of finish.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce

from app.db.session import make_engine, make_sessionmaker
from app.services import ledger
from tests.api.client import Player, balance, call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_scripted
from tests.waits import eventually

pytestmark = pytest.mark.postgres

PERIOD = 3600
TOP_UP = 300
ENV = {"RUMMY_STARTING_CHIPS": "0", "RUMMY_TOPUP_CHIPS": str(TOP_UP),
       "RUMMY_TOPUP_PERIOD_SECONDS": str(PERIOD), "RUMMY_LEADERBOARD_MIN_MATCHES": "2"}
MODEL = PlackettLuce()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("history"), "postgresql", ENV) as running:
        yield running


async def _play_kaluki(server: Hall, http: Any, players: list[Player], *, rated: bool = False,
                       private: bool = False) -> tuple[str, dict[str, Any]]:
    """Play the stacked Kaluki match (seat 0 hosts); the match id and seat 0's last view."""
    return await play_scripted(server.base_url, http, players, KALUKI, rated=rated,
                               private=private)


def _expected(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """OpenSkill's own update of these (mu, sigma) for this order of finish."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(r.mu, r.sigma) for (r,) in MODEL.rate(teams, ranks=ranks)]


async def test_rated_matches_update_ratings_as_openskill_does(server: Hall, http: Any) -> None:
    loser, winner = await guest(http, "Rated Loser"), await guest(http, "Rated Winner")
    fresh = (MODEL.rating().mu, MODEL.rating().sigma)
    expected = _expected([fresh, fresh], [1, 0])  # seat 1 wins (KALUKI)
    match_id, final = await _play_kaluki(server, http, [loser, winner], rated=True)

    changes = final["rating_changes"]  # on the result screen
    assert [(c["seat"], c["player_id"], c["rank"]) for c in changes] == [
        (0, loser.id, 1), (1, winner.id, 0)]
    assert [(c["mu"], c["sigma"]) for c in changes] == expected
    assert changes[1]["delta"] > 0 > changes[0]["delta"] and changes[0]["before"] == 0
    mine = await call(http, "GET", "/api/me/matches", winner)
    assert mine["matches"][0]["id"] == match_id and mine["matches"][0]["rating"] == changes[1]
    export = await call(http, "GET", f"/api/admin/matches/{match_id}", server_admin(server))
    again = await call(http, "POST", f"/api/rooms/{export['match']['room_id']}/rematch", loser)
    assert again["rated"] is True  # playing again keeps the room rated
    await call(http, "POST", f"/api/rooms/{again['id']}/leave", loser)

    # One rated match is not enough to appear (minimum 2); the player still sees where they are.
    board = await call(http, "GET", "/api/leaderboards/kaluki", winner)
    assert board["players"] == [] and board["total"] == 0
    assert board["me"]["rank"] is None and board["me"]["matches"] == 1

    expected = _expected(expected, [1, 0])
    await _play_kaluki(server, http, [loser, winner], rated=True)
    board = await call(http, "GET", "/api/leaderboards/kaluki?limit=1", loser)
    assert board["total"] == 2 and [p["player_id"] for p in board["players"]] == [winner.id]
    top = board["players"][0]
    assert (top["rank"], top["matches"], (top["mu"], top["sigma"])) == (1, 2, expected[1])
    assert board["me"]["rank"] == 2 and (board["me"]["mu"], board["me"]["sigma"]) == expected[0]
    assert await refusal(http, "GET", "/api/leaderboards/poker", None, None, 404) \
        == "unknown_game"
    second = await call(http, "GET", "/api/leaderboards/kaluki?limit=1&offset=1")
    assert [p["player_id"] for p in second["players"]] == [loser.id] and second["me"] is None
    assert second["players"][0]["rank"] == 2

    profile = await call(http, "GET", f"/api/players/{winner.id}")
    kaluki = next(g for g in profile["games"] if g["game"] == "kaluki")
    assert (kaluki["matches"], kaluki["wins"], kaluki["win_rate"]) == (2, 2, 1.0)
    assert kaluki["average_score"] == 126 and kaluki["chips"] == 0
    assert (kaluki["rating"]["mu"], kaluki["rating"]["sigma"]) == expected[1]
    assert profile["name"] == "Rated Winner" and len(profile["recent"]) == 2


async def test_no_rating_for_unrated_rooms_or_computer_players(server: Hall, http: Any) -> None:
    host, other = await guest(http, "Unrated A"), await guest(http, "Unrated B")
    _, final = await _play_kaluki(server, http, [host, other])
    assert "rating_changes" not in final
    for player in (host, other):
        profile = await call(http, "GET", f"/api/players/{player.id}")
        assert [(g["matches"], g["rating"]) for g in profile["games"]] == [(1, None)]
        assert (await call(http, "GET", "/api/me/matches", player))["matches"][0]["rating"] is None

    room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2,
                                                         "rated": True})
    assert room["rated"] is True
    code = await refusal(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1}, 409)
    assert code == "rated_room_humans_only"
    assert (await call(http, "GET", f"/api/rooms/{room['id']}", host))["players"][1] is None


async def test_my_matches_pages_filters_and_counts_chips(server: Hall, http: Any) -> None:
    me, rival = await guest(http, "History Me"), await guest(http, "History Rival")
    kaluki_id, _ = await _play_kaluki(server, http, [me, rival])
    await call(http, "POST", "/api/me/topup", me)
    # A one-hand Standard match at a stake, finished by the computer player that takes over
    # the host's seat when the host leaves.
    room = await call(http, "POST", "/api/rooms", me, {
        "game": "standard", "options": {"target_score": 1}, "seats": 2, "stake": 1,
        "buy_in": TOP_UP})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", me, {"count": 1})
    started = await call(http, "POST", f"/api/rooms/{room['id']}/start", me)
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", me)
    standard_id = started["match_id"]
    async def listed() -> dict[str, Any] | None:
        page = await call(http, "GET", "/api/me/matches?limit=1", me)
        return page if page["matches"][0]["id"] == standard_id else None

    page = await eventually(listed, "the finished match heads My matches")

    assert page["total"] == 2 and len(page["matches"]) == 1
    newest = page["matches"][0]
    export = await call(http, "GET", f"/api/admin/matches/{standard_id}", server_admin(server))
    hand_chips = sum(t["amount"] * ((t["to"]["seat"] == 0) - (t["from"]["seat"] == 0))
                     for t in export["transfers"] if t["reason"] == "hand")
    assert newest["chips"] == hand_chips != 0
    assert await balance(http, me) == TOP_UP + hand_chips
    assert newest["result"] == ("won" if export["match"]["winner"] == 0 else "lost")
    profile = await call(http, "GET", f"/api/players/{me.id}")
    standard = next(g for g in profile["games"] if g["game"] == "standard")
    scores = [r["scores"][0] for r in export["results"]]
    assert (standard["matches"], standard["chips"]) == (1, hand_chips)
    assert standard["average_score"] == round(sum(scores) / len(scores), 2)
    assert await refusal(http, "GET", "/api/players/nobody", None, None, 404) == "not_found"
    assert newest["score"] == export["match"]["totals"][0]
    assert [o["bot"] for o in newest["opponents"]] == ["sensible"]
    older = await call(http, "GET", "/api/me/matches?limit=1&offset=1", me)
    assert [m["id"] for m in older["matches"]] == [kaluki_id]
    entry = older["matches"][0]
    assert (entry["game"], entry["result"], entry["score"], entry["chips"]) == (
        "kaluki", "lost", 0, 0)
    assert [o["name"] for o in entry["opponents"]] == ["History Rival"]
    only = await call(http, "GET", "/api/me/matches?game=kaluki", me)
    assert [m["id"] for m in only["matches"]] == [kaluki_id] and only["total"] == 1
    assert (await call(http, "GET", "/api/me/matches?limit=0", me, status=422))


def server_admin(server: Hall) -> Player:
    return Player("admin", "admin", server.admin_token)


async def test_replays_show_what_each_seat_saw(server: Hall, http: Any) -> None:
    a, b, stranger = [await guest(http, n) for n in ("Replay A", "Replay B", "Stranger")]
    public_id, _ = await _play_kaluki(server, http, [a, b])
    mine = await call(http, "GET", f"/api/matches/{public_id}/replay", a)
    assert mine["seat"] == 0 and mine["names"] == ["Replay A", "Replay B"]
    assert len(mine["steps"]) == 1 + len(KALUKI.actions(0))
    deal = mine["steps"][0]["state"]
    assert deal["hand"] == KALUKI.deals[0]["hands"][0] and deal["hand_counts"] == [15, 15]
    assert all("hands" not in s["state"] and "stock" not in s["state"] for s in mine["steps"])
    assert all(s["state"]["revealed"] == [] for s in mine["steps"][:-1])
    assert len(mine["steps"][-1]["state"]["revealed"]) == 2  # every hand, at the hand's end
    theirs = await call(http, "GET", f"/api/matches/{public_id}/replay", b)
    assert theirs["steps"][0]["state"]["hand"] == KALUKI.deals[0]["hands"][1]
    for viewer in (stranger, None):  # a public match: anyone, as a spectator
        seen = await call(http, "GET", f"/api/matches/{public_id}/replay", viewer)
        assert seen["seat"] is None and seen["steps"][0]["state"]["hand"] == []

    private_id, _ = await _play_kaluki(server, http, [a, b], private=True)
    assert (await call(http, "GET", f"/api/matches/{private_id}/replay", b))["seat"] == 1
    for viewer in (stranger, None):
        code = await refusal(http, "GET", f"/api/matches/{private_id}/replay", viewer, None,
                             403)
        assert code == "private_match"

    room = await call(http, "POST", "/api/rooms", a, {
        "game": KALUKI.game, "options": KALUKI.options, "seats": 2, "deals": KALUKI.deals})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", b)
    running = (await call(http, "POST", f"/api/rooms/{room['id']}/start", a))["match_id"]
    for viewer in (a, stranger):
        code = await refusal(http, "GET", f"/api/matches/{running}/replay", viewer, None, 409)
        assert code == "match_in_progress"
    assert await refusal(http, "GET", "/api/matches/nope/replay", a, None, 404) == "not_found"


async def test_guest_upgrade_keeps_id_chips_and_history(server: Hall, http: Any) -> None:
    visitor, rival = await guest(http, "Visitor"), await guest(http, "Upgrade Rival")
    match_id, _ = await _play_kaluki(server, http, [visitor, rival])
    await call(http, "POST", "/api/me/topup", visitor)
    body = {"username": "visitor_1", "password": "a long enough secret 1"}
    answer = await call(http, "POST", "/api/auth/upgrade", visitor, body)
    assert answer["player"] == {"id": visitor.id, "name": "Visitor", "role": "player"}
    me = await call(http, "GET", "/api/me", visitor)  # the guest's token still works
    assert (me["is_guest"], me["username"], me["balance"]) == (False, "visitor_1", TOP_UP)
    again = await call(http, "POST", "/api/auth/login", None, body)
    assert again["player"]["id"] == visitor.id
    history = await call(http, "GET", "/api/me/matches", visitor)
    assert [m["id"] for m in history["matches"]] == [match_id]
    assert await refusal(http, "POST", "/api/auth/upgrade", visitor, body, 409) == "not_a_guest"

    # The display name must be free among accounts: "visitor" is one now, in any case.
    late = await guest(http, "Late Visitor")
    taken = {"username": "visitor_2", "password": "a long enough secret 2", "name": "VISITOR"}
    assert await refusal(http, "POST", "/api/auth/upgrade", late, taken, 409) == "name_taken"
    assert await refusal(http, "POST", "/api/auth/upgrade", late,
                         {**taken, "username": "Visitor_1"}, 409) == "username_taken"
    assert (await call(http, "GET", "/api/me", late))["is_guest"] is True
    renamed = await call(http, "POST", "/api/auth/upgrade", late, {**taken, "name": "Late"})
    assert renamed["player"]["name"] == "Late"


async def test_display_names_unique_among_accounts(server: Hall, http: Any) -> None:
    await call(http, "POST", "/api/auth/register", None,
               {"username": "namer_one", "password": "a long enough secret 3"})
    two = await call(http, "POST", "/api/auth/register", None,
                     {"username": "namer_two", "password": "a long enough secret 4"})
    second = Player(two["player"]["id"], "namer_two", two["token"])
    assert await refusal(http, "PATCH", "/api/me", second, {"name": "NAMER_ONE"}, 409) \
        == "name_taken"
    assert await refusal(http, "PATCH", "/api/me", second, {"name": "  "}, 400) \
        == "invalid_name"
    assert (await call(http, "PATCH", "/api/me", second, {"name": "Second"}))["name"] == "Second"
    assert (await call(http, "GET", f"/api/players/{second.id}"))["name"] == "Second"
    visitor = await guest(http, "Guest Namer")
    assert await refusal(http, "PATCH", "/api/me", visitor, {"name": "second"}, 409) \
        == "name_taken"  # nor may a guest pose as an account
    twin = await guest(http, "Guest Twin")
    assert (await call(http, "PATCH", "/api/me", twin, {"name": "guest namer"}))["name"] \
        == "guest namer"  # guests may share a name: they cannot keep one


async def test_top_up_at_zero_once_per_period(server: Hall, http: Any) -> None:
    broke = await guest(http, "Broke")
    status = await call(http, "GET", "/api/me/topup", broke)
    assert (status["available"], status["chips"], status["amount"]) == (True, 0, TOP_UP)
    paid = await call(http, "POST", "/api/me/topup", broke)
    assert paid == {"amount": TOP_UP, "balance": TOP_UP}
    ledger = await call(http, "GET", f"/api/admin/players/{broke.id}/ledger",
                        server_admin(server))
    [entry] = ledger["transfers"]
    assert (entry["reason"], entry["amount"], entry["key"]) == ("topup", TOP_UP,
                                                                f"topup:{broke.id}:0")
    assert entry["from"]["kind"] == "bank" and entry["to"]["player_id"] == broke.id
    status = await call(http, "GET", "/api/me/topup", broke)
    claimed = datetime.fromisoformat(entry["at"])
    assert datetime.fromisoformat(status["next_at"]) == claimed + timedelta(seconds=PERIOD)
    assert status["available"] is False
    assert await refusal(http, "POST", "/api/me/topup", broke, None, 409) == "topup_has_chips"
    # Chips at a table are still the player's: a buy-in of everything does not make them broke.
    await call(http, "POST", "/api/rooms", broke, {"game": "standard", "seats": 2,
                                                   "buy_in": TOP_UP})
    assert await balance(http, broke) == 0
    assert await refusal(http, "POST", "/api/me/topup", broke, None, 409) == "topup_has_chips"
    assert (await call(http, "GET", "/api/me/topup", broke))["chips"] == TOP_UP
    assert await refusal(http, "POST", "/api/me/topup", None, None, 401) == "not_authenticated"


async def test_a_second_top_up_waits_for_the_period(server: Hall, http: Any) -> None:
    """A player who lost the top-up at once may not claim again before the period is over: the
    refusal names the time of the next (the chips are spent by a ledger transfer to the bank,
    standing in for a lost hand)."""
    broke = await guest(http, "Broke Twice")
    await call(http, "POST", "/api/me/topup", broke)
    engine = make_engine(server.database_url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            wallet = await ledger.wallet_of(session, broke.id)
            bank = await ledger.ensure_bank(session)
            await ledger.transfer(session, f"spent:{broke.id}", wallet.id, bank.id, TOP_UP,
                                  "hand")
    finally:
        await engine.dispose()
    status = await call(http, "GET", "/api/me/topup", broke)
    assert (status["chips"], status["available"]) == (0, False)
    answer = await call(http, "POST", "/api/me/topup", broke, status=409)
    assert answer["detail"]["code"] == "topup_too_soon"
    assert status["next_at"][:19] in answer["detail"]["message"]
    assert await balance(http, broke) == 0
