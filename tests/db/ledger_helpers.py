"""Ledger test helpers: players without grants, and the invariants every test checks."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Player, Transfer


async def bare_player(session: AsyncSession, name: str = "p") -> str:
    """A guest row with no wallet and no grant (the ledger tests fund it themselves)."""
    player = Player(name=name, is_guest=True)
    session.add(player)
    await session.flush()
    return player.id


async def check_invariants(session: AsyncSession) -> dict[int, int]:
    """Assert the ledger's invariants; return the balances by account id.

    - no balance is negative;
    - the balances sum to the bank's minted;
    - every balance equals its incoming minus its outgoing transfers (mints are incoming).
    """
    accounts = list(await session.scalars(select(Account)))
    transfers = list(await session.scalars(select(Transfer)))
    flow: dict[int, int] = defaultdict(int)
    minted = 0
    for transfer in transfers:
        assert transfer.amount > 0
        flow[transfer.to_account] += transfer.amount
        if transfer.from_account is None:
            minted += transfer.amount
        else:
            flow[transfer.from_account] -= transfer.amount
    balances = {account.id: account.balance for account in accounts}
    assert all(value >= 0 for value in balances.values()), balances
    banks = [account for account in accounts if account.kind == "bank"]
    assert len(banks) <= 1
    bank_minted = banks[0].minted if banks else 0
    assert bank_minted == minted
    assert sum(balances.values()) == minted
    assert balances == {account_id: flow[account_id] for account_id in balances}
    return balances
