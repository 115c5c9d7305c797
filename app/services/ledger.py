"""The chip ledger: balances change only through `transfer` (docs/server.md, "The chip ledger").

Contracts shared by every helper here:
- The caller owns the transaction (`async with session.begin(): ...`); nothing here commits.
  On any exception the caller's transaction must be rolled back; nothing is half-applied
  before a check fails, because every check runs before the first write.
- A transfer's idempotency key is unique. A repeated key returns the first transfer and applies
  nothing, also when two transactions race with the same key (INSERT ... ON CONFLICT DO NOTHING:
  the loser waits for the winner's commit and then sees its row).
- Account rows are locked in ascending id order (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite
  serialises writers with `BEGIN IMMEDIATE`, see app.db.session), so concurrent transfers in
  opposite directions cannot deadlock.
- A balance never goes negative: `InsufficientChips` first, `CHECK (balance >= 0)` last.
- Chips are conserved: only `mint` creates them, raising the bank's `balance` and `minted`
  together, so the sum of all balances always equals the bank's `minted`.
- The metrics count a transfer once its transaction commits (`rummy_ledger_transfers_total`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, aliased

from app import metrics
from app.db.models import Account, RoomSeat, Tournament, TournamentEntry, Transfer
from app.refusals import Code, FixedRefusal

BANK, WALLET, ESCROW = "bank", "wallet", "escrow"
_UNCOMMITTED = "ledger_transfers"  # a session's transfers its transaction has not committed


@event.listens_for(Session, "after_commit")
def _count_committed(session: Session) -> None:
    count = session.info.pop(_UNCOMMITTED, 0)
    if count:
        metrics.ledger_transfers(count)


@event.listens_for(Session, "after_rollback")
def _forget_rolled_back(session: Session) -> None:
    session.info.pop(_UNCOMMITTED, None)


class LedgerError(FixedRefusal):
    """A refused ledger operation."""


class InsufficientChips(LedgerError):
    """The transfer would make the paying account's balance negative."""

    code = Code.INSUFFICIENT_CHIPS

    def __init__(self, account_id: int, balance: int, amount: int) -> None:
        super().__init__(f"account {account_id} holds {balance} chips, cannot pay {amount}")
        self.account_id = account_id
        self.balance = balance
        self.amount = amount


class UnknownAccount(LedgerError):
    """No account has this id."""

    code = Code.UNKNOWN_ACCOUNT


class StillHasChips(LedgerError):
    """A top-up is only for a player who holds no chips at all."""

    code = Code.TOPUP_HAS_CHIPS


class TopUpTooSoon(LedgerError):
    """The last top-up was less than a period ago; `next_at` is when the next may be claimed."""

    code = Code.TOPUP_TOO_SOON

    def __init__(self, next_at: datetime) -> None:
        super().__init__(f"the next top-up may be claimed at {next_at.isoformat()}")
        self.next_at = next_at


