"""Guests, registration, login, bearer tokens and admins, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import utcnow
from app.db.models import AuthToken, Player
from app.services import accounts, ledger
from app.settings import get_settings
from tests.db.ledger_helpers import check_invariants

Sessions = async_sessionmaker[AsyncSession]


async def _wallet_balance(sessions: Sessions, player_id: str) -> int:
    async with sessions() as session:
        return await ledger.balance(session, (await ledger.wallet_of(session, player_id)).id)


async def test_guest_gets_the_starting_grant(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        guest = await accounts.create_guest(session, "  Ann  ")

    assert (guest.name, guest.is_guest, guest.username, guest.role) == ("Ann", True, None, "player")
    assert await _wallet_balance(sessions, guest.id) == get_settings().starting_chips
    async with sessions() as session:
        grant = await ledger.find_transfer(session, f"grant:{guest.id}")
        assert grant is not None and grant.reason == "grant"
        await check_invariants(session)


async def test_grant_is_rolled_back_with_the_player(sessions: Sessions) -> None:
    with pytest.raises(RuntimeError):
        async with sessions() as session, session.begin():
            await accounts.create_guest(session, "Ann")
            raise RuntimeError("the request failed after creating the player")

    async with sessions() as session:
        assert list(await session.scalars(select(Player))) == []
        assert await ledger.totals(session) == (0, 0)


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "bad\nname", "nul\x00"])
async def test_bad_guest_names_are_refused(sessions: Sessions, name: str) -> None:
    async with sessions() as session, session.begin():
        with pytest.raises(accounts.InvalidName):
            await accounts.create_guest(session, name)


async def test_register_login_and_token(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        player = await accounts.register(session, "alice_1", "correct horse", starting_chips=250)
        token = await accounts.issue_token(session, player.id)

    assert (player.username, player.name, player.is_guest) == ("alice_1", "alice_1", False)
    assert player.password_hash is not None and player.password_hash.startswith("$argon2id$")
    assert await _wallet_balance(sessions, player.id) == 250
    async with sessions() as session, session.begin():
        assert (await accounts.login(session, "alice_1", "correct horse")).id == player.id
        found = await accounts.player_for_token(session, token)
        assert found is not None and found.id == player.id
        stored = await session.scalar(select(AuthToken))
        assert stored is not None
        assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest() != token
        assert stored.expires_at - stored.created_at == timedelta(days=30)


async def test_tokens_expire_and_can_be_revoked(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        player = await accounts.create_guest(session, "Ann")
        old = await accounts.issue_token(session, player.id, now=utcnow() - timedelta(days=31))
        token = await accounts.issue_token(session, player.id)

    async with sessions() as session, session.begin():
        assert await accounts.player_for_token(session, old) is None
        assert await accounts.player_for_token(session, token) is not None
        assert await accounts.player_for_token(session, "not-a-token") is None
        assert await accounts.player_for_token(session, "") is None
        await accounts.revoke_token(session, token)
        assert await accounts.player_for_token(session, token) is None


async def test_wrong_password_and_unknown_user_are_refused_alike(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await accounts.register(session, "alice", "correct horse")

    for username, password in [("alice", "wrong horse"), ("bob", "correct horse"),
                               ("alice", ""), ("Alice", "Correct horse")]:
        async with sessions() as session, session.begin():
            with pytest.raises(accounts.InvalidCredentials) as raised:
                await accounts.login(session, username, password)
            assert raised.value.code == "invalid_credentials"
            assert str(raised.value) == "unknown username or wrong password"


async def test_guests_cannot_log_in(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await accounts.create_guest(session, "alice")
        with pytest.raises(accounts.InvalidCredentials):
            await accounts.login(session, "alice", "whatever password")


async def test_duplicate_username_is_refused(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await accounts.register(session, "alice", "correct horse")
    async with sessions() as session, session.begin():
        with pytest.raises(accounts.UsernameTaken):
            await accounts.register(session, "alice", "another horse")

    async with sessions() as session:
        assert len(list(await session.scalars(select(Player)))) == 1
        await check_invariants(session)


@pytest.mark.parametrize(
    ("username", "password", "error"),
    [
        ("al", "correct horse", accounts.InvalidUsername),
        ("a" * 33, "correct horse", accounts.InvalidUsername),
        ("al ice", "correct horse", accounts.InvalidUsername),
        ("alice!", "correct horse", accounts.InvalidUsername),
        ("élise", "correct horse", accounts.InvalidUsername),
        ("alice", "short", accounts.WeakPassword),
        ("alice", "123456789", accounts.WeakPassword),
    ],
)
async def test_register_validates(
    sessions: Sessions, username: str, password: str, error: type[Exception]
) -> None:
    async with sessions() as session, session.begin():
        with pytest.raises(error):
            await accounts.register(session, username, password)
        assert list(await session.scalars(select(Player))) == []


async def test_register_accepts_the_limits(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await accounts.register(session, "abc", "zq8-lm4-pw")
        await accounts.register(session, "A_" + "z" * 30, "x" * accounts.MAX_PASSWORD)


async def test_create_admin_creates_or_promotes(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        admin = await accounts.create_admin(session, "boss", "boss password")
        player = await accounts.register(session, "carol", "carol password")
    assert admin.role == "admin" and not admin.is_guest

    async with sessions() as session, session.begin():
        promoted = await accounts.create_admin(session, "carol", "ignored password")
        assert (promoted.id, promoted.role) == (player.id, "admin")
        # An existing player keeps their password.
        assert (await accounts.login(session, "carol", "carol password")).role == "admin"
        assert (await accounts.login(session, "boss", "boss password")).id == admin.id
    assert await _wallet_balance(sessions, admin.id) == get_settings().starting_chips


async def test_zero_starting_chips_grants_nothing(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        guest = await accounts.create_guest(session, "Ann", starting_chips=0)
        assert await ledger.find_transfer(session, f"grant:{guest.id}") is None


@pytest.mark.parametrize("password", ["1234567890", "qwertyuiop", "Password1234", " iloveyou12 "])
async def test_common_passwords_are_refused_saying_why(sessions: Sessions, password: str) -> None:
    async with sessions() as session, session.begin():
        with pytest.raises(accounts.WeakPassword, match="one of the most common passwords"):
            await accounts.register(session, "alice", password)


async def test_short_and_long_passwords_are_refused_saying_why(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        with pytest.raises(accounts.WeakPassword, match="at least 10 characters"):
            await accounts.register(session, "alice", "q7#vX2!mz")
        with pytest.raises(accounts.WeakPassword, match="at most 1024 characters"):
            await accounts.register(session, "alice", "x" * 1025)


async def test_usernames_are_the_same_without_regard_to_case(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        ann = await accounts.register(session, "ann", "correct horse")
    async with sessions() as session, session.begin():
        with pytest.raises(accounts.UsernameTaken, match="differ only in letter case"):
            await accounts.register(session, "Ann", "another horse")
    async with sessions() as session, session.begin():
        assert (await accounts.login(session, "ANN", "correct horse")).id == ann.id
        assert (await accounts.create_admin(session, "aNN", "ignored password")).id == ann.id
        assert len(list(await session.scalars(select(Player)))) == 1
