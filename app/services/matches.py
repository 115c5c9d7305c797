"""Reading match history for admins: lists, the full match log (PROTOCOL.md §4) and ledgers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Account,
    ChatMessage,
    HandResult,
    Match,
    MatchAction,
    MatchHand,
    MatchSeat,
    Player,
    Transfer,
)
from app.refusals import Code, FixedRefusal
from app.services import ledger


class NotFound(FixedRefusal):
    code = Code.NOT_FOUND


async def existing_player(s: AsyncSession, player_id: str) -> Player:
    """The player ``player_id``, or 404 ``not_found`` (the message holds at most 40 characters
    of the id asked for)."""
    found = await s.get(Player, player_id)
    if found is None:
        raise NotFound(f"no player {player_id[:40]!r}")
    return found


async def list_matches(s: AsyncSession, *, player: str | None = None, game: str | None = None,
                       status: str | None = None, since: datetime | None = None,
                       until: datetime | None = None, limit: int = 50,
                       offset: int = 0) -> list[dict[str, Any]]:
    """Matches newest first, filtered by a player's id or name, game, status and date."""
    query = select(Match)
    if player:
        seated = select(MatchSeat.match_id).join(Player, Player.id == MatchSeat.player_id,
                                                  isouter=True).where(
            (MatchSeat.player_id == player) | (Player.username == player)
            | (MatchSeat.name == player))
        query = query.where(Match.id.in_(seated))
    if game:
        query = query.where(Match.game == game)
    if status:
        query = query.where(Match.status == status)
    if since:
        query = query.where(Match.created_at >= since)
    if until:
        query = query.where(Match.created_at <= until)
    matches = (await s.scalars(query.order_by(Match.created_at.desc(), Match.id)
                               .limit(limit).offset(offset))).all()
    return [await _summary(s, m) for m in matches]


async def _seats(s: AsyncSession, match_id: str) -> list[dict[str, Any]]:
    rows = (await s.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id)
                            .order_by(MatchSeat.seat))).all()
    return [{"seat": r.seat, "player_id": r.player_id, "bot": r.bot, "name": r.name}
            for r in rows]


async def _summary(s: AsyncSession, m: Match) -> dict[str, Any]:
    return {"id": m.id, "room_id": m.room_id, "game": m.game, "options": m.options,
            "players": m.players, "stake": m.stake, "status": m.status, "winner": m.winner,
            "totals": m.totals, "created_at": m.created_at.isoformat(),
            "finished_at": m.finished_at.isoformat() if m.finished_at else None,
            "seats": await _seats(s, m.id)}


async def match_log(s: AsyncSession, match_id: str) -> dict[str, Any]:
    """The match as a PROTOCOL.md §4 match log, with results, transfers and chat added."""
    match = await s.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id!r}")
    hands = (await s.scalars(select(MatchHand).where(MatchHand.match_id == match_id)
                             .order_by(MatchHand.hand_no))).all()
    actions = (await s.scalars(select(MatchAction).where(MatchAction.match_id == match_id)
                               .order_by(MatchAction.hand_no, MatchAction.seq))).all()
    results = (await s.scalars(select(HandResult).where(HandResult.match_id == match_id)
                               .order_by(HandResult.hand_no))).all()
    transfers = await _match_transfers(s, match)
    chat = (await s.scalars(select(ChatMessage).where(ChatMessage.match_id == match_id)
                            .order_by(ChatMessage.created_at))).all()
    return {
        "game": match.game, "options": match.options, "players": match.players,
        "hands": [{"dealer": h.dealer, "deal": h.deal, **_seeds(h), "actions": [
            _logged(a) for a in actions if a.hand_no == h.hand_no]} for h in hands],
        "match": await _summary(s, match),
        "results": [{"hand": r.hand_no, "winner": r.winner, "reason": r.reason,
                     "scores": r.scores, **(r.detail or {})} for r in results],
        "transfers": [await _transfer(s, t) for t in transfers],
        "chat": [{"seat": c.seat, "name": c.name, "text": c.text,
                  "at": c.created_at.isoformat()} for c in chat],
    }


async def _match_transfers(s: AsyncSession, match: Match) -> Sequence[Transfer]:
    """The match's chips: hand settlements, and every buy-in and cash-out of its seats' escrow
    accounts (those carry no match id: they belong to the room, which holds one match)."""
    escrows = select(Account.id).where(Account.kind == ledger.ESCROW,
                                       Account.room_id == match.room_id)
    return (await s.scalars(select(Transfer).where(
        (Transfer.match_id == match.id) | Transfer.from_account.in_(escrows)
        | Transfer.to_account.in_(escrows)).order_by(Transfer.id))).all()


def _seeds(h: MatchHand) -> dict[str, Any]:
    """A hand's seeds beside its deal (PROTOCOL.md §7); none for a stacked deal."""
    if h.server_seed is None:
        return {}
    return {"server_seed": h.server_seed, "client_seeds": h.client_seeds}


def _logged(a: MatchAction) -> dict[str, Any]:
    """A logged action as PROTOCOL.md §4 writes it: with its ``played_for`` where the server
    made the move for a person's seat, the client's id where it had one, and when."""
    entry: dict[str, Any] = {"seat": a.seat, "action": a.action}
    if a.played_for is not None:
        entry["played_for"] = a.played_for
    if a.client_id is not None:
        entry["client_id"] = orjson.loads(a.client_id)
    entry["at"] = a.created_at.isoformat()
    return entry


async def _transfer(s: AsyncSession, t: Transfer) -> dict[str, Any]:
    return {"id": t.id, "key": t.idempotency_key, "from": await _describe(s, t.from_account),
            "to": await _describe(s, t.to_account), "amount": t.amount, "reason": t.reason,
            "hand": t.hand_no, "at": t.created_at.isoformat()}


async def _describe(s: AsyncSession, account_id: int | None) -> dict[str, Any] | None:
    if account_id is None:
        return None
    acc = await s.get(Account, account_id)
    if acc is None:
        return None
    return {"account": acc.id, "kind": acc.kind, "player_id": acc.player_id,
            "room_id": acc.room_id, "seat": acc.seat}


async def player_ledger(s: AsyncSession, player_id: str) -> dict[str, Any]:
    """A player's wallet: balance and every transfer in or out, newest first."""
    found = await existing_player(s, player_id)
    wallet = await ledger.wallet_of(s, player_id)
    history = await ledger.account_history(s, wallet.id)
    return {"player": {"id": found.id, "name": found.name, "username": found.username,
                       "role": found.role, "is_guest": found.is_guest},
            "balance": wallet.balance,
            "transfers": [await _transfer(s, t) for t in sorted(history, key=lambda t: -t.id)]}


async def list_players(s: AsyncSession, query: str | None = None,
                       limit: int = 50) -> list[dict[str, Any]]:
    stmt = select(Player)
    if query:
        like = f"%{query}%"
        stmt = stmt.where(Player.name.ilike(like) | Player.username.ilike(like))
    players = (await s.scalars(stmt.order_by(Player.created_at.desc()).limit(limit))).all()
    return [{"id": p.id, "name": p.name, "username": p.username, "role": p.role,
             "is_guest": p.is_guest} for p in players]