def _insert(session: AsyncSession, model: type[Any]) -> Any:
    """The dialect's INSERT (both SQLite and PostgreSQL have ON CONFLICT DO NOTHING)."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(model)
    return sqlite.insert(model)


def _is_postgres(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"amount must be a positive integer, not {amount!r}")


# --- accounts ---------------------------------------------------------------------------------


async def _get_or_create(
    session: AsyncSession, where: Sequence[Any], values: dict[str, Any], conflict: dict[str, Any]
) -> Account:
    account = await session.scalar(select(Account).where(*where))
    if account is not None:
        return account
    await session.execute(_insert(session, Account).values(**values).on_conflict_do_nothing(
        **conflict))
    account = await session.scalar(select(Account).where(*where))
    assert account is not None  # noqa: S101 - just inserted, or inserted by a racing transaction
    return account


async def ensure_bank(session: AsyncSession) -> Account:
    """The bank account (created, empty, on first use)."""
    return await _get_or_create(
        session,
        [Account.kind == BANK],
        {"kind": BANK, "balance": 0, "minted": 0},
        {},  # the only possible conflict: the one-bank unique index
    )


async def wallet_of(session: AsyncSession, player_id: str) -> Account:
    """The wallet of `player_id` (created, empty, on first use); the player row must exist."""
    return await _get_or_create(
        session,
        [Account.kind == WALLET, Account.player_id == player_id],
        {"kind": WALLET, "player_id": player_id, "balance": 0},
        {"index_elements": ["kind", "player_id"]},
    )


async def escrows_of(session: AsyncSession, player_id: str) -> dict[str, int]:
    """The chips ``player_id`` has at tables: each room's seat escrow that is not empty (a seat
    a computer player took over still counts: its escrow returns to them at the end)."""
    rows = await session.execute(
        select(Account.room_id, Account.balance)
        .join(RoomSeat, (RoomSeat.room_id == Account.room_id) & (RoomSeat.seat == Account.seat))
        .where(Account.kind == ESCROW, RoomSeat.player_id == player_id, Account.balance > 0))
    return {str(room_id): int(amount) for room_id, amount in rows.all()}


async def entries_of(session: AsyncSession, player_id: str) -> dict[str, int]:
    """The chips ``player_id`` has in tournaments' pots: the entry of each tournament they are
    registered in that has not finished (refundable while it registers, at stake for a prize
    while it runs)."""
    rows = await session.execute(
        select(Tournament.id, Tournament.entry)
        .join(TournamentEntry, TournamentEntry.tournament_id == Tournament.id)
        .where(TournamentEntry.player_id == player_id, Tournament.entry > 0,
               Tournament.status.in_(("registering", "running"))))
    return {str(tournament_id): int(entry) for tournament_id, entry in rows.all()}


async def escrow_for(session: AsyncSession, room_id: str, seat: int) -> Account:
    """The escrow account of a room's seat (created, empty, on first use)."""
    return await _get_or_create(
        session,
        [Account.room_id == room_id, Account.seat == seat],
        {"kind": ESCROW, "room_id": room_id, "seat": seat, "balance": 0},
        {"index_elements": ["room_id", "seat"]},
    )


POT_SEAT = -1  # a tournament's pot is the escrow of no seat, named by the tournament's id


async def pot_of(session: AsyncSession, tournament_id: str) -> Account:
    """A tournament's pot: the escrow account that holds its entries until they are refunded
    or paid as prizes (created, empty, on first use). Tournament ids are 32 characters and
    rooms' 16, so a pot is never a room's escrow."""
    return await escrow_for(session, tournament_id, POT_SEAT)


async def balance(session: AsyncSession, account_id: int) -> int:
    """The account's balance as the database holds it now."""
    value = await session.scalar(select(Account.balance).where(Account.id == account_id))
    if value is None:
        raise UnknownAccount(f"no account {account_id}")
    return int(value)


async def account_history(session: AsyncSession, account_id: int) -> list[Transfer]:
    """Every transfer into or out of the account, oldest first."""
    rows = await session.scalars(
        select(Transfer)
        .where(or_(Transfer.from_account == account_id, Transfer.to_account == account_id))
        .order_by(Transfer.id)
    )
    return list(rows)


async def lock_accounts(session: AsyncSession, account_ids: Iterable[int]) -> dict[int, Account]:
    """Lock the accounts one by one in ascending id order and return them, freshly read.

    Within one transaction, lock every account a multi-transfer operation will touch first
    (as `settle_hand` does), so its locks too are taken in one ascending order.
    """
    locked: dict[int, Account] = {}
    for account_id in sorted(set(account_ids)):
        query = select(Account).where(Account.id == account_id)
        query = query.execution_options(populate_existing=True)
        if _is_postgres(session):
            query = query.with_for_update()
        account = await session.scalar(query)
        if account is None:
            raise UnknownAccount(f"no account {account_id}")
        locked[account_id] = account
    return locked


# --- transfers --------------------------------------------------------------------------------


async def find_transfer(session: AsyncSession, key: str) -> Transfer | None:
    """The transfer made with this idempotency key, if any."""
    return await session.scalar(select(Transfer).where(Transfer.idempotency_key == key))


