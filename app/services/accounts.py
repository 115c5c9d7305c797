"""Players, logins and bearer tokens.

Guests have a name only; registered players a username (unique without regard to case) and an
argon2id hash of a password of at least 10 characters that is not a well-known common one.
A bearer token is `secrets.token_urlsafe(32)` given to the client once; only its sha256 is
stored, with an expiry. Every new player receives the starting grant from the bank in the same
transaction (ledger key `grant:{player_id}`). Password hashing runs off the event loop.
Nothing here commits: the caller's transaction (`async with session.begin()`) owns it.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.db.models import AuthToken, Player
from app.refusals import Code, FixedRefusal
from app.services import ledger
from app.settings import get_settings

TOKEN_LIFETIME = timedelta(days=30)
USERNAME = re.compile(r"[A-Za-z0-9_]{3,32}")
MIN_PASSWORD = 10
MAX_PASSWORD = 1024  # hashing cost is bounded; nobody types more
MAX_NAME = 32
# 20,000 common passwords, lowercased (Django's list; source and licence beside it).
COMMON_PASSWORDS = Path(__file__).resolve().parent / "data" / "common-passwords.txt.gz"

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """Verified against when the username is unknown, so both failures take the same time;
    made at the first login, not at import (every server start and CLI command imports this)."""
    return _hasher.hash("not a real password, only for timing")


class AccountError(FixedRefusal):
    """A refused account operation."""


class InvalidName(AccountError):
    code = Code.INVALID_NAME


class InvalidUsername(AccountError):
    code = Code.INVALID_USERNAME


class WeakPassword(AccountError):
    code = Code.WEAK_PASSWORD


class UsernameTaken(AccountError):
    code = Code.USERNAME_TAKEN


class InvalidCredentials(AccountError):
    code = Code.INVALID_CREDENTIALS


class NameTaken(AccountError):
    code = Code.NAME_TAKEN


class NotAGuest(AccountError):
    code = Code.NOT_A_GUEST


# --- validation and hashing -------------------------------------------------------------------


def check_name(name: str) -> str:
    """The display name, stripped; 1 to 32 printable characters, else `InvalidName`."""
    clean = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(clean) <= MAX_NAME:
        raise InvalidName(f"name must be 1 to {MAX_NAME} characters: {name!r}")
    if any(unicodedata.category(ch)[0] == "C" for ch in clean):
        raise InvalidName(f"name must not contain control characters: {name!r}")
    return clean


def check_username(username: str) -> str:
    """The username if it is 3 to 32 of [A-Za-z0-9_], else `InvalidUsername`."""
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise InvalidUsername(f"username must be 3 to 32 of A-Z a-z 0-9 _: {username!r}")
    return username


@lru_cache(maxsize=1)
def _common_passwords() -> frozenset[str]:
    with gzip.open(COMMON_PASSWORDS, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines)


def check_password(password: str) -> str:
    """The password if it has 10 to 1024 characters and is not in the list of common passwords
    (compared without regard to case), else `WeakPassword` saying which rule it breaks."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise WeakPassword(f"password must have at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise WeakPassword(f"password must have at most {MAX_PASSWORD} characters")
    if password.strip().lower() in _common_passwords():
        raise WeakPassword("password is one of the most common passwords, which are tried "
                           "first when accounts are attacked: choose another")
    return password


async def hash_password(password: str) -> str:
    """The argon2id hash of `password`, computed in a worker thread."""
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(password_hash: str, password: str) -> bool:
    """Whether `password` matches `password_hash`, checked in a worker thread."""

    def verify() -> bool:
        try:
            return bool(_hasher.verify(password_hash, password))
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


def token_hash(token: str) -> str:
    """The sha256 hex digest under which a bearer token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


# --- players ----------------------------------------------------------------------------------


async def _check_name_free(session: AsyncSession, name: str, player_id: str | None) -> None:
    """An account's display name is its own without regard to case: no other account and no
    guest may take it (guests may share a name among themselves: they cannot keep one)."""
    holder = await session.scalar(select(Player.id).where(
        func.lower(Player.name) == name.lower(), Player.is_guest.is_(False)))
    if holder is not None and holder != player_id:
        raise NameTaken(f"the name {name!r} is taken by an account (names that differ only "
                        "in letter case are the same): choose another")


async def _flush_account(session: AsyncSession, player: Player, **changes: str | bool) -> None:
    """Apply `changes` to the account's row and write it inside a savepoint, so that a racing
    duplicate username or name, refused by its unique index, rolls back only this write.

    The changes are made inside the savepoint, not before it: opening the savepoint flushes
    what is pending, so changes made before would be written outside it, where the index's
    refusal aborts the whole transaction (and a refused race answered 500)."""
    try:
        async with session.begin_nested():
            for field, value in changes.items():
                setattr(player, field, value)
            await session.flush()
    except IntegrityError as exc:  # the row is expired now: the message names what was asked
        if "account_name" in str(exc.orig):  # uq_players_account_name_lower
            raise NameTaken(f"the name {changes['name']!r} was just taken by an account: "
                            "choose another") from exc
        raise UsernameTaken(f"username {changes.get('username')!r} was just taken (usernames "
                            "that differ only in letter case are the same)") from exc


async def _add_player(session: AsyncSession, player: Player, starting_chips: int | None) -> Player:
    """Insert the player (UsernameTaken on a duplicate) and give the starting grant."""
    try:
        async with session.begin_nested():
            session.add(player)
            await session.flush()
    except IntegrityError as exc:
        raise UsernameTaken(f"username {player.username!r} is taken") from exc
    chips = get_settings().starting_chips if starting_chips is None else starting_chips
    await ledger.grant(session, player.id, chips)
    return player


async def create_guest(
    session: AsyncSession, name: str, *, starting_chips: int | None = None
) -> Player:
    """A new guest player with the starting grant; `NameTaken` if an account's name is `name`."""
    display = check_name(name)
    await _check_name_free(session, display, None)
    player = Player(name=display, is_guest=True, role="player")
    return await _add_player(session, player, starting_chips)