async def _record(session: AsyncSession, key: str, **values: Any) -> Transfer | None:
    """Insert the transfer row; None if the key already exists (the caller then applies nothing)."""
    statement = (
        _insert(session, Transfer)
        .values(idempotency_key=key, **values)
        .on_conflict_do_nothing(index_elements=["idempotency_key"])
        .returning(Transfer.id)
    )
    transfer_id = await session.scalar(statement)
    if transfer_id is None:
        return None
    session.info[_UNCOMMITTED] = session.info.get(_UNCOMMITTED, 0) + 1
    return await session.get(Transfer, transfer_id)


async def _add(session: AsyncSession, account_id: int, delta: int, *, mint: bool = False) -> None:
    values: dict[str, Any] = {"balance": Account.balance + delta}
    if mint:
        values["minted"] = Account.minted + delta
    await session.execute(update(Account).where(Account.id == account_id).values(**values))


async def mint(session: AsyncSession, key: str, amount: int, reason: str = "mint") -> Transfer:
    """Create `amount` chips in the bank (balance and minted together); idempotent by `key`."""
    _check_amount(amount)
    existing = await find_transfer(session, key)
    if existing is not None:
        return existing
    bank = await ensure_bank(session)
    await lock_accounts(session, [bank.id])
    transfer = await _record(
        session, key, from_account=None, to_account=bank.id, amount=amount, reason=reason
    )
    if transfer is None:  # a racing transaction used the key first
        return await _existing(session, key)
    await _add(session, bank.id, amount, mint=True)
    return transfer


async def _existing(session: AsyncSession, key: str) -> Transfer:
    transfer = await find_transfer(session, key)
    assert transfer is not None  # noqa: S101 - ON CONFLICT saw it, so it is committed
    return transfer


async def transfer(
    session: AsyncSession,
    key: str,
    from_id: int,
    to_id: int,
    amount: int,
    reason: str,
    *,
    match_id: str | None = None,
    hand_no: int | None = None,
    at: datetime | None = None,
) -> Transfer:
    """Move `amount` chips from one account to another; idempotent by `key`; `at` is the
    transfer's time (default: now).

    A repeated key returns the first transfer unchanged and applies nothing, whatever the other
    arguments. Raises `InsufficientChips` (nothing written) if the payer holds too little,
    `UnknownAccount` for a missing account and `ValueError` for a bad amount or a self-transfer.
    """
    _check_amount(amount)
    if from_id == to_id:
        raise ValueError(f"transfer from account {from_id} to itself")
    existing = await find_transfer(session, key)
    if existing is not None:
        return existing
    locked = await lock_accounts(session, [from_id, to_id])
    if locked[from_id].balance < amount:
        raise InsufficientChips(from_id, locked[from_id].balance, amount)
    record = await _record(
        session, key, from_account=from_id, to_account=to_id, amount=amount, reason=reason,
        match_id=match_id, hand_no=hand_no, **({} if at is None else {"created_at": at}),
    )
    if record is None:
        return await _existing(session, key)
    await _add(session, from_id, -amount)
    await _add(session, to_id, amount)
    return record


async def _from_bank(
    session: AsyncSession, key: str, to_id: int, amount: int, reason: str,
    at: datetime | None = None,
) -> Transfer:
    """Pay from the bank, minting first whatever the bank lacks (key `mint:{key}`)."""
    existing = await find_transfer(session, key)
    if existing is not None:
        return existing
    bank = await ensure_bank(session)
    held = (await lock_accounts(session, [bank.id, to_id]))[bank.id].balance
    if held < amount:
        await mint(session, f"mint:{key}", amount - held)
    return await transfer(session, key, bank.id, to_id, amount, reason, at=at)


async def grant(session: AsyncSession, player_id: str, amount: int) -> Transfer | None:
    """The starting grant of a new player from the bank (key `grant:{player_id}`); None if 0."""
    if amount == 0:
        return None
    wallet = await wallet_of(session, player_id)
    return await _from_bank(session, f"grant:{player_id}", wallet.id, amount, "grant")


async def correct(session: AsyncSession, key: str, player_id: str, amount: int) -> Transfer:
    """An admin's correction of a wallet: a compensating transfer, never an edit. ``amount`` > 0
    pays the wallet from the bank (minting what the bank lacks), < 0 pays the bank from the
    wallet (`InsufficientChips` if it holds too little: nothing written); reason
    ``correction``, idempotent by ``key``."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise ValueError(f"a correction is a non-zero integer, not {amount!r}")
    wallet = await wallet_of(session, player_id)
    if amount > 0:
        return await _from_bank(session, key, wallet.id, amount, "correction")
    bank = await ensure_bank(session)
    return await transfer(session, key, wallet.id, bank.id, -amount, "correction")


async def last_top_up(session: AsyncSession, wallet_id: int) -> Transfer | None:
    """The wallet's latest top-up, if any."""
    return await session.scalar(
        select(Transfer).where(Transfer.to_account == wallet_id, Transfer.reason == "topup")
        .order_by(Transfer.id.desc()).limit(1))


async def top_up(
    session: AsyncSession,
    player_id: str,
    amount: int,
    period: timedelta,
    now: datetime,
    escrow_ids: Iterable[int] = (),
) -> Transfer:
    """Pay a player who holds no chips `amount` from the bank (minting what it lacks), at most
    once per `period`; the key `topup:{player_id}:{n}` counts the player's top-ups.

    `escrow_ids` are the escrows of the seats the player sits in and the pots of the tournaments
    they have entered and that have not finished: chips there are still theirs.
    Every account involved is locked first, in one ascending order, so two claims at once
    serialise and the second sees the first. Raises `StillHasChips` or `TopUpTooSoon`
    (nothing written).
    """
    _check_amount(amount)
    bank = await ensure_bank(session)
    wallet = await wallet_of(session, player_id)
    escrows = list(escrow_ids)
    locked = await lock_accounts(session, [bank.id, wallet.id, *escrows])
    if any(locked[i].balance > 0 for i in [wallet.id, *escrows]):
        raise StillHasChips("a top-up is only for a player with no chips, in the wallet, "
                            "at a table or in a tournament's entries")
    last = await last_top_up(session, wallet.id)
    if last is not None and last.created_at + period > now:
        raise TopUpTooSoon(last.created_at + period)
    count = await session.scalar(select(func.count()).select_from(Transfer).where(
        Transfer.to_account == wallet.id, Transfer.reason == "topup"))
    return await _from_bank(session, f"topup:{player_id}:{count}", wallet.id, amount, "topup",
                            at=now)


# --- rooms ------------------------------------------------------------------------------------


async def buy_in(
    session: AsyncSession,
    key: str,
    room_id: str,
    seat: int,
    amount: int,
    *,
    player_id: str | None = None,
) -> Transfer:
    """Move a buy-in into the seat's escrow: from the player's wallet, or (a bot, `player_id`
    None) from the bank, minting what the bank lacks. Raises `InsufficientChips` for a player
    whose wallet holds too little."""
    escrow = await escrow_for(session, room_id, seat)
    if player_id is None:
        return await _from_bank(session, key, escrow.id, amount, "buy_in")
    wallet = await wallet_of(session, player_id)
    return await transfer(session, key, wallet.id, escrow.id, amount, "buy_in")


async def cash_out(
    session: AsyncSession,
    key: str,
    room_id: str,
    seat: int,
    *,
    player_id: str | None = None,
) -> Transfer | None:
    """Move the seat's whole escrow balance to the player's wallet (a bot's: to the bank).

    Returns the transfer, or None if the escrow is empty and the key unused.
    """
    existing = await find_transfer(session, key)
    if existing is not None:
        return existing
    escrow = await escrow_for(session, room_id, seat)
    if player_id is None:
        target = await ensure_bank(session)
    else:
        target = await wallet_of(session, player_id)
    held = (await lock_accounts(session, [escrow.id, target.id]))[escrow.id].balance
    if held == 0:
        return None
    return await transfer(session, key, escrow.id, target.id, held, "cash_out")