async def _by_username(session: AsyncSession, username: str) -> Player | None:
    """The player whose username is `username` without regard to case (usernames are ASCII)."""
    return await session.scalar(
        select(Player).where(func.lower(Player.username) == username.lower()))


async def register(
    session: AsyncSession,
    username: str,
    password: str,
    *,
    name: str | None = None,
    role: str = "player",
    starting_chips: int | None = None,
) -> Player:
    """A new registered player (display name defaults to the username) with the starting grant.

    Raises `InvalidUsername`, `WeakPassword`, `InvalidName`, `UsernameTaken` or `NameTaken`.
    """
    check_username(username)
    check_password(password)
    display = check_name(name if name is not None else username)
    await _check_username_free(session, username)
    await _check_name_free(session, display, None)
    password_hash = await hash_password(password)
    player = Player(
        name=display, username=username, password_hash=password_hash, is_guest=False, role=role
    )
    return await _add_player(session, player, starting_chips)


async def _check_username_free(session: AsyncSession, username: str) -> None:
    if await _by_username(session, username) is not None:
        raise UsernameTaken(f"username {username!r} is taken (usernames that differ only in "
                            "letter case are the same)")


async def _locked(session: AsyncSession, player_id: str) -> Player:
    """The player's row, locked until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL) and read afresh: changes to one player run one after the other, and each sees
    what the one before it committed."""
    player = await session.get(Player, player_id, with_for_update=True, populate_existing=True)
    if player is None:
        raise InvalidCredentials("no such player")
    return player


async def upgrade_guest(session: AsyncSession, player_id: str, username: str, password: str,
                        name: str | None = None) -> Player:
    """Make a guest an account in place: the same id, so the same chips, history and tokens.
    The display name stays unless `name` is given (either must be free among accounts).

    Raises `NotAGuest`, `InvalidUsername`, `WeakPassword`, `InvalidName`, `UsernameTaken` or
    `NameTaken`; nothing changes then. The guest's row is locked before it is checked, so of
    one guest's upgrades at once one wins and the others find an account (`NotAGuest`).
    """
    check_username(username)
    check_password(password)
    password_hash = await hash_password(password)  # before the lock: it takes a while
    player = await _locked(session, player_id)
    if not player.is_guest:
        raise NotAGuest("this player is already an account")
    display = check_name(name if name is not None else player.name)
    await _check_username_free(session, username)
    await _check_name_free(session, display, player.id)
    await _flush_account(session, player, username=username, password_hash=password_hash,
                         is_guest=False, name=display)
    return player


async def rename(session: AsyncSession, player_id: str, name: str) -> Player:
    """Change the display name: it must not be another account's (`NameTaken`)."""
    display = check_name(name)
    player = await _locked(session, player_id)
    await _check_name_free(session, display, player.id)
    await _flush_account(session, player, name=display)
    return player


async def login(session: AsyncSession, username: str, password: str) -> Player:
    """The registered player with these credentials, else `InvalidCredentials`."""
    player = await _by_username(session, username) if isinstance(username, str) else None
    stored = player.password_hash if player is not None else None
    given = password if isinstance(password, str) else ""
    against: str = stored if stored is not None else await asyncio.to_thread(_dummy_hash)
    matches = await verify_password(against, given)
    if player is None or stored is None or not matches:
        raise InvalidCredentials("unknown username or wrong password")
    return player


async def create_admin(session: AsyncSession, username: str, password: str) -> Player:
    """Create an admin account, or make the existing player with this username an admin.

    An existing player keeps their password (the given one is only used for a new account).
    """
    existing = await _by_username(session, check_username(username))
    if existing is not None:
        existing.role = "admin"
        await session.flush()
        return existing
    return await register(session, username, password, role="admin")


# --- tokens -----------------------------------------------------------------------------------


async def issue_token(
    session: AsyncSession, player_id: str, *, now: datetime | None = None
) -> str:
    """A new bearer token for the player, valid for 30 days; only its sha256 is stored."""
    token = secrets.token_urlsafe(32)
    issued = now or utcnow()
    session.add(AuthToken(
        token_hash=token_hash(token), player_id=player_id,
        created_at=issued, expires_at=issued + TOKEN_LIFETIME,
    ))
    await session.flush()
    return token


async def player_for_token(
    session: AsyncSession, token: str, *, now: datetime | None = None
) -> Player | None:
    """The player a valid, unexpired token belongs to, else None."""
    if not isinstance(token, str) or not token:
        return None
    query = (
        select(Player)
        .join(AuthToken, AuthToken.player_id == Player.id)
        .where(AuthToken.token_hash == token_hash(token), AuthToken.expires_at > (now or utcnow()))
    )
    return await session.scalar(query)


async def revoke_token(session: AsyncSession, token: str) -> None:
    """Forget the token (logging out); unknown tokens are ignored."""
    await session.execute(delete(AuthToken).where(AuthToken.token_hash == token_hash(token)))