def hand_key(match_id: str, hand_no: int, payer: int, payee: int) -> str:
    """The idempotency key of one hand payment."""
    return f"hand:{match_id}:{hand_no}:{payer}:{payee}"


def _merge(payments: Iterable[Sequence[int]]) -> dict[tuple[int, int], int]:
    """Points owed per (payer, payee), in first-seen order; one key per pair."""
    owed: dict[tuple[int, int], int] = {}
    for payer, payee, points in payments:
        if points > 0 and payer != payee:
            owed[(payer, payee)] = owed.get((payer, payee), 0) + points
    return owed


async def settle_hand(
    session: AsyncSession,
    match_id: str,
    hand_no: int,
    payments: Iterable[Sequence[int]],
    stake: int,
    escrow_by_seat: Mapping[int, int],
) -> list[Transfer]:
    """Settle a finished hand from escrow; return the transfers (new or found by key).

    `payments` are the engine's `HandResult.payments`, (payer seat, payee seat, points); each
    moves `min(points * stake, payer's escrow balance)` chips, with key
    `hand:{match_id}:{hand_no}:{payer}:{payee}`, in the caller's transaction (the one that
    records the hand's result). Settling a hand again applies nothing. Stake 0 moves nothing.
    `escrow_by_seat` maps every seat named in `payments` to its escrow account id.
    Payments for the same (payer, payee) pair are added together first (one key per pair).
    """
    if stake < 0:
        raise ValueError(f"stake must not be negative, not {stake!r}")
    owed = _merge(payments)
    if stake == 0 or not owed:
        return []
    seats = {seat for pair in owed for seat in pair}
    await lock_accounts(session, [escrow_by_seat[seat] for seat in seats])
    transfers = []
    for (payer, payee), points in owed.items():
        key = hand_key(match_id, hand_no, payer, payee)
        found = await find_transfer(session, key)
        if found is not None:
            transfers.append(found)
            continue
        amount = min(points * stake, await balance(session, escrow_by_seat[payer]))
        if amount > 0:
            transfers.append(await transfer(
                session, key, escrow_by_seat[payer], escrow_by_seat[payee], amount, "hand",
                match_id=match_id, hand_no=hand_no,
            ))
    return transfers


def net_by_seat(seats: int, moves: Iterable[Sequence[int]]) -> list[int]:
    """Each seat's chips won (+) or lost (-) from (payer seat, payee seat, chips) moves."""
    net = [0] * seats
    for payer, payee, amount in moves:
        net[payer] -= amount
        net[payee] += amount
    return net


async def hand_moves(session: AsyncSession, match_ids: Sequence[str | None],
                     ) -> dict[str, dict[int, list[tuple[int, int, int]]]]:
    """The hand settlements the ledger holds, per match and hand: (payer seat, payee seat,
    chips) as really moved, i.e. capped by the payer's escrow."""
    payer, payee = aliased(Account), aliased(Account)
    rows = await session.execute(
        select(Transfer.match_id, Transfer.hand_no, payer.seat, payee.seat, Transfer.amount)
        .join(payer, payer.id == Transfer.from_account)
        .join(payee, payee.id == Transfer.to_account)
        .where(Transfer.reason == "hand", Transfer.match_id.in_(match_ids))
        .order_by(Transfer.id))
    out: dict[str, dict[int, list[tuple[int, int, int]]]] = {}
    for match_id, hand_no, from_seat, to_seat, amount in rows.all():
        out.setdefault(str(match_id), {}).setdefault(int(hand_no or 0), []).append(
            (int(from_seat or 0), int(to_seat or 0), int(amount)))
    return out


async def totals(session: AsyncSession) -> tuple[int, int]:
    """(sum of all balances, the bank's minted): equal whenever the ledger is sound."""
    held = await session.scalar(select(func.coalesce(func.sum(Account.balance), 0)))
    minted = await session.scalar(select(Account.minted).where(Account.kind == BANK))
    return int(held or 0), int(minted or 0)
